"""Misuse of the asyncio Match raises LocalMisuse with a reason and leaves the match alone, as
the JavaScript Match does (web/src/api/session.js): QA found these differing."""

from __future__ import annotations

import asyncio

import pytest

from koikoi_p2p.net.match import Match
from koikoi_p2p.net.memory import memory_pair
from koikoi_p2p.net.selfplay import seeded_identity, seeded_rng
from koikoi_p2p.protocol.errors import LocalMisuse
from koikoi_p2p.protocol.events import (
    ChoiceNeeded,
    Event,
    Failure,
    MatchOver,
    Paired,
    TermsAgreed,
    TermsProposed,
    YourTurn,
)


def _pair() -> tuple[Match, Match]:
    a, b = memory_pair()
    host = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", rounds=1, rng=seeded_rng(b"h"))
    guest = Match(b, seat=1, identity=seeded_identity(b"g"), room="ROOM01", rng=seeded_rng(b"g"))
    return host, guest


async def _play(match: Match) -> Event:
    last: Event | None = None
    async for event in match.events():
        last = event
        if isinstance(event, TermsProposed):
            await match.decide_terms(True)
        elif isinstance(event, (YourTurn, ChoiceNeeded)):
            await match.decide(event.options[0])
    assert last is not None
    return last


def test_events_a_second_time_raises_bad_state_and_the_match_goes_on() -> None:
    async def body() -> None:
        host, guest = _pair()
        hosting = asyncio.create_task(_play(host))
        guest_events = guest.events()
        assert isinstance(await guest_events.__anext__(), Paired)
        with pytest.raises(LocalMisuse) as caught:
            guest.events()
        assert caught.value.reason == "bad_state"
        last: Event | None = None
        async for event in guest_events:
            last = event
            if isinstance(event, TermsProposed):
                await guest.decide_terms(True)
            elif isinstance(event, (YourTurn, ChoiceNeeded)):
                await guest.decide(event.options[0])
        assert isinstance(last, MatchOver), last
        assert isinstance(await hosting, MatchOver)

    asyncio.run(asyncio.wait_for(body(), 60))


def test_decide_terms_takes_a_boolean_once() -> None:
    async def body() -> None:
        host, guest = _pair()
        hosting = asyncio.create_task(_play(host))
        guest_events = guest.events()
        assert isinstance(await guest_events.__anext__(), Paired)
        assert isinstance(await guest_events.__anext__(), TermsProposed)
        for answer in ("no", "yes", 0, 1, None):
            with pytest.raises(LocalMisuse) as caught:
                await guest.decide_terms(answer)  # type: ignore[arg-type]
            assert caught.value.reason == "bad_argument"
        await guest.decide_terms(True)
        with pytest.raises(LocalMisuse) as again:
            await guest.decide_terms(True)      # a second answer: as the JavaScript Match
        assert again.value.reason == "not_your_turn"
        last: Event | None = None
        async for event in guest_events:
            last = event
            if isinstance(event, (YourTurn, ChoiceNeeded)):
                await guest.decide(event.options[0])
        assert isinstance(last, MatchOver), last
        assert isinstance(await hosting, MatchOver)

    asyncio.run(asyncio.wait_for(body(), 60))


def test_refusing_with_false_still_refuses() -> None:
    async def body() -> None:
        host, guest = _pair()
        hosting = asyncio.create_task(_play(host))
        guest_events = guest.events()
        assert isinstance(await guest_events.__anext__(), Paired)
        assert isinstance(await guest_events.__anext__(), TermsProposed)
        await guest.decide_terms(False)
        rest = [event async for event in guest_events]
        assert isinstance(rest[-1], Failure) and rest[-1].reason == "terms_refused"
        assert not any(isinstance(e, TermsAgreed) for e in rest)
        hosting.cancel()

    asyncio.run(asyncio.wait_for(body(), 60))
