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


@given(st.integers(0, 255), st.binary(min_size=16, max_size=16), st.integers(0, 2**32 - 1),
       st.binary(min_size=32, max_size=32), st.sampled_from([0, 1]),
       st.from_regex(r"[a-z][a-z0-9_.-]{0,31}", fullmatch=True),
       st.dictionaries(st.text(max_size=8), values, max_size=4))
def test_envelope_round_trip(version: int, session_id: bytes, seq: int, prev: bytes, sender: int,
                             type_: str, body: dict[str, object]) -> None:
    from koikoi_p2p.protocol.envelope import decode_envelope, encode_envelope

    raw = encode_envelope(version=version, session_id=session_id, seq=seq, prev=prev, sender=sender,
                          type=type_, body=body)
    env = decode_envelope(raw, bytes(64))
    assert (env.version, env.session_id, env.seq, env.prev, env.sender, env.type) == (
        version, session_id, seq, prev, sender, type_)
    assert codec.encode(env.body) == codec.encode(body) and env.raw == raw


@given(st.dictionaries(st.text(max_size=6), scalars,
                       min_size=2, max_size=6), st.randoms(use_true_random=False))
def test_plain_msgpack_is_accepted_exactly_when_it_is_canonical(mapping: dict[str, object],
                                                                 rnd: object) -> None:
    """A map packed by plain msgpack in some key order decodes only if that order is canonical."""
    import msgpack

    items = list(mapping.items())
    rnd.shuffle(items)  # type: ignore[attr-defined]
    data = msgpack.packb(dict(items), use_bin_type=True)
    try:
        codec.decode(data)
        accepted = True
    except RemoteViolation:
        accepted = False
    assert accepted == (data == codec.encode(mapping))
