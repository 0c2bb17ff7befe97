"""Abandonment claims (spec/ratings.md §6): recorded beside the rating when the replay upholds
them and the match was rated, never rated themselves, and outweighed by a co-signed result."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from koikoi_p2p.ai.strategy import RandomPlayer
from koikoi_p2p.audit.replay import audit_transcript
from koikoi_p2p.net.match import Match
from koikoi_p2p.net.memory import memory_pair
from koikoi_p2p.protocol.abandonment import AbandonmentClaim, encode_abandonment, sign_claim
from koikoi_p2p.protocol.events import ChoiceNeeded, MatchOver, YourTurn
from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.transcript import Transcript, decode_transcript, encode_transcript
from koikoi_p2p.ratings.board import export_json, leaderboard, recompute
from koikoi_p2p.ratings.checks import check_abandonment, check_result
from koikoi_p2p.ratings.errors import Refused
from koikoi_p2p.ratings.store import Store
from koikoi_p2p.rules.profile import preset
from tests.ratings.support import signed

SERVICE = "http://127.0.0.1:1"


@dataclass
class Played:
    transcript: Transcript
    result: bytes
    identities: tuple[Identity, Identity]


async def _play(folder: Path, rated: bool) -> Played:
    ids = (Identity.generate(), Identity.generate())
    a, b = memory_pair()
    outcome: dict[int, bytes] = {}

    async def seat(index: int) -> None:
        match = Match(
            (a, b)[index],
            seat=index,
            identity=ids[index],
            room="RATED1",
            profile=preset("nintendo") if index == 0 else None,
            rounds=1 if index == 0 else None,
            store=folder / str(index),
            rated=rated and index == 0,
            ratings=SERVICE if rated and index == 0 else "",
            accept_terms=(lambda terms: True) if index == 1 else None,
        )
        player = RandomPlayer(index)
        async for event in match.events():
            if isinstance(event, (YourTurn, ChoiceNeeded)):
                await match.decide(player.choose(event.view, event.options))
            elif isinstance(event, MatchOver):
                outcome[index] = event.result
                assert event.transcript_path is not None
                if index == 0:
                    outcome[2] = Path(event.transcript_path).read_bytes()

    await asyncio.gather(seat(0), seat(1))
    return Played(decode_transcript(outcome[2]), outcome[0], ids)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Played]:
    folder = tmp_path_factory.mktemp("claims")
    return {rated: asyncio.run(_play(folder / str(rated), rated)) for rated in (True, False)}


def claim_file(game: Played, n: int, *, truthful: bool = True) -> bytes:
    """The claim the waiting seat signs when the transcript stops after ``n`` envelopes."""
    envelopes = game.transcript.envelopes[:n]
    cut = Transcript(
        handshake=game.transcript.handshake,
        envelopes=envelopes,
        closed=False,
        session=game.transcript.session,
    )
    report = audit_transcript(cut)
    assert report.waiting_for is not None
    absent = report.waiting_for if truthful else 1 - report.waiting_for
    assert report.waiting is not None                   # (seat, message type, deadline): what a claim names
    _, expected, deadline = report.waiting
    claim = AbandonmentClaim(
        session_id=game.transcript.session.session_id,
        seq=n,
        head=cut.head,
        claimant=1 - absent,
        absent=absent,
        expected=expected,
        deadline=deadline,
    )
    signature = sign_claim(game.identities[1 - absent], claim)
    return encode_abandonment(
        encode_transcript(game.transcript.handshake, envelopes, closed=False), claim, signature
    )


def players_of(board: dict[str, object]) -> list[dict[str, object]]:
    """The ``players`` of a leaderboard (GET /ratings), one object each."""
    players = board["players"]
    assert isinstance(players, list)
    return players


def test_an_upheld_claim_of_a_rated_match_is_shown_until_a_result_outweighs_it(
    played: dict[bool, Played], store: Store
) -> None:
    game = played[True]
    store.count(check_result(signed(*game.identities)))  # both are rated players already
    data = claim_file(game, 2)
    claim = check_abandonment(data)
    assert claim.session == game.transcript.session.session_id and claim.message == 2
    assert set(game.transcript.session.keys) == {claim.absent, claim.claimant}
    assert store.add_abandonment(claim).counted
    assert not store.add_abandonment(check_abandonment(data)).counted  # one claim per session
    board = leaderboard(*store.standings())
    shown = {p["key"]: p["abandoned"] for p in players_of(board)}
    assert shown == {claim.absent.hex(): 1, claim.claimant.hex(): 0}
    before = [(p["rating"], p["games"]) for p in players_of(board)]
    results, claims = store.exported()
    assert recompute(export_json(results, claims)).board == board
    assert [len(results), len(claims)] == [1, 1]
    store.count(check_result(game.result))  # the same session's co-signed result
    board = leaderboard(*store.standings())
    assert all(p["abandoned"] == 0 for p in players_of(board))
    assert [(p["rating"], p["games"]) for p in players_of(board)] != before
    results, claims = store.exported()
    assert recompute(export_json(results, claims)).board == board


def test_a_claim_against_a_player_with_no_result_is_counted_and_can_be_looked_up(
    played: dict[bool, Played], store: Store
) -> None:
    """A claim alone (terminal QA): the board says it was counted (it said "0 rated players" and
    nothing else), and the absent key can be looked up (it was 404) with its claim and no rating;
    a key no claim names stays unknown."""
    from koikoi_p2p.cli.cmd_ratings import board_text, player_text
    from koikoi_p2p.protocol.identity import fingerprint
    from koikoi_p2p.ratings.service import RatingService

    game = played[True]
    claim = check_abandonment(claim_file(game, 2))
    assert store.add_abandonment(claim).counted
    board = leaderboard(*store.standings())
    assert board["abandonments"] == 1 and players_of(board) == []
    results, claims = store.exported()
    assert recompute(export_json(results, claims)).board == board
    assert f"{SERVICE}: 0 rated players, 0 co-signed results, 1 abandonment claim (never rated)\n" in \
        board_text(board, SERVICE)
    service = RatingService(store, workers=1)
    try:
        by_fingerprint = asyncio.run(service.player(fingerprint(claim.absent)))
        assert by_fingerprint is not None and by_fingerprint["history"] == []
        assert asyncio.run(service.player(claim.absent.hex().upper())) == by_fingerprint
        shown = by_fingerprint["player"]
        assert isinstance(shown, dict) and shown["games"] == 0 and shown["abandoned"] == 1
        assert shown["key"] == claim.absent.hex()
        assert asyncio.run(service.player(fingerprint(claim.claimant))) is None
        # Text that names no key is answered without reading the store (review: each lookup read
        # every standing); the HTML page says "not rated" as the terminal does, not 25 ± 8.
        reads: list[str] = []
        standings = store.standings

        def counted() -> Any:
            reads.append("standings")
            return standings()

        store.standings = counted  # type: ignore[method-assign]
        assert asyncio.run(service.player("no-such-player")) is None and reads == []
        assert asyncio.run(service.player(fingerprint(claim.absent))) is not None and reads == ["standings"]
    finally:
        service.close()
    assert player_text(by_fingerprint) == (f"(no name)  {fingerprint(claim.absent)}: not rated (no counted "
                                           "result), 1 abandonment claim")
    from koikoi_p2p.ratings.app import player_page

    page = player_page(by_fingerprint)
    assert "not rated (no counted result)" in page and "rating 25" not in page, page


def test_claims_that_are_refused(played: dict[bool, Played]) -> None:
    with pytest.raises(Refused) as caught:
        check_abandonment(claim_file(played[False], 2))
    assert caught.value.reason == "unrated"
    with pytest.raises(Refused) as caught:
        check_abandonment(claim_file(played[True], 2, truthful=False))
    assert caught.value.reason == "claim_not_upheld"
    with pytest.raises(Refused) as caught:
        check_abandonment(b"KOIKOI-not-a-claim")
    assert caught.value.reason == "not_a_claim"
    with pytest.raises(Refused) as caught:
        check_abandonment(played[True].result)
    assert caught.value.reason == "not_a_claim"
