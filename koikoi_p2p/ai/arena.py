"""Whole matches between two strategies through the rules engine alone (no crypto, no network).

This measures players, not the protocol: every card is known to the engine, each strategy only
gets the view of its own seat and the legal options, exactly as over the wire.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from koikoi_p2p.ai.strategy import Strategy
from koikoi_p2p.rules.actions import Action
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
    """One match, seat 0 = players[0]; the deck shuffles and the first dealer come from ``rng``."""
    total_rounds = rounds if rounds is not None else profile.rounds
    scores = [profile.pool_start, profile.pool_start]
    dealer = rng.randrange(2)
    round_index = 1
    deal = 0

    def choose(state: RoundState, options: tuple[Action, ...]) -> Action:
        need = state.need
        if not isinstance(need, NeedAction):  # play_round only asks when an action is needed
            raise RuntimeError("a choice was asked while no action is awaited")
        return players[need.seat].choose(state.view(need.seat), options)

    while deal < MAX_DEALS:
        deal += 1
        month = (deal - 1) % 12 + 1 if profile.redeal_consumes_round else (round_index - 1) % 12 + 1
        state = RoundState(profile=profile, dealer=dealer, viewer=None, round_index=round_index, month=month)
        deck = list(range(48))
        rng.shuffle(deck)
        play_round(state, deck, choose)
        result = state.result
        if result is None:  # pragma: no cover - play_round runs to the end
            raise RuntimeError("round did not finish")
        if result.winner is not None and result.points:
            gain = result.points
            if profile.pool_start:
                loser = scores[1 - result.winner]
                gain = min(gain, loser) if profile.transfer_cap else gain
                scores[1 - result.winner] -= gain
            scores[result.winner] += gain
        dealer = result.next_dealer
        if result.consumes_round:
            round_index += 1
        if profile.bust_ends_game and profile.pool_start and min(scores) <= 0:
            break
        if profile.target_score and max(scores) >= profile.target_score:
            break
        if total_rounds and round_index > total_rounds:
            break
    winner = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    return MatchRecord((scores[0], scores[1]), winner, round_index - 1)
