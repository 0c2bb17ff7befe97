"""The JavaScript peer with its retransmission link (spec/protocol.md §12.1) against the Python
crash-safe driver as a person runs it (``koikoi host`` / ``koikoi join`` processes answering their
prompts), through a real relay process on loopback. Mid-match the relay is stopped and started
again on the same port, so its rooms and buffers are gone: both seats pair again in a rejoin room
(§12.2: the JavaScript relay rendezvous against the Python one) and the match finishes with the
same transcript on both sides, which both auditors verify. And a JavaScript joiner that stops
answering is claimed abandoned by the driver, a claim both auditors uphold (§12.4)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.test_cli_console import play_on
from tests.e2e.test_cli_play_relay import _spawn
from tests.e2e.test_cli_support import SCRIPT
from tests.interop.support import js_peer, js_verdicts, outcome, require_node, room_code, start_relay
from tests.interop.support import stop_process as stop


@pytest.mark.parametrize("js_seat", [0, 1])
def test_js_link_against_the_crash_safe_driver_across_a_relay_restart(tmp_path: Path, js_seat: int) -> None:
    require_node()
    js_file = tmp_path / "js.transcript"
    common = ["--rules", "wikipedia", "--rounds", "1", "--seed", str(40 + js_seat), "--link"]
    relay, url = start_relay()
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    procs: list[subprocess.Popen[bytes] | subprocess.Popen[str]] = []
    try:
        if js_seat == 0:
            js = js_peer("host", url, extra=[*common, "--transcript", str(js_file)])
            procs.append(js)
            py, console = _spawn(tmp_path / "py", "join", room_code(js), "--relay", url)
        else:
            py, console = _spawn(tmp_path / "py", "host", "--relay", url, "--rounds", "1",
                                 "--rules", "wikipedia", "--timeout", "120")
            code = console.expect(r"Room code: ([A-Z0-9]{6})", 60).group(1)
            js = js_peer("join", url, code=code, extra=[*common, "--transcript", str(js_file)])
        procs += [py, js]
        # Mid-match (wikipedia has no hand yaku, so a card is played before the deal can end).
        console.autoplay(timeout=90, done=r"--- Round 1", ask_help=False)   # the joiner accepts the terms
        # Koi-koi when asked until the opponent has played: a dealer that made a yaku on its first
        # turn and stopped ended the one-round match before the opponent ever played (CI).
        console.autoplay(timeout=120, done=r"Opponent plays", ask_help=False, answer=play_on)
        stop(relay)
        relay, _ = start_relay(port)
        final = console.autoplay(timeout=240, ask_help=False)
        assert "Final score" in final
        assert py.wait(60) == 0, console.text[-3000:]
        end = outcome(js, timeout=120)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        stop(relay)
    assert end["ok"], end
    # The JavaScript link paired again after the restart.
    assert isinstance(end["repairs"], int) and end["repairs"] >= 1, end
    transcripts = list((tmp_path / "py" / "data" / "transcripts").glob("*.transcript"))
    assert len(transcripts) == 1
    assert transcripts[0].read_bytes() == js_file.read_bytes()
    verified = subprocess.run([str(SCRIPT), "verify", str(js_file)], capture_output=True, text=True,
                              timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert js_verdicts([js_file])[0]["ok"]


def test_the_crash_safe_driver_claims_abandonment_by_a_silent_js_peer(tmp_path: Path) -> None:
    """The JavaScript joiner stops answering at its second decision (its process stays, its link
    answers): once the turn deadline of the terms passed, ``koikoi host`` signs an abandonment
    claim (spec/protocol.md §12.4) that koikoi verify and the JavaScript auditor both uphold, with
    the same message number."""
    require_node()
    relay, url = start_relay()
    procs: list[subprocess.Popen[bytes] | subprocess.Popen[str]] = []
    try:
        # Two rounds, though the stall ends the match in the first: a dealt hand yaku can end a
        # round before the joiner's second decision (the deal comes from fresh keys).
        py, console = _spawn(tmp_path / "py", "host", "--relay", url, "--rounds", "2", "--rules", "wikipedia",
                             "--timeout", "10")
        procs.append(py)
        code = console.expect(r"Room code: ([A-Z0-9]{6})", 60).group(1)
        js = js_peer("join", url, code=code, extra=["--seed", "44", "--link", "--stall-at", "2"])
        procs.append(js)
        console.autoplay(timeout=120, done=r"Match stopped", ask_help=False)
        py.wait(60)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        stop(relay)
    claims = list((tmp_path / "py" / "data" / "transcripts").glob("*.abandoned"))
    assert len(claims) == 1, console.text[-2000:]
    verified = subprocess.run([str(SCRIPT), "verify", str(claims[0])], capture_output=True, text=True,
                              timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    found = re.search(r"abandoned by player 1 at message (\d+)", verified.stdout)
    assert found, verified.stdout
    js_verdict = js_verdicts([claims[0]])[0]
    assert js_verdict["ok"] and js_verdict["reason"] == "abandoned", js_verdict
    assert js_verdict["index"] == int(found.group(1))
