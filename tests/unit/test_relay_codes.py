"""Room codes: alphabet, length, stated entropy, uniform symbols, no reuse of a live code."""

from __future__ import annotations

import math
import secrets
from collections import Counter

from koikoi_relay.codes import (
    ALPHABET,
    CODE_LENGTH,
    CODE_SPACE,
    ENTROPY_BITS,
    allocate_code,
    generate_code,
    normalize_code,
)
from koikoi_relay.server import RelayServer

LOOK_ALIKES = set("01IOL")


def test_alphabet_has_no_look_alikes_and_the_stated_entropy() -> None:
    assert len(set(ALPHABET)) == len(ALPHABET) == 31
    assert not LOOK_ALIKES & set(ALPHABET)
    assert ALPHABET == ALPHABET.upper()
    assert CODE_LENGTH == 6
    assert CODE_SPACE == 31**6 == 887_503_681
    assert math.isclose(ENTROPY_BITS, 29.7252, abs_tol=1e-4)  # the figure in spec/relay.md §3


def test_symbols_are_uniform_in_every_position() -> None:
    draws = 31 * 400
    codes = [generate_code() for _ in range(draws)]
    assert all(len(c) == CODE_LENGTH and set(c) <= set(ALPHABET) for c in codes)
    expected = draws / len(ALPHABET)
    # Pearson chi-square with 30 degrees of freedom: 90 has a p-value near 1e-7, so a fair
    # source essentially never fails, while a biased one (a symbol twice as likely) always does.
    for position in range(CODE_LENGTH):
        counts = Counter(code[position] for code in codes)
        chi2 = sum((counts[s] - expected) ** 2 / expected for s in ALPHABET)
        assert chi2 < 90, (position, chi2)


def test_the_chi_square_check_catches_a_biased_source() -> None:
    biased_alphabet = ALPHABET + ALPHABET[0]  # the first symbol twice as likely
    codes = ["".join(secrets.choice(biased_alphabet) for _ in range(6)) for _ in range(31 * 400)]
    expected = len(codes) / len(ALPHABET)
    counts = Counter(code[0] for code in codes)
    assert sum((counts[s] - expected) ** 2 / expected for s in ALPHABET) > 90


def test_distinct_codes_and_no_collision_with_live_rooms() -> None:
    codes = {generate_code() for _ in range(2000)}
    # 2000 draws from 887,503,681 collide with probability about 0.2%; allow one at most.
    assert len(codes) >= 1999
    taken = {"222222"}
    script = iter("222222" + "333333")
    assert allocate_code(taken, lambda _alphabet: next(script)) == "333333"
    assert allocate_code(taken, lambda _alphabet: "2", attempts=5) is None


def test_the_relay_draws_codes_and_tokens_from_secrets_by_default() -> None:
    import inspect

    defaults = inspect.signature(RelayServer.__init__).parameters
    assert defaults["choose"].default is secrets.choice
    assert defaults["token_bytes"].default is secrets.token_bytes


def test_normalize_code() -> None:
    assert normalize_code(" ab-c 23d ") == "ABC23D"
    assert normalize_code("ABC23") is None
    assert normalize_code("ABC230") is None  # 0 is not in the alphabet
    assert normalize_code("ABCDEFG") is None
    assert normalize_code("") is None
