"""Line-oriented prompts that accept only the legal choices, with help at every prompt.

Input is read by a daemon thread into an asyncio queue, so waiting for the person never blocks
the event loop (the protocol keeps answering the relay meanwhile) and an abandoned prompt never
keeps the process alive at exit.

What a person may type at a menu (the help says the same): the key in brackets (a letter), or
the start of a choice's label, or the start of one of its other names (a card's id such as
``04-plain1``, or its name in either language). Labels are compared without their colour codes.
An answer that fits two choices is never guessed: the prompt names both and asks again. Keys are
letters, not numbers, because card labels start with their month number.

A bare number means one thing everywhere: a month. ``4`` and ``04`` are April, and pick the card
of April when there is exactly one; ``1`` is January, never the start of ``11A`` (November) and
never the first line of the menu.
"""

from __future__ import annotations

import asyncio
import re
import sys
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TextIO, TypeVar

from koikoi_p2p.cli.i18n import tr
from koikoi_p2p.cli.style import display_width

T = TypeVar("T")

HELP_KEYS = ("?", "help", "？", "へるぷ", "ヘルプ")  # not "h": a card's key may be h
KEY_LETTERS = "abcdefghij"  # card choices; s, k, n and r stay free for stop, koi-koi, no and resign

_ANSI = re.compile("\x1b\\[[0-9;]*[A-Za-z]")


class InputClosed(Exception):
    """The person's input ended (EOF): there is no one left to answer the prompt."""


class TimeUp(Exception):
    """The decision's deadline passed before an answer was given (no more input is taken)."""


@dataclass(frozen=True, slots=True)
class Choice(Generic[T]):
    """One legal answer: what to type, what it means, the value it stands for, other names."""

    key: str
    label: str
    value: T
    aliases: tuple[str, ...] = ()


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
                try:
                    line = self._stream.readline()
                except (OSError, ValueError):  # a closed or broken stream is the end of input
                    line = ""
                try:
                    loop.call_soon_threadsafe(queue.put_nowait, line if line else None)
                except RuntimeError:  # the loop is gone (the command is exiting)
                    return
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

    def is_terminal(self) -> bool:
        """Whether the lines come from a terminal (a person), not a pipe or a file."""
        try:
            return bool(self._stream.isatty())
        except (OSError, ValueError, AttributeError):
            return False

    def discard_pending(self) -> None:
        """Forget lines typed before the question was asked (type-ahead answers nothing)."""
        if self._queue is None:
            return
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if item is None:
                self._queue.put_nowait(None)
                return


class ScriptedLines(LineSource):
    """Lines given in advance (tests, and embedders that feed answers programmatically)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = list(lines)

    async def readline(self) -> str:
        if not self._lines:
            raise InputClosed("no more scripted input")
        return self._lines.pop(0)


def normalise(text: str) -> str:
    """What is compared: no colour codes, full-width forms folded (NFKC), case folded, single spaces."""
    plain = _ANSI.sub("", text)
    return " ".join(unicodedata.normalize("NFKC", plain).casefold().split())


def candidates(answer: str, choices: Sequence[Choice[T]]) -> list[Choice[T]]:
    """The choices an answer may mean: its key exactly; else every choice whose label, or one of
    whose other names, the answer equals or starts (an exact name beats a mere prefix)."""
    text = normalise(answer)
    if not text:
        return []
    for choice in choices:
        if normalise(choice.key) == text:
            return [choice]
    if text.isascii() and text.isdigit():
        return _month_choices(int(text), choices)
    exact = [c for c in choices if any(normalise(n) == text for n in (c.label, *c.aliases))]
    if exact:
        return exact
    return [c for c in choices if any(normalise(n).startswith(text) for n in (c.label, *c.aliases))]


def _month_choices(month: int, choices: Sequence[Choice[T]]) -> list[Choice[T]]:
    """The card choices of one month: their code (``04R``, shown first in a card's label) has
    exactly that month; a bare number is never a prefix of another code."""
    if not 1 <= month <= 12:
        return []
    code = f"{month:02d}"

    def of_month(name: str) -> bool:
        plain = normalise(name)
        return plain.startswith(code) and (len(plain) == 2 or not plain[2].isdigit())

    return [c for c in choices if any(of_month(n) for n in (c.label, *c.aliases))]


def match_choice(answer: str, choices: Sequence[Choice[T]]) -> Choice[T] | None:
    """The one choice an answer selects, or None (no choice, or more than one)."""
    found = candidates(answer, choices)
    if len(found) == 1:
        return found[0]
    # Choices that are the same (one value, or one label: two plains of a month, which play
    # and score alike) are not a real ambiguity.
    if found and (all(c.value == found[0].value for c in found)
                  or all(normalise(c.label) == normalise(found[0].label) for c in found)):
        return found[0]
    return None


def card_key(n: int) -> str:
    """The key of the n-th card choice (0-based): a, b, c..."""
    return KEY_LETTERS[n] if n < len(KEY_LETTERS) else f"c{n + 1}"


class Prompter:
    """Asks a question, lists the legal choices and insists until one of them is picked.

    With a ``deadline`` (a ``clock()`` time) the time left is shown and, on a terminal, counted
    down live in front of the answer line; when it passes no answer is taken (``TimeUp``).
    """

    def __init__(self, lines: LineSource, write: Callable[[str], None], *, lang: str = "en",
                 live: bool = False, width: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._lines = lines
        self._write = write
        self.lang = lang
        self.live = live
        self.width = width
        self.clock = clock

    async def choose(self, question: str, choices: Sequence[Choice[T]], help_text: str = "", *,
                     deadline: float | None = None) -> T:
        if not choices:
            raise ValueError("a prompt needs at least one choice")
        self.forget_typed_ahead()
        menu = self.menu(choices)
        question = self._folded(question)  # never cut mid-word by the terminal ("300 seco|nds")
        while True:
            self._write(f"{question}\n{menu}\n")
            answer = await self._answer(deadline)
            if normalise(answer) in HELP_KEYS:
                self._write(self._help(choices, help_text))
                continue
            if not answer.strip():
                continue
            found = candidates(answer, choices)
            picked = match_choice(answer, choices)
            if picked is not None:
                return picked.value
            shown = answer.strip()
            if found:
                options = tr(self.lang, " or ").join(f"[{c.key}] {c.label}" for c in found)
                self._say(tr(self.lang, "'{answer}' could be {options}: type its key.\n",
                             answer=shown, options=options))
            else:
                keys = ", ".join(c.key for c in choices)
                self._say(tr(self.lang, "'{answer}' is not one of the choices ({keys}); type ? for help.\n",
                             answer=shown, keys=keys))

    def forget_typed_ahead(self) -> None:
        """On a terminal, a line typed before the question is no answer to it."""
        discard = getattr(self._lines, "discard_pending", None)
        if self.live and callable(discard):
            discard()

    async def line(self) -> str:
        """One line, whatever it says (``Press Enter``)."""
        self._write("> ")
        return await self._lines.readline()

    def _folded(self, text: str) -> str:
        from koikoi_p2p.cli.board import fold

        return "\n".join(part for line in text.split("\n") for part in fold(line, self.width))

    def _say(self, text: str) -> None:
        self._write(self._folded(text.rstrip("\n")) + "\n")

    def menu(self, choices: Sequence[Choice[T]]) -> str:
        """``[key] label`` entries: on one line when short, else one a line (two columns when
        they fit the terminal's width)."""
        entries = [f"[{c.key}] {c.label}" for c in choices]
        widths = [display_width(e) for e in entries]
        limit = self.width or 100
        if len(entries) <= 3 and sum(widths) + 2 * len(entries) + 2 <= limit:
            return "  " + "  ".join(entries)
        column = max(widths) + 2
        if self.width is not None and len(entries) > 4 and 2 + 2 * column <= self.width:
            half = (len(entries) + 1) // 2
            rows = []
            for i in range(half):
                left = entries[i] + " " * (column - widths[i])
                right = entries[i + half] if i + half < len(entries) else ""
                rows.append(("  " + left + right).rstrip())
            return "\n".join(rows)
        return "\n".join("  " + e for e in entries)

    async def _answer(self, deadline: float | None) -> str:
        if deadline is None:
            self._write("> ")
            return await self._lines.readline()
        left = deadline - self.clock()
        if left <= 0:
            raise TimeUp("the time for this decision has run out")
        self._write(f"{_clock_text(left)} > ")
        read = asyncio.ensure_future(self._lines.readline())
        try:
            while True:
                left = deadline - self.clock()
                if left <= 0:
                    raise TimeUp("the time for this decision has run out")
                done, _ = await asyncio.wait({read}, timeout=min(1.0, left))
                if done:
                    return read.result()
                if self.live:
                    # Rewrite the clock in front of the answer line and put the cursor back where
                    # the person is typing (DECSC/DECRC: save and restore the cursor).
                    self._write(f"\x1b7\r{_clock_text(deadline - self.clock())}\x1b8")
        finally:
            if not read.done():
                read.cancel()

    def _help(self, choices: Sequence[Choice[T]], help_text: str) -> str:
        from koikoi_p2p.cli.board import fold

        lines = [part for line in help_text.split("\n") for part in fold(line, self.width)
                 ] if help_text else []
        lines.append(tr(self.lang, "Type the key in brackets, or the start of the choice's name (a card's "
                                   "month and mark such as 04R, its name, or its id such as 04-ribbon), "
                                   "and press Enter. A number alone is a month (4 or 04 is April), never "
                                   "a place in the list:"))
        lines[-1:] = fold(lines[-1], self.width)
        lines.extend(f"  {c.key:>3}  {c.label}" for c in choices)
        lines.extend(fold(tr(self.lang, "Only the choices listed are legal here. Ctrl-C leaves the match."),
                          self.width))
        return "\n".join(lines) + "\n"


def _clock_text(seconds: float) -> str:
    """``[m:ss]``, rounded up, so the clock never shows 0:00 while time is left."""
    whole = max(0, int(seconds + 0.999))
    return f"[{whole // 60}:{whole % 60:02d}]"
