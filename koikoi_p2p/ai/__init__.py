"""Computer players: the Strategy interface embedders implement, a random and a strong player.

This package sees only the rules engine (what a player at the table could see), never the
protocol or the network, so a strategy cannot peek at anything a human would not know.
"""

from __future__ import annotations

from koikoi_p2p.ai.strategy import RandomPlayer, Strategy, StrategyError
from koikoi_p2p.ai.strong import StrongPlayer

__all__ = ["RandomPlayer", "Strategy", "StrategyError", "StrongPlayer"]
