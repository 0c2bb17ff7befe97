"""The public deployment of deploy/, run as written on loopback (README "Running a public relay").

The test makes its own CA and a certificate for ``koikoi.test`` and 127.0.0.1, renders deploy/'s
HAProxy configuration and the ExecStart lines of its systemd units for free loopback ports (the
specifiers %i, %H, %t and %d filled in as systemd would), and starts what a host runs: Redis,
PostgreSQL (the rating service's role logs in with the password of its credential file), two relay
nodes, the rating service and the TLS-terminating HAProxy, each stopped by its pid. Then two
Chromium pages that trust the certificate (a secure context under a name that is not localhost:
the service worker registers) play a rated match over https:// and wss://, a pair of terminal
clients plays another rated match with ``--relay wss://... --cafile CA``, and the leaderboard,
read over https:// with ``koikoi ratings``, has both results.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from koikoi_p2p.bench.cluster import RedisProcess, free_port
from tests.conftest import need_program
from tests.e2e.test_cli_console import Console
from tests.e2e.test_cli_support import SCRIPT, env_for
from tests.ratings.postgres import PostgresServer, postgres_server
from tests.tls_support import CA, Leaf

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
HOSTNAME = "koikoi.test"
CHROMIUM = os.environ.get("KOIKOI_CHROMIUM", "/usr/bin/chromium")


# -- rendering deploy/ for loopback ------------------------------------------------------------

def replace_exactly(text: str, old: str, new: str, times: int = 1) -> str:
    """``text`` with ``old`` replaced; the file must hold it exactly ``times`` times (so an edit of
    deploy/ that the rendering no longer matches fails here instead of testing something else)."""
    found = text.count(old)
    assert found == times, f"expected {times} x {old!r} in the deploy file, found {found}"
    return text.replace(old, new)


def render_haproxy(front: int, plain: int, nodes: tuple[int, int], ratings: int, acme: int,
                   cert: Path) -> str:
    text = (DEPLOY / "haproxy.cfg").read_text()
    # What needs root, and the host's syslog socket, are all this leaves out.
    for line in ("    chroot /var/lib/haproxy\n", "    user haproxy\n", "    group haproxy\n",
                 "    log /dev/log local0\n"):
        text = replace_exactly(text, line, "")
    text = replace_exactly(text, "    log global\n", "")
    text = replace_exactly(text, "bind :80\n", f"bind 127.0.0.1:{plain}\n")
    text = replace_exactly(text, "bind :443 ssl crt /etc/haproxy/certs/koikoi.pem ",
                           f"bind 127.0.0.1:{front} ssl crt {cert} ")
    text = replace_exactly(text, "127.0.0.1:8801 ", f"127.0.0.1:{nodes[0]} ", 2)
    text = replace_exactly(text, "127.0.0.1:8802 ", f"127.0.0.1:{nodes[1]} ", 2)
    text = replace_exactly(text, "127.0.0.1:8790 ", f"127.0.0.1:{ratings} ")
    text = replace_exactly(text, "127.0.0.1:8888\n", f"127.0.0.1:{acme}\n")
    return text


def unit_command(unit: str, instance: str, runtime: Path, credentials: Path,
                 swaps: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """ExecStart of a deploy/ unit as argv, and its Environment= lines, with systemd's specifiers
    %i (instance), %H and %l (host name, short), %t (runtime folder) and %d (credentials folder)
    filled in, then ``swaps``."""
    lines = [line.strip() for line in (DEPLOY / unit).read_text().splitlines()]
    service = lines[lines.index("[Service]") + 1:]
    service = service[:next((i for i, line in enumerate(service) if line.startswith("[")), len(service))]

    def fill(value: str) -> str:
        host = socket.gethostname()
        return (value.replace("%i", instance).replace("%H", host).replace("%l", host.split(".")[0])
                .replace("%t", str(runtime)).replace("%d", str(credentials)))

    starts = [line.removeprefix("ExecStart=") for line in service if line.startswith("ExecStart=")]
    assert len(starts) == 1, starts
    start = fill(starts[0])
    for old, new in swaps.items():
        start = replace_exactly(start, old, new)
    argv = shlex.split(start)
    assert argv[0] == "/opt/koikoi/bin/koikoi", argv
    argv[0] = str(SCRIPT)
    env: dict[str, str] = {}
    for line in service:
        if line.startswith("Environment="):
            name, _, value = line.removeprefix("Environment=").partition("=")
            env[name] = fill(value)
    for line in service:
        if line.startswith("RuntimeDirectory="):
            (runtime / fill(line.removeprefix("RuntimeDirectory="))).mkdir(parents=True, exist_ok=True)
    return argv, env


def test_the_units_are_valid_and_hardened(tmp_path: Path) -> None:
    for unit in ("koikoi-relay@.service", "koikoi-ratings.service"):
        text = (DEPLOY / unit).read_text()
        for option in ("DynamicUser=yes", "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes",
                       "PrivateTmp=yes", "PrivateDevices=yes", "CapabilityBoundingSet=\n",
                       "RestrictAddressFamilies=", "SystemCallFilter=@system-service", "IPAddressDeny=any",
                       "ReadOnlyPaths=/opt/koikoi"):
            assert option in text, (unit, option)
    analyze = need_program("systemd-analyze", "systemd")
    for unit, instance in (("koikoi-relay@.service", "koikoi-relay@8801.service"),
                           ("koikoi-ratings.service", "koikoi-ratings.service")):
        # ExecStart must name a program that exists: the installed koikoi stands in for /opt/koikoi.
        text = (DEPLOY / unit).read_text().replace("/opt/koikoi/bin/koikoi", str(SCRIPT))
        (tmp_path / unit).write_text(text)
        done = subprocess.run([analyze, "verify", "--man=no", instance], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120)
        # systemd-analyze only warns about an unknown key or a bad value: any output is a fault.
        assert done.returncode == 0 and not done.stderr.strip() and not done.stdout.strip(), done.stderr


def test_redis_goes_first_as_the_hostile_bench_runs_it(tmp_path: Path) -> None:
    """deploy/'s drop-in for Debian's redis-server gives Redis the share of the CPU against both relay
    nodes (one slice, the template's) that `koikoi bench relay --hostile` gives it against its two
    nodes (a session each) with REDIS_NICE: the figures measured are the deployment's."""
    from koikoi_p2p.bench.hostile import REDIS_NICE

    drop_in = DEPLOY / "redis-server.service.d" / "koikoi.conf"
    lines = drop_in.read_text().splitlines()
    service = [line for line in lines[lines.index("[Service]") + 1:] if line and not line.startswith("#")]
    values = dict(line.split("=", 1) for line in service)
    assert set(values) == {"CPUWeight"}   # Nice= would order Redis's processes among themselves only
    # The kernel's weight of a nice value: 1024 at 0, about 1.25 times more for each step below.
    nice_weight = {0: 1024, -5: 3121, -10: 9548}[REDIS_NICE]
    # Redis against both nodes together: 150 against their slice's 100 here, 3121 against 2 x 1024 there.
    assert abs(int(values["CPUWeight"]) / 100 - nice_weight / (2 * 1024)) < 0.05
    readme = (ROOT / "README.md").read_text()
    installed = "/etc/systemd/system/redis-server.service.d/koikoi.conf"
    assert f"deploy/redis-server.service.d/koikoi.conf {installed}" in readme
    analyze = need_program("systemd-analyze", "systemd")
    # A stand-in for Debian's unit, with the drop-in beside it where systemd looks for drop-ins.
    (tmp_path / "redis-server.service").write_text(f"[Service]\nExecStart={shutil.which('true')}\n")
    (tmp_path / "redis-server.service.d").mkdir()
    shutil.copy(drop_in, tmp_path / "redis-server.service.d" / "koikoi.conf")
    done = subprocess.run([analyze, "verify", "--man=no", "redis-server.service"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr.strip() and not done.stdout.strip(), done.stderr


def test_the_relay_nodes_count_each_player_not_haproxy(tmp_path: Path) -> None:
    """HAProxy connects for every player from 127.0.0.1: without the address it appends to
    X-Forwarded-For, every player would share one source's caps (spec/relay.md §7.1)."""
    argv, _ = unit_command("koikoi-relay@.service", "8801", tmp_path, tmp_path, {})
    assert argv[argv.index("--source-header") + 1] == "X-Forwarded-For"
    config = (DEPLOY / "haproxy.cfg").read_text()
    front = config[config.index("\nfrontend https"):config.index("\nbackend relay")]
    assert "option forwardfor" in front


def test_relay_nodes_of_two_hosts_on_one_redis_have_their_own_ids(tmp_path: Path) -> None:
    """QA: the unit named each node node%i (its port), so two hosts sharing a Redis ran two nodes
    under one id; a node id holds the host name too (spec/relay.md §13.1, §13.5)."""
    lines = [line for line in (DEPLOY / "koikoi-relay@.service").read_text().splitlines()
             if line.startswith("ExecStart=")]
    argv = shlex.split(lines[0])
    node = argv[argv.index("--node-id") + 1]
    assert "%i" in node and ("%H" in node or "%l" in node), node
    filled, _ = unit_command("koikoi-relay@.service", "8801", tmp_path, tmp_path, {})
    assert filled[filled.index("--node-id") + 1] == f"{socket.gethostname()}-8801"


def test_readme_unit_and_spec_agree_on_the_close_codes_of_sigterm() -> None:
    """QA: the unit said SIGTERM closes with 1012, the README 1001. Both hold: a single relay and a
    node's connections without a seat get 1001, a cluster node's seats 1012 (spec/relay.md §11)."""
    readme = (ROOT / "README.md").read_text()
    unit = (DEPLOY / "koikoi-relay@.service").read_text()
    spec = (ROOT / "spec" / "relay.md").read_text()
    shutdown = spec[spec.index("## 11. Shutdown"):spec.index("## 12.")]
    sigterm = readme[readme.index("SIGTERM tells every peer"):][:300]
    comment = next(line for line in unit.splitlines() if line.startswith("# SIGTERM"))
    comment = unit[unit.index(comment):unit.index("KillSignal=")]
    for text in (sigterm, comment, shutdown):
        assert "1001" in text and "1012" in text, text


def test_the_readme_section_names_what_deploy_holds() -> None:
    """The steps of README "Running a public relay" use the files, names, ports and paths that
    deploy/ (and so this test's deployment) uses."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Running a public relay"):]
    section = section[:section.index("\n## ", 10)]
    for file in ("koikoi-relay@.service", "koikoi-ratings.service", "haproxy.cfg", "haproxy-cert-hook"):
        assert f"deploy/{file}" in section, file
    units = (DEPLOY / "koikoi-relay@.service").read_text() + (DEPLOY / "koikoi-ratings.service").read_text()
    config, hook = (DEPLOY / "haproxy.cfg").read_text(), (DEPLOY / "haproxy-cert-hook").read_text()
    deployed = units + config + hook
    for shared in ("/etc/koikoi/pgpass", "/opt/koikoi", "127.0.0.1:8801", "127.0.0.1:8802", "127.0.0.1:8790",
                   "127.0.0.1:8888", "/etc/haproxy/certs/koikoi.pem", "/etc/koikoi/haproxy-cert-hook",
                   "127.0.0.1:6379", "koikoi-relay@8801"):
        assert shared in deployed and shared in section, shared
    # /v1 is routed as spec/relay.md §13.8 routes it (tests/e2e/test_relay_balancer.py runs that).
    relay = config[config.index("\nbackend relay"):config.index("\nbackend app")]
    for line in ("balance url_param room", "hash-type consistent", "option httpchk GET /healthz"):
        assert line in relay, line
    assert "CREATE ROLE ratings LOGIN" in section and "createdb --owner ratings ratings" in section
    assert "127.0.0.1:5432:ratings:ratings:" in section


# -- the services ------------------------------------------------------------------------------

def need_browser() -> None:
    node = shutil.which("node")
    playwright = ROOT / "web" / "node_modules" / "playwright-core"
    for missing, message in ((not Path(CHROMIUM).exists(), "Chromium (Debian package chromium)"),
                             (node is None, "node (Node 20 or newer)"),
                             (not playwright.exists(), "web/node_modules (cd web && npm ci)")):
        if missing:
            if os.environ.get("CI") == "true":
                pytest.fail(f"the deployment test needs {message}")
            pytest.skip(f"the deployment test needs {message}")


def ratings_role(server: PostgresServer, password: str) -> None:
    """The role and database the README makes, and a password login for that role on 127.0.0.1."""
    import psycopg

    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute(f"CREATE ROLE ratings LOGIN PASSWORD '{password}'")
        conn.execute("CREATE DATABASE ratings OWNER ratings")
        hba = Path(conn.execute("SHOW hba_file").fetchone()[0])  # type: ignore[index]
        hba.write_text("host all ratings 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
        conn.execute("SELECT pg_reload_conf()")


class Started:
    def __init__(self) -> None:
        self.procs: list[tuple[str, subprocess.Popen[bytes]]] = []

    def start(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
        with open(log, "wb") as out:
            proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=subprocess.STDOUT, env=env)
        self.procs.append((name, proc))
        return proc

    def stop_all(self) -> None:
        for _, proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for _, proc in reversed(self.procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def fetch(url: str, context: ssl.SSLContext | None) -> tuple[int, dict[str, str], bytes]:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect(), urllib.request.HTTPSHandler(context=context))
    try:
        with opener.open(url, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()


class Site:
    def __init__(self, front: int, plain: int, ca: CA, leaf: Leaf, home: Path, logs: Path) -> None:
        self.front, self.plain, self.ca, self.leaf, self.home, self.logs = front, plain, ca, leaf, home, logs
        self.origin = f"https://127.0.0.1:{front}"
        self.context = ssl.create_default_context(cafile=str(ca.path))

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        return fetch(self.origin + path, self.context)

    def tails(self) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-1500:]}"
                         for log in sorted(self.logs.glob("*.log")))


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    haproxy = need_program("haproxy", "haproxy")
    need_program("redis-server", "redis-server")
    need_browser()
    ca = CA.make(tmp_path)
    leaf = ca.leaf(tmp_path, "site", hosts=(HOSTNAME, "127.0.0.1"))
    logs = tmp_path / "logs"
    logs.mkdir()
    runtime, credentials = tmp_path / "run", tmp_path / "credentials"
    credentials.mkdir(mode=0o700)
    started = Started()
    with RedisProcess() as redis, postgres_server() as postgres:
        password = secrets.token_hex(16)
        ratings_role(postgres, password)
        pgpass = credentials / "pgpass"
        pgpass.write_text(f"127.0.0.1:{postgres.port}:ratings:ratings:{password}\n")
        pgpass.chmod(0o600)
        nodes = (free_port(), free_port())
        ratings, front, plain, acme = free_port(), free_port(), free_port(), free_port()
        base = {k: v for k, v in os.environ.items() if not k.startswith(("KOIKOI_", "PG", "SSL_CERT"))}
        try:
            for i, port in enumerate(nodes):
                argv, env = unit_command("koikoi-relay@.service", str(port), runtime, credentials,
                                         {"redis://127.0.0.1:6379/0": redis.url})
                started.start(f"node{i + 1}", argv, {**base, **env}, logs / f"node{i + 1}.log")
            argv, env = unit_command("koikoi-ratings.service", "", runtime, credentials,
                                     {"127.0.0.1:5432": f"127.0.0.1:{postgres.port}",
                                      "--port 8790": f"--port {ratings}"})
            started.start("ratings", argv, {**base, **env}, logs / "ratings.log")
            config = tmp_path / "haproxy.cfg"
            config.write_text(render_haproxy(front, plain, nodes, ratings, acme, leaf.both))
            check = subprocess.run([haproxy, "-c", "-f", str(config)], capture_output=True, text=True)
            assert check.returncode == 0, check.stdout + check.stderr
            started.start("haproxy", [haproxy, "-db", "-f", str(config)], dict(os.environ),
                          logs / "haproxy.log")
            site = Site(front, plain, ca, leaf, tmp_path / "players", logs)
            deadline = time.monotonic() + 90
            while True:   # every backend up: the relay nodes, the app on them, the rating service
                with contextlib.suppress(OSError):
                    # / goes to the app backend; /v1 to the relay backend, whose own health
                    # checks may not have passed yet (HAProxy then answers 503 to a player).
                    if site.get("/ratings")[0] == 200 and site.get("/")[0] == 200 \
                            and site.get("/v1")[0] not in (502, 503, 504):
                        break
                for name, proc in started.procs:
                    assert proc.poll() is None, f"{name} exited\n{site.tails()}"
                assert time.monotonic() < deadline, f"the site did not come up\n{site.tails()}"
                time.sleep(0.2)
            yield site
        finally:
            started.stop_all()


# -- the test ----------------------------------------------------------------------------------

def terminal_pair(site: Site) -> list[str]:
    """``koikoi host --rated`` and ``koikoi join --accept``, both with ``--relay wss://...
    --cafile CA``, each answering every prompt with its first choice; returns both outputs."""
    relay = f"wss://127.0.0.1:{site.front}/v1"
    common = ["--relay", relay, "--cafile", str(site.ca.path)]
    homes = [site.home / "host", site.home / "guest"]
    for home, name in zip(homes, ("Taro", "Jiro"), strict=True):
        subprocess.run([str(SCRIPT), "name", name], env=env_for(home), check=True, capture_output=True)
    outputs = ["", ""]
    errors: list[BaseException] = []

    def seat(index: int, argv: list[str], code_box: list[str], ready: threading.Event) -> None:
        proc = subprocess.Popen([str(SCRIPT), *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, env=env_for(homes[index]))
        assert proc.stdin is not None and proc.stdout is not None
        stdin = proc.stdin

        def type_line(line: str) -> None:
            with contextlib.suppress(BrokenPipeError):
                stdin.write((line + "\n").encode())
                stdin.flush()

        console = Console(proc.stdout.fileno(), type_line)
        try:
            if index == 0:
                code_box.append(console.expect(r"Room code: ([A-Z0-9]{6})", 60).group(1))
                ready.set()
            console.autoplay(timeout=300, ask_help=False)
            console.expect(r"Rating service [^\n]*", 60)
            stdin.close()
            assert proc.wait(60) == 0
        except BaseException as exc:
            errors.append(exc)
            ready.set()
            proc.kill()
            proc.wait()
        finally:
            outputs[index] = console.text

    code_box: list[str] = []
    ready = threading.Event()
    hosting = ["host", *common, "--rounds", "1", "--rated"]
    host = threading.Thread(target=seat, args=(0, hosting, code_box, ready))
    host.start()
    ready.wait(90)
    assert code_box, f"no room code: {outputs[0]}{errors}"
    joining = ["join", code_box[0], *common, "--accept"]
    guest = threading.Thread(target=seat, args=(1, joining, code_box, ready))
    guest.start()
    host.join(420)
    guest.join(420)
    assert not errors, f"{errors}\n--- host\n{outputs[0][-3000:]}\n--- guest\n{outputs[1][-3000:]}"
    return outputs


def test_a_public_relay_as_deployed_plays_rated_matches_over_tls(site: Site) -> None:
    # One origin: the app, the relay, the rating service; /metrics and /healthz kept for the
    # operator and the balancer's checks (QA: /healthz named the node to anyone); port 80 sends
    # everyone to https://.
    status, headers, body = site.get("/")
    assert status == 200 and b"<html" in body.lower()
    assert "connect-src 'self'" in headers.get("content-security-policy", "")
    assert headers.get("strict-transport-security", "").startswith("max-age=")
    status, _, body = site.get("/ratings")
    assert status == 200 and json.loads(body)["results"] == 0
    assert site.get("/metrics")[0] == 403
    assert site.get("/healthz")[0] == 403
    status, headers, _ = fetch(f"http://127.0.0.1:{site.plain}/ratings", None)
    assert status == 301 and headers["location"] == f"https://127.0.0.1:{site.plain}/ratings", headers

    # Two terminal clients, rated, over wss:// trusting the CA with --cafile.
    outputs = terminal_pair(site)
    for text in outputs:
        assert re.search(r"Rating service https://127\.0\.0\.1:\d+: ", text), text[-2000:]

    # Two pages that trust the certificate, under a name that is not localhost.
    node = shutil.which("node")
    assert node is not None
    origin = f"https://{HOSTNAME}:{site.front}/"
    done = subprocess.run([node, str(Path(__file__).with_name("browser_match.mjs")), origin, HOSTNAME,
                           site.leaf.spki_sha256], cwd=ROOT, capture_output=True, text=True, timeout=420)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0 and lines, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}\n{site.tails()}"
    report = json.loads(lines[-1])
    assert report["secure"] == [{"secureContext": True, "serviceWorker": True}] * 2, report
    assert f"Rated: the result goes to the rating service https://{HOSTNAME}:{site.front}" in report["terms"]
    assert len(report["notices"]) == 2 and report["errors"] == [], report

    # Both matches are on the leaderboard, read over https:// by the terminal client.
    env = env_for(site.home / "reader")
    board = subprocess.run([str(SCRIPT), "ratings", "--relay", f"wss://127.0.0.1:{site.front}", "--cafile",
                            str(site.ca.path), "--json"], capture_output=True, text=True, env=env, timeout=60)
    assert board.returncode == 0, board.stdout + board.stderr
    leaderboard = json.loads(board.stdout)
    assert leaderboard["results"] == 2, leaderboard
    assert sorted(p["games"] for p in leaderboard["players"]) == [1, 1, 1, 1], leaderboard
    assert {"Taro", "Jiro"} <= {p["name"] for p in leaderboard["players"]}
    # Trusting another CA, the same command refuses the certificate.
    other = CA.make(site.home, "another CA")
    refused = subprocess.run([str(SCRIPT), "ratings", "--relay", f"wss://127.0.0.1:{site.front}"],
                             capture_output=True, text=True, env={**env, "SSL_CERT_FILE": str(other.path)},
                             timeout=60)
    assert refused.returncode != 0 and "not trusted" in refused.stdout + refused.stderr

    # One address may hold 100 connections open; the 101st is refused by the proxy.
    with contextlib.ExitStack() as held:
        for _ in range(100):
            raw = held.enter_context(socket.create_connection(("127.0.0.1", site.front), timeout=10))
            held.enter_context(site.context.wrap_socket(raw, server_hostname="127.0.0.1"))
        with pytest.raises(OSError), socket.create_connection(("127.0.0.1", site.front), timeout=10) as raw, \
                site.context.wrap_socket(raw, server_hostname="127.0.0.1") as extra:
            extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            if not extra.recv(100):
                raise ConnectionResetError("closed by the proxy")


if __name__ == "__main__":   # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
