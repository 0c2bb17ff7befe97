"""One error base for the package; every failure carries a machine-readable ``reason``."""

from __future__ import annotations


class MentalPokerError(Exception):
    """Base of every error raised by ``mentalpoker``; ``reason`` is stable and machine-readable."""

    reason: str

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


class InvalidEncoding(MentalPokerError):
    """Bytes that are not a valid point, scalar or message of the expected layout."""


class ProofError(MentalPokerError):
    """A proof that does not verify against its statement and context."""


class DeckError(MentalPokerError):
    """Misuse of the deck protocol, or a value that is no card, or a wrong disclosed key."""


class GroupError(MentalPokerError):
    """A group operation with a degenerate result (zero scalar, identity point) refused by libsodium."""
