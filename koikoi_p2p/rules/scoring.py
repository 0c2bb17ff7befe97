"""Yaku and round scores under a profile (spec/rules.md §6 and §7).

``score_yaku`` is the readable entry point. The round engine calls a per-profile ``Scorer``
whose ``base`` computes the same total without building a dict, because it runs after every
turn of every simulated round; the tests check that both agree, and an independent plain
scorer in the tests checks them both.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

from koikoi_p2p.rules.cards import (
    ANIMALS,
    BLUE_RIBBONS,
    BOAR_DEER_BUTTERFLIES,
    BRIGHTS,
    CHERRY_CURTAIN,
    FULL_MOON,
    MONTH_MASKS,
    PLAINS,
    POETRY_RIBBONS,
    RAIN_MAN,
    RIBBONS,
    SAKE_CUP,
    card,
    mask_of,
)
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import Profile

__all__ = ["YAKU_IDS", "Scorer", "base_total", "round_score", "score_mask", "score_yaku", "scorer"]

# Every yaku id the engine reports, in the canonical order of its dicts.
YAKU_IDS: tuple[str, ...] = (
    "goko", "shiko", "ame_shiko", "sanko", "hanami", "tsukimi", "inoshikacho", "akatan", "aotan",
    "akatan_aotan", "tane", "tan", "kasu", "tsukifuda", "teshi", "kuttsuki", "tenho", "double_tenho",
    "oya_ken",
)
_ORDER = {key: i for i, key in enumerate(YAKU_IDS)}
# Yaku that are "basic" for the bonus-only viewing rule (spec/rules.md §6.4).
_BASIC = frozenset(
    {"goko", "shiko", "ame_shiko", "sanko", "inoshikacho", "akatan", "aotan", "akatan_aotan", "tane", "tan",
     "kasu"}
)
_ALL_COMPLETE_CHECK = tuple(MONTH_MASKS[1:])


class Scorer:
    """The scorer of one profile: ``yaku(mask, month)`` as a dict, ``base(mask, month)`` as a sum."""

    __slots__ = ("_flex", "base", "profile", "yaku")

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self._flex = _flex_mask(profile)
        self.yaku: Callable[..., dict[str, int]] = self._yaku
        self.base: Callable[..., int] = _memoised(_make_base(profile, self._yaku))

    def _yaku(self, pile: int, month: int | None, called: bool = False) -> dict[str, int]:
        # spec/rules.md §6.3: each flexible card held (the joker, the cup with cup_either) counts
        # as an animal or as a plain; k of them count as plains for k = 0..n, the highest base
        # wins, the smallest k on equal bases. Only the count matters: no yaku names them by class.
        p = self.profile
        # ``called``: the pile's holder has called koi-koi in this round (viewing_by_call, §6.4).
        found = _yaku_with(pile, month, p, 0, called)
        best = sum(found.values())
        for moved in range(1, (pile & self._flex).bit_count() + 1):
            alt = _yaku_with(pile, month, p, moved, called)
            total = sum(alt.values())
            if total > best:
                found, best = alt, total
        return found


_MEMO_LIMIT = 1 << 16


def _memoised(base: Callable[[int, int | None, bool], int]) -> Callable[..., int]:
    """``base`` with a bounded memo: a pure function of (pile, month, called), recomputed after each clear.

    Simulations (the computer players' playouts) score the same piles over and over.
    """
    memo: dict[int, int] = {}

    def cached(pile: int, month: int | None, called: bool = False) -> int:
        key = (pile << 5) | ((month or 0) << 1) | called
        found = memo.get(key)
        if found is None:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            found = memo[key] = base(pile, month, called)
        return found

    return cached


def _flex_mask(p: Profile) -> int:
    """Cards that count as an animal or a plain, whichever scores more (spec/rules.md §6.3)."""
    mask = (1 << card(p.joker_card).index) if p.joker_card else 0
    if p.cup_either:
        mask |= SAKE_CUP
    return mask


@functools.lru_cache(maxsize=64)
def _cards_mask(ids: tuple[str, ...]) -> int:
    return mask_of(ids)


def _yaku_with(pile: int, month: int | None, p: Profile, moved: int, called: bool = False) -> dict[str, int]:
    """The yaku of a pile with ``moved`` flexible cards counted as plains instead of animals."""
    y: dict[str, int] = {}
    goko, shiko, ame_shiko, sanko = p.bright_values
    nb = (pile & BRIGHTS).bit_count()
    rain = pile & RAIN_MAN
    if p.brights_add:
        # spec/rules.md §6.2, brights_add: each bright yaku the pile holds scores.
        plain_lights = nb - (1 if rain else 0)
        if nb == 5:
            y["goko"] = goko
        if plain_lights == 4:
            y["shiko"] = shiko
        if rain and nb >= 4:
            y["ame_shiko"] = ame_shiko
        if plain_lights >= 3 or (p.sanko_with_rain and nb >= 3):
            y["sanko"] = sanko
    elif nb == 5:
        y["goko"] = goko
    elif nb == 4:
        if rain:
            y["ame_shiko"] = ame_shiko
        else:
            y["shiko"] = shiko
    elif nb == 3 and (not rain or p.sanko_with_rain):
        y["sanko"] = sanko
    animals = (pile & ANIMALS).bit_count() - moved
    ribbons = (pile & RIBBONS).bit_count()
    plains = (pile & PLAINS).bit_count() + moved
    if p.cup_is_plain and pile & SAKE_CUP:
        plains += 1
    ext = p.named_extension
    isc = pile & BOAR_DEER_BUTTERFLIES == BOAR_DEER_BUTTERFLIES
    if isc:
        y["inoshikacho"] = 5 + (animals - 3 if ext else 0)
    aka = pile & POETRY_RIBBONS == POETRY_RIBBONS
    ao = pile & BLUE_RIBBONS == BLUE_RIBBONS
    if aka and ao and p.ribbon_pair == "chofuku_10":
        y["akatan_aotan"] = 10 + (ribbons - 6 if ext else 0)
    else:
        if aka:
            y["akatan"] = 5 + (ribbons - 3 if ext else 0)
        if ao:
            y["aotan"] = 5 + (ribbons - 3 if ext else 0)
        if aka and ao and p.akatan_aotan_on_top:
            # spec/rules.md §6.5: the red-and-blue yaku of 10 on top of akatan 5 and aotan 5.
            y["akatan_aotan"] = 10 + (ribbons - 6 if ext else 0)
    if animals >= 5 and (not isc or p.tane_with_inoshikacho):
        y["tane"] = animals - 4
    if ribbons >= 5 and (not (aka or ao) or p.tan_with_ribbon_yaku):
        y["tan"] = ribbons - 4
    if plains >= 10:
        y["kasu"] = plains - 9
    if pile & SAKE_CUP and p.viewing != "off" and (p.viewing == "always" or any(k in _BASIC for k in y)):
        # spec/rules.md §6.4: a card of the *_cancelled_by list in the pile cancels that yaku.
        view = _viewing_points(p, called)
        if pile & CHERRY_CURTAIN and not pile & _cards_mask(p.hanami_cancelled_by):
            y["hanami"] = view
        if pile & FULL_MOON and not pile & _cards_mask(p.tsukimi_cancelled_by):
            y["tsukimi"] = view
    if p.monthly_yaku_points:
        if p.monthly_yaku_scope == "current_month":
            if month is not None and pile & MONTH_MASKS[month] == MONTH_MASKS[month]:
                y["tsukifuda"] = p.monthly_yaku_points
        else:
            complete = sum(1 for m in _ALL_COMPLETE_CHECK if pile & m == m)
            if complete:
                y["tsukifuda"] = p.monthly_yaku_points * complete
    ordered = sorted(y, key=_ORDER.__getitem__)
    if p.single_yaku and y:
        if p.single_yaku_scope == "extensions":
            # spec/rules.md §6.9: a yaku is cut when a yaku it extends, or that extends it, ranks higher.
            return {key: y[key] for key in ordered
                    if not any(_outranks(other, key, y) for other in _EXTENDS.get(key, ()) if other in y)}
        # spec/rules.md §6.9: only the highest yaku counts; the first in yaku order on a tie.
        top = max(y.values())
        first = next(key for key in ordered if y[key] == top)
        return {first: top}
    return {key: y[key] for key in ordered}


def _outranks(a: str, b: str, y: dict[str, int]) -> bool:
    """Yaku ``a`` ranks above ``b`` in map ``y``: more points, or equal and earlier in §4 order."""
    return y[a] > y[b] or (y[a] == y[b] and _ORDER[a] < _ORDER[b])


# spec/rules.md §6.9: the pairs of yaku of which one extends the other (more cards of the same class
# holding the smaller one): the bright yaku among themselves, tane and inoshikacho, tan and each
# ribbon yaku, akatan_aotan and akatan / aotan. Akatan and aotan share no card: both may count.
_EXTENSION_PAIRS: tuple[tuple[str, str], ...] = (
    ("goko", "shiko"), ("goko", "ame_shiko"), ("goko", "sanko"), ("shiko", "ame_shiko"),
    ("shiko", "sanko"), ("ame_shiko", "sanko"),
    ("inoshikacho", "tane"),
    ("akatan", "tan"), ("aotan", "tan"), ("akatan_aotan", "tan"), ("akatan", "akatan_aotan"),
    ("aotan", "akatan_aotan"),
)
_EXTENDS: dict[str, frozenset[str]] = {
    key: frozenset({b for a, b in _EXTENSION_PAIRS if a == key}
                   | {a for a, b in _EXTENSION_PAIRS if b == key})
    for key in {k for pair in _EXTENSION_PAIRS for k in pair}
}


def _viewing_points(p: Profile, called: bool) -> int:
    """Points of hanami and of tsukimi (spec/rules.md §6.4): 5, or with viewing_by_call 1 before
    the holder's own koi-koi call in the round and 3 after it."""
    if p.viewing_by_call:
        return 3 if called else 1
    return 5


def _make_base(p: Profile, slow: Callable[..., dict[str, int]],
               ) -> Callable[[int, int | None, bool], int]:
    """A closure computing the base total of a pile without building dicts (the hot path)."""
    if p.single_yaku or p.brights_add or p.viewing_by_call or p.akatan_aotan_on_top:
        # Rare house rules: the readable path is exact and fast enough for them.
        def slow_base(pile: int, month: int | None, called: bool = False) -> int:
            return sum(slow(pile, month, called).values())
        return slow_base
    goko, shiko, ame_shiko, sanko = p.bright_values
    sanko_rain = p.sanko_with_rain
    cup_plain = p.cup_is_plain
    ext = p.named_extension
    tane_with = p.tane_with_inoshikacho
    tan_with = p.tan_with_ribbon_yaku
    chofuku = p.ribbon_pair == "chofuku_10"
    viewing = {"always": 2, "bonus_only": 1, "off": 0}[p.viewing]
    no_hanami = _cards_mask(p.hanami_cancelled_by)
    no_tsukimi = _cards_mask(p.tsukimi_cancelled_by)
    monthly = p.monthly_yaku_points
    any_month = p.monthly_yaku_scope == "any_month"
    flex = _flex_mask(p)
    bdb, poetry, blue, cup = BOAR_DEER_BUTTERFLIES, POETRY_RIBBONS, BLUE_RIBBONS, SAKE_CUP
    brights, rain_man, animals_m, ribbons_m, plains_m = BRIGHTS, RAIN_MAN, ANIMALS, RIBBONS, PLAINS
    curtain, moon, months = CHERRY_CURTAIN, FULL_MOON, MONTH_MASKS

    def basic_and_viewing(pile: int, month: int | None, animals: int, plains: int) -> int:
        total = 0
        nb = (pile & brights).bit_count()
        if nb == 5:
            total = goko
        elif nb == 4:
            total = ame_shiko if pile & rain_man else shiko
        elif nb == 3 and (sanko_rain or not pile & rain_man):
            total = sanko
        ribbons = (pile & ribbons_m).bit_count()
        isc = pile & bdb == bdb
        if isc:
            total += 5 + (animals - 3 if ext else 0)
        aka = pile & poetry == poetry
        ao = pile & blue == blue
        if aka and ao and chofuku:
            total += 10 + (ribbons - 6 if ext else 0)
        else:
            if aka:
                total += 5 + (ribbons - 3 if ext else 0)
            if ao:
                total += 5 + (ribbons - 3 if ext else 0)
        if animals >= 5 and (tane_with or not isc):
            total += animals - 4
        if ribbons >= 5 and (tan_with or not (aka or ao)):
            total += ribbons - 4
        if plains >= 10:
            total += plains - 9
        if viewing and pile & cup and (viewing == 2 or total):
            if pile & curtain and not pile & no_hanami:
                total += 5
            if pile & moon and not pile & no_tsukimi:
                total += 5
        if monthly:
            if any_month:
                for m in months[1:]:
                    if pile & m == m:
                        total += monthly
            elif month is not None and pile & months[month] == months[month]:
                total += monthly
        return total

    def base(pile: int, month: int | None, called: bool = False) -> int:  # called: no viewing_by_call here
        animals = (pile & animals_m).bit_count()
        plains = (pile & plains_m).bit_count()
        if cup_plain and pile & cup:
            plains += 1
        total = basic_and_viewing(pile, month, animals, plains)
        if pile & flex:
            for moved in range(1, (pile & flex).bit_count() + 1):
                alt = basic_and_viewing(pile, month, animals - moved, plains + moved)
                if alt > total:
                    total = alt
        return total

    return base


_SCORERS: dict[Profile, Scorer] = {}


def scorer(profile: Profile) -> Scorer:
    """The (cached) scorer of a profile."""
    found = _SCORERS.get(profile)
    if found is None:
        if len(_SCORERS) > 64:
            _SCORERS.clear()
        found = _SCORERS[profile] = Scorer(profile)
    return found


def _check_month(month: int | None) -> None:
    if month is not None and (type(month) is not int or not 1 <= month <= 12):
        raise RulesError("bad_month", f"month must be 1..12, not {month!r}")


def score_mask(pile: int, profile: Profile, month: int | None = None, called: bool = False) -> dict[str, int]:
    """Yaku of a pile given as a card bit mask; ``called``: its holder has called koi-koi this round."""
    _check_month(month)
    return scorer(profile).yaku(pile, month, called)


def score_yaku(captured: Iterable[int | str], profile: Profile, month: int | None = None,
               called: bool = False) -> dict[str, int]:
    """Yaku and points of a captured pile (card indices or ids); ``month`` for monthly yaku;
    ``called`` when its holder has called koi-koi in the round (only ``viewing_by_call`` reads it)."""
    return score_mask(mask_of(captured), profile, month, called)


def base_total(captured: Iterable[int | str], profile: Profile, month: int | None = None,
               called: bool = False) -> int:
    """Sum of the yaku of a pile before any multiplier."""
    _check_month(month)
    return scorer(profile).base(mask_of(captured), month, called)


def round_score(base: int, calls: Sequence[int], winner: int, profile: Profile) -> int:
    """The winner's round score: threshold doubling, the koi-koi multiplier, then a losing caller's
    extra (spec/rules.md §7).

    ``calls`` are the seats of the round's koi-koi calls in order.
    """
    if type(base) is not int or base < 0:
        raise RulesError("bad_score", "base must be a non-negative integer")
    if winner not in (0, 1) or type(winner) is not int:
        raise RulesError("bad_seat", f"winner must be seat 0 or 1, not {winner!r}")
    for seat in calls:
        if seat not in (0, 1) or type(seat) is not int:
            raise RulesError("bad_seat", f"calls are seats 0 or 1, not {seat!r}")
    points = base
    if profile.double_threshold and base >= profile.double_threshold:
        points *= 2
    model = profile.koikoi_multiplier
    if model == "opponent_flat_x2":
        if any(seat != winner for seat in calls):
            points *= 2
    elif model == "shared_one_plus_calls":
        points *= 1 + len(calls)
    elif model == "winner_pow2":
        points *= 2 ** sum(1 for seat in calls if seat == winner)
    extra = profile.caller_pays_more
    if extra != "off":
        # spec/rules.md §7.3: the loser who called pays more, in proportion to its own calls.
        loser_calls = sum(1 for seat in calls if seat != winner)
        if extra == "times_calls" and loser_calls:
            points *= loser_calls
        elif extra == "doubled_per_call":
            points *= 2 ** loser_calls
    if profile.koikoi_bonus == "winner_add":
        # spec/rules.md §7.5: the winner's own calls add 1, 2, 3 points; from 4 calls on they
        # multiply by (calls - 2). The opponent's calls change nothing here.
        own = sum(1 for seat in calls if seat == winner)
        if own >= 4:
            points *= own - 2
        else:
            points += own
    return points
