"""Generate spec/vectors/protocol/spake2.json from the `spake2` package itself (spec/protocol.md §5.4).

Run from the repository root:  python spec/vectors/generators/spake2_vectors.py [--check]
With --check nothing is written; the exit status says whether the file on disk is current.
Every value comes from the installed package (0.9): its M and N, its password-to-scalar map, and
whole exchanges driven with fixed entropy, so an implementation written from the spec (the
JavaScript one, tests/vectors/test_spake2_vectors.py) can check itself against the real thing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import spake2
from spake2 import SPAKE2_A, SPAKE2_B
from spake2.parameters.ed25519 import ParamsEd25519

from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.handshake import _check_spake_message, normalise_password, spake_ids

OUT = Path(__file__).resolve().parents[1] / "protocol" / "spake2.json"
GENERATOR = "spec/vectors/generators/spake2_vectors.py"
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
GROUP = ParamsEd25519.group
SMALL_ORDER_8 = "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"   # a point of order 8


def entropy(label: str) -> bytes:
    """64 bytes of fixed entropy: SHA-512 of an ASCII label."""
    return hashlib.sha512(label.encode()).digest()


def scalar_hex(value: int) -> str:
    """A scalar as 32 bytes big-endian, the form the package's hashing of integers uses."""
    return value.to_bytes(32, "big").hex()


def exchange(case_id: str, password: str, id_a: bytes, id_b: bytes) -> dict[str, Any]:
    pw = normalise_password(password)
    ea, eb = entropy(f"{case_id}/A"), entropy(f"{case_id}/B")
    a = SPAKE2_A(pw, idA=id_a, idB=id_b, entropy_f=lambda n: ea)
    b = SPAKE2_B(pw, idA=id_a, idB=id_b, entropy_f=lambda n: eb)
    msg_a, msg_b = a.start(), b.start()
    key_a, key_b = a.finish(msg_b), b.finish(msg_a)
    assert key_a == key_b
    x, y = a.xy_scalar, b.xy_scalar
    w = GROUP.password_to_scalar(pw)
    k = ParamsEd25519.N.scalarmult(-w % L)
    k_elem = GROUP.bytes_to_element(msg_b[1:]).add(k).scalarmult(x)
    return {
        "id": case_id,
        "password": password,
        "pw": pw.hex(),
        "idA": id_a.decode(),
        "idB": id_b.decode(),
        "w": scalar_hex(w),
        "entropy_a": ea.hex(),
        "entropy_b": eb.hex(),
        "x": scalar_hex(x),
        "y": scalar_hex(y),
        "message_a": msg_a.hex(),
        "message_b": msg_b.hex(),
        "K": k_elem.to_bytes().hex(),
        "key": key_a.hex(),
    }


def invalid_messages(valid: dict[str, Any]) -> list[dict[str, Any]]:
    """SPAKE2 messages a receiver must refuse with bad_key (§5.4), each checked here first."""
    element = bytes.fromhex(valid["message_b"])[1:]
    cases = [
        ("wrong_side", b"A" + element),
        ("not_a_side", b"C" + element),
        ("reflected_element", b"B" + bytes.fromhex(valid["message_a"])[1:]),
        ("identity", b"B" + (1).to_bytes(32, "little")),
        # The identity with the sign bit set: not canonical (x = 0), and the package's own decoder
        # takes it as an element of the subgroup; libsodium's validation refuses it.
        ("non_canonical_identity", b"B" + (1).to_bytes(32, "little")[:31] + b"\x80"),
        ("small_order", b"B" + bytes.fromhex(SMALL_ORDER_8)),
        ("not_on_curve", b"B" + (2).to_bytes(32, "little")),
        ("y_not_reduced", b"B" + ((1 << 255) - 1).to_bytes(32, "little")),
    ]
    out = []
    for case_id, message in cases:
        if case_id != "reflected_element":   # that one is the package's own check, at finish()
            try:
                _check_spake_message(message, b"B")
            except RemoteViolation as exc:
                assert exc.reason == "bad_key"
            else:
                raise AssertionError(f"{case_id} was accepted")
        try:
            GROUP.bytes_to_element(message[1:])
            package_decodes = True
        except Exception:  # the package raises ValueError or its own NotOnCurve
            package_decodes = False
        out.append({"id": case_id, "side_expected": "B", "message": message.hex(),
                    "package_decodes": package_decodes, "error": "bad_key"})
    return out


def render() -> str:
    ids = spake_ids(2, "K7PQ2X")
    cases = [
        exchange("koikoi_room", "plum blossom", *ids),
        exchange("nfc", "cafe\u0301 \u82b1", *spake_ids(2, "ROOM01")),
        exchange("empty_ids", "x", b"", b""),
    ]
    data = {
        "provenance": {
            "generator": GENERATOR,
            "implementation": f"python spake2 {spake2.__version__} (ParamsEd25519)",
            "independent_check": "tests/vectors/test_spake2_vectors.py: SPAKE2 from spec/protocol.md §5.4",
        },
        "description": (
            "SPAKE2 as spec/protocol.md §5.4 writes it out: M and N, the password scalar w (big-endian"
            " HKDF output mod L, here as 32 bytes big-endian), and whole exchanges from fixed entropy"
            " (64 bytes each side, read big-endian mod L); messages are the side byte and the element;"
            " invalid messages must be refused with bad_key"
        ),
        "M": ParamsEd25519.M.to_bytes().hex(),
        "N": ParamsEd25519.N.to_bytes().hex(),
        "password_scalars": [
            {"pw": pw.hex(), "w": scalar_hex(GROUP.password_to_scalar(pw))}
            for pw in (b"", b"moon", "花札".encode(), bytes(range(64)))
        ],
        "cases": cases,
        "invalid": invalid_messages(cases[0]),
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare with the file on disk")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print("stale vectors: spake2.json")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
