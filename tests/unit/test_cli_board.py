"""The board shows every zone, sorts captures by class, says what is near, and colours only on request."""

from __future__ import annotations

import io

from koikoi_p2p.ai.evaluate import families
from koikoi_p2p.cli.board import BoardModel, near_yaku, render_board
from koikoi_p2p.cli.style import Style, wants_colour

MODEL = BoardModel(
    me=0,
    round_index=2,
    rounds=12,
    month=2,
    dealer=1,
    stock=18,
    field=(2, 13, 44),
    hand=(0, 9, 30),
    opponent_hand=7,
    piles=((1, 5, 4, 6, 7), (36, 38)),
    yaku=({"tane": 1}, {}),
    scores=(6, 3),
    calls=(1,),
    names=("you", "computer"),
)


def test_plain_board_has_every_zone() -> None:
    text = render_board(MODEL, "en", Style(colour=False))
    assert "\x1b[" not in text
    assert "Round 2/12" in text and "Feb" in text and "dealer: computer" in text
    assert "score: you 6 - 3 computer" in text and "stock: 18" in text
    field_line = next(line for line in text.splitlines() if line.startswith("Field:"))
    assert "Pine Plain" in field_line and "Phoenix" in field_line and "Wisteria Red Ribbon" in field_line
    hand_line = next(line for line in text.splitlines() if line.startswith("Your hand:"))
    assert "01* Crane and Sun" in hand_line and "03R Cherry Poetry Ribbon" in hand_line
    assert "  ribbons (2): 01R Pine Poetry Ribbon | 02R Plum Poetry Ribbon" in text
    assert "  animals (1): 02A Bush Warbler" in text
    assert "  plains (2):" in text
    assert "(hand: 7 cards)" in text
    assert "yaku: tane 1" in text
    assert "koi-koi called by: computer" in text


def test_near_yaku_names_the_missing_cards() -> None:
    fams = families()
    near = dict(near_yaku((1, 5), (), fams))
    assert near["akatan"] == (9,)
    # Once the other side holds the cherry poetry ribbon, akatan is dead and not shown.
    assert "akatan" not in dict(near_yaku((1, 5), (9,), fams))
    text = render_board(MODEL, "en", Style(colour=False))
    assert "close: akatan (needs 1 of: 03 Cherry Poetry Ribbon [your hand])" in text


def test_opponent_near_yaku_counts_against_my_pile() -> None:
    """The opponent's sets are judged against *my* pile (a bug once judged them against their own)."""
    from dataclasses import replace

    # The computer holds the crane and the moon, butterflies and deer; I hold nothing of those sets.
    model = replace(MODEL, piles=((), (0, 28, 20, 36)))
    text = render_board(model, "en", Style(colour=False))
    close = [line for line in text.splitlines() if line.startswith("  close:")]
    assert len(close) == 1
    assert "inoshikacho (needs 1 of: 07 Boar)" in close[0]
    assert "brights (needs 1 of: 03 Cherry Curtain, 12 Phoenix [field])" in close[0]  # where they lie


def test_made_yaku_in_canonical_order_with_total() -> None:
    from dataclasses import replace

    model = replace(MODEL, yaku=({"sanko": 5, "akatan": 5, "tan": 1}, {}))
    assert "  yaku: sanko 5, akatan 5, tan 1 (total 11)" in render_board(model, "en", Style(colour=False))


def test_long_lists_wrap_under_their_heading() -> None:
    from dataclasses import replace

    from koikoi_p2p.cli.style import display_width

    model = replace(MODEL, field=tuple(range(12)), hand=tuple(range(12, 20)), width=80,
                    piles=((0, 8, 1, 5, 20, 36, 21), (9,)))
    cases = (("en", False, "Field: ", "  close: "), ("ja", True, "場札: ", "  あと少し: "))
    for lang, colour, field, near in cases:
        lines = render_board(model, lang, Style(colour)).splitlines()
        assert all(display_width(line) <= 80 for line in lines)
        start = next(i for i, line in enumerate(lines) if line.startswith(field))
        assert lines[start + 1].startswith(" " * display_width(field))  # continued under the head
        close = next(i for i, line in enumerate(lines) if line.startswith(near))
        assert lines[close + 1].startswith(" " * display_width(near))


def test_japanese_names() -> None:
    text = render_board(MODEL, "ja", Style(colour=False))
    assert "松に鶴" in text and "短冊 (2)" in text and "2月" in text


def test_colour_marks_class() -> None:
    text = render_board(MODEL, "en", Style(colour=True))
    assert "\x1b[1;33m01* Crane and Sun\x1b[0m" in text  # brights in bold yellow


def test_colour_policy() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert wants_colour(Tty(), {})
    assert not wants_colour(Tty(), {"NO_COLOR": "1"})
    assert not wants_colour(Tty(), {"TERM": "dumb"})
    assert not wants_colour(io.StringIO(), {})


def test_viewing_yaku_only_where_they_score() -> None:
    from dataclasses import replace

    model = replace(MODEL, piles=((8,), ()))
    assert "hanami (needs 1 of: 09 Sake Cup)" in render_board(model, "en", Style(colour=False))
    assert "hanami" not in render_board(replace(model, viewing=False), "en", Style(colour=False))


def test_the_80x24_board_fits_its_budget_and_the_width() -> None:
    """The standard layout keeps to the lines it is given, dropping the least needed first."""
    from dataclasses import replace

    from koikoi_p2p.cli.style import display_width

    big = replace(MODEL, field=tuple(range(37, 48)), hand=tuple(range(12, 20)), width=80, layout="standard",
                  piles=((0, 8, 1, 5, 9, 20, 36, 21, 2, 3, 6, 7), (28, 32, 24, 4)), show_hand=False)
    for lang in ("en", "ja"):
        free = render_board(big, lang, Style(True)).splitlines()
        assert all(display_width(line) <= 80 for line in free)
        assert any("close" in line or "あと少し" in line for line in free)
        tight = render_board(replace(big, budget=6), lang, Style(True)).splitlines()
        assert len(tight) <= 6 < len(free)
        # What is never dropped: the header, the field and both piles (codes at least).
        assert any(line.startswith(("Field: ", "場札: ")) for line in tight)
        assert sum("01*" in line for line in tight) == 1 and sum("08*" in line for line in tight) == 1


def test_the_standard_piles_show_codes_and_count_plains() -> None:
    from dataclasses import replace

    model = replace(MODEL, layout="standard", width=80, piles=((0, 2, 3, 9, 21), (44, 45)))
    text = render_board(model, "en", Style(False))
    assert "You (5 cards): 01* 03R 06R | plains: 2" in text
    assert "Computer (2 cards, hand 7): 12* | plains: 1" in text
    head = " | ".join(line.strip() for line in text.splitlines()[:2])
    assert head == ("== Round 2/12 | Feb | dealer: computer | you 6 - 3 computer | stock 18 | "
                    "koi-koi: computer ==")
