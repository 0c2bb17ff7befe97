"""A visible countdown while the opponent is awaited, so a silent wait never looks like a hang."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from koikoi_p2p.cli.style import display_width

T = TypeVar("T")


async def with_countdown(
    awaitable: Awaitable[T],
    *,
    write: Callable[[str], None],
    limit: float | Callable[[], float],
    live: bool,
    label: str | Callable[[], str] = "Waiting for the opponent",
    grace: float = 0.4,
    clock: Callable[[], float] = time.monotonic,
    on_idle: Callable[[], None] | None = None,
    unit: str = "s",
    wait: Callable[[], object] | None = None,
    since: Callable[[], float | None] | None = None,
) -> T:
    """Await ``awaitable``; if it takes longer than ``grace`` seconds, show the time left.

    ``on_idle`` runs once when the grace has passed (before the countdown: e.g. the board after
    one's own move, shown only when the answer is slow to come). ``label`` may be a function, read
    every second (what the opponent is doing can change during the wait). ``limit`` may be a
    function too, with ``wait`` naming the wait it counts: when that changes (the host's own
    terms sent, the joiner's accept now awaited), the count starts again from the new limit
    (terminal QA: the host counted a 60 s step down while the joiner had 8 s). ``since``, read when
    the count (re)starts, is when the clock of that wait started (a ``clock`` time, None: now): a
    resumed match's own question counts from when its input was saved, so the count shows what is
    left of it (terminal QA: it started again at the full time). On a terminal (``live``) one line
    is rewritten every second; otherwise a single line is printed, so logs and pipes do not fill
    with carriage returns.
    """
    task = asyncio.ensure_future(awaitable)

    def text() -> str:
        return label() if callable(label) else label

    def seconds() -> float:
        return limit() if callable(limit) else limit

    def started() -> float:
        now = clock()
        at = since() if since is not None else None
        return now if at is None else min(now, at)

    try:
        done, _ = await asyncio.wait({task}, timeout=grace)
        if done:
            return task.result()
        if on_idle is not None:
            on_idle()
        start = started()
        if not live:
            write(f"{text()} ({max(0, int(seconds() - (clock() - start) + 0.999))}{unit})...\n")
            return await task
        shown = 0
        last = ""
        awaited = wait() if wait is not None else None
        while True:
            now = wait() if wait is not None else None
            if now != awaited:
                awaited, start = now, started()
            left = max(0, int(seconds() - (clock() - start) + 0.999))
            # Past zero the wait may go on (no claim while our relay is down, spec/protocol.md
            # §12.4): the line stops counting, and an unchanged line is not written again (QA: a
            # log of "... 0s" a hundred times).
            line = f"\r{text()}... {left:>3}{unit} " if left else f"\r{text()}... "
            if line != last:
                size = display_width(line)
                write(line + " " * max(0, shown - size))
                shown, last = max(shown, size), line
            done, _ = await asyncio.wait({task}, timeout=1.0)
            if done:
                write("\r" + " " * (shown + 12) + "\r")
                return task.result()
    finally:
        if not task.done():
            task.cancel()
