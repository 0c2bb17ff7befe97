"""Misuse of the asyncio Match raises LocalMisuse with a reason and leaves the match alone, as
the JavaScript Match does (web/src/api/session.js): QA found these differing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

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
from koikoi_p2p.protocol.terms import Deadlines
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import preset


def _pair() -> tuple[Match, Match]:
    a, b = memory_pair()
    host = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", rounds=1, rng=seeded_rng(b"h"))
    guest = Match(b, seat=1, identity=seeded_identity(b"g"), room="ROOM01", rng=seeded_rng(b"g"))
    return host, guest


async def _play(match: Match, events: AsyncIterator[Event] | None = None) -> Event:
    """Answer everything with the first option to the end (``events``: a stream already begun)."""
    last: Event | None = None
    async for event in events if events is not None else match.events():
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
        last = await _play(guest, guest_events)
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
        last = await _play(guest, guest_events)
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


@pytest.mark.parametrize(("changes", "error", "reason"), [
    ({"identity": None}, LocalMisuse, "bad_argument"),
    ({"identity": b"\x01" * 32}, LocalMisuse, "bad_argument"),
    ({"room": None}, LocalMisuse, "bad_room"),
    ({"room": ""}, LocalMisuse, "bad_room"),
    ({"profile": "no-such-preset"}, RulesError, "unknown_preset"),
    ({"profile": {"rounds": 2}}, LocalMisuse, "bad_argument"),
    ({"rounds": 0}, RulesError, "bad_switch"),
    ({"rounds": -1}, RulesError, "bad_switch"),
    ({"rounds": 1.5}, RulesError, "bad_switch"),
    ({"rounds": "2"}, RulesError, "bad_switch"),
    ({"deadlines": Deadlines(step=0, turn=300)}, LocalMisuse, "bad_argument"),
    ({"deadlines": {"step": 60, "turn": 300}}, LocalMisuse, "bad_argument"),
    ({"seat": 2}, LocalMisuse, "bad_seat"),
])
def test_arguments_are_checked_at_construction(changes: dict[str, Any], error: type[Exception],
                                               reason: str) -> None:
    # The reasons of the JavaScript Match (web/test/api/match.test.js checks the same table);
    # QA found AttributeError from events() and rounds=0 failing only once the match ran.
    a, _ = memory_pair()
    options: dict[str, Any] = {"seat": 0, "identity": seeded_identity(b"h"), "room": "ROOM01", **changes}
    with pytest.raises(error) as caught:
        Match(a, **options)
    assert getattr(caught.value, "reason", None) == reason


def test_a_preset_name_is_a_profile() -> None:
    a, _ = memory_pair()
    match = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", profile="koikoi-online", rounds=3)
    assert match.profile == preset("koikoi-online")
    with pytest.raises(LocalMisuse) as caught:
        Match(None, seat=0, identity=seeded_identity(b"h"), room="ROOM01")  # type: ignore[arg-type]
    assert caught.value.reason == "bad_argument"


def test_a_junk_frame_fails_the_session_over_a_plain_transport() -> None:
    # spec/protocol.md §7.2 step 2 and §12.2 item 1: over a transport that joins only the two
    # seats, junk is bad_frame (the JavaScript Match does the same: web/test/api/match.test.js).
    sent = [0]

    def tamper(direction: int, frame: bytes) -> list[bytes]:
        if direction == 0:
            sent[0] += 1
            if sent[0] == 6:
                return [b"\x00garbage"]
        return [frame]

    async def body() -> None:
        a, b = memory_pair(tamper=tamper)
        host = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", rounds=1, rng=seeded_rng(b"h"))
        guest = Match(b, seat=1, identity=seeded_identity(b"g"), room="ROOM01", rng=seeded_rng(b"g"))
        hosting = asyncio.create_task(_play(host))
        last = await _play(guest)
        assert isinstance(last, Failure) and last.reason == "bad_frame", last
        hosting.cancel()

    asyncio.run(asyncio.wait_for(body(), 60))


def test_before_the_handshake_the_verbs_raise_not_started() -> None:
    async def body() -> None:
        _, guest = _pair()
        with pytest.raises(LocalMisuse) as bad:
            await guest.decide_terms("no")  # type: ignore[arg-type]
        assert bad.value.reason == "bad_argument"   # the argument first, as in JavaScript
        for verb in (guest.decide_terms(True), guest.resign()):
            with pytest.raises(LocalMisuse) as early:
                await verb
            assert early.value.reason == "not_started"

    asyncio.run(asyncio.wait_for(body(), 30))
