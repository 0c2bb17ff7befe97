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
from tests.e2e.test_cli_play_relay import _spawn
from tests.e2e.test_cli_support import SCRIPT, relay_process


def test_resume_without_an_interrupted_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    assert main(["resume"]) == 1
    assert "no interrupted match" in capsys.readouterr().err


@pytest.mark.slow
def test_a_killed_host_resumes_and_the_match_finishes(tmp_path: Path) -> None:
    host_home, join_home = tmp_path / "host", tmp_path / "friend"
    procs: list[subprocess.Popen[bytes]] = []
    with relay_process(tmp_path) as url:
        try:
            host, host_console = _spawn(host_home, "host", "--relay", url, "--rounds", "1", "--timeout", "90")
            procs.append(host)
            code = host_console.expect(r"Room code: ([A-Z0-9]{6})", 60).group(1)
            joiner, join_console = _spawn(join_home, "join", code, "--relay", url)
            procs.append(joiner)
            saved = host_console.expect(r"saved after every message in ([^\n]+) \(if this stops", 30).group(1)
            assert Path(saved).is_relative_to(host_home / "data")
            results: dict[str, str | BaseException] = {}

            def play(name: str, console: object, **kw: object) -> None:
                try:
                    results[name] = console.autoplay(**kw)  # type: ignore[attr-defined]
                except BaseException as exc:  # reported below with the output
                    results[name] = exc

            friend = threading.Thread(target=play, args=("join", join_console),
                                      kwargs={"timeout": 400, "ask_help": False})
            friend.start()
            # Mid-match: the host has seen its opponent play a card (and answered its own prompts).
            host_console.expect(r"--- Round 1", 60)
            host_console.autoplay(timeout=120, done=r"opponent plays", ask_help=False)
            host.kill()
            host.wait()
            assert list(Path(saved).glob("*.state")), "the host's state is on disk after the kill"

            resumed, resumed_console = _spawn(host_home, "resume")
            procs.append(resumed)
            resumed_console.expect(r"Resuming the match saved in", 30)
            results["host"] = resumed_console.autoplay(timeout=300, ask_help=True)
            friend.join(400)
            for name in ("host", "join"):
                assert isinstance(results.get(name), str), f"{name}: {results.get(name)}"
            assert resumed.wait(60) == 0, resumed_console.text[-2000:]
            assert joiner.wait(60) == 0, join_console.text[-2000:]
            host_final = re.search(r"you (\d+) - (\d+) opponent", str(results["host"]))
            join_final = re.search(r"you (\d+) - (\d+) opponent", str(results["join"]))
            assert host_final and join_final
            assert host_final.groups() == tuple(reversed(join_final.groups()))
            raws = []
            for home in (host_home, join_home):
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
