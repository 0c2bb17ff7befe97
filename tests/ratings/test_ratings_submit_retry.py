"""A submission while the service is down behind a proxy (spec/ratings.md §2.3): a 502, 503 or 504
(and a connection failure) is retried with pauses, each announced; a proxy's HTML page is said as
one short plain line; and when the service never comes back the player is told where the result
is and the exact command that sends it later."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from koikoi_p2p.cli.rated import submit_after_match
from koikoi_p2p.ratings import client

HAPROXY_503 = (b"<html><body><h1>503 Service Unavailable</h1>\nNo server is available to handle this "
               b"request.\n</body></html>\n")


COUNTED = b'{"ok": true, "counted": true, "seq": 1, "session": "00"}'


class Service:
    """Answers the first ``failures`` posts as HAProxy does with no server up, then counts."""

    def __init__(self, failures: int, answer: bytes = COUNTED) -> None:
        self.failures, self.posts, self.answer = failures, 0, answer
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.posts += 1
                if service.posts <= service.failures:
                    self._answer(503, "text/html", HAPROXY_503)
                else:
                    self._answer(200, "application/json", service.answer)

            def _answer(self, status: int, kind: str, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Short pauses and patience (the schedule, not its length, is under test)."""
    monkeypatch.setattr(client, "FIRST_PAUSE", 0.01, raising=False)
    monkeypatch.setattr(client, "SUBMIT_PATIENCE", 0.5, raising=False)


def serving(failures: int, answer: bytes | None = None) -> Iterator[Service]:
    service = Service(failures, answer or COUNTED)
    thread = threading.Thread(target=service.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        service.server.shutdown()
        service.server.server_close()


@pytest.fixture
def flaky() -> Iterator[Service]:
    yield from serving(failures=2)


@pytest.fixture
def down() -> Iterator[Service]:
    yield from serving(failures=10**9)


def test_a_503_from_the_proxy_is_retried_until_the_service_counts(quick: None, flaky: Service) -> None:
    retries: list[client.Retry] = []
    answer = client.submit_result(flaky.url, b"result", on_retry=retries.append)
    assert answer.ok and answer.body["counted"] is True
    assert flaky.posts == 3 and [r.status for r in retries] == [503, 503]
    assert all("<" not in r.problem and "\n" not in r.problem for r in retries), retries


def test_a_service_that_stays_down_ends_in_service_unavailable_said_plainly(
        quick: None, down: Service) -> None:
    with pytest.raises(client.ServiceUnavailable) as caught:
        client.submit_result(down.url, b"result")
    said = str(caught.value)
    assert "503 Service Unavailable No server is available" in said, said
    assert "<" not in said and "\n" not in said and down.posts > 1


def test_the_player_is_told_it_retries_then_where_the_result_is_and_the_command(
        quick: None, down: Service, tmp_path: Path) -> None:
    path = str(tmp_path / "match 1.result")
    lines: list[str] = []
    taken = asyncio.run(submit_after_match(lines.append, ratings=down.url, result=b"result", path=path))
    assert not taken
    *retrying, last = lines
    assert retrying and all("trying again in" in line for line in retrying), lines
    assert f"saved in {path}" in last and f"ratings submit '{path}' --to {down.url}" in last, last
    assert "<html" not in "".join(lines) and "\\x0a" not in "".join(lines), lines


REPEAT = b'{"ok": true, "counted": false, "seq": 4, "session": "00"}'


@pytest.mark.parametrize("failures", [0, 1])
def test_a_repeat_is_blamed_on_the_opponent_only_when_our_first_try_was_answered(
        quick: None, failures: int) -> None:
    # A try that failed may have been counted with its answer lost: the repeat met after a retry
    # may be our own copy, so the line no longer says the opponent's came first.
    for service in serving(failures, REPEAT):
        lines: list[str] = []
        assert asyncio.run(submit_after_match(lines.append, ratings=service.url, result=b"result"))
        last = lines[-1]
        if failures:
            assert last.endswith("this result was already counted (result number 4): nothing changed"), lines
        else:
            assert last.endswith("this result was already counted (your opponent's copy arrived first): "
                                 "nothing changed"), lines


def test_an_html_error_page_is_read_as_one_short_line() -> None:
    assert client.unreadable(503, HAPROXY_503) == \
        "503 Service Unavailable No server is available to handle this request."
    assert client.unreadable(502, b"") == "Bad Gateway"
    assert len(client.unreadable(500, b"<p>" + b"x" * 5000)) <= 100
