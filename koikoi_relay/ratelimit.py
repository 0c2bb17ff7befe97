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
