"""Any deal of the cards into zones renders: each card named in its zone, each pile counted by class."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.cli.board import BoardModel, display_width, render_board
from koikoi_p2p.cli.style import Style
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
    )


@given(boards(), st.sampled_from(["en", "ja"]), st.booleans(), st.none() | st.integers(30, 200))
def test_every_card_appears_in_its_zone(
    model: BoardModel, lang: str, colour: bool, width: int | None
) -> None:
    model = replace(model, width=width)
    text = render_board(model, lang, Style(colour))
    lines = text.splitlines()
    field_text = _zone(lines, "Field: ")
    hand_text = _zone(lines, "Your hand: ")
    for c in model.field:
        name = card(c).name_ja if lang == "ja" else card(c).name_en
        assert name in field_text
    for c in model.hand:
        name = card(c).name_ja if lang == "ja" else card(c).name_en
        assert name in hand_text
    # Each capture pile lists as many cards as it holds, class by class (continuations are indented).
    extra = ("  close", "  yaku")
    class_lines = [line for line in lines if line.startswith("  ") and not line.startswith(("   ", *extra))]
    counts = [int(line.split("(", 1)[1].split(")", 1)[0]) for line in class_lines]
    assert sum(counts) == len(model.piles[0]) + len(model.piles[1])
    if width is not None:
        # A line is longer than the width only when one label alone does not fit.
        for line in lines[1:]:
            assert display_width(line) <= width or " | " not in line.strip()


def _zone(lines: list[str], head: str) -> str:
    """A zone's line and its indented continuations, joined."""
    start = next(i for i, line in enumerate(lines) if line.startswith(head))
    end = start + 1
    while end < len(lines) and lines[end].startswith(" " * len(head)):
        end += 1
    return " | ".join(lines[start:end])
