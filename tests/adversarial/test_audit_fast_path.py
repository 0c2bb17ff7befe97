"""The auditor's one-pass verification (spec/crypto.md §8.5) refuses exactly what version 1's
did, with the same reason: every bit of a shuffle or share message flipped, with and without
the round secrets known in advance. The baseline is the frozen version 1 observer of
``koikoi bench audit``.

The default run flips every 127th bit of a shuffle and every 11th of a share message (every
32-byte field still gets two or more flips, at moving bit positions); every 61st and every 5th with
``KOIKOI_FULL_CAMPAIGN=1 .venv/bin/python -m pytest -q tests/adversarial/test_audit_fast_path.py``
(tests/campaign.py)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

from koikoi_p2p.bench.audit import V1Observer
from mentalpoker.deck import DeckObserver, DeckParty
from mentalpoker.errors import MentalPokerError
from tests.campaign import full_campaign
from tests.mp_support import seed_of

N = 6
SHUFFLE_STRIDE, SHARE_STRIDE = (61, 5) if full_campaign() else (127, 11)
SETUP = {"n": N, "version": 2, "session_id": b"fast-path-session-0001", "round": 1, "first_shuffler": 0}


def _round() -> tuple[list[bytes], list[bytes], list[bytes], list[bytes]]:
    a = DeckParty(me=0, seed=seed_of(b"fa"), **SETUP)  # type: ignore[arg-type]
    b = DeckParty(me=1, seed=seed_of(b"fb"), **SETUP)  # type: ignore[arg-type]
    keys = [a.key_message(b"0"), b.key_message(b"1")]
    a.receive_key(keys[1])
    b.receive_key(keys[0])
    s1 = a.shuffle_message(b"2")
    b.receive_shuffle(s1)
    s2 = b.shuffle_message(b"3")
    a.receive_shuffle(s2)
    share = b.share_message([0, 2, 5], b"4")
    return keys, [s1, s2], [share], [a.disclose_key(), b.disclose_key()]


KEYS, SHUFFLES, SHARES, SECRETS = _round()


def _observer(kind: type[DeckObserver], secrets: bool) -> DeckObserver:
    observer = kind(**SETUP)  # type: ignore[arg-type]
    observer.receive_key(0, KEYS[0])
    observer.receive_key(1, KEYS[1])
    if secrets:
        observer.receive_disclosed_key(0, SECRETS[0])
        observer.receive_disclosed_key(1, SECRETS[1])
    return observer


def _outcome(fn: Callable[[], object]) -> str:
    try:
        fn()
    except MentalPokerError as exc:
        return exc.reason
    return "accepted"


def _flip(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


@pytest.mark.parametrize("secrets", [False, True])
def test_every_flipped_bit_of_a_shuffle_gets_version_1_s_reason(secrets: bool) -> None:
    for which in (0, 1):
        message = SHUFFLES[which]
        for bit in range(3, len(message) * 8, SHUFFLE_STRIDE):   # every field, several bits of each
            altered = _flip(message, bit)
            got = []
            for kind in (DeckObserver, V1Observer):
                observer = _observer(kind, secrets)
                if which == 1:
                    observer.receive_shuffle(0, SHUFFLES[0])
                got.append(_outcome(functools.partial(observer.receive_shuffle, which, altered)))
            assert got[0] == got[1] != "accepted", (which, bit, got)


@pytest.mark.parametrize("secrets", [False, True])
def test_every_flipped_bit_of_a_share_message_gets_version_1_s_reason(secrets: bool) -> None:
    message = SHARES[0]
    for bit in range(0, len(message) * 8, SHARE_STRIDE):
        altered = _flip(message, bit)
        got = []
        for kind in (DeckObserver, V1Observer):
            observer = _observer(kind, secrets)
            observer.receive_shuffle(0, SHUFFLES[0])
            observer.receive_shuffle(1, SHUFFLES[1])
            got.append(_outcome(functools.partial(observer.receive_shares, 1, [0, 2, 5], altered)))
        assert got[0] == got[1] != "accepted", (bit, got)


def test_both_paths_accept_and_audit_the_honest_round_alike() -> None:
    orders = []
    for kind in (DeckObserver, V1Observer):
        for secrets in (False, True):
            observer = _observer(kind, secrets)
            observer.receive_shuffle(0, SHUFFLES[0])
            observer.receive_shuffle(1, SHUFFLES[1])
            observer.receive_shares(1, [0, 2, 5], SHARES[0])
            if not secrets:
                observer.receive_disclosed_key(0, SECRETS[0])
                observer.receive_disclosed_key(1, SECRETS[1])
            orders.append(observer.audit())
    assert len(set(orders)) == 1


def test_a_wrong_share_with_a_valid_point_is_refused_with_the_secret_known() -> None:
    """d_j replaced by another valid point: the fast path's d_j = x*a_j check fails and the eager
    verification names it, as version 1 did."""
    from mentalpoker.group import hash_to_point

    other = hash_to_point(b"another point").raw
    altered = other + SHARES[0][32:]
    got = []
    for kind in (DeckObserver, V1Observer):
        observer = _observer(kind, True)
        observer.receive_shuffle(0, SHUFFLES[0])
        observer.receive_shuffle(1, SHUFFLES[1])
        got.append(_outcome(functools.partial(observer.receive_shares, 1, [0, 2, 5], altered)))
    assert got == ["bad_share_proof", "bad_share_proof"]
