"""ElGamal under a joint key: layers come off in either order, the starting deck, re-randomisation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalpoker.elgamal import (
    Ciphertext,
    KeyPair,
    card_of,
    combine,
    decode_deck,
    decryption_share,
    encode_deck,
    encrypt,
    joint_key,
    rerandomize,
    start_deck,
)
from mentalpoker.errors import DeckError, InvalidEncoding
from mentalpoker.generators import card_point, start_randomness
from mentalpoker.group import G, L, Scalar, base_mult
from tests.mp_support import seeded

seeds = st.binary(min_size=32, max_size=32)




@settings(max_examples=25)
@given(seeds, st.integers(0, 47))
def test_layers_come_off_in_either_order(seed: bytes, card: int) -> None:
    rng = seeded(seed)
    a, b = KeyPair.generate(rng), KeyPair.generate(rng)
    pk = joint_key([a.public, b.public])
    ct = encrypt(pk, card_point(card), Scalar.random(rng))
    ct = rerandomize(pk, ct, Scalar.random(rng))
    da, db = decryption_share(a.secret, ct), decryption_share(b.secret, ct)
    # A's layer first, then B's; and the other way round.
    assert combine(Ciphertext(ct.a, combine(ct, [da])), [db]) == card_point(card)
    assert combine(Ciphertext(ct.a, combine(ct, [db])), [da]) == card_point(card)
    assert card_of(combine(ct, [db, da]), 48) == card
    # One layer alone reveals nothing that maps to a card.
    with pytest.raises(DeckError):
        card_of(combine(ct, [da]), 48)


def test_start_deck_is_public_and_deterministic() -> None:
    a, b = KeyPair.generate(), KeyPair.generate()
    pk = joint_key([a.public, b.public])
    deck = start_deck(pk, 48)
    assert deck == start_deck(pk, 48)
    for i in (0, 17, 47):
        rho = start_randomness(i)
        assert not rho.is_zero
        assert deck[i].a == base_mult(rho)
        assert deck[i].b - pk.mul(rho) == card_point(i)  # anyone can open it with rho
    assert decode_deck(encode_deck(deck), 48) == deck


def test_deck_decoding_checks_length_and_points() -> None:
    deck = start_deck(base_mult(Scalar.from_int(7)), 3)
    data = encode_deck(deck)
    with pytest.raises(InvalidEncoding):
        decode_deck(data[:-1], 3)
    with pytest.raises(InvalidEncoding):
        decode_deck(data[:64] + bytes(32) + data[96:], 3)


def test_joint_key_refuses_the_identity() -> None:
    x = Scalar.from_int(99)
    with pytest.raises(InvalidEncoding):
        joint_key([base_mult(x), base_mult(Scalar.from_int(L - 99))])
    assert joint_key([G, G]) == base_mult(Scalar.from_int(2))


def test_card_of_refuses_non_cards() -> None:
    with pytest.raises(DeckError) as info:
        card_of(G, 48)
    assert info.value.reason == "not_a_card"
    with pytest.raises(DeckError):
        card_of(card_point(47), 47)  # outside the deck size
