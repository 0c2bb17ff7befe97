"""``koikoi lobby`` as a person reads it (terminal QA): the hint of an empty lobby names the relay
it looked at, the columns line up in Japanese too, and a room's wait is said in words."""

from __future__ import annotations

from typing import Any

from koikoi_p2p.cli.lobby import room_lines
from koikoi_p2p.cli.options import default_relay
from koikoi_p2p.cli.style import display_width

OTHER = "wss://relay.example.test/v1"
ROOM: dict[str, Any] = {"code": "ABCDEF", "age": 42,
                        "listing": {"fp": "abcd-efgh", "rules": "nintendo", "custom": False, "rounds": 3,
                                    "rated": False, "password": True, "turn": 60}}


def test_an_empty_lobby_hints_at_hosting_on_the_same_relay() -> None:
    assert room_lines([], OTHER, "en") == [
        f"No public rooms are waiting. Host one with: koikoi host --public --relay {OTHER}"]
    assert room_lines([], default_relay(), "en") == [
        "No public rooms are waiting. Host one with: koikoi host --public"]
    (ja,) = room_lines([], OTHER, "ja")
    assert ja.endswith(f"koikoi host --public --relay {OTHER}") and "No public" not in ja


def test_the_join_line_starts_under_its_heading_in_both_languages() -> None:
    for lang in ("en", "ja"):
        head, join, facts, *_ = room_lines([ROOM, {**ROOM, "code": "GHJKMN", "age": 600}], OTHER, lang)
        start = join.index("koikoi join")
        # The heading's second word and the command start at the same column, and the facts below.
        word = head.split(" ")[0]
        after = head[len(word):]
        column = display_width(word) + len(after) - len(after.lstrip(" "))
        assert column == display_width(join[:start])
        assert display_width(facts) - display_width(facts.lstrip(" ")) == display_width(join[:start])
        assert join[start:] == f"koikoi join ABCDEF --relay {OTHER} --password"


def test_the_wait_is_said_in_words() -> None:
    lines = room_lines([ROOM, {**ROOM, "code": "GHJKMN", "age": 600}, {**ROOM, "code": "PQRSTU", "age": 1}],
                       OTHER, "en")
    assert "waiting: 42 seconds" in lines[2]
    assert "waiting: 10 minutes" in lines[4]
    assert "waiting: 1 second" in lines[6]
    ja = room_lines([ROOM, {**ROOM, "code": "GHJKMN", "age": 600}], OTHER, "ja")
    assert "42秒" in ja[2] and "10分" in ja[4]
    assert not any(f"{n}s" in line for line in ja for n in (42, 600))


def test_each_room_says_its_time_per_decision_and_folds_to_the_terminal() -> None:
    """Terminal QA: the decision time was only in --json, and a room's facts ran 107 columns wide."""
    open_room = {**ROOM, "listing": {**ROOM["listing"], "password": False}}   # no password hint below
    wide = room_lines([open_room], OTHER, "en")
    assert "time per decision: 60 seconds" in wide[2]
    narrow = room_lines([open_room], OTHER, "en", width=50)
    assert narrow[1] == wide[1]                     # the join line is pasted whole: never folded
    facts = narrow[2:]
    assert len(facts) > 1 and all(display_width(line) <= 50 for line in facts), facts
    assert " ".join(part.strip() for part in facts) == wide[2].strip()
    ja = room_lines([{**ROOM, "listing": {**ROOM["listing"], "turn": 300}}], OTHER, "ja", width=40)
    assert all(display_width(line) <= 40 for line in ja if "koikoi join" not in line), ja
    assert any("5分" in line for line in ja)
    assert all(display_width(line) <= 50 for line in room_lines([], OTHER, "en", width=50))
    # A term the joiner agrees to is never rounded: 150 s stays 150 seconds (review).
    odd = room_lines([{**ROOM, "listing": {**ROOM["listing"], "turn": 150}}], OTHER, "en")
    assert "time per decision: 150 seconds" in odd[2]
