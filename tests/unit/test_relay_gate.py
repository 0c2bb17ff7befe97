"""The read gate of an address's shared byte rate (koikoi_relay/gate.py, spec/relay.md §7.1),
driven with an injected clock and timer."""

from __future__ import annotations

from collections.abc import Callable

from koikoi_relay.gate import ReadGate
from koikoi_relay.ratelimit import TokenBucket


class _Member:
    def __init__(self) -> None:
        self.held = False

    def hold_reading(self, held: bool) -> None:
        self.held = held


class _Timer:
    def __init__(self, delay: float, callback: Callable[[], None]) -> None:
        self.delay, self.callback, self.cancelled = delay, callback, False

    def cancel(self) -> None:
        self.cancelled = True


def _gate() -> tuple[ReadGate, list[float], list[_Timer]]:
    now = [0.0]
    timers: list[_Timer] = []

    def schedule(delay: float, callback: Callable[[], None]) -> _Timer:
        timers.append(_Timer(delay, callback))
        return timers[-1]

    return ReadGate(TokenBucket(1000.0, 1.0, lambda: now[0]), schedule), now, timers


def test_a_debt_holds_every_member_until_half_the_burst_is_back() -> None:
    gate, now, timers = _gate()
    members = [_Member() for _ in range(3)]
    for member in members:
        gate.join(member)
    gate.charge(1000)                        # the whole burst: no debt yet
    assert not any(m.held for m in members) and not timers
    gate.charge(500)                         # half a second of debt: all of them, not only the reader
    # Held until the debt is paid and half the burst is back (0.5 + 0.5 s): released as soon as
    # it was paid, the next read put the source in debt again at once.
    assert all(m.held for m in members) and timers[-1].delay == 1.0
    late = _Member()
    gate.join(late)                          # a connection opened meanwhile is held too
    assert late.held
    now[0] = 1.0
    timers[-1].callback()
    assert not any(m.held for m in [*members, late])


def test_a_timer_that_fires_early_waits_again_and_the_last_leaver_cancels_it() -> None:
    gate, now, timers = _gate()
    member = _Member()
    gate.join(member)
    gate.charge(1500)
    now[0] = 0.2                             # early: 0.3 s of debt and 0.5 s of refill left
    timers[-1].callback()
    assert member.held and len(timers) == 2 and abs(timers[-1].delay - 0.8) < 1e-9
    gate.leave(member)
    assert timers[-1].cancelled and not gate.held
