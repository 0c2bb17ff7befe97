"""Any deal of the cards into zones renders: each card named in its zone, each pile counted by class;
the 80x24 layout keeps to its width and its line budget with every card still shown."""

from __future__ import annotations

import re
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.cli.board import BoardModel, render_board
from koikoi_p2p.cli.cardnames import card_code
from koikoi_p2p.cli.i18n import tr
from koikoi_p2p.cli.style import Style, display_width
from koikoi_p2p.rules.cards import card


@st.composite
def boards(draw: st.DrawFn) -> BoardModel:
    cards = draw(st.permutations(range(48)))
    cuts = sorted(draw(st.lists(st.integers(0, 48), min_size=4, max_size=4)))
    field, hand, mine, theirs = (
        tuple(cards[a:b]) for a, b in zip([0, *cuts[:3]], cuts, strict=True)
    )
    return BoardModel(
        me=draw(st.integers(0, 1)), round_index=draw(st.integers(1, 12)), month=draw(st.integers(1, 12)),
        dealer=draw(st.integers(0, 1)), stock=48 - cuts[3], field=field, hand=hand,
        opponent_hand=draw(st.integers(0, 8)), piles=(mine, theirs), rounds=12,
        calls=tuple(draw(st.lists(st.integers(0, 1), max_size=3))),
    )


@given(boards(), st.sampled_from(["en", "ja"]), st.booleans(), st.none() | st.integers(30, 200))
def test_every_card_appears_in_its_zone(
    model: BoardModel, lang: str, colour: bool, width: int | None
) -> None:
    model = replace(model, width=width)
    text = render_board(model, lang, Style(colour))
    lines = text.splitlines()
    field_text = _zone(lines, tr(lang, "Field: "))
    hand_text = _zone(lines, tr(lang, "Your hand: "))
    for c in model.field:
        name = card(c).name_ja if lang == "ja" else card(c).name_en
        assert _squeezed(name) in _squeezed(field_text)
    for c in model.hand:
        name = card(c).name_ja if lang == "ja" else card(c).name_en
        assert _squeezed(name) in _squeezed(hand_text)
    # Each capture pile lists as many cards as it holds, class by class (continuations are indented).
    classes = re.compile(r"^  \S+ \((\d+)\):")
    counts = [int(found.group(1)) for line in lines if (found := classes.match(line))]
    assert sum(counts) == len(model.piles[0]) + len(model.piles[1])
    if width is not None:
        assert all(display_width(line) <= width for line in lines)


@given(boards(), st.sampled_from(["en", "ja"]), st.booleans(), st.integers(60, 120), st.integers(5, 20))
def test_the_80x24_layout_fits_and_shows_every_card(
    model: BoardModel, lang: str, colour: bool, width: int, budget: int
) -> None:
    model = replace(model, width=width, layout="standard", show_hand=False, budget=budget)
    text = render_board(model, lang, Style(colour))
    lines = text.splitlines()
    assert all(display_width(line) <= width for line in lines)
    plain = _plain(text)
    for c in model.field:
        assert card_code(c) in plain
    for pile in model.piles:
        for c in pile:
            if card(c).klass != "plain":
                assert card_code(c) in plain
    free = render_board(replace(model, budget=None), lang, Style(colour)).splitlines()
    # Only what the budget forces out is dropped: with room to spare nothing is.
    if len(free) <= budget:
        assert lines == free


def _squeezed(text: str) -> str:
    """Without spaces and separators (a long name may fold across two lines of a narrow board)."""
    return re.sub(r"[\s|]", "", _plain(text))


def _plain(text: str) -> str:
    return re.sub("\x1b\\[[0-9;]*m", "", text)


def _zone(lines: list[str], head: str) -> str:
    """A zone's line and its indented continuations, joined."""
    start = next(i for i, line in enumerate(lines) if line.startswith(head))
    end = start + 1
    while end < len(lines) and lines[end].startswith("    "):
        end += 1
    return " | ".join(lines[start:end])
