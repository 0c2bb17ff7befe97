"""Attacks on the version-2 game flow found by a later review (each failed before its fix)."""

from __future__ import annotations

from typing import Any

import pytest

from koikoi_p2p.audit import audit_evidence, audit_transcript
from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.flow import Phase
from koikoi_p2p.protocol.transcript import decode_evidence, decode_transcript, encode_transcript
from tests.adversarial.test_peer_attacks import Cheater, _Handled, _Raw, caught, flip, once
from tests.protocol.game_support import Pair, evidence_bytes, make_pair, run


def _audit_of(pair: Pair, seat: int) -> Any:
    peer = pair.peers[seat]
    data = encode_transcript(peer.handshake_record, peer.transcript, closed=peer.phase is Phase.DONE)
    return audit_transcript(decode_transcript(data))


@pytest.mark.parametrize("idle", [False, True])
def test_a_bad_key_of_a_deck_never_played_is_caught_before_the_match_is_signed(idle: bool) -> None:
    """In a one-round match with a first-dealer draw, deal 1 is the last and deck 3's keys travel
    during it (two deals ahead): that deck is never built upon or used. The cheater's key of it
    carries a wrong proof. A peer that defers the check to its idle time and has none (a driver
    that never calls ``idle``, or one whose idle never comes between that frame and the end)
    must still make it before it signs or countersigns the match: before the fix it reached
    ``done`` and co-signed a match whose transcript ``koikoi verify`` rejects
    ("player 1 deviated at message 18: bad_key")."""
    pair = make_pair(rules="nintendo", rounds=1, seed=1, peer1_factory=Cheater,
                     attack=once(m.KEY, lambda p, b: {**b, "key": flip(b["key"], 40)}, deal=3))
    run(pair, idle=idle)
    error = caught(pair, "bad_key", first_is_offence=False)
    assert isinstance(error, RemoteViolation)
    assert pair.peers[0].flow.cosigned is None
    report = _audit_of(pair, 0)
    assert report.deviation is not None and report.deviation.seat == 1
    assert report.deviation.seq == error.evidence["seq"]


# -- checked and sound: each attack below is refused at its envelope, blamed on the cheater -------

def test_a_resignation_in_place_of_an_owed_shuffle_is_out_of_turn() -> None:
    """A seat resigns only where the state expects its act, after what it owes (spec/game.md
    §4.1, §6.3): a resignation sent instead of its owed shuffle of the next deck is refused."""
    def resign(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if kind != m.SHUFFLE or p.flow.phase is not Phase.PLAYING:
            return None
        result = p.flow.match_result_for(p.channel.head, resigned=p.seat)
        body = {"result": result.to_dict(), "sig": p.channel.identity.sign(result.statement())}
        p.tampered_seq = p.channel.next_seq
        p.extra.append(p.channel.seal(m.RESIGN, body)[0])
        raise _Handled
    pair = make_pair(rules="nintendo", rounds=1, seed=1, peer1_factory=_Raw, attack=resign)
    run(pair)
    caught(pair, "out_of_turn")


def test_a_countersignature_replayed_from_the_previous_deal_is_refused() -> None:
    """The round statement names the session, the deal, its round and the envelope that ended
    it (spec/game.md §6.1): deal 1's signature sent again for deal 2 does not verify."""
    sigs: dict[int, bytes] = {}

    def replay(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if kind != m.ROUND_SIGN:
            return None
        if not sigs:
            sigs[b["deal"]] = b["sig"]
            return None
        return {**b, "sig": next(iter(sigs.values()))}
    for seed in range(1, 10):
        pair = make_pair(rules="nintendo", rounds=2, seed=seed, peer1_factory=Cheater, attack=replay)
        run(pair)
        if pair.peers[1].tampered_seq is not None:  # type: ignore[attr-defined]
            caught(pair, "bad_result_signature")
            return
    raise AssertionError("the cheater never signed two deals")


# -- the auditor checks the names the handshake bound --------------------------------------------

def test_the_evidence_of_terms_with_names_the_handshake_did_not_bind_proves_the_host_lied() -> None:
    """spec/game.md §2.2: the terms' names MUST equal the handshake's, checked by the peer and by
    ``koikoi verify``. The joiner refuses such terms (bad_terms); its evidence file must prove the
    host's lie to a third party: before the fix the auditor's replay took any names, found the
    terms fine and said the evidence proved nothing."""
    pair = run(make_pair(rounds=1, seed=2, names=("Aiko", "Basho"), joiner_names=("Aiko", "Buson")))
    error = pair.errors[1]
    assert isinstance(error, RemoteViolation) and error.reason == "bad_terms"
    report = audit_evidence(decode_evidence(evidence_bytes(pair, 1)))
    assert report.ok, report
    assert report.deviation is not None and report.deviation.seat == 0 and report.deviation.seq == 0
    assert report.deviation.reason == "bad_terms"


def test_a_transcript_whose_terms_rename_the_players_is_not_upheld() -> None:
    """Two keys that both sign terms naming other players than their handshake bound (one person
    playing itself, or two colluding): ``koikoi verify`` must refuse the transcript at the terms,
    not report a valid match between the names the terms made up."""
    pair = make_pair(rounds=1, seed=2, names=("Aiko", "Basho"), joiner_names=("Aiko", "Buson"))
    pair.peers[1].names = pair.peers[1].flow.names = ("Aiko", "Basho")   # the joiner goes along
    run(pair)
    assert pair.errors == [None, None] and pair.peers[0].phase is Phase.DONE
    report = _audit_of(pair, 0)
    assert not report.ok
    assert report.deviation is not None and report.deviation.seat == 0 and report.deviation.seq == 0
    assert report.deviation.reason == "bad_terms"


def test_a_message_after_the_end_of_the_match_is_proven_out_of_turn() -> None:
    """spec/game.md §9: a message after the end is ``out_of_turn``. The honest seat that gets a
    signed envelope after the co-signed result refuses it and files it as evidence; before the fix
    the auditor's machine raised a local 'terminated' on it and the evidence proved nothing."""
    pair = run(make_pair(rounds=1, seed=3))
    assert pair.errors == [None, None]
    late = pair.peers[1].channel.seal(m.REVEAL, {"shares": []})[0]
    with pytest.raises(RemoteViolation) as caught_late:
        pair.peers[0].receive(late)
    assert caught_late.value.reason == "out_of_turn"
    report = audit_evidence(decode_evidence(evidence_bytes(pair, 0)))
    assert report.ok, report
    assert report.deviation is not None and report.deviation.seat == 1
    assert report.deviation.reason == "out_of_turn"
