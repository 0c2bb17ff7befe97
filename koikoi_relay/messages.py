"""Control-message codec of the relay protocol (spec/relay.md §4, §5).

Every websocket message is one binary msgpack map with a string ``type``. Peer data travels inside
``{"type": "frame", "seq": n, "data": bin}``, so control messages and opaque peer frames can never
be confused. Unknown keys are ignored (forward compatibility); unknown types are an error.
``decode_client_message`` either returns a typed message or raises ``MessageError``, nothing else.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgpack

from koikoi_relay.errors import MessageError
from koikoi_relay.listing import Listing, parse_listing

MetaValue = str | int | bool
Meta = dict[str, MetaValue]

META_KEY_MAX = 32
META_TEXT_MAX = 64
TOKEN_BYTES = 24
MAX_SEQ = 2**63 - 1


@dataclass(frozen=True, slots=True)
class Create:
    public: bool
    meta: Meta
    listing: Listing | None = None     # the room's lobby listing (spec/relay.md §4.2)


@dataclass(frozen=True, slots=True)
class Join:
    code: str


@dataclass(frozen=True, slots=True)
class Lobby:
    rejoin: str | None = None      # list only the rejoin rooms with this tag (spec/relay.md §4)


@dataclass(frozen=True, slots=True)
class Resume:
    token: bytes
    received: int


@dataclass(frozen=True, slots=True)
class Frame:
    seq: int
    ack: int | None
    data: bytes


@dataclass(frozen=True, slots=True)
class Ack:
    seq: int


@dataclass(frozen=True, slots=True)
class Sync:
    received: int


@dataclass(frozen=True, slots=True)
class RejectPeer:
    pass


@dataclass(frozen=True, slots=True)
class Leave:
    pass


ClientMessage = Create | Join | Lobby | Resume | Frame | Ack | Sync | RejectPeer | Leave


def unpack_map(data: bytes) -> dict[str, Any]:
    """The msgpack map of a message, or MessageError("malformed")."""
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True)
    except Exception as exc:  # msgpack raises many unrelated types; all mean "not msgpack"
        raise MessageError("malformed", f"not a msgpack value ({type(exc).__name__})") from None
    if not isinstance(value, dict):
        raise MessageError("malformed", "a message is a msgpack map")
    kind = value.get("type")
    if not isinstance(kind, str):
        raise MessageError("malformed", "a message has a string 'type'")
    return value


def _uint(value: object, name: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_SEQ:
        raise MessageError("malformed", f"'{name}' must be an unsigned integer")
    return value


def shown_safely(text: str) -> bool:
    """Whether ``text`` can be shown in a list as it is: no code point of Unicode category C*
    (controls, format characters such as bidirectional overrides, surrogates, private use,
    unassigned) nor a line or paragraph separator (Zl, Zp). The rule a display name follows
    (koikoi_p2p.protocol.identity.name_problem, spec/protocol.md §5.1), restated here because the
    relay imports nothing of the game; a test checks that both agree on every code point."""
    return text.isprintable() or not any(
        unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp") for ch in text)


def _meta(value: object, max_entries: int) -> Meta:
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > max_entries:
        raise MessageError("bad_meta", f"meta is a map of at most {max_entries} entries")
    meta: Meta = {}
    for key, item in value.items():
        if not isinstance(key, str) or not 1 <= len(key) <= META_KEY_MAX:
            raise MessageError("bad_meta", f"meta keys are strings of 1..{META_KEY_MAX} characters")
        if not shown_safely(key):
            raise MessageError("bad_meta", "meta has no control, format or separator characters")
        if isinstance(item, bool):
            meta[key] = item
        elif type(item) is int and -(2**31) <= item < 2**31:
            meta[key] = item
        elif isinstance(item, str) and len(item) <= META_TEXT_MAX:
            if not shown_safely(item):
                raise MessageError("bad_meta", "meta has no control, format or separator characters")
            meta[key] = item
        else:
            raise MessageError("bad_meta", f"meta values: bool, 32-bit int, str <= {META_TEXT_MAX}")
    return meta


def parse_client_message(value: Mapping[str, Any], max_meta_entries: int = 8) -> ClientMessage:
    """A typed client message from an unpacked map (spec/relay.md §4)."""
    kind = value.get("type")
    if kind == "frame":
        data = value.get("data")
        if not isinstance(data, bytes):
            raise MessageError("malformed", "'data' must be binary")
        ack = value.get("ack")
        return Frame(_uint(value.get("seq"), "seq"), None if ack is None else _uint(ack, "ack"), data)
    if kind == "ack":
        return Ack(_uint(value.get("seq"), "seq"))
    if kind == "create":
        public = value.get("public", False)
        if not isinstance(public, bool):
            raise MessageError("malformed", "'public' must be a bool")
        return Create(public, _meta(value.get("meta"), max_meta_entries), parse_listing(value.get("listing")))
    if kind == "join":
        code = value.get("code")
        if not isinstance(code, str) or len(code) > 32:
            raise MessageError("malformed", "'code' must be a short string")
        return Join(code)
    if kind == "lobby":
        rejoin = value.get("rejoin")
        if rejoin is not None and (not isinstance(rejoin, str) or not 1 <= len(rejoin) <= META_TEXT_MAX):
            raise MessageError("malformed", "'rejoin' must be a short string")
        return Lobby(rejoin)
    if kind == "resume":
        token = value.get("token")
        if not isinstance(token, bytes) or len(token) != TOKEN_BYTES:
            raise MessageError("malformed", f"'token' must be {TOKEN_BYTES} bytes")
        return Resume(token, _uint(value.get("received"), "received"))
    if kind == "sync":
        return Sync(_uint(value.get("received"), "received"))
    if kind == "reject_peer":
        return RejectPeer()
    if kind == "leave":
        return Leave()
    raise MessageError("unknown_type", f"unknown message type {str(kind)[:32]!r}")


def decode_client_message(data: bytes, max_meta_entries: int = 8) -> ClientMessage:
    """Decode one binary websocket message from a client; MessageError on anything invalid."""
    return parse_client_message(unpack_map(data), max_meta_entries)


def encode(kind: str, **fields: object) -> bytes:
    """One relay-to-client message."""
    fields["type"] = kind
    out: bytes = msgpack.packb(fields, use_bin_type=True)
    return out


def encode_frame(seq: int, ack: int, data: bytes) -> bytes:
    """A forwarded peer frame, numbered in its direction, carrying the relay's ack of the recipient."""
    out: bytes = msgpack.packb({"type": "frame", "seq": seq, "ack": ack, "data": data}, use_bin_type=True)
    return out
