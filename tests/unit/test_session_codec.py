"""Canonical msgpack (spec/protocol.md §3): one encoding per value, strict decoding."""

from __future__ import annotations

import pytest

from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.errors import LocalMisuse, RemoteViolation


def test_known_encodings() -> None:
    assert codec.encode(0) == b"\x00"
    assert codec.encode(127) == b"\x7f"
    assert codec.encode(128) == b"\xcc\x80"
    assert codec.encode(-1) == b"\xff"
    assert codec.encode(-33) == b"\xd0\xdf"
    assert codec.encode(2**64 - 1) == b"\xcf" + b"\xff" * 8
    assert codec.encode(b"ab") == b"\xc4\x02ab"
    assert codec.encode("ab") == b"\xa2ab"
    assert codec.encode(None) == b"\xc0"
    assert codec.encode([True, False]) == b"\x92\xc3\xc2"
    assert codec.encode((1, 2)) == b"\x92\x01\x02"


def test_map_keys_sorted_by_encoded_bytes() -> None:
    # "b" (fixstr 1) sorts before "aa" (fixstr 2): the length is in the first byte.
    assert codec.encode({"aa": 1, "b": 2, "a": 3}) == b"\x83\xa1a\x03\xa1b\x02\xa2aa\x01"


@pytest.mark.parametrize("value", [1.5, {1: 2}, {b"k": 1}, 2**64, -(2**63) - 1, object(), {"a": {1, 2}}])
def test_values_outside_the_model_are_local_misuse(value: object) -> None:
    with pytest.raises(LocalMisuse) as info:
        codec.encode(value)
    assert info.value.reason == "not_encodable"


def test_nesting_is_bounded() -> None:
    value: object = 1
    for _ in range(codec.MAX_DEPTH + 1):
        value = [value]
    with pytest.raises(LocalMisuse):
        codec.encode(value)


@pytest.mark.parametrize("data", [
    b"\xcc\x01",                      # 1 in a longer form than needed
    b"\xd0\x05",                      # positive int as int8
    b"\xca\x00\x00\x00\x00",          # float32
    b"\xcb" + bytes(8),               # float64
    b"\x82\xa1b\x01\xa1a\x02",        # keys out of order
    b"\x82\xa1a\x01\xa1a\x01",        # duplicate key
    b"\x81\x01\x01",                  # int key
    b"\x81\xc4\x01a\x01",             # bin key
    b"\xd4\x01\x00",                  # ext
    b"\xc1",                          # never used
    b"\xa2\xff\xfe",                  # invalid UTF-8
    b"\xd9\x01a",                     # str8 for a short string
    b"\xc5\x00\x01a",                 # bin16 for a short byte string
    b"\x01\x02",                      # trailing bytes
    b"\x92\x01",                      # truncated
    b"",                              # nothing
])
def test_non_canonical_bytes_are_rejected(data: bytes) -> None:
    with pytest.raises(RemoteViolation) as info:
        codec.decode(data)
    assert info.value.reason == "non_canonical"


def test_decode_reason_is_configurable() -> None:
    with pytest.raises(RemoteViolation) as info:
        codec.decode(b"\xc1", reason="bad_envelope")
    assert info.value.reason == "bad_envelope"


def test_round_trip_returns_lists_and_dicts() -> None:
    value = {"b": [1, (2, 3)], "a": {"x": b"\x00", "y": None}}
    assert codec.decode(codec.encode(value)) == {"a": {"x": b"\x00", "y": None}, "b": [1, [2, 3]]}


def test_decoder_and_encoder_agree_on_the_nesting_bound() -> None:
    import msgpack

    for depth in (codec.MAX_DEPTH, codec.MAX_DEPTH + 1):
        for leaf in (1, {"a": 1}):
            value: object = leaf
            for _ in range(depth):
                value = [value]
            data = msgpack.packb(value)
            try:
                codec.encode(value)
                encodable = True
            except LocalMisuse:
                encodable = False
            try:
                codec.decode(data)
                decodable = True
            except RemoteViolation:
                decodable = False
            assert encodable == decodable, (depth, leaf)


@pytest.mark.parametrize("data", [
    b"\xcb" + bytes(8),                 # float64 re-packs to the same bytes: refused by type
    b"\x91\xcb" + bytes(8),             # ... also inside an array
    b"\x81\xa1a\xcb" + bytes(8),        # ... and a map
    b"\x81\xc4\x01a\x01",               # bin key re-packs the same: refused by type
    b"\x82\xa2aa\x01\xa1b\x02",         # longer key first: out of order
])
def test_what_re_packing_cannot_see_is_checked(data: bytes) -> None:
    with pytest.raises(RemoteViolation):
        codec.decode(data)
    assert codec.decode(b"\x92\x81\xa1b\x01\x81\xa1b\x01") == [{"b": 1}, {"b": 1}]
