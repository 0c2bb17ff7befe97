"""What one seat may know of a round, and how far a pile is from each yaku, as card bit masks.

Everything here reads a ``RoundView`` (the seat's own hand, the field, both piles), never the
opponent's hand or the stock: ``unseen`` is exactly the cards the seat has not seen, the ones a
player must guess about. The yaku *targets* are a distance measure for heuristics only; points
are always the rules engine's scorer (``koikoi_p2p.rules.scoring``), never recomputed here.
The JavaScript players (web/src/ai/knowledge.js) use the same targets and formulas.
"""

from __future__ import annotations

from dataclasses import dataclass

from koikoi_p2p.rules.cards import (
    ANIMALS,
    BLUE_RIBBONS,
    BOAR_DEER_BUTTERFLIES,
    BRIGHTS,
    CARDS,
    CHERRY_CURTAIN,
    FULL_MOON,
    MONTH_MASKS,
    PLAINS,
    POETRY_RIBBONS,
    RAIN_MAN,
    RIBBONS,
    SAKE_CUP,
)
from koikoi_p2p.rules.profile import Profile
from koikoi_p2p.rules.round import RoundView

ALL_CARDS = (1 << 48) - 1
INFINITY = 99  # "no longer reachable": more cards than there are
MONTH_OF = tuple(c.month for c in CARDS)
MONTH_MASK_OF = tuple(MONTH_MASKS[c.month] for c in CARDS)  # the four cards of each card's month


@dataclass(frozen=True, slots=True)
class Target:
    """A step towards a yaku: ``need`` cards of ``cards`` are worth about ``points``.

    ``counted`` targets (tane, tan, kasu) keep growing by a point per card once made.
    """

    id: str
    cards: int
    need: int
    points: int
    counted: bool = False


def targets_of(profile: Profile, month: int) -> tuple[Target, ...]:
    """The yaku targets of a profile in a round's month (spec/rules.md §6), for distances."""
    plains = PLAINS | (SAKE_CUP if profile.cup_is_plain else 0)
    lights = BRIGHTS & ~RAIN_MAN
    found = [
        Target("sanko", lights, 3, profile.bright_values[3]),
        Target("shiko", lights, 4, profile.bright_values[1]),
        Target("inoshikacho", BOAR_DEER_BUTTERFLIES, 3, 5),
        Target("akatan", POETRY_RIBBONS, 3, 5),
        Target("aotan", BLUE_RIBBONS, 3, 5),
        Target("tane", ANIMALS, 5, 1, counted=True),
        Target("tan", RIBBONS, 5, 1, counted=True),
        Target("kasu", plains, 10, 1, counted=True),
    ]
    if profile.viewing != "off":
        found.append(Target("hanami", SAKE_CUP | CHERRY_CURTAIN, 2, 5))
        found.append(Target("tsukimi", SAKE_CUP | FULL_MOON, 2, 5))
    if profile.monthly_yaku_points > 0:
        found.append(Target("tsukifuda", MONTH_MASKS[month], 4, profile.monthly_yaku_points))
    return tuple(found)


def distance(target: Target, pile: int, obtainable: int) -> int:
    """Cards ``pile`` still misses for ``target`` (0: made), INFINITY when too few can be had."""
    have = (pile & target.cards).bit_count()
    can = (obtainable & target.cards & ~pile).bit_count()
    missing = max(0, target.need - have)
    return missing if missing <= can else INFINITY


def nearest_yaku(targets: tuple[Target, ...], pile: int, obtainable: int) -> int:
    """The fewest cards ``pile`` needs for a target it has not made (INFINITY: none reachable)."""
    best = INFINITY
    for t in targets:
        d = distance(t, pile, obtainable)
        if 0 < d < best:
            best = d
    return best


def usefulness(card: int, targets: tuple[Target, ...], pile: int, obtainable: int) -> float:
    """How much one more card helps ``pile``: each reachable target it belongs to adds its points
    over the cards still missing; a made counted target adds 1 (its next point)."""
    bit = 1 << card
    reach = obtainable | bit
    u = 0.0
    for t in targets:
        if not t.cards & bit:
            continue
        d = distance(t, pile, reach)
        if d == 0:
            u += 1 if t.counted else 0
        elif d != INFINITY:
            u += t.points / d
    return u


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """One seat's knowledge as masks: its own known hand, the field, both piles, the unseen."""

    seat: int
    hand: int
    field: int
    mine: int
    theirs: int
    unseen: int


def knowledge_of(view: RoundView) -> SeatKnowledge:
    """What the view's seat knows; ``unseen`` = the opponent's hand and the stock, as it sees them."""
    hand = 0
    for c in view.hand:
        if c >= 0:
            hand |= 1 << c
    field = _mask(view.field)
    mine = _mask(view.piles[view.seat])
    theirs = _mask(view.piles[1 - view.seat])
    seen = hand | field | mine | theirs
    if view.pending_card is not None:
        seen |= 1 << view.pending_card
    return SeatKnowledge(seat=view.seat, hand=hand, field=field, mine=mine, theirs=theirs,
                         unseen=ALL_CARDS & ~seen)


def _mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m
