"""The relay's decoder: any bytes give a typed message or a MessageError, and valid messages round-trip."""

from __future__ import annotations

from typing import Any

import msgpack
from hypothesis import given
from hypothesis import strategies as st

from koikoi_relay.errors import MessageError
from koikoi_relay.messages import (
    Ack,
    ClientMessage,
    Create,
    Frame,
    Join,
    Leave,
    Lobby,
    RejectPeer,
    Resume,
    Sync,
    decode_client_message,
)

REASONS = {"malformed", "unknown_type", "bad_meta", "bad_listing"}
uint = st.integers(0, 2**63 - 1)
# Lobby text shows in terminals and pages: no control, format or separator characters (issue 25).
shown = st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
meta_values = st.booleans() | st.integers(-(2**31), 2**31 - 1) | st.text(shown, max_size=64)
metas = st.dictionaries(st.text(shown, min_size=1, max_size=32), meta_values, max_size=8)
messages: st.SearchStrategy[ClientMessage] = st.one_of(
    st.builds(Create, st.booleans(), metas),
    st.builds(Join, st.text(max_size=32)),
    st.just(Lobby()),
    st.builds(Resume, st.binary(min_size=24, max_size=24), uint),
    st.builds(Frame, uint, st.none() | uint, st.binary(max_size=64)),
    st.builds(Ack, uint),
    st.builds(Sync, uint),
    st.just(RejectPeer()),
    st.just(Leave()),
)


def _fields(message: ClientMessage) -> dict[str, Any]:
    kind = {Create: "create", Join: "join", Lobby: "lobby", Resume: "resume", Frame: "frame", Ack: "ack",
            Sync: "sync", RejectPeer: "reject_peer", Leave: "leave"}[type(message)]
    fields: dict[str, Any] = {name: getattr(message, name) for name in message.__slots__}
    fields["type"] = kind
    return fields


def _decode_or_typed_error(data: bytes) -> None:
    try:
        decode_client_message(data)
    except MessageError as exc:
        assert exc.reason in REASONS


@given(messages)
def test_valid_messages_round_trip(message: ClientMessage) -> None:
    fields = _fields(message)
    assert decode_client_message(msgpack.packb(fields, use_bin_type=True)) == message
    fields["unknown_key"] = [1, 2]  # unknown keys are ignored (spec/relay.md §4.1)
    assert decode_client_message(msgpack.packb(fields, use_bin_type=True)) == message


@given(st.binary(max_size=200))
def test_arbitrary_bytes(data: bytes) -> None:
    _decode_or_typed_error(data)


@given(messages, st.data())
def test_mutated_messages(message: ClientMessage, data: st.DataObject) -> None:
    raw = bytearray(msgpack.packb(_fields(message), use_bin_type=True))
    for _ in range(data.draw(st.integers(1, 4))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    _decode_or_typed_error(bytes(raw[: data.draw(st.integers(0, len(raw)))]))


@given(st.dictionaries(st.sampled_from(["type", "seq", "data", "meta", "code", "token", "received", "public",
                                        "ack"]),
                       st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
                       | st.binary(max_size=8) | st.lists(st.integers(), max_size=2)
                       | st.sampled_from(["frame", "create", "join", "resume", "ack", "lobby"])))
def test_wrongly_typed_fields(value: dict[str, Any]) -> None:
    try:
        data = msgpack.packb(value, use_bin_type=True)
    except (OverflowError, TypeError, ValueError):
        return
    _decode_or_typed_error(data)


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 40), st.integers(0, 300)), max_size=80),
       st.integers(1, 20), st.integers(1, 2000))
def test_resume_buffer_invariants(steps: list[tuple[bool, int, int]], frames: int, size: int) -> None:
    """Whatever the pushes and acks, the outbox holds a contiguous tail of seqs within its bounds."""
    from koikoi_relay.limits import Limits
    from koikoi_relay.state import Seat

    seat = Seat(0, bytes(24))
    limits = Limits(buffer_frames=frames, buffer_bytes=size)
    acked = 0
    for push, ack, length in steps:
        if push:
            seat.push(b"x" * length, limits)
        else:
            acked = max(acked, min(ack, seat.out_count))  # an ack of unsent frames is forgotten
            seat.acknowledge(ack)
        seqs = [seq for seq, _ in seat.outbox]
        assert seqs == list(range(seat.first_buffered(), seat.out_count))
        assert len(seqs) <= frames and seat.outbox_bytes <= size
        assert seat.outbox_bytes == sum(len(data) for _, data in seat.outbox)
        assert all(seq >= acked for seq in seqs)
