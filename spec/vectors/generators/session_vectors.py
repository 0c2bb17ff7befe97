"""Generate spec/vectors/protocol/session_*.json from fixed seeds with koikoi_p2p.protocol.

Run from the repository root:  python spec/vectors/generators/session_vectors.py [--check]
With --check nothing is written; the exit status says whether the files on disk are current.
Each handshake side draws from its hedge (spec/protocol.md §5.7) under a fixed 32-byte seed, so
another implementation reproduces every frame byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.channel import frame_keys, seal_frame
from koikoi_p2p.protocol.envelope import envelope_digest, sign_envelope
from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.handshake import (
    VERSION,
    Handshake,
    commitment,
    derive,
    final_hashes,
    hedge_stream,
    identity_hash,
    initial_hash,
    mix_hash,
    normalise_password,
    prologue,
    spake_ids,
)
from koikoi_p2p.protocol.identity import Identity, fingerprint
from koikoi_p2p.protocol.sas import format_sas

OUT = Path(__file__).resolve().parents[1] / "protocol"
GENERATOR = "spec/vectors/generators/session_vectors.py"
# (label, salt) of every key of §5.4
KEY_LABELS = (("confirm 0", "h_k"), ("confirm 1", "h_k"), ("identity 0", "h_k"), ("identity 1", "h_a"),
              ("signature 0", "handshake_hash"), ("send 0", "handshake_hash"),
              ("send 1", "handshake_hash"))


def ident(name: str) -> tuple[bytes, Identity]:
    seed = hashlib.sha256(b"koikoi-vector-identity " + name.encode()).digest()
    return seed, Identity.from_private_bytes(seed)


def tagged(value: object) -> object:
    """JSON form of a canonical value: bytes as {"bytes": hex}."""
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, list):
        return [tagged(v) for v in value]
    if isinstance(value, dict):
        return {k: tagged(v) for k, v in value.items()}
    return value


def seeds_of(case_id: str) -> tuple[bytes, bytes]:
    """The two sides' 32-byte handshake seeds (§5.7): SHA-256 of an ASCII label."""
    return tuple(hashlib.sha256(f"koikoi-vector-handshake-{case_id}-{s}".encode()).digest()
                 for s in (0, 1))  # type: ignore[return-value]


def handshake_case(case_id: str, password: str | None, room: str, names: tuple[str, str]) -> dict[str, Any]:
    seed0, id0 = ident("host")
    seed1, id1 = ident("guest")
    seeds = seeds_of(case_id)
    a = Handshake(seat=0, identity=id0, room=room, password=password, seed=seeds[0], name=names[0])
    b = Handshake(seat=1, identity=id1, room=room, password=password, seed=seeds[1], name=names[1])
    hello = a.start()[0]
    b.start()
    reply = b.receive(hello)[0]
    reveal = a.receive(reply)[0]
    confirm = b.receive(reveal)[0]
    sign = a.receive(confirm)[0]
    assert b.receive(sign) == []
    ra, rb = a.result, b.result
    assert ra.session_id == rb.session_id and ra.sas == rb.sas and ra.record == rb.record
    # intermediate values, recomputed here so the file shows every step of §5.3-§5.7
    pw = b"" if password is None else normalise_password(password)
    h1 = mix_hash(initial_hash(), prologue(VERSION, room))
    h2 = mix_hash(h1, hello)
    draws = [hedge_stream(seeds[0], 0, h1, id0.public_key, names[0], pw),
             hedge_stream(seeds[1], 1, h2, id1.public_key, names[1], pw)]
    e0, e1 = draws[0](32), draws[1](32)
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

    dh = X25519PrivateKey.from_private_bytes(e0).exchange(X25519PublicKey.from_public_bytes(reply[1:33]))
    h3 = mix_hash(h2, reply)
    h_k = mix_hash(h3, reveal[1:33])
    spake_key = None
    spake_entropy = None
    if password is not None:
        # recompute the SPAKE2 key as seat 0 did, from the rest of its hedge stream
        from spake2 import SPAKE2_A

        spake_entropy = draws[0](64)
        id_a, id_b = spake_ids(VERSION, room)
        side = SPAKE2_A(pw, idA=id_a, idB=id_b, entropy_f=lambda n: spake_entropy)
        side.start()
        spake_key = side.finish(reply[33:])
    ikm = dh + (spake_key or b"")
    h_a = identity_hash(h_k, id0.public_key, names[0])
    handshake_hash, session_id = final_hashes(h_a, id1.public_key, names[1])
    salts = {"h_k": h_k, "h_a": h_a, "handshake_hash": handshake_hash}
    keys = {label: derive(ikm, salts[salt], label).hex() for label, salt in KEY_LABELS}
    state0 = ra.channel.to_state()
    assert keys["send 0"] == state0["send_key"].hex() and keys["send 1"] == state0["recv_key"].hex()
    sas_bytes = derive(ikm, h_k, "sas", 5)
    return {
        "id": case_id,
        "version": VERSION,
        "room": room,
        "password": password,
        "names": list(names),
        "identity_seeds": [seed0.hex(), seed1.hex()],
        "identity_keys": [id0.public_key.hex(), id1.public_key.hex()],
        "fingerprints": [fingerprint(id0.public_key), fingerprint(id1.public_key)],
        "seeds": [s.hex() for s in seeds],
        "ephemeral_secrets": [e0.hex(), e1.hex()],
        "spake_entropy_0": spake_entropy.hex() if spake_entropy else None,
        "prologue": prologue(VERSION, room).hex(),
        "h0": initial_hash().hex(),
        "h_prologue": h1.hex(),
        "h_hello": h2.hex(),
        "commitment": commitment(reveal[1:33]).hex(),
        "frames": {
            "hello": hello.hex(),
            "reply": reply.hex(),
            "reveal": reveal.hex(),
            "confirm": confirm.hex(),
            "sign": sign.hex(),
        },
        "h_k": h_k.hex(),
        "h_a": h_a.hex(),
        "dh": dh.hex(),
        "spake_key": spake_key.hex() if spake_key else None,
        "keys": keys,
        "sas_bytes": sas_bytes.hex() if password is None else None,
        "sas": ra.sas,
        "signatures": [sig.hex() for sig in ra.record["signatures"]],  # type: ignore[attr-defined]
        "handshake_hash": handshake_hash.hex(),
        "session_id": session_id.hex(),
        "record_msgpack": codec.encode(ra.record).hex(),
        "error": None,
    }


def invalid_handshake_cases(valid: dict[str, Any]) -> list[dict[str, Any]]:
    """Mutations of one frame of a valid case and the reason the receiver must give."""
    cases = []
    confirmation = "key_confirmation_failed" if valid["password"] is None else "pake_failed"
    for case_id, frame, offset, seat, error in (
        ("hello_bad_version", "hello", 1, 1, "unsupported_version"),
        ("hello_bad_mode", "hello", 2, 1, "mode_mismatch"),
        ("hello_altered_commitment", "hello", 3, 1, "bad_commitment"),
        ("reply_altered_key", "reply", 1, 1, confirmation),
        ("reveal_altered_key", "reveal", 1, 1, "bad_commitment"),
        ("reveal_altered_mac", "reveal", 40, 1, confirmation),
        ("reveal_altered_block", "reveal", 70, 1, "key_confirmation_failed"),
        ("confirm_altered_mac", "confirm", 1, 0, confirmation),
        ("confirm_altered_block", "confirm", 60, 0, "key_confirmation_failed"),
        ("sign_altered", "sign", 20, 1, "key_confirmation_failed"),
        ("unexpected_kind", "reveal", 0, 1, "unexpected_message"),
    ):
        cases.append(
            {
                "id": f"{valid['id']}_{case_id}",
                "base": valid["id"],
                "frame": frame,
                "xor_at": offset,
                "xor": 1 if offset != 0 else 0x07,
                "detected_by": seat,
                "error": error,
            }
        )
    return cases


def run_mutated(base: dict[str, Any], frame_name: str, xor_at: int, xor: int) -> tuple[int, str] | None:
    """Run the case's handshake live with one frame altered in transit; returns (the seat that
    stopped, its reason), or None if the handshake completed. Later frames are the live ones."""
    _, id0 = ident("host")
    _, id1 = ident("guest")
    seeds = [bytes.fromhex(s) for s in base["seeds"]]
    sides = [
        Handshake(seat=s, identity=(id0, id1)[s], room=base["room"], password=base["password"],
                  seed=seeds[s], name=base["names"][s])
        for s in (0, 1)
    ]
    names = {1: "hello", 2: "reply", 3: "reveal", 4: "confirm", 5: "sign"}
    pending = [(1, f) for f in sides[0].start()]
    sides[1].start()
    while pending:
        to, frame = pending.pop(0)
        if names[frame[0]] == frame_name:
            altered = bytearray(frame)
            altered[xor_at] ^= xor
            frame = bytes(altered)
        try:
            pending += [(1 - to, f) for f in sides[to].receive(frame)]
        except RemoteViolation as exc:
            return to, exc.reason
    return None


def check_invalid(base: dict[str, Any], case: dict[str, Any]) -> None:
    """The generator refuses a wrong expectation."""
    got = run_mutated(base, case["frame"], case["xor_at"], case["xor"])
    assert got == (case["detected_by"], case["error"]), (case["id"], got)


def render_handshake() -> dict[str, Any]:
    valid = [handshake_case("sas", None, "K7PQ2X", ("Hanako", "")),
             handshake_case("password", "plum blossom", "K7PQ2X", ("", "Kenji 健二"))]
    invalid = []
    for base in valid:
        for case in invalid_handshake_cases(base):
            check_invalid(base, case)
            invalid.append(case)
    return {
        "provenance": {
            "generator": GENERATOR,
            "rng": "spec/protocol.md §5.7 hedge under each side's seed",
            "implementation": "koikoi_p2p.protocol (cryptography, spake2 0.9)",
            "independent_check": "tests/vectors/test_session_vectors.py recomputes the hedge, the "
            "hashes, HKDF, HMAC, the identity blocks and signatures and the SAS",
        },
        "description": "the five handshake frames from fixed identities, names and seeds, with every "
        "intermediate value of the key schedule; invalid cases xor one byte of one frame",
        "cases": valid,
        "invalid": invalid,
    }


def render_envelope() -> dict[str, Any]:
    seed, signer = ident("host")
    session_id = bytes(range(32))
    prev = hashlib.sha256(b"koikoi-vector-prev").digest()
    send_key = hashlib.sha256(b"koikoi-vector-send-key").digest()
    cases = []
    for case_id, seq, type_, body in (
        ("first", 0, "terms", {"rounds": 12, "profile": "nintendo"}),
        ("binary_body", 300, "shuffle", {"deck": bytes(range(16)), "round": 3, "list": [1, -1, None, True]}),
        ("empty_body", 70000, "ok", {}),
    ):
        env = sign_envelope(
            signer, version=VERSION, session_id=session_id, seq=seq, prev=prev, sender=0, type=type_,
            body=body,
        )
        frame = seal_frame(send_key, env)
        cases.append(
            {
                "id": case_id,
                "fields": {
                    "version": VERSION,
                    "session_id": session_id[:16].hex(),
                    "seq": seq,
                    "prev": prev.hex(),
                    "sender": 0,
                    "type": type_,
                    "body": tagged(body),
                },
                "raw": env.raw.hex(),
                "signature": env.signature.hex(),
                "digest": envelope_digest(env.raw).hex(),
                "send_key": send_key.hex(),
                "frame_keys": [k.hex() for k in frame_keys(send_key)],
                "frame": frame.hex(),
                "error": None,
            }
        )
    good = bytes.fromhex(cases[0]["raw"])
    invalid = [
        ("six_fields", codec.encode([VERSION, session_id[:16], 0, prev, 0, "x"])),
        ("map_not_array", codec.encode({"v": VERSION})),
        ("version_out_of_range", codec.encode([256, session_id[:16], 0, prev, 0, "x", {}])),
        ("version_negative", codec.encode([-1, session_id[:16], 0, prev, 0, "x", {}])),
        ("long_session_id", codec.encode([VERSION, session_id, 0, prev, 0, "x", {}])),
        ("short_prev", codec.encode([VERSION, session_id[:16], 0, prev[:31], 0, "x", {}])),
        ("sender_two", codec.encode([VERSION, session_id[:16], 0, prev, 2, "x", {}])),
        ("sender_bool", codec.encode([VERSION, session_id[:16], 0, prev, True, "x", {}])),
        ("negative_seq", codec.encode([VERSION, session_id[:16], -1, prev, 0, "x", {}])),
        ("type_uppercase", codec.encode([VERSION, session_id[:16], 0, prev, 0, "X", {}])),
        ("body_is_array", codec.encode([VERSION, session_id[:16], 0, prev, 0, "x", []])),
        ("non_canonical_int", good.replace(b"\xa6rounds\x0c", b"\xa6rounds\xcc\x0c")),
        ("trailing_byte", good + b"\x00"),
        (
            "float_in_body",
            good[: -len(codec.encode({"rounds": 12, "profile": "nintendo"}))] + b"\x81\xa1f\xcb" + bytes(8),
        ),
    ]
    return {
        "provenance": {
            "generator": GENERATOR,
            "identity_seed": seed.hex(),
            "implementation": "koikoi_p2p.protocol (cryptography; libsodium verifies)",
            "independent_check": "tests/vectors/test_session_vectors.py re-encodes the fields",
        },
        "description": "envelopes (§6) and their frames (§7.1) from fixed fields and keys; "
        "invalid envelope bytes the decoder must reject with bad_envelope; signatures of the first "
        "envelope that every verifier must refuse (§4.1), with bad_signature",
        "cases": cases,
        "invalid": [{"id": i, "raw": raw.hex(), "error": "bad_envelope"} for i, raw in invalid],
        "bad_signatures": bad_signatures(seed, signer, good),
    }


def bad_signatures(seed: bytes, signer: Identity, message: bytes) -> list[dict[str, Any]]:
    """Signatures of ``message`` under the signer's key that §4.1's rule refuses. ``identity_r``
    is the one RFC 8032 lets a verifier take (OpenSSL does): R is the identity point and
    S = k*a, which the key's holder can make for any message."""
    order = 2**252 + 27742317777372353535851937790883648493
    clamped = bytearray(hashlib.sha512(seed).digest()[:32])
    clamped[0] &= 248
    clamped[31] &= 127
    clamped[31] |= 64
    a = int.from_bytes(clamped, "little")
    identity_r = bytes([1]) + bytes(31)
    k = int.from_bytes(hashlib.sha512(identity_r + signer.public_key + message).digest(), "little") % order
    good = signer.sign(message)
    s = int.from_bytes(good[32:], "little")
    order_two = bytes.fromhex("ec" + "ff" * 30 + "7f")      # (0, -1), of order 2
    cases = [
        ("identity_r", identity_r + (k * a % order).to_bytes(32, "little"),
         "R is the identity point (of small order); OpenSSL accepts it, libsodium does not"),
        ("s_not_reduced", good[:32] + (s + order).to_bytes(32, "little"),
         "S + L in place of S: not below L"),
        ("r_of_order_two", order_two + good[32:], "R of order 2"),
        ("r_with_sign_bit_flipped", good[:31] + bytes([good[31] ^ 0x80]) + good[32:],
         "another R: the equation fails"),
    ]
    return [{"id": i, "public_key": signer.public_key.hex(), "message": message.hex(), "signature": sig.hex(),
             "why": why, "error": "bad_signature"} for i, sig, why in cases]


def render_codec() -> dict[str, Any]:
    values: list[tuple[str, object]] = [
        ("zero", 0),
        ("fixint_max", 127),
        ("uint8", 128),
        ("uint16", 256),
        ("uint32", 65536),
        ("uint64_max", 2**64 - 1),
        ("negative_fixint", -32),
        ("int8", -33),
        ("int64_min", -(2**63)),
        ("empty_bytes", b""),
        ("bytes", b"\x00\xff"),
        ("str", "koi"),
        ("utf8", "花札"),
        ("nil", None),
        ("true", True),
        ("false", False),
        ("array", [1, "a", b"b", None]),
        ("map_sorted_by_encoded_key", {"aa": 1, "b": 2, "a": 3, "": 0}),
        ("nested", {"list": [{"x": 1}], "m": {"z": [], "y": {}}}),
    ]
    invalid = [
        ("uint8_for_small", "cc01"),
        ("int8_for_positive", "d005"),
        ("float32", "ca00000000"),
        ("float64", "cb0000000000000000"),
        ("keys_unsorted", "82a16201a16102"),
        ("duplicate_key", "82a16101a16101"),
        ("int_key", "810101"),
        ("bin_key", "81c4016101"),
        ("ext", "d40100"),
        ("reserved_c1", "c1"),
        ("bad_utf8", "a2fffe"),
        ("str8_for_short", "d90161"),
        ("bin16_for_short", "c5000161"),
        ("trailing", "0102"),
        ("truncated", "9201"),
        ("empty", ""),
    ]
    return {
        "provenance": {
            "generator": GENERATOR,
            "implementation": "koikoi_p2p.protocol.codec (msgpack)",
            "independent_check": "tests/vectors/test_session_vectors.py has its own encoder",
        },
        "description": 'canonical msgpack (§3): values in tagged JSON (bytes as {"bytes": hex}) '
        "and their only encoding; invalid encodings the decoder must reject with non_canonical",
        "cases": [{"id": i, "value": tagged(v), "hex": codec.encode(v).hex()} for i, v in values],
        "invalid": [{"id": i, "hex": h, "error": "non_canonical"} for i, h in invalid],
    }


def render_sas() -> dict[str, Any]:
    inputs = ["0000000000", "ffffffffff", "0123456789", "8000000001", "deadbeefca"]
    return {
        "provenance": {
            "generator": GENERATOR,
            "implementation": "koikoi_p2p.protocol.sas",
            "independent_check": "tests/vectors/test_session_vectors.py",
        },
        "description": "short authentication strings (§5.5) from the 5 SAS bytes",
        "cases": [
            {"id": f"sas_{i}", "sas_bytes": h, "sas": format_sas(bytes.fromhex(h))}
            for i, h in enumerate(inputs)
        ],
    }


FILES: dict[str, Callable[[], dict[str, Any]]] = {
    "session_handshake.json": render_handshake,
    "session_envelope.json": render_envelope,
    "session_codec.json": render_codec,
    "session_sas.json": render_sas,
}


def render(name: str) -> str:
    return json.dumps(FILES[name](), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare with the files on disk")
    args = parser.parse_args(argv)
    stale = []
    for name in FILES:
        text = render(name)
        path = OUT / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if stale:
        print("stale vectors: " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
