"""spec/vectors/identity/identity_file.json against the Python reference, with Argon2id recomputed
independently by ``cryptography`` (spec/identity.md)."""

from __future__ import annotations

import importlib.util
import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.kdf.argon2 import Argon2id

from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.identity_file import HEADER, IdentityFileError, open_identity, seal_identity
from koikoi_p2p.protocol.primitives import argon2id, xchacha_open

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"
DATA = json.loads((VECTORS / "identity" / "identity_file.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", DATA["valid"], ids=lambda c: c["id"])
def test_valid_files_open_and_reseal_byte_for_byte(case: dict[str, object]) -> None:
    data = bytes.fromhex(str(case["file"]))
    opened = open_identity(data, str(case["passphrase"]))
    assert opened.identity.private_bytes().hex() == case["seed"]
    assert opened.identity.public_key.hex() == case["public_key"]
    assert opened.fingerprint == case["fingerprint"] and opened.name == case["name"]
    parts: Iterator[bytes] = iter([bytes.fromhex(str(case["salt"])), bytes.fromhex(str(case["nonce"]))])
    again = seal_identity(Identity.from_private_bytes(bytes.fromhex(str(case["seed"]))), str(case["name"]),
                          str(case["passphrase"]), opslimit=int(str(case["opslimit"])),
                          memlimit_kib=int(str(case["memlimit_kib"])), random_bytes=lambda n: next(parts))
    assert again == data


@pytest.mark.parametrize("case", DATA["valid"], ids=lambda c: c["id"])
def test_the_key_is_argon2id_as_another_library_computes_it(case: dict[str, object]) -> None:
    """Argon2id from OpenSSL (through cryptography), not libsodium: the file opens with its key."""
    phrase = unicodedata.normalize("NFC", str(case["passphrase"])).encode("utf-8")
    salt = bytes.fromhex(str(case["salt"]))
    ops, mem = int(str(case["opslimit"])), int(str(case["memlimit_kib"]))
    key = Argon2id(salt=salt, length=32, iterations=ops, lanes=1, memory_cost=mem).derive(phrase)
    assert key == argon2id(phrase, salt, opslimit=ops, memlimit=mem * 1024)
    data = bytes.fromhex(str(case["file"]))
    plaintext = xchacha_open(key, bytes.fromhex(str(case["nonce"])), data[HEADER.size:], data[:HEADER.size])
    assert plaintext is not None and plaintext[:32].hex() == case["seed"]


@pytest.mark.parametrize("case", DATA["invalid"], ids=lambda c: c["id"])
def test_invalid_files_fail_with_their_reason(case: dict[str, object]) -> None:
    with pytest.raises(IdentityFileError) as failed:
        open_identity(bytes.fromhex(str(case["file"])), str(case["passphrase"]))
    assert failed.value.reason == case["reason"]


def test_every_reason_of_the_spec_has_a_vector() -> None:
    spec = (VECTORS.parent / "identity.md").read_text(encoding="utf-8")
    reasons = {c["reason"] for c in DATA["invalid"]}
    assert reasons == {"not_identity_file", "unsupported_version", "damaged_identity_file",
                       "wrong_passphrase", "bad_identity_file"}
    assert all(f"`{reason}`" in spec for reason in reasons)


def test_sealing_refuses_what_no_reader_may_accept() -> None:
    me = Identity.from_private_bytes(b"\x01" * 32)
    with pytest.raises(ValueError, match="at least 8"):
        seal_identity(me, "", "short")
    with pytest.raises(ValueError):
        seal_identity(me, " spaced ", "long enough passphrase", opslimit=1, memlimit_kib=8)
    with pytest.raises(ValueError):
        seal_identity(me, "", "long enough passphrase", opslimit=17, memlimit_kib=8)
    a = seal_identity(me, "", "long enough passphrase", opslimit=1, memlimit_kib=8)
    b = seal_identity(me, "", "long enough passphrase", opslimit=1, memlimit_kib=8)
    assert a[18:58] != b[18:58]  # a fresh salt and nonce for every file


def test_the_generator_is_current() -> None:
    path = VECTORS / "generators" / "identity_vectors.py"
    spec = importlib.util.spec_from_file_location("identity_vectors", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render() == (VECTORS / "identity" / "identity_file.json").read_text(encoding="utf-8")
