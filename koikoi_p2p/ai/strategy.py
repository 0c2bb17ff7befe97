"""The interface a computer player implements, and the simplest player that honours it.

A strategy receives the public view of the round from its own seat and the legal actions the
rules engine offers, and returns one of those actions. It never sees hidden cards and never
invents an action: choosing from ``options`` keeps every computer move legal by construction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from koikoi_p2p.rules.actions import Action
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


class RandomPlayer:
    """Picks uniformly among the legal actions; seeded for reproducible games (not for crypto)."""

    def __init__(self, seed: int | None = None) -> None:
        # random.Random is fine here: a computer player's whims protect no secret.
        self._random = random.Random(seed)  # noqa: S311

    def choose(self, view: RoundView, options: Sequence[Action]) -> Action:
        if not options:
            raise StrategyError("RandomPlayer.choose needs at least one legal action")
        return options[self._random.randrange(len(options))]
