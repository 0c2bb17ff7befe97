"""A resignation ends in a co-signed result (spec/game.md §6.3) that the service counts as an
ordinary win of the other seat (spec/ratings.md §4.2), on both backends; recompute agrees."""

from __future__ import annotations

import asyncio

import pytest

from koikoi_p2p.net.match import Match
from koikoi_p2p.net.memory import memory_pair
from koikoi_p2p.net.selfplay import seeded_identity
from koikoi_p2p.protocol.events import ChoiceNeeded, Failure, MatchOver, YourTurn
from koikoi_p2p.ratings.board import export_json, leaderboard, recompute
from koikoi_p2p.ratings.checks import check_result
from koikoi_p2p.ratings.store import Store
from koikoi_p2p.rules.profile import preset

SERVICE = "http://127.0.0.1:9/"
HOST, GUEST = seeded_identity(b"ratings-resign/host"), seeded_identity(b"ratings-resign/guest")


async def _play_and_resign() -> tuple[MatchOver, MatchOver]:
    """A rated match in memory; the joiner resigns at its first prompt. Three rounds: a round can
    end at the deal (a dealt-hand yaku) before the joiner is asked anything (CI)."""
    left, right = memory_pair()
    host = Match(left, seat=0, identity=HOST, room="RESIGN", profile=preset("nintendo"), rounds=3,
                 store=None, name="host", rated=True, ratings=SERVICE)
    guest = Match(right, seat=1, identity=GUEST, room="RESIGN", store=None, name="guest",
                  accept_terms=lambda terms: terms.rated and terms.ratings == SERVICE)

    async def run(match: Match, resigns: bool) -> MatchOver:
        async for event in match.events():
            if isinstance(event, (YourTurn, ChoiceNeeded)):
                if resigns and match.can_resign():
                    await match.resign()
                else:
                    await match.decide(event.options[0])
            elif isinstance(event, MatchOver):
                return event
            elif isinstance(event, Failure):
                raise AssertionError(f"{event.reason}: {event.message}")
        raise AssertionError("the match ended without a result")

    over = await asyncio.wait_for(asyncio.gather(run(host, False), run(guest, True)), timeout=120)
    return over[0], over[1]


@pytest.fixture(scope="module")
def resigned() -> tuple[MatchOver, MatchOver]:
    return asyncio.run(_play_and_resign())


def test_a_resigned_result_passes_every_check(resigned: tuple[MatchOver, MatchOver]) -> None:
    host, guest = resigned
    assert host.resigned == guest.resigned == 1 and host.winner == 0
    assert host.result == guest.result  # both seats hold the same co-signed file
    rated = check_result(host.result)
    assert rated.result.resigned == 1 and rated.result.winner == 0 and rated.result.rated
    assert rated.result.names == ("host", "guest")


def test_a_resignation_counts_once_as_a_win_of_the_other_seat(
    resigned: tuple[MatchOver, MatchOver], store: Store
) -> None:
    host, guest = resigned
    first = store.count(check_result(host.result))
    again = store.count(check_result(guest.result))
    assert first.counted and not again.counted and again.seq == first.seq
    players = {p.name: p for p in store.standings()[0]}
    assert (players["host"].wins, players["guest"].losses) == (1, 1)
    assert players["host"].rating.mu > players["guest"].rating.mu
    assert [h.outcome for h in store.history(GUEST.public_key)] == ["loss"]
    board = leaderboard(*store.standings())
    assert recompute(export_json(*store.exported())).board == board
