"""koikoi relay --ratings, koikoi host --rated and koikoi join as three processes: one rated match,
both clients send the co-signed result, the service counts it once."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.ratings import client
from tests.e2e.test_cli_console import Console
from tests.e2e.test_cli_play_relay import _spawn
from tests.e2e.test_cli_support import SCRIPT, env_for, relay_process


@pytest.mark.slow
def test_a_rated_match_between_two_terminals_is_counted_once(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'ratings.sqlite3'}"
    with relay_process(tmp_path, "--ratings", db) as url:
        service = client.locate(url)   # the relay points to the service on its own port
        for home, name in ((tmp_path / "host", "Hanako"), (tmp_path / "friend", "Taro")):
            named = subprocess.run([str(SCRIPT), "name", name], env=env_for(home), capture_output=True,
                                   text=True, timeout=60)
            assert named.returncode == 0, named.stderr
        host, host_console = _spawn(tmp_path / "host", "host", "--relay", url, "--rounds", "1", "--rated",
                                    "--timeout", "120")
        joiner: subprocess.Popen[bytes] | None = None
        try:
            code = host_console.expect(r"Room code: ([A-Z0-9]{6})", 60).group(1)
            host_console.expect(r"Rated match: the result goes to " + service, 10)
            joiner, join_console = _spawn(tmp_path / "friend", "join", code, "--relay", url)
            results: dict[str, str | BaseException] = {}

            def play(name: str, console: Console) -> None:
                try:
                    results[name] = console.autoplay(timeout=400, ask_help=False)
                except BaseException as exc:  # reported below with the output
                    results[name] = exc

            threads = [threading.Thread(target=play, args=(n, c))
                       for n, c in (("host", host_console), ("join", join_console))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(450)
            for name in ("host", "join"):
                assert isinstance(results.get(name), str), f"{name}: {results.get(name)}"
            assert host.wait(60) == 0, host_console.text[-2000:]
            assert joiner.wait(60) == 0, join_console.text[-2000:]
            host_console.pump(0.5)
            join_console.pump(0.5)
            answers = [c.text[c.text.rfind("Rating service"):].split("\n", 1)[0]
                       for c in (host_console, join_console)]
            assert sorted(a.removeprefix(f"Rating service {service}: ") for a in answers) == [
                "result counted (number 1)",
                "this result was already counted (your opponent's copy arrived first): nothing changed",
            ], answers
            # The joiner's terms screen said where the result goes before it accepted.
            terms_at = join_console.text.find("Rated: the result goes to the rating service " + service)
            submitted_at = join_console.text.find("Rating service " + service)
            assert 0 <= terms_at < submitted_at, join_console.text[-3000:]
            board = client.leaderboard(service).body
            assert board["results"] == 1
            players = board["players"]
            assert isinstance(players, list)
            assert sorted(p["name"] for p in players) == ["Hanako", "Taro"]
            transcript = next((tmp_path / "host" / "data" / "transcripts").glob("*.transcript"))
            verified = subprocess.run([str(SCRIPT), "verify", str(transcript)], capture_output=True,
                                      text=True, timeout=120, env=env_for(tmp_path))
            assert verified.returncode == 0, verified.stdout + verified.stderr
            assert "player 0 (host): Hanako (" in verified.stdout
            assert "player 1 (joiner): Taro (" in verified.stdout
        finally:
            for proc in (host, joiner):
                if proc is not None and proc.poll() is None:
                    proc.kill()
                    proc.wait()


def test_a_rated_host_on_a_relay_without_a_service_opens_no_room(tmp_path: Path) -> None:
    """spec/ratings.md §2.1: `koikoi host --rated` with no --ratings asks the relay for its service;
    none answering, it says so and opens no room (browser QA found the same on the page: a rated
    match whose result could go nowhere)."""
    with relay_process(tmp_path) as url:
        assert client.find(url, timeout=5.0) is None
        done = subprocess.run([str(SCRIPT), "host", "--relay", url, "--rounds", "1", "--rated"],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              env=env_for(tmp_path / "host"), timeout=60, check=False)
        assert done.returncode == exit_codes.ERROR, done.stdout + done.stderr
        assert f"no rating service answers for the relay at {url}" in done.stderr
        assert "--ratings URL" in done.stderr and "Room code" not in done.stdout
        ja = subprocess.run([str(SCRIPT), "host", "--relay", url, "--rated", "--lang", "ja"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            env=env_for(tmp_path / "host"), timeout=60, check=False)
        assert ja.returncode == exit_codes.ERROR and "--ratings" in ja.stderr and "no rating" not in ja.stderr
