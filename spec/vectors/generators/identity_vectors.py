"""Generate spec/vectors/identity/identity_file.json: portable identity files (spec/identity.md).

Run from the repository root:  python spec/vectors/generators/identity_vectors.py [--check]
With --check nothing is written; the exit status says whether the file on disk is current.
Valid cases fix the seed, the name, the passphrase, the salt and the nonce, at small Argon2id
parameters so that tests stay quick, and give the file and the fingerprint it opens to. Invalid
cases give a file and a passphrase, and the reason a reader must give (spec/identity.md §4).
The values come from the Python reference (koikoi_p2p.protocol.identity_file); the JavaScript
suite opens and reseals them with libsodium.js (web/test/protocol/identity_file.test.js).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import struct
import sys
from collections.abc import Callable
from pathlib import Path

from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.identity_file import HEADER, open_identity, seal_identity
from koikoi_p2p.protocol.primitives import argon2id, xchacha_seal

OUT = Path(__file__).resolve().parents[1] / "identity" / "identity_file.json"
GENERATOR = "spec/vectors/generators/identity_vectors.py"


def fixed(label: str, n: int) -> bytes:
    """n bytes of fixed data: SHA-256 of an ASCII label, cut."""
    return hashlib.sha256(label.encode()).digest()[:n]


def randomness(case_id: str) -> Callable[[int], bytes]:
    """The salt, then the nonce, of one case."""
    parts = iter([fixed(f"{case_id}/salt", 16), fixed(f"{case_id}/nonce", 24)])
    return lambda n: next(parts)[:n]


VALID = [
    # id, name, passphrase, opslimit, memlimit_kib
    ("plain", "", "correct horse battery", 1, 8),
    ("named", "Hanako", "correct horse battery", 2, 64),
    ("japanese", "花子 (はなこ)", "こいこいの合言葉です", 1, 16),
    ("longest name", "𝔎" * 32, "e\u0301e\u0301e\u0301e\u0301 passphrase in NFD", 1, 8),
]


def valid(case_id: str, name: str, passphrase: str, ops: int, mem: int) -> dict[str, object]:
    identity = Identity.from_private_bytes(fixed(f"{case_id}/seed", 32))
    data = seal_identity(identity, name, passphrase, opslimit=ops, memlimit_kib=mem,
                         random_bytes=randomness(case_id))
    opened = open_identity(data, passphrase)
    assert opened.fingerprint == identity.fingerprint() and opened.name == name
    return {"id": case_id, "seed": identity.private_bytes().hex(), "public_key": identity.public_key.hex(),
            "fingerprint": identity.fingerprint(), "name": name, "passphrase": passphrase,
            "opslimit": ops, "memlimit_kib": mem, "salt": fixed(f"{case_id}/salt", 16).hex(),
            "nonce": fixed(f"{case_id}/nonce", 24).hex(), "file": data.hex()}


def forged(plaintext: bytes, passphrase: str, case_id: str) -> bytes:
    """A file sealed correctly around a plaintext no honest writer makes."""
    salt, nonce = fixed(f"{case_id}/salt", 16), fixed(f"{case_id}/nonce", 24)
    header = HEADER.pack(b"koikoiID", 1, 1, 1, 8, salt, nonce)
    key = argon2id(passphrase.encode(), salt, opslimit=1, memlimit=8 * 1024)
    return header + xchacha_seal(key, nonce, plaintext, header)


def invalid(base: bytes, passphrase: str) -> list[dict[str, object]]:
    seed = fixed("forged/seed", 32)
    header = bytearray(base[:HEADER.size])

    def with_header(**fields: int) -> bytes:
        ops, mem = fields.get("ops", 1), fields.get("mem", 8)
        return bytes(header[:10]) + struct.pack(">II", ops, mem) + bytes(header[18:]) + base[HEADER.size:]

    flipped = bytearray(base)
    flipped[-1] ^= 1
    cases: list[tuple[str, bytes, str, str]] = [
        ("a transcript's magic", b"KOIKOI\x00\x02" + base[8:], passphrase, "not_identity_file"),
        ("empty", b"", passphrase, "not_identity_file"),
        ("the hex key file of a terminal", seed.hex().encode() + b"\n", passphrase, "not_identity_file"),
        ("magic only", base[:9], passphrase, "damaged_identity_file"),
        ("version 2", base[:8] + b"\x02" + base[9:], passphrase, "unsupported_version"),
        ("another kdf", base[:9] + b"\x02" + base[10:], passphrase, "unsupported_version"),
        ("cut short", base[:-1], passphrase, "damaged_identity_file"),
        ("header only", base[:HEADER.size], passphrase, "damaged_identity_file"),
        ("a byte added", base + b"\x00" * 200, passphrase, "damaged_identity_file"),
        ("opslimit 0", with_header(ops=0), passphrase, "damaged_identity_file"),
        ("opslimit 17", with_header(ops=17), passphrase, "damaged_identity_file"),
        ("memlimit 4 KiB", with_header(mem=4), passphrase, "damaged_identity_file"),
        ("memlimit 4 GiB", with_header(mem=1 << 22), passphrase, "damaged_identity_file"),
        ("wrong passphrase", base, passphrase + "!", "wrong_passphrase"),
        ("tag altered", bytes(flipped), passphrase, "wrong_passphrase"),
        ("opslimit raised, header authenticated", with_header(ops=2), passphrase, "wrong_passphrase"),
        ("name longer than its length", forged(seed + b"\x02abc", passphrase, "long"), passphrase,
         "bad_identity_file"),
        ("bytes after the name", forged(seed + b"\x00xy", passphrase, "after"), passphrase,
         "bad_identity_file"),
        ("name not UTF-8", forged(seed + b"\x02\xff\xfe", passphrase, "utf8"), passphrase,
         "bad_identity_file"),
        ("name with a control character", forged(seed + b"\x03a\x07b", passphrase, "control"), passphrase,
         "bad_identity_file"),
        ("name starting with a byte-order mark", forged(seed + b"\x04\xef\xbb\xbfa", passphrase, "bom"),
         passphrase, "bad_identity_file"),
        ("name of 33 characters", forged(seed + bytes([33]) + b"a" * 33, passphrase, "33"), passphrase,
         "bad_identity_file"),
    ]
    out = []
    for case_id, data, phrase, reason in cases:
        try:
            open_identity(data, phrase)
        except Exception as exc:
            assert getattr(exc, "reason", None) == reason, (case_id, exc)
        else:
            raise AssertionError(f"{case_id} opened")
        out.append({"id": case_id, "file": data.hex(), "passphrase": phrase, "reason": reason})
    return out


def render() -> str:
    cases = [valid(*row) for row in VALID]
    plain = next(c for c in cases if c["id"] == "plain")
    data = {
        "provenance": {"generator": GENERATOR},
        "description": (
            "Portable identity files (spec/identity.md): header = 'koikoiID' || 01 || 01 || opslimit (u32) ||"
            " memlimit_kib (u32) || salt (16) || nonce (24); K = Argon2id13(NFC(passphrase) as UTF-8, salt,"
            " opslimit, memlimit_kib * 1024, 32); file = header || XChaCha20-Poly1305(K, nonce, ad = header,"
            " seed || len(name) || name). 'valid' files open to the seed, name and fingerprint given (and"
            " reseal to the same bytes with the same salt and nonce); 'invalid' files fail with 'reason'."
        ),
        "valid": cases,
        "invalid": invalid(bytes.fromhex(str(plain["file"])), str(plain["passphrase"])),
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare with the file on disk")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print("stale vectors: identity_file.json")
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
