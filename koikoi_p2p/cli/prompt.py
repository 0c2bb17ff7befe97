"""Line-oriented prompts that accept only the legal choices, with help at every prompt.

Input is read by a daemon thread into an asyncio queue, so waiting for the person never blocks
the event loop (the protocol keeps answering the relay meanwhile) and an abandoned prompt never
keeps the process alive at exit.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TextIO, TypeVar

T = TypeVar("T")

HELP_KEYS = ("?", "h", "help")


class InputClosed(Exception):
    """The person's input ended (EOF): there is no one left to answer the prompt."""


@dataclass(frozen=True, slots=True)
class Choice(Generic[T]):
    """One legal answer: what to type, what it means, and the value it stands for."""

    key: str
    label: str
    value: T


class LineSource:
    """Lines typed by the person, awaited without blocking the loop."""

    async def readline(self) -> str:
        raise NotImplementedError


class StdinLines(LineSource):
    """Reads ``stream`` in a daemon thread; EOF is delivered as ``None`` and raises InputClosed."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdin
        self._queue: asyncio.Queue[str | None] | None = None
        self._closed = False

    def _start(self) -> asyncio.Queue[str | None]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[str | None] = asyncio.Queue()

        def pump() -> None:
            while True:
                line = self._stream.readline()
                loop.call_soon_threadsafe(queue.put_nowait, line if line else None)
                if not line:
                    return

        threading.Thread(target=pump, name="koikoi-stdin", daemon=True).start()
        return queue

    async def readline(self) -> str:
        if self._closed:
            raise InputClosed("input closed")
        if self._queue is None:
            self._queue = self._start()
        line = await self._queue.get()
        if line is None:
            self._closed = True
            raise InputClosed("input closed")
        return line.rstrip("\r\n")


class ScriptedLines(LineSource):
    """Lines given in advance (tests, and embedders that feed answers programmatically)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = list(lines)

    async def readline(self) -> str:
        if not self._lines:
            raise InputClosed("no more scripted input")
        return self._lines.pop(0)


def match_choice(answer: str, choices: Sequence[Choice[T]]) -> Choice[T] | None:
    """The choice an answer selects: its key exactly, else a unique label prefix; None otherwise."""
    text = answer.strip().lower()
    if not text:
        return None
    for choice in choices:
        if choice.key.lower() == text:
            return choice
    # Any choice may also be picked by its place in the list, so "1" always works.
    if text.isdecimal() and 1 <= int(text) <= len(choices):  # isdigit() admits "²", which int() refuses
        return choices[int(text) - 1]
    prefixed = [c for c in choices if c.label.lower().startswith(text)]
    return prefixed[0] if len(prefixed) == 1 else None


class Prompter:
    """Asks a question, lists the legal choices and insists until one of them is picked."""

    def __init__(self, lines: LineSource, write: Callable[[str], None]) -> None:
        self._lines = lines
        self._write = write

    async def choose(self, question: str, choices: Sequence[Choice[T]], help_text: str = "") -> T:
        if not choices:
            raise ValueError("a prompt needs at least one choice")
        # Short menus fit on one line; a hand of cards reads better one per line.
        one_line = len(choices) <= 3 and sum(len(c.label) for c in choices) < 60
        menu = ("  " if one_line else "\n  ").join(f"[{c.key}] {c.label}" for c in choices)
        while True:
            self._write(f"{question}\n  {menu}\n> ")
            answer = await self._lines.readline()
            if answer.strip().lower() in HELP_KEYS:
                self._write(self._help(choices, help_text))
                continue
            if not answer.strip():
                continue
            picked = match_choice(answer, choices)
            if picked is not None:
                return picked.value
            keys = ", ".join(c.key for c in choices)
            self._write(f"'{answer.strip()}' is not one of the choices ({keys}); type ? for help.\n")

    @staticmethod
    def _help(choices: Sequence[Choice[T]], help_text: str) -> str:
        lines = [help_text] if help_text else []
        lines.append("Type the key in brackets (or the choice's number, or the start of its label) "
                     "and press Enter:")
        lines.extend(f"  {c.key:>3}  {c.label}" for c in choices)
        lines.append("Only the choices listed are legal here. Ctrl-C leaves the match.")
        return "\n".join(lines) + "\n"
