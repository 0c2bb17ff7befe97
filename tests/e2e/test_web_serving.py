"""The browser app as the Python distribution serves it: ``koikoi relay --web`` at / beside /v1,
``koikoi web`` on 127.0.0.1, ``koikoi web --check`` against a served copy, ``koikoi verify --html``."""

from __future__ import annotations

import base64
import hashlib
import http.server
import re
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from koikoi_web import CSP_LOCAL, CSP_RELAY, file_for, files, published_sums
from tests.e2e.test_cli_support import SCRIPT, env_for, relay_process


def _get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, dict(r.headers.items()), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers.items()), exc.read()


def test_the_package_holds_the_built_app_and_its_sums() -> None:
    table = files()
    fixed = {"index.html", "sw.js", "manifest.webmanifest", "icon.svg", "SHA256SUMS", "report.html"}
    assert fixed <= set(table)
    sums = published_sums()
    assert set(sums) == set(table) - {"SHA256SUMS"}
    index = table["index.html"].body.decode()
    # Every script and stylesheet the page names is in the package, under a content-hashed name.
    for name in re.findall(r'(?:src|href|content)="([\w.-]+\.(?:js|css))"', index):
        assert name in table, name
        assert re.fullmatch(r"[a-z]+-[0-9a-f]{12}\.(js|css)", name), name
        assert table[name].immutable
    assert not table["index.html"].immutable and not table["sw.js"].immutable


def test_the_installed_app_has_png_icons() -> None:
    """Issue 24 §7: the manifest names maskable PNG icons of 192 and 512 px, the page an
    apple-touch-icon; each is a PNG of its size, served as image/png."""
    import json
    import struct

    table = files()
    manifest = json.loads(table["manifest.webmanifest"].body)
    pngs = {icon["src"]: icon for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {icon["sizes"] for icon in pngs.values()} == {"192x192", "512x512"}
    assert all("maskable" in icon["purpose"].split() for icon in pngs.values())
    assert 'rel="apple-touch-icon" href="apple-touch-icon.png"' in table["index.html"].body.decode()
    sides = [(n, int(i["sizes"].split("x")[0])) for n, i in pngs.items()] + [("apple-touch-icon.png", 180)]
    for name, side in sides:
        body = table[name].body
        assert body[:8] == b"\x89PNG\r\n\x1a\n" and table[name].content_type == "image/png"
        assert struct.unpack(">II", body[16:24]) == (side, side), name


@pytest.mark.parametrize(
    "path", ["/..", "/../pyproject.toml", "/static/index.html", "//etc/passwd", "/nope.js", "x"])
def test_only_the_files_of_the_app_are_served(path: str) -> None:
    assert file_for(path) is None


def test_the_policies_forbid_inline_code_and_other_hosts() -> None:
    for csp in (CSP_RELAY, CSP_LOCAL):
        assert "default-src 'none'" in csp and "script-src 'self' 'wasm-unsafe-eval';" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval'" not in csp.replace("wasm-unsafe-eval'", "")
        assert "frame-ancestors 'none'" in csp
    assert CSP_RELAY.endswith("connect-src 'self'")
    assert CSP_LOCAL.endswith("connect-src 'self' ws: wss: http: https:")


def test_relay_web_serves_the_app_beside_the_protocol(tmp_path: Path) -> None:
    with relay_process(tmp_path, "--web") as url:
        base = url.replace("ws://", "http://").removesuffix("/v1")
        status, headers, body = _get(base + "/")
        assert status == 200 and body == files()["index.html"].body
        assert headers["Content-Security-Policy"] == CSP_RELAY
        assert headers["X-Content-Type-Options"] == "nosniff"
        for name, digest in published_sums().items():
            status, headers, body = _get(f"{base}/{name}")
            assert status == 200, name
            assert hashlib.sha256(body).hexdigest() == digest, name
        assert _get(base + "/../pyproject.toml")[0] == 404
        assert _get(base + "/healthz")[0] == 200
        # The protocol path is still the relay's: a plain GET there is not a websocket handshake.
        assert _get(base + "/v1")[0] in (400, 426)
        # koikoi web --check: the relay serves exactly this release.
        out = subprocess.run([str(SCRIPT), "web", "--check", base + "/"], capture_output=True, text=True,
                             env=env_for(tmp_path), timeout=60)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "the served app is this release" in out.stdout


def test_relay_without_web_serves_no_page(tmp_path: Path) -> None:
    with relay_process(tmp_path) as url:
        base = url.replace("ws://", "http://").removesuffix("/v1")
        assert _get(base + "/")[0] == 404
        assert _get(base + "/index.html")[0] == 404


@contextmanager
def _altered_copy(tmp: Path) -> Iterator[str]:
    """A plain HTTP server with this release's files, one of them changed by one byte."""
    root = tmp / "served"
    root.mkdir()
    for name, f in files().items():
        (root / name).write_bytes(f.body)
    sw = root / "sw.js"
    sw.write_bytes(sw.read_bytes().replace(b"koikoi-", b"koikoj-", 1))

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a: object, **k: object) -> None:
            super().__init__(*a, directory=str(root), **k)  # type: ignore[arg-type]

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_web_check_names_a_changed_file(tmp_path: Path) -> None:
    with _altered_copy(tmp_path) as url:
        out = subprocess.run([str(SCRIPT), "web", "--check", url], capture_output=True, text=True,
                             env=env_for(tmp_path), timeout=60)
    assert out.returncode == 1
    assert "DIFFERS  sw.js" in out.stdout
    assert "1 file(s) differ from this release" in out.stdout


def test_koikoi_web_serves_on_loopback_with_the_local_policy(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [str(SCRIPT), "web", "--port", "0", "--relay", "wss://relay.example/v1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env_for(tmp_path))
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/#relay=wss%3A%2F%2Frelay\.example%2Fv1", line)
        assert m, line
        status, headers, body = _get(f"http://127.0.0.1:{m.group(1)}/")
        assert status == 200 and body == files()["index.html"].body
        assert headers["Content-Security-Policy"] == CSP_LOCAL
    finally:
        proc.terminate()
        proc.wait(10)


def test_verify_html_puts_the_transcript_in_the_report(tmp_path: Path) -> None:
    transcript = tmp_path / "m.transcript"
    subprocess.run([str(SCRIPT), "selfplay", "--rounds", "1", "--seed", "3", "--transcript", str(transcript)],
                   check=True, capture_output=True, env=env_for(tmp_path), timeout=120)
    out = tmp_path / "report.html"
    r = subprocess.run([str(SCRIPT), "verify", str(transcript), "--html", str(out)],
                       capture_output=True, text=True, env=env_for(tmp_path), timeout=120)
    assert r.returncode == 0, r.stdout
    page = out.read_bytes()
    inside = re.search(rb'id="koikoi-transcript">([A-Za-z0-9+/=]+)</script>', page)
    assert inside is not None
    assert base64.b64decode(inside.group(1)) == transcript.read_bytes()
    assert b"<script src=" not in page and b"<link" not in page  # nothing fetched
