"""The global pace of new connections (koikoi_relay/ratelimit.py ``Pacer``, spec/relay.md §7.2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
