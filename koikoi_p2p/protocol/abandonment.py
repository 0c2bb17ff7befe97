"""Abandonment claims: a signed record that the opponent missed a deadline (spec/protocol.md §12).

No protocol can stop a player from walking away (DESIGN.md G7), but the one left waiting can say,
verifiably, where the match stopped. When the opponent misses a deadline of the match terms, the
waiting peer signs a claim over the transcript head::

    statement = "koikoi-p2p/faults/v2/abandon" || 0x00 || canonical msgpack of
        {"session_id", "seq", "head", "claimant", "absent", "expected", "deadline"}

``seq`` is message N, the first envelope that never came (the number of envelopes accepted),
``head`` the digest of envelope N-1 (the handshake hash when N = 0), ``expected`` the message
type the absent seat owed and ``deadline`` the seconds the claimant waited, from the terms.

An abandonment file is ``ABANDON_MAGIC`` followed by one canonical map
``{"claim": {...}, "sig": bytes(64), "transcript": <the transcript file bytes, unclosed>,
"deal": int, "round_key": bytes}``: the claimant's own round secret of the interrupted deal (or
-1 and empty), so an auditor can replay that deal as the claimant saw it (the match is over, the
secret protects nothing any more; a wrong one fails against the claimant's public deck key).
Decoding checks the transcript (signatures and chain), that the claim names its session, its
length and its head, and the claimant's signature. Whether the absent seat really was the one to
speak at message N is a question for the game replay (``koikoi_p2p.audit.abandonment``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.errors import ProtocolError
from koikoi_p2p.protocol.identity import Identity, verify_signature
from koikoi_p2p.protocol.statement import statement
from koikoi_p2p.protocol.transcript import Transcript, TranscriptError, decode_transcript

ABANDON_MAGIC = b"\x89KKABND\n"
ABANDON_DOMAIN = b"koikoi-p2p/faults/v2/abandon"
MAX_FILE = 64 << 20
_FILE_FIELDS = ("claim", "sig", "transcript", "deal", "round_key")
_FIELDS = ("session_id", "seq", "head", "claimant", "absent", "expected", "deadline")


class AbandonmentError(ProtocolError):
    """An abandonment file or claim that does not hold (reason: bad_file, bad_claim, bad_signature...)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AbandonmentClaim:
    """What the waiting peer signs when the opponent misses a deadline."""

    session_id: bytes
    seq: int
    head: bytes
    claimant: int
    absent: int
    expected: str
    deadline: int

    def __post_init__(self) -> None:
        if (not isinstance(self.session_id, bytes) or len(self.session_id) != 32
                or not isinstance(self.head, bytes) or len(self.head) != 32
                or type(self.seq) is not int or self.seq < 0
                or self.claimant not in (0, 1) or isinstance(self.claimant, bool)
                or self.absent != 1 - self.claimant
                or not isinstance(self.expected, str) or not 0 < len(self.expected) <= 32
                or type(self.deadline) is not int or not 0 < self.deadline <= 86_400):
            raise AbandonmentError("bad_claim", "a claim field is missing or out of range")

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in _FIELDS}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> AbandonmentClaim:
        if not isinstance(data, Mapping) or set(data) != set(_FIELDS):
            raise AbandonmentError("bad_claim", f"a claim has exactly the fields {list(_FIELDS)}")
        try:
            return cls(**{name: data[name] for name in _FIELDS})  # type: ignore[arg-type]
        except TypeError as exc:
            raise AbandonmentError("bad_claim", str(exc)) from None

    def statement(self) -> bytes:
        return statement(ABANDON_DOMAIN, self.to_dict())

    def describe(self) -> str:
        return f"abandoned by player {self.absent} at message {self.seq}"


@dataclass(frozen=True, slots=True)
class Abandonment:
    """A decoded abandonment file whose transcript, claim and signature all check."""

    claim: AbandonmentClaim
    signature: bytes
    transcript: Transcript
    deal: int = -1
    round_key: bytes = b""


def sign_claim(identity: Identity, claim: AbandonmentClaim) -> bytes:
    return identity.sign(claim.statement())


def encode_abandonment(transcript: bytes, claim: AbandonmentClaim, signature: bytes, *, deal: int = -1,
                       round_key: bytes = b"") -> bytes:
    """The abandonment file: the (unclosed) transcript bytes with the signed claim."""
    body = {"claim": claim.to_dict(), "sig": signature, "transcript": transcript, "deal": deal,
            "round_key": round_key}
    return ABANDON_MAGIC + codec.encode(body)


def decode_abandonment(data: bytes) -> Abandonment:
    """Parse and check an abandonment file; AbandonmentError or TranscriptError otherwise."""
    if not isinstance(data, bytes) or not data.startswith(ABANDON_MAGIC):
        raise AbandonmentError("bad_magic", "not an abandonment file")
    if len(data) > MAX_FILE:
        raise AbandonmentError("bad_file", "file too large")
    value = codec.decode(data[len(ABANDON_MAGIC):], reason="bad_file")
    if not isinstance(value, dict) or set(value) != set(_FILE_FIELDS):
        raise AbandonmentError("bad_file", f"an abandonment file holds exactly {list(_FILE_FIELDS)}")
    raw_claim, signature, blob = value["claim"], value["sig"], value["transcript"]
    deal, round_key = value["deal"], value["round_key"]
    if not isinstance(raw_claim, dict) or not isinstance(signature, bytes) or not isinstance(blob, bytes):
        raise AbandonmentError("bad_file", "claim is a map, sig and transcript are bytes")
    if (type(deal) is not int or deal < -1 or not isinstance(round_key, bytes)
            or len(round_key) not in (0, 32)):
        raise AbandonmentError("bad_file", "deal is an int >= -1 and round_key 0 or 32 bytes")
    claim = AbandonmentClaim.from_dict(raw_claim)
    transcript = decode_transcript(blob)
    if transcript.closed:
        raise AbandonmentError("bad_claim", "the transcript is complete: nobody abandoned it")
    if claim.session_id != transcript.session.session_id:
        raise AbandonmentError("bad_claim", "the claim names another session")
    if claim.seq != len(transcript.envelopes) or claim.head != transcript.head:
        raise AbandonmentError("bad_claim", "the claim does not name the transcript's head")
    verify_signature(transcript.session.keys[claim.claimant], signature, claim.statement())
    return Abandonment(claim=claim, signature=signature, transcript=transcript, deal=deal,
                       round_key=round_key)


__all__ = [
    "ABANDON_DOMAIN",
    "ABANDON_MAGIC",
    "Abandonment",
    "AbandonmentClaim",
    "AbandonmentError",
    "TranscriptError",
    "decode_abandonment",
    "encode_abandonment",
    "sign_claim",
]
