"""Identity keys, fingerprints, key files and the trust-on-first-use store."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from koikoi_p2p.protocol.errors import LocalMisuse, RemoteViolation
from koikoi_p2p.protocol.identity import Identity, KnownPeers, fingerprint, verify_signature


def test_sign_and_verify() -> None:
    ident = Identity.generate()
    signature = ident.sign(b"data")
    verify_signature(ident.public_key, signature, b"data")
    with pytest.raises(RemoteViolation) as info:
        verify_signature(ident.public_key, signature, b"other")
    assert info.value.reason == "bad_signature"
    with pytest.raises(RemoteViolation) as info:
        verify_signature(ident.public_key, signature[:63], b"data")
    assert info.value.reason == "bad_signature"


def test_seeded_generation_and_round_trip() -> None:
    ident = Identity.generate(lambda n: bytes(range(n)))
    assert Identity.from_private_bytes(ident.private_bytes()).public_key == ident.public_key
    assert ident.private_bytes() == bytes(range(32))
    assert "Identity(" in repr(ident) and ident.private_bytes().hex() not in repr(ident)


def test_fingerprint_form() -> None:
    text = fingerprint(bytes(32))
    groups = text.split("-")
    assert len(groups) == 4 and all(len(g) == 4 for g in groups)
    assert text == text.lower()
    assert fingerprint(bytes(31) + b"\x01") != text


def test_load_or_create_writes_0600(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "identity.key"
    first = Identity.load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    again = Identity.load_or_create(path)
    assert again.public_key == first.public_key
    path.write_text("not hex")
    with pytest.raises(LocalMisuse) as info:
        Identity.load_or_create(path)
    assert info.value.reason == "bad_identity_file"


def test_known_peers_tofu(tmp_path: Path) -> None:
    path = tmp_path / "known_peers.json"
    alice, mallory = Identity.generate().public_key, Identity.generate().public_key
    peers = KnownPeers(path)
    assert peers.check("alice", alice) == "new"
    peers.remember("alice", alice)
    assert peers.check("alice", alice) == "known"
    reloaded = KnownPeers(path)
    assert reloaded.check("alice", alice) == "known"
    assert reloaded.check("alice", mallory) == "changed"
    assert reloaded.lookup("alice") == alice
    reloaded.forget("alice")
    assert KnownPeers(path).check("alice", alice) == "new"


def test_known_peers_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "known.json"
    path.write_text('{"version": 1, "peers": {"a": "zz"}}')
    with pytest.raises(LocalMisuse) as info:
        KnownPeers(path)
    assert info.value.reason == "bad_known_peers_file"
