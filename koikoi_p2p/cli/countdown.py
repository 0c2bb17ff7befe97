"""A visible countdown while the opponent is awaited, so a silent wait never looks like a hang."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


async def with_countdown(
    awaitable: Awaitable[T],
    *,
    write: Callable[[str], None],
    limit: float,
    live: bool,
    label: str = "waiting for the opponent",
    grace: float = 0.4,
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """Await ``awaitable``; if it takes longer than ``grace`` seconds, show the time left.

    On a terminal (``live``) one line is rewritten every second; otherwise a single line is
    printed, so logs and pipes do not fill with carriage returns.
    """
    task = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait({task}, timeout=grace)
        if done:
            return task.result()
        start = clock()
        if not live:
            write(f"{label} (up to {int(limit)}s)...\n")
            return await task
        while True:
            left = max(0, int(limit - (clock() - start) + 0.999))
            write(f"\r{label}... {left:>3}s ")
            done, _ = await asyncio.wait({task}, timeout=1.0)
            if done:
                write("\r" + " " * (len(label) + 12) + "\r")
                return task.result()
    finally:
        if not task.done():
            task.cancel()
