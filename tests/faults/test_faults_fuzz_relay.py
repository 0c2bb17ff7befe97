"""Fuzzing the relay's control-message decoder: it returns a typed message or raises MessageError."""

from __future__ import annotations

from typing import Any

import msgpack
from hypothesis import given
from hypothesis import strategies as st

from koikoi_relay.errors import MessageError
from koikoi_relay.messages import ClientMessage, decode_client_message

TYPES = ["frame", "ack", "create", "join", "lobby", "resume", "reject_peer", "leave", "nope", ""]
scalars = (
    st.none() | st.booleans() | st.integers(-(2**64) + 1, 2**64 - 1) | st.floats(allow_nan=True)
    | st.text(max_size=40) | st.binary(max_size=40)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=34) | st.integers(), inner,
                                                                  max_size=10),
    max_leaves=20,
)
shaped = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES) | values},
    optional={
        "seq": values, "ack": values, "data": values, "public": values, "meta": values, "code": values,
        "token": st.binary(min_size=23, max_size=25) | values, "received": values,
    },
)


def _decode(data: bytes) -> ClientMessage | None:
    try:
        return decode_client_message(data)
    except MessageError as exc:
        assert exc.reason in {"malformed", "unknown_type", "bad_meta", "bad_listing"}
        return None


@given(st.binary(max_size=300))
def test_random_bytes(data: bytes) -> None:
    _decode(data)


@given(shaped)
def test_shaped_maps(value: dict[str, Any]) -> None:
    try:
        data = msgpack.packb(value, use_bin_type=True)
    except (TypeError, ValueError, OverflowError):
        return
    message = _decode(data)
    if message is not None:
        assert type(message).__name__.lower().replace("_", "") in {
            "frame", "ack", "create", "join", "lobby", "resume", "rejectpeer", "leave",
        }


@given(shaped, st.data())
def test_truncated_and_flipped(value: dict[str, Any], data: st.DataObject) -> None:
    try:
        raw = msgpack.packb(value, use_bin_type=True)
    except (TypeError, ValueError, OverflowError):
        return
    cut = data.draw(st.integers(0, len(raw)))
    _decode(raw[:cut])
    if raw:
        index = data.draw(st.integers(0, len(raw) - 1))
        flipped = bytearray(raw)
        flipped[index] ^= data.draw(st.integers(1, 255))
        _decode(bytes(flipped))


def test_deep_nesting_and_huge_declared_sizes_are_typed_errors() -> None:
    nasty = (b"\x91" * 100_000, b"\xdd\xff\xff\xff\xff", b"\xdb\xff\xff\xff\xff", b"\xc6\x7f\xff\xff\xff")
    for data in nasty:
        _decode(data)


@given(st.binary(max_size=300) | shaped.map(lambda v: msgpack.packb(v, use_bin_type=True, default=repr)))
def test_relay_client_reads_any_relay_message_or_raises_relay_error(data: bytes) -> None:
    """The client side of the same protocol: what a hostile relay sends is parsed or refused."""
    from koikoi_p2p.net.relay_client import RelayError, _unpack

    try:
        message = _unpack(data)
    except RelayError as exc:
        assert exc.reason == "bad_relay_message"
    else:
        assert isinstance(message, dict) and isinstance(message["type"], str)
