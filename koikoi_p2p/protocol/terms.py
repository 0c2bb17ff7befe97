"""Match terms: what both players sign before any card is shuffled (spec/game.md §2).

The host (seat 0) proposes, the joiner (seat 1) sees the whole proposal (``TermsProposed``) and
accepts by signing the terms digest, or refuses. The terms name the protocol version, the rule
profile (its digest and all its switches), the number of rounds, the deadlines, both identity
keys and display names, the room, and whether the match is rated (and by which service), so a
transcript cannot be replayed under other rules, between other players, or in another room.

A profile's ``name`` is either a preset's name, and then its switches are exactly that preset's
(played at the agreed length, spec/rules.md §3.6), or a custom name that no preset has
(``bad_terms`` otherwise): a host cannot show "nintendo" for rules that are not Nintendo's.
``profile_summary`` gives screens the base preset of a profile and every switch that differs.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.statement import TERMS_DOMAIN, pack, sha256, statement
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import PRESETS, Profile, differences, nearest_preset, with_rounds

GAME_VERSION = 2
DEADLINE_RANGE = (1, 86_400)
MAX_NAME = 32          # Unicode characters of a display name (spec/game.md §2.2)
MAX_RATINGS_URL = 200
CUSTOM_NAME = "custom"


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


def valid_name(name: object) -> bool:
    """A display name (spec/game.md §2.2): NFC text of 0..32 characters, no control or other
    category-C character, no space at either end. "" means no name was chosen."""
    if not isinstance(name, str) or len(name) > MAX_NAME:
        return False
    if unicodedata.normalize("NFC", name) != name or name != name.strip():
        return False
    return not any(unicodedata.category(ch).startswith("C") for ch in name)


def valid_ratings(rated: object, ratings: object) -> bool:
    """The rating service URL: "" exactly when the match is not rated, else http(s)://..., at most
    200 characters, printable ASCII without spaces."""
    if type(rated) is not bool or not isinstance(ratings, str):
        return False
    if not rated:
        return ratings == ""
    if len(ratings) > MAX_RATINGS_URL or not all(0x21 <= ord(ch) <= 0x7E for ch in ratings):
        return False
    for scheme in ("https://", "http://"):
        if ratings.startswith(scheme) and len(ratings) > len(scheme):
            return True
    return False


# -- profile names ----------------------------------------------------------------------------

def _at_length(base: Profile, rounds: int) -> Profile:
    """The preset played over ``rounds`` (spec/rules.md §3.6), or as itself when it cannot be."""
    try:
        return with_rounds(base, rounds)
    except RulesError:
        return base


def is_preset_profile(profile: Profile) -> bool:
    """The profile carries a preset's name and is exactly that preset at its match length."""
    base = PRESETS.get(profile.name)
    return base is not None and _at_length(base, profile.rounds) == profile


def check_profile_name(profile: Profile) -> None:
    """``bad_terms`` unless the name is a preset played as itself, or a name no preset has."""
    if profile.name in PRESETS and not is_preset_profile(profile):
        raise RemoteViolation(
            "bad_terms", f"the profile is named {profile.name!r} but its switches differ from that preset")


def custom_name(profile: Profile, name: str = CUSTOM_NAME) -> Profile:
    """The profile under a name that is honest about it: unchanged when it is a preset played as
    itself or already carries a custom name, else renamed ``name`` (a name no preset has)."""
    if profile.name not in PRESETS or is_preset_profile(profile):
        return profile
    if name in PRESETS:
        raise ValueError("a custom profile cannot take a preset's name")
    return profile.with_switches(name=name)


@dataclass(frozen=True, slots=True)
class ProfileSummary:
    """What a screen shows of a profile: ``custom`` or a preset, the preset it is described against
    (``nearest_preset``, spec/rules.md §3.8) and every switch whose value differs from that preset
    at the profile's length, in the text form of spec/rules.md §3.7."""

    name: str
    custom: bool
    base: str
    differences: tuple[tuple[str, str], ...]

    def describe(self) -> str:
        """"nintendo" or "custom (house), based on nintendo: max_calls_per_round=0, ..."."""
        if not self.custom:
            return self.name
        diffs = ", ".join(f"{key}={value}" for key, value in self.differences)
        label = "custom" if self.name == CUSTOM_NAME else f"custom ({self.name})"
        return f"{label}, based on {self.base}" + (f": {diffs}" if diffs else "")


def profile_summary(profile: Profile) -> ProfileSummary:
    """The summary of spec/game.md §2.4: a preset played as itself (at any length) has no
    differences; any other profile is custom, described against ``nearest_preset`` (spec/rules.md
    §3.8: a preset it is named after, else the one it differs least from), compared at the same
    length, so the base is a fact about the switches."""
    if is_preset_profile(profile):
        return ProfileSummary(name=profile.name, custom=False, base=profile.name, differences=())
    base = nearest_preset(profile)
    diffs = differences(profile, _at_length(PRESETS[base], profile.rounds))
    return ProfileSummary(name=profile.name, custom=True, base=base, differences=tuple(diffs.items()))


# -- the terms --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class MatchTerms:
    """The agreed terms of one match; ``digest()`` is what the joiner signs in ``accept``."""

    version: int
    profile: Profile
    rounds: int
    keys: tuple[bytes, bytes]
    room: str
    deadlines: Deadlines = field(default_factory=Deadlines)
    names: tuple[str, str] = ("", "")
    rated: bool = False
    ratings: str = ""

    def to_body(self) -> dict[str, object]:
        """The body of the ``terms`` message."""
        return {
            "version": self.version,
            "profile": self.profile.to_dict(),
            "profile_digest": profile_digest(self.profile),
            "rounds": self.rounds,
            "deadlines": self.deadlines.to_dict(),
            "keys": [self.keys[0], self.keys[1]],
            "names": [self.names[0], self.names[1]],
            "room": self.room,
            "rated": self.rated,
            "ratings": self.ratings,
        }

    def digest(self) -> bytes:
        """SHA-256 over the canonical terms body (spec/game.md §2.3)."""
        return sha256(statement(TERMS_DOMAIN, self.to_body()))

    def summary(self) -> ProfileSummary:
        return profile_summary(self.profile)

    @classmethod
    def from_body(cls, body: Mapping[str, object]) -> MatchTerms:
        """Decode and validate a ``terms`` body; any fault is ``RemoteViolation("bad_terms")``."""
        version = body["version"]
        if version != GAME_VERSION:
            raise RemoteViolation("unsupported_version", f"unsupported game version {version!r}")
        raw_profile = body["profile"]
        if not isinstance(raw_profile, dict):
            raise RemoteViolation("bad_terms", "profile must be a map")
        try:
            profile = Profile.from_dict(raw_profile)
        except (RulesError, TypeError, ValueError, KeyError) as exc:
            raise RemoteViolation("bad_terms", f"profile rejected: {exc}") from None
        if body["profile_digest"] != profile_digest(profile):
            raise RemoteViolation("bad_terms", "profile digest does not match the switches")
        check_profile_name(profile)
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
        names = body["names"]
        if not isinstance(names, list) or len(names) != 2 or not all(valid_name(n) for n in names):
            raise RemoteViolation("bad_terms", "names must be two display names (spec/game.md §2.2)")
        room = body["room"]
        if not isinstance(room, str):
            raise RemoteViolation("bad_terms", "room must be text")
        rated, ratings = body["rated"], body["ratings"]
        if not valid_ratings(rated, ratings):
            raise RemoteViolation("bad_terms", "ratings must be an http(s) URL exactly when rated")
        assert isinstance(rated, bool) and isinstance(ratings, str)
        terms = cls(version=version, profile=profile, rounds=rounds, keys=(keys[0], keys[1]),
                    room=room, deadlines=Deadlines.from_dict(deadlines_raw),
                    names=(str(names[0]), str(names[1])), rated=rated, ratings=ratings)
        if pack(terms.to_body()) != pack(dict(body)):
            raise RemoteViolation("bad_terms", "terms are not in canonical form")
        return terms

    @classmethod
    def propose(cls, *, profile: Profile, keys: tuple[bytes, bytes], room: str,
                rounds: int | None = None, deadlines: Deadlines | None = None,
                names: tuple[str, str] = ("", ""), rated: bool = False, ratings: str = "") -> MatchTerms:
        """The host's proposal. ``rounds`` overrides the profile's match length (with the pool a
        preset pairs with that length, spec/rules.md §3.6); a profile that carries a preset's name
        but not its switches is renamed ``custom`` (see ``custom_name``)."""
        if rounds is not None and rounds != profile.rounds:
            profile = with_rounds(profile, rounds)
        profile = custom_name(profile)
        if not all(valid_name(n) for n in names):
            raise ValueError("a display name is NFC text of at most 32 characters without control "
                             "characters or spaces at its ends")
        if not valid_ratings(rated, ratings):
            raise ValueError("ratings is an http(s) URL of at most 200 characters exactly when rated")
        return cls(version=GAME_VERSION, profile=profile, rounds=profile.rounds, keys=keys,
                   room=room, deadlines=deadlines or Deadlines(), names=names, rated=rated,
                   ratings=ratings)
