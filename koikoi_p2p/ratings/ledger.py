"""Applying one counted result to the two players' standings: the one rule the service and
``recompute`` share (spec/ratings.md §4), so both reach the same standings from the same results.

Pure: a player's row before, the result and its sequence number in, the rows after and the two
history lines out. The store calls it inside its transaction; recompute calls it over an export.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from koikoi_p2p.protocol.identity import fingerprint
from koikoi_p2p.protocol.results import MatchResult
from koikoi_p2p.ratings.system import Rating, rate


@dataclass(frozen=True, slots=True)
class Player:
    """A player's standing: the key is the identity; the name is the one of their latest result."""

    key: bytes
    name: str
    rating: Rating
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    last_seq: int = 0

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    @classmethod
    def new(cls, key: bytes, name: str) -> Player:
        return cls(key=key, name=name, rating=Rating())


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One counted match as one of its players saw it."""

    seq: int
    key: bytes
    seat: int
    opponent: bytes
    outcome: str  # "win", "loss" or "draw"
    before: Rating
    after: Rating


def outcome(seat: int, winner: int | None) -> str:
    return "draw" if winner is None else ("win" if winner == seat else "loss")


def apply(
    result: MatchResult, seq: int, players: tuple[Player | None, Player | None]
) -> tuple[tuple[Player, Player], tuple[HistoryLine, HistoryLine]]:
    """Both players after result number ``seq``; a player seen for the first time starts new."""
    p0, p1 = (players[seat] or Player.new(result.keys[seat], result.names[seat]) for seat in (0, 1))
    r0, r1 = rate(p0.rating, p1.rating, result.winner)
    after: list[Player] = []
    lines: list[HistoryLine] = []
    for seat, player, new in ((0, p0, r0), (1, p1, r1)):
        kind = outcome(seat, result.winner)
        after.append(
            replace(
                player,
                name=result.names[seat],
                rating=new,
                games=player.games + 1,
                wins=player.wins + (kind == "win"),
                losses=player.losses + (kind == "loss"),
                draws=player.draws + (kind == "draw"),
                last_seq=seq,
            )
        )
        lines.append(
            HistoryLine(
                seq=seq,
                key=player.key,
                seat=seat,
                opponent=result.keys[1 - seat],
                outcome=kind,
                before=player.rating,
                after=new,
            )
        )
    return (after[0], after[1]), (lines[0], lines[1])


def ranked(players: list[Player]) -> list[Player]:
    """The leaderboard order: the conservative rating, highest first; ties by key, so the order
    is total and the same everywhere."""
    return sorted(players, key=lambda p: (-p.rating.conservative, p.key))
