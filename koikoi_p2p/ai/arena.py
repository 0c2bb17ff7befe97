"""Whole matches between two strategies through the rules engine alone (no crypto, no network).

This measures players, not the protocol: every card is known to the engine, each strategy only
gets the view of its own seat and the legal options, exactly as over the wire.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from koikoi_p2p.ai.strategy import MatchContext, RoundObserver, Strategy, show_round, tell_match
from koikoi_p2p.rules.match import MatchState
from koikoi_p2p.rules.profile import Profile
from koikoi_p2p.rules.round import NeedAction, NeedReveal, RoundState

MAX_DEALS = 200  # a guard against a match that never ends (pools that never empty, endless redeals)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    scores: tuple[int, int]
    winner: int | None
    rounds: int


def play_local_match(
    profile: Profile, players: Sequence[Strategy], rng: random.Random, *, rounds: int | None = None
) -> MatchRecord:
    """One match, seat 0 = players[0]; the deck shuffles and the first dealer come from ``rng``.

    ``rounds`` overrides the profile's match length (as a room's terms may).
    """
    if rounds is not None:
        profile = profile.with_switches(rounds=rounds)
    match = MatchState(profile, rng.randrange(2))

    watchers = [seat for seat in (0, 1) if isinstance(players[seat], RoundObserver)]

    while not match.over and match.deals < MAX_DEALS:
        context = MatchContext(profile=profile, scores=match.scores, rounds_played=match.rounds_played)
        for player in players:
            tell_match(player, context)
        state = match.new_round(viewer=None)
        deck = list(range(48))
        rng.shuffle(deck)
        _play(state, deck, players, watchers)
        if state.result is None:  # pragma: no cover - _play runs to the end
            raise RuntimeError("round did not finish")
        match.record(state.result)
    return MatchRecord(match.scores, match.winner, match.rounds_played)


def _play(state: RoundState, deck: list[int], players: Sequence[Strategy], watchers: list[int]) -> None:
    """The round to its end, as ``rules.simulate.play_round`` plays it, showing the observers
    what the protocol shows a peer: the board after each reveal, the opponent's every move."""
    while state.result is None:
        need = state.need
        if type(need) is NeedReveal:
            for p in need.positions:
                state.reveal(p, deck[p])
            for seat in watchers:
                show_round(players[seat], state.view(seat))
            continue
        assert isinstance(need, NeedAction)
        action = players[need.seat].choose(state.view(need.seat), state.legal_actions())
        state.apply(need.seat, action)
        for seat in watchers:
            if seat != need.seat and state.result is None:
                show_round(players[seat], state.view(seat))
