"""Cards table and rule profiles: ids, classes, masks, presets, validation, canonical encoding."""

from __future__ import annotations

import json

import pytest

from koikoi_p2p.rules.cards import (
    ANIMALS,
    BRIGHTS,
    CARDS,
    MONTH_MASKS,
    PLAINS,
    RIBBONS,
    card,
    card_ids,
    cards_of,
    mask_of,
)
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import PRESETS, Profile, preset


def test_table_shape() -> None:
    assert len(CARDS) == 48
    assert [c.index for c in CARDS] == list(range(48))
    for m in range(1, 13):
        assert MONTH_MASKS[m].bit_count() == 4
        assert all(CARDS[i].month == m for i in cards_of(MONTH_MASKS[m]))
    counts = (BRIGHTS.bit_count(), ANIMALS.bit_count(), RIBBONS.bit_count(), PLAINS.bit_count())
    assert counts == (5, 9, 10, 24)
    assert BRIGHTS | ANIMALS | RIBBONS | PLAINS == (1 << 48) - 1


def test_special_cards() -> None:
    assert card("11-rainman").subclass == "rain" and card("11-rainman").klass == "bright"
    assert card("09-cup").subclass == "sake" and card("09-cup").klass == "animal"
    assert card("11-lightning").klass == "plain"
    assert {c.id for c in CARDS if c.subclass == "poetry"} == {"01-poetry", "02-poetry", "03-poetry"}
    assert {c.id for c in CARDS if c.subclass == "blue"} == {"06-blue", "09-blue", "10-blue"}
    assert card(0).name_ja == "松に鶴" and card("12-phoenix").name_en == "Phoenix"


def test_card_lookup_errors() -> None:
    for bad in (-1, 48, "13-nothing", True, 1.5):
        with pytest.raises(RulesError) as info:
            card(bad)  # type: ignore[arg-type]
        assert info.value.reason == "unknown_card"
    with pytest.raises(RulesError) as dup:
        mask_of(["01-crane", 0])
    assert dup.value.reason == "duplicate_card"
    assert card_ids(mask_of(["12-plain3", "01-crane"])) == ("01-crane", "12-plain3")


def test_presets_exist_and_roundtrip() -> None:
    assert set(PRESETS) == {"nintendo", "koikoi-online", "teaching-card", "wikipedia", "board-game",
                            "classic-variant"}
    for name, profile in PRESETS.items():
        assert profile.name == name
        data = profile.to_dict()
        assert Profile.from_dict(data) == profile
        encoded = profile.encode()
        assert encoded == json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
        assert Profile.decode(encoded) == profile
        assert b" " not in encoded
    assert len({p.encode() for p in PRESETS.values()}) == 6


def test_preset_errors_and_switches() -> None:
    with pytest.raises(RulesError) as info:
        preset("hanafuda")
    assert info.value.reason == "unknown_preset"
    base = preset("nintendo")
    six = base.with_switches(rounds=6, hand_capture="compulsory")
    assert six.rounds == 6 and six.hand_capture == "compulsory" and base.rounds == 12
    assert six.encode() != base.encode()
    assert base.with_switches(hand_yaku={"kuttsuki": 6, "teshi": 6}) == base
    bad_changes: list[dict[str, object]] = [
        {"rounds": -1}, {"rounds": True}, {"viewing": "sometimes"}, {"bright_values": [10, 8, 7]},
        {"bright_values": [10, 8, 7, 0]}, {"joker_card": "01-crane"}, {"joker_card": "09-cup"},
        {"hand_yaku": {"teshi": 0}}, {"hand_yaku": {"nothing": 6}}, {"cup_is_plain": 1},
        {"rounds": 0}, {"bust_ends_game": True}, {"name": "Has Space"}, {"no_such": 1},
    ]
    for change in bad_changes:
        with pytest.raises(RulesError):
            base.with_switches(**change)


def test_from_dict_is_strict() -> None:
    data = preset("wikipedia").to_dict()
    with pytest.raises(RulesError):
        Profile.from_dict({k: v for k, v in data.items() if k != "viewing"})
    with pytest.raises(RulesError):
        Profile.from_dict({**data, "extra": 1})
    with pytest.raises(RulesError):
        Profile.from_dict({**data, "double_threshold": 7.0})
    with pytest.raises(RulesError):
        Profile.decode(json.dumps(data, sort_keys=True).encode())  # spaces: not canonical
    with pytest.raises(RulesError):
        Profile.decode(b"\xff")


def test_board_game_pool_follows_the_match_length() -> None:
    """PROFILES: the board game plays 12, 6 or 3 rounds from pools of 100, 50 or 25 (spec §3.6)."""
    from koikoi_p2p.rules.profile import preset, with_rounds

    board = preset("board-game")
    assert (board.rounds, board.pool_start) == (12, 100)
    assert (with_rounds(board, 6).rounds, with_rounds(board, 6).pool_start) == (6, 50)
    assert (with_rounds(board, 3).rounds, with_rounds(board, 3).pool_start) == (3, 25)
    assert with_rounds(board, 8).pool_start == 100  # a length the source does not list keeps the pool
    assert with_rounds(board, 12) is board
    online = with_rounds(preset("koikoi-online"), 6)
    assert (online.rounds, online.pool_start) == (6, 25)
    assert with_rounds(preset("nintendo"), 3).pool_start == 0
