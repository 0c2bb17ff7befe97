"""Hypothesis: the canonical codec round-trips, and the decoder never fails untyped."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.errors import RemoteViolation

scalars = (st.integers(min_value=-(2**63), max_value=2**64 - 1) | st.binary(max_size=40)
           | st.text(max_size=20) | st.booleans() | st.none())
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=25,
)


@given(values)
def test_round_trip(value: object) -> None:
    data = codec.encode(value)
    decoded = codec.decode(data)
    assert codec.encode(decoded) == data
    assert decoded == codec.decode(codec.encode(decoded))


@given(values)
def test_key_order_does_not_matter(value: object) -> None:
    if isinstance(value, dict):
        reversed_map = dict(reversed(list(value.items())))
        assert codec.encode(reversed_map) == codec.encode(value)


@given(st.binary(max_size=64))
def test_random_bytes_decode_or_raise_typed(data: bytes) -> None:
    try:
        value = codec.decode(data)
    except RemoteViolation as exc:
        assert exc.reason == "non_canonical"
    else:
        assert codec.encode(value) == data


@given(values, st.data())
def test_mutated_encodings_decode_or_raise_typed(value: object, data: st.DataObject) -> None:
    raw = bytearray(codec.encode(value))
    position = data.draw(st.integers(0, len(raw) - 1))
    raw[position] = data.draw(st.integers(0, 255))
    try:
        decoded = codec.decode(bytes(raw))
    except RemoteViolation as exc:
        assert exc.reason == "non_canonical"
    else:
        assert codec.encode(decoded) == bytes(raw)
