"""Canonical msgpack: one byte string for one value, so signatures can cover exact bytes.

Rules (spec/protocol.md §3): values are int (-2^63 .. 2^64-1), bytes (bin), str (UTF-8),
bool, nil, array and map with str keys; no float, no ext. Every value takes its shortest
msgpack form; map keys are sorted by their encoded bytes and unique. The decoder accepts a byte
string only if re-encoding what it read gives the very same bytes.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from typing import Any, cast

import msgpack

from koikoi_p2p.protocol.errors import LocalMisuse, RemoteViolation

# A value of the canonical data model (what ``decode`` returns: lists and dicts).
Value = int | bytes | str | bool | None | list["Value"] | dict[str, "Value"]

MAX_DEPTH = 32
MAX_SIZE = 1 << 24
_INT_MIN = -(1 << 63)
_INT_MAX = (1 << 64) - 1


class _NotCanonical(Exception):
    """Internal: the value is outside the canonical data model."""


@functools.lru_cache(maxsize=4096)
def _packed_key(key: str) -> bytes:
    """A map key's encoded bytes (its sort key); few distinct keys occur, so they are cached."""
    return cast(bytes, msgpack.packb(key, use_bin_type=True))


def _normalise(value: object, depth: int) -> object:
    """Check the data model and return the value with every map sorted canonically."""
    if depth > MAX_DEPTH:
        raise _NotCanonical("nested too deeply")
    if value is None or isinstance(value, (bool, str, bytes)):
        return value
    if isinstance(value, int):
        if not _INT_MIN <= value <= _INT_MAX:
            raise _NotCanonical("integer out of range")
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, (list, tuple)):
        return [_normalise(item, depth + 1) for item in value]
    if isinstance(value, Mapping):
        items = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise _NotCanonical("map key is not a string")
            items.append((_packed_key(key), key, _normalise(item, depth + 1)))
        items.sort(key=lambda entry: entry[0])
        for first, second in itertools.pairwise(items):
            if first[0] == second[0]:
                raise _NotCanonical("duplicate map key")
        return {key: item for _, key, item in items}
    raise _NotCanonical(f"type {type(value).__name__} is not allowed")


def encode(value: object) -> bytes:
    """Canonical bytes of ``value``; ``LocalMisuse("not_encodable")`` outside the data model."""
    try:
        normal = _normalise(value, 0)
    except _NotCanonical as exc:
        raise LocalMisuse("not_encodable", str(exc)) from None
    return cast(bytes, msgpack.packb(normal, use_bin_type=True))


def _reject_ext(code: int, data: bytes) -> object:
    raise _NotCanonical("ext types are not allowed")


def decode(data: bytes, *, reason: str = "non_canonical") -> Value:
    """Decode exactly one canonical value; anything else raises ``RemoteViolation(reason)``."""
    if not isinstance(data, (bytes, bytearray)):
        raise LocalMisuse("not_bytes", "decode takes bytes")
    data = bytes(data)
    if len(data) > MAX_SIZE:
        raise RemoteViolation(reason, "value too large")
    try:
        value: Any = msgpack.unpackb(
            data, raw=False, use_list=True, strict_map_key=True, ext_hook=_reject_ext,
        )
        # msgpack writes every length and integer in its shortest form and keeps the map order it
        # read, so re-packing what was read gives the input back exactly when the input used
        # shortest forms only, had no duplicate key and nothing after the value. What re-packing
        # cannot see (a float64, a bytes map key, the key order) is checked separately.
        again = msgpack.packb(value, use_bin_type=True)
        if again == data:
            _check_model(value, 0)
    except _NotCanonical as exc:
        raise RemoteViolation(reason, f"not canonical: {exc}") from None
    except Exception as exc:  # msgpack raises a zoo of types (ValueError, ExtraData, ...)
        raise RemoteViolation(reason, f"not canonical msgpack: {type(exc).__name__}") from None
    if again != data:
        raise RemoteViolation(reason, "not in canonical form")
    return cast(Value, value)


def _check_model(value: object, depth: int) -> None:
    """Raise ``_NotCanonical`` unless a decoded value is in the data model with sorted maps."""
    if depth > MAX_DEPTH:
        raise _NotCanonical("nested too deeply")
    kind = type(value)
    if kind is bytes or kind is str or kind is int or kind is bool or value is None:
        return
    if kind is list:
        if value and depth + 1 > MAX_DEPTH:
            raise _NotCanonical("nested too deeply")
        for item in cast(list[object], value):
            if type(item) is list or type(item) is dict:
                _check_model(item, depth + 1)
            elif not (type(item) in _SCALARS or item is None):
                raise _NotCanonical(f"type {type(item).__name__} is not allowed")
        return
    if kind is dict:
        previous = b""
        for key, item in cast(dict[object, object], value).items():
            if type(key) is not str:
                raise _NotCanonical("map key is not a string")
            packed = _packed_key(key)
            if packed <= previous:
                raise _NotCanonical("map keys out of order")
            previous = packed
            _check_model(item, depth + 1)
        return
    raise _NotCanonical(f"type {kind.__name__} is not allowed")


_SCALARS = frozenset({bytes, str, int, bool})
