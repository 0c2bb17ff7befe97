"""Round and match results as both players sign them (spec/game.md §6).

A round result is signed by both over the transcript head before the first signature, so it
names one exact history. The match result is a self-contained value: it carries the session,
both identity keys, the terms digest, every round's outcome, the final scores and the transcript
head, and both signatures over its canonical bytes. ``CoSignedResult`` is what a rankings server
receives; ``koikoi_p2p.audit.verify_result`` checks it without the transcript.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from koikoi_p2p.protocol.primitives import ed25519_verify
from koikoi_p2p.protocol.statement import (
    MATCH_RESULT_DOMAIN,
    ROUND_RESULT_DOMAIN,
    pack,
    statement,
    unpack,
)

COSIGNED_FORMAT = "koikoi-p2p/cosigned-result/v2"
RESULT_VERSION = 2      # the game version (spec/game.md §2.2): a verifier refuses any other


class SignatureInvalid(Exception):
    """An Ed25519 signature that does not verify (callers turn it into their own typed error)."""


def check_signature(public_key: bytes, signature: bytes, data: bytes) -> None:
    """Verify an Ed25519 signature by libsodium's rule (spec/protocol.md §4.1); raise
    ``SignatureInvalid``."""
    if len(public_key) != 32 or len(signature) != 64:
        raise SignatureInvalid("wrong key or signature length")
    if not ed25519_verify(public_key, signature, data):
        raise SignatureInvalid("signature does not verify")


def round_statement(*, session_id: bytes, deal: int, round_index: int, head: bytes,
                    result: Mapping[str, object]) -> bytes:
    """What both players sign at the end of a deal (spec/game.md §6.1)."""
    return statement(ROUND_RESULT_DOMAIN, {
        "session": session_id, "deal": deal, "round": round_index, "head": head,
        "result": dict(result),
    })


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchResult:
    """The outcome of a match as both players sign it (spec/game.md §6.2)."""

    version: int
    session_id: bytes
    room: str
    keys: tuple[bytes, bytes]
    names: tuple[str, str]
    rated: bool
    terms_digest: bytes
    profile: str
    profile_digest: bytes
    rounds: tuple[tuple[int, int | None, int], ...]   # (round_index, winner, points) per scored round
    scores: tuple[int, int]
    winner: int | None
    resigned: int | None                               # the seat that resigned, if one did
    head: bytes                                        # transcript head before the first signature

    def to_dict(self) -> dict[str, object]:
        return {
            "version": self.version, "session": self.session_id, "room": self.room,
            "keys": [self.keys[0], self.keys[1]], "names": [self.names[0], self.names[1]],
            "rated": self.rated, "terms": self.terms_digest,
            "profile": self.profile, "profile_digest": self.profile_digest,
            "rounds": [[i, w, p] for i, w, p in self.rounds],
            "scores": [self.scores[0], self.scores[1]], "winner": self.winner,
            "resigned": self.resigned, "head": self.head,
        }

    def statement(self) -> bytes:
        return statement(MATCH_RESULT_DOMAIN, self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> MatchResult:
        """Strict decoding; raises ``ValueError`` on any shape fault."""
        expected = {"version", "session", "room", "keys", "names", "rated", "terms", "profile",
                    "profile_digest", "rounds", "scores", "winner", "resigned", "head"}
        if set(data) != expected:
            raise ValueError("match result fields differ from the format")
        keys, scores, rounds = data["keys"], data["scores"], data["rounds"]
        if not (isinstance(keys, list) and len(keys) == 2 and all(_is_bytes(k, 32) for k in keys)):
            raise ValueError("keys must be two 32-byte keys")
        if not (isinstance(scores, list) and len(scores) == 2 and all(type(s) is int for s in scores)):
            raise ValueError("scores must be two integers")
        if not isinstance(rounds, list):
            raise ValueError("rounds must be a list")
        parsed_rounds: list[tuple[int, int | None, int]] = []
        for item in rounds:
            if not (isinstance(item, list) and len(item) == 3 and type(item[0]) is int
                    and (item[1] is None or item[1] in (0, 1)) and type(item[2]) is int):
                raise ValueError("a round entry is [round_index, winner, points]")
            parsed_rounds.append((item[0], item[1], item[2]))
        winner, resigned = data["winner"], data["resigned"]
        if winner is not None and (type(winner) is not int or winner not in (0, 1)):
            raise ValueError("winner must be 0, 1 or nil")
        if resigned is not None and (type(resigned) is not int or resigned not in (0, 1)
                                     or winner != 1 - resigned):
            raise ValueError("resigned must be nil, or the seat other than the winner")
        names, rated = data["names"], data["rated"]
        if not (isinstance(names, list) and len(names) == 2 and all(isinstance(n, str) for n in names)):
            raise ValueError("names must be two strings")
        if type(rated) is not bool:
            raise ValueError("rated must be true or false")
        version, room, profile = data["version"], data["room"], data["profile"]
        if type(version) is not int or not isinstance(room, str) or not isinstance(profile, str):
            raise ValueError("version, room or profile has the wrong type")
        if version != RESULT_VERSION:
            raise ValueError(f"unsupported game version {version}")
        session, terms, pdigest, head = data["session"], data["terms"], data["profile_digest"], data["head"]
        if not (_is_bytes(session, 32) and _is_bytes(terms, 32) and _is_bytes(pdigest, 32)
                and _is_bytes(head, 32)):
            raise ValueError("session, digests and head must be bytes")
        assert isinstance(session, bytes) and isinstance(terms, bytes) and isinstance(pdigest, bytes)
        assert isinstance(head, bytes)
        k0, k1 = keys
        assert isinstance(k0, bytes) and isinstance(k1, bytes)
        s0, s1 = scores
        assert isinstance(s0, int) and isinstance(s1, int)
        return cls(version=version, session_id=session, room=room, keys=(k0, k1),
                   names=(str(names[0]), str(names[1])), rated=rated, terms_digest=terms,
                   profile=profile, profile_digest=pdigest, rounds=tuple(parsed_rounds),
                   scores=(s0, s1), winner=winner if isinstance(winner, int) else None,
                   resigned=resigned if isinstance(resigned, int) else None, head=head)


def _is_bytes(value: object, size: int) -> bool:
    return isinstance(value, bytes) and len(value) == size


@dataclass(frozen=True, slots=True, kw_only=True)
class CoSignedResult:
    """A match result with both players' signatures: the file a rankings server checks."""

    result: MatchResult
    signatures: tuple[bytes, bytes]

    def encode(self) -> bytes:
        return pack({"format": COSIGNED_FORMAT, "result": self.result.to_dict(),
                     "signatures": [self.signatures[0], self.signatures[1]]})

    def verify(self) -> None:
        """Both seats' signatures over the canonical statement; raises ``SignatureInvalid``."""
        data = self.result.statement()
        for seat in (0, 1):
            check_signature(self.result.keys[seat], self.signatures[seat], data)

    @classmethod
    def decode(cls, data: bytes) -> CoSignedResult:
        """Strict, canonical decoding; raises ``ValueError`` on any fault."""
        try:
            value = unpack(data)
        except Exception as exc:  # msgpack raises many unrelated types on garbage
            raise ValueError(f"not msgpack: {exc}") from None
        if not isinstance(value, dict) or set(value) != {"format", "result", "signatures"}:
            raise ValueError("not a co-signed result")
        if value["format"] != COSIGNED_FORMAT:
            raise ValueError("unknown co-signed result format")
        sigs, raw = value["signatures"], value["result"]
        if not (isinstance(sigs, list) and len(sigs) == 2 and all(_is_bytes(s, 64) for s in sigs)):
            raise ValueError("signatures must be two 64-byte signatures")
        if not isinstance(raw, dict):
            raise ValueError("result must be a map")
        s0, s1 = sigs
        assert isinstance(s0, bytes) and isinstance(s1, bytes)
        out = cls(result=MatchResult.from_dict(raw), signatures=(s0, s1))
        if out.encode() != data:
            raise ValueError("co-signed result is not in canonical form")
        return out
