"""The interface a computer player implements, and the simplest player that honours it.

A strategy receives the public view of the round from its own seat and the legal actions the
rules engine offers, and returns one of those actions. It never sees hidden cards and never
invents an action: choosing from ``options`` keeps every computer move legal by construction.

A strategy may also want the match around the round (the agreed profile, the scores so far):
one with a ``match_update(context)`` method is told a ``MatchContext`` before every round by
whoever drives it (``tell_match``); one without it is simply never told. One with an
``observe(view)`` method is shown its seat's view after every public change of the round (the
opponent's moves, each reveal), in order (``show_round``): the public history a person at the
table remembers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from koikoi_p2p.rules.actions import Action
    from koikoi_p2p.rules.profile import Profile
    from koikoi_p2p.rules.round import RoundView


class StrategyError(ValueError):
    """A strategy was asked to choose among no options (the caller's mistake)."""

    reason = "no_options"


@runtime_checkable
class Strategy(Protocol):
    """Anything that picks one of the legal actions given the public view of the round."""

    def choose(self, view: RoundView, options: Sequence[Action]) -> Action:
        """Return one element of ``options``."""
        ...


@dataclass(frozen=True, slots=True)
class MatchContext:
    """What both seats know of the match before a round: the agreed rules and the scores.

    ``scores`` are seat 0's and seat 1's (points, or pools under a pool profile) before the
    round; ``rounds_played`` counts the rounds already played (spec/rules.md §11.1).
    """

    profile: Profile
    scores: tuple[int, int]
    rounds_played: int = 0


@runtime_checkable
class MatchAware(Protocol):
    """A strategy that wants the match context; ``match_update`` is called before each round."""

    def match_update(self, context: MatchContext) -> None:
        ...


@runtime_checkable
class RoundObserver(Protocol):
    """A strategy that follows the round's public history; ``observe`` gets every view in order."""

    def observe(self, view: RoundView) -> None:
        ...


def show_round(strategy: object, view: RoundView) -> None:
    """Show ``strategy`` its seat's view after a public change, if it follows the round."""
    if isinstance(strategy, RoundObserver):
        strategy.observe(view)


def tell_match(strategy: object, context: MatchContext) -> None:
    """Give ``strategy`` the match context if it asks for it (a no-op for the others)."""
    if isinstance(strategy, MatchAware):
        strategy.match_update(context)


class RandomPlayer:
    """Picks uniformly among the legal actions; seeded for reproducible games (not for crypto)."""

    def __init__(self, seed: int | None = None) -> None:
        # random.Random is fine here: a computer player's whims protect no secret.
        self._random = random.Random(seed)  # noqa: S311

    def choose(self, view: RoundView, options: Sequence[Action]) -> Action:
        if not options:
            raise StrategyError("RandomPlayer.choose needs at least one legal action")
        return options[self._random.randrange(len(options))]
