"""The game messages: their type names and the exact shape of each body (spec/game.md §3).

The session layer signs, chains and seals an envelope ``(type, body)``; this module says which
``type`` strings the game uses and checks that a body has exactly the expected keys with values
of the expected wire types. Meaning (is it this seat's turn, does the proof verify, is the move
legal) is checked by the state machine in ``flow.py``; shape errors never reach it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from koikoi_p2p.protocol.errors import RemoteViolation

TERMS = "terms"
ACCEPT = "accept"
KEY = "key"
SHUFFLE = "shuffle"
REVEAL = "reveal"
ACT = "act"
DECLARE = "declare"
DISCLOSE = "disclose"
ROUND_SIGN = "round_sign"
MATCH_RESULT = "match_result"
MATCH_SIGN = "match_sign"
RESIGN = "resign"

# Wire types of body fields. "shares" is a list of [positions, data] groups, one per reveal step.
INT, BYTES, STR, DICT, LIST, SHARES, BOOL = "int", "bytes", "str", "dict", "list", "shares", "bool"

SCHEMAS: Mapping[str, Mapping[str, str]] = {
    TERMS: {"version": INT, "profile": DICT, "profile_digest": BYTES, "rounds": INT,
            "deadlines": DICT, "keys": LIST, "names": LIST, "room": STR, "rated": BOOL, "ratings": STR},
    ACCEPT: {"terms": BYTES},
    KEY: {"deal": INT, "key": BYTES},
    SHUFFLE: {"deal": INT, "deck": BYTES},
    REVEAL: {"shares": SHARES},
    ACT: {"action": DICT, "shares": SHARES},
    DECLARE: {"action": DICT, "shares": SHARES},
    DISCLOSE: {"deal": INT, "key": BYTES, "shares": SHARES},
    ROUND_SIGN: {"deal": INT, "result": DICT, "sig": BYTES},
    MATCH_RESULT: {"result": DICT, "sig": BYTES},
    MATCH_SIGN: {"sig": BYTES},
    RESIGN: {"result": DICT, "sig": BYTES},
}

#: Upper bounds that keep a hostile body from costing memory or time before it is checked.
MAX_POSITIONS = 48
MAX_DATA = 64 * 1024
MAX_DEAL = 1 << 20


@dataclass(frozen=True, slots=True)
class ShareGroup:
    """One reveal step's decryption shares: the deck positions and the deck protocol's bytes."""

    positions: tuple[int, ...]
    data: bytes

    def to_wire(self) -> list[object]:
        return [list(self.positions), self.data]


def bad(message: str) -> RemoteViolation:
    return RemoteViolation("bad_message", message)


def check_body(msg_type: str, body: Mapping[str, object]) -> None:
    """Raise ``RemoteViolation("bad_message")`` unless ``body`` has exactly the fields of ``msg_type``."""
    schema = SCHEMAS.get(msg_type)
    if schema is None:
        raise RemoteViolation("unknown_message", f"no game message of type {msg_type!r}")
    if not isinstance(body, Mapping) or set(body) != set(schema):
        raise bad(f"{msg_type}: fields must be exactly {sorted(schema)}")
    for name, kind in schema.items():
        _check_value(f"{msg_type}.{name}", kind, body[name])
    deal = body.get("deal")
    if isinstance(deal, int) and deal > MAX_DEAL:
        raise bad(f"{msg_type}.deal is out of range")


def _check_value(where: str, kind: str, value: object) -> None:
    if kind == INT:
        if type(value) is not int or value < 0:
            raise bad(f"{where} must be a non-negative integer")
    elif kind == BYTES:
        if not isinstance(value, bytes) or len(value) > MAX_DATA:
            raise bad(f"{where} must be bytes")
    elif kind == STR:
        if not isinstance(value, str) or len(value) > 256:
            raise bad(f"{where} must be a short string")
    elif kind == BOOL:
        if type(value) is not bool:
            raise bad(f"{where} must be true or false")
    elif kind == DICT:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise bad(f"{where} must be a map with string keys")
    elif kind == LIST:
        if not isinstance(value, list):
            raise bad(f"{where} must be a list")
    elif kind == SHARES:
        parse_shares(where, value)
    else:  # pragma: no cover - the table above is fixed
        raise AssertionError(kind)


def parse_shares(where: str, value: object) -> list[ShareGroup]:
    """Decode a ``shares`` field: a list of ``[positions, data]`` groups."""
    if not isinstance(value, list) or len(value) > MAX_POSITIONS:
        raise bad(f"{where} must be a list of share groups")
    groups: list[ShareGroup] = []
    for group in value:
        if not isinstance(group, list) or len(group) != 2:
            raise bad(f"{where}: a share group is [positions, data]")
        positions, data = group
        if (not isinstance(positions, list) or not positions or len(positions) > MAX_POSITIONS
                or not all(type(p) is int and 0 <= p < MAX_POSITIONS for p in positions)):
            raise bad(f"{where}: positions must be a non-empty list of deck positions")
        if not isinstance(data, bytes) or len(data) > MAX_DATA:
            raise bad(f"{where}: share data must be bytes")
        groups.append(ShareGroup(tuple(positions), data))
    return groups
