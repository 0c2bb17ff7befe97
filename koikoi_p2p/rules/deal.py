"""The deal in fixed deck positions and the draw for the first dealer (spec/rules.md §5).

The deck is the 48 positions of the jointly shuffled deck. Fixing which position goes where lets
both peers, and an auditor, agree on every hand, the field and the stock order without ever
sending a card.
"""

from __future__ import annotations

from dataclasses import dataclass

from koikoi_p2p.rules.cards import CLASS_RANK, card
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import Profile

__all__ = ["DealLayout", "deal_layout", "first_dealer"]


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
