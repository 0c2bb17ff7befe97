"""The choices of each decision: one lettered choice per legal action, labelled in the screen's
language, with what else a person may type for it (a card's id and names)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from koikoi_p2p.cli.cardnames import card_aliases, card_code, card_label
from koikoi_p2p.cli.i18n import yaku_name
from koikoi_p2p.cli.prompt import Choice, card_key

if TYPE_CHECKING:
    from koikoi_p2p.cli.play import Screen
    from koikoi_p2p.rules.actions import Action, ClaimHandYaku
    from koikoi_p2p.rules.round import RoundView


def forced_choice(
    kind: str, options: Sequence[Action], view: RoundView, screen: Screen
) -> tuple[Action, str] | None:
    """A decision with one legal answer is taken for the person, and said (never silently)."""
    from koikoi_p2p.rules.actions import ClaimHandYaku

    if len(options) != 1:
        return None
    if kind == "hand_yaku":
        only = options[0]
        if isinstance(only, ClaimHandYaku):
            # Claims are compulsory (spec/rules.md §9.7): the best hand yaku is claimed for you.
            return only, screen.t("Your dealt hand makes {yaku}: {cards}. It is claimed for you (a hand yaku "
                                  "must be claimed) and ends the round.",
                                  yaku=yaku_name(only.yaku, screen.lang),
                                  cards=_claim_cards(only, view, screen))
        return only, screen.t("No hand yaku in your hand.")
    if kind == "decide":
        return options[0], screen.t("You made a yaku; no koi-koi is allowed here, so you stop and score.")
    return None


def interchangeable(options: Sequence[Action]) -> bool:
    """A capture choice between two plains of one month: they score alike under every profile."""
    from koikoi_p2p.rules.actions import Capture
    from koikoi_p2p.rules.cards import card

    cards = [card(o.card) for o in options if isinstance(o, Capture)]
    return (len(cards) == len(options) == 2 and all(c.klass == "plain" for c in cards)
            and cards[0].month == cards[1].month)


def play_choices(view: RoundView, options: Sequence[Action], screen: Screen) -> list[Choice[Action]]:
    """One lettered choice per legal Play, labelled with the card it plays (hand order) and what
    it would take; the card's id and names are accepted too."""
    from koikoi_p2p.rules.actions import Play

    hand = hand_by_position(view)
    choices: list[Choice[Action]] = []
    ordered = sorted((o for o in options if isinstance(o, Play)), key=lambda o: hand.get(o.position, 99))
    for number, option in enumerate(ordered):
        c = hand.get(option.position)
        label = card_label(c, screen.lang, screen.style) if c is not None else screen.t(
            "position {n}", n=option.position)
        matches = _matches(view, c) if c is not None else []
        if matches:
            label += screen.t(" -> takes {cards}", cards="/".join(screen.style.klass(card_code(m), _klass(m))
                                                                   for m in matches))
        choices.append(Choice(card_key(number), label, option, card_aliases(c) if c is not None else ()))
    return choices


def _klass(c: int) -> str:
    from koikoi_p2p.rules.cards import card

    return card(c).klass


def _claim_cards(claim: ClaimHandYaku, view: RoundView, screen: Screen) -> str:
    """The cards a hand-yaku claim shows, by name."""
    hand = hand_by_position(view)
    return ", ".join(card_label(hand[p], screen.lang, screen.style) if p in hand else
                     screen.t("position {n}", n=p) for p in claim.positions)


def decision_choices(
    kind: str, view: RoundView, options: Sequence[Action], screen: Screen
) -> tuple[str, list[Choice[Action]]]:
    from koikoi_p2p.rules.actions import Capture, ClaimHandYaku, KoiKoi, NoHandYaku, Stop

    choices: list[Choice[Action]] = []
    number = 0
    for option in options:
        if isinstance(option, Capture):
            label = card_label(option.card, screen.lang, screen.style)
            choices.append(Choice(card_key(number), label, option, card_aliases(option.card)))
            number += 1
        elif isinstance(option, KoiKoi):
            choices.append(Choice("k", screen.t("koi-koi (play on)"), option, ("koikoi", "こいこい")))
        elif isinstance(option, Stop):
            choices.append(Choice("s", screen.t("stop (shobu: score now)"), option, ("stop", "勝負")))
        elif isinstance(option, ClaimHandYaku):
            claim = screen.t("claim {yaku}: {cards}", yaku=yaku_name(option.yaku, screen.lang),
                             cards=_claim_cards(option, view, screen))
            choices.append(Choice(card_key(number), claim, option))
            number += 1
        elif isinstance(option, NoHandYaku):
            choices.append(Choice("n", screen.t("do not claim"), option))
    questions = {
        "capture": screen.t("Two cards match: which do you take?"),
        "decide": screen.t("You made a yaku: koi-koi or stop?"),
        "hand_yaku": screen.t("Your hand makes a hand yaku: which do you claim?"),
    }
    question = questions.get(kind, screen.t("Choose:"))
    if kind == "capture" and view.pending_card is not None and view.pending_card >= 0:
        pending = card_label(view.pending_card, screen.lang, screen.style)
        question = screen.t("Two field cards match your {card}: which do you take?", card=pending)
    return question, choices


def hand_by_position(view: RoundView) -> dict[int, int]:
    """My hand's cards by deck position (cards not yet revealed to me are left out)."""
    return {p: c for p, c in zip(view.hand_positions, view.hand, strict=True) if c >= 0}


def _matches(view: RoundView, c: int) -> list[int]:
    from koikoi_p2p.rules.cards import card

    month = card(c).month
    return [f for f in view.field if card(f).month == month]
