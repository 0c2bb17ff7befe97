"""Abandonment claims hold only when true: the right seat, the right head, the right signature."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.audit.abandonment import audit_abandonment_bytes
from koikoi_p2p.audit.errors import AuditError
from koikoi_p2p.audit.replay import audit_transcript
from koikoi_p2p.net.resumable import load_core
from koikoi_p2p.protocol.abandonment import (
    ABANDON_MAGIC,
    AbandonmentClaim,
    AbandonmentError,
    decode_abandonment,
    encode_abandonment,
    sign_claim,
)
from koikoi_p2p.protocol.errors import ProtocolError
from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.transcript import Transcript, decode_transcript, encode_transcript
from tests.faults.hub import Hub
from tests.faults.resume_util import new_stores, run_pair


@dataclass
class Match:
    record: dict[str, object]
    transcript: Transcript
    identities: list[Identity]


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Match:
    tmp = tmp_path_factory.mktemp("abandon")
    folders = new_stores(tmp)
    hub = Hub()
    connectors = [lambda: hub.connector(0), lambda: hub.connector(1)]
    out = asyncio.run(asyncio.wait_for(run_pair(folders, connectors), 120))
    assert out[0] is not None and out[0].file is not None
    transcript = decode_transcript(Path(out[0].file).read_bytes())
    cores = [load_core(f) for f in folders]
    return Match(record=transcript.handshake, transcript=transcript,
                 identities=[core.identity for core in cores])


def _claim_file(match: Match, n: int, claimant: int, *, head: bytes | None = None,
                signer: Identity | None = None, closed: bool = False) -> bytes:
    envelopes = match.transcript.envelopes[:n]
    head = head if head is not None else (envelopes[-1].digest() if envelopes else
                                          match.transcript.session.handshake_hash)
    # What the flow waits for there, as an honest claimant names it (spec/protocol.md §9.1).
    truncated = Transcript(handshake=match.record, envelopes=envelopes, closed=False,
                           session=match.transcript.session)
    waiting = audit_transcript(truncated).waiting
    expected, deadline = (waiting[1], waiting[2]) if waiting is not None else ("terms", 60)
    claim = AbandonmentClaim(session_id=match.transcript.session.session_id, seq=n, head=head,
                             claimant=claimant, absent=1 - claimant, expected=expected, deadline=deadline)
    signature = sign_claim(signer or match.identities[claimant], claim)
    return encode_abandonment(encode_transcript(match.record, envelopes, closed=closed), claim, signature)


def _speaker(match: Match, n: int) -> int:
    truncated = Transcript(handshake=match.record, envelopes=match.transcript.envelopes[:n], closed=False,
                           session=match.transcript.session)
    report = audit_transcript(truncated)
    assert report.waiting_for is not None
    return report.waiting_for


# Before the first deal's secrets matter: terms, accept, keys, shuffles (replayable without secrets).
POINTS = [0, 1, 2, 4, 6]


@pytest.mark.parametrize("n", POINTS)
def test_a_true_claim_holds(match: Match, n: int) -> None:
    absent = _speaker(match, n)
    report = audit_abandonment_bytes(_claim_file(match, n, claimant=1 - absent))
    if not any(env.sender == absent for env in match.transcript.envelopes[:n]):
        # The accused signed nothing yet (message 0 or 1): the claim proves nothing (§9.1).
        assert not report.ok and report.deviation is not None
        assert report.deviation.reason == "unproven_claim"
        return
    assert report.ok, report.notes
    assert report.notes[0] == f"abandoned by player {absent} at message {n}"


@pytest.mark.parametrize("n", POINTS)
def test_the_seat_that_owed_the_message_cannot_accuse_the_other(match: Match, n: int) -> None:
    owes = _speaker(match, n)
    report = audit_abandonment_bytes(_claim_file(match, n, claimant=owes))
    assert not report.ok
    assert any("the claim is false" in note for note in report.notes)


def test_a_complete_match_cannot_be_claimed(match: Match) -> None:
    n = len(match.transcript.envelopes)
    with pytest.raises(AbandonmentError) as info:
        decode_abandonment(_claim_file(match, n, claimant=0, closed=True))
    assert info.value.reason == "bad_claim"


def test_wrong_head_and_wrong_signer(match: Match) -> None:
    with pytest.raises(AbandonmentError) as info:
        decode_abandonment(_claim_file(match, 4, claimant=0, head=b"\x07" * 32))
    assert info.value.reason == "bad_claim"
    with pytest.raises(ProtocolError) as err:
        decode_abandonment(_claim_file(match, 4, claimant=0, signer=match.identities[1]))
    assert err.value.reason == "bad_signature"
    with pytest.raises(AuditError):
        audit_abandonment_bytes(_claim_file(match, 4, claimant=0, signer=Identity.generate()))


def test_claim_fields_are_validated() -> None:
    with pytest.raises(AbandonmentError):
        AbandonmentClaim(session_id=b"x", seq=0, head=bytes(32), claimant=0, absent=1, expected="a",
                         deadline=1)
    with pytest.raises(AbandonmentError):
        AbandonmentClaim(session_id=bytes(32), seq=0, head=bytes(32), claimant=0, absent=0, expected="a",
                         deadline=1)
    with pytest.raises(AbandonmentError):
        AbandonmentClaim.from_dict({"seq": 1})


@given(st.binary(max_size=400))
def test_random_abandonment_files_give_typed_errors(data: bytes) -> None:
    try:
        decode_abandonment(ABANDON_MAGIC + data)
    except ProtocolError as exc:
        assert exc.reason


@given(st.data())
def test_mutated_abandonment_files_give_typed_errors(match: Match, data: st.DataObject) -> None:
    blob = bytearray(_claim_file(match, 3, claimant=1 - _speaker(match, 3)))
    index = data.draw(st.integers(len(ABANDON_MAGIC), len(blob) - 1))
    blob[index] ^= data.draw(st.integers(1, 255))
    try:
        decode_abandonment(bytes(blob))
    except ProtocolError as exc:
        assert exc.reason


def test_the_soak_judge_counts_a_kill_before_any_envelope_apart(match: Match, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``koikoi bench soak``: a victim killed before it signed anything leaves a claim that rightly
    proves nothing; that is a correct outcome, neither an abandonment nor a wrong one. A victim
    whose own saved state holds an envelope the claim lacks was not: that is a lost message."""
    from koikoi_p2p.bench import soak
    from koikoi_p2p.bench.soak import Fault, MatchRecord, summarize

    # The killed peers' folders are empty (nothing saved): nothing of theirs can be lost.
    peers: Any = [_Folder(tmp_path), _Folder(tmp_path)]
    records = []
    # At message 4 seat 1 has signed nothing, at 6 it has; the third had signed one that never came.
    for index, (n, own) in enumerate(((4, 0), (6, 0), (4, 1))):
        monkeypatch.setattr(soak, "_signed_in_state", lambda folder, seat, own=own: own)
        absent = _speaker(match, n)
        claim = tmp_path / f"claim{index}.koikoi-abandon"
        claim.write_bytes(_claim_file(match, n, claimant=1 - absent))
        record = MatchRecord(index, Fault(victim=absent, kill_phase="keying", resume=False), kills=1)
        record.outcomes = [None, None]
        record.outcomes[1 - absent] = {"status": "abandoned", "absent": absent, "file": str(claim)}
        soak._judge(record, peers)
        assert record.verdict == ("unclaimable", "abandoned", "wrong")[index], record.detail
        records.append(record)
    found = {m.name: m for m in summarize(records, {}, 3)}
    assert found["soak_killed_before_signing"].median_s == 1
    assert found["soak_wrong_or_unfinished"].median_s == 1
    assert found["soak_abandoned_classified"].median_s == 1


@dataclass
class _Folder:
    folder: Path
