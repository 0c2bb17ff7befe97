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
                            "classic-variant", "koikoi-japan"}
    for name, profile in PRESETS.items():
        assert profile.name == name
        data = profile.to_dict()
        assert Profile.from_dict(data) == profile
        encoded = profile.encode()
        assert encoded == json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
        assert Profile.decode(encoded) == profile
        assert b" " not in encoded
    assert len({p.encode() for p in PRESETS.values()}) == len(PRESETS) == 7


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


def test_switches_from_text_with_errors_that_name_the_switch() -> None:
    """The host's API (spec/rules.md §3.7): text values, typed keywords, clear errors."""
    base = preset("koikoi-online")
    room = base.with_switches({"cup_either": "on", "rounds": "6", "hand_yaku": "tenho:6",
                               "hanami_cancelled_by": "11-rainman, 12", "first_dealer": "coin",
                               "bright_values": "10,8,7,5"}, name="room")
    assert (room.cup_either, room.rounds, room.first_dealer) == (True, 6, "coin")
    assert room.hand_yaku == (("tenho", 6),)
    assert room.hanami_cancelled_by == ("11-rainman", "12-phoenix", "12-plain1", "12-plain2", "12-plain3")
    assert room.name == "room" and room.switch_text("hanami_cancelled_by") == (
        "11-rainman,12-phoenix,12-plain1,12-plain2,12-plain3")
    assert base.with_switches({"rounds": 6}) == base.with_switches(rounds=6)  # typed values pass through
    cases = [
        ({"cup_either": "maybe"}, "bad_switch", "cup_either: expected true or false"),
        ({"first_dealer": "birthday"}, "bad_switch",
         "first_dealer: expected one of card_draw, coin, host, joiner"),
        ({"rounds": "six"}, "bad_switch", "rounds: expected an integer 0..10000"),
        ({"hand_yaku": "teshi"}, "bad_switch", "hand_yaku: expected none, or yaku:points pairs"),
        ({"hanami_cancelled_by": "rain"}, "bad_switch", "hanami_cancelled_by: expected none, or card ids"),
        ({"tsukimi_cancelled_by": "08-moon"}, "bad_switch", "tsukimi_cancelled_by cannot name 08-moon"),
        ({"cup_is_plain": "true", "cup_either": "true"}, "bad_switch", "cup_either"),
        ({"subtract_from_opponent": "true"}, "bad_switch", "subtract_from_opponent"),
        ({"bright_values": "10,8,7,0"}, "bad_switch", "bright_values is four integers 1..100"),
        ({"no_such": "1"}, "unknown_switch", "'no_such'; switches: name, rounds"),
    ]
    for change, reason, words in cases:
        with pytest.raises(RulesError) as info:
            base.with_switches(change)
        assert info.value.reason == reason and words in str(info.value), (change, str(info.value))


def test_text_forms_round_trip_for_every_switch_of_every_preset() -> None:
    from koikoi_p2p.rules.profile import SWITCHES, parse_switch

    for profile in PRESETS.values():
        for key in SWITCHES:
            text = profile.switch_text(key)
            assert profile.with_switches({key: text}) == profile, (profile.name, key, text)
            assert parse_switch(key, text) is not None


def test_extension_switches_stay_out_of_the_encoding_at_their_default() -> None:
    from koikoi_p2p.rules.profile import EXTENSION_DEFAULTS

    base = preset("nintendo")
    assert set(base.to_dict()).isdisjoint(EXTENSION_DEFAULTS)
    assert set(base.every_switch()) == set(base.to_dict()) | set(EXTENSION_DEFAULTS)
    coin = base.with_switches(first_dealer="coin")
    assert coin.to_dict() == {**base.to_dict(), "first_dealer": "coin"}
    assert Profile.from_dict(coin.to_dict()) == coin and Profile.decode(coin.encode()) == coin
    assert Profile.from_dict(base.to_dict()).first_dealer == "card_draw"
    for key, default in EXTENSION_DEFAULTS.items():
        data = {**base.to_dict(), key: list(default) if isinstance(default, tuple) else default}
        with pytest.raises(RulesError) as info:
            Profile.from_dict(data)
        assert info.value.reason == "bad_profile" and key in str(info.value)
    assert coin.with_switches(first_dealer="card_draw").encode() == base.encode()


def test_differences_from_the_nearest_preset() -> None:
    from koikoi_p2p.rules.profile import differences, nearest_preset

    online = preset("koikoi-online")
    assert differences(online) == {} and nearest_preset(online) == "koikoi-online"
    room = online.with_switches(name="room", rounds=6, single_yaku=True)
    assert nearest_preset(room) == "koikoi-online"
    assert differences(room) == {"rounds": "6", "single_yaku": "true"}
    assert differences(room, "nintendo")["cup_is_plain"] == "false"
    assert list(differences(room, preset("nintendo")))[:2] == ["rounds", "tane_with_inoshikacho"]
    # a preset's own name is its base even when another preset would be nearer
    renamed = preset("wikipedia").with_switches(**{k: getattr(online, k) for k in ("cup_is_plain",)})
    assert nearest_preset(renamed) == "wikipedia"


def test_large_round_scores_are_accepted_up_to_2_to_the_53() -> None:
    from koikoi_p2p.rules.round import MAX_POINTS, RoundResult

    big = {"winner": 0, "points": MAX_POINTS, "yaku": {"tsukifuda": 50000}, "base": 50000, "calls": [1],
           "redeal": False, "next_dealer": 0, "reason": "stop", "consumes_round": True}
    assert RoundResult.from_dict(big).points == 2**53 - 1
    with pytest.raises(RulesError):
        RoundResult.from_dict({**big, "points": 2**53})


def test_from_dict_refuses_values_of_the_wrong_json_type() -> None:
    data = preset("nintendo").to_dict()
    bads: list[dict[str, object]] = [
        {"joker_card": None}, {"joker_card": {}}, {"hand_yaku": [["teshi", 6]]},
        {"bright_values": (10, 8, 7, 5)}, {"hanami_cancelled_by": "11-rainman"},
        {"tsukimi_cancelled_by": [12]}, {"first_dealer": 0}]
    for bad in bads:
        with pytest.raises(RulesError) as info:
            Profile.from_dict({**data, **bad})
        assert info.value.reason == "bad_switch", bad


def test_switches_tied_to_another_are_refused_with_bad_switch() -> None:
    """spec/rules.md §3.2 (issue 27 item 7): `transfer_cap` or `bust_ends_game` true needs a pool,
    `cup_either` true refuses `cup_is_plain` true, `subtract_from_opponent` true refuses a pool;
    web/test/rules/profile.test.js checks the same cases."""
    for base, change in (("nintendo", {"transfer_cap": True}), ("nintendo", {"bust_ends_game": True}),
                         ("nintendo", {"cup_either": True}),
                         ("board-game", {"subtract_from_opponent": True})):
        with pytest.raises(RulesError) as err:
            preset(base).with_switches(**change)
        assert err.value.reason == "bad_switch", (base, change)
    assert preset("board-game").with_switches(transfer_cap=True, bust_ends_game=True).transfer_cap
    assert preset("koikoi-online").with_switches(cup_either=True).cup_either
    assert preset("nintendo").with_switches(pool_start=10, transfer_cap=True).transfer_cap
