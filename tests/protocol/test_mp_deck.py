"""The two-party deck: a whole round between two in-memory parties and an observer."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalpoker.deck import (
    DeckObserver,
    DeckParty,
    key_message_size,
    share_message_size,
    shuffle_message_size,
)
from mentalpoker.errors import DeckError, InvalidEncoding, MentalPokerError, ProofError
from tests.mp_support import seed_of

SESSION = b"session-id-0123456789abcdef"


def make(n: int = 48, first: int = 0, seed: bytes = b"s") -> tuple[DeckParty, DeckParty, DeckObserver]:
    kw = {"n": n, "version": 1, "session_id": SESSION, "round": 3, "first_shuffler": first}
    a = DeckParty(me=0, seed=seed_of(seed + b"a"), **kw)  # type: ignore[arg-type]
    b = DeckParty(me=1, seed=seed_of(seed + b"b"), **kw)  # type: ignore[arg-type]
    return a, b, DeckObserver(**kw)  # type: ignore[arg-type]


def setup(a: DeckParty, b: DeckParty, o: DeckObserver) -> None:
    ka, kb = a.key_message(b""), b.key_message(b"")
    b.receive_key(ka)
    a.receive_key(kb)
    o.receive_key(0, ka)
    o.receive_key(1, kb)
    first, second = (a, b) if a.first_shuffler == 0 else (b, a)
    s1 = first.shuffle_message(b"")
    second.receive_shuffle(s1)
    o.receive_shuffle(first.me, s1)
    s2 = second.shuffle_message(b"")
    first.receive_shuffle(s2)
    o.receive_shuffle(second.me, s2)
    assert a.shuffled and b.shuffled and o.shuffled


@pytest.mark.parametrize("first", [0, 1])
def test_whole_round_private_and_public_reveals_and_audit(first: int) -> None:
    a, b, o = make(first=first)
    setup(a, b, o)
    hand_a, hand_b, field = list(range(8)), list(range(8, 16)), list(range(16, 24))
    a.receive_shares(hand_a, b.share_message(hand_a, b""))
    b.receive_shares(hand_b, a.share_message(hand_b, b""))
    ma, mb = a.share_message(field, b""), b.share_message(field, b"")
    a.receive_shares(field, mb)
    b.receive_shares(field, ma)
    o.receive_shares(0, field, ma)
    o.receive_shares(1, field, mb)
    assert all(a.known(p) for p in hand_a + field)
    assert not any(a.known(p) for p in hand_b)
    assert not o.known(0)
    with pytest.raises(DeckError) as info:
        a.card_at(hand_b[0])
    assert info.value.reason == "unknown_position"
    with pytest.raises(DeckError):
        o.card_at(hand_a[0])
    seen_a = {p: a.card_at(p) for p in hand_a + field}
    seen_b = {p: b.card_at(p) for p in hand_b + field}
    assert [seen_a[p] for p in field] == [seen_b[p] for p in field] == [o.card_at(p) for p in field]
    assert len(set(seen_a.values()) | set(seen_b.values())) == 24
    xa, xb = a.disclose_key(), b.disclose_key()
    a.receive_disclosed_key(xb)
    b.receive_disclosed_key(xa)
    o.receive_disclosed_key(0, xa)
    o.receive_disclosed_key(1, xb)
    order = a.audit()
    assert order == b.audit() == o.audit()
    assert sorted(order) == list(range(48))
    assert all(order[p] == c for p, c in {**seen_a, **seen_b}.items())


def test_message_sizes() -> None:
    a, b, o = make()
    assert len(a.key_message(b"")) == key_message_size() == 96
    setup(a, b, o)
    assert len(a.shuffle_message(b"")) == shuffle_message_size(48) == 9376
    assert len(a.share_message([1, 2, 3], b"")) == share_message_size(3) == 160


def test_messages_are_stable_on_repeat_and_turns_are_enforced() -> None:
    a, b, _o = make()
    with pytest.raises(DeckError):
        a.shuffle_message(b"")  # no keys yet
    ka, kb = a.key_message(b""), b.key_message(b"")
    assert a.key_message(b"") == ka
    a.receive_key(kb)
    b.receive_key(ka)
    with pytest.raises(DeckError) as info:
        b.shuffle_message(b"")
    assert info.value.reason == "out_of_turn"
    with pytest.raises(DeckError):
        a.receive_key(kb)  # twice
    s1 = a.shuffle_message(b"")
    assert a.shuffle_message(b"") == s1
    with pytest.raises(ProofError):
        a.receive_shuffle(s1)  # my own shuffle echoed back is no shuffle of the current deck
    b.receive_shuffle(s1)
    with pytest.raises(DeckError):
        b.share_message([0], b"")  # not shuffled yet
    s2 = b.shuffle_message(b"")
    a.receive_shuffle(s2)
    with pytest.raises(DeckError):
        a.share_message([0, 0], b"")
    with pytest.raises(DeckError):
        a.share_message([48], b"")
    with pytest.raises(DeckError):
        a.share_message([], b"")


def test_state_round_trips_through_msgpack_at_every_stage() -> None:
    a, b, _o = make(n=6)

    def reload(p: DeckParty) -> DeckParty:
        state = msgpack.unpackb(msgpack.packb(p.to_state()), raw=False)
        return DeckParty.from_state(state)

    ka, kb = a.key_message(b""), b.key_message(b"")
    a, b = reload(a), reload(b)
    assert a.key_message(b"") == ka
    b.receive_key(ka)
    a.receive_key(kb)
    a = reload(a)
    s1 = a.shuffle_message(b"")
    a = reload(a)
    assert a.shuffle_message(b"") == s1
    b.receive_shuffle(s1)
    b = reload(b)
    a.receive_shuffle(b.shuffle_message(b""))
    a.receive_shares([0, 1], b.share_message([0, 1], b""))
    a2 = reload(a)
    assert [a2.card_at(p) for p in (0, 1)] == [a.card_at(p) for p in (0, 1)]
    b.receive_disclosed_key(a2.disclose_key())
    a2.receive_disclosed_key(b.disclose_key())
    a3 = reload(a2)
    assert a3.audit() == b.audit()


def test_from_state_refuses_garbage() -> None:
    a, _, _ = make(n=4)
    state = a.to_state()
    for key, value in [("secret", b"\xff" * 32), ("me", "0"), ("format", 9), ("keys", [[0, b"x"]])]:
        bad = dict(state)
        bad[key] = value
        with pytest.raises(MentalPokerError):
            DeckParty.from_state(bad)
    bad = dict(state)
    del bad["shuffles"]
    with pytest.raises(DeckError):
        DeckParty.from_state(bad)


def test_wrong_disclosed_key_is_refused() -> None:
    a, b, o = make(n=4)
    setup(a, b, o)
    with pytest.raises(DeckError) as info:
        a.receive_disclosed_key(a.disclose_key())  # my own key, not the peer's
    assert info.value.reason == "wrong_key"
    with pytest.raises(InvalidEncoding):
        a.receive_disclosed_key(b"\xff" * 32)
    with pytest.raises(DeckError):
        a.receive_disclosed_key(bytes(32))
    with pytest.raises(DeckError) as info:
        a.audit()
    assert info.value.reason == "keys_not_disclosed"


def test_shares_for_other_positions_are_refused() -> None:
    a, b, o = make(n=6)
    setup(a, b, o)
    msg = b.share_message([1, 2], b"")
    with pytest.raises(ProofError):
        a.receive_shares([2, 1], msg)
    with pytest.raises(ProofError):
        a.receive_shares([1, 3], msg)
    with pytest.raises(InvalidEncoding):
        a.receive_shares([1], msg)
    with pytest.raises(ProofError):
        b.receive_shares([1, 2], msg)  # b's own message is not the peer's
    a.receive_shares([1, 2], msg)


@settings(max_examples=8)
@given(st.integers(2, 7), st.integers(0, 1), st.binary(min_size=1, max_size=8))
def test_any_small_deck_deals_a_permutation(n: int, first: int, seed: bytes) -> None:
    a, b, o = make(n=n, first=first, seed=seed)
    setup(a, b, o)
    positions = list(range(n))
    a.receive_shares(positions, b.share_message(positions, b""))
    cards = [a.card_at(p) for p in positions]
    assert sorted(cards) == positions
    b.receive_disclosed_key(a.disclose_key())
    a.receive_disclosed_key(b.disclose_key())
    assert a.audit() == tuple(cards)


# ------------------------------------------------------------------ the end-of-round audit
def _played_round(n: int = 48) -> tuple[DeckParty, DeckParty, DeckObserver, int]:
    """A round with a deal's worth of reveals, both keys disclosed; returns the shares a received."""
    a, b, o = make(n=n)
    setup(a, b, o)
    hand_a, field = list(range(8)), list(range(16, 24))
    a.receive_shares(hand_a, b.share_message(hand_a, b""))
    b.receive_shares(list(range(8, 16)), a.share_message(list(range(8, 16)), b""))
    ma, mb = a.share_message(field, b""), b.share_message(field, b"")
    a.receive_shares(field, mb)
    b.receive_shares(field, ma)
    o.receive_shares(0, field, ma)
    o.receive_shares(1, field, mb)
    xa, xb = a.disclose_key(), b.disclose_key()
    a.receive_disclosed_key(xb)
    b.receive_disclosed_key(xa)
    o.receive_disclosed_key(0, xa)
    o.receive_disclosed_key(1, xb)
    return a, b, o, len(hand_a) + len(field)


def test_party_audit_checks_only_what_was_not_checked_on_receipt() -> None:
    """Proofs were verified on receipt: the default audit decrypts (n multiplications) and checks
    each received share with the disclosed key (one each); recheck=True verifies every proof again."""
    from mentalpoker.group import counting_operations

    a, _b, o, received = _played_round()
    with counting_operations() as cheap:
        order = a.audit()
    assert cheap["mult"] <= 48 + received
    with counting_operations() as full:
        assert a.audit(recheck=True) == order
    assert full["mult"] > 2 * 8 * 48  # two shuffle verifications at 8n each, at least
    with counting_operations() as observed:
        assert o.audit() == order
    assert observed["mult"] <= 48 + 16


def test_party_audit_still_catches_a_share_or_deck_it_never_verified() -> None:
    """A stored state is trusted (it holds the secret key), so its messages are not verified on
    load. The default audit must still catch a wrong share and a deck that is no permutation."""
    n = 24
    a, b, o, _ = _played_round(n=n)
    state = a.to_state()
    # 1. a received share replaced by another valid point: caught by d = x_peer * a.
    shares = [list(item) for item in state["shares"]]  # type: ignore[attr-defined]
    who, pos, data = shares[0]
    shares[0] = [who, pos, data[32:64] + data[32:]]
    bad = {**state, "shares": shares}
    with pytest.raises(DeckError) as info:
        DeckParty.from_state(bad).audit()
    assert info.value.reason == "bad_share"
    with pytest.raises(DeckError) as info:
        DeckParty.from_state(bad).audit(recheck=True)
    assert info.value.reason == "audit_failed"
    # 2. the peer's shuffle swapped for one whose deck repeats a card: not a permutation.
    from mentalpoker.elgamal import decode_deck, encode_deck, rerandomize
    from mentalpoker.group import Scalar

    restored = DeckParty.from_state(state)
    split = n * 64
    second = state["shuffles"][1]  # type: ignore[index]
    deck = decode_deck(second[:split], n)
    forged_deck = (*deck[:-1], rerandomize(restored.joint_key, deck[0], Scalar.from_int(7)))
    first = state["shuffles"][0]  # type: ignore[index]
    forged = {**state, "shuffles": [first, encode_deck(forged_deck) + second[split:]], "shares": []}
    with pytest.raises(DeckError) as info:
        DeckParty.from_state(forged).audit()
    assert info.value.reason == "not_a_permutation"
    with pytest.raises(DeckError) as info:
        DeckParty.from_state(forged).audit(recheck=True)
    assert info.value.reason == "audit_failed"
    assert DeckParty.from_state(state).audit() == b.audit() == o.audit(recheck=True)


def test_audit_needs_the_peer_secret_and_rejects_a_wrong_one() -> None:
    a, b, o = make(n=4)
    setup(a, b, o)
    with pytest.raises(DeckError) as info:
        a.audit()
    assert info.value.reason == "keys_not_disclosed"
    with pytest.raises(DeckError) as info:
        o.audit()
    assert info.value.reason == "keys_not_disclosed"
    with pytest.raises(DeckError) as info:
        a.receive_disclosed_key(a.disclose_key())
    assert info.value.reason == "wrong_key"
    a.receive_disclosed_key(b.disclose_key())
    assert sorted(a.audit()) == [0, 1, 2, 3]
