"""What the person sees, and the exit code, when the other side leaves or cheats mid-match.

The person's side runs the real practice code (real Match, real proofs) with scripted answers;
the "computer" is made to walk away, or a man in the middle alters its frames.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import re
from pathlib import Path

import pytest

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.play import Screen
from koikoi_p2p.cli.practice import practice_match
from koikoi_p2p.cli.prompt import LineSource
from koikoi_p2p.cli.setup import Setup, prepare
from koikoi_p2p.cli.style import Style


class FirstKey(LineSource):
    """Types a key of the menu just printed: the first on a one-line menu, else the last line's;
    never "resign"."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out

    async def readline(self) -> str:
        menu = self.out.getvalue().rsplit("\n> ", 1)[0].rsplit("\n> ", 1)[-1]
        lines = [line for line in menu.split("\n") if line.startswith("  [")]
        rows: list[list[str]] = [  # one group: the keys themselves
            keys for line in lines if (keys := re.findall(r"\[([^\]]+)\] (?!resign)", line))]
        return rows[-1][0] if len(lines) == 1 else rows[-1][-1]


def _setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Setup, io.StringIO]:
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    args = argparse.Namespace(lang="en", rules="nintendo", rounds=1, switch=[])
    setup = prepare(args, opponent="computer", show_identity=False)
    assert setup is not None
    out = io.StringIO()
    screen = Screen(out=out, lang="en", style=Style(False), live=False, names=("you", "computer"))
    return Setup(setup.folders, setup.identity, setup.profile, 1, screen), out


def test_a_whole_practice_match_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    setup, out = _setup(tmp_path, monkeypatch)
    code = asyncio.run(asyncio.wait_for(practice_match(setup, FirstKey(out), seed=3), 120))
    assert code == exit_codes.OK, out.getvalue()[-2000:]
    assert "=== Final score" in out.getvalue()


def test_computer_walks_away(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    setup, out = _setup(tmp_path, monkeypatch)
    code = asyncio.run(
        asyncio.wait_for(practice_match(setup, FirstKey(out), seed=3, computer_gone_after=8), 120)
    )
    text = out.getvalue()
    assert code == exit_codes.OPPONENT_LEFT, text[-2000:]
    assert "Match stopped" in text and "The opponent left" in text


def test_altered_frame_is_a_deviation_with_evidence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    setup, out = _setup(tmp_path, monkeypatch)
    sent = {"n": 0}

    def tamper(direction: int, frame: bytes) -> list[bytes]:
        if direction == 1:  # computer -> person
            sent["n"] += 1
            if sent["n"] == 12:
                return [frame[:-1] + bytes([frame[-1] ^ 1])]
        return [frame]

    code = asyncio.run(asyncio.wait_for(practice_match(setup, FirstKey(out), seed=3, tamper=tamper), 120))
    text = out.getvalue()
    assert code == exit_codes.OPPONENT_DEVIATED, text[-2000:]
    assert "Match stopped" in text and "broke the protocol" in text
    evidence = Path(text.split("Evidence saved: ", 1)[1].split()[0])
    assert evidence.is_file() and evidence.parent == tmp_path / "data" / "transcripts"
