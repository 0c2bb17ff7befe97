"""How much a set of captured cards is worth, now and as a promise, to either player.

The strong player's judgement in one place: the points the rules engine already awards, plus
the yaku each side is building, discounted by how many cards are still missing and by whether
the cards it needs are still out there (a card in the other pile kills a set for good). A capture
is worth what it adds to my side plus what it takes away from the other side's prospects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from koikoi_p2p.rules.profile import Profile

# Card indices follow the canonical order (cards.tsv, the rules engine's CARDS).
BRIGHTS = frozenset({0, 8, 28, 40, 44})
RAIN_MAN = 40
ANIMALS = frozenset({4, 12, 16, 20, 24, 29, 32, 36, 41})
RIBBONS = frozenset({1, 5, 9, 13, 17, 21, 25, 33, 37, 42})
SAKE_CUP = 32


@dataclass(frozen=True, slots=True)
class Family:
    """A yaku to build: ``need`` of ``cards`` make ``points``; extra cards may add more."""

    name: str
    cards: frozenset[int]
    need: int
    points: int


def families(cup_is_plain: bool = True, *, viewing: bool = True, sanko: int = 5) -> tuple[Family, ...]:
    """The sets worth building under the usual yaku (values as in the nintendo preset).

    ``viewing`` False drops hanami and tsukimi (profiles where they never score); ``sanko`` is
    the value of three brights.
    """
    plains = frozenset(range(48)) - BRIGHTS - ANIMALS - RIBBONS
    if cup_is_plain:
        plains = plains | {SAKE_CUP}
    found = [
        Family("brights", BRIGHTS - {RAIN_MAN}, 3, sanko),
        Family("inoshikacho", frozenset({20, 24, 36}), 3, 5),
        Family("akatan", frozenset({1, 5, 9}), 3, 5),
        Family("aotan", frozenset({21, 33, 37}), 3, 5),
        Family("hanami", frozenset({8, 32}), 2, 5),
        Family("tsukimi", frozenset({28, 32}), 2, 5),
        Family("tane", ANIMALS, 5, 1),
        Family("tan", RIBBONS, 5, 1),
        Family("kasu", plains, 10, 1),
    ]
    if not viewing:
        found = [f for f in found if f.name not in ("hanami", "tsukimi")]
    return tuple(found)


def families_for(profile: Profile) -> tuple[Family, ...]:
    """The sets a profile rewards (viewing yaku only where they can score on their own)."""
    return families(profile.cup_is_plain, viewing=profile.viewing == "always", sanko=profile.bright_values[3])


# What a set still missing n cards is worth, as a share of its points: one card away is a real
# threat, three away is a faint hope.
PROMISE = (1.0, 0.45, 0.18, 0.07, 0.03, 0.01)


def promise(mine: frozenset[int], theirs: frozenset[int], fams: Iterable[Family]) -> float:
    """The yaku ``mine`` is building and ``theirs`` cannot yet spoil, in expected-ish points."""
    total = 0.0
    for fam in fams:
        have = len(mine & fam.cards)
        alive = len(fam.cards) - len(theirs & fam.cards)
        if alive < fam.need:
            continue
        missing = fam.need - have
        if missing <= 0:
            # Made already (scored separately); further cards of the set still add a little.
            total += 0.3 * min(alive - have, 1)
            continue
        total += fam.points * PROMISE[min(missing, len(PROMISE) - 1)]
    return total


def closest(mine: frozenset[int], theirs: frozenset[int], fams: Iterable[Family]) -> int:
    """Fewest cards ``mine`` still lacks for a yaku it does not hold yet (99: none possible)."""
    best = 99
    for fam in fams:
        have = len(mine & fam.cards)
        alive = len(fam.cards) - len(theirs & fam.cards)
        missing = fam.need - have
        if missing > 0 and alive >= fam.need:
            best = min(best, missing)
    return best


Scorer = Callable[[frozenset[int]], int]


@dataclass(frozen=True, slots=True)
class Evaluator:
    """Scores positions from one seat's side: my points and promise minus the opponent's."""

    scorer: Scorer
    fams: tuple[Family, ...]
    made_weight: float = 1.6  # points in hand beat points in prospect
    deny_weight: float = 0.9  # how much the opponent's prospects count against mine

    def side(self, mine: frozenset[int], theirs: frozenset[int]) -> float:
        return self.made_weight * self.scorer(mine) + promise(mine, theirs, self.fams)

    def value(self, mine: frozenset[int], theirs: frozenset[int]) -> float:
        return self.side(mine, theirs) - self.deny_weight * self.side(theirs, mine)

    def gain(self, mine: frozenset[int], theirs: frozenset[int], take: Iterable[int]) -> float:
        """What capturing ``take`` is worth to me, denial included."""
        after = mine | frozenset(take)
        return self.value(after, theirs) - self.value(mine, theirs)

    def their_gain(self, mine: frozenset[int], theirs: frozenset[int], take: Iterable[int]) -> float:
        """What the opponent would gain by capturing ``take`` (for cards I leave exposed)."""
        after = theirs | frozenset(take)
        return self.value(after, mine) - self.value(theirs, mine)
