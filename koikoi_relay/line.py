"""The line of new connections (spec/relay.md §7.2): websocket handshakes of all sources wait here
for the relay's pace, served one source after another.

A single first-come line let a few addresses hold every place in it: thirteen addresses, each within
its own handshake burst, filled 800 places at once, and every other client, resumes included, was
turned away for as long as they kept it full. So the places are counted per source and served
round-robin by source: a source holds at most ``per_source`` places, a newcomer waits about one turn
of the sources that wait (not behind every handshake of the busiest), and when the whole line is
full a newcomer from a source holding fewer places than the busiest takes the busiest source's
newest place (that handshake is turned away instead). A place whose client has gone (closed, or
its opening timed out) is given back at once or skipped when its turn comes.

The line itself is sans-I/O but for the event loop's timer (``call_later``) and a future per place.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable

from koikoi_relay.ratelimit import Pacer


class _Place:
    __slots__ = ("alive", "future")

    def __init__(self, future: asyncio.Future[bool], alive: Callable[[], bool]) -> None:
        self.future = future
        self.alive = alive


class HandshakeLine:
    """``rate`` handshakes a second after ``burst`` at once (a GCRA, ratelimit.Pacer); at most
    ``per_source`` places per source and ``capacity`` in all. ``rate`` 0: no line."""

    def __init__(self, rate: float, burst: int, per_source: int, capacity: int,
                 clock: Callable[[], float]) -> None:
        self.rate = rate
        self.per_source = max(per_source, 1)
        self.capacity = max(capacity, 1)
        self._pacer = Pacer(rate, burst, clock)
        self._queues: dict[str, deque[_Place]] = {}   # insertion order: the round-robin order
        self._waiting = 0
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False

    @property
    def waiting(self) -> int:
        return self._waiting

    async def enter(self, source: str, alive: Callable[[], bool]) -> bool:
        """Wait for this handshake's turn: True to go on, False if it is turned away (the line is
        full for its source, it lost its place to a source holding fewer, or the line closed)."""
        if self.rate <= 0:
            return not self._closed
        if self._closed:
            return False
        if not self._waiting and self._pacer.reserve(0.0) is not None:
            return True   # nobody waits and the pace allows one now
        queue = self._queues.get(source)
        held = len(queue) if queue is not None else 0
        if held >= self.per_source:
            return False
        if self._waiting >= self.capacity and not self._push_out(held):
            return False
        place = _Place(asyncio.get_running_loop().create_future(), alive)
        if queue is None:
            queue = self._queues[source] = deque()
        queue.append(place)
        self._waiting += 1
        self._schedule()
        try:
            return await place.future
        finally:
            if not place.future.done() or place.future.cancelled():
                # Cancelled (its opening timed out): the place goes back at once.
                place.future.cancel()
                self._forget(source, place)

    def close(self) -> None:
        """Shutting down: every waiting handshake is turned away now, and every later one."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for queue in self._queues.values():
            for place in queue:
                if not place.future.done():
                    place.future.set_result(False)
        self._queues.clear()
        self._waiting = 0

    def _push_out(self, held: int) -> bool:
        """The line is full: the newest place of the source holding the most is given up for a
        newcomer whose source holds fewer (``held``) than that. Whether a place was freed."""
        busiest, most = None, 0
        for name, queue in self._queues.items():
            if len(queue) > most:
                busiest, most = name, len(queue)
        if busiest is None or most <= held + 1:
            return False
        place = self._queues[busiest].pop()
        self._waiting -= 1
        if not self._queues[busiest]:
            del self._queues[busiest]
        if not place.future.done():
            place.future.set_result(False)
        return True

    def _forget(self, source: str, place: _Place) -> None:
        queue = self._queues.get(source)
        if queue is None:
            return
        try:
            queue.remove(place)
        except ValueError:
            return
        self._waiting -= 1
        if not queue:
            del self._queues[source]

    def _schedule(self) -> None:
        if self._timer is None and self._waiting:
            self._timer = asyncio.get_running_loop().call_later(1.0 / self.rate, self._serve)

    def _serve(self) -> None:
        """Let in as many as the pace allows now, one source after another."""
        self._timer = None
        while self._waiting and self._next_alive():
            if self._pacer.reserve(0.0) is None:
                break
            source, queue = next(iter(self._queues.items()))
            place = queue.popleft()
            self._waiting -= 1
            del self._queues[source]
            if queue:
                self._queues[source] = queue   # to the back of the round
            place.future.set_result(True)
        self._schedule()

    def _next_alive(self) -> bool:
        """Drop the places at the head of the round whose clients have gone; whether one is left."""
        while self._queues:
            source, queue = next(iter(self._queues.items()))
            place = queue[0]
            if not place.future.done() and place.alive():
                return True
            queue.popleft()
            self._waiting -= 1
            if not place.future.done():
                place.future.set_result(False)
            if not queue:
                del self._queues[source]
        return False
