"""The group layer: encodings, validation of received points, hash-to-point against an independent
pure-Python edwards25519 (written from RFC 8032 and the Elligator 2 paper, sharing no code with
libsodium), and the algebra the proofs rely on."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mentalpoker.errors import GroupError, InvalidEncoding
from mentalpoker.generators import card_point, commitment_base, commitment_base_h
from mentalpoker.group import (
    IDENTITY,
    G,
    L,
    Point,
    Scalar,
    base_mult,
    counting_operations,
    hash_to_point,
    point_sum,
    sha512,
)

# ---------------------------------------------------------------- independent reference
P = 2**255 - 19
D = (-121665 * pow(121666, P - 2, P)) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
MONT_A = 486662
Affine = tuple[int, int]
REF_IDENTITY: Affine = (0, 1)


def ref_sqrt(a: int) -> int | None:
    x = pow(a, (P + 3) // 8, P)
    if (x * x - a) % P:
        x = x * SQRT_M1 % P
    if (x * x - a) % P:
        return None
    return x


def ref_decode(data: bytes) -> Affine | None:
    """RFC 8032 decoding, strict: y < p, and no 'negative zero' x."""
    value = int.from_bytes(data, "little")
    sign, y = value >> 255, value & ((1 << 255) - 1)
    if y >= P:
        return None
    x = ref_sqrt((y * y - 1) * pow(D * y * y + 1, P - 2, P) % P)
    if x is None or (x == 0 and sign):
        return None
    if x & 1 != sign:
        x = P - x
    return (x, y)


def ref_encode(pt: Affine) -> bytes:
    x, y = pt
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def ref_add(p1: Affine, p2: Affine) -> Affine:
    (x1, y1), (x2, y2) = p1, p2
    t = D * x1 * x2 * y1 * y2 % P
    x3 = (x1 * y2 + y1 * x2) * pow(1 + t, P - 2, P) % P
    y3 = (y1 * y2 + x1 * x2) * pow(1 - t, P - 2, P) % P
    return (x3, y3)


def ref_mul(k: int, pt: Affine) -> Affine:
    acc, addend = REF_IDENTITY, pt
    while k:
        if k & 1:
            acc = ref_add(acc, addend)
        addend = ref_add(addend, addend)
        k >>= 1
    return acc


def ref_from_uniform(r: bytes) -> bytes:
    """Elligator 2 onto Curve25519, the birational map to edwards25519, the sign bit, then *8."""
    x_sign = r[31] >> 7
    u = int.from_bytes(r[:31] + bytes([r[31] & 0x7F]), "little") % P
    x1 = (-MONT_A * pow(1 + 2 * u * u, P - 2, P)) % P
    gx1 = (x1**3 + MONT_A * x1 * x1 + x1) % P
    is_square = gx1 == 0 or pow(gx1, (P - 1) // 2, P) == 1
    xm = x1 if is_square else (-x1 - MONT_A) % P
    y = (xm - 1) * pow(xm + 1, P - 2, P) % P
    x = ref_sqrt((y * y - 1) * pow(D * y * y + 1, P - 2, P) % P)
    assert x is not None
    if x & 1 != x_sign:
        x = (P - x) % P
    return ref_encode(ref_mul(8, (x, y)))


REF_G = ref_decode(bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666"))

# The eight points of small order (the torsion subgroup) in their canonical encodings.
SMALL_ORDER_HEX = [
    "0100000000000000000000000000000000000000000000000000000000000000",  # identity
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
    "0000000000000000000000000000000000000000000000000000000000000080",  # order 4
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",  # order 8
]


def non_canonical_encodings() -> list[bytes]:
    """y >= p (y = p + k for small k, both signs), and the identity with the sign bit set."""
    out = []
    for k in range(0, 19):
        for sign in (0, 1):
            out.append(((P + k) | (sign << 255)).to_bytes(32, "little"))
    out.append(((1) | (1 << 255)).to_bytes(32, "little"))  # "negative zero" x with y = 1
    return out


def off_subgroup_point(seed: bytes) -> bytes:
    """A valid curve point of order 8L: a subgroup point plus a point of order 8."""
    base = ref_decode(hash_to_point(seed).raw)
    torsion = ref_decode(bytes.fromhex(SMALL_ORDER_HEX[4]))
    assert base is not None and torsion is not None
    return ref_encode(ref_add(base, torsion))


# ---------------------------------------------------------------- the reference itself
def test_reference_agrees_on_the_base_point_and_small_order_list() -> None:
    assert REF_G is not None
    assert ref_mul(L, REF_G) == REF_IDENTITY
    assert G.raw == ref_encode(REF_G)
    for text in SMALL_ORDER_HEX:
        pt = ref_decode(bytes.fromhex(text))
        assert pt is not None
        assert ref_mul(8, pt) == REF_IDENTITY


# ---------------------------------------------------------------- scalars
def test_scalar_decoding_is_canonical() -> None:
    assert int(Scalar.from_bytes((L - 1).to_bytes(32, "little"))) == L - 1
    for bad in (L, L + 1, 2**256 - 1):
        with pytest.raises(InvalidEncoding) as info:
            Scalar.from_bytes(bad.to_bytes(32, "little"))
        assert info.value.reason == "invalid_scalar"
    for size in (0, 31, 33, 64):
        with pytest.raises(InvalidEncoding):
            Scalar.from_bytes(bytes(size))


def test_random_scalars_use_the_injected_rng_and_are_never_zero() -> None:
    draws = iter([bytes(64), (5).to_bytes(64, "little")])
    s = Scalar.random(lambda n: next(draws))
    assert int(s) == 5
    assert repr(s) == "Scalar()"  # secrets never reach a log through repr


@given(st.integers(0, L - 1), st.integers(0, L - 1))
def test_scalar_arithmetic_matches_integers(a: int, b: int) -> None:
    sa, sb = Scalar.from_int(a), Scalar.from_int(b)
    assert int(sa + sb) == (a + b) % L
    assert int(sa - sb) == (a - b) % L
    assert int(sa * sb) == (a * b) % L
    assert int(-sa) == (-a) % L


# ---------------------------------------------------------------- points
@pytest.mark.parametrize("text", SMALL_ORDER_HEX)
def test_small_order_points_and_the_identity_are_rejected(text: str) -> None:
    with pytest.raises(InvalidEncoding) as info:
        Point.from_bytes(bytes.fromhex(text))
    assert info.value.reason == "invalid_point"


def test_non_canonical_encodings_are_rejected() -> None:
    for data in non_canonical_encodings():
        with pytest.raises(InvalidEncoding):
            Point.from_bytes(data)


def test_off_subgroup_and_off_curve_points_are_rejected() -> None:
    for seed in (b"a", b"b", b"c"):
        data = off_subgroup_point(seed)
        assert ref_decode(data) is not None  # on the curve, canonical
        with pytest.raises(InvalidEncoding):
            Point.from_bytes(data)
    # y values with no x on the curve
    found = 0
    for y in range(2, 200):
        data = y.to_bytes(32, "little")
        if ref_decode(data) is None:
            found += 1
            with pytest.raises(InvalidEncoding):
                Point.from_bytes(data)
    assert found > 10
    for size in (0, 31, 33):
        with pytest.raises(InvalidEncoding):
            Point.from_bytes(bytes(size))


def test_valid_points_round_trip() -> None:
    p = base_mult(Scalar.from_int(12345))
    assert Point.from_bytes(p.raw) == p
    assert p.raw == ref_encode(ref_mul(12345, REF_G))  # type: ignore[arg-type]


# ---------------------------------------------------------------- hash-to-point
@pytest.mark.parametrize("label", [b"", b"card/0", b"card/47", b"shuffle/h", b"shuffle/h/1", b"x" * 200])
def test_hash_to_point_matches_the_independent_reference(label: bytes) -> None:
    digest = sha512(b"koikoi-p2p/mentalpoker/v1/hash-to-point", b"\x00", label)
    assert hash_to_point(label).raw == ref_from_uniform(digest[:32])


def test_card_points_and_commitment_bases_match_the_reference_and_are_distinct() -> None:
    points = [card_point(i) for i in range(48)]
    points += [commitment_base_h()] + [commitment_base(i) for i in range(1, 49)]
    assert len({p.raw for p in points}) == len(points)
    for i in (0, 1, 47):
        digest = sha512(b"koikoi-p2p/mentalpoker/v1/hash-to-point", b"\x00", f"card/{i}".encode())
        assert card_point(i).raw == ref_from_uniform(digest[:32])
    for p in points:
        assert Point.from_bytes(p.raw) == p  # in the subgroup, not small order


# ---------------------------------------------------------------- algebra and degenerate cases
@given(st.integers(1, L - 1), st.integers(1, L - 1))
def test_multiplication_distributes(a: int, b: int) -> None:
    sa, sb = Scalar.from_int(a), Scalar.from_int(b)
    if (a + b) % L:
        assert base_mult(sa + sb) == base_mult(sa) + base_mult(sb)
    assert base_mult(sa * sb) == base_mult(sa).mul(sb)
    assert base_mult(sa) - base_mult(sa) == IDENTITY


def test_zero_scalar_and_identity_results_raise_group_error() -> None:
    with pytest.raises(GroupError):
        base_mult(Scalar.from_int(0))
    with pytest.raises(GroupError):
        G.mul(Scalar.from_int(0))
    with pytest.raises(GroupError):
        IDENTITY.mul(Scalar.from_int(1))
    assert point_sum([]) == IDENTITY


def test_operation_counter_counts_and_restores() -> None:
    with counting_operations() as counts:
        base_mult(Scalar.from_int(3)).mul(Scalar.from_int(2))
    assert counts["base_mult"] == 1 and counts["mult"] == 1
    base_mult(Scalar.from_int(3))
    assert counts["base_mult"] == 1
