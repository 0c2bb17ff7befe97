"""What every proof is bound to besides its statement (spec/crypto.md §3.2)."""

from __future__ import annotations

from dataclasses import dataclass

from mentalpoker.errors import MentalPokerError

MIN_SESSION_ID = 16
MAX_SESSION_ID = 64
MAX_U64 = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class ProofContext:
    """Protocol version, session, round, step and prover: moving a proof to another context breaks it."""

    version: int
    session_id: bytes
    round: int
    step: str
    prover: int

    def __post_init__(self) -> None:
        if not isinstance(self.version, int) or not 0 <= self.version <= MAX_U64:
            raise MentalPokerError("bad_context", "version must be an unsigned 64-bit integer")
        if not isinstance(self.session_id, bytes) or not (
            MIN_SESSION_ID <= len(self.session_id) <= MAX_SESSION_ID
        ):
            raise MentalPokerError("bad_context", "session_id must be 16..64 bytes")
        if not isinstance(self.round, int) or not 0 <= self.round <= MAX_U64:
            raise MentalPokerError("bad_context", "round must be an unsigned 64-bit integer")
        if not isinstance(self.step, str) or not self.step or len(self.step.encode("utf-8")) > 255:
            raise MentalPokerError("bad_context", "step must be a non-empty string of at most 255 bytes")
        if self.prover not in (0, 1):
            raise MentalPokerError("bad_context", "prover must be 0 or 1")

    def with_step(self, step: str) -> ProofContext:
        """The same context for another step of the protocol."""
        return ProofContext(self.version, self.session_id, self.round, step, self.prover)

    def with_prover(self, prover: int) -> ProofContext:
        """The same context with the other party proving."""
        return ProofContext(self.version, self.session_id, self.round, self.step, prover)
