"""spec/vectors/protocol/spake2.json, made by the `spake2` package, against SPAKE2 written from
spec/protocol.md §5.4 alone: plain-integer edwards25519 (tests/vectors/test_mp_independent.py),
HKDF and SHA-256 from the standard library. Agreeing is evidence that the spec says everything a
second implementation needs (issue 14, gap 1)."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from spake2 import SPAKE2_A, SPAKE2_B
from spake2.spake2 import ReflectionThwarted

from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.handshake import _check_spake_message
from tests.vectors.test_mp_independent import B, D, Ext, P, add, decode, encode, mul, neg

L = 2**252 + 27742317777372353535851937790883648493
VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"
DATA: dict[str, Any] = json.loads((VECTORS / "protocol" / "spake2.json").read_text(encoding="utf-8"))


def hkdf(ikm: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869 HKDF-SHA256 with an empty salt (the same HMAC key as 32 zero bytes)."""
    prk = hmac.new(b"", ikm, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


def password_scalar(pw: bytes) -> int:
    return int.from_bytes(hkdf(pw, b"SPAKE2 pw", 48), "big") % L


def arbitrary_element(seed: bytes) -> bytes:
    """§5.4: the first y from the HKDF output that is on the curve, its even x, times 8."""
    y = int.from_bytes(hkdf(seed, b"SPAKE2 arbitrary element", 48), "big") % P
    while True:
        xx = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
        x = pow(xx, (P + 3) // 8, P)
        if (x * x - xx) % P:
            x = x * pow(2, (P - 1) // 4, P) % P
        if (x * x - xx) % P == 0:
            if x % 2:
                x = P - x
            point = mul(8, (x, y, 1, x * y % P))
            if encode(point) != encode((0, 1, 1, 0)):
                return encode(point)
        y = (y + 1) % P


def test_m_and_n() -> None:
    assert arbitrary_element(b"M").hex() == DATA["M"]
    assert arbitrary_element(b"N").hex() == DATA["N"]


@pytest.mark.parametrize("case", DATA["password_scalars"], ids=lambda c: c["pw"][:8] or "empty")
def test_password_scalars(case: dict[str, Any]) -> None:
    assert password_scalar(bytes.fromhex(case["pw"])).to_bytes(32, "big").hex() == case["w"]


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: c["id"])
def test_exchange_from_the_spec(case: dict[str, Any]) -> None:
    pw, id_a, id_b = bytes.fromhex(case["pw"]), case["idA"].encode(), case["idB"].encode()
    m_point, n_point = decode(bytes.fromhex(DATA["M"])), decode(bytes.fromhex(DATA["N"]))
    w = password_scalar(pw)
    x = int.from_bytes(bytes.fromhex(case["entropy_a"]), "big") % L
    y = int.from_bytes(bytes.fromhex(case["entropy_b"]), "big") % L
    assert [x.to_bytes(32, "big").hex(), y.to_bytes(32, "big").hex()] == [case["x"], case["y"]]
    x_star: Ext = add(mul(x, B), mul(w, m_point))
    y_star: Ext = add(mul(y, B), mul(w, n_point))
    assert (b"A" + encode(x_star)).hex() == case["message_a"]
    assert (b"B" + encode(y_star)).hex() == case["message_b"]
    k_a = mul(x, add(y_star, neg(mul(w, n_point))))
    k_b = mul(y, add(x_star, neg(mul(w, m_point))))
    assert encode(k_a) == encode(k_b) and encode(k_a).hex() == case["K"]
    sha = hashlib.sha256
    key = sha(sha(pw).digest() + sha(id_a).digest() + sha(id_b).digest() + encode(x_star)
              + encode(y_star) + encode(k_a)).digest()
    assert key.hex() == case["key"]


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: c["id"])
def test_the_package_reproduces_the_exchange(case: dict[str, Any]) -> None:
    pw, id_a, id_b = bytes.fromhex(case["pw"]), case["idA"].encode(), case["idB"].encode()
    ea, eb = bytes.fromhex(case["entropy_a"]), bytes.fromhex(case["entropy_b"])
    a = SPAKE2_A(pw, idA=id_a, idB=id_b, entropy_f=lambda n: ea)
    b = SPAKE2_B(pw, idA=id_a, idB=id_b, entropy_f=lambda n: eb)
    assert a.start().hex() == case["message_a"] and b.start().hex() == case["message_b"]
    assert a.finish(bytes.fromhex(case["message_b"])).hex() == case["key"]


@pytest.mark.parametrize("case", DATA["invalid"], ids=lambda c: c["id"])
def test_invalid_messages_are_refused(case: dict[str, Any]) -> None:
    message = bytes.fromhex(case["message"])
    if case["id"] == "reflected_element":
        # A valid point, but side A's own element sent back: the package refuses it at finish().
        first = DATA["cases"][0]
        side = SPAKE2_A(bytes.fromhex(first["pw"]), idA=first["idA"].encode(), idB=first["idB"].encode(),
                        entropy_f=lambda n: bytes.fromhex(first["entropy_a"]))
        side.start()
        with pytest.raises(ReflectionThwarted):
            side.finish(message)
        return
    with pytest.raises(RemoteViolation) as info:
        _check_spake_message(message, case["side_expected"].encode())
    assert info.value.reason == case["error"]


def test_the_generator_is_current() -> None:
    path = VECTORS / "generators" / "spake2_vectors.py"
    spec = importlib.util.spec_from_file_location("spake2_vectors", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render() == (VECTORS / "protocol" / "spake2.json").read_text(encoding="utf-8")
