"""spec/vectors/crypto: every file is loaded, recomputed, verified, and its invalid cases refused.

Hash-to-point, the card points and the commitment bases are also recomputed by the independent
pure-Python edwards25519 of tests/unit/test_mp_group.py; the transcript bytes are rebuilt here from
the layout in spec/crypto.md §3 without the Transcript class.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes

from mentalpoker.context import ProofContext
from mentalpoker.deck import DeckObserver, DeckParty
from mentalpoker.dleq import decode_shares, encode_shares, prove_shares, verify_shares
from mentalpoker.elgamal import KeyPair, decode_deck, encode_deck, joint_key, start_deck
from mentalpoker.errors import MentalPokerError
from mentalpoker.generators import card_point, commitment_base, commitment_base_h, start_randomness
from mentalpoker.group import G, L, Point, Scalar, hash_to_point
from mentalpoker.keyproof import KeyProof, prove_key, verify_key
from mentalpoker.shuffle import ShuffleProof, ShuffleWitness, prove_shuffle, shuffle, verify_shuffle
from mentalpoker.transcript import Transcript
from tests.unit.test_mp_group import REF_G, REF_IDENTITY, ref_decode, ref_encode, ref_from_uniform, ref_mul

ROOT = Path(__file__).resolve().parents[2]
CRYPTO = ROOT / "spec" / "vectors" / "crypto"
FILES = sorted(p.name for p in CRYPTO.glob("*.json"))


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CRYPTO / name).read_text(encoding="utf-8"))
    return data


def sha512(*parts: bytes) -> bytes:
    h = hashes.Hash(hashes.SHA512())
    for part in parts:
        h.update(part)
    return h.finalize()


class Stream:
    """spec/crypto.md §9.1, written again from the spec."""

    def __init__(self, seed: str) -> None:
        self.seed, self.k, self.buf = seed.encode(), 0, b""

    def __call__(self, n: int) -> bytes:
        while len(self.buf) < n:
            self.buf += sha512(self.seed, self.k.to_bytes(8, "big"))
            self.k += 1
        out, self.buf = self.buf[:n], self.buf[n:]
        return out


def ctx_of(data: dict[str, Any]) -> ProofContext:
    return ProofContext(
        data["version"], bytes.fromhex(data["session_id"]), data["round"], data["step"], data["prover"]
    )


def test_every_vector_file_has_provenance_and_the_generator_is_current() -> None:
    assert {"hash_to_point.json", "generators.json", "schnorr.json", "dleq.json", "shuffle_48.json"} <= set(
        FILES
    )
    for name in FILES:
        assert "generator" in load(name)["provenance"]
    spec = importlib.util.spec_from_file_location(
        "crypto_vectors", ROOT / "spec" / "vectors" / "generators" / "crypto_vectors.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0


def test_hash_to_point_vectors_implementation_and_independent_reference() -> None:
    data = load("hash_to_point.json")
    for case in data["cases"]:
        label = bytes.fromhex(case["label"])
        uniform = sha512(data["dst"].encode(), b"\x00", label)[:32]
        assert uniform.hex() == case["uniform"]
        assert hash_to_point(label).raw.hex() == case["point"]
        assert ref_from_uniform(uniform).hex() == case["point"]


def test_card_points_bases_and_start_randomness() -> None:
    data = load("generators.json")
    assert data["base_point"] == G.raw.hex() == ref_encode(REF_G).hex()  # type: ignore[arg-type]
    assert int(data["order"]) == L
    dst = b"koikoi-p2p/mentalpoker/v1/hash-to-point"
    for card in data["cards"]:
        i = card["index"]
        assert card["label"] == f"card/{i}"
        assert card_point(i).raw.hex() == card["point"]
        assert ref_from_uniform(sha512(dst, b"\x00", card["label"].encode())[:32]).hex() == card["point"]
        rho = (
            int.from_bytes(
                sha512(b"koikoi-p2p/mentalpoker/v1/start-deck", b"\x00", card["label"].encode()), "little"
            )
            % L
        )
        assert start_randomness(i).raw.hex() == card["rho"] == rho.to_bytes(32, "little").hex()
    for card in data["cards"][:2]:
        assert ref_encode(ref_mul(int(start_randomness(card["index"])), REF_G)).hex() == card["rho_G"]  # type: ignore[arg-type]
    assert commitment_base_h().raw.hex() == data["h"]["point"]
    assert ref_from_uniform(sha512(dst, b"\x00", b"shuffle/h")[:32]).hex() == data["h"]["point"]
    for entry in data["h_i"]:
        assert commitment_base(entry["i"]).raw.hex() == entry["point"]
        assert ref_from_uniform(sha512(dst, b"\x00", entry["label"].encode())[:32]).hex() == entry["point"]


def test_invalid_encodings_are_refused_and_the_reference_agrees_why() -> None:
    data = load("invalid_encodings.json")
    for case in data["points"]:
        raw = bytes.fromhex(case["encoding"])
        with pytest.raises(MentalPokerError) as info:
            Point.from_bytes(raw)
        assert info.value.reason == case["reason"]
        pt = ref_decode(raw) if len(raw) == 32 else None
        if pt is not None:  # canonical curve points: small order or outside the subgroup
            assert ref_mul(L, pt) != REF_IDENTITY or ref_mul(8, pt) == REF_IDENTITY
    for case in data["scalars"]:
        with pytest.raises(MentalPokerError) as info:
            Scalar.from_bytes(bytes.fromhex(case["encoding"]))
        assert info.value.reason == case["reason"]
    for text in data["valid_scalars"]:
        Scalar.from_bytes(bytes.fromhex(text))


def _item(tag: int, label: str, value: bytes) -> bytes:
    return bytes([tag, len(label)]) + label.encode() + len(value).to_bytes(4, "big") + value


def test_transcript_vector_rebuilt_from_the_byte_layout() -> None:
    data = load("transcript.json")
    ctx = ctx_of(data["context"])
    tags = {"bytes": 1, "uint": 2, "text": 3, "points": 4, "scalars": 5}
    stream = _item(0, "proof", b"koikoi-p2p/mentalpoker/v1/transcript/" + data["proof"].encode())
    stream += _item(2, "version", ctx.version.to_bytes(8, "big"))
    stream += _item(1, "session_id", ctx.session_id)
    stream += _item(2, "round", ctx.round.to_bytes(8, "big"))
    stream += _item(3, "step", ctx.step.encode())
    stream += _item(2, "prover", ctx.prover.to_bytes(8, "big"))
    t = Transcript(data["proof"])
    t.context(ctx)
    for item in data["items"]:
        value = item["value"].encode() if item["type"] == "text" else bytes.fromhex(item["value"])
        stream += _item(tags[item["type"]], item["label"], value)
        if item["type"] == "points":
            t.points(item["label"], [Point.from_bytes(value[i : i + 32]) for i in range(0, len(value), 32)])
        elif item["type"] == "scalars":
            t.scalars(item["label"], [Scalar.from_bytes(value)])
        elif item["type"] == "bytes":
            t.bytes_(item["label"], value)
        else:
            t.text(item["label"], item["value"])
    c1 = sha512(stream, _item(6, "c1", b""))
    assert c1.hex() == data["challenge_bytes_c1"] == t.challenge_bytes("c1").hex()
    stream += _item(6, "c1", c1)
    c2 = sha512(stream, _item(6, "c2", b""))
    assert (int.from_bytes(c2, "little") % L).to_bytes(32, "little").hex() == data["challenge_scalar_c2"]
    assert t.challenge_scalar("c2").raw.hex() == data["challenge_scalar_c2"]
    stream += _item(6, "c2", c2)
    seed = sha512(stream, _item(6, "u", b""))
    u = [
        (int.from_bytes(sha512(seed, j.to_bytes(4, "big")), "little") % L).to_bytes(32, "little")
        for j in range(6)
    ]
    assert [x.hex() for x in u] == data["challenge_scalars_u"]
    assert [s.raw.hex() for s in t.challenge_scalars("u", 6)] == data["challenge_scalars_u"]


def _expect(case: dict[str, Any], check: Any) -> None:
    if case["error"] is None:
        check()
    else:
        with pytest.raises(MentalPokerError) as info:
            check()
        assert info.value.reason == case["error"], case["id"]


def test_schnorr_vectors() -> None:
    data = load("schnorr.json")
    valid = data["cases"][0]
    rng = Stream(data["provenance"]["seed"])
    keys = KeyPair.generate(rng)
    assert keys.secret.raw.hex() == valid["secret"]
    assert (keys.public.raw + prove_key(ctx_of(valid["context"]), keys, rng).to_bytes()).hex() == valid[
        "message"
    ]
    for case in data["cases"]:
        raw = bytes.fromhex(case["message"])
        _expect(
            case,
            lambda raw=raw, case=case: verify_key(
                ctx_of(case["context"]), Point.from_bytes(raw[:32]), KeyProof.from_bytes(raw[32:])
            ),
        )


def test_dleq_vectors() -> None:
    data = load("dleq.json")
    rng = Stream(data["provenance"]["seed"])
    keys, other = KeyPair.generate(rng), KeyPair.generate(rng)
    assert keys.secret.raw.hex() == data["secret"]
    valid = data["cases"][0]
    deck = start_deck(joint_key([other.public, keys.public]), 48)
    bases = [deck[p].a for p in valid["positions"]]
    assert [b.raw.hex() for b in bases] == valid["bases"]
    shares, proof = prove_shares(ctx_of(valid["context"]), keys, valid["positions"], bases, rng)
    assert encode_shares(shares, proof).hex() == valid["message"]
    for case in data["cases"]:

        def check(case: dict[str, Any] = case) -> None:
            raw = bytes.fromhex(case["message"])
            got, got_proof = decode_shares(raw, len(case["positions"]))
            verify_shares(
                ctx_of(case["context"]),
                Point.from_bytes(bytes.fromhex(case["pk"])),
                case["positions"],
                [Point.from_bytes(bytes.fromhex(b)) for b in case["bases"]],
                got,
                got_proof,
            )

        _expect(case, check)


def test_shuffle_48_vector_reproduces_and_verifies() -> None:
    data = load("shuffle_48.json")
    n = data["n"]
    rng = Stream(data["provenance"]["seed"])
    k0, k1 = KeyPair.generate(rng), KeyPair.generate(rng)
    assert [k0.secret.raw.hex(), k1.secret.raw.hex()] == data["secrets"]
    pk = joint_key([k0.public, k1.public])
    assert pk.raw.hex() == data["pk"]
    inputs = start_deck(pk, n)
    assert encode_deck(inputs).hex() == data["inputs"]
    outputs, witness = shuffle(pk, inputs, rng)
    assert list(witness.permutation) == data["permutation"]
    assert [r.raw.hex() for r in witness.randomness] == data["randomness"]
    valid = data["cases"][0]
    proof = prove_shuffle(ctx_of(valid["context"]), pk, inputs, outputs, witness, rng)
    assert (encode_deck(outputs) + proof.to_bytes()).hex() == valid["message"]
    # Reproduce from the recorded witness alone, too.
    recorded = ShuffleWitness(
        tuple(data["permutation"]), tuple(Scalar.from_bytes(bytes.fromhex(r)) for r in data["randomness"])
    )
    assert recorded == witness
    for case in data["cases"]:

        def check(case: dict[str, Any] = case) -> None:
            raw = bytes.fromhex(case["message"])
            if len(raw) != 64 * n + 128 * n + 160:
                from mentalpoker.errors import InvalidEncoding

                raise InvalidEncoding("invalid_length", "vector")
            outs = decode_deck(raw[: 64 * n], n)
            verify_shuffle(
                ctx_of(case["context"]), pk, inputs, outs, ShuffleProof.from_bytes(raw[64 * n :], n)
            )

        _expect(case, check)


def test_deck_6_round_replays_for_parties_and_an_observer() -> None:
    data = load("deck_6.json")
    setup = dict(data["setup"])
    setup["session_id"] = bytes.fromhex(setup["session_id"])
    parties = [DeckParty(me=k, seed=bytes.fromhex(data["seeds"][k]), **setup) for k in (0, 1)]
    observer = DeckObserver(**setup)
    for message in data["messages"]:
        sender, raw = message["from"], bytes.fromhex(message["data"])
        me, peer = parties[sender], parties[1 - sender]
        if message["type"] == "key":
            assert me.key_message(bytes.fromhex(message["binding"])) == raw
            peer.receive_key(raw)
            observer.receive_key(sender, raw)
        elif message["type"] == "shuffle":
            assert me.shuffle_message(bytes.fromhex(message["binding"])) == raw
            peer.receive_shuffle(raw)
            observer.receive_shuffle(sender, raw)
        elif message["type"] == "shares":
            assert me.share_message(message["positions"], bytes.fromhex(message["binding"])) == raw
            peer.receive_shares(message["positions"], raw)
            observer.receive_shares(sender, message["positions"], raw)
        else:
            assert me.disclose_key() == raw
            peer.receive_disclosed_key(raw)
            observer.receive_disclosed_key(sender, raw)
    assert {str(p): parties[0].card_at(p) for p in (0, 1, 2)} == data["cards_seen_by_0"]
    assert list(parties[0].audit()) == list(parties[1].audit()) == list(observer.audit()) == data["order"]
    assert observer.card_at(2) == data["order"][2]


def test_hedge_vectors() -> None:
    """spec/crypto.md §3.5: the hedge's stream for each step's inputs."""
    from mentalpoker.hedge import Hedge

    data = load("hedge.json")
    for case in data["cases"]:
        hedge = Hedge(bytes.fromhex(data["seed"]), ctx_of(case["context"]), bytes.fromhex(case["binding"]))
        for item in case["statement"]:
            value = bytes.fromhex(item["value"])
            if item["type"] == "points":
                points = [Point.from_bytes(value[i:i + 32]) for i in range(0, len(value), 32)]
                hedge.points(item["label"], points)
            else:
                hedge.bytes_(item["label"], value)
        assert hedge(160).hex() == case["stream"], case["id"]
