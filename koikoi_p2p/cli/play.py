"""The terminal side of a match: shows each event, asks for each decision, maps the end to an
exit code. Used by practice, host and join alike; the Match object does all the checking.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TextIO

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.board import BoardModel, render_board
from koikoi_p2p.cli.cardnames import card_label
from koikoi_p2p.cli.countdown import with_countdown
from koikoi_p2p.cli.prompt import Choice, InputClosed, LineSource, Prompter
from koikoi_p2p.cli.style import Style

if TYPE_CHECKING:
    from koikoi_p2p.protocol.events import Event, Failure, RoundOver
    from koikoi_p2p.rules.actions import Action, ClaimHandYaku
    from koikoi_p2p.rules.profile import Profile
    from koikoi_p2p.rules.round import RoundView


class MatchLike(Protocol):
    """What the terminal needs of a match (koikoi_p2p.net.match.Match provides it)."""

    def events(self) -> AsyncIterator[Event]: ...

    async def decide(self, action: Action) -> None: ...


@dataclass(slots=True)
class Screen:
    """Where text goes and how it looks."""

    out: TextIO
    lang: str
    style: Style
    live: bool  # a terminal: the countdown rewrites one line
    names: tuple[str, str] = ("you", "opponent")
    width: int | None = None  # the terminal's columns: long card lists wrap to fit

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()


@dataclass(slots=True)
class Table:
    """What the terminal remembers between events."""

    me: int
    scores: tuple[int, int] = (0, 0)
    rounds: int | None = None
    round_index: int = 0
    cup_is_plain: bool = True
    viewing: bool = True
    password: bool = False
    paired: bool = False
    last_view: RoundView | None = None
    last_board: tuple[object, ...] | None = None  # what the board last showed (not repeated unchanged)
    profile: Profile | None = None
    told_compulsory: bool = False  # the compulsory-matching note is said once a match
    transcripts: list[str] = field(default_factory=list)


LEGEND = "Cards read MM+mark: the month (01-12) and the class: * bright, A animal, R ribbon, . plain."

HELP = {
    "play": "Play one card from your hand. A card matching a field card of its month captures it; "
    "otherwise it joins the field. Then the top card of the stock is turned over the same way.\n"
    + "{legend}",
    "capture": "Two field cards match: choose which one to take.",
    "decide": "You made a yaku. Stop (shobu) scores it now; koi-koi plays on for more, but if your "
    "opponent scores first you get nothing and their points may be doubled.",
    "hand_yaku": "Your dealt hand makes a hand yaku: claim it to score it now (the cards are shown).",
}


async def drive(
    match: MatchLike, screen: Screen, lines: LineSource, *, me: int, timeout: float, password: bool = False
) -> int:
    """Run the match to its end on this screen; returns the exit code.

    ``password``: the room has one, so a connection lost during the handshake most likely means
    the two passwords differ (the side that finds out first hangs up).
    """
    table = Table(me=me, password=password)
    prompter = Prompter(lines, screen.write)
    events = match.events().__aiter__()
    try:
        return await _run(events, match, screen, prompter, table, timeout)
    finally:
        aclose = getattr(events, "aclose", None)
        if aclose is not None:
            with contextlib.suppress(Exception):
                await aclose()


async def _run(
    events: AsyncIterator[Event], match: MatchLike, screen: Screen, prompter: Prompter, table: Table,
    timeout: float,
) -> int:
    from koikoi_p2p.protocol.transport import TransportClosed

    while True:
        try:
            event = await with_countdown(
                events.__anext__(), write=screen.write, limit=_deadline(match, timeout), live=screen.live
            )
        except StopAsyncIteration:
            screen.say("The match ended without a result.")
            return exit_codes.OPPONENT_LEFT
        try:
            code = await _handle(event, match, screen, prompter, table)
        except InputClosed:
            screen.say("\nInput closed: leaving the match.")
            return exit_codes.INTERRUPTED
        except TransportClosed as exc:
            # Our own move could not be sent: the other side (or the relay) is gone.
            reason = str(getattr(exc, "reason", "") or "connection_closed")
            code = failure_code(reason, None, table.me, None)
            code = exit_codes.OPPONENT_LEFT if code == exit_codes.ERROR else code
            screen.say(screen.style.bold(f"\nMatch stopped: the connection closed ({reason})."))
            screen.say("The opponent left or stopped answering.")
            return code
        if code is not None:
            return code


def _deadline(match: MatchLike, default: float) -> float:
    """Seconds the protocol will wait for the step now awaited (the agreed terms), if known."""
    peer = getattr(match, "peer", None)
    waiting_for = getattr(peer, "waiting_for", None)
    if callable(waiting_for):
        waiting = waiting_for()
        if isinstance(waiting, tuple) and len(waiting) == 3 and isinstance(waiting[2], int | float):
            return float(waiting[2])
    return default


def _time_left(match: MatchLike) -> str:
    """A reminder of the agreed time for a decision (the opponent stops waiting after it)."""
    seconds = _deadline(match, 0.0)
    # Long deadlines (practice against the computer) need no reminder.
    return f" (you have {int(seconds)}s)" if 1 <= seconds < 1800 else ""


async def _handle(
    event: Event, match: MatchLike, screen: Screen, prompter: Prompter, table: Table
) -> int | None:
    from koikoi_p2p.protocol import events as ev

    name = screen.names
    if isinstance(event, ev.Paired):
        table.paired = True
        screen.say(f"Opponent's key fingerprint: {event.peer_fingerprint}")
        if event.known == "changed":
            screen.say(screen.style.bold("WARNING: this opponent's key CHANGED since you last played "
                                         "this name. If you did not expect it, stop now (Ctrl-C)."))
        elif event.known is True:
            screen.say("Known opponent: the same key as last time.")
        if event.sas is not None:
            screen.say(screen.style.bold(f"Security code: {event.sas}") +
                       "  (compare with your opponent; if it differs, someone is in the middle: quit)")
    elif isinstance(event, ev.TermsAgreed):
        table.rounds = event.rounds or None
        table.profile = event.profile
        table.cup_is_plain = event.profile.cup_is_plain
        table.viewing = event.profile.viewing == "always"
        length = _count(event.rounds, "round") if event.rounds else "to the target score"
        screen.say(f"Rules: {event.profile.name}, {length}  (koikoi rules {event.profile.name} lists them).")
        # With a pool (koikoi-online, board-game) each seat starts with it and the loser pays.
        table.scores = (event.profile.pool_start, event.profile.pool_start)
        if event.profile.pool_start:
            screen.say(f"Each player starts with a pool of {event.profile.pool_start} points; the loser of a "
                       "round pays the winner" + (", and a player who runs out loses the match"
                                                  if event.profile.bust_ends_game else "") + ".")
        if event.profile.target_score:
            screen.say(f"The first player to reach {event.profile.target_score} points wins.")
        screen.say(LEGEND)
    elif isinstance(event, ev.FirstDealer):
        who = name[0] if event.dealer == table.me else name[1]
        screen.say(f"First dealer: {who}.")
    elif isinstance(event, ev.RoundStarted):
        table.round_index = event.round_index
        table.last_view = None
        dealer = name[0] if event.dealer == table.me else name[1]
        screen.say(screen.style.bold(f"\n--- Round {event.round_index} (deal {event.deal}), "
                                     f"dealer: {dealer} ---"))
    elif isinstance(event, ev.Board):
        _show_changes(event.view, screen, table)
    elif isinstance(event, ev.OpponentMoved):
        _show_changes(event.view, screen, table)
    elif isinstance(event, ev.YourTurn):
        _show(event.view, screen, table)
        if len(event.options) < len(hand_by_position(event.view)) and not table.told_compulsory:
            table.told_compulsory = True
            screen.say("Matching is compulsory under these rules: only the cards that capture are offered.")
        action = await prompter.choose("Your turn: which card do you play?" + _time_left(match),
                                       play_choices(event.view, event.options, screen),
                                       HELP["play"].format(legend=LEGEND))
        await match.decide(action)
    elif isinstance(event, ev.ChoiceNeeded):
        only = _forced(event.kind, event.options, event.view, screen)
        if only is None and event.kind == "capture" and interchangeable(event.options):
            first = event.options[0]
            only = first, ("Both matching cards are plains of that month (worth the same): you take one, "
                           + card_label(getattr(first, "card", 0), screen.lang, screen.style) + ".")
        if only is not None:
            screen.say(only[1])
            await match.decide(only[0])
            return None
        _show(event.view, screen, table)
        if event.kind == "decide" and table.profile is not None:
            for line in stakes(event.view, table.profile, table.me, screen.names[1]):
                screen.say(line)
        question, choices = decision_choices(event.kind, event.view, event.options, screen)
        action = await prompter.choose(question + _time_left(match), choices, HELP.get(event.kind, ""))
        await match.decide(action)
    elif isinstance(event, ev.RoundOver):
        table.scores = event.scores
        _round_summary(event, screen, table)
    elif isinstance(event, ev.MatchOver):
        me, other = table.me, 1 - table.me
        if event.winner is None:
            verdict = "The match is a draw."
        else:
            loser_text = f"{name[1].capitalize()} wins the match."
            verdict = "You win the match!" if event.winner == me else loser_text
        screen.say(screen.style.bold(f"\n=== Final score: {name[0]} {event.scores[me]} - "
                                     f"{event.scores[other]} {name[1]}. {verdict} ==="))
        if event.transcript_path:
            screen.say(f"Transcript: {event.transcript_path}  (check it with: koikoi verify FILE)")
        return exit_codes.OK
    elif isinstance(event, ev.Failure):
        if table.password and not table.paired and failure_code(
                event.reason, event.who, table.me, event.evidence_path) == exit_codes.OPPONENT_LEFT:
            screen.say(screen.style.bold("\nYour opponent hung up during the handshake: most likely the "
                                         "passwords differ. Agree on it again and start a new room."))
            return exit_codes.WRONG_PASSWORD
        return failure(event, screen, table.me)
    return None


def failure(event: Failure, screen: Screen, me: int) -> int:
    """Say what went wrong in words a person can act on, and pick the exit code."""
    code = failure_code(event.reason, event.who, me, event.evidence_path)
    hints = {
        exit_codes.WRONG_PASSWORD: "Both of you give --password (or neither): start a new room."
        if event.reason == "mode_mismatch" else "The passwords differ (or someone in the middle guessed): "
        "agree on it again over another channel.",
        exit_codes.OPPONENT_LEFT: "The opponent left or stopped answering.",
        exit_codes.OPPONENT_DEVIATED: "The opponent (or the relay) broke the protocol; the match is void.",
        exit_codes.RELAY_UNREACHABLE: "The relay could not be reached.",
    }
    screen.say(screen.style.bold(f"\nMatch stopped: {event.message or event.reason} ({event.reason})."))
    if code in hints:
        screen.say(hints[code])
    if event.evidence_path:
        screen.say(f"Evidence saved: {event.evidence_path}")
    return code


_LEFT_WORDS = ("left", "closed", "timeout", "timed_out", "abort", "gone", "disconnect")


def failure_code(reason: str, who: int | None, me: int, evidence: str | None) -> int:
    text = reason.lower()
    if "password" in text or "confirm" in text or "pake" in text or "mode_mismatch" in text:
        return exit_codes.WRONG_PASSWORD
    if any(word in text for word in _LEFT_WORDS):
        return exit_codes.OPPONENT_LEFT
    if "unreachable" in text:
        return exit_codes.RELAY_UNREACHABLE
    if who is not None and who != me:
        return exit_codes.OPPONENT_DEVIATED
    if evidence:
        return exit_codes.OPPONENT_DEVIATED
    return exit_codes.ERROR


# -- choices ---------------------------------------------------------------------------------


def _forced(
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
            return only, (f"Your dealt hand makes {only.yaku}: {_claim_cards(only, view, screen)}. "
                          "It is claimed for you (a hand yaku must be claimed) and ends the round.")
        return only, "No hand yaku in your hand."
    if kind == "decide":
        return options[0], "You made a yaku; no koi-koi is allowed here, so you stop and score."
    return None


def interchangeable(options: Sequence[Action]) -> bool:
    """A capture choice between two plains of one month: they score alike under every profile."""
    from koikoi_p2p.rules.actions import Capture
    from koikoi_p2p.rules.cards import card

    cards = [card(o.card) for o in options if isinstance(o, Capture)]
    return (len(cards) == len(options) == 2 and all(c.klass == "plain" for c in cards)
            and cards[0].month == cards[1].month)



def play_choices(view: RoundView, options: Sequence[Action], screen: Screen) -> list[Choice[Action]]:
    """One numbered choice per legal Play, labelled with the card it plays (hand order)."""
    from koikoi_p2p.rules.actions import Play

    hand = hand_by_position(view)
    choices: list[Choice[Action]] = []
    ordered = sorted((o for o in options if isinstance(o, Play)), key=lambda o: hand.get(o.position, 99))
    for number, option in enumerate(ordered, start=1):
        c = hand.get(option.position)
        label = card_label(c, screen.lang, screen.style) if c is not None else f"position {option.position}"
        matches = _matches(view, c) if c is not None else []
        if matches:
            takes = "  -> takes one of " if len(matches) == 2 else "  -> takes "
            label += takes + ", ".join(card_label(m, screen.lang, screen.style) for m in matches)
        choices.append(Choice(str(number), label, option))
    return choices


def _claim_cards(claim: ClaimHandYaku, view: RoundView, screen: Screen) -> str:
    """The cards a hand-yaku claim shows, by name."""
    hand = hand_by_position(view)
    return ", ".join(card_label(hand[p], screen.lang, screen.style) if p in hand else f"position {p}"
                     for p in claim.positions)


def decision_choices(
    kind: str, view: RoundView, options: Sequence[Action], screen: Screen
) -> tuple[str, list[Choice[Action]]]:
    from koikoi_p2p.rules.actions import Capture, ClaimHandYaku, KoiKoi, NoHandYaku, Stop

    choices: list[Choice[Action]] = []
    number = 0
    for option in options:
        if isinstance(option, Capture):
            number += 1
            choices.append(Choice(str(number), card_label(option.card, screen.lang, screen.style), option))
        elif isinstance(option, KoiKoi):
            choices.append(Choice("k", "koi-koi (play on)", option))
        elif isinstance(option, Stop):
            choices.append(Choice("s", "stop (shobu: score now)", option))
        elif isinstance(option, ClaimHandYaku):
            number += 1
            choices.append(Choice(str(number), f"claim {option.yaku}: {_claim_cards(option, view, screen)}",
                                  option))
        elif isinstance(option, NoHandYaku):
            choices.append(Choice("n", "do not claim", option))
    questions = {
        "capture": "Two cards match: which do you take?",
        "decide": "You made a yaku: koi-koi or stop?",
        "hand_yaku": "Your hand makes a hand yaku: which do you claim?",
    }
    question = questions.get(kind, "Choose:")
    if kind == "capture" and view.pending_card is not None and view.pending_card >= 0:
        pending = card_label(view.pending_card, screen.lang, screen.style)
        question = f"Two field cards match your {pending}: which do you take?"
    return question, choices


# -- view helpers (the only place that knows the engine's view fields) ------------------------


def hand_by_position(view: RoundView) -> dict[int, int]:
    """My hand's cards by deck position (cards not yet revealed to me are left out)."""
    return {p: c for p, c in zip(view.hand_positions, view.hand, strict=True) if c >= 0}


def _matches(view: RoundView, c: int) -> list[int]:
    from koikoi_p2p.rules.cards import card

    month = card(c).month
    return [f for f in view.field if card(f).month == month]


def board_model(
    view: RoundView, table: Table, names: tuple[str, str], width: int | None = None
) -> BoardModel:
    me = table.me
    piles = (tuple(view.piles[0]), tuple(view.piles[1]))
    yaku = (dict(view.yaku[0]), dict(view.yaku[1]))
    return BoardModel(
        me=me,
        round_index=view.round_index,
        rounds=table.rounds,
        month=view.month,
        dealer=view.dealer,
        stock=view.stock_count,
        field=tuple(view.field),
        hand=tuple(c for c in view.hand if c >= 0),  # -1: not revealed yet
        opponent_hand=view.opponent_hand_size,
        piles=piles,
        yaku=yaku,
        scores=table.scores,
        calls=tuple(view.calls),
        names=names,
        cup_is_plain=table.cup_is_plain,
        viewing=table.viewing,
        width=width,
    )


def _show(view: RoundView, screen: Screen, table: Table) -> None:
    _show_changes(view, screen, table, quiet=True)
    _render(view, screen, table)


def _render(view: RoundView, screen: Screen, table: Table) -> None:
    """The whole board, unless it would repeat the one just shown."""
    key = (view.round_index, view.field, view.hand, view.piles, view.stock_count, view.calls, table.scores,
           view.opponent_hand_size)
    if key == table.last_board:
        return
    table.last_board = key
    screen.say(render_board(board_model(view, table, screen.names, screen.width), screen.lang, screen.style))


def _points(n: int) -> str:
    return _count(n, "point")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def stakes(view: RoundView, profile: Profile, me: int, opponent: str) -> list[str]:
    """What stopping scores now and what a koi-koi risks, under these rules (the decide prompt)."""
    from koikoi_p2p.rules.scoring import round_score

    made = view.yaku[me]
    base = sum(made.values())
    now = round_score(base, view.calls, me, profile)
    lines = [f"Stop now: you score {_points(now)}"
             + (f" (base {base} x{now // base})" if now != base and base else "") + "."]
    if profile.after_call == "next_improvement_ends_round":
        after = "the round then ends as soon as either of you makes or raises a yaku"
    else:
        after = "the round then goes on until someone stops"
    risk = {
        "opponent_flat_x2": f"if {opponent} wins it instead, {opponent}'s score is doubled",
        "shared_one_plus_calls": "each call raises the winner's multiplier by one, whoever wins",
        "winner_pow2": "each of your calls doubles your score if you win; nothing if you do not",
        "none": "calls multiply nothing: you only play on for more yaku",
    }[profile.koikoi_multiplier]
    end = {
        "draw": "if the hands run out first, nobody scores",
        "oya_ken": "if the hands run out first, only the dealer scores (oya-ken)",
        "last_caller_scores_else_oya_ken": "if the hands run out first, the last caller scores",
    }[profile.exhaustion]
    lines.append(f"Koi-koi: {after}; {risk}; {end}.")
    return lines


def _show_changes(
    view: RoundView, screen: Screen, table: Table, *, quiet: bool = False
) -> None:
    """Say what happened since the last view: who played or drew which card and what it took."""
    before = table.last_view
    table.last_view = view
    if _dealing(view):
        return  # the deal is still being revealed: show the board once the hand is known
    if before is None or _dealing(before):
        if not quiet:
            _render(view, screen, table)
        return
    for line in narrate(before, view, table.me, screen.names, screen.lang, screen.style):
        screen.say(line)
    if len(view.calls) > len(before.calls) and view.calls[-1] != table.me and table.profile is not None:
        screen.say(after_their_call(table.profile, len(view.calls)))


def after_their_call(profile: Profile, calls: int) -> str:
    """What the opponent's koi-koi means for me, under these rules."""
    stake = {
        "opponent_flat_x2": "if you win this round, your score is doubled",
        "shared_one_plus_calls": f"whoever wins this round, the score is now multiplied by {1 + calls}",
        "winner_pow2": "each of their calls doubles their score if they win; beating them adds nothing",
        "none": "calls multiply nothing",
    }[profile.koikoi_multiplier]
    if profile.after_call == "next_improvement_ends_round":
        return f"Their koi-koi: {stake}; the next yaku either of you makes or raises ends the round."
    return f"Their koi-koi: {stake}; the round goes on until someone stops."


def _dealing(view: RoundView) -> bool:
    """The deal is still being revealed (my hand not yet known, nothing played)."""
    return view.stock_count == 24 and not view.piles[0] and not view.piles[1] and not any(
        c >= 0 for c in view.hand)


def narrate(before: RoundView, view: RoundView, me: int, names: tuple[str, str], lang: str,
            style: Style) -> list[str]:
    """Sentences for the step between two views of one seat: plays, draws, captures, calls."""
    from koikoi_p2p.rules.round import NeedReveal

    def who(seat: int) -> str:
        return names[0] if seat == me else names[1]

    def label(c: int) -> str:
        return card_label(c, lang, style)

    def on_table(v: RoundView) -> set[int]:
        cards = set(v.field) | set(v.piles[0]) | set(v.piles[1])
        if v.pending_card is not None and v.pending_card >= 0:
            cards.add(v.pending_card)
        return cards

    lines: list[str] = []
    new_piles = [set(view.piles[s]) - set(before.piles[s]) for s in (0, 1)]
    pending = before.pending_card
    if pending is not None and pending >= 0 and pending not in view.field and pending != view.pending_card:
        # A choice between two field cards was made.
        seat = 0 if pending in new_piles[0] else 1
        taken = sorted(new_piles[seat] & set(before.capture_options))
        new_piles[seat] -= {pending, *taken}
        verb = "take" if seat == me else "takes"
        lines.append(f"{who(seat)} {verb} {', '.join(label(c) for c in taken)} with {label(pending)}")
    for c in sorted(on_table(view) - on_table(before)):
        if c in before.hand:
            seat, move = me, "play"
        elif isinstance(before.need, NeedReveal) and before.need.positions and before.need.positions[0] < 24:
            seat, move = 1 - me, "play"
        else:
            seat, move = before.turn, "draw"
        verb = move if seat == me else move + "s"
        head = f"{who(seat)} {verb} {label(c)}"
        if c == view.pending_card:
            options = ", ".join(label(o) for o in view.capture_options)
            lines.append(f"{head}: it matches two field cards ({options})")
        elif c in view.field:
            lines.append(f"{head}: no match, it goes to the field")
        else:
            owner = 0 if c in view.piles[0] else 1
            taken = sorted(new_piles[owner] & set(before.field))
            new_piles[owner] -= {c, *taken}
            lines.append(f"{head}: takes {', '.join(label(t) for t in taken)}")
    if len(view.calls) > len(before.calls):
        lines.append(style.bold(f"{who(view.calls[-1])} called KOI-KOI!"))
    return lines


# How a round ended, in words (the rules engine's reasons, spec/rules.md §9.8).
ROUND_END = {
    "stop": "stopped (shobu)",
    "auto_end": "a yaku after a koi-koi ends the round",
    "exhaustion": "the hands ran out",
    "oya_ken": "the hands ran out: the dealer's point (oya-ken)",
    "hand_yaku": "a hand yaku in the dealt hand",
    "field_month": "four cards of one month on the field: dealt again",
    "both_hand_yaku": "both dealt hands held a hand yaku: dealt again",
}


def _round_summary(event: RoundOver, screen: Screen, table: Table) -> None:
    result = event.result
    me = table.me
    name = screen.names
    if result.winner is None:
        if result.redeal:
            counts = result.consumes_round
            head = "redeal" + ("" if counts else " (this deal does not count as a round)")
        else:
            head = "round drawn"
    else:
        who = name[0] if result.winner == me else name[1]
        head = f"{who.capitalize()} won the round: {_points(result.points)}"
        if result.yaku:
            head += " (" + ", ".join(f"{k} {v}" for k, v in result.yaku.items())
            if result.base and result.points != result.base:
                head += f"; base {result.base} x{result.points // result.base}"
            head += ")"
    why = ROUND_END.get(result.reason, result.reason)
    screen.say(screen.style.bold(f"\nRound {event.round_index} over: {head}. [{why}]"))
    if result.calls:
        callers = ", ".join(name[0] if seat == me else name[1] for seat in result.calls)
        screen.say(f"Koi-koi calls this round: {callers}")
    kind = "Pools" if table.profile is not None and table.profile.pool_start else "Scores"
    screen.say(f"{kind}: {name[0]} {event.scores[me]} - {event.scores[1 - me]} {name[1]}")
    if event.transcript_path:
        table.transcripts.append(event.transcript_path)
        screen.say(f"Transcript: {event.transcript_path}")


def make_screen(lang: str, names: tuple[str, str], out: TextIO | None = None,
                colour: Callable[[TextIO], bool] | None = None) -> Screen:
    from koikoi_p2p.cli.style import wants_colour

    stream = out if out is not None else sys.stdout
    decide = colour if colour is not None else wants_colour
    live = bool(getattr(stream, "isatty", lambda: False)())
    width = shutil.get_terminal_size((100, 24)).columns if live else None
    return Screen(out=stream, lang=lang, style=Style(decide(stream)), live=live, names=names, width=width)
