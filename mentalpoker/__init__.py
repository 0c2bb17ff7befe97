"""Two-party mental poker over edwards25519: a verifiable, jointly shuffled deck.

Nothing here knows about cards or games; it shuffles and reveals n opaque points.
"""
