"""Fuzzing the session's parsers: random and mutated input only ever raises the typed remote
error (or, for the channel, returns None for an exact duplicate), never anything else."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.protocol.channel import SecureChannel
from koikoi_p2p.protocol.envelope import decode_envelope
from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.handshake import verify_handshake_record
from tests.protocol.session_util import channel_pair, handshake_pair, run_pair

# One honest session, computed once: frames to mutate.
_A, _B = channel_pair(seed=b"fuzz")
_FRAMES = [_A.seal("move", {"card": 7, "data": bytes(40), "list": [1, "x", None]})[0] for _ in range(3)]
_STATE_B = _B.to_state()
_ENV = _A.seal("move", {"k": 1})[1]
_HS = handshake_pair(seed=b"fuzz-hs", password="pw")
_, _, _HS_FRAMES = run_pair(*_HS)


def fresh_receiver() -> SecureChannel:
    return SecureChannel.from_state(_STATE_B)


def mutate(data: bytes, edits: list[tuple[int, int]], cut: int | None) -> bytes:
    out = bytearray(data)
    for position, value in edits:
        out[position % len(out)] = value
    return bytes(out[:cut]) if cut is not None else bytes(out)


edits = st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=4)


def open_or_typed(frame: bytes) -> None:
    receiver = fresh_receiver()
    try:
        result = receiver.open(frame)
    except RemoteViolation as exc:
        assert exc.reason and isinstance(exc.evidence, dict)
        assert receiver.failed == exc.reason
    else:
        assert result is not None and result.seq == 0   # only the untouched first frame opens


@given(st.binary(max_size=300))
def test_channel_random_frames(frame: bytes) -> None:
    open_or_typed(frame)


@given(st.sampled_from(_FRAMES), edits, st.none() | st.integers(0, 400))
def test_channel_mutated_frames(frame: bytes, changes: list[tuple[int, int]], cut: int | None) -> None:
    open_or_typed(mutate(frame, changes, cut))


@given(st.binary(max_size=200), st.binary(min_size=64, max_size=64))
def test_envelope_decoder_random(raw: bytes, signature: bytes) -> None:
    try:
        decode_envelope(raw, signature)
    except RemoteViolation as exc:
        assert exc.reason == "bad_envelope"


@given(edits, st.none() | st.integers(0, 200))
def test_envelope_decoder_mutated(changes: list[tuple[int, int]], cut: int | None) -> None:
    raw = mutate(_ENV.raw, changes, cut)
    try:
        env = decode_envelope(raw, _ENV.signature)
    except RemoteViolation as exc:
        assert exc.reason == "bad_envelope"
    else:
        assert env.raw == raw


@given(st.integers(0, 3), edits, st.none() | st.integers(0, 200), st.booleans())
def test_handshake_mutated_frames(index: int, changes: list[tuple[int, int]], cut: int | None,
                                  random_instead: bool) -> None:
    a, b = handshake_pair(seed=b"fuzz-hs", password="pw")
    a.start()
    b.start()
    frames = list(_HS_FRAMES)
    frames[index] = mutate(frames[index], changes, cut)
    receivers = [b, a, b, a]
    try:
        for i, frame in enumerate(frames[: index + 1]):
            receivers[i].receive(frame)
    except RemoteViolation as exc:
        assert exc.reason
    else:
        assert frames[index] == _HS_FRAMES[index] or index in (0, 1)   # only unauthenticated bytes pass


@given(st.dictionaries(st.sampled_from(["version", "room", "hello", "reply", "reveal", "keys", "signatures",
                                        "extra"]),
                       st.integers() | st.binary(max_size=70) | st.text(max_size=5)
                       | st.lists(st.binary(max_size=64), max_size=3)))
def test_handshake_record_garbage(record: dict[str, object]) -> None:
    try:
        verify_handshake_record(record)
    except RemoteViolation as exc:
        assert exc.reason in ("bad_handshake_record", "bad_signature", "bad_key")


@given(st.sampled_from([0, 1]), st.binary(max_size=200))
def test_handshake_random_frames(seat: int, frame: bytes) -> None:
    a, b = handshake_pair(seed=b"fuzz-hs", password=None)
    a.start()
    b.start()
    try:
        (a if seat == 0 else b).receive(frame)
    except RemoteViolation as exc:
        assert exc.reason
    else:
        assert seat == 1 and frame[:1] == b"\x01"   # only a well-formed HELLO passes unchecked


def _transcript_bytes() -> bytes:
    from koikoi_p2p.protocol.transcript import encode_transcript

    ra, rb, _ = run_pair(*handshake_pair(seed=b"fuzz-transcript"))
    a, b = ra.channel, rb.channel
    envs = []
    for i in range(3):
        sender, receiver = (a, b) if i % 2 == 0 else (b, a)
        frame, env = sender.seal("move", {"i": i})
        receiver.open(frame)
        envs.append(env)
    return encode_transcript(ra.record, envs)


_TRANSCRIPT = _transcript_bytes()


@given(edits, st.none() | st.integers(0, len(_TRANSCRIPT)))
def test_transcript_reader_raises_only_its_error(changes: list[tuple[int, int]], cut: int | None) -> None:
    from koikoi_p2p.protocol.transcript import TranscriptError, decode_transcript

    data = mutate(_TRANSCRIPT, changes, cut)
    try:
        transcript = decode_transcript(data)
    except TranscriptError as exc:
        assert exc.reason
    else:
        # only an unchanged file, or one cut exactly at an entry boundary (reported as not closed)
        assert data == _TRANSCRIPT or not transcript.closed
