"""The ratings commands against real services on loopback: `koikoi ratings serve` and
`koikoi relay --ratings` (the relay and the service in one process, on two ports), each its own
process."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from koikoi_p2p.cli.main import main
from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.ratings import client
from tests.ratings.support import signed
from tests.ratings.test_ratings_restart import ROOT, start_service, stop

ALICE, BOB = Identity.generate(), Identity.generate()


def test_show_submit_and_recompute_against_a_running_service(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path / "home"))
    service, url = start_service(f"sqlite:///{tmp_path / 'r.sqlite3'}", tmp_path / "home")
    try:
        result = tmp_path / "match.result"
        result.write_bytes(signed(ALICE, BOB, names=("Alice\u200b", "Bob")))  # a format char: bad_name
        assert main(["ratings", "submit", str(result), "--to", url]) == 1
        assert "refused (400, a display name that is not valid): " in capsys.readouterr().out
        result.write_bytes(signed(ALICE, BOB, names=("Alice", "Bob"), winner=1))
        assert main(["ratings", "submit", str(result), "--to", url]) == 0
        assert "result counted (number 1)" in capsys.readouterr().out
        assert main(["ratings", "submit", str(result), "--to", url]) == 0
        assert "this result was already counted (result number 1): nothing changed" in capsys.readouterr().out

        assert main(["ratings", "--relay", url]) == 0
        text = capsys.readouterr().out
        assert "2 rated players, 1 co-signed result\n" in text
        assert text.index("Bob") < text.index("Alice") and BOB.fingerprint() in text
        assert main(["ratings", "--relay", url, "--json"]) == 0
        board = json.loads(capsys.readouterr().out)
        assert board["players"][0]["name"] == "Bob" and board["players"][0]["wins"] == 1
        assert main(["ratings", "--relay", url, "--player", ALICE.fingerprint()]) == 0
        # The opponent as people know keys: its fingerprint, not a hex prefix (terminal QA).
        assert f"loss  against Bob ({BOB.fingerprint()})" in capsys.readouterr().out

        export = tmp_path / "export.json"
        export.write_text(json.dumps(client.export(url).body))
        assert main(["ratings", "recompute", str(export), "--compare", url]) == 0
        assert "equal to the leaderboard" in capsys.readouterr().err
        tampered = json.loads(export.read_text())
        tampered["results"][0]["result"] = tampered["results"][0]["result"][:-4] + "AAAA"
        export.write_text(json.dumps(tampered))
        assert main(["ratings", "recompute", str(export)]) == 1
        assert "does not pass the service's checks" in capsys.readouterr().err
    finally:
        stop(service)
    assert main(["ratings", "--relay", url]) == 3  # the service is gone
    assert "no answer from" in capsys.readouterr().err


def test_relay_with_ratings_runs_the_service_beside_it_on_its_own_port(tmp_path: Path) -> None:
    env = {**os.environ, "KOIKOI_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable,
        "-m",
        "koikoi_p2p",
        "relay",
        "--port",
        "0",
        "--ratings",
        f"sqlite:///{tmp_path / 'r.sqlite3'}",
        "--log-level",
        "warning",
    ]
    relay = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT
    )
    try:
        assert relay.stdout is not None
        line = relay.stdout.readline()
        assert line.startswith("relay listening on ws://"), line
        ws = line.split()[3]
        line = relay.stdout.readline()
        assert line.startswith("ratings listening on http://"), line
        service = line.split()[3].removesuffix("/ratings")
        assert service != client.service_url(ws)
        # A client asking the relay for its service is sent to the service's port.
        assert client.locate(ws) == service and client.find(ws) == service
        answer = client.submit_result(client.locate(ws), signed(ALICE, BOB))
        assert answer.status == 200 and answer.body["counted"] is True
        assert client.leaderboard(ws).body["results"] == 1      # GET /ratings: redirected (307)
        # The relay's port takes no request body: websockets closes a POST's connection unanswered.
        with pytest.raises(client.ServiceUnreachable):
            client.submit_result(ws, signed(BOB, ALICE), patience=0)
    finally:
        stop(relay)
    assert relay.returncode == 0


def test_koikoi_name_sets_shows_refuses_and_clears(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    assert main(["name"]) == 0
    assert "(no name chosen)" in capsys.readouterr().out
    assert main(["name", "Cafe\u0301"]) == 0  # saved in NFC
    out = capsys.readouterr().out
    assert "your name is now Café (" in out
    assert (tmp_path / "config" / "name.txt").read_text(encoding="utf-8") == "Café\n"
    assert oct((tmp_path / "config" / "name.txt").stat().st_mode & 0o777) == "0o600"
    for bad in (" padded", "x" * 33, "bell\x07", "rtl\u202e"):
        assert main(["name", bad]) == 2
        assert "koikoi name: a display name" in capsys.readouterr().err
    assert main(["name"]) == 0
    assert capsys.readouterr().out.startswith("Café (")
    assert main(["name", ""]) == 0
    assert "no name: you are shown as" in capsys.readouterr().out


def test_verify_result_shows_names_fingerprints_and_rated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.result"
    path.write_bytes(signed(ALICE, BOB, names=("Alice", ""), winner=0))
    assert main(["verify", "--result", str(path)]) == 0
    out = capsys.readouterr().out
    assert "rated: the players agreed to send it to a rating service" in out
    assert f"player 0 (host): Alice ({ALICE.fingerprint()})\nplayer 1 (joiner): {BOB.fingerprint()}\n" in out
    assert main(["verify", "--result", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["names"] == ["Alice", ""] and report["rated"] is True
    assert [p["name"] for p in report["players"]] == ["Alice", ""]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_first_run_asks_for_a_name_at_a_terminal_only(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from koikoi_p2p.cli.play import make_screen
    from koikoi_p2p.cli.setup import choose_first_name

    screen = make_screen("en", ("you", "opponent"))
    monkeypatch.setattr(sys, "stdin", _Terminal("x\x07y\n  Hanako  \n"))
    choose_first_name(tmp_path / "name.txt", screen)
    assert (tmp_path / "name.txt").read_text(encoding="utf-8") == "Hanako\n"   # the bad one asked again
    assert "try again" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("Taro\n"))                # no terminal: no question
    choose_first_name(tmp_path / "other.txt", screen)
    assert not (tmp_path / "other.txt").exists()


def test_a_transcript_is_not_sent_as_a_result(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`koikoi ratings submit` of a transcript (or evidence, or a claim) says which file to send,
    before any upload: the service would only refuse the bytes (413 for a long match)."""
    from koikoi_p2p.protocol.transcript import TRANSCRIPT_MAGIC

    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path / "home"))
    transcript = tmp_path / "match.transcript"
    transcript.write_bytes(TRANSCRIPT_MAGIC + bytes(100_000))
    # No service listens at this URL: nothing is sent, so nothing fails to connect.
    assert main(["ratings", "submit", str(transcript), "--to", "http://127.0.0.1:9/"]) == 2
    said = capsys.readouterr().err
    assert "is not a co-signed result: only the .result file of a finished match is rated" in said, said


def test_a_history_line_names_the_opponent_by_fingerprint() -> None:
    """From the service's fingerprint; else made from the key; a service's other text stays escaped."""
    from koikoi_p2p.cli.cmd_ratings import player_text

    bob = Identity.generate()
    line = {"seq": 1, "outcome": "win", "opponent": bob.public_key.hex(), "opponent_name": "Bob",
            "rating_before": 1500, "rating_after": 1510}
    alice = {"name": "Alice", "fingerprint": "x", "rating": 1510, "deviation": 80, "games": 1, "abandoned": 0}
    found: dict[str, object] = {"player": alice, "history": [line]}
    assert f"against Bob ({bob.fingerprint()})" in player_text(found)
    found["history"] = [{**line, "opponent_fingerprint": bob.fingerprint(), "opponent": "zz"}]
    assert f"against Bob ({bob.fingerprint()})" in player_text(found)
    found["history"] = [{**line, "opponent": "\x1b[2Jabc"}]
    assert "\x1b" not in player_text(found) and "..." in player_text(found)
