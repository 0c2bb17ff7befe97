"""Structured logs: one ``key=value`` line per event. Payloads, tokens and metadata never appear.

Each event name has its own allowance of lines (spec/relay.md §10): a connection storm or a flood
of refusals must not become a flood of log lines, which costs the relay a write each and fills the
operator's disk. Lines over the allowance are counted and reported as ``event=log_suppressed``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable

from koikoi_relay.ratelimit import TokenBucket

LOGGER = logging.getLogger("koikoi_relay")

LOG_BURST = 100          # lines one event name may write at once (spec/relay.md §10)
LOG_RATE = 20.0          # ... and per second after that
SUPPRESSED_EVERY = 10.0  # seconds between reports of what was left out


def _value(value: object) -> str:
    text = str(value)
    if text and all(c.isalnum() or c in "._-:/" for c in text):
        return text
    return json.dumps(text)


class LineAllowance:
    """A token bucket per event name; what it refuses is counted, per name, until reported."""

    def __init__(self, burst: int = LOG_BURST, rate: float = LOG_RATE,
                 every: float = SUPPRESSED_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0:
            raise ValueError("a log allowance needs a rate above 0")
        self.burst, self.rate, self.every, self.clock = burst, rate, every, clock
        self._buckets: dict[str, TokenBucket] = {}   # (event names are the code's own: a few dozen)
        self.suppressed: dict[str, int] = {}
        self._reported = clock()

    def allow(self, event: str) -> bool:
        bucket = self._buckets.get(event)
        if bucket is None:
            bucket = self._buckets[event] = TokenBucket(self.rate, self.burst / self.rate, self.clock)
        if bucket.take():
            return True
        self.suppressed[event] = self.suppressed.get(event, 0) + 1
        return False

    def due(self, force: bool = False) -> dict[str, int]:
        """What was left out since the last report, when a report is due (or ``force``)."""
        now = self.clock()
        if not self.suppressed or (not force and now - self._reported < self.every):
            return {}
        self._reported = now
        left_out, self.suppressed = self.suppressed, {}
        return left_out


ALLOWANCE = LineAllowance()


def _write(level: int, event: str, fields: dict[str, object]) -> None:
    parts = [f"event={event}"]
    parts.extend(f"{key}={_value(value)}" for key, value in fields.items())
    LOGGER.log(level, " ".join(parts))


def report_suppressed(force: bool = False) -> None:
    """Write one ``log_suppressed`` line per event name that lost lines, when a report is due."""
    for event, lines in sorted(ALLOWANCE.due(force).items()):
        _write(logging.WARNING, "log_suppressed", {"of": event, "lines": lines})


def log_event(event: str, level: int = logging.INFO, **fields: object) -> None:
    """Log ``event`` with scalar fields (room serials, counts, reasons; never frame data)."""
    if not LOGGER.isEnabledFor(level):
        return
    report_suppressed()
    if ALLOWANCE.allow(event):
        _write(level, event, fields)


class KeyValueFormatter(logging.Formatter):
    """``ts=... level=... event=...`` lines, UTC timestamps."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line = f"ts={stamp}.{int(record.msecs):03d}Z level={record.levelname.lower()} {record.getMessage()}"
        if record.exc_info:
            line += " exc=" + json.dumps(self.formatException(record.exc_info))
        return line


def configure(level: int = logging.INFO) -> None:
    """Send the relay's logs to stderr in the key=value format."""
    handler = logging.StreamHandler()
    handler.setFormatter(KeyValueFormatter())
    LOGGER.handlers[:] = [handler]
    LOGGER.setLevel(level)
    LOGGER.propagate = False
