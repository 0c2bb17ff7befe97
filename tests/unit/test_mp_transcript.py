"""The Fiat-Shamir transcript: unambiguous items, context binding, challenge sizes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mentalpoker.context import ProofContext
from mentalpoker.errors import MentalPokerError
from mentalpoker.group import G, L, Scalar, base_mult
from mentalpoker.transcript import Transcript

CTX = ProofContext(version=1, session_id=b"s" * 16, round=1, step="shuffle", prover=0)


def test_item_boundaries_are_unambiguous() -> None:
    a, b = Transcript("t"), Transcript("t")
    a.bytes_("x", b"ab")
    a.bytes_("x", b"c")
    b.bytes_("x", b"a")
    b.bytes_("x", b"bc")
    assert a.challenge_bytes("c") != b.challenge_bytes("c")


def test_types_labels_and_proof_names_separate() -> None:
    def run(proof: str, fill: str) -> bytes:
        t = Transcript(proof)
        if fill == "bytes":
            t.bytes_("v", b"\x00" * 8)
        elif fill == "uint":
            t.uint("v", 0)
        else:
            t.bytes_("w", b"\x00" * 8)
        return t.challenge_bytes("c")

    outs = {run(p, f) for p in ("key", "dleq") for f in ("bytes", "uint", "label")}
    assert len(outs) == 6


@pytest.mark.parametrize(
    "change",
    [
        {"version": 2},
        {"session_id": b"t" * 16},
        {"round": 2},
        {"step": "share"},
        {"prover": 1},
    ],
)
def test_every_context_field_changes_the_challenge(change: dict[str, object]) -> None:
    fields = {"version": 1, "session_id": b"s" * 16, "round": 1, "step": "shuffle", "prover": 0}
    fields.update(change)
    other = ProofContext(**fields)  # type: ignore[arg-type]
    t1, t2 = Transcript("p"), Transcript("p")
    t1.context(CTX)
    t2.context(other)
    assert t1.challenge_scalar("c") != t2.challenge_scalar("c")


def test_challenges_chain_and_have_the_promised_size() -> None:
    t = Transcript("p")
    t.point("g", G)
    first = t.challenge_bytes("c")
    second = t.challenge_bytes("c")
    assert first != second and len(first) == 64
    many = Transcript("p").challenge_scalars("u", 9)
    assert len(many) == 9 and len({s.raw for s in many}) == 9
    # Full size (spec/crypto.md §6.4): 128-bit shuffle challenges would give only ~122-bit soundness.
    assert all(int(s) < L for s in many)
    assert sum(int(s) >= 2**248 for s in many) >= 3


def test_statement_points_and_scalars_bind() -> None:
    t1, t2 = Transcript("p"), Transcript("p")
    t1.points("x", [G, base_mult(Scalar.from_int(2))])
    t2.points("x", [base_mult(Scalar.from_int(2)), G])
    assert t1.challenge_bytes("c") != t2.challenge_bytes("c")


@given(st.binary(min_size=0, max_size=15) | st.binary(min_size=65, max_size=80))
def test_bad_session_ids_are_refused(session_id: bytes) -> None:
    with pytest.raises(MentalPokerError):
        ProofContext(version=1, session_id=session_id, round=0, step="key", prover=0)


@pytest.mark.parametrize(
    "fields",
    [
        {"version": -1},
        {"round": 2**64},
        {"step": ""},
        {"prover": 2},
        {"prover": -1},
    ],
)
def test_bad_context_values_are_refused(fields: dict[str, object]) -> None:
    base: dict[str, object] = {"version": 1, "session_id": b"s" * 16, "round": 0, "step": "key", "prover": 0}
    base.update(fields)
    with pytest.raises(MentalPokerError) as info:
        ProofContext(**base)  # type: ignore[arg-type]
    assert info.value.reason == "bad_context"
