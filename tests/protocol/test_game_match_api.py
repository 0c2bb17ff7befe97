"""The asyncio Match: deadlines, a closed connection, a violation with its evidence file."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from koikoi_p2p.ai.strategy import RandomPlayer
from koikoi_p2p.cli.main import main as koikoi
from koikoi_p2p.net.match import Match, play_match
from koikoi_p2p.net.memory import memory_pair
from koikoi_p2p.net.selfplay import seeded_identity, seeded_rng
from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.events import Failure, Paired, TermsAgreed, TermsProposed
from koikoi_p2p.protocol.handshake import HandshakeResult
from koikoi_p2p.protocol.peer import GamePeer
from koikoi_p2p.protocol.terms import Deadlines
from koikoi_p2p.rules.profile import preset
from tests.adversarial.test_peer_attacks import Cheater


async def _collect(match: Match) -> list[Any]:
    return [event async for event in match.events()]


def test_a_silent_peer_hits_the_deadline_of_the_terms() -> None:
    async def body() -> None:
        a, b = memory_pair()
        host = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", profile=preset("nintendo"),
                     rounds=1, deadlines=Deadlines(step=1, turn=1), rng=seeded_rng(b"h"))
        guest = Match(b, seat=1, identity=seeded_identity(b"g"), room="ROOM01", rng=seeded_rng(b"g"))
        hosting = asyncio.create_task(_collect(host))
        guest_events = guest.events()
        first = await guest_events.__anext__()   # the handshake completes, then the guest goes silent
        assert isinstance(first, Paired)
        seen = await hosting
        assert isinstance(seen[0], Paired)
        failure = seen[-1]
        assert isinstance(failure, Failure) and failure.reason == "timeout" and failure.who == 1
        await guest_events.aclose()

    asyncio.run(asyncio.wait_for(body(), 30))


def test_a_closed_connection_is_a_failure_naming_the_peer() -> None:
    async def body() -> None:
        a, b = memory_pair()
        host = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", profile=preset("nintendo"),
                     rounds=1, rng=seeded_rng(b"h"))
        guest = Match(b, seat=1, identity=seeded_identity(b"g"), room="ROOM01", rng=seeded_rng(b"g"))
        hosting = asyncio.create_task(_collect(host))
        guest_events = guest.events()
        assert isinstance(await guest_events.__anext__(), Paired)
        proposed = await guest_events.__anext__()
        assert isinstance(proposed, TermsProposed) and proposed.summary.describe() == "nintendo"
        await guest.decide_terms(True)
        assert isinstance(await guest_events.__anext__(), TermsAgreed)
        await b.close()
        seen = await hosting
        failure = seen[-1]
        assert isinstance(failure, Failure) and failure.reason == "connection_closed"
        await guest_events.aclose()

    asyncio.run(asyncio.wait_for(body(), 30))


class CheatingMatch(Match):
    """Seat 1 with a peer that lies in its first ``act`` (plays a stock position)."""

    def _start_peer(self, result: HandshakeResult) -> GamePeer:
        def attack(peer: Cheater, kind: str, body: dict[str, Any]) -> dict[str, Any] | None:
            if kind != m.ACT or body["action"]["type"] != "play":
                return None
            return {**body, "action": {"type": "play", "position": 47}}

        self.peer = Cheater(attack=attack, channel=result.channel, room=self.room, rng=self.rng,
                            handshake_record=result.record, accept_terms=lambda terms: True)
        return self.peer


def test_a_violation_writes_evidence_that_verify_confirms(tmp_path: Path, capsys: Any) -> None:
    async def body() -> tuple[Any, Any]:
        a, b = memory_pair()
        cheater = CheatingMatch(b, seat=1, identity=seeded_identity(b"g"), room="ROOM01",
                                rng=seeded_rng(b"g"))

        async def cheat() -> None:
            async for event in cheater.events():
                options = getattr(event, "options", None)
                if options:
                    await cheater.decide(options[0])

        task = asyncio.create_task(cheat())
        outcome = await play_match(a, RandomPlayer(1), seat=0, identity=seeded_identity(b"h"), room="ROOM01",
                                   profile=preset("nintendo"), rounds=1, store=tmp_path, rng=seeded_rng(b"h"))
        task.cancel()
        return outcome, cheater

    outcome, _ = asyncio.run(asyncio.wait_for(body(), 60))
    failure = outcome.failure
    assert isinstance(failure, Failure)
    assert failure.reason == "illegal_action" and failure.who == 1
    assert failure.evidence_path is not None and Path(failure.evidence_path).exists()
    capsys.readouterr()
    assert koikoi(["verify", failure.evidence_path]) == 0
    text = capsys.readouterr().out
    assert "player 1 deviated at message" in text and "a move the rules do not allow" in text
    assert koikoi(["verify", "--json", failure.evidence_path]) == 0


def test_a_joiner_may_refuse_the_terms_before_signing_them() -> None:
    from tests.protocol.game_support import make_pair, run

    pair = run(make_pair(rules="nintendo", rounds=1, seed=1,
                         accept_terms=lambda terms: terms.profile.name == "wikipedia"))
    error = pair.errors[1]
    assert error is not None and error.reason == "terms_refused"
    assert m.ACCEPT not in [env.type for env in pair.peers[1].transcript]
    assert pair.errors[0] is None  # the host just waits (and times out under a driver)


def test_a_joiner_that_refuses_the_proposed_terms_signs_nothing() -> None:
    """The joiner sees the whole proposal (TermsProposed) before anything is signed; refusing ends
    its side with a local Failure and no accept is sent, so the host times out waiting for it."""
    from koikoi_p2p.rules.profile import preset as _preset

    async def body() -> tuple[list[Any], list[Any]]:
        a, b = memory_pair()
        lenient = _preset("nintendo").with_switches(name="house", max_calls_per_round=0)
        host = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", profile=lenient, rounds=1,
                     rng=seeded_rng(b"h"), deadlines=Deadlines(step=1, turn=1))
        guest = Match(b, seat=1, identity=seeded_identity(b"g"), room="ROOM01", rng=seeded_rng(b"g"))
        hosting = asyncio.create_task(_collect(host))
        seen: list[Any] = []
        async for event in guest.events():
            seen.append(event)
            if isinstance(event, TermsProposed):
                await guest.decide_terms(False)
        return seen, await hosting

    guest_seen, host_seen = asyncio.run(asyncio.wait_for(body(), 30))
    proposed = next(e for e in guest_seen if isinstance(e, TermsProposed))
    assert proposed.summary.describe() == "custom (house), based on nintendo: max_calls_per_round=0"
    assert proposed.terms.rounds == 1 and proposed.terms.deadlines == Deadlines(step=1, turn=1)
    assert not any(isinstance(e, TermsAgreed) for e in guest_seen)
    failure = guest_seen[-1]
    assert isinstance(failure, Failure) and failure.reason == "terms_refused" and failure.who == 1
    host_failure = host_seen[-1]
    assert isinstance(host_failure, Failure) and host_failure.reason == "timeout" and host_failure.who == 1


def test_a_changed_identity_key_reaches_the_user_and_is_not_remembered(tmp_path: Path) -> None:
    """Trust on first use: the first match remembers the opponent's key; when the same name comes
    back with another key, Paired says "changed" and the remembered key stays the old one."""
    from koikoi_p2p.protocol.identity import KnownPeers

    store = KnownPeers(tmp_path / "known_peers.json")

    async def pair_with(guest_seed: bytes) -> Paired:
        a, b = memory_pair()
        host = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", profile=preset("nintendo"),
                     rounds=1, rng=seeded_rng(b"h" + guest_seed), known_peers=store, peer_name="friend")
        guest = Match(b, seat=1, identity=seeded_identity(guest_seed), room="ROOM01",
                      rng=seeded_rng(guest_seed))
        host_events, guest_events = host.events(), guest.events()
        # (Not `first, _`: mypy cannot then determine the type of `first`.)
        first, _guests = await asyncio.gather(host_events.__anext__(), guest_events.__anext__())
        await host_events.aclose()
        await guest_events.aclose()
        assert isinstance(first, Paired)
        return first

    first = asyncio.run(asyncio.wait_for(pair_with(b"g"), 30))
    again = asyncio.run(asyncio.wait_for(pair_with(b"g"), 30))
    other = asyncio.run(asyncio.wait_for(pair_with(b"impostor"), 30))
    assert (first.known, again.known, other.known) == (False, True, "changed")
    assert other.peer_fingerprint != first.peer_fingerprint
    assert KnownPeers(tmp_path / "known_peers.json").lookup("friend") == seeded_identity(b"g").public_key


def test_a_decision_that_cannot_be_sent_ends_in_a_failure_event_not_a_hang() -> None:
    """The embedder catches the error of decide() and keeps iterating: events() must go on and
    end with a Failure, not wait for a decision forever."""
    from koikoi_p2p.protocol.events import ChoiceNeeded, YourTurn
    from koikoi_p2p.protocol.transport import TransportClosed

    async def body() -> list[Any]:
        a, b = memory_pair()
        computer = asyncio.create_task(play_match(b, RandomPlayer(1), seat=1, identity=seeded_identity(b"g"),
                                                  room="ROOM01", rng=seeded_rng(b"g")))
        host = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", profile=preset("nintendo"),
                     rounds=1, rng=seeded_rng(b"h"), deadlines=Deadlines(step=2, turn=2))
        seen: list[Any] = []
        async for event in host.events():
            seen.append(event)
            if isinstance(event, (YourTurn, ChoiceNeeded)):
                await a.close()                      # the network goes away under us
                try:
                    await host.decide(event.options[0])
                except TransportClosed:
                    pass
        computer.cancel()
        return seen

    seen = asyncio.run(asyncio.wait_for(body(), 30))
    assert isinstance(seen[-1], Failure) and seen[-1].reason == "connection_closed"


def test_an_illegal_decision_is_refused_and_the_question_asked_again() -> None:
    """decide() refuses a move that is not among the options (LocalMisuse); an embedder that
    catches it and keeps iterating is asked again instead of waiting forever."""
    from koikoi_p2p.protocol.errors import LocalMisuse
    from koikoi_p2p.protocol.events import ChoiceNeeded, MatchOver, YourTurn
    from koikoi_p2p.rules.actions import Play

    async def body() -> tuple[int, int, Any]:
        a, b = memory_pair()
        computer = asyncio.create_task(play_match(b, RandomPlayer(1), seat=1, identity=seeded_identity(b"g"),
                                                  room="ROOM01", rng=seeded_rng(b"g")))
        host = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", profile=preset("nintendo"),
                     rounds=1, rng=seeded_rng(b"h"))
        asked = refused = 0
        last = None
        async for event in host.events():
            last = event
            if isinstance(event, (YourTurn, ChoiceNeeded)):
                asked += 1
                if refused == 0 and isinstance(event, YourTurn):
                    try:
                        await host.decide(Play(47))          # the last stock card: never playable
                    except LocalMisuse:
                        refused += 1
                        continue
                await host.decide(event.options[0])
        await computer
        return asked, refused, last

    asked, refused, last = asyncio.run(asyncio.wait_for(body(), 60))
    assert refused == 1 and asked >= 2 and isinstance(last, MatchOver)
