"""The rules engine as the game protocol uses it: one narrow seam (spec/game.md §5).

Keeping every call into ``koikoi_p2p.rules`` here makes the protocol's dependence on the engine
explicit: rounds, the match tally, and the wire forms of actions and results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from koikoi_p2p.rules.actions import Action, ClaimHandYaku, action_from_dict
from koikoi_p2p.rules.deal import FirstDealer as FirstDealerStep
from koikoi_p2p.rules.deal import choose_first_dealer
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
    def hand_yaku_options(self, seat: int) -> tuple[Action, ...]: ...
    def check_claim(self, seat: int, claim: ClaimHandYaku, cards: tuple[int, ...]) -> None: ...


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


# -- the first dealer (spec/game.md §5.1, spec/rules.md §5.1) --------------------------------------

def fixed_first_dealer(profile: Profile) -> int | None:
    """The first dealer when the profile names it without a deal 0 (``host``: seat 0, ``joiner``:
    seat 1), else None (``card_draw`` and ``coin`` reveal cards of deal 0)."""
    return choose_first_dealer(profile, ()).dealer


def first_dealer_step(profile: Profile, cards: Sequence[int]) -> FirstDealerStep:
    """From the cards of deal 0 revealed so far (position 0 first): the first dealer, or the
    positions to reveal next (``rules.md`` §5.1, ``choose_first_dealer``)."""
    return choose_first_dealer(profile, list(cards))
