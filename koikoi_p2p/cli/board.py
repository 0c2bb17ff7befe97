"""The board as text: field, hand, both capture piles, stock, scores, yaku made and near.

Two layouts. ``standard`` is made for an 80x24 terminal: piles as card codes (month and class
mark) with the plains counted, one line each, and the board given a line budget so that the
opponent's move, the board and the question fit on one screen; when the budget is short, the
least needed lines go first (the "close" hints, then the field's names). ``wide`` (a big terminal,
or a log or pipe with no size) names every card and lists each pile class by class.

Rendering works on a small model (BoardModel) rather than on the engine's view directly, so it
is easy to test and the protocol's view can change shape without touching the layout.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from koikoi_p2p.ai.evaluate import Family, families
from koikoi_p2p.cli.cardnames import card_code, card_label, class_name, month_name, short_name
from koikoi_p2p.cli.i18n import capitalised, count, tr, yaku_name
from koikoi_p2p.cli.style import Style, display_width

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
    layout: str = "wide"  # "wide" or "standard" (80x24)
    show_hand: bool = True  # False while the play menu lists the hand anyway
    budget: int | None = None  # at most this many lines (standard layout)


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
    lines = _standard(model, lang, style) if model.layout == "standard" else _wide(model, lang, style)
    return "\n".join(lines)


def _folded(lines: list[str], width: int | None) -> list[str]:
    return [part for line in lines for part in fold(line, width)]


def _header(model: BoardModel, lang: str, style: Style) -> list[str]:
    me, other = model.me, 1 - model.me
    name = model.names
    rounds = f"/{model.rounds}" if model.rounds else ""
    dealer = name[0] if model.dealer == me else name[1]
    callers = ", ".join(name[0] if seat == me else name[1] for seat in model.calls)
    if model.layout == "standard":
        # One line at 80 columns: the koi-koi calls join it rather than take a line of their own.
        parts = [tr(lang, "Round {n}", n=f"{model.round_index}{rounds}"), month_name(model.month, lang),
                 tr(lang, "dealer: {who}", who=dealer),
                 f"{name[0]} {model.scores[me]} - {model.scores[other]} {name[1]}",
                 tr(lang, "stock {n}", n=model.stock)]
        if callers:
            parts.append(tr(lang, "koi-koi: {who}", who=callers))
        parts[-1] += " =="
        return [style.bold(line) for line in wrap("== ", parts, model.width, " | ")]
    parts = [
        tr(lang, "Round {n}", n=f"{model.round_index}{rounds}"),
        month_name(model.month, lang),
        tr(lang, "dealer: {who}", who=dealer),
        tr(lang, "score: {me} {mine} - {theirs} {them}", me=name[0], mine=model.scores[me],
           theirs=model.scores[other], them=name[1]),
        tr(lang, "stock: {n}", n=model.stock) + " ==",
    ]
    lines = [style.bold(line) for line in wrap("== ", parts, model.width, " | ")]
    if callers:
        lines.append(tr(lang, "koi-koi called by: {who}", who=callers))
    return lines


def _wide(model: BoardModel, lang: str, style: Style) -> list[str]:
    me, other = model.me, 1 - model.me
    name = model.names
    fams = families(model.cup_is_plain, viewing=model.viewing)
    lines = _header(model, lang, style)
    lines.extend(_listing(tr(lang, "Field: "), model.field, lang, style, model.width, tr(lang, "(empty)")))
    if model.show_hand:
        lines.extend(_listing(tr(lang, "Your hand: "), model.hand, lang, style, model.width,
                              tr(lang, "(empty)")))
    for seat in (me, other):
        pile = model.piles[seat]
        if seat == me:
            head = tr(lang, "Your captures ({me}):", me=name[0])
        else:
            head = tr(lang, "{Them}'s captures (hand: {cards}):", Them=capitalised(name[1]),
                      cards=count(model.opponent_hand, "card", lang))
        lines.append(head)
        for klass in CLASS_ORDER:
            cards = [c for c in pile if _klass(c) == klass]
            label = class_name(klass, lang) if lang == "ja" else PLURAL_EN[klass]
            lines.extend(_listing(f"  {label} ({len(cards)}): ", cards, lang, style, model.width, "-"))
        made = model.yaku[seat]
        if made:
            lines.extend(wrap(tr(lang, "  yaku: "), _made(made, lang), model.width, ", "))
        close = _close(model, seat, fams, lang)
        if close:
            lines.extend(wrap(tr(lang, "  close: "), close, model.width, ", "))
    lines.extend(model.extra)
    return _folded(lines, model.width)


def _standard(model: BoardModel, lang: str, style: Style) -> list[str]:
    """The 80x24 board: header, field, (hand), then each pile on a line with its yaku, and what
    each side is close to; trimmed to ``model.budget`` lines."""
    me, other = model.me, 1 - model.me
    name = model.names
    fams = families(model.cup_is_plain, viewing=model.viewing)
    width = model.width
    header = _header(model, lang, style)
    field_named = _listing(tr(lang, "Field: "), model.field, lang, style, width, tr(lang, "(empty)"))
    field_codes = _codes(tr(lang, "Field: "), model.field, style, width, tr(lang, "(empty)"))
    hand: list[str] = []
    if model.show_hand:
        hand = _listing(tr(lang, "Your hand: "), model.hand, lang, style, width, tr(lang, "(empty)"))
    piles: list[list[str]] = []
    closes: list[list[str]] = []
    for seat in (me, other):
        pile = model.piles[seat]
        if seat == me:
            head = tr(lang, "{Me} ({cards}): ", Me=capitalised(name[0]), cards=count(len(pile), "card", lang))
        else:
            head = tr(lang, "{Them} ({cards}, hand {hand}): ", Them=capitalised(name[1]),
                      cards=count(len(pile), "card", lang), hand=model.opponent_hand)
        shown = sorted((c for c in pile if _klass(c) != "plain"), key=_order)
        parts = [style.klass(card_code(c), _klass(c)) for c in shown]
        plains = sum(1 for c in pile if _klass(c) == "plain")
        if plains:
            parts.append(tr(lang, "| plains: {n}", n=plains))
        if not parts:
            parts.append("-")
        line = wrap(head, parts, width, " ")
        made = model.yaku[seat]
        if made:
            line = wrap(head, [*parts, "| " + tr(lang, "yaku: ") + ", ".join(_made(made, lang))], width, " ")
        piles.append(_folded(line, width))
        close = _close(model, seat, fams, lang)
        closes.append(_folded(wrap(tr(lang, "  close: "), close, width, ", "), width) if close else [])
    budget = model.budget

    def assemble(field: list[str], mine_close: bool, theirs_close: bool) -> list[str]:
        out = [*header, *field, *hand, *piles[0]]
        if mine_close:
            out += closes[0]
        out += piles[1]
        if theirs_close:
            out += closes[1]
        return [*out, *model.extra]

    # Most wanted first; the first arrangement that fits the budget is shown.
    for field, mine_close, theirs_close in ((field_named, True, True), (field_named, True, False),
                                            (field_named, False, False), (field_codes, False, False)):
        lines = assemble(field, mine_close, theirs_close)
        if budget is None or len(lines) <= budget:
            return lines
    return lines


def _order(c: int) -> tuple[int, int]:
    return CLASS_ORDER.index(_klass(c)), c


def _made(made: Mapping[str, int], lang: str) -> list[str]:
    parts = [f"{yaku_name(k, lang)} {v}" for k, v in made.items()]
    parts[-1] += tr(lang, " (total {n})", n=sum(made.values()))
    return parts


def _close(model: BoardModel, seat: int, fams: Sequence[Family], lang: str) -> list[str]:
    # A set is dead once the *other* side of this pile holds too many of its cards.
    pile = model.piles[seat]
    close = near_yaku(pile, model.piles[1 - seat], fams)
    if not close:
        return []
    where = {c: tr(lang, "field") for c in model.field} | {c: tr(lang, "your hand") for c in model.hand}
    return [_near_text(fam_name, left, pile, fams, lang, where) for fam_name, left in close[:4]]


# Sets whose missing cards are worth naming (the counted sets would list a dozen plains).
_NAMED_SETS = frozenset({"brights", "inoshikacho", "akatan", "aotan", "hanami", "tsukimi"})


def _near_text(fam_name: str, left: Sequence[int], pile: Sequence[int], fams: Sequence[Family],
               lang: str, where: Mapping[int, str]) -> str:
    """E.g. ``akatan (needs 1 of: 03 Cherry Poetry Ribbon [field])``: the cards still out, and
    which of them lie on the field or in my hand (what can be taken, or kept away, now)."""
    needs = _needs(fam_name, pile, fams)
    label = yaku_name(fam_name, lang)
    if fam_name in _NAMED_SETS and left:
        named = ", ".join(short_name(c, lang) + (f" [{where[c]}]" if c in where else "") for c in left)
        return tr(lang, "{yaku} (needs {n} of: {cards})", yaku=label, n=needs, cards=named)
    return tr(lang, "{yaku} (needs {n})", yaku=label, n=needs)


def _needs(fam_name: str, pile: Sequence[int], fams: Sequence[Family]) -> int:
    fam = next(f for f in fams if f.name == fam_name)
    return fam.need - len(frozenset(pile) & fam.cards)


def _listing(head: str, cards: Sequence[int], lang: str, style: Style, width: int | None,
             empty: str) -> list[str]:
    """``head`` and the cards separated by `` | ``, wrapped under the head to fit ``width``."""
    if not cards:
        return [head + empty]
    return wrap(head, [card_label(c, lang, style) for c in sorted(cards)], width)


def _codes(head: str, cards: Sequence[int], style: Style, width: int | None, empty: str) -> list[str]:
    if not cards:
        return [head + empty]
    return wrap(head, [style.klass(card_code(c), _klass(c)) for c in sorted(cards)], width, " ")


def wrap(head: str, labels: Sequence[str], width: int | None, sep: str = " | ") -> list[str]:
    """``head`` and the labels joined by ``sep``, continued under the head to fit ``width`` (a
    label longer than a whole line is itself folded, under the same indent)."""
    if width is None:
        return [head + sep.join(labels)]
    indent = " " * min(max(display_width(head), 4), max(4, width // 3))
    lines: list[str] = []
    current = head
    used = display_width(head)
    fresh = True
    for label in labels:
        size = display_width(label)
        if not fresh and used + len(sep) + size > width:
            lines.append(current.rstrip())
            current, used, fresh = indent, len(indent), True
        if size > width - used - (0 if fresh else len(sep)):
            pieces = fold(label, width - len(indent))
            pieces = [p.strip() for p in pieces]
            first_room = width - used - (0 if fresh else len(sep))
            head_piece = fold(pieces[0], first_room) if first_room > 8 else []
            if head_piece and len(head_piece) == 1:
                current += ("" if fresh else sep) + pieces[0]
                rest = pieces[1:]
            else:
                if not fresh:
                    lines.append(current.rstrip())
                elif current.strip():
                    lines.append(current.rstrip())
                rest = pieces
                current = ""
            for piece in rest:
                if current:
                    lines.append(current.rstrip())
                current = indent + piece
            used = display_width(current)
            fresh = False
            continue
        if fresh:
            current += label
            used += size
            fresh = False
        else:
            current += sep + label
            used += len(sep) + size
    lines.append(current)
    return lines


def fold(text: str, width: int | None) -> list[str]:
    """A sentence folded to ``width`` columns at spaces, never mid-word (unless one word alone is
    longer than the line); Japanese, written without spaces, may fold between any two characters
    but not before closing punctuation. A line's leading indent is kept, and its continuations
    are indented two columns more."""
    if width is None or display_width(text) <= width:
        return [text]
    body = text.lstrip(" ")
    lead = " " * (len(text) - len(body))
    indent = (lead + "  ") if len(lead) + 2 < width // 2 else ""
    lines: list[str] = []
    current, used = lead, len(lead)
    fresh = True
    for word in body.split(" "):
        if not word and fresh:
            continue  # a run of spaces at a fold
        size = display_width(word)
        wide = size != len(_ANSI_ONLY.sub("", word))
        if not fresh and used + 1 + size > width and not wide:
            lines.append(current)
            current, used, fresh = indent, len(indent), True
        if size > width - used - (0 if fresh else 1) and "/" in word and not wide:
            # A path is never cut: a person copies it whole (the terminal wraps it if it must).
            if not fresh:
                lines.append(current)
            lines.append(indent + word if lines or not fresh else current + word)
            current, used, fresh = indent, len(indent), True
            continue
        if size > width - used - (0 if fresh else 1):
            if not fresh:
                current += " "
                used += 1
            units = (_UNITS if wide else _TOKEN).findall(word)  # colour codes stay whole
            room = width - len(indent)
            units = [piece for unit in units
                     for piece in (_TOKEN.findall(unit) if display_width(unit) > room else [unit])]
            for ch in units:
                w = display_width(ch)
                if used + w > width and used > len(indent):
                    carry = ""
                    last = _LAST_VISIBLE.match(current)
                    if ch in _NO_LINE_START and current.strip() and last:
                        current, carry = last.group(1), last.group(2)  # 。、 never start a line
                    lines.append(current)
                    current, used = indent + carry, len(indent) + display_width(carry)
                current += ch
                used += w
            fresh = False
            continue
        if not fresh:
            current += " "
            used += 1
        current += word
        used += size
        fresh = False
    lines.append(current)
    return [line for line in lines if line.strip()] or [""]


# Inside Japanese text a run of ASCII (a number, an id, a flag) stays on one line.
_UNITS = re.compile("\x1b\\[[0-9;]*m|[\x21-\x7e]+|.", re.DOTALL)
_LAST_VISIBLE = re.compile("(.*?)([^\x1b](?:\x1b\\[[0-9;]*m)*)$", re.DOTALL)
_NO_LINE_START = frozenset("、。，．）」』】！？：；)]}!?,.:;")
_ANSI_ONLY = re.compile("\x1b\\[[0-9;]*m")
_TOKEN = re.compile("\x1b\\[[0-9;]*m|.", re.DOTALL)
