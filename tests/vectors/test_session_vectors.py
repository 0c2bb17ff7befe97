"""spec/vectors/protocol/session_*.json against the implementation and against an independent
recomputation with the standard library (hashlib, hmac, struct) where that is practical."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import struct
from pathlib import Path
from typing import Any

import pytest

from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.channel import SecureChannel
from koikoi_p2p.protocol.envelope import decode_envelope, encode_envelope, verify_envelope
from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.handshake import Handshake, verify_handshake_record
from koikoi_p2p.protocol.identity import Identity, fingerprint
from koikoi_p2p.protocol.sas import format_sas

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"


def load(name: str) -> dict[str, Any]:
    case: dict[str, Any] = json.loads((VECTORS / "protocol" / name).read_text(encoding="utf-8"))
    return case


def generator() -> Any:
    path = VECTORS / "generators" / "session_vectors.py"
    spec = importlib.util.spec_from_file_location("session_vectors", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def untag(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"bytes"}:
        return bytes.fromhex(value["bytes"])
    if isinstance(value, list):
        return [untag(v) for v in value]
    if isinstance(value, dict):
        return {k: untag(v) for k, v in value.items()}
    return value


# -- an independent canonical msgpack encoder (spec/protocol.md §3), written from the spec ----------


def ref_encode(value: Any) -> bytes:
    if value is None:
        return b"\xc0"
    if value is True:
        return b"\xc3"
    if value is False:
        return b"\xc2"
    if isinstance(value, int):
        if 0 <= value <= 0x7F:
            return bytes([value])
        if -32 <= value < 0:
            return struct.pack(">b", value)
        if value >= 0:
            for tag, fmt, limit in (
                (0xCC, ">B", 2**8),
                (0xCD, ">H", 2**16),
                (0xCE, ">I", 2**32),
                (0xCF, ">Q", 2**64),
            ):
                if value < limit:
                    return bytes([tag]) + struct.pack(fmt, value)
        for tag, fmt, limit in (
            (0xD0, ">b", 2**7),
            (0xD1, ">h", 2**15),
            (0xD2, ">i", 2**31),
            (0xD3, ">q", 2**63),
        ):
            if -limit <= value:
                return bytes([tag]) + struct.pack(fmt, value)
        raise ValueError(value)
    if isinstance(value, bytes):
        n = len(value)
        head = (
            bytes([0xC4, n])
            if n < 2**8
            else b"\xc5" + struct.pack(">H", n)
            if n < 2**16
            else b"\xc6" + struct.pack(">I", n)
        )
        return head + value
    if isinstance(value, str):
        data = value.encode("utf-8")
        n = len(data)
        head = (
            bytes([0xA0 | n])
            if n < 32
            else bytes([0xD9, n])
            if n < 2**8
            else b"\xda" + struct.pack(">H", n)
            if n < 2**16
            else b"\xdb" + struct.pack(">I", n)
        )
        return head + data
    if isinstance(value, list):
        n = len(value)
        head = bytes([0x90 | n]) if n < 16 else b"\xdc" + struct.pack(">H", n)
        return head + b"".join(ref_encode(v) for v in value)
    if isinstance(value, dict):
        n = len(value)
        head = bytes([0x80 | n]) if n < 16 else b"\xde" + struct.pack(">H", n)
        items = sorted((ref_encode(k), ref_encode(v)) for k, v in value.items())
        return head + b"".join(k + v for k, v in items)
    raise TypeError(value)


def ref_hkdf(ikm: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


def ref_hkdf_expand(prk: bytes, info: bytes, length: int) -> bytes:
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


def ref_mix(h: bytes, data: bytes) -> bytes:
    return hashlib.sha256(h + struct.pack(">I", len(data)) + data).digest()


def ref_sas(data: bytes) -> str:
    bits = int.from_bytes(data[:5], "big") >> 1
    return "-".join(str(((bits >> s) & 0x1FFF) + 1000) for s in (26, 13, 0))


# -- tests -------------------------------------------------------------------------------------


def test_vector_files_are_current() -> None:
    module = generator()
    for name in module.FILES:
        assert (VECTORS / "protocol" / name).read_text(encoding="utf-8") == module.render(name), name


@pytest.mark.parametrize("case", load("session_codec.json")["cases"], ids=lambda c: c["id"])
def test_codec_valid(case: dict[str, Any]) -> None:
    value = untag(case["value"])
    assert codec.encode(value).hex() == case["hex"]
    assert ref_encode(value).hex() == case["hex"]
    assert codec.decode(bytes.fromhex(case["hex"])) == value


@pytest.mark.parametrize("case", load("session_codec.json")["invalid"], ids=lambda c: c["id"])
def test_codec_invalid(case: dict[str, Any]) -> None:
    with pytest.raises(RemoteViolation) as info:
        codec.decode(bytes.fromhex(case["hex"]))
    assert info.value.reason == case["error"]


@pytest.mark.parametrize("case", load("session_sas.json")["cases"], ids=lambda c: c["id"])
def test_sas(case: dict[str, Any]) -> None:
    data = bytes.fromhex(case["sas_bytes"])
    assert format_sas(data) == case["sas"] == ref_sas(data)


@pytest.mark.parametrize("case", load("session_envelope.json")["cases"], ids=lambda c: c["id"])
def test_envelope_valid(case: dict[str, Any]) -> None:
    fields = untag(case["fields"])
    fields["session_id"] = bytes.fromhex(fields["session_id"])
    fields["prev"] = bytes.fromhex(fields["prev"])
    raw = bytes.fromhex(case["raw"])
    assert encode_envelope(**fields) == raw
    assert (
        ref_encode([fields[k] for k in ("version", "session_id", "seq", "prev", "sender", "type", "body")])
        == raw
    )
    signer = Identity.from_private_bytes(
        bytes.fromhex(load("session_envelope.json")["provenance"]["identity_seed"])
    )
    env = decode_envelope(raw, bytes.fromhex(case["signature"]))
    verify_envelope(env, signer.public_key)
    assert signer.sign(raw).hex() == case["signature"]  # Ed25519 is deterministic
    assert env.digest().hex() == case["digest"]
    assert hashlib.sha256(b"koikoi-p2p/2 envelope" + raw).hexdigest() == case["digest"]
    # the frame (§7.1): 0x10 || seq || nonce || ChaCha20-Poly1305(aead key, nonce, header, sig || raw)
    # with both keys HKDF-Expand of the direction secret and the nonce an HMAC of the plaintext
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    secret = bytes.fromhex(case["send_key"])
    aead_key = ref_hkdf_expand(secret, b"koikoi-p2p/2 frame aead", 32)
    nonce_key = ref_hkdf_expand(secret, b"koikoi-p2p/2 frame nonce", 32)
    assert [aead_key.hex(), nonce_key.hex()] == case["frame_keys"]
    frame = bytes.fromhex(case["frame"])
    header = b"\x10" + struct.pack(">I", fields["seq"])
    nonce = hmac.new(nonce_key, header + env.signature + raw, hashlib.sha256).digest()[:12]
    assert frame == header + nonce + ChaCha20Poly1305(aead_key).encrypt(nonce, env.signature + raw, header)


@pytest.mark.parametrize("case", load("session_envelope.json")["invalid"], ids=lambda c: c["id"])
def test_envelope_invalid(case: dict[str, Any]) -> None:
    with pytest.raises(RemoteViolation) as info:
        decode_envelope(bytes.fromhex(case["raw"]), bytes(64))
    assert info.value.reason == case["error"]


@pytest.mark.parametrize("case", load("session_envelope.json")["bad_signatures"], ids=lambda c: c["id"])
def test_signatures_every_verifier_refuses(case: dict[str, Any]) -> None:
    """spec/protocol.md §4.1: libsodium's rule, also where RFC 8032 would let a verifier accept."""
    from koikoi_p2p.protocol.identity import verify_signature

    key, sig, message = (bytes.fromhex(case[k]) for k in ("public_key", "signature", "message"))
    assert message.hex() == load("session_envelope.json")["cases"][0]["raw"]
    env = decode_envelope(message, sig)
    with pytest.raises(RemoteViolation) as info:
        verify_envelope(env, key)
    assert info.value.reason == case["error"]
    with pytest.raises(RemoteViolation):
        verify_signature(key, sig, message)
    # Independently: R is the identity point exactly when OpenSSL alone would take the case.
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(key).verify(sig, message)
        openssl = True
    except InvalidSignature:
        openssl = False
    assert openssl == (sig[:32] == bytes([1]) + bytes(31))


HANDSHAKE = load("session_handshake.json")


@pytest.mark.parametrize("case", HANDSHAKE["cases"], ids=lambda c: c["id"])
def test_handshake_reproduces(case: dict[str, Any]) -> None:
    ids = [Identity.from_private_bytes(bytes.fromhex(s)) for s in case["identity_seeds"]]
    assert [i.public_key.hex() for i in ids] == case["identity_keys"]
    assert [fingerprint(i.public_key) for i in ids] == case["fingerprints"]
    sides = [
        Handshake(
            seat=s,
            identity=ids[s],
            room=case["room"],
            password=case["password"],
            seed=bytes.fromhex(case["seeds"][s]),
            name=case["names"][s],
        )
        for s in (0, 1)
    ]
    frames = {k: bytes.fromhex(v) for k, v in case["frames"].items()}
    assert sides[0].start() == [frames["hello"]]
    assert sides[1].start() == []
    assert sides[1].receive(frames["hello"]) == [frames["reply"]]
    assert sides[0].receive(frames["reply"]) == [frames["reveal"]]
    assert sides[1].receive(frames["reveal"]) == [frames["confirm"]]
    assert sides[0].receive(frames["confirm"]) == [frames["sign"]]
    assert sides[1].receive(frames["sign"]) == []
    result = sides[0].result
    assert result.session_id.hex() == case["session_id"]
    assert result.handshake_hash.hex() == case["handshake_hash"]
    assert result.sas == case["sas"] == sides[1].result.sas
    assert result.names == tuple(case["names"]) == sides[1].result.channel.names
    assert codec.encode(result.record).hex() == case["record_msgpack"]
    state = result.channel.to_state()
    send_key, recv_key = state["send_key"], state["recv_key"]
    assert isinstance(send_key, bytes) and isinstance(recv_key, bytes)
    assert send_key.hex() == case["keys"]["send 0"] and recv_key.hex() == case["keys"]["send 1"]


def ref_hedge(seed: bytes, seat: int, h: bytes, key: bytes, name: str, password: bytes, n: int) -> bytes:
    """§5.7 from the spec: k = HMAC(seed, LABEL || "hedge" || u8(seat) || mix(mix(mix(h, key),
    name), password)), then HMAC(k, u64(0)) || HMAC(k, u64(1)) || ..."""
    seen = ref_mix(ref_mix(ref_mix(h, key), name.encode()), password)
    k = hmac.new(seed, b"koikoi-p2p/2 hedge" + bytes([seat]) + seen, hashlib.sha256).digest()
    out = b"".join(hmac.new(k, j.to_bytes(8, "big"), hashlib.sha256).digest() for j in range(4))
    return out[:n]


@pytest.mark.parametrize("case", HANDSHAKE["cases"], ids=lambda c: c["id"])
def test_handshake_key_schedule_independently(case: dict[str, Any]) -> None:
    """Recompute §5.2-§5.7 with hashlib/hmac from the frames, the seeds and the identities."""
    import unicodedata

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    frames = {k: bytes.fromhex(v) for k, v in case["frames"].items()}
    label = b"koikoi-p2p/2 "
    h0 = hashlib.sha256(b"koikoi-p2p/session/2").digest()
    assert h0.hex() == case["h0"]
    prologue = ref_encode(
        {"protocol": "koikoi-p2p", "version": 2, "room": case["room"], "initiator": 0, "responder": 1}
    )
    assert prologue.hex() == case["prologue"]
    h1 = ref_mix(h0, prologue)
    assert h1.hex() == case["h_prologue"]
    h2 = ref_mix(h1, frames["hello"])
    assert h2.hex() == case["h_hello"]
    # the hedged ephemeral secrets (and seat 0's SPAKE2 entropy) from the seeds
    keys = [bytes.fromhex(k) for k in case["identity_keys"]]
    names = case["names"]
    pw = unicodedata.normalize("NFC", case["password"]).encode() if case["password"] else b""
    seeds = [bytes.fromhex(s) for s in case["seeds"]]
    stream0 = ref_hedge(seeds[0], 0, h1, keys[0], names[0], pw, 96)
    e1_secret = ref_hedge(seeds[1], 1, h2, keys[1], names[1], pw, 32)
    assert [stream0[:32].hex(), e1_secret.hex()] == case["ephemeral_secrets"]
    if case["password"]:
        assert stream0[32:96].hex() == case["spake_entropy_0"]

    def public(secret: bytes) -> bytes:
        return X25519PrivateKey.from_private_bytes(secret).public_key().public_bytes(Encoding.Raw,
                                                                                     PublicFormat.Raw)

    e0 = frames["reveal"][1:33]
    assert public(stream0[:32]) == e0 and public(e1_secret) == frames["reply"][1:33]
    assert hashlib.sha256(label + b"commit" + e0).digest() == frames["hello"][3:35]
    h_k = ref_mix(ref_mix(h2, frames["reply"]), e0)
    assert h_k.hex() == case["h_k"]
    e1 = X25519PrivateKey.from_private_bytes(e1_secret)
    assert e1.exchange(X25519PublicKey.from_public_bytes(e0)).hex() == case["dh"]
    ikm = bytes.fromhex(case["dh"]) + (bytes.fromhex(case["spake_key"]) if case["spake_key"] else b"")
    h_a = ref_mix(ref_mix(h_k, keys[0]), names[0].encode())
    assert h_a.hex() == case["h_a"]
    hh = ref_mix(ref_mix(h_a, keys[1]), names[1].encode())
    assert hh.hex() == case["handshake_hash"]
    assert hashlib.sha256(label + b"session id" + hh).hexdigest() == case["session_id"]
    salts = {"confirm 0": h_k, "confirm 1": h_k, "identity 0": h_k, "identity 1": h_a,
             "signature 0": hh, "send 0": hh, "send 1": hh}
    k = {name: ref_hkdf(ikm, salts[name], label + name.encode(), 32) for name in salts}
    assert {name: value.hex() for name, value in k.items()} == case["keys"]
    mac0 = hmac.new(k["confirm 0"], h_k, hashlib.sha256).digest()
    mac1 = hmac.new(k["confirm 1"], h_k, hashlib.sha256).digest()
    assert frames["reveal"][33:65] == mac0 and frames["confirm"][1:33] == mac1
    # the identity blocks and the signature frame open, and the signatures name everything
    def plain(key: bytes, aad: bytes, sealed: bytes) -> bytes:
        return ChaCha20Poly1305(key).decrypt(bytes(12), sealed, aad)

    block0 = plain(k["identity 0"], h_k, frames["reveal"][65:])
    block1 = plain(k["identity 1"], h_a, frames["confirm"][33:])
    sig0 = plain(k["signature 0"], hh, frames["sign"][1:])
    n0, n1 = names[0].encode(), names[1].encode()
    assert block0 == keys[0] + bytes([len(n0)]) + n0
    assert block1[:33 + len(n1)] == keys[1] + bytes([len(n1)]) + n1
    sig1 = block1[33 + len(n1):]
    assert [sig0.hex(), sig1.hex()] == case["signatures"]
    for seat, sig in ((0, sig0), (1, sig1)):
        Ed25519PublicKey.from_public_bytes(keys[seat]).verify(sig, label + b"handshake" + bytes([seat]) + hh)
    if case["password"] is None:
        sas_bytes = ref_hkdf(ikm, h_k, label + b"sas", 5)
        assert sas_bytes.hex() == case["sas_bytes"] and ref_sas(sas_bytes) == case["sas"]
    # the public record verifies on its own
    record = codec.decode(bytes.fromhex(case["record_msgpack"]))
    assert isinstance(record, dict)
    assert record == {"version": 2, "room": case["room"], "hello": frames["hello"], "reply": frames["reply"],
                      "reveal": e0, "keys": keys, "names": names, "signatures": [sig0, sig1]}
    assert verify_handshake_record(record).session_id.hex() == case["session_id"]


@pytest.mark.parametrize("case", HANDSHAKE["invalid"], ids=lambda c: c["id"])
def test_handshake_invalid(case: dict[str, Any]) -> None:
    base = next(c for c in HANDSHAKE["cases"] if c["id"] == case["base"])
    got = generator().run_mutated(base, case["frame"], case["xor_at"], case["xor"])
    assert got == (case["detected_by"], case["error"])


def test_channel_from_vector_keys() -> None:
    """A channel built from the vector's keys opens the vector's envelope frame."""
    case = load("session_envelope.json")["cases"][0]
    prov = load("session_envelope.json")["provenance"]
    signer = Identity.from_private_bytes(bytes.fromhex(prov["identity_seed"]))
    prev = bytes.fromhex(case["fields"]["prev"])
    receiver = SecureChannel(
        seat=1,
        identity=Identity.generate(),
        peer_key=signer.public_key,
        session_id=bytes(range(32)),
        handshake_hash=prev,
        send_key=bytes(32),
        recv_key=bytes.fromhex(case["send_key"]),
    )
    env = receiver.open(bytes.fromhex(case["frame"]))
    assert env is not None and env.raw.hex() == case["raw"]
