"""Forged and false abandonment claims (issue 11, holes 2 and 3), as an attacker would make them.

Hole 2: in version 1 each seat signed a handshake hash that named neither identity key, so a
victim's signature from any session it took part in could be paired with a fresh key that signs
the same hash: a "new" session in which the victim never sent anything, and an abandonment file
that waits for the victim's terms (the commit that added this file shows it upheld). Version 2
signs a hash of the whole handshake with both keys and both names (spec/protocol.md §5.3), and a
claim against a seat that signed no envelope of the session proves nothing.

Hole 3: the claim's expected message and deadline were the claimant's word alone. The audit now
compares both with what the flow waits for at that head and the deadlines of the signed terms,
and a claim they contradict is the claimant's own false statement.
"""

from __future__ import annotations

from typing import Any

import pytest

from koikoi_p2p.audit import AuditError, audit_bytes
from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.abandonment import AbandonmentClaim, encode_abandonment, sign_claim
from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.handshake import (
    final_hashes,
    identity_hash,
    initial_hash,
    mix_hash,
    prologue,
    signed_statement,
    verify_handshake_record,
)
from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.transcript import TRANSCRIPT_MAGIC, encode_transcript
from tests.protocol.game_support import make_pair, run
from tests.protocol.session_util import handshake_pair, identity, run_pair


def _mint(record: dict[str, Any], victim: int, fresh: Identity) -> dict[str, Any]:
    """The attacker's record: the victim's seat, key, name and signature from a real session, a
    fresh key in the other seat that signs the handshake hash correctly for itself."""
    h = mix_hash(initial_hash(), prologue(record["version"], record["room"]))
    h_k = mix_hash(mix_hash(mix_hash(h, record["hello"]), record["reply"]), record["reveal"])
    keys, names, sigs = list(record["keys"]), list(record["names"]), list(record["signatures"])
    keys[1 - victim], names[1 - victim] = fresh.public_key, ""
    hh, _ = final_hashes(identity_hash(h_k, keys[0], names[0]), keys[1], names[1])
    sigs[1 - victim] = fresh.sign(signed_statement(1 - victim, hh))
    return {**record, "keys": keys, "names": names, "signatures": sigs}


@pytest.mark.parametrize("victim", [0, 1])
def test_a_victim_signature_cannot_be_paired_with_a_fresh_key(victim: int) -> None:
    real, _, _ = run_pair(*handshake_pair(seed=b"victim", names=("Hanako", "Ken")))
    fresh = Identity.generate()
    forged = _mint(real.record, victim, fresh)
    with pytest.raises(RemoteViolation) as info:
        verify_handshake_record(forged)
    assert info.value.reason == "bad_signature"
    assert f"seat {victim}'s signature" in str(info.value)
    # Through the file the attacker would publish: refused before any claim is read, naming the
    # seat whose signature does not cover the minted handshake.
    claim = AbandonmentClaim(session_id=b"\x00" * 32, seq=0, head=b"\x00" * 32, claimant=1 - victim,
                             absent=victim, expected="terms", deadline=60)
    forged_blob = TRANSCRIPT_MAGIC + codec.encode({"format": 2, "kind": "transcript", "handshake": forged})
    data = encode_abandonment(forged_blob, claim, sign_claim(fresh, claim))
    with pytest.raises(AuditError) as err:
        audit_bytes(data)
    assert err.value.reason == "bad_handshake_signature"
    assert f"seat {victim}'s signature" in err.value.message


def test_a_claim_against_a_seat_that_never_signed_an_envelope_proves_nothing() -> None:
    """A real handshake, then nothing from the accused: the handshake alone does not show that the
    accused ever took part in the match (it may have answered a handshake and nothing else)."""
    real, _, _ = run_pair(*handshake_pair(seed=b"quiet"))
    session = verify_handshake_record(real.record)

    claim = AbandonmentClaim(session_id=session.session_id, seq=0, head=session.handshake_hash,
                             claimant=1, absent=0, expected="terms", deadline=60)
    data = encode_abandonment(encode_transcript(real.record, [], closed=False), claim,
                              sign_claim(identity("guest"), claim))
    report = audit_bytes(data)
    assert not report.ok
    assert report.deviation is not None and report.deviation.reason == "unproven_claim"
    assert report.deviation.seat is None
    assert "signed no envelope" in report.deviation.message


def _claim_on(pair: Any, *, expected: str | None = None, deadline: int | None = None,
              claimant: int | None = None) -> bytes:
    envelopes = pair.peers[1].transcript
    session = verify_handshake_record(pair.records[1])
    waiting = pair.peers[1].waiting_for()
    assert waiting is not None
    seat, kind, seconds = waiting
    claimant = 1 - seat if claimant is None else claimant
    claim = AbandonmentClaim(session_id=session.session_id, seq=len(envelopes), head=envelopes[-1].digest(),
                             claimant=claimant, absent=1 - claimant, expected=expected or kind,
                             deadline=deadline or seconds)
    identity = pair.peers[claimant].channel.identity
    return encode_abandonment(encode_transcript(pair.records[1], envelopes, closed=False), claim,
                              sign_claim(identity, claim))


@pytest.fixture(scope="module")
def stopped() -> Any:
    """A match cut short after the first deal's setup: seat 1 waits for seat 0."""
    pair = make_pair(rounds=1, seed=3)
    run(pair, max_frames=6)
    waiting = pair.peers[1].waiting_for()
    assert waiting is not None and waiting[0] == 0
    return pair


def test_a_true_claim_still_holds(stopped: Any) -> None:
    report = audit_bytes(_claim_on(stopped))
    assert report.ok and report.deviation is not None and report.deviation.reason == "abandoned"
    assert report.deviation.seat == 0


def test_a_claim_naming_a_message_the_flow_does_not_wait_for_is_false(stopped: Any) -> None:
    report = audit_bytes(_claim_on(stopped, expected="match_sign"))
    assert not report.ok and report.deviation is not None
    assert (report.deviation.reason, report.deviation.seat) == ("false_claim", 1)
    assert "not match_sign" in report.deviation.message


def test_a_claim_naming_a_deadline_the_terms_do_not_give_is_false(stopped: Any) -> None:
    report = audit_bytes(_claim_on(stopped, deadline=1))
    assert not report.ok and report.deviation is not None
    assert (report.deviation.reason, report.deviation.seat) == ("false_claim", 1)
    assert "not the 1 s" in report.deviation.message


def test_the_seat_that_owes_the_message_cannot_claim(stopped: Any) -> None:
    report = audit_bytes(_claim_on(stopped, claimant=0))
    assert not report.ok and report.deviation is not None
    assert (report.deviation.reason, report.deviation.seat) == ("false_claim", 0)


def test_a_claim_at_any_cut_is_upheld_or_unproven_never_misattributed() -> None:
    """spec/protocol.md §9.1 step 5: a claim over a match cut short at any message is either
    upheld against the seat that owed the next message, or, where the replay cannot reach message
    N (hidden cards that need a round secret the file lacks), unproven_claim blaming no one; it
    is never reported as moot "with an earlier deviation" that does not exist. (Under the version
    1 flow a cut after 14 frames stopped the replay; the version 2 deal reveals in the flow every
    card the turn order depends on, so these cuts are all upheld.)"""
    for frames in range(4, 48, 3):
        pair = make_pair(rounds=1, seed=3)
        run(pair, max_frames=frames)
        waiting = pair.peers[1].waiting_for()
        if waiting is None or waiting[0] != 0:
            continue
        report = audit_bytes(_claim_on(pair))
        assert report.deviation is not None
        verdict = (report.ok, report.deviation.reason, report.deviation.seat)
        assert verdict in {(True, "abandoned", 0), (False, "unproven_claim", None)}, (frames, verdict)
        assert not any("earlier deviation" in note for note in report.notes)
