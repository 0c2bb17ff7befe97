"""spec/vectors/protocol/link_liveness.json (spec/protocol.md §12.2 item 4) recomputed with the
standard library from the spec's words, and checked against the Python link's own functions."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from koikoi_p2p.net.reliable import HELLO, PROOF, decode_link_frame, liveness_proof
from koikoi_p2p.protocol.channel import liveness_key

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"
DATA: dict[str, Any] = json.loads((VECTORS / "protocol" / "link_liveness.json").read_text(encoding="utf-8"))
LABEL = b"koikoi-p2p/v2/link-liveness"


def hkdf(ikm: bytes, salt: bytes, info: bytes) -> bytes:
    """RFC 5869 HKDF-SHA256, 32 bytes (one block)."""
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: c["id"])
def test_liveness_proof_vector(case: dict[str, Any]) -> None:
    b = {k: bytes.fromhex(v) for k, v in case.items() if k not in ("id", "refused")}
    key = hkdf(b["send_0"] + b["send_1"], b["session_id"], LABEL)
    assert key == b["liveness_key"] == liveness_key(b["session_id"], b["send_0"], b["send_1"])
    mac = hmac.new(key, LABEL + b["challenger"] + b["prover"] + b["challenge"], hashlib.sha256).digest()
    assert mac == b["mac"] == liveness_proof(key, b["challenger"], b["prover"], b["challenge"])
    hello = decode_link_frame(b["hello"])
    assert hello is not None and hello.kind == HELLO
    assert (hello.sender, hello.to, hello.payload) == (b["challenger"], bytes(8), b["challenge"])
    proof = decode_link_frame(b["proof"])
    assert proof is not None and proof.kind == PROOF
    assert (proof.sender, proof.to, proof.payload) == (b["prover"], b["challenger"], mac)
    for refused in case["refused"].values():
        assert bytes.fromhex(refused) != mac


def test_the_generator_is_current() -> None:
    path = VECTORS / "generators" / "link_vectors.py"
    spec = importlib.util.spec_from_file_location("link_vectors", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render() == (VECTORS / "protocol" / "link_liveness.json").read_text(encoding="utf-8")
