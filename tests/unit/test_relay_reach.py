"""An abandonment claim waits for our own relay (spec/protocol.md §12.4): RelayReach and the
connector that keeps it."""

from __future__ import annotations

import asyncio
import math
import socket

import pytest

from koikoi_p2p.net.reach import RELAY_GRACE_S, RELAY_HOLD_MAX_S, RelayReach
from koikoi_p2p.net.relay_client import RelayError
from koikoi_p2p.net.rendezvous import RelayRendezvous


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_claim_waits_while_the_relay_is_down_and_a_grace_after_it_answers() -> None:
    clock = Clock()
    reach = RelayReach(clock)
    clock.now += 60
    assert reach.hold(10, 12) == 0.0        # never down: the deadline alone decides
    reach.missed()
    clock.now += 30
    # One comparison: an `assert reach.down` would hold `down` True for mypy past reached() below.
    assert (reach.down, reach.hold(10, 40)) == (True, 10 + RELAY_HOLD_MAX_S - 40)   # until the cap
    assert reach.hold(10, 10 + RELAY_HOLD_MAX_S) == 0.0     # a relay that never answers: claim then
    reach.missed()                          # still down since the first miss
    assert reach.down_since == 100.0 + 60
    reach.reached()
    assert not reach.down
    assert reach.hold(10, 41) == 10.0       # a short deadline: that long after the relay is back
    assert reach.hold(600, 601) == RELAY_GRACE_S
    clock.now += 4
    assert reach.hold(10, 45) == 6.0
    clock.now += 7
    assert reach.hold(10, 52) == 0.0
    reach.reached()                         # answering again without an outage changes nothing
    assert reach.hold(10, 53) == 0.0
    assert math.isinf(RelayReach(clock).up_since)   # no outage yet: a fresh record holds nothing


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("seat", [0, 1])
def test_a_connector_that_cannot_reach_the_relay_says_so(seat: int) -> None:
    connector = RelayRendezvous(f"ws://127.0.0.1:{_closed_port()}/v1", seat, "nobody-listens",
                                pair_timeout_s=1.0)

    async def body() -> None:
        with pytest.raises(RelayError) as info:
            await connector()
        assert info.value.reason == "unreachable"

    asyncio.run(body())
    assert connector.reach.down
    assert connector.relay_down()           # what the terminal's countdown shows instead


def test_the_terminal_says_the_relay_is_down_instead_of_waiting_for_the_opponent() -> None:
    """The countdown names our relay while it does not answer (QA: minutes of 'waiting for
    opponent' during an outage, with no word of the relay)."""
    import io

    from koikoi_p2p.cli.play import Screen, Table, _waiting_label
    from koikoi_p2p.cli.style import Style

    class Down:
        down = True

        def relay_down(self) -> bool:
            return self.down

    screen = Screen(out=io.StringIO(), lang="en", style=Style(False), live=False, names=("you", "Hanako"))
    table = Table(me=0)
    match = Down()
    assert _waiting_label(screen, table, match) == "The relay does not answer: trying again"
    match.down = False
    assert _waiting_label(screen, table, match) == "Waiting for Hanako"


def test_a_joiner_waiting_for_a_room_stays_under_the_relays_rate_of_new_connections() -> None:
    """A relay with its default limits on new connections: the joiner's looks at the lobby for a
    room that never comes are paced under them, so its attempts end in ``rejoin_timeout`` (an
    answer), never in a refusal taken for an outage."""
    from koikoi_relay.limits import Limits
    from koikoi_relay.server import RelayServer

    async def body() -> None:
        relay = RelayServer(Limits())        # the default limits, 4 new connections/s per address
        await relay.start("127.0.0.1", 0)
        try:
            connector = RelayRendezvous(f"ws://127.0.0.1:{relay.port}/v1", 1, "nobody-comes",
                                        pair_timeout_s=12.0)
            connector.fallback = "a-second-tag"     # a joiner not yet bound looks under two tags
            with pytest.raises(RelayError) as info:
                await connector()
            assert info.value.reason == "rejoin_timeout"   # not refused by the relay's rate
            assert not connector.reach.down
        finally:
            await relay.shutdown()

    asyncio.run(body())


def test_each_503_body_of_the_relay_has_its_reason() -> None:
    """The client names a refusal by the body the relay sends (spec/relay.md §7)."""
    from koikoi_p2p.net.relay_client import refusal
    from koikoi_relay.server import BUSY_ANSWER, FULL_ANSWER, SHUTDOWN_ANSWER, UNAVAILABLE_ANSWER

    assert refusal(503, BUSY_ANSWER.encode()).reason == "handshakes_busy"
    assert refusal(503, FULL_ANSWER.encode()).reason == "relay_full"
    assert refusal(503, UNAVAILABLE_ANSWER.encode()).reason == "relay_unavailable"
    assert refusal(503, SHUTDOWN_ANSWER.encode()).reason == "shutdown"
    assert refusal(503, b"<html>a proxy's own page</html>").reason == "relay_full"
    assert refusal(429, b"too many new connections from this address; wait a moment").reason == \
        "source_handshakes"
    assert refusal(429, b"too many connections from this address").reason == "source_connections"
    assert refusal(502, b"").reason == "unreachable"
