"""A token bucket: a steady rate with a bounded burst, clock injected for tests."""

from __future__ import annotations

from collections.abc import Callable


class TokenBucket:
    """Refills ``rate`` tokens per second up to ``rate * burst_seconds``; rate 0 means unlimited."""

    __slots__ = ("_capacity", "_clock", "_rate", "_stamp", "_tokens")

    def __init__(self, rate: float, burst_seconds: float, clock: Callable[[], float]) -> None:
        self._rate = rate
        self._capacity = max(rate * burst_seconds, 1.0)
        self._tokens = self._capacity
        self._clock = clock
        self._stamp = clock()

    def owe(self, amount: float) -> float:
        """Spend ``amount`` even beyond what is there; the seconds until the debt is paid off (0: none).
        A caller that waits that long before going on is held to the rate without being refused."""
        if self._rate <= 0:
            return 0.0
        now = self._clock()
        self._tokens = min(self._capacity, self._tokens + (now - self._stamp) * self._rate) - amount
        self._stamp = now
        return 0.0 if self._tokens >= 0 else -self._tokens / self._rate

    def until(self, level: float) -> float:
        """The seconds until the bucket holds ``level`` tokens (at most its capacity); 0: it does."""
        if self._rate <= 0:
            return 0.0
        have = self._tokens + (self._clock() - self._stamp) * self._rate
        return max(min(level, self._capacity) - have, 0.0) / self._rate

    @property
    def capacity(self) -> float:
        return self._capacity

    def take(self, amount: float = 1.0) -> bool:
        """Spend ``amount`` tokens if there are enough; False (and nothing spent) otherwise."""
        if self._rate <= 0:
            return True
        now = self._clock()
        self._tokens = min(self._capacity, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if amount > self._tokens:
            return False
        self._tokens -= amount
        return True

    def ready(self, amount: float = 1.0) -> bool:
        """Whether ``amount`` tokens could be taken now (nothing is taken)."""
        if self._rate <= 0:
            return True
        return min(self._capacity, self._tokens + (self._clock() - self._stamp) * self._rate) >= amount

    def full(self) -> bool:
        """Whether the bucket has refilled to its capacity (nothing owed, nothing spent lately)."""
        if self._rate <= 0:
            return True
        return self._tokens + (self._clock() - self._stamp) * self._rate >= self._capacity


class Pacer:
    """Spaces admissions at ``rate`` per second, ``burst`` of them at once, first come first served
    (the generic cell rate algorithm: each admission moves a theoretical arrival time on by one
    interval). Sans-I/O: ``reserve`` says how long the caller must wait; clock injected."""

    __slots__ = ("_clock", "_interval", "_tat", "_tolerance")

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self._interval = 1.0 / rate if rate > 0 else 0.0
        self._tolerance = max(burst - 1, 0) * self._interval
        self._clock = clock
        self._tat = clock()

    def reserve(self, max_wait: float) -> float | None:
        """A place in line: the seconds to wait before going on (0: at once), or None (nothing
        reserved) if that would be longer than ``max_wait``."""
        if not self._interval:
            return 0.0
        now = self._clock()
        tat = max(self._tat, now)
        wait = max(tat - self._tolerance - now, 0.0)
        if wait > max_wait:
            return None
        self._tat = tat + self._interval
        return wait
