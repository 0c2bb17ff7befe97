"""Sentences for what happened between two views of one seat, and for what a koi-koi means.

The rules engine's view is all the terminal has; comparing two views of one seat says who
played or drew which card and what it took, whoever's move it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from koikoi_p2p.cli.cardnames import card_label
from koikoi_p2p.cli.i18n import capitalised, count, tr
from koikoi_p2p.cli.style import Style

if TYPE_CHECKING:
    from koikoi_p2p.rules.profile import Profile
    from koikoi_p2p.rules.round import RoundView


def narrate(before: RoundView, view: RoundView, me: int, names: tuple[str, str], lang: str,
            style: Style) -> list[tuple[int, str]]:
    """(seat, sentence) for the step between two views of one seat: plays, draws, captures, calls."""
    from koikoi_p2p.rules.round import NeedReveal

    def label(c: int) -> str:
        return card_label(c, lang, style)

    def say(seat: int, mine: str, theirs: str, **values: object) -> tuple[int, str]:
        if seat == me:
            return seat, tr(lang, mine, me=capitalised(names[0]), **values)
        return seat, tr(lang, theirs, them=capitalised(names[1]), **values)

    def on_table(v: RoundView) -> set[int]:
        cards = set(v.field) | set(v.piles[0]) | set(v.piles[1])
        if v.pending_card is not None and v.pending_card >= 0:
            cards.add(v.pending_card)
        return cards

    lines: list[tuple[int, str]] = []
    new_piles = [set(view.piles[s]) - set(before.piles[s]) for s in (0, 1)]
    pending = before.pending_card
    if pending is not None and pending >= 0 and pending not in view.field and pending != view.pending_card:
        # A choice between two field cards was made.
        seat = 0 if pending in new_piles[0] else 1
        taken = sorted(new_piles[seat] & set(before.capture_options))
        new_piles[seat] -= {pending, *taken}
        lines.append(say(seat, "{me} take {taken} with {card}.", "{them} takes {taken} with {card}.",
                         taken=", ".join(label(c) for c in taken), card=label(pending)))
    for c in sorted(on_table(view) - on_table(before)):
        if c in before.hand:
            seat, drew = me, False
        elif isinstance(before.need, NeedReveal) and before.need.positions and before.need.positions[0] < 24:
            seat, drew = 1 - me, False
        else:
            seat, drew = before.turn, True
        if c == view.pending_card:
            options = ", ".join(label(o) for o in view.capture_options)
            if drew:
                lines.append(say(seat, "{me} draw {card}: it matches two field cards ({options}).",
                                 "{them} draws {card}: it matches two field cards ({options}).",
                                 card=label(c), options=options))
            else:
                lines.append(say(seat, "{me} play {card}: it matches two field cards ({options}).",
                                 "{them} plays {card}: it matches two field cards ({options}).",
                                 card=label(c), options=options))
        elif c in view.field:
            if drew:
                lines.append(say(seat, "{me} draw {card}: no match, it goes to the field.",
                                 "{them} draws {card}: no match, it goes to the field.", card=label(c)))
            else:
                lines.append(say(seat, "{me} play {card}: no match, it goes to the field.",
                                 "{them} plays {card}: no match, it goes to the field.", card=label(c)))
        else:
            owner = 0 if c in view.piles[0] else 1
            taken = sorted(new_piles[owner] & set(before.field))
            new_piles[owner] -= {c, *taken}
            took = ", ".join(label(t) for t in taken)
            if drew:
                lines.append(say(seat, "{me} draw {card} and take {taken}.",
                                 "{them} draws {card} and takes {taken}.", card=label(c), taken=took))
            else:
                lines.append(say(seat, "{me} play {card} and take {taken}.",
                                 "{them} plays {card} and takes {taken}.", card=label(c), taken=took))
    if len(view.calls) > len(before.calls):
        seat = view.calls[-1]
        seat_, text = say(seat, "{me} called KOI-KOI!", "{them} called KOI-KOI!")
        lines.append((seat_, style.bold(text)))
    return lines


def after_their_call(profile: Profile, calls: int, lang: str = "en") -> str:
    """What the opponent's koi-koi means for me, under these rules."""
    stake = {
        "opponent_flat_x2": tr(lang, "if you win this round, your score is doubled"),
        "shared_one_plus_calls": tr(lang, "whoever wins this round, the score is now multiplied by {n}",
                                    n=1 + calls),
        "winner_pow2": tr(lang,
                          "each of their calls doubles their score if they win; beating them adds nothing"),
        "none": tr(lang, "calls multiply nothing"),
    }[profile.koikoi_multiplier]
    if profile.after_call == "next_improvement_ends_round":
        return tr(lang, "Their koi-koi: {stake}; the next yaku either of you makes or raises ends the round.",
                  stake=stake)
    return tr(lang, "Their koi-koi: {stake}; the round goes on until someone stops.", stake=stake)


def _named(opponent: str, lang: str) -> str:
    """The opponent inside an English sentence: a role takes its article ("the computer"), a name
    stands alone (QA: "if computer wins it instead")."""
    return f"the {opponent}" if lang == "en" and opponent in ("computer", "opponent") else opponent


def stakes(view: RoundView, profile: Profile, me: int, opponent: str, lang: str = "en") -> list[str]:
    """What stopping scores now and what a koi-koi risks, under these rules (the decide prompt)."""
    from koikoi_p2p.rules.scoring import round_score

    made = view.yaku[me]
    base = sum(made.values())
    now = round_score(base, view.calls, me, profile)
    if now != base and base:
        first = tr(lang, "Stop now: you score {points} (base {base} x{times}).",
                   points=count(now, "point", lang), base=base, times=now // base)
    else:
        first = tr(lang, "Stop now: you score {points}.", points=count(now, "point", lang))
    if profile.after_call == "next_improvement_ends_round":
        after = tr(lang, "the round then ends as soon as either of you makes or raises a yaku")
    else:
        after = tr(lang, "the round then goes on until someone stops")
    risk = {
        "opponent_flat_x2": tr(lang, "if {them} wins it instead, {them}'s score is doubled",
                               them=_named(opponent, lang)),
        "shared_one_plus_calls": tr(lang, "each call raises the winner's multiplier by one, whoever wins"),
        "winner_pow2": tr(lang, "each of your calls doubles your score if you win; nothing if you do not"),
        "none": tr(lang, "calls multiply nothing: you only play on for more yaku"),
    }[profile.koikoi_multiplier]
    end = {
        "draw": tr(lang, "if the hands run out first, nobody scores"),
        "oya_ken": tr(lang, "if the hands run out first, only the dealer scores (oya-ken)"),
        "last_caller_scores_else_oya_ken": tr(lang, "if the hands run out first, the last caller scores"),
    }[profile.exhaustion]
    lines = [first, tr(lang, "Koi-koi: {after}; {risk}; {end}.", after=after, risk=risk, end=end)]
    if not view.hand:
        # The last card is played: a call cannot bring another yaku (what the round then gives is
        # the end of hands above, spec/rules.md §9.6), as the browser's question says too.
        lines.append(tr(lang, "You have no cards left: a call cannot bring you another yaku."))
    return lines
