"""Match enforces its own seat's deadline too: a late decision is refused, the match ends with
TimeUp (what the opponent may now claim) and a Failure naming this seat, and nothing late is sent."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from koikoi_p2p.ai.strategy import RandomPlayer
from koikoi_p2p.net.match import Match, play_match
from koikoi_p2p.net.memory import memory_pair
from koikoi_p2p.net.selfplay import seeded_identity, seeded_rng
from koikoi_p2p.protocol.errors import LocalMisuse
from koikoi_p2p.protocol.events import ChoiceNeeded, Failure, TimeUp, YourTurn
from koikoi_p2p.protocol.terms import Deadlines
from koikoi_p2p.rules.profile import preset


def _pair() -> tuple[Match, Any]:
    a, b = memory_pair()
    host = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", profile=preset("wikipedia"),
                 rounds=1, deadlines=Deadlines(step=5, turn=3), rng=seeded_rng(b"h"), own_margin_s=1.0)
    guest = play_match(b, RandomPlayer(1), seat=1, identity=seeded_identity(b"g"), room="ROOM01",
                       rng=seeded_rng(b"g"))
    return host, guest


@pytest.mark.parametrize("inline", [True, False])
def test_a_late_decision_is_refused_and_the_match_says_what_may_be_claimed(inline: bool) -> None:
    """``inline``: the embedder decides inside the loop (too late); otherwise it never decides
    and events() itself notices the deadline."""
    async def body() -> None:
        host, guest = _pair()
        guest_task = asyncio.create_task(guest)
        events: list[Any] = []
        refused: list[LocalMisuse] = []
        sent_before = 0
        async for event in host.events():
            events.append(event)
            if isinstance(event, YourTurn | ChoiceNeeded):
                sent_before = host.bytes_sent
                if inline:
                    await asyncio.sleep(2.2)       # past the 2 s budget (3 s less the 1 s margin)
                    with pytest.raises(LocalMisuse) as info:
                        await host.decide(event.options[0])
                    refused.append(info.value)
        assert host.bytes_sent == sent_before          # nothing late left this seat
        up, failure = events[-2], events[-1]
        assert isinstance(up, TimeUp) and (up.seat, up.claimant, up.expected, up.deadline) == (0, 1, "act", 3)
        assert up.seq == host.peer.channel.next_seq if host.peer else False
        assert isinstance(failure, Failure) and failure.reason == "own_timeout" and failure.who == 0
        assert f"may claim abandonment by player 0 at message {up.seq}" in failure.message
        if inline:
            assert refused and refused[0].reason == "deadline_passed"
        outcome = await guest_task
        failed = outcome.failure
        assert failed is not None and failed.reason == "timeout" and failed.who == 0

    asyncio.run(asyncio.wait_for(body(), 60))
