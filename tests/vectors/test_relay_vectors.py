"""spec/vectors/relay: the control-message decoder and the room codes against the normative cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgpack
import pytest

from koikoi_relay.codes import ALPHABET, CODE_LENGTH, CODE_SPACE, ENTROPY_BITS, normalize_code
from koikoi_relay.errors import MessageError
from koikoi_relay.messages import ClientMessage, Create, decode_client_message

NAMES = {"Create": "create", "Join": "join", "Lobby": "lobby", "Resume": "resume", "Frame": "frame",
         "Ack": "ack", "Sync": "sync", "RejectPeer": "reject_peer", "Leave": "leave"}


def _load(vectors_dir: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((vectors_dir / "relay" / name).read_text(encoding="utf-8"))
    assert data["provenance"]["generator"]
    return data


def _expected(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"hex"}:
            return bytes.fromhex(value["hex"])
        return {k: _expected(v) for k, v in value.items()}
    return value


def _as_dict(message: ClientMessage) -> dict[str, Any]:
    fields: dict[str, Any] = {name: getattr(message, name) for name in message.__slots__}
    fields["type"] = NAMES[type(message).__name__]
    return fields


def test_message_vectors(vectors_dir: Path) -> None:
    cases = _load(vectors_dir, "messages.json")["cases"]
    assert len(cases) >= 30
    for case in cases:
        raw = bytes.fromhex(case["hex"])
        if case["valid"]:
            expected = _expected(case["message"])
            assert _as_dict(decode_client_message(raw)) == expected, case["name"]
            # Independently: the plain msgpack map carries every non-default field as expected.
            plain = msgpack.unpackb(raw, raw=False)
            for key, value in expected.items():
                if key in plain and key != "listing":   # a listing loses its unknown keys (§4.2)
                    assert plain[key] == value, case["name"]
        else:
            with pytest.raises(MessageError) as exc:
                decode_client_message(raw)
            assert exc.value.reason == case["error"], case["name"]


def test_code_vectors(vectors_dir: Path) -> None:
    data = _load(vectors_dir, "codes.json")
    assert data["alphabet"] == ALPHABET and data["length"] == CODE_LENGTH and data["space"] == CODE_SPACE
    assert round(ENTROPY_BITS, 4) == data["entropy_bits"]
    assert not set(data["excluded"]) & set(ALPHABET)
    for case in data["cases"]:
        assert normalize_code(case["input"]) == case["code"], case


def test_listing_vectors(vectors_dir: Path) -> None:
    """spec/relay.md §4.2: the relay's check of a listing, and a client's reading of one."""
    from koikoi_relay.listing import checked_listing, parse_listing

    cases = _load(vectors_dir, "listings.json")["cases"]
    assert sum(c["valid"] for c in cases) >= 5 and sum(not c["valid"] for c in cases) >= 20
    for case in cases:
        value = msgpack.unpackb(bytes.fromhex(case["hex"]), raw=False)
        if case["valid"]:
            assert parse_listing(value) == case["listing"], case["name"]
            assert checked_listing(value) == case["listing"], case["name"]
        else:
            with pytest.raises(MessageError) as exc:
                parse_listing(value)
            assert exc.value.reason == case["error"], case["name"]
            assert checked_listing(value) is None, case["name"]
        # The same listing inside a create message.
        raw = msgpack.packb({"type": "create", "public": True, "listing": value}, use_bin_type=True)
        if case["valid"]:
            message = decode_client_message(raw)
            assert isinstance(message, Create) and message.listing == case["listing"], case["name"]
        else:
            with pytest.raises(MessageError):
                decode_client_message(raw)


def test_the_relay_checks_a_listing_name_as_the_peers_check_a_display_name() -> None:
    """The relay may not import the protocol (tests/unit/test_layers.py), so it has its own check
    of a display name; it must agree with the peers' (spec/protocol.md §5.1)."""
    from koikoi_p2p.protocol.identity import name_problem as peer_problem
    from koikoi_relay.listing import name_problem

    names = ["", "Hanako 花子", "x" * 32, "x" * 33, " Eve", "Eve ", "Eve\u00a0", "Eve\n", "E\u200dve",
             "Eve\u202e", "Cafe\u0301", "Café", "a\u2028b", "a\u2029b", "\U000e0001", "\ue000", "\U0010ffff",
             "a\u3000", "ta ro", "\u0378"]
    for name in names:
        assert (name_problem(name) is None) == (peer_problem(name) is None), repr(name)


def test_the_relay_vectors_are_what_their_generator_writes() -> None:
    """spec/vectors/relay/generate.py --check: the committed files match the generator."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "relay" / "generate.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
