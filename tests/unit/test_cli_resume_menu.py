"""`koikoi resume` with several interrupted matches (terminal QA): the menu and the match read
standard input through one reader. With a reader each, the menu's kept the first line typed after
the choice, so the first move was ignored and the time ran out."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from koikoi_p2p.cli import online, prompt
from koikoi_p2p.cli.play import Screen
from koikoi_p2p.cli.style import Style


class TypedLines(prompt.LineSource):
    """What a person types, one line at a time."""

    made: ClassVar[list[TypedLines]] = []

    def __init__(self) -> None:
        self.lines = ["b", "a"]   # the menu's choice, then the match's first answer
        TypedLines.made.append(self)

    async def readline(self) -> str:
        if not self.lines:
            raise prompt.InputClosed("input closed")
        return self.lines.pop(0)


def test_the_match_reads_the_same_input_as_the_menu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[Any] = []

    async def play_saved(store: Any, screen: Any, **options: Any) -> int:
        given.append((store.folder, options.get("lines")))
        # The match's first answer is the next line typed, not lost in another reader.
        assert await options["lines"].readline() == "a"
        return 0

    monkeypatch.setattr(online, "play_saved", play_saved)
    monkeypatch.setattr(prompt, "StdinLines", TypedLines)
    found = [tmp_path / "AAAAAA-seat0", tmp_path / "BBBBBB-seat1"]
    screen = Screen(out=io.StringIO(), lang="en", style=Style(False), live=False)
    setup = SimpleNamespace(screen=screen)
    assert asyncio.run(online._resume_one(found, setup)) == 0  # type: ignore[arg-type]
    assert len(TypedLines.made) == 1
    assert given == [(found[1], TypedLines.made[0])]


def test_the_menu_says_how_long_ago_each_match_was_saved(tmp_path: Path) -> None:
    """Terminal QA: room codes alone did not tell an old, dead match from today's."""
    import os
    import time

    from koikoi_p2p.net.journal import Journal

    screen = Screen(out=io.StringIO(), lang="en", style=Style(False), live=False)
    folder = tmp_path / "AAAAAA-seat0"
    folder.mkdir()
    saved = Journal(folder).path
    saved.write_bytes(b"x")
    for ago, said in ((3 * 3600 + 5, "3 hours"), (90, "90 seconds"), (5 * 86400, "5 days"),
                      (600, "10 minutes")):
        os.utime(saved, (time.time() - ago, time.time() - ago))
        assert online._saved_label(folder, screen) == f"room AAAAAA (you hosted), last saved {said} ago"
    ja = Screen(out=io.StringIO(), lang="ja", style=Style(False), live=False)
    assert "10分前" in online._saved_label(folder, ja)
    assert online._saved_label(tmp_path / "BBBBBB-seat1", screen) == "room BBBBBB (you joined)"
