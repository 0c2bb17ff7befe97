"""koikoi_relay/collector.py: young passes then a freeze, full passes only when connections leak."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from koikoi_relay.collector import Collector


class Node:
    def __init__(self) -> None:
        self.other: object = None


def _in_a_generation(obj: object) -> bool:
    return any(found is obj for generation in range(3) for found in gc.get_objects(generation))


@pytest.fixture
def collector_state() -> Iterator[None]:
    """The collector's thresholds and frozen objects as they were before the test."""
    thresholds = gc.get_threshold()
    gc.unfreeze()
    gc.collect()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        gc.collect()


def test_a_tick_leaves_what_lives_out_of_every_later_pass(collector_state: None) -> None:
    """What a connection holds lived in the collector's generations, and every middle and full pass
    walked it again (0.4 s a full pass at 1,000 rooms under attack): after a tick it is frozen."""
    now = [0.0]
    collector = Collector(lambda: 0, lambda: 0, clock=lambda: now[0])
    live = Node()
    assert _in_a_generation(live)
    collector.tick()
    assert gc.is_tracked(live) and not _in_a_generation(live)
    garbage = Node()
    garbage.other = garbage   # a cycle that dies young is found by the young pass of the next tick
    gone = weakref.ref(garbage)
    del garbage
    collector.tick()
    assert gone() is None and collector.full_passes == 0


def test_connections_left_in_cycles_bring_a_full_pass(collector_state: None) -> None:
    now = [0.0]
    unfreed = [10]
    collector = Collector(lambda: unfreed[0], lambda: 5, clock=lambda: now[0], leak_slack=100,
                          leak_spacing=60.0, full_interval=3600.0)
    cycle = Node()
    cycle.other = cycle
    gone = weakref.ref(cycle)
    collector.tick()          # frozen while alive
    del cycle
    collector.tick()
    assert gone() is not None and collector.full_passes == 0   # frozen garbage: no pass looks at it
    unfreed[0] = 10 + 2 * 5 + 101    # more connection objects alive than open connections explain
    now[0] = 57.0
    collector.tick()
    now[0] = 59.0
    collector.tick()
    assert gone() is not None and collector.full_passes == 0   # not this soon after the start
    now[0] = 61.0
    collector.tick()
    assert gone() is None and collector.full_passes == 1
    now[0] = 200.0
    collector.tick()          # what is left after a full pass is the new baseline
    assert collector.full_passes == 1
    unfreed[0] += 101
    collector.tick()
    assert collector.full_passes == 1   # seen once: it must last LEAK_CONFIRM
    now[0] = 202.0
    collector.tick()
    assert collector.full_passes == 2


def test_a_mass_close_freed_within_the_confirm_time_brings_no_full_pass(collector_state: None) -> None:
    """A thousand connections closing at once leave their objects unfreed for a few turns of the
    loop (their tasks end, then reference counting frees them): no leak, and a full pass then
    stopped the relay for a tenth of a second under the hostile bench."""
    now = [100.0]
    unfreed = [2000]
    open_now = [1000]
    collector = Collector(lambda: unfreed[0], lambda: open_now[0], clock=lambda: now[0], leak_slack=512,
                          leak_spacing=10.0, leak_confirm=2.0, full_interval=3600.0)
    collector.last_full = 0.0
    open_now[0] = 0            # all closed at once; their objects not yet freed
    for step in range(10):     # ticks over 1.5 s, then freed
        now[0] += 0.15
        collector.tick()
        if step == 8:
            unfreed[0] = 0
    assert collector.full_passes == 0
    unfreed[0] = 2000          # and had they stayed unfreed: a pass once it has lasted 2 s
    for _ in range(20):
        now[0] += 0.15
        collector.tick()
    assert collector.full_passes == 1


def test_a_full_pass_at_least_every_full_interval(collector_state: None) -> None:
    now = [0.0]
    collector = Collector(lambda: 0, lambda: 0, clock=lambda: now[0], full_interval=3600.0)
    collector.tick()
    now[0] = 3599.0
    collector.tick()
    assert collector.full_passes == 0
    now[0] = 3600.0
    collector.tick()
    assert collector.full_passes == 1
