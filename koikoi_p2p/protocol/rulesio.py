"""The rules engine as the game protocol uses it: one narrow seam (spec/game.md §5).

Keeping every call into ``koikoi_p2p.rules`` here makes the protocol's dependence on the engine
explicit: rounds, the match tally, and the wire forms of actions and results.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from koikoi_p2p.rules.actions import Action, action_from_dict
from koikoi_p2p.rules.profile import Profile
from koikoi_p2p.rules.round import Need, RoundResult, RoundState, RoundView

if TYPE_CHECKING:
    from koikoi_p2p.rules.match import MatchState


class Engine(Protocol):
    """What the flow needs of a round engine (``RoundState``)."""

    need: Need | None
    result: RoundResult | None

    def reveal(self, position: int, card: int) -> None: ...
    def skip_reveal(self) -> None: ...
    def apply(self, seat: int, action: Action) -> None: ...
    def legal_actions(self) -> tuple[Action, ...]: ...
    def view(self, seat: int | None = None) -> RoundView: ...


def new_round(profile: Profile, *, dealer: int, viewer: int | None, round_index: int,
              month: int) -> RoundState:
    return RoundState(profile=profile, dealer=dealer, viewer=viewer, round_index=round_index, month=month)


def new_match(profile: Profile, first_dealer: int) -> MatchState:
    from koikoi_p2p.rules import match

    return match.MatchState(profile, first_dealer)


def round_params(match: MatchState) -> tuple[int, int, int]:
    """(round_index, dealer, month) of the next deal."""
    params = match.round_params()
    return params.round_index, params.dealer, params.month


def record_result(match: MatchState, result: RoundResult) -> None:
    match.record(result)


def action_from_wire(data: Mapping[str, object]) -> Action:
    return action_from_dict(data)


def action_to_wire(action: Action) -> dict[str, object]:
    return action.to_dict()


def result_to_wire(result: RoundResult) -> dict[str, object]:
    return result.to_dict()
