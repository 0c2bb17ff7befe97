"""Debugging aid, off by default: where the relay's event loop stops.

With ``KOIKOI_RELAY_PAUSES=DIR`` in its environment a relay process writes ``DIR/relay-PID.jsonl``:
one JSON line per cyclic-collector pass (``gc.callbacks``: wall time of its end, generation,
seconds, objects collected); one per tick of a 10 ms ticker that woke more than ``LATE`` seconds
late (the event loop was busy or stopped that long), with the CPU time the thread had meanwhile;
one per event-loop callback that ran longer than ``LATE`` (what it ran, wall and CPU time); with
``KOIKOI_RELAY_PAUSES_OBJECTS=SECONDS``, that often the number of objects the collector tracks in
each generation (frozen ones aside); and at the end a summary: what a full collection then
finds, histograms of the passes by generation and of every tick's lateness. ``koikoi bench relay
--hostile`` reads these files when the variable is set in its own environment (the relays
inherit it) and reports what fell inside its measured windows. Nothing here changes what the
relay does, but the recording costs a little (a timer around every callback).
"""

from __future__ import annotations

import asyncio
import bisect
import gc
import json
import os
import time
from collections.abc import Callable
from typing import IO, Any

ENV = "KOIKOI_RELAY_PAUSES"
TICK = 0.01           # the ticker's period
LATE = 0.002          # a tick later than this is written out
# Seconds between two counts of the tracked objects, from KOIKOI_RELAY_PAUSES_OBJECTS (default: no
# count): a count stops the loop too, 70 ms for 800,000 objects, and would weigh on what it measures.
OBJECTS_ENV = "KOIKOI_RELAY_PAUSES_OBJECTS"
# Upper bounds of the histograms' buckets, seconds (the last bucket is everything above).
BOUNDS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


def histogram(values: list[float]) -> dict[str, int]:
    """Counts per bucket of BOUNDS, named by their upper bound in milliseconds (``>1000``: above)."""
    counts = [0] * (len(BOUNDS) + 1)
    for value in values:
        counts[bisect.bisect_left(BOUNDS, value)] += 1
    names = [f"<={bound * 1e3:g}ms" for bound in BOUNDS] + [f">{BOUNDS[-1] * 1e3:g}ms"]
    return {name: count for name, count in zip(names, counts, strict=True) if count}


class PauseRecorder:
    """Records collector passes and event-loop lateness into ``out`` (see the module)."""

    def __init__(self, out: IO[str], objects_every: float = 0.0) -> None:
        self.out = out
        self.objects_every = objects_every
        self._started = 0.0
        self._pending: list[dict[str, Any]] = []
        self._passes: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._collected: dict[int, int] = {0: 0, 1: 0, 2: 0}
        self._lags: list[float] = []
        self._ticker: asyncio.Task[None] | None = None
        self._original_run: Callable[[asyncio.Handle], None] | None = None
        # What ran since the last tick, by kind: (callbacks, seconds); a late tick says its largest.
        self._ran: dict[str, list[float]] = {}

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._started = now
            return
        seconds = now - self._started
        generation = info["generation"]
        self._passes[generation].append(seconds)
        self._collected[generation] += info["collected"]
        self._pending.append({"gc": generation, "t": time.time(), "s": round(seconds, 6),
                              "collected": info["collected"], "uncollectable": info["uncollectable"]})

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)
        self._ticker = asyncio.get_running_loop().create_task(self._tick_forever())
        self._wrap_callbacks()

    def _wrap_callbacks(self) -> None:
        """Time every event-loop callback (asyncio.Handle._run): one taking more than LATE is
        written out with what it ran (a task's coroutine by name)."""
        original = asyncio.Handle._run
        self._original_run = original
        pending = self._pending_list
        ran = self._ran_since_tick

        def timed(handle: asyncio.Handle) -> None:
            start, cpu = time.perf_counter(), time.thread_time()
            original(handle)
            took = time.perf_counter() - start
            kind = ran().setdefault(_describe(handle), [0, 0.0])
            kind[0] += 1
            kind[1] += took
            if took > LATE:
                pending().append({"callback": _describe(handle), "s": round(took, 6),
                                  "cpu": round(time.thread_time() - cpu, 6), "t": time.time()})

        setattr(asyncio.Handle, "_run", timed)   # noqa: B010 - typeshed's type of _run is odd

    def _pending_list(self) -> list[dict[str, Any]]:
        return self._pending

    def _ran_since_tick(self) -> dict[str, list[float]]:
        return self._ran

    async def _tick_forever(self) -> None:
        next_count = time.monotonic()
        while True:
            before, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(TICK)
            late = time.perf_counter() - before - TICK
            self._lags.append(late)
            ran, self._ran = self._ran, {}
            if late > LATE:
                # With the CPU time this thread had meanwhile: about ``late`` + TICK when the loop
                # was busy (a collector pass, long callbacks), much less when the process waited
                # for a CPU the machine gave to others; and what ran meanwhile, the costliest kinds.
                top = sorted(ran.items(), key=lambda item: -item[1][1])[:6]
                self._pending.append({"lag": round(late, 6), "cpu": round(time.thread_time() - cpu, 6),
                                      "t": time.time(),
                                      "ran": {name: [int(n), round(s, 6)] for name, (n, s) in top}})
            if self.objects_every and time.monotonic() >= next_count:
                next_count = time.monotonic() + self.objects_every
                counts = [len(gc.get_objects(g)) for g in range(3)]
                self._pending.append({"objects": counts, "t": time.time()})
            self.flush()

    def flush(self) -> None:
        pending, self._pending = self._pending, []
        for line in pending:
            self.out.write(json.dumps(line) + "\n")
        if pending:
            self.out.flush()

    def stop(self) -> None:
        """Stop recording; write what is pending and the summary."""
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self._original_run is not None:
            setattr(asyncio.Handle, "_run", self._original_run)   # noqa: B010
            self._original_run = None
        if self._ticker is not None:
            self._ticker.cancel()
        self.flush()
        # What a full pass finds now: the cyclic garbage no pass has looked at, frozen or not.
        start = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        final = {"collected": found, "s": round(time.perf_counter() - start, 4)}
        summary = {
            "final_collection": final,
            "gc": {str(g): {"passes": len(times), "seconds": round(sum(times), 4),
                            "max": round(max(times, default=0.0), 4), "collected": self._collected[g],
                            "histogram": histogram(times)}
                   for g, times in self._passes.items()},
            "lag": {"ticks": len(self._lags), "histogram": histogram(self._lags)},
        }
        self.out.write(json.dumps({"summary": summary}) + "\n")
        self.out.close()


def _describe(handle: asyncio.Handle) -> str:
    """What a callback ran: a task's coroutine (its qualified name), else the function's."""
    callback = getattr(handle, "_callback", None)
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        return "task " + str(getattr(coro, "__qualname__", coro))
    return str(getattr(callback, "__qualname__", callback))


def from_environment() -> PauseRecorder | None:
    """A recorder writing into ``$KOIKOI_RELAY_PAUSES/relay-PID.jsonl``, or None when unset."""
    directory = os.environ.get(ENV)
    if not directory:
        return None
    path = os.path.join(directory, f"relay-{os.getpid()}.jsonl")
    objects_every = float(os.environ.get(OBJECTS_ENV) or 0)
    return PauseRecorder(open(path, "w", encoding="utf-8"), objects_every)   # closed by stop()
