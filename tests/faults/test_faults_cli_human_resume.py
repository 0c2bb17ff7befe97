"""A person's ``koikoi host`` killed with -9 mid-match: ``koikoi resume`` finishes it with the same prompts.

Three processes on 127.0.0.1 (relay, host, join) with scripted input, then a fourth (the resumed
host). Both transcripts verify and hold the same envelopes; no saved state (which holds the seed
of every key of the match) is left behind.
"""

from __future__ import annotations

import re
import subprocess
import threading
from pathlib import Path

import pytest

from koikoi_p2p.cli.main import main
from koikoi_p2p.protocol.transcript import read_transcript
from tests.e2e.test_cli_console import play_on
from tests.e2e.test_cli_play_relay import _spawn
from tests.e2e.test_cli_support import SCRIPT, relay_process


def test_resume_without_an_interrupted_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    assert main(["resume"]) == 1
    assert "no interrupted match" in capsys.readouterr().err


def test_a_completed_state_keeps_only_its_outcome(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from koikoi_p2p.net.journal import Journal

    with Journal(tmp_path / "s") as journal:
        journal.rebase({"format": 2, "outcome": {
            "status": "completed", "seat": 1, "scores": [3, 0], "winner": 0, "file": "m.transcript"}})
    assert main(["resume", "--state", str(tmp_path / "s")]) == 0
    assert "the match finished (m.transcript)" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("victim", ["host", "join"])
def test_a_killed_player_resumes_and_the_match_finishes(tmp_path: Path, victim: str) -> None:
    homes = {"host": tmp_path / "host", "join": tmp_path / "friend"}
    procs: list[subprocess.Popen[bytes]] = []
    with relay_process(tmp_path) as url:
        try:
            # wikipedia has no hand yaku, so the deal cannot end before a card is played.
            host, host_console = _spawn(homes["host"], "host", "--relay", url, "--rounds", "1",
                                        "--rules", "wikipedia",
                                        "--timeout", "90")
            code = host_console.expect(r"Room code: ([A-Z0-9]{6})", 60).group(1)
            joiner, join_console = _spawn(homes["join"], "join", code, "--relay", url, "--accept")
            procs += [host, joiner]
            consoles = {"host": host_console, "join": join_console}
            running = {"host": host, "join": joiner}
            saved = {name: consoles[name].expect(r"saved after every message in ([^\n]+) \(if this stops",
                                                 30).group(1) for name in homes}
            assert Path(saved[victim]).is_relative_to(homes[victim] / "data")
            results: dict[str, str | BaseException] = {}
            survivor = "join" if victim == "host" else "host"

            def play() -> None:
                try:
                    results[survivor] = consoles[survivor].autoplay(timeout=400, ask_help=False)
                except BaseException as exc:  # reported below with the output
                    results[survivor] = exc

            friend = threading.Thread(target=play)
            friend.start()
            # Mid-match: the victim has seen its opponent play a card (and answered its own prompts).
            consoles[victim].expect(r"--- Round 1", 60)
            consoles[victim].autoplay(timeout=120, done=r"Opponent plays", ask_help=False, answer=play_on)
            running[victim].kill()
            running[victim].wait()
            assert list(Path(saved[victim]).glob("*.state")), "the state is on disk after the kill"

            resumed, resumed_console = _spawn(homes[victim], "resume")
            procs.append(resumed)
            running[victim], consoles[victim] = resumed, resumed_console
            resumed_console.expect(r"Resuming the match saved in", 30)
            resumed_console.expect(r"Your captures", 60)    # the board is drawn again
            results[victim] = resumed_console.autoplay(timeout=300, ask_help=True)
            friend.join(400)
            for name in homes:
                assert isinstance(results.get(name), str), f"{name}: {results.get(name)}"
                assert running[name].wait(60) == 0, consoles[name].text[-2000:]
            host_final = re.search(r"you (\d+) - (\d+) opponent", str(results["host"]))
            join_final = re.search(r"you (\d+) - (\d+) opponent", str(results["join"]))
            assert host_final and join_final
            assert host_final.groups() == tuple(reversed(join_final.groups()))
            raws = []
            for home in homes.values():
                transcripts = list((home / "data" / "transcripts").glob("*.transcript"))
                assert len(transcripts) == 1, transcripts
                verified = subprocess.run([str(SCRIPT), "verify", str(transcripts[0])],
                                          capture_output=True, text=True, timeout=120)
                assert verified.returncode == 0, verified.stdout + verified.stderr
                transcript = read_transcript(transcripts[0], require_closed=True)
                raws.append([env.raw for env in transcript.envelopes])
                assert not list((home / "data" / "matches").glob("*/*.state")), "no state after the end"
            assert raws[0] == raws[1]
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
