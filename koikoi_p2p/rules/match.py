"""The match: rounds, dealers, months, the scoring pool and the end (spec/rules.md §11).

The state is nothing more than the profile, the first dealer and the list of round results; it is
rebuilt by replaying that list, so both peers (and an auditor) agree on it by construction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import Profile
from koikoi_p2p.rules.round import RoundResult, RoundState

__all__ = ["MatchState", "RoundParams"]


@dataclass(frozen=True, slots=True)
class RoundParams:
    """What the next round needs: its number, its dealer and its month."""

    round_index: int
    dealer: int
    month: int


class MatchState:
    """Scores and progress of a match under a profile."""

    __slots__ = ("_scores", "dealer", "deals", "first_dealer", "over", "profile", "results", "round_index",
                 "winner")

    def __init__(self, profile: Profile, first_dealer: int) -> None:
        if type(first_dealer) is not int or first_dealer not in (0, 1):
            raise RulesError("bad_seat", "first_dealer must be seat 0 or 1")
        self.profile = profile
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.round_index = 1            # number of the next round (redeals that do not count keep it)
        self.deals = 0                  # every dealt round, redeals included
        self._scores = [profile.pool_start, profile.pool_start]
        self.results: list[RoundResult] = []
        self.over = False
        self.winner: int | None = None

    @property
    def scores(self) -> tuple[int, int]:
        return (self._scores[0], self._scores[1])

    @property
    def rounds_played(self) -> int:
        return self.round_index - 1

    def round_params(self) -> RoundParams:
        """Number, dealer and month of the next round; the month follows the round number."""
        if self.over:
            raise RulesError("match_over", "the match is over")
        # spec/rules.md §11.2: round n is month ((n - 1) mod 12) + 1.
        return RoundParams(round_index=self.round_index, dealer=self.dealer,
                           month=(self.round_index - 1) % 12 + 1)

    def new_round(self, viewer: int | None) -> RoundState:
        """A fresh round state for the next round, seen by ``viewer``."""
        params = self.round_params()
        return RoundState(profile=self.profile, dealer=params.dealer, viewer=viewer,
                          round_index=params.round_index, month=params.month)

    def record(self, result: RoundResult) -> None:
        """Apply a round's result: points or pool transfer, next dealer, next round, game over."""
        if self.over:
            raise RulesError("match_over", "the match is over")
        if result.winner not in (None, 0, 1) or result.next_dealer not in (0, 1) or result.points < 0:
            raise RulesError("bad_result", "winner, next dealer or points out of range")
        if result.redeal and (result.winner is not None or result.points):
            raise RulesError("bad_result", "a redeal scores nothing")
        p = self.profile
        self.results.append(result)
        self.deals += 1
        self.dealer = result.next_dealer
        if result.winner is not None and result.points:
            w, loser = result.winner, 1 - result.winner
            if p.pool_start:
                # spec/rules.md §11.3: the loser pays the winner (capped at what is left if so set).
                paid = min(result.points, max(self._scores[loser], 0)) if p.transfer_cap else result.points
                self._scores[w] += paid
                self._scores[loser] -= paid
            else:
                self._scores[w] += result.points
                if p.subtract_from_opponent:
                    # spec/rules.md §11.3: the winner's points are also taken off the loser.
                    self._scores[loser] -= result.points
        if not result.redeal or result.consumes_round:
            self.round_index += 1
        self._check_over()

    def _check_over(self) -> None:
        p = self.profile
        s = self._scores
        # spec/rules.md §11.4, in this order: bust, target score, last round.
        if p.bust_ends_game and min(s) <= 0:
            self._end(0 if s[1] <= 0 < s[0] else 1 if s[0] <= 0 < s[1] else None)
            return
        if p.target_score and max(s) >= p.target_score:
            self._end_by_scores(allow_extra=False)
            return
        if p.rounds and self.rounds_played >= p.rounds:
            self._end_by_scores(allow_extra=True)

    def _end_by_scores(self, *, allow_extra: bool) -> None:
        s = self._scores
        if s[0] != s[1]:
            self._end(0 if s[0] > s[1] else 1)
        elif not (allow_extra and self.profile.match_tie == "extra_round"):
            self._end(None)

    def _end(self, winner: int | None) -> None:
        self.over = True
        self.winner = winner

    # -- persistence -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        """Plain data from which ``from_dict`` rebuilds the identical state."""
        return {"profile": self.profile.to_dict(), "first_dealer": self.first_dealer,
                "results": [r.to_dict() for r in self.results]}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> MatchState:
        profile_data, first, results = data.get("profile"), data.get("first_dealer"), data.get("results")
        if not isinstance(profile_data, Mapping) or type(first) is not int or not isinstance(results, list):
            raise RulesError("bad_match", "profile, first_dealer and results are required")
        state = cls(Profile.from_dict(profile_data), first)
        for item in results:
            if not isinstance(item, dict):
                raise RulesError("bad_match", "a result is a mapping")
            state.record(RoundResult.from_dict(item))
        return state
