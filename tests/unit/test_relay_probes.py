"""koikoi_relay/probes.py: the relay's unsolicited ``sync`` to a stuck seat backs off and is
bounded per sweep (spec/relay.md §5.5 rule 4)."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from koikoi_relay import probes


@dataclass
class _Seat:
    probe_mark: int = -1
    probe_gap: int = 1
    probe_wait: int = 0


def _probed_sweeps(sweeps: int, first: int = 5) -> list[int]:
    seat = _Seat()
    return [n for n in range(sweeps) if probes.Sweep().due(seat, first, True)]


def test_a_seat_that_stays_stuck_is_probed_less_and_less_often() -> None:
    # Sweep 0 sees the frame first; it has not moved at sweep 1: the first probe, as before.
    assert _probed_sweeps(200) == [1, 3, 7, 15, 31, 63, 95, 127, 159, 191]


def test_progress_or_no_connection_starts_afresh() -> None:
    seat = _Seat()
    sweep = probes.Sweep
    assert [sweep().due(seat, 5, True) for _ in range(4)] == [False, True, False, True]
    assert not sweep().due(seat, 6, True)          # the seat acknowledged: a new mark
    assert sweep().due(seat, 6, True)              # stuck again: probed after one whole sweep
    assert not sweep().due(seat, 6, True)          # backing off
    assert not sweep().due(seat, 6, False)         # no connection: nothing sent, the back-off ends
    assert sweep().due(seat, 6, True)              # back, still stuck: probed at once
    assert not sweep().due(seat, 6, True)
    assert not sweep().due(seat, -1, True)         # nothing unacknowledged


def test_one_sweep_sends_at_most_its_share_and_the_rest_come_next() -> None:
    seats = [_Seat() for _ in range(3 * probes.PER_SWEEP + 5)]
    first = probes.Sweep()
    assert not any(first.due(seat, 0, True) for seat in seats)
    counts = []
    for _ in range(4):
        sweep = probes.Sweep()
        counts.append(sum(sweep.due(seat, 0, True) for seat in seats))
    assert counts[0] == probes.PER_SWEEP and sum(counts) >= len(seats)
    assert all(count <= probes.PER_SWEEP for count in counts)


@given(st.lists(st.integers(min_value=-1, max_value=3), min_size=1, max_size=300))
def test_never_two_probes_closer_than_the_gap_allows(marks: list[int]) -> None:
    """Whatever the seat does, a probe follows a whole sweep without progress, and while the mark
    stays put two probes are at least two sweeps apart."""
    seat = _Seat()
    last: tuple[int, int] | None = None   # (sweep, mark) of the last probe
    for n, mark in enumerate(marks):
        before = seat.probe_mark
        if probes.Sweep().due(seat, mark, True):
            assert mark >= 0 and before == mark
            if last is not None and last[1] == mark and all(m == mark for m in marks[last[0]:n + 1]):
                assert n - last[0] >= 2
            last = (n, mark)
