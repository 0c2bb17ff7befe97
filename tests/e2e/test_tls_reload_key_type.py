"""A SIGHUP reload that changes the key type (ECDSA to RSA and back) serves only the new
certificate, on `koikoi relay` and on `koikoi ratings serve` (spec/relay.md §14.2, spec/ratings.md
§8): loading the new pair into the live context kept the old chain beside it (OpenSSL holds one
per key type), and clients went on getting the old certificate."""

from __future__ import annotations

import os
import re
import signal
import socket
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.test_cli_support import env_for
from tests.e2e.test_relay_tls import stop
from tests.tls_support import CA, Leaf

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = {
    # command line after `koikoi`, the stdout line that gives the port, the stderr line of a reload
    "relay": (["relay", "--port", "0", "--log-level", "info"], "relay listening on wss://",
              "event=tls_reloaded"),
    "ratings": (["ratings", "serve", "--port", "0", "--log-level", "info"], "ratings listening on https://",
                "certificate reloaded"),
}


def served(port: int, ca: CA) -> bytes:
    """The DER certificate a new TLS client is shown (one that accepts either key type)."""
    context = ssl.create_default_context(cafile=str(ca.path))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw, \
            context.wrap_socket(raw, server_hostname="127.0.0.1") as conn:
        der = conn.getpeercert(binary_form=True)
    assert der is not None
    return der


def install(leaf: Leaf, folder: Path) -> None:
    """Put the leaf's files where the server reads them, each whole (written, then renamed)."""
    for source, name in ((leaf.cert, "live.pem"), (leaf.key, "live.key")):
        (folder / (name + ".new")).write_bytes(source.read_bytes())
        os.replace(folder / (name + ".new"), folder / name)


@pytest.mark.parametrize("first_rsa", [False, True], ids=["ecdsa-to-rsa", "rsa-to-ecdsa"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_reload_to_another_key_type_serves_only_the_new_certificate(
        tmp_path: Path, command: str, first_rsa: bool) -> None:
    ca = CA.make(tmp_path)
    first = ca.leaf(tmp_path, "first", rsa_key=first_rsa)
    second = ca.leaf(tmp_path, "second", rsa_key=not first_rsa)
    install(first, tmp_path)
    args, listening, reloaded = COMMANDS[command]
    extra = ["--db", f"sqlite:///{tmp_path / 'r.sqlite3'}"] if command == "ratings" else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "koikoi_p2p.cli.main", *args, *extra,
         "--tls-cert", str(tmp_path / "live.pem"), "--tls-key", str(tmp_path / "live.key")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_for(tmp_path))
    try:
        assert proc.stdout is not None and proc.stderr is not None
        line = proc.stdout.readline()
        assert line.startswith(listening), line
        port = int(re.search(r"://127\.0\.0\.1:(\d+)/", line)[1])  # type: ignore[index]
        assert served(port, ca) == first.der
        for now in (second, first):
            install(now, tmp_path)
            proc.send_signal(signal.SIGHUP)
            while reloaded not in (said := proc.stderr.readline()):   # the reload is done once logged
                assert said, "the server ended before it reloaded"
            assert served(port, ca) == now.der
    finally:
        stop(proc)
