"""What the service refuses, and why (spec/ratings.md §3.2): every refusal names its reason."""

from __future__ import annotations

from dataclasses import replace

import pytest

from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.results import CoSignedResult
from koikoi_p2p.protocol.statement import pack, unpack
from koikoi_p2p.ratings.checks import MAX_RESULT_BYTES, check_result
from koikoi_p2p.ratings.errors import Refused
from tests.ratings.support import cosign, match_result, signed

ALICE, BOB, MALLORY = Identity.generate(), Identity.generate(), Identity.generate()


def refusal(data: bytes) -> str:
    with pytest.raises(Refused) as caught:
        check_result(data)
    return caught.value.reason


def test_a_valid_rated_result_passes_with_its_names_and_outcome() -> None:
    rated = check_result(signed(ALICE, BOB, winner=1, names=("Alice", "ボブ")))
    assert rated.result.winner == 1 and rated.result.names == ("Alice", "ボブ")
    assert rated.keys == (ALICE.public_key, BOB.public_key)


def test_forged_a_signature_by_another_key() -> None:
    result = match_result((ALICE.public_key, BOB.public_key))
    assert refusal(cosign(result, (ALICE, MALLORY))) == "bad_signature"


def test_altered_winner_after_signing() -> None:
    result = match_result((ALICE.public_key, BOB.public_key), winner=0)
    good = CoSignedResult.decode(cosign(result, (ALICE, BOB)))
    altered = CoSignedResult(result=replace(result, winner=1, scores=(0, 6)), signatures=good.signatures)
    assert refusal(altered.encode()) == "bad_signature"


def test_altered_single_byte_anywhere_is_refused() -> None:
    data = bytearray(signed(ALICE, BOB))
    for index in range(0, len(data), 7):
        flipped = bytes(data[:index]) + bytes([data[index] ^ 0x01]) + bytes(data[index + 1 :])
        with pytest.raises(Refused):
            check_result(flipped)


def test_one_signature_only() -> None:
    result = match_result((ALICE.public_key, BOB.public_key))
    statement = result.statement()
    mine = ALICE.sign(statement)
    assert refusal(CoSignedResult(result=result, signatures=(mine, mine)).encode()) == "bad_signature"
    assert refusal(CoSignedResult(result=result, signatures=(mine, bytes(64))).encode()) == "bad_signature"
    value = unpack(CoSignedResult(result=result, signatures=(mine, mine)).encode())
    assert isinstance(value, dict)
    value["signatures"] = [mine]
    assert refusal(pack(value)) == "not_a_result"


def test_unrated_match() -> None:
    with pytest.raises(Refused) as caught:
        check_result(signed(ALICE, BOB, rated=False))
    assert caught.value.reason == "unrated" and caught.value.status == 422


def test_other_game_version() -> None:
    value = unpack(signed(ALICE, BOB))
    assert isinstance(value, dict) and isinstance(value["result"], dict)
    value["result"]["version"] = 1
    assert refusal(pack(value)) == "unsupported_version"
    value = unpack(signed(ALICE, BOB))
    assert isinstance(value, dict)
    value["format"] = "koikoi-p2p/cosigned-result/v1"
    assert refusal(pack(value)) == "unsupported_version"


def test_same_key_twice() -> None:
    result = match_result((ALICE.public_key, ALICE.public_key))
    assert refusal(cosign(result, (ALICE, ALICE))) == "same_key"


def test_small_order_key() -> None:
    small = bytes([1]) + bytes(31)  # the identity point: anyone can "sign" for it
    result = match_result((ALICE.public_key, small))
    statement = result.statement()
    data = CoSignedResult(result=result, signatures=(ALICE.sign(statement), bytes(64))).encode()
    assert refusal(data) == "bad_key"


def test_garbage_and_oversize() -> None:
    assert refusal(b"") == "not_a_result"
    assert refusal(b"\x93\x01\x02\x03") == "not_a_result"
    assert refusal(pack({"format": "something else"})) == "not_a_result"
    with pytest.raises(Refused) as caught:
        check_result(b"\x00" * (MAX_RESULT_BYTES + 1))
    assert caught.value.reason == "too_large" and caught.value.status == 413


def test_a_bad_display_name_is_refused() -> None:
    assert refusal(signed(ALICE, BOB, names=("evil\u202e", "bob"))) == "bad_name"
    assert refusal(signed(ALICE, BOB, names=("x" * 33, "bob"))) == "bad_name"


def test_the_digest_is_of_the_outcome_not_of_the_signature_bytes() -> None:
    a, b = (
        check_result(signed(ALICE, BOB, session=b"\x05" * 32)),
        check_result(signed(ALICE, BOB, session=b"\x05" * 32)),
    )
    assert a.digest == b.digest
    c = check_result(signed(ALICE, BOB, session=b"\x05" * 32, winner=1))
    assert c.digest != a.digest
