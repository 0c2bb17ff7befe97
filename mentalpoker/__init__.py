"""Two-party mental poker over edwards25519: a verifiable, jointly shuffled deck.

Nothing here knows about cards or games; it shuffles and reveals n opaque points. The normative
description is spec/crypto.md; the entry points are ``DeckParty`` (one player) and
``DeckObserver`` (an auditor), with the building blocks in their own modules.
"""

from mentalpoker.context import ProofContext
from mentalpoker.deck import DeckObserver, DeckParty
from mentalpoker.errors import DeckError, GroupError, InvalidEncoding, MentalPokerError, ProofError

__all__ = [
    "DeckError",
    "DeckObserver",
    "DeckParty",
    "GroupError",
    "InvalidEncoding",
    "MentalPokerError",
    "ProofContext",
    "ProofError",
]
