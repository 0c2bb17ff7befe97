"""Generate spec/vectors/crypto/*.json from fixed seeds with the mentalpoker implementation.

Run from the repository root:  python spec/vectors/generators/crypto_vectors.py [--check]
With --check nothing is written; the exit status says whether the files on disk are current.
The deterministic byte source is specified in spec/crypto.md §9.1 (SHA-512 in counter mode over
a seed), and the order in which each algorithm draws from it in §9.2, so another implementation
can reproduce the proofs byte for byte, not only verify them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mentalpoker.context import ProofContext
from mentalpoker.deck import DeckParty
from mentalpoker.dleq import encode_shares, prove_shares
from mentalpoker.elgamal import KeyPair, encode_deck, joint_key, start_deck
from mentalpoker.errors import InvalidEncoding
from mentalpoker.generators import (
    card_label,
    card_point,
    commitment_base,
    commitment_base_h,
    start_randomness,
    start_randomness_point,
)
from mentalpoker.group import HASH_TO_POINT_DST, G, L, Point, Scalar, hash_to_point, sha512
from mentalpoker.hedge import Hedge
from mentalpoker.keyproof import prove_key
from mentalpoker.shuffle import prove_shuffle, shuffle
from mentalpoker.transcript import Transcript

OUT = Path(__file__).resolve().parents[1] / "crypto"
GENERATOR = "spec/vectors/generators/crypto_vectors.py"
VERSION = 2   # the deck context version (spec/crypto.md §3.2): the match terms' version
SESSION = bytes.fromhex("6b6f696b6f692d7032702d766563746f722d73657373696f6e2d303030303031")  # ascii
SMALL_ORDER = [
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
]
P = 2**255 - 19


class StreamRng:
    """spec/crypto.md §9.1: SHA-512(seed || u64be(k)) for k = 0, 1, ... read as one byte stream."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.counter = 0
        self.buffer = b""

    def __call__(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self.buffer += sha512(self.seed, self.counter.to_bytes(8, "big"))
            self.counter += 1
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out


def stream_rng(seed: bytes) -> Callable[[int], bytes]:
    return StreamRng(seed)


def off_subgroup_encoding() -> bytes:
    """hash_to_point(b"attack") plus the order-8 point SMALL_ORDER[4], in plain affine arithmetic
    (RFC 8032 formulas), so the generator needs no low-level binding."""
    d = (-121665 * pow(121666, P - 2, P)) % P
    sqrt_m1 = pow(2, (P - 1) // 4, P)

    def decode(data: bytes) -> tuple[int, int]:
        value = int.from_bytes(data, "little")
        sign, y = value >> 255, value & ((1 << 255) - 1)
        a = (y * y - 1) * pow(d * y * y + 1, P - 2, P) % P
        x = pow(a, (P + 3) // 8, P)
        if (x * x - a) % P:
            x = x * sqrt_m1 % P
        if x & 1 != sign:
            x = P - x
        return x, y

    (x1, y1), (x2, y2) = decode(hash_to_point(b"attack").raw), decode(bytes.fromhex(SMALL_ORDER[4]))
    t = d * x1 * x2 * y1 * y2 % P
    x3 = (x1 * y2 + y1 * x2) * pow(1 + t, P - 2, P) % P
    y3 = (y1 * y2 + x1 * x2) * pow(1 - t, P - 2, P) % P
    return (y3 | ((x3 & 1) << 255)).to_bytes(32, "little")


def ctx_json(ctx: ProofContext) -> dict[str, Any]:
    return {
        "version": ctx.version,
        "session_id": ctx.session_id.hex(),
        "round": ctx.round,
        "step": ctx.step,
        "prover": ctx.prover,
    }


def provenance(seed: str, what: str) -> dict[str, Any]:
    return {
        "generator": GENERATOR,
        "seed": seed,
        "rng": "spec/crypto.md §9.1 stream over the ASCII seed",
        "implementation": "mentalpoker (PyNaCl / libsodium)",
        "independent_check": what,
    }


def flip(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def valid_flip(message: bytes, offset: int) -> int:
    """The first bit of the point at ``offset`` whose flip still decodes to a valid point."""
    for bit in range(offset * 8, offset * 8 + 256):
        try:
            Point.from_bytes(flip(message, bit)[offset : offset + 32])
        except InvalidEncoding:
            continue
        return bit
    raise RuntimeError("no bit flip keeps this point valid")


def hash_to_point_file() -> dict[str, Any]:
    labels = [b"", b"abc", b"card/0", b"card/47", b"shuffle/h", b"shuffle/h/1", b"\x00\xff" * 40]
    cases = []
    for label in labels:
        uniform = sha512(HASH_TO_POINT_DST, b"\x00", label)[:32]
        cases.append(
            {"label": label.hex(), "uniform": uniform.hex(), "point": hash_to_point(label).raw.hex()}
        )
    return {
        "provenance": provenance(
            "none (deterministic)", "tests/unit/test_mp_group.py pure-Python Elligator 2"
        ),
        "description": "hash_to_point(label) = from_uniform(SHA-512(DST || 0x00 || label)[0:32])",
        "dst": HASH_TO_POINT_DST.decode(),
        "cases": cases,
    }


def generators_file(n: int = 48) -> dict[str, Any]:
    return {
        "provenance": provenance(
            "none (deterministic)", "card points recomputed by the pure-Python reference"
        ),
        "description": "card points, commitment bases and the public starting-deck randomness",
        "base_point": G.raw.hex(),
        "order": str(L),
        "cards": [
            {
                "index": i,
                "label": card_label(i).decode(),
                "point": card_point(i).raw.hex(),
                "rho": start_randomness(i).raw.hex(),
                "rho_G": start_randomness_point(i).raw.hex(),
            }
            for i in range(n)
        ],
        "h": {"label": "shuffle/h", "point": commitment_base_h().raw.hex()},
        "h_i": [
            {"i": i, "label": f"shuffle/h/{i}", "point": commitment_base(i).raw.hex()}
            for i in range(1, n + 1)
        ],
    }


def invalid_encodings_file() -> dict[str, Any]:
    points: list[dict[str, Any]] = []
    for text in SMALL_ORDER:
        points.append({"encoding": text, "why": "small order or identity", "reason": "invalid_point"})
    for k in (0, 1, 18):
        for sign in (0, 1):
            value = (P + k) | (sign << 255)
            points.append(
                {
                    "encoding": value.to_bytes(32, "little").hex(),
                    "why": f"y = p + {k} (non-canonical)",
                    "reason": "invalid_point",
                }
            )
    points.append(
        {
            "encoding": (1 | 1 << 255).to_bytes(32, "little").hex(),
            "why": "identity with x sign set",
            "reason": "invalid_point",
        }
    )
    points.append(
        {
            "encoding": (2).to_bytes(32, "little").hex(),
            "why": "y = 2 is on no curve point",
            "reason": "invalid_point",
        }
    )
    points.append(
        {
            "encoding": off_subgroup_encoding().hex(),
            "why": "hash_to_point(b'attack') + order-8 point",
            "reason": "invalid_point",
        }
    )
    points.append({"encoding": "00" * 31, "why": "31 bytes", "reason": "invalid_point"})
    scalars = [
        {"encoding": L.to_bytes(32, "little").hex(), "why": "L", "reason": "invalid_scalar"},
        {"encoding": (L + 1).to_bytes(32, "little").hex(), "why": "L + 1", "reason": "invalid_scalar"},
        {"encoding": "ff" * 32, "why": "2^256 - 1", "reason": "invalid_scalar"},
        {"encoding": "00" * 33, "why": "33 bytes", "reason": "invalid_scalar"},
    ]
    valid_scalars = [(L - 1).to_bytes(32, "little").hex(), "00" * 32]
    return {
        "provenance": provenance("none", "small-order list checked by the pure-Python reference"),
        "description": "encodings every decoder MUST refuse (spec/crypto.md §2.2)",
        "points": points,
        "scalars": scalars,
        "valid_scalars": valid_scalars,
    }


def transcript_file() -> dict[str, Any]:
    ctx = ProofContext(VERSION, SESSION, 7, "shuffle", 1)
    t = Transcript("example")
    t.context(ctx)
    t.point("g", G)
    t.points("two", [G, card_point(0)])
    t.scalars("s", [Scalar.from_int(5)])
    t.bytes_("raw", b"\x01\x02")
    t.text("name", "koikoi")
    c1 = t.challenge_bytes("c1")
    c2 = t.challenge_scalar("c2")
    u = t.challenge_scalars("u", 6)
    return {
        "provenance": provenance("none (deterministic)", "none"),
        "description": "one transcript: the items below absorbed in order, then three challenges",
        "proof": "example",
        "context": ctx_json(ctx),
        "items": [
            {"type": "points", "label": "g", "value": G.raw.hex()},
            {"type": "points", "label": "two", "value": G.raw.hex() + card_point(0).raw.hex()},
            {"type": "scalars", "label": "s", "value": Scalar.from_int(5).raw.hex()},
            {"type": "bytes", "label": "raw", "value": "0102"},
            {"type": "text", "label": "name", "value": "koikoi"},
        ],
        "challenge_bytes_c1": c1.hex(),
        "challenge_scalar_c2": c2.raw.hex(),
        "challenge_scalars_u": [s.raw.hex() for s in u],
    }


def schnorr_file() -> dict[str, Any]:
    seed = "koikoi-vector-schnorr"
    rng = stream_rng(seed.encode())
    ctx = ProofContext(VERSION, SESSION, 1, "key", 0)
    keys = KeyPair.generate(rng)
    proof = prove_key(ctx, keys, rng).to_bytes()
    message = keys.public.raw + proof
    invalid = [
        {
            "id": "moved_prover",
            "context": ctx_json(ctx.with_prover(1)),
            "message": message.hex(),
            "error": "bad_key_proof",
        },
        {
            "id": "moved_step",
            "context": ctx_json(ctx.with_step("share")),
            "message": message.hex(),
            "error": "bad_key_proof",
        },
        {
            "id": "flipped_challenge",
            "context": ctx_json(ctx),
            "message": flip(message, 32 * 8).hex(),
            "error": "bad_key_proof",
        },
        {
            "id": "flipped_response",
            "context": ctx_json(ctx),
            "message": flip(message, 64 * 8 + 3).hex(),
            "error": "bad_key_proof",
        },
        {
            "id": "identity_key",
            "context": ctx_json(ctx),
            "message": SMALL_ORDER[0] + proof.hex(),
            "error": "invalid_point",
        },
        {
            "id": "response_not_reduced",
            "context": ctx_json(ctx),
            "message": (message[:64] + b"\xff" * 32).hex(),
            "error": "invalid_scalar",
        },
    ]
    return {
        "provenance": provenance(seed, "none"),
        "description": "a round key and its Schnorr proof (key message = pk || c || s)",
        "cases": [
            {
                "id": "valid",
                "context": ctx_json(ctx),
                "secret": keys.secret.raw.hex(),
                "message": message.hex(),
                "error": None,
            },
            *invalid,
        ],
    }


def dleq_file() -> dict[str, Any]:
    seed = "koikoi-vector-dleq"
    rng = stream_rng(seed.encode())
    ctx = ProofContext(VERSION, SESSION, 1, "share", 1)
    keys = KeyPair.generate(rng)
    other = KeyPair.generate(rng)
    deck = start_deck(joint_key([other.public, keys.public]), 48)
    positions = [5, 0, 47]
    bases = [deck[p].a for p in positions]
    shares, proof = prove_shares(ctx, keys, positions, bases, rng)
    message = encode_shares(shares, proof)
    offset = hash_to_point(b"compensation")
    common = {"context": ctx_json(ctx), "pk": keys.public.raw.hex(), "bases": [b.raw.hex() for b in bases]}
    return {
        "provenance": provenance(seed, "none"),
        "description": "decryption shares of three positions with one batched Chaum-Pedersen proof",
        "secret": keys.secret.raw.hex(),
        "cases": [
            {"id": "valid", **common, "positions": positions, "message": message.hex(), "error": None},
            {
                "id": "positions_reordered",
                **common,
                "positions": [0, 5, 47],
                "message": message.hex(),
                "error": "bad_share_proof",
            },
            {
                "id": "moved_round",
                **common,
                "context": ctx_json(ProofContext(VERSION, SESSION, 2, "share", 1)),
                "positions": positions,
                "message": message.hex(),
                "error": "bad_share_proof",
            },
            {
                "id": "share_swapped",
                **common,
                "positions": positions,
                "message": (message[32:64] + message[:32] + message[64:]).hex(),
                "error": "bad_share_proof",
            },
            {
                "id": "flipped_response",
                **common,
                "positions": positions,
                "message": flip(message, len(message) * 8 - 20).hex(),
                "error": "bad_share_proof",
            },
            {
                "id": "small_order_share",
                **common,
                "positions": positions,
                "message": (bytes.fromhex(SMALL_ORDER[4]) + message[32:]).hex(),
                "error": "invalid_point",
            },
            {
                # d_1 + X and d_2 - X: the sum of the shares is still x * (a_1 + a_2), so a batch
                # checked only through an unweighted sum would accept both wrong shares (§7).
                "id": "compensated_shares",
                **common,
                "positions": positions,
                "message": (
                    (shares[0] + offset).raw + (shares[1] - offset).raw + message[64:]
                ).hex(),
                "error": "bad_share_proof",
            },
        ],
    }


def shuffle_file(n: int = 48) -> dict[str, Any]:
    seed = "koikoi-vector-shuffle-48"
    rng = stream_rng(seed.encode())
    ctx = ProofContext(VERSION, SESSION, 1, "shuffle", 0)
    k0, k1 = KeyPair.generate(rng), KeyPair.generate(rng)
    pk = joint_key([k0.public, k1.public])
    inputs = start_deck(pk, n)
    outputs, witness = shuffle(pk, inputs, rng)
    proof = prove_shuffle(ctx, pk, inputs, outputs, witness, rng)
    message = encode_deck(outputs) + proof.to_bytes()
    duplicated = encode_deck((outputs[1], *outputs[1:])) + proof.to_bytes()
    return {
        "provenance": provenance(seed, "none"),
        "description": (
            "a 48-card shuffle of the public starting deck under pk = pk_0 + pk_1 and its Terelius-Wikstrom"
            " proof; message = outputs || proof (spec/crypto.md §6.5)"
        ),
        "secrets": [k0.secret.raw.hex(), k1.secret.raw.hex()],
        "pk": pk.raw.hex(),
        "n": n,
        "inputs": encode_deck(inputs).hex(),
        "permutation": list(witness.permutation),
        "randomness": [r.raw.hex() for r in witness.randomness],
        "cases": [
            {"id": "valid", "context": ctx_json(ctx), "message": message.hex(), "error": None},
            {
                "id": "moved_prover",
                "context": ctx_json(ctx.with_prover(1)),
                "message": message.hex(),
                "error": "bad_shuffle_proof",
            },
            {
                "id": "moved_session",
                "context": ctx_json(ProofContext(VERSION, b"\x00" * 16, 1, "shuffle", 0)),
                "message": message.hex(),
                "error": "bad_shuffle_proof",
            },
            {
                "id": "duplicated_card",
                "context": ctx_json(ctx),
                "message": duplicated.hex(),
                "error": "bad_shuffle_proof",
            },
            {
                "id": "flipped_s_prime",
                "context": ctx_json(ctx),
                "message": flip(message, len(message) * 8 - 40).hex(),
                "error": "bad_shuffle_proof",
            },
            {
                "id": "flipped_chain_still_a_point",
                "context": ctx_json(ctx),
                "message": flip(message, valid_flip(message, 64 * n + 32 + 32 * n)).hex(),
                "error": "bad_shuffle_proof",
            },
            {
                "id": "flipped_chain_not_a_point",
                "context": ctx_json(ctx),
                "message": flip(message, (64 * n + 32 + 32 * n) * 8 + 1).hex(),
                "error": "invalid_point",
            },
            {
                "id": "truncated",
                "context": ctx_json(ctx),
                "message": message[:-1].hex(),
                "error": "invalid_length",
            },
        ],
    }


def party_seed(seed: str, party: int) -> bytes:
    """A party's 32-byte secret seed in the vectors: SHA-512(ASCII seed || "/" || party)[0:32]."""
    return sha512(f"{seed}/{party}".encode())[:32]


def binding(index: int) -> bytes:
    """The binding of the index-th message of the 6-card round (a stand-in for a chain head)."""
    return sha512(b"koikoi-vector-deck-6/binding/" + str(index).encode())[:32]


def deck_file() -> dict[str, Any]:
    """A whole 6-card round between two parties, every message, for interoperability."""
    seed = "koikoi-vector-deck-6"
    kw = {"n": 6, "version": VERSION, "session_id": SESSION, "round": 4, "first_shuffler": 1}
    a = DeckParty(me=0, seed=party_seed(seed, 0), **kw)  # type: ignore[arg-type]
    b = DeckParty(me=1, seed=party_seed(seed, 1), **kw)  # type: ignore[arg-type]
    ka, kb = a.key_message(binding(0)), b.key_message(binding(1))
    a.receive_key(kb)
    b.receive_key(ka)
    s1 = b.shuffle_message(binding(2))
    a.receive_shuffle(s1)
    s2 = a.shuffle_message(binding(3))
    b.receive_shuffle(s2)
    sh_b = b.share_message([0, 1, 2], binding(4))
    a.receive_shares([0, 1, 2], sh_b)
    sh_a = a.share_message([2], binding(5))
    b.receive_shares([2], sh_a)
    xa, xb = a.disclose_key(), b.disclose_key()
    a.receive_disclosed_key(xb)
    b.receive_disclosed_key(xa)
    order = a.audit()

    def entry(index: int, sender: int, kind: str, data: bytes, **extra: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"from": sender, "type": kind, **extra, "data": data.hex()}
        if kind != "disclose":
            out["binding"] = binding(index).hex()
        return out

    return {
        "provenance": {**provenance(seed, "test_mp_independent.py: keys, shares, shuffle outputs"),
                       "rng": "spec/crypto.md §3.5 hedge under each party's seed"},
        "description": (
            "a 6-card deck: keys, party 1 shuffles first, shares, disclosure; the final order. Each party"
            " draws from the hedge of spec/crypto.md §3.5 keyed by its seed, with the message's binding"
        ),
        "setup": {k: (v.hex() if isinstance(v, bytes) else v) for k, v in kw.items()},
        "seeds": [party_seed(seed, 0).hex(), party_seed(seed, 1).hex()],
        "messages": [
            entry(0, 0, "key", ka),
            entry(1, 1, "key", kb),
            entry(2, 1, "shuffle", s1),
            entry(3, 0, "shuffle", s2),
            entry(4, 1, "shares", sh_b, positions=[0, 1, 2]),
            entry(5, 0, "shares", sh_a, positions=[2]),
            entry(6, 0, "disclose", xa),
            entry(7, 1, "disclose", xb),
        ],
        "cards_seen_by_0": {str(p): a.card_at(p) for p in (0, 1, 2)},
        "order": list(order),
    }


def hedge_file() -> dict[str, Any]:
    """The hedge PRF of spec/crypto.md §3.5 on its own: K and the first bytes of its stream."""
    seed = sha512(b"koikoi-vector-hedge")[:32]
    pk = hash_to_point(b"vector/hedge/pk")
    a = [hash_to_point(b"vector/hedge/a/" + str(i).encode()) for i in range(2)]
    cases = []
    for step, statement in (
        ("key", []),
        ("shuffle", [("points", "pk", [pk]), ("points", "inputs", a)]),
        ("share", [("bytes", "positions", bytes.fromhex("00050000")), ("points", "a", a)]),
    ):
        ctx = ProofContext(VERSION, SESSION, 7, step, 1)
        bind = sha512(b"vector/hedge/binding/" + step.encode())[:32]
        hedge = Hedge(seed, ctx, bind)
        for kind, label, value in statement:
            if kind == "points":
                assert isinstance(value, list)
                hedge.points(label, value)
            else:
                assert isinstance(value, bytes)
                hedge.bytes_(label, value)
        cases.append({
            "id": step,
            "context": ctx_json(ctx),
            "binding": bind.hex(),
            "statement": [
                {"type": kind, "label": label,
                 "value": (b"".join(p.raw for p in value) if isinstance(value, list) else value).hex()}
                for kind, label, value in statement
            ],
            "stream": hedge(160).hex(),
        })
    return {
        "provenance": {**provenance("koikoi-vector-hedge", "tests/vectors/test_mp_independent.py"),
                       "rng": "none: this file defines the hedge itself"},
        "description": (
            "K = HMAC-SHA-512(seed, items of the domain, context, binding and statement); the stream is"
            " HMAC-SHA-512(K, u64be(0)) || HMAC-SHA-512(K, u64be(1)) || ..., first 160 bytes"
        ),
        "seed": seed.hex(),
        "cases": cases,
    }


FILES: dict[str, Callable[[], dict[str, Any]]] = {
    "hash_to_point.json": hash_to_point_file,
    "generators.json": generators_file,
    "invalid_encodings.json": invalid_encodings_file,
    "transcript.json": transcript_file,
    "schnorr.json": schnorr_file,
    "dleq.json": dleq_file,
    "shuffle_48.json": shuffle_file,
    "deck_6.json": deck_file,
    "hedge.json": hedge_file,
}


def render(name: str) -> str:
    return json.dumps(FILES[name](), indent=1, sort_keys=False) + "\n"


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
