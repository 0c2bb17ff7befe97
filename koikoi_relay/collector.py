"""When the relay lets Python's cyclic collector run.

The collector stops the event loop while it runs: every honest peer's next frame waits. A pass
walks every object of the generations it collects, and what the relay holds for an open
connection (about 100 objects quiet, twice that with messages in flight) lives as long as the
connection, so it reaches the oldest generation and every middle and full pass walked all of it:
800,000 objects at 1,000 rooms under the hostile bench, 0.4 s a full pass, 0.1 s a young one when
the young generation had grown that large (koikoi_relay/pauses.py measured them; no pass found
anything to free: the relay makes almost no cyclic garbage, and a closed connection is left to
reference counting, server.py ``MeteredConnection._break_cycles``).

So the relay walks each object once, young, and then never again:

- every ``YOUNG_INTERVAL`` a young pass (what was made since the last one and is still alive: a
  twentieth of a second's worth, a millisecond or two), then ``gc.freeze()``: the survivors
  leave the collector's generations for good (freezing is a list splice, no walk). An object so
  frozen still goes as soon as nothing refers to it; only one caught in a cycle once it is garbage
  stays until the next full pass.
- a full pass (``gc.unfreeze()``, ``gc.collect()``, ``gc.freeze()``) when that may be needed:
  when the connection objects made and not yet freed (``Inbound.made - Inbound.freed``, counted
  by server.py's ``MeteredConnection``: one caught in a cycle stays unfreed) exceed twice the
  connections open by ``LEAK_SLACK`` more than after the last full pass, at every tick for
  ``LEAK_CONFIRM`` (a thousand connections closing at once are freed by reference counting within
  a few turns of the loop, and that lag alone brought a pass of a tenth of a second), at most once
  every ``LEAK_SPACING``; and every ``FULL_INTERVAL`` whatever happened. Its pause is that of the full
  pass before (a tenth to half a second at 1,000 rooms under attack), rare.

The automatic collector stays on as a backstop between two ticks (a young pass after
``YOUNG_COLLECTION_EVERY`` new objects); it finds the young generation small.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

from koikoi_relay.logs import log_event

# Seconds between two young passes (each followed by a freeze). A pass walks what was made since
# the last one and is still alive, which is about proportional to the interval (each connection's
# state for its next message, made after its last one): under the hostile bench at 1,000 rooms,
# every 0.1 s, 2-3 ms a pass (up to 13 ms on a loaded machine). Half that interval should halve
# the pause for about the same CPU in all.
YOUNG_INTERVAL = 0.05
FULL_INTERVAL = 3600.0      # seconds between two full passes at most
# Connection objects not freed beyond twice those open: a full pass. On plain ws:// a closed
# connection leaves no cycle (server.py, MeteredConnection._break_cycles); a TLS handshake that
# fails does (asyncio keeps the exception that ended it in a cycle with the connection object and
# its TLS layer, about 260 KiB with its buffer): this many of them, at most, wait for a pass.
LEAK_SLACK = 512
LEAK_SPACING = 10.0         # ... but not sooner than this after the last full pass
LEAK_CONFIRM = 2.0          # ... and only once the excess has lasted this long (not a mass close)
YOUNG_COLLECTION_EVERY = 50_000   # the automatic young pass, between two ticks (Python: 700)


class Collector:
    """Drives the cyclic collector (see the module). ``unfreed``: connection objects made and not
    yet freed; ``open_connections``: those open now; ``clock``: monotonic seconds."""

    def __init__(self, unfreed: Callable[[], int], open_connections: Callable[[], int],
                 clock: Callable[[], float] = time.monotonic, young_interval: float = YOUNG_INTERVAL,
                 full_interval: float = FULL_INTERVAL, leak_slack: int = LEAK_SLACK,
                 leak_spacing: float = LEAK_SPACING, leak_confirm: float = LEAK_CONFIRM) -> None:
        self.unfreed = unfreed
        self.open_connections = open_connections
        self.clock = clock
        self.young_interval = young_interval
        self.full_interval = full_interval
        self.leak_slack = leak_slack
        self.leak_spacing = leak_spacing
        self.leak_confirm = leak_confirm
        self.suspected: float | None = None   # since when every tick has seen the excess
        self.last_full = clock()
        self.excess = 0   # connection objects beyond twice those open, after the last full pass
        self.full_passes = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Freeze what start-up made, set the automatic backstop, tick in the running loop."""
        gc.freeze()
        _, middle, full = gc.get_threshold()
        gc.set_threshold(YOUNG_COLLECTION_EVERY, middle, full)
        self._task = asyncio.get_running_loop().create_task(self._forever())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _forever(self) -> None:
        while True:
            await asyncio.sleep(self.young_interval)
            self.tick()

    def _excess(self) -> int:
        return max(0, self.unfreed() - 2 * self.open_connections())

    def leaking(self) -> bool:
        """Whether more connection objects live than open connections explain, LEAK_SLACK more
        than after the last full pass (which freed what it could), at every tick for
        ``leak_confirm``, and not just after the last full pass."""
        now = self.clock()
        if self._excess() <= self.excess + self.leak_slack:
            self.suspected = None
            return False
        if self.suspected is None:
            self.suspected = now
        return now - self.suspected >= self.leak_confirm and now - self.last_full >= self.leak_spacing

    def tick(self) -> None:
        """One young pass and a freeze; a full pass first when one is due."""
        if self.leaking() or self.clock() - self.last_full >= self.full_interval:
            self.full()
            return
        gc.collect(0)
        gc.freeze()

    def full(self) -> None:
        """Every object examined once more: cycles frozen while alive are freed now."""
        start = time.perf_counter()
        unfreed = self.unfreed()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.last_full = self.clock()
        self.suspected = None
        self.excess = self._excess()
        self.full_passes += 1
        log_event("collector_full_pass", seconds=round(time.perf_counter() - start, 3), collected=found,
                  connection_objects=unfreed, connections_open=self.open_connections())
