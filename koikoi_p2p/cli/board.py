"""The board as text: field, hand, both capture piles by class, stock, scores, yaku made and near.

Rendering works on a small model (BoardModel) rather than on the engine's view directly, so it
is easy to test and the protocol's view can change shape without touching the layout.
"""

from __future__ import annotations

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
    lines.append("Field: " + (_cards(model.field, lang, style) if model.field else "(empty)"))
    lines.append("Your hand: " + (_cards(model.hand, lang, style) if model.hand else "(empty)"))
    for seat, title in ((me, f"Your captures ({name[0]})"), (other, f"{name[1].capitalize()}'s captures")):
        pile = model.piles[seat]
        head = title if seat == me else f"{title} (hand: {model.opponent_hand} cards)"
        lines.append(head + ":")
        for klass in CLASS_ORDER:
            cards = [c for c in pile if _klass(c) == klass]
            label = class_name(klass, lang) if lang == "ja" else PLURAL_EN[klass]
            shown = _cards(cards, lang, style) if cards else "-"
            lines.append(f"  {label} ({len(cards)}): {shown}")
        made = model.yaku[seat]
        if made:
            lines.append("  yaku: " + ", ".join(f"{k} {v}" for k, v in sorted(made.items())))
        close = near_yaku(pile, model.piles[other], fams)
        if close:
            parts = [f"{fam_name} (needs {_needs(fam_name, pile, fams)})" for fam_name, _ in close[:4]]
            lines.append("  close: " + ", ".join(parts))
    lines.extend(model.extra)
    return "\n".join(lines)


def _needs(fam_name: str, pile: Sequence[int], fams: Sequence[Family]) -> int:
    fam = next(f for f in fams if f.name == fam_name)
    return fam.need - len(frozenset(pile) & fam.cards)


def _cards(cards: Sequence[int], lang: str, style: Style) -> str:
    return " | ".join(card_label(c, lang, style) for c in sorted(cards))
