"""The relay's log lines are rationed per event name (spec/relay.md §10): a flood of connections or
refusals writes a bounded number of lines and one count of what it left out."""

from __future__ import annotations

import logging

import pytest

from koikoi_relay import logs
from koikoi_relay.logs import LineAllowance


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_rate_per_event_name() -> None:
    clock = Clock()
    allowance = LineAllowance(burst=100, rate=20.0, every=10.0, clock=clock)
    assert sum(allowance.allow("connected") for _ in range(1000)) == 100
    # Another name has its own allowance.
    assert allowance.allow("closing")
    clock.now += 1.0
    assert sum(allowance.allow("connected") for _ in range(1000)) == 20
    assert allowance.due() == {}   # not yet ten seconds
    clock.now += 9.0
    assert allowance.due() == {"connected": 900 + 980}
    assert allowance.due(force=True) == {}   # reported once
    # After a quiet while the whole burst is back, and no more.
    clock.now += 3600.0
    assert sum(allowance.allow("connected") for _ in range(1000)) == 100


def test_log_event_writes_the_count_of_what_it_left_out(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    monkeypatch.setattr(logs, "ALLOWANCE", LineAllowance(burst=5, rate=1.0, every=10.0, clock=clock))
    with caplog.at_level("INFO", logger="koikoi_relay"):
        for serial in range(50):
            logs.log_event("connected", conn=serial)
        clock.now += 10.0
        logs.log_event("relay_stopped")
    lines = caplog.text.splitlines()
    assert sum("event=connected" in line for line in lines) == 5
    suppressed = [record for record in caplog.records if "event=log_suppressed" in record.getMessage()]
    assert [r.getMessage() for r in suppressed] == ["event=log_suppressed of=connected lines=45"]
    assert suppressed[0].levelno == logging.WARNING
    assert "event=relay_stopped" in caplog.text
