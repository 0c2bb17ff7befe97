"""The board as text: field, hand, both capture piles by class, stock, scores, yaku made and near.

Rendering works on a small model (BoardModel) rather than on the engine's view directly, so it
is easy to test and the protocol's view can change shape without touching the layout.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from koikoi_p2p.ai.evaluate import Family, families
from koikoi_p2p.cli.cardnames import card_label, class_name, month_name
from koikoi_p2p.cli.style import Style

CLASS_ORDER = ("bright", "animal", "ribbon", "plain")
PLURAL_EN = {"bright": "brights", "animal": "animals", "ribbon": "ribbons", "plain": "plains"}


@dataclass(frozen=True, slots=True)
class BoardModel:
    """Everything the board shows, from the point of view of seat ``me``."""

    me: int
    round_index: int
    month: int
    dealer: int
    stock: int
    field: tuple[int, ...]
    hand: tuple[int, ...]
    opponent_hand: int
    piles: tuple[tuple[int, ...], tuple[int, ...]]
    yaku: tuple[Mapping[str, int], Mapping[str, int]] = ({}, {})
    scores: tuple[int, int] = (0, 0)
    rounds: int | None = None
    calls: tuple[int, ...] = ()
    turn: int | None = None
    names: tuple[str, str] = ("you", "opponent")
    cup_is_plain: bool = True
    viewing: bool = True  # hanami/tsukimi score on their own under these rules
    extra: tuple[str, ...] = ()
    width: int | None = None  # wrap card lists to this many columns (a terminal's width)


def _klass(index: int) -> str:
    from koikoi_p2p.rules.cards import card

    return card(index).klass


def near_yaku(
    mine: Sequence[int], theirs: Sequence[int], fams: Sequence[Family], within: int = 2
) -> list[tuple[str, tuple[int, ...]]]:
    """Sets ``mine`` could still make, missing at most ``within`` cards: name and cards left."""
    own, other = frozenset(mine), frozenset(theirs)
    near: list[tuple[str, tuple[int, ...]]] = []
    for fam in fams:
        have = len(own & fam.cards)
        missing = fam.need - have
        alive = fam.cards - other
        if 0 < missing <= within and have > 0 and len(alive) >= fam.need:
            near.append((fam.name, tuple(sorted(alive - own))))
    near.sort(key=lambda item: (len(item[1]), item[0]))
    return near


def render_board(model: BoardModel, lang: str, style: Style) -> str:
    me, other = model.me, 1 - model.me
    name = model.names
    fams = families(model.cup_is_plain, viewing=model.viewing)
    rounds = f"/{model.rounds}" if model.rounds else ""
    dealer = name[0] if model.dealer == me else name[1]
    lines = [
        style.bold(
            f"== Round {model.round_index}{rounds} | {month_name(model.month, lang)} | dealer: {dealer} | "
            f"score: {name[0]} {model.scores[me]} - {model.scores[other]} {name[1]} | "
            f"stock: {model.stock} =="
        )
    ]
    if model.calls:
        callers = ", ".join(name[0] if seat == me else name[1] for seat in model.calls)
        lines.append(f"koi-koi called by: {callers}")
    lines.extend(_listing("Field: ", model.field, lang, style, model.width, "(empty)"))
    lines.extend(_listing("Your hand: ", model.hand, lang, style, model.width, "(empty)"))
    for seat, title in ((me, f"Your captures ({name[0]})"), (other, f"{name[1].capitalize()}'s captures")):
        pile = model.piles[seat]
        head = title if seat == me else f"{title} (hand: {model.opponent_hand} cards)"
        lines.append(head + ":")
        for klass in CLASS_ORDER:
            cards = [c for c in pile if _klass(c) == klass]
            label = class_name(klass, lang) if lang == "ja" else PLURAL_EN[klass]
            lines.extend(_listing(f"  {label} ({len(cards)}): ", cards, lang, style, model.width, "-"))
        made = model.yaku[seat]
        if made:
            parts = [f"{k} {v}" for k, v in made.items()]
            parts[-1] += f" (total {sum(made.values())})"
            lines.extend(wrap("  yaku: ", parts, model.width, ", "))
        # A set is dead once the *other* side of this pile holds too many of its cards.
        close = near_yaku(pile, model.piles[1 - seat], fams)
        if close:
            where = {c: "field" for c in model.field} | {c: "your hand" for c in model.hand}
            parts = [_near_text(fam_name, left, pile, fams, lang, where) for fam_name, left in close[:4]]
            lines.extend(wrap("  close: ", parts, model.width, ", "))
    lines.extend(model.extra)
    return "\n".join(lines)


# Sets whose missing cards are worth naming (the counted sets would list a dozen plains).
_NAMED_SETS = frozenset({"brights", "inoshikacho", "akatan", "aotan", "hanami", "tsukimi"})


def _near_text(fam_name: str, left: Sequence[int], pile: Sequence[int], fams: Sequence[Family],
               lang: str, where: Mapping[int, str]) -> str:
    """E.g. ``akatan (needs 1 of: 03 Cherry Poetry Ribbon [field])``: the cards still out, and
    which of them lie on the field or in my hand (what can be taken, or kept away, now)."""
    needs = _needs(fam_name, pile, fams)
    if fam_name in _NAMED_SETS and left:
        named = ", ".join(_short(c, lang) + (f" [{where[c]}]" if c in where else "") for c in left)
        return f"{fam_name} (needs {needs} of: {named})"
    return f"{fam_name} (needs {needs})"


def _short(index: int, lang: str) -> str:
    from koikoi_p2p.rules.cards import card

    c = card(index)
    return f"{c.month:02d} {c.name_ja if lang == 'ja' else c.name_en}"


def _needs(fam_name: str, pile: Sequence[int], fams: Sequence[Family]) -> int:
    fam = next(f for f in fams if f.name == fam_name)
    return fam.need - len(frozenset(pile) & fam.cards)


def display_width(text: str) -> int:
    """Columns a string takes on a terminal: ANSI codes take none, wide (CJK) characters two."""
    plain = _ANSI.sub("", text)
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in plain)


def _listing(head: str, cards: Sequence[int], lang: str, style: Style, width: int | None,
             empty: str) -> list[str]:
    """``head`` and the cards separated by `` | ``, wrapped under the head to fit ``width``."""
    if not cards:
        return [head + empty]
    return wrap(head, [card_label(c, lang, style) for c in sorted(cards)], width)


def wrap(head: str, labels: Sequence[str], width: int | None, sep: str = " | ") -> list[str]:
    """``head`` and the labels joined by ``sep``, continued under the head to fit ``width``."""
    if width is None:
        return [head + sep.join(labels)]
    indent = " " * max(display_width(head), 4)
    lines: list[str] = []
    current = head
    used = display_width(head)
    fresh = True
    for label in labels:
        size = display_width(label)
        if not fresh and used + len(sep) + size > width:
            lines.append(current)
            current, used, fresh = indent, len(indent), True
        if fresh:
            current += label
            used += size
            fresh = False
        else:
            current += sep + label
            used += len(sep) + size
    lines.append(current)
    return lines


_ANSI = re.compile("\x1b\\[[0-9;]*m")


def _cards(cards: Sequence[int], lang: str, style: Style) -> str:
    return " | ".join(card_label(c, lang, style) for c in sorted(cards))
