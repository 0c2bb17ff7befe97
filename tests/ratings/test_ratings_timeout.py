"""`koikoi ratings` against a server that accepts and never answers, or answers a byte at a time:
it gives up after --timeout with a clear line and lobby's exit code 3 (spec/ratings.md §8)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from koikoi_p2p.cli.exit_codes import RELAY_UNREACHABLE
from koikoi_p2p.cli.main import main


class Stalling:
    """A loopback server that takes connections and either says nothing or trickles a response
    head, one byte per tenth of a second, until the test ends."""

    def __init__(self, trickle: bool) -> None:
        self.trickle, self.stop = trickle, threading.Event()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def _accept(self) -> None:
        self.sock.settimeout(0.1)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            thread = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            self.threads.append(thread)
            thread.start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            head = b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 10_000
            for byte in head if self.trickle else b"":
                if self.stop.wait(0.1):
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return
            self.stop.wait()

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()
        self.sock.close()


@pytest.fixture(params=[False, True], ids=["silent", "trickling"])
def stalling(request: pytest.FixtureRequest) -> Iterator[Stalling]:
    server = Stalling(trickle=request.param)
    yield server
    server.close()


@pytest.mark.parametrize(("lang", "said"), [("en", "no answer from {url} within 1s"),
                                            ("ja", "{url} から1秒以内に応答がありません")])
def test_koikoi_ratings_gives_up_after_its_timeout(
        stalling: Stalling, lang: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    code = main(["ratings", "--relay", stalling.url, "--timeout", "1", "--lang", lang])
    err = capsys.readouterr().err
    assert code == RELAY_UNREACHABLE, err
    assert err.strip() == "koikoi ratings: " + said.format(url=stalling.url), err


def test_recompute_compare_gives_up_after_the_timeout(
        stalling: Stalling, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    export = tmp_path / "export.json"
    export.write_text('{"format": "koikoi-p2p/ratings-export/v1", "results": [], "abandonments": []}')
    code = main(["ratings", "--timeout", "1", "recompute", str(export), "--compare", stalling.url])
    err = capsys.readouterr().err
    assert code == RELAY_UNREACHABLE and f"no answer from {stalling.url} within 1s" in err, err
