"""Whole matches between two strategies through the rules engine alone (no crypto, no network).

This measures players, not the protocol: every card is known to the engine, each strategy only
gets the view of its own seat and the legal options, exactly as over the wire.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from koikoi_p2p.ai.strategy import MatchContext, Strategy, tell_match
from koikoi_p2p.rules.actions import Action
from koikoi_p2p.rules.match import MatchState
from koikoi_p2p.rules.profile import Profile
from koikoi_p2p.rules.round import NeedAction, RoundState
from koikoi_p2p.rules.simulate import play_round

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

    def choose(state: RoundState, options: tuple[Action, ...]) -> Action:
        need = state.need
        if not isinstance(need, NeedAction):  # play_round only asks when an action is needed
            raise RuntimeError("a choice was asked while no action is awaited")
        return players[need.seat].choose(state.view(need.seat), options)

    while not match.over and match.deals < MAX_DEALS:
        context = MatchContext(profile=profile, scores=match.scores, rounds_played=match.rounds_played)
        for player in players:
            tell_match(player, context)
        state = match.new_round(viewer=None)
        deck = list(range(48))
        rng.shuffle(deck)
        play_round(state, deck, choose)
        if state.result is None:  # pragma: no cover - play_round runs to the end
            raise RuntimeError("round did not finish")
        match.record(state.result)
    return MatchRecord(match.scores, match.winner, match.rounds_played)
