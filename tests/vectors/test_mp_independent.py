"""An independent verifier written from spec/crypto.md alone, in plain Python integers.

It shares no code with ``mentalpoker``: its own edwards25519 arithmetic (RFC 8032 extended
coordinates), its own hash-to-point (tests/unit/test_mp_group.py's Elligator 2), its own
transcript bytes (§3). It replays the vectors' 6-card round (keys, both shuffles, shares,
disclosure) and the Schnorr and DLEQ vectors; agreeing with them is evidence that the spec, not
only the code, is complete.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes

from tests.unit.test_mp_group import ref_from_uniform

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = (-121665 * pow(121666, P - 2, P)) % P
D2 = 2 * D % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
Ext = tuple[int, int, int, int]
ZERO: Ext = (0, 1, 1, 0)
CRYPTO = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "crypto"


def H(*parts: bytes) -> bytes:
    h = hashes.Hash(hashes.SHA512())
    for part in parts:
        h.update(part)
    return h.finalize()


def add(p: Ext, q: Ext) -> Ext:
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * D2 * t2 % P
    d = z1 * 2 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def neg(p: Ext) -> Ext:
    x, y, z, t = p
    return (-x % P, y, z, -t % P)


def mul(k: int, p: Ext) -> Ext:
    acc = ZERO
    for bit in bin(k)[2:]:
        acc = add(acc, acc)
        if bit == "1":
            acc = add(acc, p)
    return acc


def encode(p: Ext) -> bytes:
    x, y, z, _ = p
    zi = pow(z, P - 2, P)
    x, y = x * zi % P, y * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def decode(data: bytes) -> Ext:
    """§2.2: canonical, on the curve, in the subgroup, not small order."""
    assert len(data) == 32
    v = int.from_bytes(data, "little")
    sign, y = v >> 255, v & ((1 << 255) - 1)
    if y >= P:
        raise ValueError("non-canonical")
    u = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(u, (P + 3) // 8, P)
    if (x * x - u) % P:
        x = x * SQRT_M1 % P
    if (x * x - u) % P:
        raise ValueError("not on the curve")
    if x == 0 and sign:
        raise ValueError("negative zero")
    if x & 1 != sign:
        x = P - x
    pt = (x, y, 1, x * y % P)
    if encode(mul(8, pt)) == encode(ZERO) or encode(mul(L, pt)) != encode(ZERO):
        raise ValueError("small order or outside the subgroup")
    return pt


def scalar(data: bytes) -> int:
    v = int.from_bytes(data, "little")
    if len(data) != 32 or v >= L:
        raise ValueError("scalar")
    return v


B = decode(bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666"))


def h2p(label: bytes) -> Ext:
    return decode(ref_from_uniform(H(b"koikoi-p2p/mentalpoker/v1/hash-to-point", b"\x00", label)[:32]))


class Transcript:
    def __init__(self, proof: str) -> None:
        self.data = self.item(0, "proof", b"koikoi-p2p/mentalpoker/v1/transcript/" + proof.encode())

    @staticmethod
    def item(tag: int, label: str, value: bytes) -> bytes:
        return bytes([tag, len(label)]) + label.encode() + len(value).to_bytes(4, "big") + value

    def put(self, tag: int, label: str, value: bytes) -> None:
        self.data += self.item(tag, label, value)

    def context(self, ctx: dict[str, Any]) -> None:
        self.put(2, "version", ctx["version"].to_bytes(8, "big"))
        self.put(1, "session_id", bytes.fromhex(ctx["session_id"]))
        self.put(2, "round", ctx["round"].to_bytes(8, "big"))
        self.put(3, "step", ctx["step"].encode())
        self.put(2, "prover", ctx["prover"].to_bytes(8, "big"))

    def points(self, label: str, pts: list[Ext]) -> None:
        self.put(4, label, b"".join(encode(p) for p in pts))

    def challenge(self, label: str) -> bytes:
        out = H(self.data, self.item(6, label, b""))
        self.put(6, label, out)
        return out


def ctx(version: int, session: bytes, round_: int, step: str, prover: int) -> dict[str, Any]:
    return {"version": version, "session_id": session.hex(), "round": round_, "step": step, "prover": prover}


def verify_key(c: dict[str, Any], message: bytes) -> Ext:
    pk = decode(message[:32])
    ch, s = scalar(message[32:64]), scalar(message[64:96])
    t = Transcript("key")
    t.context(c)
    t.points("pk", [pk])
    t.points("T", [add(mul(s, B), neg(mul(ch, pk)))])
    assert int.from_bytes(t.challenge("c"), "little") % L == ch
    return pk


def verify_shares(
    c: dict[str, Any], pk: Ext, positions: list[int], bases: list[Ext], message: bytes
) -> list[Ext]:
    k = len(positions)
    assert len(message) == 32 * k + 64
    shares = [decode(message[32 * j : 32 * j + 32]) for j in range(k)]
    ch, s = scalar(message[32 * k : 32 * k + 32]), scalar(message[32 * k + 32 :])
    t = Transcript("dleq")
    t.context(c)
    t.points("pk", [pk])
    t.put(1, "positions", b"".join(p.to_bytes(2, "big") for p in positions))
    t.points("a", bases)
    t.points("d", shares)
    commitments = [add(mul(s, B), neg(mul(ch, pk)))]
    commitments += [add(mul(s, a), neg(mul(ch, d))) for a, d in zip(bases, shares, strict=True)]
    t.points("T", commitments)
    assert int.from_bytes(t.challenge("c"), "little") % L == ch
    return shares


def u_challenges(t: Transcript, n: int) -> list[int]:
    """§3.3: challenge j is LE(H(seed || u32be(j))) mod L."""
    seed = t.challenge("u")
    return [int.from_bytes(H(seed, j.to_bytes(4, "big")), "little") % L for j in range(n)]


def verify_shuffle(
    c: dict[str, Any], pk: Ext, inputs: list[tuple[Ext, Ext]], message: bytes, n: int
) -> list[tuple[Ext, Ext]]:
    """§6.3, step by step."""
    assert len(message) == 192 * n + 160
    pts = [decode(message[32 * i : 32 * i + 32]) for i in range(2 * n)]
    outputs = [(pts[2 * i], pts[2 * i + 1]) for i in range(n)]
    proof = message[64 * n :]
    words = [proof[i : i + 32] for i in range(0, len(proof), 32)]
    ch = scalar(words[0])
    commitments = [decode(w) for w in words[1 : 1 + n]]
    chain = [decode(w) for w in words[1 + n : 1 + 2 * n]]
    s1, s2, s3, s4 = (scalar(w) for w in words[1 + 2 * n : 5 + 2 * n])
    s_hat = [scalar(w) for w in words[5 + 2 * n : 5 + 3 * n]]
    s_prime = [scalar(w) for w in words[5 + 3 * n : 5 + 4 * n]]
    h = h2p(b"shuffle/h")
    hs = [h2p(f"shuffle/h/{i}".encode()) for i in range(1, n + 1)]
    t = Transcript("shuffle")
    t.context(c)
    t.points("pk", [pk])
    t.put(2, "n", n.to_bytes(8, "big"))
    t.points("inputs", [p for ct in inputs for p in ct])
    t.points("outputs", [p for ct in outputs for p in ct])
    t.points("commitments", commitments)
    u = u_challenges(t, n)

    def total(points: list[Ext]) -> Ext:
        acc = ZERO
        for p in points:
            acc = add(acc, p)
        return acc

    u_prod = 1
    for x in u:
        u_prod = u_prod * x % L
    c_bar = add(total(commitments), neg(total(hs)))
    c_hat = add(chain[-1], neg(mul(u_prod, h)))
    c_tilde = total([mul(u[j], commitments[j]) for j in range(n)])
    a_tilde = total([mul(u[j], inputs[j][0]) for j in range(n)])
    b_tilde = total([mul(u[j], inputs[j][1]) for j in range(n)])
    t1 = add(mul(s1, B), neg(mul(ch, c_bar)))
    t2 = add(mul(s2, B), neg(mul(ch, c_hat)))
    t3 = add(add(mul(s3, B), total([mul(s_prime[i], hs[i]) for i in range(n)])), neg(mul(ch, c_tilde)))
    t4a = add(
        add(total([mul(s_prime[i], outputs[i][0]) for i in range(n)]), neg(mul(s4, B))), neg(mul(ch, a_tilde))
    )
    t4b = add(
        add(total([mul(s_prime[i], outputs[i][1]) for i in range(n)]), neg(mul(s4, pk))),
        neg(mul(ch, b_tilde)),
    )
    links = [h, *chain[:-1]]
    t_hat = [add(add(mul(s_hat[i], B), mul(s_prime[i], links[i])), neg(mul(ch, chain[i]))) for i in range(n)]
    t.points("chain", chain)
    t.points("t", [t1, t2, t3, t4a, t4b])
    t.points("t_hat", t_hat)
    assert int.from_bytes(t.challenge("c"), "little") % L == ch
    return outputs


def start_deck(pk: Ext, n: int) -> list[tuple[Ext, Ext]]:
    """§4.3 with §2.5's rho_i."""
    deck = []
    for i in range(n):
        label = f"card/{i}".encode()
        rho = int.from_bytes(H(b"koikoi-p2p/mentalpoker/v1/start-deck", b"\x00", label), "little") % L
        deck.append((mul(rho, B), add(h2p(label), mul(rho, pk))))
    return deck


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CRYPTO / name).read_text(encoding="utf-8"))
    return data


def test_independent_verifier_accepts_the_schnorr_and_dleq_vectors() -> None:
    schnorr = load("schnorr.json")["cases"][0]
    verify_key(schnorr["context"], bytes.fromhex(schnorr["message"]))
    dleq = load("dleq.json")["cases"][0]
    verify_shares(
        dleq["context"],
        decode(bytes.fromhex(dleq["pk"])),
        dleq["positions"],
        [decode(bytes.fromhex(b)) for b in dleq["bases"]],
        bytes.fromhex(dleq["message"]),
    )


def test_independent_verifier_replays_the_6_card_round() -> None:
    data = load("deck_6.json")
    setup = data["setup"]
    n, session, rnd, first = (
        setup["n"],
        bytes.fromhex(setup["session_id"]),
        setup["round"],
        setup["first_shuffler"],
    )
    msgs = data["messages"]
    pks = {}
    for m in msgs[:2]:
        pks[m["from"]] = verify_key(
            ctx(setup["version"], session, rnd, "key", m["from"]), bytes.fromhex(m["data"])
        )
    pk = add(pks[0], pks[1])
    deck = start_deck(pk, n)
    assert [m["from"] for m in msgs[2:4]] == [first, 1 - first]
    for m in msgs[2:4]:
        deck = verify_shuffle(
            ctx(setup["version"], session, rnd, "shuffle", m["from"]), pk, deck, bytes.fromhex(m["data"]), n
        )
    seen: dict[int, dict[int, Ext]] = {0: {}, 1: {}}
    for m in msgs[4:6]:
        shares = verify_shares(
            ctx(setup["version"], session, rnd, "share", m["from"]),
            pks[m["from"]],
            m["positions"],
            [deck[p][0] for p in m["positions"]],
            bytes.fromhex(m["data"]),
        )
        seen[m["from"]].update(zip(m["positions"], shares, strict=True))
    secrets = {m["from"]: scalar(bytes.fromhex(m["data"])) for m in msgs[6:8]}
    for k in (0, 1):
        assert encode(mul(secrets[k], B)) == encode(pks[k])
        for p, d in seen[k].items():
            assert encode(mul(secrets[k], deck[p][0])) == encode(d)
    cards = {encode(h2p(f"card/{i}".encode())): i for i in range(n)}
    x = (secrets[0] + secrets[1]) % L
    order = [cards[encode(add(b, neg(mul(x, a))))] for a, b in deck]
    assert order == data["order"]


def test_independent_verifier_is_not_vacuous() -> None:
    """It refuses the vectors' invalid cases and off-subgroup points too."""
    for case in load("schnorr.json")["cases"][1:]:
        with pytest.raises((AssertionError, ValueError)):
            verify_key(case["context"], bytes.fromhex(case["message"]))
    for case in load("dleq.json")["cases"][1:]:
        with pytest.raises((AssertionError, ValueError)):
            verify_shares(
                case["context"],
                decode(bytes.fromhex(case["pk"])),
                case["positions"],
                [decode(bytes.fromhex(b)) for b in case["bases"]],
                bytes.fromhex(case["message"]),
            )
    for text in load("invalid_encodings.json")["points"]:
        raw = bytes.fromhex(text["encoding"])
        if len(raw) == 32:
            with pytest.raises(ValueError):
                decode(raw)
    data = load("deck_6.json")
    setup = data["setup"]
    m = data["messages"][2]
    pks = [decode(bytes.fromhex(x["data"])[:32]) for x in data["messages"][:2]]
    pk = add(pks[0], pks[1])
    inputs = start_deck(pk, setup["n"])
    c = ctx(setup["version"], bytes.fromhex(setup["session_id"]), setup["round"], "shuffle", m["from"])
    verify_shuffle(c, pk, inputs, bytes.fromhex(m["data"]), setup["n"])
    altered = bytearray(bytes.fromhex(m["data"]))
    altered[-1] ^= 1  # the last s'_n
    with pytest.raises((AssertionError, ValueError)):
        verify_shuffle(c, pk, inputs, bytes(altered), setup["n"])


class RefStream:
    """§9.1 once more: SHA-512(seed || u64be(k)) as one byte stream."""

    def __init__(self, seed: bytes) -> None:
        self.seed, self.k, self.buf = seed, 0, b""

    def __call__(self, n: int) -> bytes:
        while len(self.buf) < n:
            self.buf += H(self.seed, self.k.to_bytes(8, "big"))
            self.k += 1
        out, self.buf = self.buf[:n], self.buf[n:]
        return out


# A byte stream to draw from: RefStream (§9.1) or RefHedge (§3.5).
Draw = Callable[[int], bytes]


def ref_scalar(draw: Draw) -> int:
    """§2.4: 64 bytes reduced modulo L, non-zero."""
    while True:
        v = int.from_bytes(draw(64), "little") % L
        if v:
            return v


def ref_nonce(t: Transcript, x: int, draw: Draw) -> int:
    """§3.4: w = LE(H(state || item(0x07, "w", x || rnd))) mod L; the transcript is unchanged."""
    while True:
        w = int.from_bytes(H(t.data, t.item(7, "w", x.to_bytes(32, "little") + draw(64))), "little") % L
        if w:
            return w


def test_independent_prover_reproduces_the_hedged_schnorr_and_dleq_proofs() -> None:
    """The prover side of §3.4, §5 and §7 written from the spec gives the vectors' exact bytes."""
    schnorr = load("schnorr.json")
    case = schnorr["cases"][0]
    draw = RefStream(schnorr["provenance"]["seed"].encode())
    x = ref_scalar(draw)
    pk = mul(x, B)
    t = Transcript("key")
    t.context(case["context"])
    t.points("pk", [pk])
    w = ref_nonce(t, x, draw)
    t.points("T", [mul(w, B)])
    c = int.from_bytes(t.challenge("c"), "little") % L
    s = (w + c * x) % L
    assert encode(pk) + c.to_bytes(32, "little") + s.to_bytes(32, "little") == bytes.fromhex(case["message"])

    dleq = load("dleq.json")
    case = dleq["cases"][0]
    draw = RefStream(dleq["provenance"]["seed"].encode())
    x = ref_scalar(draw)
    ref_scalar(draw)  # the other party's key
    assert x.to_bytes(32, "little").hex() == dleq["secret"]
    bases = [decode(bytes.fromhex(b)) for b in case["bases"]]
    shares = [mul(x, a) for a in bases]
    t = Transcript("dleq")
    t.context(case["context"])
    t.points("pk", [mul(x, B)])
    t.put(1, "positions", b"".join(p.to_bytes(2, "big") for p in case["positions"]))
    t.points("a", bases)
    t.points("d", shares)
    w = ref_nonce(t, x, draw)
    t.points("T", [mul(w, B), *(mul(w, a) for a in bases)])
    c = int.from_bytes(t.challenge("c"), "little") % L
    s = (w + c * x) % L
    expected = b"".join(encode(d) for d in shares) + c.to_bytes(32, "little") + s.to_bytes(32, "little")
    assert expected == bytes.fromhex(case["message"])


class RefHedge:
    """§3.5 written from the spec with the standard library's HMAC: K over the items, then
    HMAC-SHA-512(K, u64be(j)) for j = 0, 1, ... as one byte stream."""

    def __init__(self, seed: bytes, c: dict[str, Any], binding: bytes) -> None:
        item = Transcript.item
        self.data = item(0, "hedge", b"koikoi-p2p/mentalpoker/v2/hedge")
        self.data += item(2, "version", c["version"].to_bytes(8, "big"))
        self.data += item(1, "session_id", bytes.fromhex(c["session_id"]))
        self.data += item(2, "round", c["round"].to_bytes(8, "big"))
        self.data += item(3, "step", c["step"].encode())
        self.data += item(2, "prover", c["prover"].to_bytes(8, "big"))
        self.data += item(1, "binding", binding)
        self.seed, self.key, self.j, self.buf = seed, b"", 0, b""

    def absorb(self, tag: int, label: str, value: bytes) -> None:
        self.data += Transcript.item(tag, label, value)

    def __call__(self, n: int) -> bytes:
        import hmac

        if not self.key:
            self.key = hmac.new(self.seed, self.data, "sha512").digest()
        while len(self.buf) < n:
            self.buf += hmac.new(self.key, self.j.to_bytes(8, "big"), "sha512").digest()
            self.j += 1
        out, self.buf = self.buf[:n], self.buf[n:]
        return out


def test_independent_hedge_gives_the_hedge_vectors() -> None:
    data = load("hedge.json")
    tags = {"points": 4, "bytes": 1}
    for case in data["cases"]:
        hedge = RefHedge(bytes.fromhex(data["seed"]), case["context"], bytes.fromhex(case["binding"]))
        for entry in case["statement"]:
            hedge.absorb(tags[entry["type"]], entry["label"], bytes.fromhex(entry["value"]))
        assert hedge(160).hex() == case["stream"], case["id"]


def test_independent_prover_reproduces_the_hedged_6_card_round() -> None:
    """The draws of §3.5 and §9.2 from each party's seed: both round keys and their proofs, the
    first shuffle's outputs (permutation and re-randomisers) and both share messages."""
    data = load("deck_6.json")
    setup = data["setup"]
    n, session, rnd = setup["n"], bytes.fromhex(setup["session_id"]), setup["round"]
    seeds = [bytes.fromhex(s) for s in data["seeds"]]
    msgs = data["messages"]

    def hedge_of(m: dict[str, Any], step: str) -> RefHedge:
        c = ctx(setup["version"], session, rnd, step, m["from"])
        return RefHedge(seeds[m["from"]], c, bytes.fromhex(m["binding"]))

    secrets: dict[int, int] = {}
    pks: dict[int, Ext] = {}
    for m in msgs[:2]:
        draw = hedge_of(m, "key")
        x = ref_scalar(draw)
        t = Transcript("key")
        t.context(ctx(setup["version"], session, rnd, "key", m["from"]))
        t.points("pk", [mul(x, B)])
        w = ref_nonce(t, x, draw)
        t.points("T", [mul(w, B)])
        c = int.from_bytes(t.challenge("c"), "little") % L
        expected = encode(mul(x, B)) + c.to_bytes(32, "little") + ((w + c * x) % L).to_bytes(32, "little")
        assert expected.hex() == m["data"]
        secrets[m["from"]], pks[m["from"]] = x, mul(x, B)
    pk = add(pks[0], pks[1])
    deck = start_deck(pk, n)
    first = msgs[2]
    draw = hedge_of(first, "shuffle")
    draw.absorb(4, "pk", encode(pk))
    draw.absorb(4, "inputs", b"".join(encode(a) + encode(b) for a, b in deck))
    perm = list(range(n))                           # §2.4 Fisher-Yates with 32-bit draws
    for i in range(n - 1, 0, -1):
        while True:
            v = int.from_bytes(draw(4), "big")
            if v < (1 << 32) - ((1 << 32) % (i + 1)):
                break
        j = v % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    outputs = b""
    for i in range(n):
        r = ref_scalar(draw)
        a, b = deck[perm[i]]
        outputs += encode(add(a, mul(r, B))) + encode(add(b, mul(r, pk)))
    assert outputs.hex() == first["data"][: 2 * 64 * n]
    deck = verify_shuffle(ctx(setup["version"], session, rnd, "shuffle", first["from"]), pk, deck,
                          bytes.fromhex(first["data"]), n)
    deck = verify_shuffle(ctx(setup["version"], session, rnd, "shuffle", msgs[3]["from"]), pk, deck,
                          bytes.fromhex(msgs[3]["data"]), n)
    for m in msgs[4:6]:
        x, positions = secrets[m["from"]], m["positions"]
        bases = [deck[p][0] for p in positions]
        draw = hedge_of(m, "share")
        draw.absorb(1, "positions", b"".join(p.to_bytes(2, "big") for p in positions))
        draw.absorb(4, "a", b"".join(encode(a) for a in bases))
        shares = [mul(x, a) for a in bases]
        t = Transcript("dleq")
        t.context(ctx(setup["version"], session, rnd, "share", m["from"]))
        t.points("pk", [mul(x, B)])
        t.put(1, "positions", b"".join(p.to_bytes(2, "big") for p in positions))
        t.points("a", bases)
        t.points("d", shares)
        w = ref_nonce(t, x, draw)
        t.points("T", [mul(w, B), *(mul(w, a) for a in bases)])
        c = int.from_bytes(t.challenge("c"), "little") % L
        s = (w + c * x) % L
        expected = b"".join(encode(d) for d in shares) + c.to_bytes(32, "little") + s.to_bytes(32, "little")
        assert expected.hex() == m["data"]
