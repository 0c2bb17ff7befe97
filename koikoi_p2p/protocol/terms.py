"""Match terms: what both players sign before any card is shuffled (spec/game.md §2).

The host (seat 0) proposes, the joiner (seat 1) accepts by signing the terms digest. The terms
name the protocol version, the rule profile (its digest and all its switches), the number of
rounds, the deadlines, both identity keys and the room, so a transcript cannot be replayed under
other rules, between other players, or in another room.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.statement import TERMS_DOMAIN, pack, sha256, statement
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import Profile

GAME_VERSION = 1
DEADLINE_RANGE = (1, 86_400)


@dataclass(frozen=True, slots=True, kw_only=True)
class Deadlines:
    """Seconds a peer waits: ``step`` for an automatic message, ``turn`` for a person's decision."""

    step: int = 60
    turn: int = 300

    def to_dict(self) -> dict[str, object]:
        return {"step": self.step, "turn": self.turn}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Deadlines:
        if set(data) != {"step", "turn"}:
            raise RemoteViolation("bad_terms", "deadlines are exactly {step, turn}")
        values = {}
        for name in ("step", "turn"):
            value = data[name]
            if type(value) is not int or not DEADLINE_RANGE[0] <= value <= DEADLINE_RANGE[1]:
                raise RemoteViolation("bad_terms", f"deadline {name} must be 1..86400 seconds")
            values[name] = value
        return cls(step=values["step"], turn=values["turn"])


def profile_digest(profile: Profile) -> bytes:
    """SHA-256 of the profile's canonical encoding (spec/game.md §2.2)."""
    return sha256(profile.encode())


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchTerms:
    """The agreed terms of one match; ``digest()`` is what the joiner signs in ``accept``."""

    version: int
    profile: Profile
    rounds: int
    keys: tuple[bytes, bytes]
    room: str
    deadlines: Deadlines = field(default_factory=Deadlines)

    def to_body(self) -> dict[str, object]:
        """The body of the ``terms`` message."""
        return {
            "version": self.version,
            "profile": self.profile.to_dict(),
            "profile_digest": profile_digest(self.profile),
            "rounds": self.rounds,
            "deadlines": self.deadlines.to_dict(),
            "keys": [self.keys[0], self.keys[1]],
            "room": self.room,
        }

    def digest(self) -> bytes:
        """SHA-256 over the canonical terms body (spec/game.md §2.3)."""
        return sha256(statement(TERMS_DOMAIN, self.to_body()))

    @classmethod
    def from_body(cls, body: Mapping[str, object]) -> MatchTerms:
        """Decode and validate a ``terms`` body; any fault is ``RemoteViolation("bad_terms")``."""
        version = body["version"]
        if version != GAME_VERSION:
            raise RemoteViolation("bad_terms", f"unsupported game version {version!r}")
        raw_profile = body["profile"]
        if not isinstance(raw_profile, dict):
            raise RemoteViolation("bad_terms", "profile must be a map")
        try:
            profile = Profile.from_dict(raw_profile)
        except (RulesError, TypeError, ValueError, KeyError) as exc:
            raise RemoteViolation("bad_terms", f"profile rejected: {exc}") from None
        if body["profile_digest"] != profile_digest(profile):
            raise RemoteViolation("bad_terms", "profile digest does not match the switches")
        rounds = body["rounds"]
        if type(rounds) is not int or rounds != profile.rounds:
            raise RemoteViolation("bad_terms", "rounds must equal the profile's match length")
        deadlines_raw = body["deadlines"]
        if not isinstance(deadlines_raw, dict):
            raise RemoteViolation("bad_terms", "deadlines must be a map")
        keys = body["keys"]
        if (not isinstance(keys, list) or len(keys) != 2
                or not all(isinstance(k, bytes) and len(k) == 32 for k in keys) or keys[0] == keys[1]):
            raise RemoteViolation("bad_terms", "keys must be two distinct 32-byte identity keys")
        room = body["room"]
        if not isinstance(room, str):
            raise RemoteViolation("bad_terms", "room must be text")
        terms = cls(version=version, profile=profile, rounds=rounds, keys=(keys[0], keys[1]),
                    room=room, deadlines=Deadlines.from_dict(deadlines_raw))
        if pack(terms.to_body()) != pack(dict(body)):
            raise RemoteViolation("bad_terms", "terms are not in canonical form")
        return terms

    @classmethod
    def propose(cls, *, profile: Profile, keys: tuple[bytes, bytes], room: str,
                rounds: int | None = None, deadlines: Deadlines | None = None) -> MatchTerms:
        """The host's proposal; ``rounds`` overrides the profile's match length."""
        if rounds is not None and rounds != profile.rounds:
            profile = profile.with_switches(rounds=rounds)
        return cls(version=GAME_VERSION, profile=profile, rounds=profile.rounds, keys=keys,
                   room=room, deadlines=deadlines or Deadlines())
