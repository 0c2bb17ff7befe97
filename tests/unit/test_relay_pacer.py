"""The global pace of new connections (koikoi_relay/ratelimit.py ``Pacer``, spec/relay.md §7.2)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi_relay.line import HandshakeLine
from koikoi_relay.ratelimit import Pacer


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_goes_at_once_and_the_rest_one_interval_apart() -> None:
    clock = Clock()
    pacer = Pacer(10, 3, clock)
    waits = [pacer.reserve(10.0) for _ in range(6)]
    assert waits == pytest.approx([0.0, 0.0, 0.0, 0.1, 0.2, 0.3])


def test_a_place_beyond_the_longest_wait_is_refused_and_not_taken() -> None:
    clock = Clock()
    pacer = Pacer(10, 1, clock)
    assert pacer.reserve(0.25) == 0.0
    assert pacer.reserve(0.25) == pytest.approx(0.1)
    assert pacer.reserve(0.25) == pytest.approx(0.2)
    assert pacer.reserve(0.25) is None
    assert pacer.reserve(0.25) is None
    clock.now += 0.3   # the line moved on: the next place is free again
    assert pacer.reserve(0.25) == 0.0


def test_an_idle_line_gives_back_its_whole_burst_and_no_more() -> None:
    clock = Clock()
    pacer = Pacer(10, 4, clock)
    clock.now += 3600
    assert [pacer.reserve(1.0) for _ in range(4)] == [0.0] * 4
    assert pacer.reserve(1.0) == pytest.approx(0.1)   # the fifth waits one interval


def test_rate_zero_means_no_pace() -> None:
    pacer = Pacer(0, 1, Clock())
    assert all(pacer.reserve(0.0) == 0.0 for _ in range(1000))


@given(st.lists(st.floats(min_value=0, max_value=0.5), min_size=1, max_size=200),
       st.floats(min_value=1, max_value=1000), st.integers(min_value=1, max_value=16))
def test_no_window_admits_more_than_its_burst_and_its_rate(
        gaps: list[float], rate: float, burst: int) -> None:
    """Whatever the arrivals, the admissions (arrival + wait) in any window of length T number at
    most ``burst + T * rate``, and they keep their order."""
    clock = Clock()
    pacer = Pacer(rate, burst, clock)
    starts = []
    for gap in gaps:
        clock.now += gap
        wait = pacer.reserve(float("inf"))
        assert wait is not None and wait >= 0
        starts.append(clock.now + wait)
    assert starts == sorted(starts)
    for i, first in enumerate(starts):
        for j in range(i, len(starts)):
            assert j - i + 1 <= burst + (starts[j] - first) * rate + 1e-6


# -- the line of handshakes (koikoi_relay/line.py) ------------------------------------------------------


def _line_run(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(body())


def test_the_line_serves_sources_in_turn_not_in_order_of_arrival() -> None:
    async def body() -> None:
        line = HandshakeLine(100, 1, 3, 100, time.monotonic)
        served: list[str] = []

        async def one(source: str) -> None:
            if await line.enter(source, lambda: True):
                served.append(source)

        assert await line.enter("first", lambda: True)          # the burst of one
        tasks = [asyncio.ensure_future(one(s)) for s in ["a", "a", "a", "b", "c"]]
        await asyncio.gather(*tasks)
        assert served == ["a", "b", "c", "a", "a"]

    _line_run(body)


def test_a_source_holds_at_most_its_places_and_a_newcomer_takes_the_busiest_ones() -> None:
    async def body() -> None:
        line = HandshakeLine(1, 1, 2, 3, time.monotonic)
        assert await line.enter("x", lambda: True)
        a1 = asyncio.ensure_future(line.enter("a", lambda: True))
        a2 = asyncio.ensure_future(line.enter("a", lambda: True))
        await asyncio.sleep(0)
        assert not await line.enter("a", lambda: True)           # its two places are held
        b1 = asyncio.ensure_future(line.enter("b", lambda: True))
        await asyncio.sleep(0)
        assert line.waiting == 3                                 # the line is full
        c1 = asyncio.ensure_future(line.enter("c", lambda: True))
        for _ in range(3):
            await asyncio.sleep(0)
        assert a2.done() and a2.result() is False                # a's newest place went to c
        assert line.waiting == 3
        line.close()
        assert [await t for t in (a1, b1, c1)] == [False, False, False]
        assert not await line.enter("d", lambda: True)           # closed for good

    _line_run(body)


def test_a_place_given_up_or_whose_client_left_is_not_served() -> None:
    async def body() -> None:
        line = HandshakeLine(50, 1, 4, 10, time.monotonic)
        assert await line.enter("x", lambda: True)
        gone = asyncio.ensure_future(line.enter("a", lambda: False))   # its client has closed
        timed_out = asyncio.ensure_future(line.enter("b", lambda: True))
        await asyncio.sleep(0)
        timed_out.cancel()                                             # its opening timed out
        await asyncio.sleep(0)
        assert line.waiting == 1
        assert await line.enter("c", lambda: True)
        assert gone.done() and gone.result() is False
        assert line.waiting == 0

    _line_run(body)
