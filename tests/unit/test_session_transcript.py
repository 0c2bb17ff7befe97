"""Transcript and evidence files: round trip, truncation, and every single-byte change caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.transcript import (
    TRANSCRIPT_MAGIC,
    TranscriptError,
    TranscriptWriter,
    decode_evidence,
    decode_transcript,
    encode_evidence,
    encode_transcript,
    read_evidence,
    read_transcript,
    write_evidence,
)
from tests.protocol.session_util import handshake_pair, run_pair


def session(n: int = 4, password: str | None = None):  # type: ignore[no-untyped-def]
    ra, rb, _ = run_pair(*handshake_pair(password=password, seed=b"transcript"))
    a, b = ra.channel, rb.channel
    envelopes = []
    for i in range(n):
        sender, receiver = (a, b) if i % 2 == 0 else (b, a)
        frame, env = sender.seal("move", {"i": i, "blob": bytes([i]) * 5})
        assert receiver.open(frame) == env
        envelopes.append(env)
    return ra, a, b, envelopes


def test_writer_and_reader_agree(tmp_path: Path) -> None:
    ra, a, _, envelopes = session()
    path = tmp_path / "match.kkt"
    with TranscriptWriter(path, ra.record) as writer:
        for env in envelopes:
            writer.append(env)
    data = path.read_bytes()
    assert data.startswith(TRANSCRIPT_MAGIC)
    assert data == encode_transcript(ra.record, envelopes)
    transcript = read_transcript(path, require_closed=True)
    assert transcript.closed and transcript.envelopes == tuple(envelopes)
    assert transcript.head == a.head
    assert transcript.session.session_id == ra.session_id


def test_truncated_transcript_is_recognised(tmp_path: Path) -> None:
    ra, _, _, envelopes = session()
    path = tmp_path / "cut.kkt"
    writer = TranscriptWriter(path, ra.record)
    for env in envelopes[:2]:
        writer.append(env)
    writer.abandon()
    transcript = read_transcript(path)
    assert not transcript.closed and len(transcript.envelopes) == 2
    with pytest.raises(TranscriptError) as info:
        read_transcript(path, require_closed=True)
    assert info.value.reason == "truncated"


def test_writer_refuses_a_gap(tmp_path: Path) -> None:
    from koikoi_p2p.protocol.errors import LocalMisuse
    ra, _, _, envelopes = session()
    writer = TranscriptWriter(tmp_path / "t", ra.record)
    with pytest.raises(LocalMisuse):
        writer.append(envelopes[1])
    writer.abandon()


@pytest.mark.parametrize("password", [None, "pw"])
def test_every_single_byte_change_fails(password: str | None) -> None:
    ra, _, _, envelopes = session(3, password)
    data = encode_transcript(ra.record, envelopes)
    decode_transcript(data, require_closed=True)
    for position in range(len(data)):
        for delta in (0x01, 0x80):
            damaged = bytearray(data)
            damaged[position] ^= delta
            with pytest.raises(TranscriptError):
                decode_transcript(bytes(damaged), require_closed=True)


def test_first_failing_envelope_is_named() -> None:
    ra, _, _, envelopes = session(4)
    data = bytearray(encode_transcript(ra.record, envelopes))
    # damage the last byte of envelope 2's body (a signature check fails there, not earlier)
    raw = envelopes[2].raw
    position = bytes(data).index(raw) + len(raw) - 1
    data[position] ^= 1
    with pytest.raises(TranscriptError) as info:
        decode_transcript(bytes(data))
    assert info.value.index == 2 and info.value.reason == "bad_signature"


def test_swapped_or_missing_envelopes_fail() -> None:
    ra, _, _, envelopes = session(4)
    swapped = [envelopes[0], envelopes[2], envelopes[1], envelopes[3]]
    with pytest.raises(TranscriptError) as info:
        decode_transcript(encode_transcript(ra.record, swapped))
    assert info.value.index == 1
    with pytest.raises(TranscriptError) as info:
        decode_transcript(encode_transcript(ra.record, envelopes[1:]))
    assert info.value.index == 0


def test_evidence_of_equivocation(tmp_path: Path) -> None:
    from koikoi_p2p.protocol.channel import seal_frame
    from koikoi_p2p.protocol.envelope import VERSION, sign_envelope

    ra, a, b, envelopes = session(2)
    # seat 0 signs a second envelope for seq 0
    fork = sign_envelope(a.identity, version=VERSION, session_id=a.wire_session_id, seq=0,
                         prev=a.handshake_hash,
                         sender=0, type="move", body={"i": 99})
    with pytest.raises(RemoteViolation) as info:
        b.open(seal_frame(a._send_key, fork))
    assert info.value.reason == "equivocation"
    path = tmp_path / "evidence.kke"
    write_evidence(path, ra.record, envelopes, reporter=1, error=info.value)
    evidence = read_evidence(path)
    assert evidence.reason == "equivocation" and evidence.reporter == 1
    assert evidence.finding.signed and evidence.finding.proven and evidence.finding.accused == 0
    assert evidence.finding.index == 0
    assert len(evidence.envelopes) == 2


def test_evidence_of_an_unsigned_frame_proves_nothing_about_the_peer() -> None:
    ra, _, _, envelopes = session(2)
    error = RemoteViolation("aead_failure", "frame does not authenticate", {"frame": b"\x10junk"})
    evidence = decode_evidence(encode_evidence(ra.record, envelopes, reporter=0, reason=error.reason,
                                               message=error.message, offence=error.evidence))
    assert not evidence.finding.signed and not evidence.finding.proven
    assert evidence.offence == {"frame": b"\x10junk"}


def test_evidence_single_byte_changes_fail() -> None:
    from koikoi_p2p.protocol import codec

    ra, _, _, envelopes = session(2)
    offence = {"envelope": envelopes[1].raw, "signature": envelopes[1].signature}
    data = encode_evidence(ra.record, envelopes[:1], reporter=0, reason="bad_move", message="m",
                           offence=offence)
    assert decode_evidence(data).finding.signed
    # The handshake record and the accepted envelopes are covered by signatures and the chain.
    # The header's reason/message/reporter are the reporter's claim and the offence is judged
    # (EvidenceFinding), not required to verify.
    covered = range(data.index(b"\xa9handshake"), len(data) - len(codec.encode({"offence": offence})))
    for position in covered:
        damaged = bytearray(data)
        damaged[position] ^= 1
        with pytest.raises(TranscriptError):
            decode_evidence(bytes(damaged))
    damaged = bytearray(data)
    damaged[-1] ^= 1                       # the offending envelope's signature
    assert not decode_evidence(bytes(damaged)).finding.signed
