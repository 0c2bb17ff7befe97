"""Generator of spec/vectors/relay/messages.json, codes.json and listings.json (deterministic; run
from the repo root).

    python spec/vectors/relay/generate.py           # write the files
    python spec/vectors/relay/generate.py --check   # exit 1 if a file differs from what it would write

Valid cases are msgpack maps written here by hand and packed with the reference msgpack library;
invalid cases are raw bytes or maps that break one rule of spec/relay.md §4.1 each.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import msgpack

HERE = Path(__file__).resolve().parent
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def packed(value: Any) -> str:
    return bytes(msgpack.packb(value, use_bin_type=True)).hex()


def plain(value: Any) -> Any:
    """JSON form of an expected message: bytes as {"hex": ...}."""
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


VALID: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("create, defaults", {"type": "create"},
     {"type": "create", "public": False, "meta": {}, "listing": None}),
    ("create, public with lobby metadata",
     {"type": "create", "public": True, "meta": {"rules": "nintendo", "password": True, "rounds": 12}},
     {"type": "create", "public": True, "meta": {"rules": "nintendo", "password": True, "rounds": 12},
      "listing": None}),
    ("create with a listing (unknown keys dropped)",
     {"type": "create", "public": True, "meta": {"rules": "koikoi-online"},
      "listing": {"name": "Hanako", "fp": "abcd-ef23", "rules": "koikoi-online", "rounds": 6, "rated": False,
                  "password": True, "turn": 300, "future": [1]}},
     {"type": "create", "public": True, "meta": {"rules": "koikoi-online"},
      "listing": {"name": "Hanako", "fp": "abcd-ef23", "rules": "koikoi-online", "rounds": 6, "rated": False,
                  "password": True, "turn": 300}}),
    ("create, lobby text in Japanese with spaces",
     {"type": "create", "public": True, "meta": {"rules": "花札 こいこい", "note": "two words"}},
     {"type": "create", "public": True, "meta": {"rules": "花札 こいこい", "note": "two words"},
      "listing": None}),
    ("join", {"type": "join", "code": "ABC234"}, {"type": "join", "code": "ABC234"}),
    ("lobby", {"type": "lobby"}, {"type": "lobby", "rejoin": None}),
    ("lobby for the rejoin rooms of one tag", {"type": "lobby", "rejoin": "0123456789abcdef0123456789abcdef"},
     {"type": "lobby", "rejoin": "0123456789abcdef0123456789abcdef"}),
    ("frame with an acknowledgement", {"type": "frame", "seq": 7, "ack": 3, "data": b"\x00\x01opaque"},
     {"type": "frame", "seq": 7, "ack": 3, "data": b"\x00\x01opaque"}),
    ("frame without ack, empty data", {"type": "frame", "seq": 0, "data": b""},
     {"type": "frame", "seq": 0, "ack": None, "data": b""}),
    ("frame whose data looks like a control message",
     {"type": "frame", "seq": 1, "data": msgpack.packb({"type": "leave"})},
     {"type": "frame", "seq": 1, "ack": None, "data": msgpack.packb({"type": "leave"})}),
    ("ack", {"type": "ack", "seq": 2**63 - 1}, {"type": "ack", "seq": 2**63 - 1}),
    ("resume", {"type": "resume", "token": bytes(range(24)), "received": 42},
     {"type": "resume", "token": bytes(range(24)), "received": 42}),
    ("sync", {"type": "sync", "received": 5}, {"type": "sync", "received": 5}),
    ("reject_peer", {"type": "reject_peer"}, {"type": "reject_peer"}),
    ("leave with an unknown key (ignored)", {"type": "leave", "future": [1, 2]}, {"type": "leave"}),
]

INVALID_RAW: list[tuple[str, bytes, str]] = [
    ("empty message", b"", "malformed"),
    ("reserved msgpack byte 0xc1", b"\xc1", "malformed"),
    ("truncated map", bytes.fromhex(packed({"type": "frame", "seq": 1, "data": b"abc"}))[:-2], "malformed"),
    ("trailing bytes", bytes.fromhex(packed({"type": "lobby"})) + b"\x00", "malformed"),
    ("array instead of map", msgpack.packb(["type", "lobby"]), "malformed"),
    ("huge declared array", b"\xdd\xff\xff\xff\xff", "malformed"),
]

INVALID_MAPS: list[tuple[str, dict[Any, Any], str]] = [
    ("no type", {"code": "ABC234"}, "malformed"),
    ("type is an integer", {"type": 1}, "malformed"),
    ("type is bytes", {"type": b"lobby"}, "malformed"),
    ("unknown type", {"type": "teleport"}, "unknown_type"),
    ("frame data as str", {"type": "frame", "seq": 0, "data": "text"}, "malformed"),
    ("frame without data", {"type": "frame", "seq": 0}, "malformed"),
    ("frame negative seq", {"type": "frame", "seq": -1, "data": b""}, "malformed"),
    ("frame seq true", {"type": "frame", "seq": True, "data": b""}, "malformed"),
    ("frame seq 2^63", {"type": "frame", "seq": 2**63, "data": b""}, "malformed"),
    ("frame ack as str", {"type": "frame", "seq": 0, "ack": "1", "data": b""}, "malformed"),
    ("ack without seq", {"type": "ack"}, "malformed"),
    ("sync with a negative count", {"type": "sync", "received": -5}, "malformed"),
    ("create public as int", {"type": "create", "public": 1}, "malformed"),
    ("join code as bytes", {"type": "join", "code": b"ABC234"}, "malformed"),
    ("join code too long", {"type": "join", "code": "A" * 33}, "malformed"),
    ("lobby rejoin as bytes", {"type": "lobby", "rejoin": b"tag"}, "malformed"),
    ("lobby rejoin empty", {"type": "lobby", "rejoin": ""}, "malformed"),
    ("lobby rejoin of 65", {"type": "lobby", "rejoin": "x" * 65}, "malformed"),
    ("resume token of 23 bytes", {"type": "resume", "token": bytes(23), "received": 0}, "malformed"),
    ("resume without received", {"type": "resume", "token": bytes(24)}, "malformed"),
    ("meta value float", {"type": "create", "meta": {"rules": 1.5}}, "bad_meta"),
    ("meta value list", {"type": "create", "meta": {"rules": ["a"]}}, "bad_meta"),
    ("meta value string of 65", {"type": "create", "meta": {"rules": "x" * 65}}, "bad_meta"),
    ("meta value above 2^31-1", {"type": "create", "meta": {"n": 2**31}}, "bad_meta"),
    ("meta key of 33", {"type": "create", "meta": {"k" * 33: True}}, "bad_meta"),
    ("meta key empty", {"type": "create", "meta": {"": True}}, "bad_meta"),
    ("meta of 9 entries", {"type": "create", "meta": {f"k{i}": i for i in range(9)}}, "bad_meta"),
    ("meta as list", {"type": "create", "meta": [1]}, "bad_meta"),
    ("listing as list", {"type": "create", "listing": [1]}, "bad_listing"),
    ("listing name with a newline", {"type": "create", "listing": {"name": "Eve\n"}}, "bad_listing"),
    # Lobby text is shown to people: no control, format or separator characters (issue 25).
    ("meta value with an escape sequence", {"type": "create", "meta": {"rules": "\x1b[2Jx"}}, "bad_meta"),
    ("meta value with a line feed", {"type": "create", "meta": {"rules": "a\nkoikoi join ZZZZZZ"}}, "bad_meta"),
    ("meta value with a right-to-left override", {"type": "create", "meta": {"rules": "\u202eab"}}, "bad_meta"),
    ("meta value with a line separator", {"type": "create", "meta": {"rules": "a\u2028b"}}, "bad_meta"),
    ("meta key with a tab", {"type": "create", "meta": {"ru\tles": "nintendo"}}, "bad_meta"),
]

# spec/relay.md §4.2: listings alone, for the relay and for every client that reads a lobby.
LISTINGS_VALID: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("empty", {}, {}),
    ("every key", {"name": "Hanako 花子", "fp": "abcd-ef23", "rules": "nintendo", "custom": True,
                   "rounds": 12, "target": 0, "rated": True, "password": False, "turn": 86400},
     {"name": "Hanako 花子", "fp": "abcd-ef23", "rules": "nintendo", "custom": True, "rounds": 12,
      "target": 0, "rated": True, "password": False, "turn": 86400}),
    ("unknown keys and nil values dropped", {"rules": "wikipedia", "colour": "red", "rounds": None},
     {"rules": "wikipedia"}),
    ("empty name", {"name": "", "fp": "2222-7777"}, {"name": "", "fp": "2222-7777"}),
    ("name of 32 code points", {"name": "花" * 32}, {"name": "花" * 32}),
    ("inner spaces are fine", {"name": "Ta ro"}, {"name": "Ta ro"}),
    ("rules of 40", {"rules": "a" * 40}, {"rules": "a" * 40}),
]
LISTINGS_INVALID: list[tuple[str, Any]] = [
    ("not a map", ["name", "x"]),
    ("name with a control character", {"name": "Eve\x07"}),
    ("name with a line separator", {"name": "Eve\u2028"}),
    ("name with a bidi override", {"name": "Eve\u202e"}),
    ("name with a zero-width joiner", {"name": "E\u200dve"}),
    ("name with a leading space", {"name": " Eve"}),
    ("name with a trailing no-break space", {"name": "Eve\u00a0"}),
    ("name of 33 code points", {"name": "x" * 33}),
    ("name not NFC", {"name": "Cafe\u0301"}),
    ("name as bytes", {"name": b"Eve"}),
    ("fp upper case", {"fp": "ABCD-EF23"}),
    ("fp whole fingerprint", {"fp": "abcd-ef23-ghij-klmn"}),
    ("fp with a digit outside base32", {"fp": "abcd-ef01"}),
    ("rules upper case", {"rules": "Nintendo"}),
    ("rules of 41", {"rules": "a" * 41}),
    ("rules with a slash", {"rules": "a/b"}),
    ("rounds negative", {"rounds": -1}),
    ("rounds above 10000", {"rounds": 10001}),
    ("rounds as bool", {"rounds": True}),
    ("turn above a day", {"turn": 86401}),
    ("rated as int", {"rated": 1}),
    ("password as str", {"password": "yes"}),
    ("33 entries", {f"k{i}": i for i in range(33)}),
]


def listings() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []
    for name, value, expected in LISTINGS_VALID:
        cases.append({"name": name, "hex": packed(value), "valid": True, "listing": expected})
    for name, value in LISTINGS_INVALID:
        cases.append({"name": name, "hex": packed(value), "valid": False, "error": "bad_listing"})
    return {"provenance": {"generator": "spec/vectors/relay/generate.py", "seed": None,
                           "how": "hand-written listings packed with msgpack-python (use_bin_type)",
                           "spec": "spec/relay.md §4.2"},
            "cases": cases}


def main() -> None:
    cases: list[dict[str, Any]] = []
    for name, value, expected in VALID:
        cases.append({"name": name, "hex": packed(value), "valid": True, "message": plain(expected)})
    for name, raw, reason in INVALID_RAW:
        cases.append({"name": name, "hex": raw.hex(), "valid": False, "error": reason})
    for name, value, reason in INVALID_MAPS:
        cases.append({"name": name, "hex": packed(value), "valid": False, "error": reason})
    provenance = {
        "generator": "spec/vectors/relay/generate.py",
        "seed": None,
        "how": "hand-written maps packed with msgpack-python (use_bin_type); invalid bytes by hand",
        "spec": "spec/relay.md §4",
    }
    messages = {"provenance": provenance, "cases": cases}
    out = {"messages.json": json.dumps(messages, indent=1) + "\n"}
    codes = {
        "provenance": {**provenance, "spec": "spec/relay.md §3"},
        "alphabet": ALPHABET,
        "length": 6,
        "space": len(ALPHABET) ** 6,
        "entropy_bits": round(6 * math.log2(len(ALPHABET)), 4),
        "excluded": ["0", "1", "I", "L", "O"],
        "cases": [
            {"input": "abc234", "code": "ABC234"},
            {"input": " ABC-234 ", "code": "ABC234"},
            {"input": "abc 234", "code": "ABC234"},
            {"input": "ABC230", "code": None},
            {"input": "ABCI23", "code": None},
            {"input": "ABC23", "code": None},
            {"input": "ABC2345", "code": None},
            {"input": "ÀBC234", "code": None},
        ],
    }
    out["codes.json"] = json.dumps(codes, indent=1, ensure_ascii=False) + "\n"
    out["listings.json"] = json.dumps(listings(), indent=1, ensure_ascii=False) + "\n"
    if "--check" in sys.argv[1:]:
        stale = [name for name, text in out.items()
                 if not (HERE / name).exists() or (HERE / name).read_text(encoding="utf-8") != text]
        if stale:
            print("out of date: " + ", ".join(stale), file=sys.stderr)
            sys.exit(1)
        return
    for name, text in out.items():
        (HERE / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
