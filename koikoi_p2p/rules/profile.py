"""Rule profiles: every house rule of the six sources as a named switch (spec/rules.md §3).

A profile is a frozen value. Rooms start from a preset and change switches with
``with_switches``; every construction is validated, and ``encode`` gives the canonical bytes the
two peers hash and sign, so both provably play by the same rules.

Setting switches from text (a host's ``--switch NAME=VALUE``, a room form)::

    profile = preset("wikipedia").with_switches({"hand_yaku": "teshi:6,kuttsuki:6", "rounds": "6"})

Each value is read by ``parse_switch``: ``true``/``false`` (also yes/no, on/off) for a yes/no
switch, a decimal integer, one of the listed words, ``10,8,7,5`` for ``bright_values``,
``teshi:6,kuttsuki:6`` or ``none`` for ``hand_yaku``, a card id or ``none`` for ``joker_card``, and
card ids or month numbers separated by commas (``11-rainman``, ``11`` = the four willow cards) or
``none`` for a card list. JSON forms (``[10,8,7,5]``, ``{"teshi":6}``) are accepted too. A bad
value raises ``RulesError("bad_switch")`` whose message names the switch and its allowed values;
an unknown name raises ``RulesError("unknown_switch")``. ``switch_text`` writes a value back in
that form, ``differences`` lists a profile's switches that differ from a preset (for screens that
show "custom, based on X: switch=value, ..."), and ``nearest_preset`` names the preset to diff
against. ``koikoi_p2p.cli.cmd_score.parse_switches(preset_name, ["NAME=VALUE", ...])`` is the
command-line form (``koikoi rules`` and ``koikoi score`` use it).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from koikoi_p2p.rules.cards import CARDS
from koikoi_p2p.rules.errors import RulesError

__all__ = [
    "EXTENSION_DEFAULTS", "FIRST_DEALER_NEEDS_DECK", "HAND_YAKU_IDS", "PAIR_SWITCH", "POOL_BY_LENGTH",
    "PRESETS",
    "SWITCHES", "SWITCH_CHOICES", "Profile", "differences", "nearest_preset", "paired_pool", "parse_switch",
    "preset",
    "switch_text", "with_rounds",
]

# Hand yaku a profile may enable, in the order the engine lists them (spec/rules.md §6.6); the
# encoding sorts keys, so this order never reaches the signed bytes (§3.3).
HAND_YAKU_IDS: tuple[str, ...] = ("teshi", "kuttsuki", "tenho", "double_tenho")

# The allowed values of every enumerated switch.
SWITCH_CHOICES: dict[str, tuple[str, ...]] = {
    "ribbon_pair": ("chofuku_10", "separate_5_5"),
    "viewing": ("always", "bonus_only", "off"),
    "monthly_yaku_scope": ("current_month", "any_month"),
    "koikoi_multiplier": ("opponent_flat_x2", "shared_one_plus_calls", "winner_pow2", "none"),
    "after_call": ("next_improvement_ends_round", "shobu_only"),
    "exhaustion": ("draw", "oya_ken", "last_caller_scores_else_oya_ken"),
    "dealer_after_draw": ("same", "other"),
    "hand_yaku_both": ("void_redeal", "dealer"),
    "field_whole_month": ("redeal", "play_on"),
    "hand_capture": ("free", "compulsory"),
    "first_dealer_tie": ("redraw", "higher_card"),
    "match_tie": ("draw", "extra_round"),
    "call_limit": ("per_round", "per_seat"),
    "caller_pays_more": ("off", "times_calls", "doubled_per_call"),
    "field_four_pairs": ("play_on", "redeal"),
    "first_dealer": ("card_draw", "coin", "host", "joiner"),
    "koikoi_bonus": ("off", "winner_add"),
    "hand_whole_month": ("play_on", "redeal"),
    "single_yaku_scope": ("pile", "extensions"),
}

# First-dealer methods that reveal cards of a jointly shuffled deck (deal 0, spec/rules.md §5.1).
FIRST_DEALER_NEEDS_DECK: frozenset[str] = frozenset({"card_draw", "coin"})

_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")
_CARD_IDS = {c.id: c.index for c in CARDS}


@dataclass(frozen=True, slots=True)
class Profile:
    """All switches of one rule system; see spec/rules.md §3 for what each one means."""

    name: str
    rounds: int                          # match length in rounds; 0 = until target_score
    bright_values: tuple[int, int, int, int]   # goko, shiko, ame_shiko, sanko
    named_extension: bool                # +1 per extra card on inoshikacho, akatan, aotan, akatan_aotan
    tane_with_inoshikacho: bool          # tane still scores beside inoshikacho
    tan_with_ribbon_yaku: bool           # tan still scores beside akatan / aotan / akatan_aotan
    ribbon_pair: str                     # both ribbon triples: akatan_aotan 10 or akatan 5 + aotan 5
    cup_is_plain: bool                   # the sake cup counts as a plain as well as an animal
    joker_card: str                      # "" or an animal card that counts as animal or plain
    viewing: str                         # hanami / tsukimi: always, only beside a basic yaku, off
    monthly_yaku_points: int             # tsukifuda points; 0 = no monthly yaku
    monthly_yaku_scope: str              # the round's month only, or any complete month
    double_threshold: int                # base >= this doubles; 0 = never
    koikoi_multiplier: str               # how koi-koi calls multiply the winner's score
    max_calls_per_round: int             # koi-koi calls allowed in a round (see call_limit); 0 = unlimited
    after_call: str                      # after a call: next improvement ends the round, or shobu only
    last_turn_stop_only: bool            # a decision on the very last turn offers only Stop
    exhaustion: str                      # both hands empty without a stop
    oya_ken_points: int                  # dealer's points where exhaustion gives oya-ken
    dealer_after_draw: str               # next dealer after a round nobody won
    hand_yaku: tuple[tuple[str, int], ...]  # enabled hand yaku and their points
    hand_yaku_both: str                  # both seats hold a hand yaku: void and redeal, or dealer's counts
    field_whole_month: str               # the dealt field holds all four cards of a month
    redeal_consumes_round: bool          # a redeal counts as a round of the match
    hand_capture: str                    # free choice, or a matching hand card must be played if any
    first_dealer_tie: str                # two drawn cards of one month: redraw, or the higher class deals
    pool_start: int                      # 0 = scores add up from 0; else each seat starts with this pool
    transfer_cap: bool                   # a pool transfer is capped at what the loser has left
    bust_ends_game: bool                 # a seat whose pool reaches 0 loses at once
    target_score: int                    # the match ends when a seat reaches this; 0 = no target
    match_tie: str                       # equal scores at the end: a drawn match, or extra rounds
    # Extension switches (spec/rules.md §3.2, second table): at their default they are left out
    # of to_dict() and encode(), so every preset keeps the encoding and digest it always had.
    hanami_cancelled_by: tuple[str, ...] = ()   # cards whose presence in the pile cancels hanami
    tsukimi_cancelled_by: tuple[str, ...] = ()  # cards whose presence in the pile cancels tsukimi
    cup_either: bool = False             # the cup counts as an animal or a plain, the better; never both
    brights_add: bool = False            # bright yaku add to each other instead of only the highest
    sanko_with_rain: bool = False        # three brights including the rain man also make sanko
    single_yaku: bool = False            # only the single highest-scoring yaku of a pile counts
    call_limit: str = "per_round"        # max_calls_per_round counts both seats together, or each seat
    caller_pays_more: str = "off"        # a losing caller's payment grows with its own calls
    subtract_from_opponent: bool = False  # without a pool, the loser's score drops by the winner's points
    field_four_pairs: str = "play_on"    # the dealt field is four pairs of four months: play on, or redeal
    first_dealer: str = "card_draw"      # how the first dealer is chosen (§5.1)
    viewing_by_call: bool = False        # hanami / tsukimi 1 each, 3 once their holder has called
    koikoi_bonus: str = "off"            # winner_add: +1..+3 for 1..3 own calls, x(n-2) for n >= 4
    akatan_aotan_on_top: bool = False    # separate_5_5: both triples also score akatan_aotan 10
    stop_on_own_last_turn: bool = False  # a decision with the deciding seat's hand empty offers only Stop
    hand_whole_month: str = "play_on"    # a dealt hand holding all four cards of a month: play on, or redeal
    single_yaku_scope: str = "pile"      # with single_yaku: one yaku per pile, or per yaku and its extensions

    def __post_init__(self) -> None:
        _validate(self)

    # -- switches -------------------------------------------------------------------------------
    def with_switches(self, text: Mapping[str, object] | None = None, /, **changes: object) -> Profile:
        """A copy with some switches changed, validated (RulesError on an unknown or bad value).

        Keyword values are typed (``rounds=6``, ``bright_values=(10, 8, 7, 5)``). The optional
        mapping is what a host or a form sends: a ``str`` value there is read by ``parse_switch``
        (``{"cup_is_plain": "false", "hand_yaku": "teshi:6"}``), any other value is taken as typed.
        """
        merged: dict[str, object] = {}
        for key, value in (text or {}).items():
            if key == PAIR_SWITCH:
                # spec/rules.md §3.7: one card list for both viewing yaku (ame-nagare, kiri-nagare).
                both = parse_switch("hanami_cancelled_by", value) if isinstance(value, str) else value
                merged["hanami_cancelled_by"] = merged["tsukimi_cancelled_by"] = both
                continue
            merged[key] = parse_switch(key, value) if isinstance(value, str) else value
        rounds = merged.get("rounds")
        if isinstance((text or {}).get("rounds"), str) and type(rounds) is int and "pool_start" not in merged:
            # spec/rules.md §3.6: rounds set as text pairs the pool as with_rounds does.
            pool = paired_pool(self, rounds)
            if pool is not None:
                merged["pool_start"] = pool
        merged.update(changes)
        unknown = sorted(set(merged) - set(_FIELDS))
        if unknown:
            raise RulesError("unknown_switch",
                             ", ".join(map(str, unknown)) + "; switches: " + ", ".join(_FIELDS))
        normalised = {key: _normalise(key, value) for key, value in merged.items()}
        return dataclasses.replace(self, **normalised)

    def switch_text(self, key: str) -> str:
        """The text form of one switch's value; ``parse_switch`` reads it back to the same value."""
        if key not in _FIELDS:
            raise RulesError("unknown_switch", f"{key!r}; switches: {', '.join(_FIELDS)}")
        return switch_text(key, getattr(self, key))

    def every_switch(self) -> dict[str, object]:
        """Every switch as plain data, extension switches at their default included (for display)."""
        out: dict[str, object] = {}
        for key in _FIELDS:
            out[key] = _plain(key, getattr(self, key))
        return out

    # -- canonical form -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        """Plain data (str, int, bool, list, dict), the form that is encoded and signed.

        Every core switch is present; an extension switch only when it differs from its default
        (spec/rules.md §3.3).
        """
        out: dict[str, object] = {}
        for key in _FIELDS:
            value = getattr(self, key)
            if key in EXTENSION_DEFAULTS and value == EXTENSION_DEFAULTS[key]:
                continue
            out[key] = _plain(key, value)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Profile:
        """Rebuild a profile from ``to_dict`` data; every core key is required and checked.

        An extension switch may be absent (its default); present at its default it is refused as
        not canonical, so each profile has exactly one plain form.
        """
        if not isinstance(data, Mapping):
            raise RulesError("bad_profile", "a profile is a mapping")
        keys = set(data)
        missing = sorted(set(_CORE_FIELDS) - keys)
        extra = sorted(str(k) for k in keys if k not in _FIELDS)
        if missing:
            raise RulesError("bad_profile", "missing switches: " + ", ".join(missing))
        if extra:
            raise RulesError("unknown_switch", ", ".join(str(k) for k in extra))
        if not isinstance(data["hand_yaku"], Mapping):
            # spec/rules.md §3.3: in the plain form hand_yaku is an object (a list of pairs is not).
            raise RulesError("bad_switch", "hand_yaku is a mapping of yaku id to points")
        for key in ("bright_values", *_CARD_LIST_FIELDS):
            if key in data and not isinstance(data[key], list):
                raise RulesError("bad_switch", f"{key} is a list")
        kwargs = {key: _normalise(key, data[key]) for key in _FIELDS if key in data}
        for key in EXTENSION_DEFAULTS:
            # type() too: in Python 0 == False, but the JSON value 0 is not the default false.
            default = EXTENSION_DEFAULTS[key]
            if key in kwargs and type(kwargs[key]) is type(default) and kwargs[key] == default:
                raise RulesError("bad_profile", f"{key} at its default must be left out (not canonical)")
        return cls(**kwargs)

    def encode(self) -> bytes:
        """Canonical UTF-8 JSON: sorted keys, no spaces. Equal profiles give equal bytes."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

    @classmethod
    def decode(cls, data: bytes) -> Profile:
        """Inverse of ``encode``; the bytes must be exactly canonical."""
        try:
            parsed = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise RulesError("bad_profile", "not JSON") from exc
        if not isinstance(parsed, dict):
            raise RulesError("bad_profile", "a profile is a JSON object")
        profile = cls.from_dict(parsed)
        if profile.encode() != data:
            raise RulesError("bad_profile", "not in canonical form")
        return profile

    # -- derived facts used by the round -------------------------------------------------------
    def hand_yaku_points(self, yaku: str) -> int:
        """Points of an enabled hand yaku; 0 if the profile does not have it."""
        for key, points in self.hand_yaku:
            if key == yaku:
                return points
        return 0

    def hand_claim_points(self, yaku: str) -> int:
        """The rank of a claim on the dealt hand (spec/rules.md §9.7): a hand yaku's points, or,
        with ``hand_whole_month = redeal``, 101 for ``teshi`` (the claim that redeals, above every
        hand yaku); 0 if the claim is not offered."""
        if yaku == "teshi" and self.hand_whole_month == "redeal":
            return REDEAL_CLAIM
        return self.hand_yaku_points(yaku)

    def has_hand_claims(self) -> bool:
        """Do the seats declare on their dealt hands (hand yaku, or a whole month that redeals)?"""
        return bool(self.hand_yaku) or self.hand_whole_month == "redeal"


# A text-only name (spec/rules.md §3.7) that sets hanami_cancelled_by and tsukimi_cancelled_by to
# one list: ame-nagare and kiri-nagare each cancel both viewing yaku (Koi-Koi Online FAQ Q16).
PAIR_SWITCH = "viewing_cancelled_by"

# The rank of the teshi claim that redeals a hand holding a whole month (above any hand yaku: 1..100).
REDEAL_CLAIM = 101

_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Profile))
SWITCHES: tuple[str, ...] = _FIELDS
# Extension switches and the default at which the encoding leaves them out (spec/rules.md §3.3).
EXTENSION_DEFAULTS: Mapping[str, object] = {
    f.name: f.default for f in dataclasses.fields(Profile) if f.default is not dataclasses.MISSING
}
_CORE_FIELDS: tuple[str, ...] = tuple(k for k in _FIELDS if k not in EXTENSION_DEFAULTS)
_INT_FIELDS = frozenset(
    {"rounds", "monthly_yaku_points", "double_threshold", "max_calls_per_round", "oya_ken_points",
     "pool_start", "target_score"}
)
_BOOL_FIELDS = frozenset(
    {"named_extension", "tane_with_inoshikacho", "tan_with_ribbon_yaku", "cup_is_plain",
     "last_turn_stop_only", "redeal_consumes_round", "transfer_cap", "bust_ends_game",
     "cup_either", "brights_add", "sanko_with_rain", "single_yaku", "subtract_from_opponent",
     "viewing_by_call", "akatan_aotan_on_top", "stop_on_own_last_turn"}
)
# Card-list switches and the cards each may not name (the cards of the yaku it cancels).
_CARD_LIST_FIELDS: Mapping[str, frozenset[str]] = {
    "hanami_cancelled_by": frozenset({"03-curtain", "09-cup"}),
    "tsukimi_cancelled_by": frozenset({"08-moon", "09-cup"}),
}
_LIMIT = 10_000
MAX_SWITCH_INTEGER = _LIMIT   # the largest value of an integer switch (rounds among them)


def _plain(key: str, value: object) -> object:
    """A switch's value as JSON-ready plain data."""
    if key in ("bright_values",) or key in _CARD_LIST_FIELDS:
        return list(value)  # type: ignore[call-overload]
    if key == "hand_yaku":
        return dict(value)  # type: ignore[call-overload]
    return value


def _normalise(key: str, value: object) -> Any:
    """Turn plain data (lists, dicts) into the field's frozen form; type errors are RulesError."""
    if key == "bright_values":
        if not isinstance(value, list | tuple) or len(value) != 4:
            raise RulesError("bad_switch", "bright_values is four integers")
        return tuple(value)
    if key in _CARD_LIST_FIELDS:
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise RulesError("bad_switch", f"{key} is a list of card ids")
        return tuple(value)
    if key == "hand_yaku":
        if isinstance(value, Mapping):
            items = list(value.items())
        elif isinstance(value, list | tuple):
            items = []
            for item in value:
                if not isinstance(item, list | tuple) or len(item) != 2:
                    raise RulesError("bad_switch", "hand_yaku is a mapping of yaku id to points")
                items.append((item[0], item[1]))
        else:
            raise RulesError("bad_switch", "hand_yaku is a mapping of yaku id to points")
        for k, _ in items:
            if k not in HAND_YAKU_IDS:
                raise RulesError("bad_switch",
                                 f"unknown hand yaku {k!r}; hand yaku: {', '.join(HAND_YAKU_IDS)}")
        if len({k for k, _ in items}) != len(items):
            raise RulesError("bad_switch", "hand_yaku names a yaku twice")
        return tuple(sorted(items, key=lambda kv: HAND_YAKU_IDS.index(kv[0])))
    return value


def _validate(p: Profile) -> None:
    if not isinstance(p.name, str) or not p.name or len(p.name) > 40 or not set(p.name) <= _NAME_CHARS:
        raise RulesError("bad_switch", "name is 1..40 characters of a-z, 0-9, '-' and '_'")
    for key in _INT_FIELDS:
        value = getattr(p, key)
        if type(value) is not int or not 0 <= value <= _LIMIT:
            raise RulesError("bad_switch", f"{key} must be an integer 0..{_LIMIT}")
    for key in _BOOL_FIELDS:
        if type(getattr(p, key)) is not bool:
            raise RulesError("bad_switch", f"{key} must be true or false")
    for key, choices in SWITCH_CHOICES.items():
        if getattr(p, key) not in choices:
            raise RulesError("bad_switch", f"{key} must be one of {', '.join(choices)}")
    bv = p.bright_values
    if (not isinstance(bv, tuple) or len(bv) != 4
            or any(type(v) is not int or not 1 <= v <= 100 for v in bv)):
        raise RulesError("bad_switch", "bright_values is four integers 1..100")
    hy = p.hand_yaku
    if not isinstance(hy, tuple) or any(
        not isinstance(kv, tuple) or len(kv) != 2 or kv[0] not in HAND_YAKU_IDS
        or type(kv[1]) is not int or not 1 <= kv[1] <= 100
        for kv in hy
    ):
        raise RulesError("bad_switch", "hand_yaku maps teshi/kuttsuki/tenho/double_tenho to 1..100")
    if [k for k, _ in hy] != sorted((k for k, _ in hy), key=HAND_YAKU_IDS.index) or len(
        {k for k, _ in hy}
    ) != len(hy):
        raise RulesError("bad_switch", "hand_yaku in canonical order, each once")
    if not isinstance(p.joker_card, str):
        raise RulesError("bad_switch", "joker_card is empty or an animal card other than the cup")
    if p.joker_card:
        match = [c for c in CARDS if c.id == p.joker_card]
        if not match or match[0].klass != "animal" or match[0].subclass == "sake":
            raise RulesError("bad_switch", "joker_card is empty or an animal card other than the cup")
    for key, forbidden in _CARD_LIST_FIELDS.items():
        ids = getattr(p, key)
        if not isinstance(ids, tuple) or any(not isinstance(i, str) or i not in _CARD_IDS for i in ids):
            raise RulesError("bad_switch", f"{key} is a list of card ids")
        indices = [_CARD_IDS[i] for i in ids]
        if indices != sorted(set(indices)):
            raise RulesError("bad_switch", f"{key} lists each card once, in card order")
        if forbidden & set(ids):
            raise RulesError("bad_switch", f"{key} cannot name {', '.join(sorted(forbidden & set(ids)))}")
    if p.cup_either and p.cup_is_plain:
        raise RulesError("bad_switch", "cup_either (animal or plain) needs cup_is_plain false (not both)")
    if p.rounds == 0 and p.target_score == 0:
        raise RulesError("bad_switch", "a match needs rounds or a target score")
    if p.bust_ends_game and p.pool_start == 0:
        raise RulesError("bad_switch", "bust_ends_game needs a pool (pool_start > 0)")
    if p.transfer_cap and p.pool_start == 0:
        raise RulesError("bad_switch", "transfer_cap needs a pool (pool_start > 0)")
    if p.subtract_from_opponent and p.pool_start:
        raise RulesError("bad_switch",
                         "subtract_from_opponent is for scores from 0; a pool already transfers")
    if p.exhaustion != "draw" and p.oya_ken_points < 1:
        raise RulesError("bad_switch", "oya-ken exhaustion needs oya_ken_points >= 1")
    if p.single_yaku_scope != "pile" and not p.single_yaku:
        raise RulesError("bad_switch", "single_yaku_scope extensions needs single_yaku true")
    if p.akatan_aotan_on_top and p.ribbon_pair != "separate_5_5":
        raise RulesError("bad_switch", "akatan_aotan_on_top needs ribbon_pair separate_5_5")
    if p.hand_whole_month == "redeal" and any(k != "kuttsuki" for k, _ in p.hand_yaku):
        raise RulesError("bad_switch",
                         "hand_whole_month redeal allows no hand yaku that shows a whole month "
                         "(teshi, tenho, double_tenho)")


# -- switches as text ---------------------------------------------------------------------------
_TRUE = frozenset({"true", "yes", "on"})
_FALSE = frozenset({"false", "no", "off"})


def _allowed(key: str) -> str:
    """What a switch accepts, in words, for error messages."""
    if key in _BOOL_FIELDS:
        return "true or false"
    if key in _INT_FIELDS:
        return f"an integer 0..{_LIMIT}"
    if key in SWITCH_CHOICES:
        return "one of " + ", ".join(SWITCH_CHOICES[key])
    return {
        "name": "1..40 characters of a-z, 0-9, '-' and '_'",
        "bright_values": "four integers 1..100 for goko,shiko,ame_shiko,sanko, such as 10,8,7,5",
        "hand_yaku": "none, or yaku:points pairs such as teshi:6,kuttsuki:6 (yaku: "
                     + ", ".join(HAND_YAKU_IDS) + ")",
        "joker_card": "none, or the id of an animal card other than 09-cup",
    }.get(key, "none, or card ids and month numbers separated by commas, such as 11-rainman or 11,12")


def parse_switch(key: str, text: str) -> object:
    """Read one switch's value from text (see the module docstring); RulesError names the switch."""
    if key not in _FIELDS:
        raise RulesError("unknown_switch", f"{key!r}; switches: {', '.join(_FIELDS)}")
    if not isinstance(text, str):
        raise RulesError("bad_switch", f"{key}: a text value is a string, not {text!r}")
    t = text.strip()

    def bad() -> RulesError:
        return RulesError("bad_switch", f"{key}: expected {_allowed(key)}; not {text!r}")

    if t[:1] in ('[', '{', '"'):
        try:
            return json.loads(t)
        except ValueError:
            raise bad() from None
    if key in _BOOL_FIELDS:
        if t.lower() in _TRUE:
            return True
        if t.lower() in _FALSE:
            return False
        raise bad()
    if key in _INT_FIELDS:
        if t.isascii() and t.isdigit() and len(t) <= 6:
            return int(t)
        raise bad()
    if key in SWITCH_CHOICES:
        if t in SWITCH_CHOICES[key]:
            return t
        raise bad()
    if key == "name":
        return t
    words = [w.strip() for w in t.split(",")] if t and t.lower() != "none" else []
    if key == "bright_values":
        if len(words) != 4 or not all(w.isascii() and w.isdigit() and len(w) <= 3 for w in words):
            raise bad()
        return tuple(int(w) for w in words)
    if key == "hand_yaku":
        pairs: dict[str, int] = {}
        for word in words:
            yaku, sep, points = word.partition(":")
            yaku = yaku.strip()
            points = points.strip()
            if not sep or yaku not in HAND_YAKU_IDS or yaku in pairs or not (
                    points.isascii() and points.isdigit() and len(points) <= 3):
                raise bad()
            pairs[yaku] = int(points)
        return pairs
    if key == "joker_card":
        if len(words) > 1:
            raise bad()
        return words[0] if words else ""
    # a card list: ids and month numbers, in any order; the value is in card order
    chosen: set[int] = set()
    for word in words:
        if word.isascii() and word.isdigit() and 1 <= int(word) <= 12:
            chosen |= {c.index for c in CARDS if c.month == int(word)}
        elif word in _CARD_IDS:
            chosen.add(_CARD_IDS[word])
        else:
            raise bad()
    return tuple(CARDS[i].id for i in sorted(chosen))


def switch_text(key: str, value: object) -> str:
    """A switch value written as ``parse_switch`` reads it (``none`` for an empty list or card)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if key == "bright_values":
        return ",".join(str(v) for v in value)  # type: ignore[attr-defined]
    if key == "hand_yaku":
        items = value.items() if isinstance(value, Mapping) else value
        return ",".join(f"{k}:{v}" for k, v in items) or "none"  # type: ignore[attr-defined]
    if key in _CARD_LIST_FIELDS:
        return ",".join(value) or "none"  # type: ignore[arg-type]
    if key == "joker_card":
        return str(value) or "none"
    return str(value)


_NINTENDO = Profile(
    name="nintendo",
    rounds=12,
    bright_values=(10, 8, 7, 5),
    named_extension=True,
    tane_with_inoshikacho=False,
    tan_with_ribbon_yaku=False,
    ribbon_pair="chofuku_10",
    cup_is_plain=True,
    joker_card="",
    viewing="always",
    monthly_yaku_points=0,
    monthly_yaku_scope="current_month",
    double_threshold=7,
    koikoi_multiplier="opponent_flat_x2",
    max_calls_per_round=1,
    after_call="next_improvement_ends_round",
    last_turn_stop_only=False,
    exhaustion="draw",
    oya_ken_points=1,
    dealer_after_draw="other",
    hand_yaku=(("teshi", 6), ("kuttsuki", 6)),
    hand_yaku_both="void_redeal",
    field_whole_month="redeal",
    redeal_consumes_round=False,
    hand_capture="free",
    first_dealer_tie="higher_card",
    pool_start=0,
    transfer_cap=False,
    bust_ends_game=False,
    target_score=0,
    match_tie="draw",
)

PRESETS: Mapping[str, Profile] = {
    "nintendo": _NINTENDO,
    "koikoi-online": _NINTENDO.with_switches(
        name="koikoi-online", tane_with_inoshikacho=True, tan_with_ribbon_yaku=True, cup_is_plain=False,
        double_threshold=8, koikoi_multiplier="shared_one_plus_calls", max_calls_per_round=0,
        after_call="shobu_only", last_turn_stop_only=True, dealer_after_draw="same",
        hand_yaku_both="dealer", pool_start=25, transfer_cap=True, bust_ends_game=True,
    ),
    "teaching-card": _NINTENDO.with_switches(
        name="teaching-card", named_extension=False, tane_with_inoshikacho=True, tan_with_ribbon_yaku=True,
        ribbon_pair="separate_5_5", hand_capture="compulsory", first_dealer_tie="redraw",
    ),
    "wikipedia": _NINTENDO.with_switches(
        name="wikipedia", bright_values=(15, 8, 7, 6), named_extension=False, tane_with_inoshikacho=True,
        tan_with_ribbon_yaku=True, cup_is_plain=False, monthly_yaku_points=4, max_calls_per_round=0,
        after_call="shobu_only", exhaustion="oya_ken", dealer_after_draw="same", hand_yaku=(),
        hand_capture="compulsory",
    ),
    "board-game": _NINTENDO.with_switches(
        name="board-game", named_extension=False, tane_with_inoshikacho=True, tan_with_ribbon_yaku=True,
        ribbon_pair="separate_5_5", cup_is_plain=False, double_threshold=0, koikoi_multiplier="winner_pow2",
        max_calls_per_round=0, after_call="shobu_only", dealer_after_draw="same",
        hand_yaku=(("tenho", 6), ("double_tenho", 14)), first_dealer_tie="redraw", pool_start=100,
        transfer_cap=True, bust_ends_game=True,
    ),
    "classic-variant": _NINTENDO.with_switches(
        name="classic-variant", rounds=0, bright_values=(10, 8, 6, 5), named_extension=False,
        tane_with_inoshikacho=True, tan_with_ribbon_yaku=True, ribbon_pair="separate_5_5",
        cup_is_plain=False, joker_card="05-bridge", viewing="bonus_only", monthly_yaku_points=5,
        double_threshold=0, koikoi_multiplier="none", max_calls_per_round=0, after_call="shobu_only",
        exhaustion="last_caller_scores_else_oya_ken", dealer_after_draw="same", hand_yaku=(),
        redeal_consumes_round=True, first_dealer_tie="redraw", target_score=50,
    ),
    # The Steam game "KoiKoi Japan" (the rule set of the published learning agent, issue 28): the
    # first preset with extension switches, so its encoding is a protocol version 2 one.
    "koikoi-japan": _NINTENDO.with_switches(
        name="koikoi-japan", rounds=8, named_extension=False, tane_with_inoshikacho=True,
        tan_with_ribbon_yaku=True, ribbon_pair="separate_5_5", double_threshold=0, koikoi_multiplier="none",
        max_calls_per_round=0, after_call="shobu_only", exhaustion="oya_ken", dealer_after_draw="same",
        hand_yaku=(), pool_start=30, bust_ends_game=True, viewing_by_call=True, koikoi_bonus="winner_add",
        akatan_aotan_on_top=True, stop_on_own_last_turn=True, hand_whole_month="redeal", first_dealer="coin",
    ),
}


def preset(name: str) -> Profile:
    """The named preset; RulesError for an unknown name."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError("unknown_preset", f"{name!r}; presets: {', '.join(PRESETS)}") from None


# Presets whose source pairs each match length with its own pool (spec/rules.md §3.6): the
# board game plays 12, 6 or 3 rounds from pools of 100, 50 or 25.
POOL_BY_LENGTH: Mapping[str, Mapping[int, int]] = {"board-game": {12: 100, 6: 50, 3: 25}}


def with_rounds(profile: Profile, rounds: int) -> Profile:
    """The profile for a match of ``rounds`` rounds, with the pool its preset pairs with that length."""
    if rounds == profile.rounds:
        return profile
    pool = POOL_BY_LENGTH.get(profile.name, {}).get(rounds)
    if pool is not None and profile.pool_start:
        return profile.with_switches(rounds=rounds, pool_start=pool)
    return profile.with_switches(rounds=rounds)


def paired_pool(profile: Profile, rounds: int) -> int | None:
    """The pool the profile's preset pairs with ``rounds`` (spec/rules.md §3.6), when its pool is
    still the one paired with its current length; else None (the pool stays as it is)."""
    pools = POOL_BY_LENGTH.get(profile.name.removesuffix("-custom"), {})
    if pools.get(profile.rounds) != profile.pool_start or not profile.pool_start:
        return None
    return pools.get(rounds)


def differences(profile: Profile, base: Profile | str | None = None) -> dict[str, str]:
    """Switches of ``profile`` that differ from ``base`` (default: ``nearest_preset``), as text.

    Keys in switch-table order, ``name`` left out; values in ``switch_text`` form. Empty means the
    profile plays exactly as the base. For a terms screen: "custom, based on X: k=v, ...".
    """
    if base is None:
        base = nearest_preset(profile)
    ref = preset(base) if isinstance(base, str) else base
    return {key: profile.switch_text(key) for key in _FIELDS
            if key != "name" and getattr(profile, key) != getattr(ref, key)}


def nearest_preset(profile: Profile) -> str:
    """The preset a profile is best described against.

    Its own name when that is a preset; otherwise the preset from which it differs in the fewest
    switches (the first in preset order on a tie).
    """
    if profile.name in PRESETS:
        return profile.name

    def distance(name: str) -> int:
        ref = PRESETS[name]
        return sum(1 for key in _FIELDS if key != "name" and getattr(profile, key) != getattr(ref, key))

    return min(PRESETS, key=distance)
