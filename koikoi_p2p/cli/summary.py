"""The end of a round in words: who won what, which cards made each yaku, both final piles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from koikoi_p2p.cli.board import CLASS_ORDER, fold, wrap
from koikoi_p2p.cli.cardnames import card_code, card_label
from koikoi_p2p.cli.i18n import capitalised, count, tr, yaku_name
from koikoi_p2p.cli.style import Style

if TYPE_CHECKING:
    from koikoi_p2p.rules.profile import Profile
    from koikoi_p2p.rules.round import RoundResult


# How a round ended, in words (the rules engine's reasons, spec/rules.md §9.8).
ROUND_END = {
    "stop": "stopped (shobu)",
    "auto_end": "a yaku after a koi-koi ends the round",
    "exhaustion": "the hands ran out",
    "oya_ken": "the hands ran out: the dealer's point (oya-ken)",
    "hand_yaku": "a hand yaku in the dealt hand",
    "field_month": "four cards of one month on the field: dealt again",
    "field_pairs": "four pairs on the field: dealt again",
    "hand_month": "four cards of one month in a dealt hand: dealt again",
    "both_hand_yaku": "both dealt hands held a hand yaku: dealt again",
}


def yaku_cards(yaku: str, pile: Sequence[int], profile: Profile | None,
               month: int | None = None) -> tuple[int, ...]:
    """The cards of ``pile`` that make ``yaku`` (spec/rules.md §6), in card order; () for yaku
    that no captured card makes (hand yaku, oya-ken)."""
    from koikoi_p2p.rules.cards import card

    cup_is_plain = profile.cup_is_plain if profile is not None else True

    def having(pred: object) -> tuple[int, ...]:
        assert callable(pred)
        return tuple(sorted(c for c in pile if pred(card(c))))

    if yaku in ("goko", "shiko", "ame_shiko", "sanko"):
        return having(lambda c: c.klass == "bright")
    if yaku == "inoshikacho":
        named = {"07-boar", "10-deer", "06-butterflies"}
        if profile is not None and profile.named_extension:
            return having(lambda c: c.klass == "animal")
        return having(lambda c: c.id in named)
    if yaku in ("akatan", "aotan", "akatan_aotan"):
        sets = {"akatan": ("poetry",), "aotan": ("blue",), "akatan_aotan": ("poetry", "blue")}[yaku]
        if profile is not None and profile.named_extension:
            return having(lambda c: c.klass == "ribbon")
        return having(lambda c: c.subclass in sets)
    if yaku == "tane":
        return having(lambda c: c.klass == "animal")
    if yaku == "tan":
        return having(lambda c: c.klass == "ribbon")
    if yaku == "kasu":
        return having(lambda c: c.klass == "plain" or (cup_is_plain and c.subclass == "sake"))
    if yaku == "hanami":
        return having(lambda c: c.id in ("03-curtain", "09-cup"))
    if yaku == "tsukimi":
        return having(lambda c: c.id in ("08-moon", "09-cup"))
    if yaku == "tsukifuda":
        if month is not None and profile is not None and profile.monthly_yaku_scope == "current_month":
            return having(lambda c: c.month == month)
        months = [m for m in range(1, 13) if sum(1 for c in pile if card(c).month == m) == 4]
        return having(lambda c: c.month in months)
    return ()


def summary_lines(*, round_index: int, result: RoundResult, scores: tuple[int, int], me: int,
                  names: tuple[str, str], lang: str, style: Style,
                  piles: tuple[Sequence[int], Sequence[int]] | None, profile: Profile | None,
                  month: int | None, width: int | None) -> list[str]:
    """The round summary: the result, each yaku with its cards, both final piles, the scores.
    ``piles`` None: the round's cards are no longer known (the yaku are named without them)."""
    if result.winner is None:
        if result.redeal:
            head = tr(lang, "redeal") if result.consumes_round else tr(
                lang, "redeal (this deal does not count as a round)")
        else:
            head = tr(lang, "round drawn")
    else:
        who = names[0] if result.winner == me else names[1]
        points = count(result.points, "point", lang)
        # The winner's own calls add points under koikoi_bonus=winner_add (spec/rules.md §7.5):
        # then the score is no multiple of the base, and "x1" would hide them (terminal QA).
        added = (profile is not None and profile.koikoi_bonus == "winner_add"
                 and any(seat == result.winner for seat in result.calls))
        if result.base and result.points != result.base and added:
            head = tr(lang, "{Who} won the round: {points} (base {base}, with the points of the winner's "
                            "koi-koi calls)", Who=capitalised(who), points=points, base=result.base)
        elif result.base and result.points != result.base:
            head = tr(lang, "{Who} won the round: {points} (base {base} x{times})", Who=capitalised(who),
                      points=points, base=result.base, times=result.points // result.base)
        else:
            head = tr(lang, "{Who} won the round: {points}", Who=capitalised(who), points=points)
    why = tr(lang, ROUND_END.get(result.reason, result.reason))
    lines = [style.bold(line) for line in fold(
        tr(lang, "Round {n} over: {head}. [{why}]", n=round_index, head=head, why=why), width)]
    if result.winner is not None:
        pile = piles[result.winner] if piles is not None else ()
        for yaku, value in result.yaku.items():
            made = yaku_cards(yaku, pile, profile, month)
            head_text = f"  {yaku_name(yaku, lang)} {value}: "
            if made:
                lines.extend(wrap(head_text, [card_label(c, lang, style) for c in made], width, ", "))
            elif yaku in ("teshi", "kuttsuki", "tenho", "double_tenho"):
                lines.append(head_text + tr(lang, "from the dealt hand"))
            else:
                lines.append(head_text.rstrip(": "))
    if result.calls:
        callers = ", ".join(names[0] if seat == me else names[1] for seat in result.calls)
        lines.append(tr(lang, "Koi-koi calls this round: {who}", who=callers))
    shown = ((me, piles[me]), (1 - me, piles[1 - me])) if piles is not None else ()
    for seat, cards in shown:
        pile = sorted(cards, key=lambda c: (_rank(c), c))
        if seat == me:
            head_text = tr(lang, "Your pile ({cards}): ", cards=count(len(pile), "card", lang))
        else:
            head_text = tr(lang, "{Them}'s pile ({cards}): ", Them=capitalised(names[1]),
                           cards=count(len(pile), "card", lang))
        codes = [style.klass(card_code(c), _klass(c)) for c in pile] or ["-"]
        lines.extend(wrap(head_text, codes, width, " "))
    kind = tr(lang, "Pools") if profile is not None and profile.pool_start else tr(lang, "Scores")
    lines.append(f"{kind}: {names[0]} {scores[me]} - {scores[1 - me]} {names[1]}")
    return lines


def _klass(c: int) -> str:
    from koikoi_p2p.rules.cards import card

    return card(c).klass


def _rank(c: int) -> int:
    return CLASS_ORDER.index(_klass(c))
