"""What a round's result is worth to the match: the chance of winning it, roughly, after the round.

A point is not always worth the same: ahead late in a match a safe small win beats a risky big
one, behind it is the other way round. The search player therefore values a round outcome by
an estimate of its match-win chance: the scores after the round (spec/rules.md §11.3, pools,
caps and subtraction included), the match over if §11.4 ends it (a win 1, a draw 1/2, a loss 0),
else a normal approximation: the score difference over the spread of the rounds still to play.
This is a heuristic for choosing moves, never the authority on scores (the rules engine is).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, fields
from typing import Any

from koikoi_p2p.rules.actions import Action
from koikoi_p2p.rules.profile import PRESETS, Profile
from koikoi_p2p.rules.round import NeedAction, RoundState
from koikoi_p2p.rules.simulate import play_round

# Spread of one round's points for each profile, measured once by playouts (see ``spread``).
_SPREADS: dict[tuple[Any, ...], tuple[float, float]] = {}


@dataclass(frozen=True, slots=True)
class Position:
    """The match before this round, from my seat: both scores and the rounds already played."""

    mine: int
    theirs: int
    rounds_played: int


class MatchUtility:
    """``value(delta)``: the match-win estimate after a round that gives me ``delta`` points
    (negative: the opponent scores ``-delta``). Memoised per delta."""

    def __init__(self, profile: Profile, position: Position) -> None:
        self.profile = profile
        self.position = position
        sd, mean_gain = spread(profile)
        scale = 2.0 if profile.pool_start or profile.subtract_from_opponent else 1.0
        self._sd = max(sd * scale, 1e-9)
        self._mean_gain = max(mean_gain, 1e-9)
        self._memo: dict[float, float] = {}
        here = self.value(0.0)
        self.slope = max((self.value(sd) - self.value(-sd)) / (2 * sd), 0.0) if sd > 0 else 0.0
        self.now = here

    def value(self, delta: float) -> float:
        found = self._memo.get(delta)
        if found is None:
            found = self._memo[delta] = self._value(delta)
        return found

    def _value(self, delta: float) -> float:
        p = self.profile
        mine, theirs = self._after(delta)
        played = self.position.rounds_played + 1
        # spec/rules.md §11.4, in this order: bust, target score, last round.
        if p.bust_ends_game and min(mine, theirs) <= 0:
            return 1.0 if theirs <= 0 < mine else 0.0 if mine <= 0 < theirs else 0.5
        if p.target_score and max(mine, theirs) >= p.target_score:
            return _outcome(mine, theirs)
        if p.rounds:
            left = p.rounds - played
            if left <= 0:
                if mine == theirs and p.match_tie == "extra_round":
                    return 0.5
                return _outcome(mine, theirs)
        else:
            left = max(1, math.ceil((p.target_score - max(mine, theirs)) / self._mean_gain))
        z = (mine - theirs) / (self._sd * math.sqrt(left))
        return 0.5 * math.erfc(-z / math.sqrt(2.0))

    def _after(self, delta: float) -> tuple[float, float]:
        """Both scores after the round (§11.3): points added, or paid from pool to pool."""
        p = self.profile
        mine, theirs = float(self.position.mine), float(self.position.theirs)
        points = abs(delta)
        if not points:
            return mine, theirs
        winner_is_me = delta > 0
        loser = theirs if winner_is_me else mine
        if p.pool_start:
            paid = min(points, max(loser, 0.0)) if p.transfer_cap else points
            gain, loss = paid, paid
        else:
            gain, loss = points, (points if p.subtract_from_opponent else 0.0)
        if winner_is_me:
            return mine + gain, theirs - loss
        return mine - loss, theirs + gain


def _outcome(mine: float, theirs: float) -> float:
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


# The presets' spreads as measure_spread finds them (tests/unit/test_ai_ladder.py checks each; the
# JavaScript table, web/src/ai/utility.js, holds the same numbers). Measuring takes about 0.5 s of
# CPU, and a search player measures at its first decision, outside its time cap. One round's play
# does not read the number of rounds, so these serve a preset over any number of rounds.
PRESET_SPREADS: dict[str, tuple[float, float]] = {
    "nintendo": (9.098585970724606, 5.86),
    "koikoi-online": (14.08634326809718, 7.673333333333333),
    "teaching-card": (8.556515386274683, 5.453333333333333),
    "wikipedia": (9.30441949947562, 6.073333333333333),
    "board-game": (8.094579805167292, 5.28),
    "classic-variant": (5.398776610389511, 4.116666666666666),
    "koikoi-japan": (4.46455671558405, 3.26),
}


def _spread_key(profile: Profile) -> tuple[Any, ...]:
    """The profile without its number of rounds (which one round's play never reads)."""
    return tuple(getattr(profile, f.name) for f in fields(profile) if f.name != "rounds")


_KNOWN: dict[tuple[Any, ...], tuple[float, float]] = {}


def spread(profile: Profile) -> tuple[float, float]:
    """(standard deviation of a round's point difference, mean points of a round), by playouts.

    A preset's (over any number of rounds) from PRESET_SPREADS; another profile's measured once
    (measure_spread) and kept.
    """
    key = _spread_key(profile)
    if not _KNOWN:
        _KNOWN.update({_spread_key(PRESETS[name]): value for name, value in PRESET_SPREADS.items()})
    found = _KNOWN.get(key) or _SPREADS.get(key)
    if found is None:
        if len(_SPREADS) > 64:
            _SPREADS.clear()
        found = _SPREADS[key] = measure_spread(profile)
    return found


def measure_spread(profile: Profile) -> tuple[float, float]:
    """``spread`` measured on 300 fixed deals played by two greedy players (who call koi-koi now
    and then, as people do), so it follows the profile's scoring and multipliers, house rules
    included, and is the same on every run."""
    rng = random.Random(20260101)  # noqa: S311 - fixed simulated deals
    outcomes = [_greedy_round(profile, rng, i) for i in range(300)]
    mean = sum(outcomes) / len(outcomes)
    sd = math.sqrt(sum((x - mean) ** 2 for x in outcomes) / len(outcomes))
    gain = sum(abs(x) for x in outcomes) / len(outcomes)
    return sd, gain


def _greedy_round(profile: Profile, rng: random.Random, i: int) -> float:
    """One random deal between two greedy players: seat 0's points (negative: seat 1's)."""
    from koikoi_p2p.ai.greedy import GreedyPlayer  # greedy imports nothing of this module

    players = (GreedyPlayer(profile, 2 * i), GreedyPlayer(profile, 2 * i + 1))
    deck = list(range(48))
    rng.shuffle(deck)
    state = RoundState(profile=profile, dealer=i % 2, viewer=None, round_index=1, month=rng.randrange(1, 13))

    def choose(s: RoundState, options: tuple[Action, ...]) -> Action:
        seat = _seat(s)
        return players[seat].choose(s.view(seat), options)

    play_round(state, deck, choose)
    result = state.result
    if result is None or result.winner is None:
        return 0.0
    return float(result.points if result.winner == 0 else -result.points)


def _seat(state: RoundState) -> int:
    need = state.need
    assert isinstance(need, NeedAction)
    return need.seat
