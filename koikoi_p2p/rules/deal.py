"""The deal in fixed deck positions and the choice of the first dealer (spec/rules.md §5).

The deck is the 48 positions of the jointly shuffled deck. Fixing which position goes where lets
both peers, and an auditor, agree on every hand, the field and the stock order without ever
sending a card.

The first dealer (§5.1) follows the profile's ``first_dealer`` switch. ``choose_first_dealer``
is the whole rule as a pure function for the game flow's deal 0: give it the cards revealed so
far from the jointly shuffled deck 0 (``revealed[i]`` = the card at position i) and it names the
dealer or the positions to reveal next::

    step = choose_first_dealer(profile, [])        # host/joiner: step.dealer is set at once
    while step.dealer is None:
        revealed += [reveal(p) for p in step.need]  # public reveals of deck 0, in this order
        step = choose_first_dealer(profile, revealed)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from koikoi_p2p.rules.cards import CLASS_RANK, card
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import Profile

__all__ = ["DealLayout", "FirstDealer", "choose_first_dealer", "deal_layout", "first_dealer"]


@dataclass(frozen=True, slots=True)
class DealLayout:
    """Deck positions of each seat's hand, of the field, and of the stock in draw order."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]
    field: tuple[int, ...]
    stock: tuple[int, ...]


def _build(dealer: int) -> DealLayout:
    # spec/rules.md §5.2: four passes of two cards each to the non-dealer, the field, the dealer.
    hands: list[list[int]] = [[], []]
    field: list[int] = []
    position = 0
    for _ in range(4):
        for target in ("non_dealer", "field", "dealer"):
            pair = [position, position + 1]
            position += 2
            if target == "field":
                field.extend(pair)
            else:
                hands[dealer if target == "dealer" else 1 - dealer].extend(pair)
    return DealLayout(hands=(tuple(hands[0]), tuple(hands[1])), field=tuple(field),
                      stock=tuple(range(position, 48)))


_LAYOUTS = (_build(0), _build(1))


def deal_layout(dealer: int) -> DealLayout:
    """The deal layout when ``dealer`` (seat 0 or 1) deals."""
    if type(dealer) is not int or dealer not in (0, 1):
        raise RulesError("bad_seat", f"dealer must be seat 0 or 1, not {dealer!r}")
    return _LAYOUTS[dealer]


def first_dealer(card0: int, card1: int, profile: Profile) -> int | None:
    """Seat that deals first from the cards drawn by seat 0 and seat 1; None means draw again.

    The earlier month deals. Within one month the profile decides: ``redraw``, or ``higher_card``
    (bright > animal > ribbon > plain, equal classes draw again).
    """
    c0, c1 = card(card0), card(card1)
    if c0.index == c1.index:
        raise RulesError("duplicate_card", "both seats cannot draw the same card")
    if c0.month != c1.month:
        return 0 if c0.month < c1.month else 1
    if profile.first_dealer_tie == "higher_card":
        r0, r1 = CLASS_RANK[c0.klass], CLASS_RANK[c1.klass]
        if r0 != r1:
            return 0 if r0 > r1 else 1
    return None


@dataclass(frozen=True, slots=True)
class FirstDealer:
    """One step of choosing the first dealer: the seat once known, else the positions to reveal.

    Exactly one of the two is set: ``dealer`` (seat 0 or 1) with ``need == ()``, or
    ``dealer is None`` with ``need`` the deck-0 positions to reveal next, publicly, in order.
    """

    dealer: int | None
    need: tuple[int, ...]


_PAIRS = 24   # the card draw reads positions (2k, 2k + 1), k = 0..23


def choose_first_dealer(profile: Profile, revealed: Sequence[int]) -> FirstDealer:
    """The first dealer under ``profile.first_dealer`` from the revealed prefix of deck 0 (§5.1).

    ``revealed[i]`` is the card index at deck position i. ``host`` and ``joiner`` need no card
    (seat 0 and seat 1 deal); ``coin`` reads position 0: an even card index means seat 0 deals, an
    odd one seat 1; ``card_draw`` reads pairs (2k, 2k + 1), seat 0's card then seat 1's, until
    ``first_dealer`` names a seat, and if all 24 pairs tie, the coin of position 0 decides.
    Cards beyond the deciding one, a repeated card or a non-card are a RulesError.
    """
    if isinstance(revealed, str | bytes) or not isinstance(revealed, Sequence):
        raise RulesError("bad_draw", "revealed is a sequence of card indices")
    seen: set[int] = set()
    for c in revealed:
        if type(c) is not int or not 0 <= c < 48:
            raise RulesError("bad_draw", f"{c!r} is no card index")
        if c in seen:
            raise RulesError("bad_draw", f"card {c} revealed twice")
        seen.add(c)
    method = profile.first_dealer
    if method in ("host", "joiner"):
        used, dealer = 0, (0 if method == "host" else 1)
    elif method == "coin":
        if not revealed:
            return FirstDealer(None, (0,))
        used, dealer = 1, revealed[0] % 2
    else:
        used, found = _card_draw(profile, revealed)
        if found is None:
            return FirstDealer(None, (used, used + 1))
        dealer = found
    if len(revealed) > used:
        raise RulesError("bad_draw",
                         f"the first dealer is known after {used} cards, {len(revealed)} were revealed")
    return FirstDealer(dealer, ())


def _card_draw(profile: Profile, revealed: Sequence[int]) -> tuple[int, int | None]:
    """(cards used, dealer or None if the next pair must be drawn) for the card draw."""
    for k in range(_PAIRS):
        if len(revealed) < 2 * k + 2:
            return 2 * k, None
        dealer = first_dealer(revealed[2 * k], revealed[2 * k + 1], profile)
        if dealer is not None:
            return 2 * k + 2, dealer
    # Every pair tied (possible only with first_dealer_tie = redraw): the coin of position 0.
    return 2 * _PAIRS, revealed[0] % 2
