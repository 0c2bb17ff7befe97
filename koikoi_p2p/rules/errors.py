"""The one error family of the rules engine, each with a machine-readable ``reason``."""

from __future__ import annotations


class RulesError(Exception):
    """Base of every rules error: bad card, bad profile, illegal move, inconsistent reveal."""

    reason: str

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


class IllegalMove(RulesError):
    """An action the rules forbid in this state (wrong seat, card not in hand, false claim...)."""


class InconsistentReveal(RulesError):
    """A revealed card that contradicts what the engine already knows."""
