"""The version-2 peer: idle work, owed messages, exact waits, names, resigning, the joiner's decision."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from koikoi_p2p.audit import audit_bytes, verify_result
from koikoi_p2p.audit.core import Replayer
from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.errors import LocalMisuse, RemoteViolation
from koikoi_p2p.protocol.events import Failure, MatchOver, TermsProposed, YourTurn
from koikoi_p2p.protocol.transcript import decode_transcript
from tests.adversarial.test_peer_attacks import Cheater, caught, once
from tests.protocol.game_support import make_pair, run, transcript_bytes


def test_every_wait_names_the_next_message_and_its_deadline() -> None:
    """Replayed envelope by envelope, the machine's wait (spec/game.md §7.1) is always exactly the
    next envelope's sender and type; the deadline is `turn` exactly while a person decides."""
    pair = run(make_pair(rules="nintendo", rounds=2, seed=11))
    assert pair.errors == [None, None]
    transcript = decode_transcript(transcript_bytes(pair))
    session = transcript.session
    auditor = Replayer(session, {})
    envs = transcript.envelopes
    for index, env in enumerate(envs):
        seat, msg_type, seconds = auditor.flow.waiting_for()  # type: ignore[misc]
        assert (seat, msg_type) == (env.sender, env.type), env.seq
        before_act = next((e.type for e in envs[index:] if e.type not in (m.ROUND_SIGN, m.KEY, m.SHUFFLE)
                           or e.sender != env.sender), None) == m.ACT
        person = env.type in (m.ACT, m.ACCEPT) or (env.type in (m.ROUND_SIGN, m.KEY, m.SHUFFLE)
                                                   and before_act and auditor.flow.primary[1] == m.ACT)
        assert seconds == (300 if person else 60), (env.seq, env.type)
        auditor.feed(env)
    assert auditor.flow.waiting_for() is None


def test_receive_leaves_the_owed_messages_to_idle_and_decide_sends_them_if_idle_did_not() -> None:
    pair = make_pair(rules="wikipedia", rounds=1, seed=4)
    peers = pair.peers
    queue = [(1, f) for f in peers[0].start()]
    pending: dict[int, Any] = {}
    owed_seen = 0
    while True:
        while queue:
            to, frame = queue.pop(0)
            queue += [(1 - to, f) for f in peers[to].receive(frame)]
            for seat in (0, 1):
                for event in peers[seat].events():
                    if isinstance(event, TermsProposed):
                        queue += [(1 - seat, f) for f in peers[seat].decide_terms(True)]
                    elif hasattr(event, "options"):
                        pending[seat] = event
        if not pending:
            break
        seat, event = pending.popitem()
        peer = peers[seat]
        before = len(peer.transcript)
        if peer.flow.expect != (seat, m.ACT):
            # Owed messages before our act: receive() did not compose them.
            owed_seen += 1
            owed = peer.flow.expect[1]
            assert owed in (m.KEY, m.SHUFFLE, m.ROUND_SIGN)
            assert peer.waiting_for() == (seat, owed, 300)
            if owed_seen % 2:
                frames = peer.idle()            # idle sends them, then decide sends only the act
                assert frames and peer.flow.expect == (seat, m.ACT)
                assert all(e.type != m.ACT for e in peer.transcript[before:])
                frames += peer.decide(event.options[0])
            else:
                frames = peer.decide(event.options[0])   # no idle: decide sends them first
            kinds = [e.type for e in peer.transcript[before:]]
            assert kinds[-1] == m.ACT and owed in kinds[:-1]
        else:
            frames = peer.decide(event.options[0])
        queue += [(1 - seat, f) for f in frames]
        for event in peer.events():
            if hasattr(event, "options"):
                pending[seat] = event
    assert owed_seen >= 2
    assert peers[0].done and peers[1].done


def test_a_bad_shuffle_is_found_before_use_even_without_idle_work() -> None:
    """The other seat's preparation is verified when idle, or at the latest before the deck is
    built upon or used; either way the verdict names the shuffle's envelope (spec/game.md §7.3)."""
    def flip(p: Cheater, b: dict[str, Any]) -> dict[str, Any]:
        deck = bytearray(b["deck"])
        deck[48 * 64 + 200] ^= 1
        return {**b, "deck": bytes(deck)}

    for idle in (True, False):
        pair = make_pair(rounds=1, seed=1, peer1_factory=Cheater, attack=once(m.SHUFFLE, flip, deal=2))
        run(pair, idle=idle)
        caught(pair, "bad_shuffle", first_is_offence=False)


def test_display_names_travel_in_the_terms_and_the_result() -> None:
    pair = run(make_pair(rounds=1, seed=2, names=("Aiko", "Bashō")))
    assert pair.errors == [None, None]
    report = audit_bytes(transcript_bytes(pair))
    assert report.ok and report.result is not None
    assert verify_result(report.result).names == ("Aiko", "Bashō")


def test_terms_with_other_names_than_the_handshake_are_refused() -> None:
    pair = make_pair(rounds=1, seed=2, names=("Aiko", "Bashō"), joiner_names=("Aiko", "Buson"))
    run(pair)
    error = pair.errors[1]
    assert isinstance(error, RemoteViolation) and error.reason == "bad_terms"
    assert "display names" in error.message


def test_the_joiner_decides_before_anything_is_signed() -> None:
    pair = make_pair(rounds=1, seed=3)
    joiner = pair.peers[1]
    with pytest.raises(LocalMisuse):
        joiner.decide_terms(True)               # nothing proposed yet
    frames = pair.peers[0].start()
    for frame in frames:
        assert joiner.receive(frame) == []      # no accept without a decision
    proposed = [e for e in joiner.events() if isinstance(e, TermsProposed)]
    assert len(proposed) == 1 and proposed[0].terms == pair.peers[0].proposal
    assert joiner.waiting_for() == (1, m.ACCEPT, 300)
    with pytest.raises(LocalMisuse) as err:
        joiner.decide_terms(False)
    assert err.value.reason == "terms_refused"
    assert [e.reason for e in joiner.events() if isinstance(e, Failure)] == ["terms_refused"]
    assert m.ACCEPT not in [e.type for e in joiner.transcript]


def test_resigning_through_the_match_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from koikoi_p2p.ai.strategy import RandomPlayer
    from koikoi_p2p.cli.main import main as koikoi
    from koikoi_p2p.net.match import Match, play_match
    from koikoi_p2p.net.memory import memory_pair
    from koikoi_p2p.net.selfplay import seeded_identity, seeded_rng
    from koikoi_p2p.rules.profile import preset

    async def body() -> tuple[list[Any], Any]:
        a, b = memory_pair()
        computer = asyncio.create_task(play_match(b, RandomPlayer(1), seat=1, identity=seeded_identity(b"g"),
                                                  room="ROOM01", rng=seeded_rng(b"g")))
        host = Match(a, seat=0, identity=seeded_identity(b"h"), room="ROOM01", profile=preset("nintendo"),
                     rounds=3, rng=seeded_rng(b"h"), store=tmp_path)
        seen: list[Any] = []
        async for event in host.events():
            seen.append(event)
            if isinstance(event, YourTurn):
                assert host.can_resign()
                await host.resign()
            elif hasattr(event, "options"):
                await host.decide(event.options[0])
        return seen, await computer

    seen, outcome = asyncio.run(asyncio.wait_for(body(), 60))
    over = seen[-1]
    assert isinstance(over, MatchOver) and over.resigned == 0 and over.winner == 1
    assert outcome.winner == 1 and outcome.result == over.result
    assert verify_result(over.result).resigned == 0
    assert over.transcript_path is not None
    assert koikoi(["verify", over.transcript_path]) == 0
    assert "resigned by player 0 at message" in capsys.readouterr().out
