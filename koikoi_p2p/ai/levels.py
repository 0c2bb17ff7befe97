"""The computer's levels, weakest first, and the player each one names.

``easy`` is the random player, ``medium`` the greedy one (greedy.py), ``strong`` the one-ply
yaku player with koi-koi rollouts (strong.py), ``master`` the determinised search (master.py),
``expert`` that search with the learned value network at its leaves (expert.py, value.py).
"""

from __future__ import annotations

from koikoi_p2p.ai.expert import ExpertPlayer
from koikoi_p2p.ai.greedy import GreedyPlayer
from koikoi_p2p.ai.master import DEFAULT_MAX_SECONDS, DEFAULT_SIMULATIONS, MasterPlayer
from koikoi_p2p.ai.strategy import RandomPlayer, Strategy
from koikoi_p2p.ai.strong import StrongPlayer
from koikoi_p2p.rules.profile import Profile

LEVELS: tuple[str, ...] = ("easy", "medium", "strong", "master", "expert")
RUNGS: dict[str, str] = {"easy": "random", "medium": "greedy", "strong": "strong", "master": "master",
                         "expert": "expert"}


def computer_player(level: str, profile: Profile, seed: int | None = None, *,
                    simulations: int = DEFAULT_SIMULATIONS,
                    max_seconds: float | None = DEFAULT_MAX_SECONDS) -> Strategy:
    """The computer player of ``level`` for ``profile``; ``seed`` makes it reproducible.

    ``simulations`` and ``max_seconds`` are the master's (and the expert's) budget per decision
    (playouts, and a
    wall-time cap; None: no cap, so a seed fixes every choice).
    """
    if level == "easy":
        return RandomPlayer(seed)
    if level == "medium":
        return GreedyPlayer(profile, seed)
    if level == "strong":
        return StrongPlayer(profile, seed)
    if level == "master":
        return MasterPlayer(profile, seed, simulations=simulations, max_seconds=max_seconds)
    if level == "expert":
        return ExpertPlayer(profile, seed, simulations=simulations, max_seconds=max_seconds)
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
