"""koikoi practice in a pseudo-terminal, played by typing, through a whole match to the final score."""

from __future__ import annotations

import json
import os
import pty
import subprocess
from pathlib import Path

import pytest

from tests.e2e.test_cli_console import Console
from tests.e2e.test_cli_support import SCRIPT, env_for


def _run_practice(home: Path, *args: str, colour: bool) -> tuple[Console, int]:
    master, slave = pty.openpty()
    env = env_for(home)
    if colour:
        env.pop("NO_COLOR", None)
    env["TERM"] = "xterm"
    proc = subprocess.Popen(
        [str(SCRIPT), "practice", *args], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
    )
    os.close(slave)
    console = Console(master, lambda line: os.write(master, (line + "\n").encode()))
    try:
        final = console.autoplay(timeout=240)
        assert "Final score: you" in final and "computer" in final
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return console, code


@pytest.mark.slow
def test_practice_match_in_a_pty(tmp_path: Path) -> None:
    console, code = _run_practice(tmp_path, "--rounds", "2", "--lang", "ja", colour=True)
    assert code == 0, console.text[-2000:]
    text = console.text
    # First run: the identity key is made and its fingerprint shown.
    assert "Made your identity key" in text and "Your fingerprint:" in text
    assert (tmp_path / "config" / "identity.key").exists()
    # The board, in Japanese, with the choices the person typed.
    assert "Your hand:" in text and "Field:" in text and "stock:" in text
    assert "光" in text or "タネ" in text or "短冊" in text or "カス" in text
    assert "Round 1 over:" in text and "Round 2 over:" in text
    transcript = text.split("Transcript: ", 1)[1].split()[0]
    assert Path(transcript).exists() and str(tmp_path) in transcript
    # The saved transcript replays: every proof, move and the co-signed result.
    verified = subprocess.run(
        [str(SCRIPT), "verify", transcript], capture_output=True, text=True, timeout=120
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    # Help was asked once and answered; every other answer was a listed key.
    # (Two rounds, so that at least one card is played even if a deal ends on a hand yaku.)
    assert console.log[0] == "?" and len(console.log) >= 2
    # --lang is remembered for next time.
    assert json.loads((tmp_path / "config" / "settings.json").read_text())["lang"] == "ja"


def test_practice_from_a_pipe(tmp_path: Path) -> None:
    """Scripted input through a pipe (no terminal): '1' answers every prompt; plain text, no colour."""
    env = env_for(tmp_path)
    env.pop("NO_COLOR", None)  # not a tty: plain text anyway
    done = subprocess.run(
        [str(SCRIPT), "practice", "--rounds", "1", "--level", "easy"],
        input="1\n" * 400, capture_output=True, text=True, env=env, timeout=240,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "=== Final score: you" in done.stdout
    assert "\x1b[" not in done.stdout
