"""Driving rounds with every card known: simulations, tests, benchmarks and fixed deals.

Not used by the protocol; it feeds reveals from a known deck and picks actions with a chooser.
``random.Random`` here chooses simulated moves only, never anything secret.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from koikoi_p2p.rules.actions import Action
from koikoi_p2p.rules.cards import CARDS, card
from koikoi_p2p.rules.deal import deal_layout
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import Profile
from koikoi_p2p.rules.round import NeedReveal, RoundState

__all__ = ["Chooser", "arranged_deck", "play_round", "random_chooser", "random_round", "replay_round"]

Chooser = Callable[[RoundState, tuple[Action, ...]], Action]
Move = tuple[int, Action]


def random_chooser(rng: random.Random) -> Chooser:
    """Uniformly random legal actions."""
    def choose(state: RoundState, options: tuple[Action, ...]) -> Action:
        return options[rng.randrange(len(options))]
    return choose


def play_round(state: RoundState, deck: Sequence[int], choose: Chooser) -> list[Move]:
    """Run a round to its end, answering reveals from ``deck``; returns the (seat, action) list."""
    moves: list[Move] = []
    while state.result is None:
        need = state.need
        if type(need) is NeedReveal:
            for p in need.positions:
                state.reveal(p, deck[p])
            continue
        assert need is not None
        action = choose(state, state.legal_actions())
        state.apply(need.seat, action)  # type: ignore[union-attr]
        moves.append((need.seat, action))  # type: ignore[union-attr]
    return moves


def replay_round(state: RoundState, deck: Sequence[int], moves: Sequence[Move]) -> None:
    """Apply a recorded move list to a fresh state, answering reveals from ``deck``."""
    it = iter(moves)
    while state.result is None:
        need = state.need
        if type(need) is NeedReveal:
            for p in need.positions:
                state.reveal(p, deck[p])
            continue
        try:
            seat, action = next(it)
        except StopIteration:
            return
        state.apply(seat, action)
    if next(it, None) is not None:
        raise RulesError("extra_moves", "moves left after the end of the round")


def random_round(profile: Profile, rng: random.Random, *, dealer: int = 0, month: int = 1,
                 round_index: int = 1) -> tuple[RoundState, list[int], list[Move]]:
    """A fully known random deal played out with random legal actions."""
    deck = list(range(48))
    rng.shuffle(deck)
    state = RoundState(profile=profile, dealer=dealer, viewer=None, round_index=round_index, month=month)
    moves = play_round(state, deck, random_chooser(rng))
    return state, deck, moves


def arranged_deck(dealer: int, hands: Sequence[Sequence[int | str]], field: Sequence[int | str],
                  stock: Sequence[int | str] = ()) -> tuple[int, ...]:
    """A deck with these hands (seat 0, seat 1), field and first stock cards at their deal positions.

    Missing cards fill the remaining positions in card order. For fixed deals in tests and vectors.
    """
    layout = deal_layout(dealer)
    deck = [-1] * 48
    used: set[int] = set()

    def place(positions: Sequence[int], refs: Sequence[int | str]) -> None:
        if len(refs) > len(positions):
            raise RulesError("bad_deal", "too many cards for the place")
        for p, ref in zip(positions, refs, strict=False):
            c = card(ref).index
            if c in used:
                raise RulesError("duplicate_card", CARDS[c].id)
            used.add(c)
            deck[p] = c

    place(layout.hands[0], hands[0])
    place(layout.hands[1], hands[1])
    place(layout.field, field)
    place(layout.stock, stock)
    rest = iter(c for c in range(48) if c not in used)
    for p in range(48):
        if deck[p] == -1:
            deck[p] = next(rest)
    return tuple(deck)
