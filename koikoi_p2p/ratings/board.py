"""The leaderboard, a player's history and the export, as JSON values (spec/ratings.md §7).

One function builds the leaderboard from standings, whether they come from the store or from
``recompute``, so the two can be compared as values: equal means equal in every float.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar

from koikoi_p2p.phrase import Phrase, Word
from koikoi_p2p.protocol.identity import fingerprint
from koikoi_p2p.ratings.checks import check_abandonment, check_result
from koikoi_p2p.ratings.errors import Refused
from koikoi_p2p.ratings.ledger import HistoryLine, Player, apply, ranked
from koikoi_p2p.ratings.store import Exported
from koikoi_p2p.ratings.system import parameters

EXPORT_FORMAT = "koikoi-p2p/ratings-export/v1"
T = TypeVar("T")


def player_json(player: Player, abandoned: int, rank: int | None = None) -> dict[str, object]:
    entry: dict[str, object] = {} if rank is None else {"rank": rank}
    entry.update(
        {
            "name": player.name,
            "fingerprint": player.fingerprint,
            "key": player.key.hex(),
            "rating": player.rating.mu,
            "deviation": player.rating.sigma,
            "conservative": player.rating.conservative,
            "games": player.games,
            "wins": player.wins,
            "losses": player.losses,
            "draws": player.draws,
            "abandoned": abandoned,
        }
    )
    return entry


def leaderboard(players: Iterable[Player], abandoned: Mapping[bytes, int], results: int) -> dict[str, object]:
    """GET /ratings: every rated player in leaderboard order, and how many claims stand (§6.2:
    those of a session with no counted result, against a rated player or not)."""
    return {
        "system": parameters(),
        "results": results,
        "abandonments": sum(abandoned.values()),
        "players": [
            player_json(p, abandoned.get(p.key, 0), rank)
            for rank, p in enumerate(ranked(list(players)), start=1)
        ],
    }


def history_json(
    player: Player, abandoned: int, lines: Iterable[HistoryLine], names: Mapping[bytes, str]
) -> dict[str, object]:
    """GET /ratings/PLAYER: the player and every counted match of theirs, oldest first."""
    return {
        "player": player_json(player, abandoned),
        "history": [
            {
                "seq": line.seq,
                "seat": line.seat,
                "opponent": line.opponent.hex(),
                "opponent_fingerprint": fingerprint(line.opponent),
                "opponent_name": names.get(line.opponent, ""),
                "outcome": line.outcome,
                "rating_before": line.before.mu,
                "deviation_before": line.before.sigma,
                "rating_after": line.after.mu,
                "deviation_after": line.after.sigma,
            }
            for line in lines
        ],
    }


def export_json(results: Iterable[Exported], abandonments: Iterable[Exported]) -> dict[str, object]:
    """GET /ratings/results: every counted co-signed result and every recorded claim, in order."""
    return {
        "format": EXPORT_FORMAT,
        "system": parameters(),
        "results": [{"seq": r.seq, "accepted_at": r.accepted_at, "result": _b64(r.data)} for r in results],
        "abandonments": [
            {"seq": a.seq, "accepted_at": a.accepted_at, "claim": _b64(a.data)} for a in abandonments
        ],
    }


class ExportError(Exception):
    """An export that cannot be replayed: malformed, out of order, or holding a result the
    service should never have counted."""


@dataclass(frozen=True, slots=True)
class Recomputed:
    board: dict[str, object]
    results: int
    abandonments: int


def recompute(export: Mapping[str, object]) -> Recomputed:
    """Rebuild the leaderboard from an export (spec/ratings.md §7.4): every result checked again
    as the service checks it and applied in sequence order (§4.3), every claim checked again
    (a replay of its transcript) and counted as §6.2 says."""

    if export.get("format") != EXPORT_FORMAT:
        raise ExportError(Phrase("not a ratings export ({format})", format=EXPORT_FORMAT))
    entries, claims = export.get("results"), export.get("abandonments", [])
    if not isinstance(entries, list) or not isinstance(claims, list):
        raise ExportError(Phrase("results and abandonments must be lists"))
    players: dict[bytes, Player] = {}
    sessions: set[bytes] = set()
    for seq, rated in _checked(entries, "result", check_result):
        if rated.session in sessions:
            raise ExportError(Phrase("result {seq} counts session {session} a second time", seq=seq,
                                     session=rated.session.hex()))
        sessions.add(rated.session)
        keys = rated.result.keys
        after, _ = apply(rated.result, seq, (players.get(keys[0]), players.get(keys[1])))
        players[keys[0]], players[keys[1]] = after
    abandoned: dict[bytes, int] = {}
    claimed: set[bytes] = set()
    for seq, claim in _checked(claims, "claim", check_abandonment):
        if claim.session in claimed:
            raise ExportError(Phrase("claim {seq} is a second claim about session {session}", seq=seq,
                                     session=claim.session.hex()))
        claimed.add(claim.session)
        if claim.session not in sessions:
            abandoned[claim.absent] = abandoned.get(claim.absent, 0) + 1
    return Recomputed(
        board=leaderboard(players.values(), abandoned, len(entries)),
        results=len(entries),
        abandonments=len(claims),
    )


def _checked(entries: list[object], field: str, check: Callable[[bytes], T]) -> Iterator[tuple[int, T]]:
    """Each entry's seq and checked value, in order; ``ExportError`` for a gap or a failed check."""
    for expected, entry in enumerate(entries, start=1):
        seq, data = _entry(entry, field)
        if seq != expected:
            raise ExportError(Phrase("{field} number {expected} has seq {seq}: the export is not in order",
                                     field=Word(field), expected=expected, seq=seq))
        try:
            yield seq, check(data)
        except Refused as exc:
            raise ExportError(Phrase("{field} {seq} does not pass the service's checks: {reason}: {message}",
                                     field=Word(field), seq=seq, reason=Word(exc.reason),
                                     message=exc.message)) from None


def _entry(entry: object, field: str) -> tuple[int, bytes]:
    if (
        not isinstance(entry, dict)
        or type(entry.get("seq")) is not int
        or not isinstance(entry.get(field), str)
    ):
        raise ExportError(Phrase("an export entry is {{'seq': int, '{field}': base64, ...}}",
                                 field=Word(field)))
    try:
        return entry["seq"], base64.b64decode(entry[field], validate=True)
    except (binascii.Error, ValueError):
        raise ExportError(Phrase("entry {seq}: {field} is not base64", seq=entry["seq"],
                                 field=Word(field))) from None


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def dumps(value: object) -> bytes:
    """The service's JSON: UTF-8, floats written so they read back exactly."""
    return (json.dumps(value, ensure_ascii=False, sort_keys=False) + "\n").encode("utf-8")
