"""``koikoi relay --tls-cert --tls-key`` serves wss:// and https:// itself, reloads its certificate
on SIGHUP, and every client command verifies the certificate (system store, ``--cafile`` or
``SSL_CERT_FILE``) and refuses one it cannot verify with a clear error, never a traceback."""

from __future__ import annotations

import http.client
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from koikoi_p2p.net import tls
from koikoi_p2p.net.relay_client import RelayClient, RelayError, list_rooms
from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.ratings import client as ratings_client
from tests.e2e.test_cli_support import env_for
from tests.e2e.test_relay_support import run
from tests.ratings.support import signed
from tests.tls_support import CA, Leaf

ROOT = Path(__file__).resolve().parents[2]


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = env_for(home)
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR"):
        env.pop(name, None)
    return {**env, **extra}


class TLSRelay:
    def __init__(self, proc: subprocess.Popen[str], port: int, ca: CA, leaf: Leaf, home: Path) -> None:
        self.proc, self.port, self.ca, self.leaf, self.home = proc, port, ca, leaf, home
        self.wss = f"wss://127.0.0.1:{port}/v1"
        self.https = f"https://127.0.0.1:{port}/"


@pytest.fixture
def tls_relay(tmp_path: Path) -> Iterator[TLSRelay]:
    ca = CA.make(tmp_path)
    leaf = ca.leaf(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "koikoi_p2p.cli.main", "relay", "--port", "0", "--web", "--log-level", "info",
         "--tls-cert", str(leaf.cert), "--tls-key", str(leaf.key)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path))
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("relay listening on wss://127.0.0.1:"), line
    assert proc.stdout.readline().startswith("web app at https://127.0.0.1:")
    port = int(line.rsplit(":", 1)[1].split("/")[0])
    try:
        yield TLSRelay(proc, port, ca, leaf, tmp_path)
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[str]) -> None:
    """SIGTERM, then SIGKILL after 15 s: a server the test started ends with it."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()


def koikoi(home: Path, *args: str, env: dict[str, str] | None = None,
           timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "koikoi_p2p.cli.main", *args], cwd=ROOT, capture_output=True,
                          text=True, env=env or _env(home), timeout=timeout, stdin=subprocess.DEVNULL)


def served_certificate(port: int, ca: Path) -> bytes:
    """The DER certificate a new TLS connection to the port is shown (verified against ``ca``)."""
    context = ssl.create_default_context(cafile=str(ca))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw, \
            context.wrap_socket(raw, server_hostname="127.0.0.1") as conn:
        der = conn.getpeercert(binary_form=True)
    assert der is not None
    return der


def test_client_commands_verify_the_relays_certificate(tls_relay: TLSRelay) -> None:
    relay, home, ca = tls_relay, tls_relay.home, str(tls_relay.ca.path)
    # Trusted through --cafile or SSL_CERT_FILE: the lobby answers over wss://.
    ok = koikoi(home, "lobby", "--relay", relay.wss, "--cafile", ca, "--json")
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip() == "[]"
    ok = koikoi(home, "lobby", "--relay", relay.wss, "--json", env=_env(home, SSL_CERT_FILE=ca))
    assert ok.returncode == 0, ok.stderr
    # Not trusted (the system store does not know this CA; another CA is not this one): refused
    # with the reason, exit 3, no traceback.
    other = CA.make(home, "another CA")
    export, result = home / "export.json", home / "match.result"
    export.write_text('{"format": "koikoi-p2p/ratings-export/v1", "results": [], "abandonments": []}')
    result.write_bytes(signed(Identity.generate(), Identity.generate()))
    for extra in ([], ["--cafile", str(other.path)]):
        bad = koikoi(home, "lobby", "--relay", relay.wss, *extra)
        assert bad.returncode == 3, bad.stdout + bad.stderr
        assert "is not trusted" in bad.stderr and "certificate" in bad.stderr, bad.stderr
        assert "(bad_certificate)" in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
        assert ".." not in bad.stderr, bad.stderr      # the system's sentence, one full stop
        bad = koikoi(home, "join", "ZZZZZZ", "--relay", relay.wss, "--accept", *extra)
        assert bad.returncode == 3 and "is not trusted" in bad.stderr, bad.stderr
        assert "Traceback" not in bad.stderr
        # Every command says it the same way: the tag, exit 3 (README).
        for command in (["ratings", "--relay", relay.wss], ["ratings", "--relay", relay.https],
                        ["ratings", "recompute", str(export), "--compare", relay.https],
                        ["ratings", "submit", str(result), "--to", relay.https],
                        ["web", "--check", relay.https]):
            bad = koikoi(home, *command, *extra)
            assert bad.returncode == 3, (command, bad.stdout + bad.stderr)
            assert "is not trusted" in bad.stderr and "(bad_certificate)" in bad.stderr, (command, bad.stderr)
            assert "give that CA with --cafile FILE" in bad.stderr, (command, bad.stderr)   # the way out
            assert "Traceback" not in bad.stderr
    # The same in Japanese: the certificate, not "no answer".
    bad = koikoi(home, "lobby", "--relay", relay.wss, "--lang", "ja")
    assert bad.returncode == 3 and "信頼できません" in bad.stderr, bad.stderr
    bad = koikoi(home, "ratings", "--relay", relay.wss, "--lang", "ja")
    assert bad.returncode == 3 and "証明書は信頼できません" in bad.stderr, bad.stderr
    bad = koikoi(home, "lobby", "--relay", relay.wss, "--cafile", str(home / "missing.pem"))
    assert bad.returncode == 2 and "cannot use" in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
    # The app over https:// is this release, file for file.
    ok = koikoi(home, "web", "--check", relay.https, "--cafile", ca)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    # A whole match of two computer peers over wss://.
    ok = koikoi(home, "selfplay", "--rounds", "1", "--seed", "3", "--relay", relay.wss, "--cafile", ca,
                "--json", timeout=300)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert '"ok": true' in ok.stdout, ok.stdout
    bad = koikoi(home, "selfplay", "--rounds", "1", "--relay", relay.wss)
    assert bad.returncode == 3 and "is not trusted" in bad.stderr, bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_library_refuses_an_untrusted_relay_and_service(tls_relay: TLSRelay) -> None:
    relay = tls_relay

    async def body() -> None:
        tls.use_cafile(None)
        for attempt in (lambda: list_rooms(relay.wss), lambda: RelayClient.create(relay.wss)):
            with pytest.raises(RelayError) as caught:
                await attempt()
            assert caught.value.reason == "bad_certificate"
        tls.use_cafile(str(relay.ca.path))
        try:
            host = await RelayClient.create(relay.wss)
            guest = await RelayClient.join(relay.wss, host.code)
            await host.wait_for_peer(5)
            await host.send(b"over tls")
            assert await guest.recv() == b"over tls"
            await host.close()
            await guest.close()
        finally:
            tls.use_cafile(None)

    run(body)
    with pytest.raises(ratings_client.CertificateRefused):
        ratings_client.leaderboard(relay.https)


def test_sighup_gives_new_connections_the_new_certificate(tls_relay: TLSRelay) -> None:
    relay = tls_relay
    first = served_certificate(relay.port, relay.ca.path)
    assert first == relay.leaf.der
    # An open connection from before the reload keeps its certificate; new ones get the new one.
    context = ssl.create_default_context(cafile=str(relay.ca.path))
    with socket.create_connection(("127.0.0.1", relay.port), timeout=10) as raw, \
            context.wrap_socket(raw, server_hostname="127.0.0.1") as before:
        renewed = relay.ca.leaf(relay.home, "renewed")
        relay.leaf.cert.write_bytes(renewed.cert.read_bytes())
        relay.leaf.key.write_bytes(renewed.key.read_bytes())
        relay.proc.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 20
        while served_certificate(relay.port, relay.ca.path) != renewed.der:
            assert time.monotonic() < deadline, "the relay did not serve the new certificate after SIGHUP"
            time.sleep(0.1)
        assert before.getpeercert(binary_form=True) == first
        before.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert before.recv(100).startswith(b"HTTP/1.1 200")
    # A broken pair on the next SIGHUP is refused and the certificate in force stays.
    stranger = relay.ca.leaf(relay.home, "stranger")
    relay.leaf.key.write_bytes(stranger.key.read_bytes())
    relay.proc.send_signal(signal.SIGHUP)
    time.sleep(1.0)
    assert relay.proc.poll() is None
    assert served_certificate(relay.port, relay.ca.path) == renewed.der
    relay.proc.send_signal(signal.SIGTERM)
    _, err = relay.proc.communicate(timeout=15)
    assert "event=tls_reloaded" in err and "event=tls_reload_failed" in err, err
    assert f"cannot use {relay.leaf.cert} with {relay.leaf.key}" in err, err


def test_relay_refuses_unusable_tls_files(tmp_path: Path) -> None:
    ca = CA.make(tmp_path)
    leaf, other = ca.leaf(tmp_path), ca.leaf(tmp_path, "other")
    for extra in (["--tls-cert", str(leaf.cert)], ["--tls-cert", str(leaf.cert), "--tls-key", str(other.key)],
                  ["--tls-cert", str(tmp_path / "none.pem"), "--tls-key", str(leaf.key)]):
        done = koikoi(tmp_path, "relay", "--port", "0", *extra, timeout=30)
        assert done.returncode != 0 and "koikoi relay:" in done.stderr and "Traceback" not in done.stderr, \
            done.stderr


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def test_the_rating_service_beside_a_tls_relay_is_https_with_its_certificate(tmp_path: Path) -> None:
    """``koikoi relay --tls-cert --tls-key --ratings``: the rating service's own port serves https://
    with the relay's certificate (before: plain http), the relay's 307 for the rating paths points at
    https://, and SIGHUP renews the certificate on both ports."""
    ca = CA.make(tmp_path)
    leaf = ca.leaf(tmp_path)
    db = f"sqlite:///{tmp_path / 'ratings.sqlite3'}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "koikoi_p2p.cli.main", "relay", "--port", "0", "--web", "--ratings", db,
         "--tls-cert", str(leaf.cert), "--tls-key", str(leaf.key)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path))
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]
        assert lines[0].startswith("relay listening on wss://127.0.0.1:"), lines
        assert lines[1].startswith("ratings listening on https://127.0.0.1:"), lines
        relay_port = int(lines[0].rsplit(":", 1)[1].split("/")[0])
        service_port = int(lines[1].rsplit(":", 1)[1].split("/")[0])
        context = ssl.create_default_context(cafile=str(ca.path))
        opener = urllib.request.build_opener(_NoRedirect, urllib.request.HTTPSHandler(context=context))
        with pytest.raises(urllib.error.HTTPError) as redirect:
            opener.open(f"https://127.0.0.1:{relay_port}/ratings/service", timeout=10)
        assert redirect.value.code == 307
        location = redirect.value.headers["Location"]
        assert location == f"https://127.0.0.1:{service_port}/ratings/service", location
        with urllib.request.urlopen(location, context=context, timeout=10) as answer:
            assert answer.status == 200
        assert served_certificate(service_port, ca.path) == leaf.der
        # Plain http:// on the service's port is not served.
        with pytest.raises((urllib.error.URLError, ConnectionError, http.client.HTTPException)):
            urllib.request.urlopen(f"http://127.0.0.1:{service_port}/ratings/service", timeout=10)
        renewed = ca.leaf(tmp_path, "renewed")
        leaf.cert.write_bytes(renewed.cert.read_bytes())
        leaf.key.write_bytes(renewed.key.read_bytes())
        proc.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 20
        while served_certificate(service_port, ca.path) != renewed.der:
            assert time.monotonic() < deadline, "the rating service kept the old certificate after SIGHUP"
            time.sleep(0.1)
        assert served_certificate(relay_port, ca.path) == renewed.der
    finally:
        stop(proc)


def test_a_resumed_match_trusts_the_ca_file_it_began_with(tls_relay: TLSRelay) -> None:
    """A crash-safe peer started with ``--cafile`` over wss:// is killed with -9 mid-match;
    ``koikoi resume`` without ``--cafile`` finishes it, trusting the CA file saved with the match
    (before: the system store, which refused the relay's certificate)."""
    relay, home, ca = tls_relay, tls_relay.home, str(tls_relay.ca.path)
    env = _env(home)

    def seat(index: int, *extra: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-m", "koikoi_p2p.cli.main", "resume", "--state", str(home / f"seat{index}"),
             "--new", "--seat", str(index), "--relay", relay.wss, "--rendezvous", "tls-resume",
             "--cafile", ca, "--dead-after", "3", "--resend-after", "0.5", *extra],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            stdin=subprocess.DEVNULL)

    victim = seat(0, "--progress")
    friend = seat(1, "--json")
    try:
        assert victim.stdout is not None
        for line in victim.stdout:   # mid-match: past the handshake, some messages sent
            if line.startswith("phase ") and int(line.split()[-1]) >= 6:
                break
        else:
            raise AssertionError(victim.stderr.read() if victim.stderr else "no progress")
        victim.kill()
        victim.wait()
        resumed = koikoi(home, "resume", "--state", str(home / "seat0"), "--json", env=env, timeout=120)
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
        assert '"status": "completed"' in resumed.stdout, resumed.stdout
        out, err = friend.communicate(timeout=120)
        assert friend.returncode == 0 and '"status": "completed"' in out, out + err
    finally:
        for proc in (victim, friend):
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


def test_a_saved_ca_file_yields_to_one_given_now(tmp_path: Path) -> None:
    """``koikoi resume`` trusts the saved ``--cafile`` only when it is not given one; a state saved
    before the field existed has none."""
    from koikoi_p2p.net.core import PeerSetup

    first, second = CA.make(tmp_path, "first"), CA.make(tmp_path, "second")
    try:
        tls.use_cafile(None)
        tls.resume_with("")
        assert tls.given_cafile() is None
        tls.resume_with(str(first.path))
        assert tls.cafile() == str(first.path)
        tls.use_cafile(str(second.path))
        tls.resume_with(str(first.path))
        assert tls.cafile() == str(second.path)
        tls.use_cafile(None)
        with pytest.raises(tls.BadCafile):
            tls.resume_with(str(tmp_path / "gone.pem"))
    finally:
        tls.use_cafile(None)
    setup = PeerSetup.generate(seat=0, room="r", cafile=str(first.path))
    assert PeerSetup.from_dict(setup.to_dict()).cafile == str(first.path)
    old = {k: v for k, v in setup.to_dict().items() if k != "cafile"}
    assert PeerSetup.from_dict(old).cafile == ""


def test_a_url_of_the_wrong_scheme_is_named_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """QA: ws:// to a TLS relay and wss:// to a plain one both said 'closed the connection without
    answering. Too many new connections may have come from your address...'. The client now names
    the mismatch; a plain relay that closes unanswered for another cause still gets that hint."""
    from koikoi_p2p.cli.online import relay_failure
    from koikoi_relay.limits import Limits
    from koikoi_relay.server import RelayServer

    ca = CA.make(tmp_path)
    leaf = ca.leaf(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(leaf.cert, leaf.key)

    async def refused(url: str) -> str:
        with pytest.raises(RelayError) as caught:
            await list_rooms(url)
        relay_failure(caught.value, url)
        return capsys.readouterr().err

    async def body() -> None:
        secure, plain = RelayServer(Limits(), ssl=context), RelayServer(Limits())
        spent = RelayServer(Limits(handshake_burst=1, handshakes_per_second_per_source=0.001))
        for server in (secure, plain, spent):
            await server.start("127.0.0.1", 0)
        try:
            url = f"ws://127.0.0.1:{secure.port}/v1"
            said = await refused(url)
            assert said.startswith(f"koikoi: The relay at {url} speaks wss:// (TLS), not plain ws://"), said
            url = f"wss://127.0.0.1:{plain.port}/v1"
            said = await refused(url)
            assert said.startswith(f"koikoi: The relay at {url} speaks plain ws://, not wss://"), said
            # A relay that allows this address one new connection (spec/relay.md §7.1) closes the
            # next unanswered: that is no mismatch, and the hint stays the one for that.
            assert await list_rooms(f"ws://127.0.0.1:{spent.port}/v1") == []
            said = await refused(f"ws://127.0.0.1:{spent.port}/v1")
            assert "closed the connection without answering" in said, said
        finally:
            for server in (secure, plain, spent):
                await server.shutdown()

    run(body)


def test_the_line_for_the_friend_names_the_ca_file_it_needs(tls_relay: TLSRelay) -> None:
    """A host trusting a private CA prints a join line with ``--cafile`` (the file's name: the
    path means nothing on the friend's machine) and says to send the file; before, the line the
    friend pasted failed with bad_certificate (QA)."""
    relay, home, ca = tls_relay, tls_relay.home, tls_relay.ca.path
    host = subprocess.Popen(
        [sys.executable, "-m", "koikoi_p2p.cli.main", "host", "--relay", relay.wss, "--cafile", str(ca)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=_env(home),
        stdin=subprocess.DEVNULL)
    try:
        assert host.stdout is not None
        seen = []
        for line in host.stdout:
            seen.append(line)
            if "CA file" in line:
                break
        text = "".join(seen)
        assert f"--relay {relay.wss} --cafile {ca.name}" in text, text
        assert f"Send them the CA file {ca} too" in text, text
    finally:
        host.kill()
        host.communicate()
