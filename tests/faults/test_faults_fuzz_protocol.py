"""Fuzzing the peer protocol's parsers: canonical codec, envelope decoder, channel, transcript files.

Invariant (STYLE.md): parse it, or raise the protocol's typed remote error, never anything else.
Inputs are bounded in size so no example can take long.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.net.memory import memory_pair
from koikoi_p2p.net.session import run_handshake
from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.channel import SecureChannel
from koikoi_p2p.protocol.envelope import SignedEnvelope, decode_envelope
from koikoi_p2p.protocol.errors import ProtocolError, RemoteViolation
from koikoi_p2p.protocol.handshake import Handshake, HandshakeResult
from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.transcript import (
    TranscriptError,
    decode_evidence,
    decode_transcript,
    encode_transcript,
)


@dataclass
class Session:
    host: HandshakeResult
    guest: HandshakeResult
    frames: list[bytes]            # frames sealed by the host, in order
    envelopes: list[SignedEnvelope]
    transcript: bytes


def _session() -> Session:
    async def handshake() -> tuple[HandshakeResult, HandshakeResult]:
        a, b = memory_pair()
        ha = Handshake(seat=0, identity=Identity.generate(), room="FUZZ23", password="pw")
        hb = Handshake(seat=1, identity=Identity.generate(), room="FUZZ23", password="pw")
        return await asyncio.gather(run_handshake(a, ha), run_handshake(b, hb))

    host, guest = asyncio.run(handshake())
    frames, envelopes = [], []
    for i in range(3):
        frame, env = host.channel.seal("act", {"n": i, "blob": bytes(range(i * 10))})
        frames.append(frame)
        envelopes.append(env)
    return Session(host, guest, frames, envelopes, encode_transcript(host.record, envelopes))


SESSION = _session()


def _fresh_receiver() -> SecureChannel:
    """The guest's channel as it was before it opened anything (each example starts clean)."""
    return SecureChannel.from_state(SESSION.guest.channel.to_state(), SESSION.guest.channel.identity)


def _typed(exc: BaseException) -> None:
    assert isinstance(exc, ProtocolError), f"untyped {type(exc).__name__}: {exc}"
    assert isinstance(exc.reason, str) and exc.reason


# --- canonical codec and envelope decoder --------------------------------------------------------

@given(st.binary(max_size=512))
def test_codec_decode_random(data: bytes) -> None:
    try:
        value = codec.decode(data)
    except RemoteViolation as exc:
        _typed(exc)
    else:
        assert codec.encode(value) == data


@given(st.binary(max_size=512), st.binary(min_size=0, max_size=70))
def test_envelope_decoder_random(raw: bytes, signature: bytes) -> None:
    try:
        decode_envelope(raw, signature)
    except RemoteViolation as exc:
        _typed(exc)


@given(st.data())
def test_envelope_decoder_mutated(data: st.DataObject) -> None:
    env = data.draw(st.sampled_from(SESSION.envelopes))
    raw = bytearray(env.raw)
    for _ in range(data.draw(st.integers(1, 4))):
        index = data.draw(st.integers(0, len(raw) - 1))
        raw[index] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    try:
        decoded = decode_envelope(bytes(raw[:cut]), env.signature)
    except RemoteViolation as exc:
        _typed(exc)
    else:
        assert decoded.raw == bytes(raw[:cut])


# --- the channel ---------------------------------------------------------------------------------

@given(st.binary(max_size=600))
def test_channel_open_random(frame: bytes) -> None:
    try:
        _fresh_receiver().open(frame)
    except RemoteViolation as exc:
        _typed(exc)


@given(st.data())
def test_channel_open_mutated_frames(data: st.DataObject) -> None:
    channel = _fresh_receiver()
    first = SESSION.frames[0]
    frame = bytearray(first)
    index = data.draw(st.integers(0, len(frame) - 1))
    frame[index] ^= data.draw(st.integers(1, 255))
    try:
        env = channel.open(bytes(frame))
    except RemoteViolation as exc:
        _typed(exc)
    else:  # only the header's unauthenticated bits could change without the AEAD noticing
        pytest.fail(f"a mutated frame was accepted: {env}")


def test_channel_duplicate_is_none_and_gap_is_a_violation() -> None:
    channel = _fresh_receiver()
    assert channel.open(SESSION.frames[0]) is not None
    assert channel.open(SESSION.frames[0]) is None
    with pytest.raises(RemoteViolation) as info:
        channel.open(SESSION.frames[2])
    assert info.value.reason == "bad_seq"


# --- transcript and evidence files ---------------------------------------------------------------

def test_the_fuzzed_transcript_is_valid() -> None:
    transcript = decode_transcript(SESSION.transcript, require_closed=True)
    assert len(transcript.envelopes) == 3 and transcript.closed


@given(st.data())
def test_transcript_truncated_or_mutated(data: st.DataObject) -> None:
    blob = bytearray(SESSION.transcript)
    if data.draw(st.booleans()):
        for _ in range(data.draw(st.integers(1, 3))):
            index = data.draw(st.integers(0, len(blob) - 1))
            blob[index] ^= data.draw(st.integers(1, 255))
    cut = data.draw(st.integers(0, len(blob)))
    try:
        transcript = decode_transcript(bytes(blob[:cut]))
    except TranscriptError as exc:
        _typed(exc)
    else:
        # Whatever still parses is a verified prefix of the real transcript.
        got = [e.raw for e in transcript.envelopes]
        assert got == [e.raw for e in SESSION.envelopes][:len(got)]


@given(st.binary(max_size=600))
def test_transcript_random(data: bytes) -> None:
    for blob in (data, SESSION.transcript[:8] + data):
        try:
            decode_transcript(blob)
        except TranscriptError as exc:
            _typed(exc)


@given(st.binary(max_size=600))
def test_evidence_random(data: bytes) -> None:
    try:
        decode_evidence(b"\x89KKEVID\n" + data)
    except TranscriptError as exc:
        _typed(exc)
