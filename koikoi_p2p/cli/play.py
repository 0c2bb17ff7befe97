"""The terminal side of a match: shows each event, asks for each decision, maps the end to an
exit code. Used by practice, host and join alike; the Match object does all the checking.

The screen is laid out for an 80x24 terminal first: what happened since your last move (the
opponent's play and draw), the board and the question fit on one screen, the board trimming its
least needed lines to the room left (``board.py``). A larger terminal gets the wide board.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TextIO, TypeVar

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.board import BoardModel, fold, render_board
from koikoi_p2p.cli.cardnames import card_label
from koikoi_p2p.cli.catalogue import ngettext_in, word
from koikoi_p2p.cli.choices import (
    decision_choices,
    forced_choice,
    hand_by_position,
    interchangeable,
    play_choices,
)
from koikoi_p2p.cli.countdown import with_countdown
from koikoi_p2p.cli.i18n import capitalised, count, side_names, tr
from koikoi_p2p.cli.narrate import after_their_call, narrate, stakes
from koikoi_p2p.cli.paths import own_command
from koikoi_p2p.cli.prompt import Choice, InputClosed, LineSource, Prompter, TimeUp
from koikoi_p2p.cli.style import Style
from koikoi_p2p.cli.summary import ROUND_END, summary_lines
from koikoi_p2p.cli.terms_screen import accept_choices, base_preset, difference_lines, rules_name, terms_lines

if TYPE_CHECKING:
    from koikoi_p2p.protocol.events import Event, Failure, RoundOver, TermsProposed
    from koikoi_p2p.rules.actions import Action
    from koikoi_p2p.rules.profile import Profile
    from koikoi_p2p.rules.round import RoundView

__all__ = ["HELP", "LEGEND", "ROUND_END", "MatchLike", "Screen", "Table", "decision_choices", "drive",
           "failure", "failure_code", "interchangeable", "make_screen", "play_choices"]


T = TypeVar("T")


class MatchLike(Protocol):
    """What the terminal needs of a match (koikoi_p2p.net.match.Match provides it)."""

    def events(self) -> AsyncIterator[Event]: ...

    async def decide(self, action: Action) -> None: ...


class Resign:
    """The answer "resign" at a prompt (offered when the match can take a resignation)."""

    def __repr__(self) -> str:
        return "RESIGN"


RESIGN = Resign()


@dataclass(slots=True)
class Screen:
    """Where text goes and how it looks; counts the lines written since the last mark, so the
    board knows how much room is left on an 80x24 terminal."""

    out: TextIO
    lang: str
    style: Style
    live: bool  # a terminal: the countdown rewrites one line
    names: tuple[str, str] = ("you", "opponent")
    width: int | None = None  # the terminal's columns: long lines fold to fit
    height: int | None = None  # the terminal's rows: the board fits what is left of them
    lines: int = 0  # lines written since the mark

    @property
    def layout(self) -> str:
        """"standard" (made for 80x24) on a terminal, "wide" when there is room or no terminal."""
        if self.height is None:
            return "wide"
        return "wide" if self.height >= 40 and (self.width or 0) >= 100 else "standard"

    def t(self, text: str, /, **values: object) -> str:
        return tr(self.lang, text, **values)

    def say(self, text: str = "", *, whole: bool = False) -> None:
        """Write a line, folded to the width unless ``whole`` (a command line to copy as it is)."""
        width = None if whole else self.width
        folded = [part for line in text.split("\n") for part in fold(line, width)]
        self.out.write("\n".join(folded) + "\n")
        self.out.flush()
        self.lines += len(folded)

    def write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()
        self.lines += text.count("\n")

    def mark(self) -> None:
        self.lines = 0


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
    mark_next: bool = False  # the next line about the opponent starts what must fit one screen
    own_move: bool = False  # Boards until the opponent's move are our own move, shown before it answers
    interim: RoundView | None = None  # our own move's board, drawn if the answer is slow
    timed_out: bool = False
    accept_terms: bool = False  # --accept: the proposed terms are shown and taken without asking
    practice: bool = False  # the opponent is the computer in this process
    hold_summaries: bool = False  # a round's summary waits for Enter (a person at a terminal)


LEGEND = "Cards read MM+mark: the month (01-12) and the class: * bright, A animal, R ribbon, . plain."

HELP = {
    "play": "Play one card from your hand. A card matching a field card of its month captures it; "
    "otherwise it joins the field. Then the top card of the stock is turned over the same way.",
    "capture": "Two field cards match: choose which one to take.",
    "decide": "You made a yaku. Stop (shobu) scores it now; koi-koi plays on for more, but if your "
    "opponent scores first you get nothing and their points may be doubled.",
    "hand_yaku": "Your dealt hand makes a hand yaku: claim it to score it now (the cards are shown).",
}

# Decisions longer than this (practice against the computer) need no clock.
NO_CLOCK_ABOVE = 1800.0
# Our own clock stops this much before the opponent's, so a last-second answer still arrives in
# time (the opponent starts counting when our previous message reached it).
OWN_MARGIN = 2.0
LATE_QUESTION = 2.0  # seconds into a question's clock after which its prompt says the time left


async def drive(
    match: MatchLike, screen: Screen, lines: LineSource, *, me: int, timeout: float, password: bool = False,
    accept_terms: bool = False, practice: bool = False,
) -> int:
    """Run the match to its end on this screen; returns the exit code.

    ``password``: the room has one, so a connection lost during the handshake most likely means
    the two passwords differ (the side that finds out first hangs up). ``accept_terms``: the
    joiner takes the proposed terms without being asked (they are still shown). ``practice``: the
    opponent is the computer on this machine (its key means nothing to the person).

    On a terminal whose input is the person's keyboard, a round's summary stays until Enter is
    pressed; a script (``--accept``, or input that is not a terminal) is not held there.
    """
    table = Table(me=me, password=password, accept_terms=accept_terms, practice=practice,
                  hold_summaries=screen.live and reads_a_terminal(lines) and not accept_terms)
    prompter = Prompter(lines, screen.write, lang=screen.lang, live=screen.live, width=screen.width)
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
    from koikoi_p2p.protocol import events as ev
    from koikoi_p2p.protocol.transport import TransportClosed

    held: deque[asyncio.Future[Event]] = deque()  # events pulled while a round's summary was held
    while True:
        try:
            following = held.popleft() if held else asyncio.ensure_future(events.__anext__())
            event = await with_countdown(
                following, write=screen.write, limit=lambda: _wait_limit(match, timeout, table.me),
                live=screen.live, label=lambda: _waiting_label(screen, table, match),
                on_idle=lambda: _show_interim(screen, table), unit=screen.t("s"),
                wait=lambda: _awaited(match), since=lambda: _wait_since(match, table.me))
        except StopAsyncIteration:
            screen.say(screen.t("The match ended without a result."))
            return exit_codes.OPPONENT_LEFT
        try:
            code = await _handle(event, match, screen, prompter, table)
        except InputClosed:
            screen.say("\n" + screen.t("Your input ended: leaving the match."))
            return exit_codes.ERROR
        except MatchStopped:
            continue  # the events that follow say why
        except TimeUp:
            table.timed_out = True
            awaited = _awaited(match)
            _say_time_up(screen, _next_seq(match),
                         terms=isinstance(awaited, tuple) and len(awaited) == 2 and awaited[1] == "accept")
            noticed = getattr(match, "time_up", None)
            if callable(noticed):
                noticed()  # the match learns it too (a saved match then offers no resume)
            return exit_codes.ERROR
        except TransportClosed as exc:
            # Our own move could not be sent: the other side (or the relay) is gone.
            reason = str(getattr(exc, "reason", "") or "connection_closed")
            code = failure_code(reason, None, table.me, None)
            code = exit_codes.OPPONENT_LEFT if code == exit_codes.ERROR else code
            screen.say(screen.style.bold("\n" + screen.t("Match stopped: the connection closed ({reason}).",
                                                         reason=reason)))
            screen.say(screen.t("The opponent left or stopped answering."))
            return code
        if code is not None:
            return code
        # A summary of a resumed match's saved log, fed to the screen silently, is not held (the
        # match shows the last one again when it may not have been read).
        replayed = bool(getattr(match, "replaying", False))
        if isinstance(event, ev.RoundOver) and table.hold_summaries and not replayed:
            try:
                await _hold_summary(events, held, match, screen, prompter)
            except InputClosed:
                table.hold_summaries = False  # no one left to press Enter: the events say the rest


def reads_a_terminal(lines: LineSource) -> bool:
    """Whether the answers come from a person's terminal (not a pipe, a file or a script)."""
    is_terminal = getattr(lines, "is_terminal", None)
    return bool(is_terminal()) if callable(is_terminal) else False


async def _hold_summary(events: AsyncIterator[Event], held: deque[asyncio.Future[Event]],
                        match: MatchLike, screen: Screen, prompter: Prompter) -> None:
    """Keep the round's summary on the screen until the person presses Enter.

    The match goes on underneath (the next deal's shuffle and keys are exchanged meanwhile, so the
    opponent never waits on our reading): events are pulled and held, and shown once the person is
    back. If the next question arrives first, the person's clock for it runs: the hold ends at that
    question's own deadline, so the time is never lost silently.
    """
    screen.say(screen.t("Press Enter to go on."))
    prompter.forget_typed_ahead()
    enter = asyncio.ensure_future(prompter.line())
    pulling: asyncio.Future[Event] | None = None
    deadline: float | None = None
    try:
        while not enter.done():
            if pulling is None and deadline is None and not _waits_for_person(held):
                pulling = asyncio.ensure_future(events.__anext__())
            waiting: set[asyncio.Future[Any]] = {enter}
            if pulling is not None:
                waiting.add(pulling)
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, _ = await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if not done:
                break  # the question's own deadline: go to it (it says the time is up)
            if pulling is not None and pulling in done:
                held.append(pulling)
                pulling = None
                if _waits_for_person(held):
                    deadline = _own_deadline(match, _question_started(match))
                    if deadline is not None:
                        screen.say(screen.t("The next question is waiting and its clock runs: press Enter."))
        if enter.done():
            enter.result()  # InputClosed: the input ended
    finally:
        if not enter.done():
            enter.cancel()
        if pulling is not None:
            held.append(pulling)  # pulled on by the main loop, never cancelled (it is the match)


def _waits_for_person(held: deque[asyncio.Future[Event]]) -> bool:
    """Whether the last held event is one after which nothing comes until the person acts (a
    question), or the last of all (the match's end, a failure, the end of the events)."""
    from koikoi_p2p.protocol import events as ev

    if not held or not held[-1].done():
        return False
    last = held[-1]
    if last.exception() is not None:
        return True
    return isinstance(last.result(), ev.YourTurn | ev.ChoiceNeeded | ev.TermsProposed | ev.MatchOver
                      | ev.Failure | ev.TimeUp)


def _say_time_up(screen: Screen, seq: int | None, *, terms: bool = False) -> None:
    screen.say("\n" + screen.style.bold(screen.t("Your time for this decision ran out: no more input is "
                                                 "taken.")))
    if terms:
        # Before the terms were accepted nothing was signed: no claim would hold (spec/game.md §2.5).
        screen.say(screen.t("The terms were not accepted in time: the match did not start, and nothing was "
                            "signed."))
    elif seq is None:
        screen.say(screen.t("{Them} may now sign a claim that you abandoned the match at this point.",
                            Them=capitalised(screen.names[1])))
    else:
        screen.say(screen.t("{Them} may now sign a claim that you abandoned the match at message {seq} "
                            "(koikoi verify would report it so).", Them=capitalised(screen.names[1]),
                            seq=seq))


def _next_seq(match: MatchLike) -> int | None:
    """The number of the message we did not send in time (the opponent's claim names it)."""
    channel = getattr(getattr(match, "peer", None), "channel", None)
    seq = getattr(channel, "next_seq", None)
    return seq if isinstance(seq, int) else None


def _deadline(match: MatchLike, default: float) -> float:
    """Seconds the protocol will wait for the step now awaited (the agreed terms), if known."""
    peer = getattr(match, "peer", None)
    waiting_for = getattr(peer, "waiting_for", None)
    if callable(waiting_for):
        waiting = waiting_for()
        if isinstance(waiting, tuple) and len(waiting) == 3 and isinstance(waiting[2], int | float):
            return float(waiting[2])
    return default


def _awaited(match: object) -> object:
    """The wait now under way, (seat, message type) as the protocol names it (spec/game.md §7.1),
    or None when the match does not say: a countdown starts again when it changes."""
    peer = getattr(match, "peer", None)
    waiting_for = getattr(peer, "waiting_for", None)
    if callable(waiting_for):
        waiting = waiting_for()
        if isinstance(waiting, tuple) and len(waiting) == 3:
            return waiting[0], waiting[1]
    return None


def _wait_limit(match: MatchLike, default: float, me: int) -> float:
    """The seconds the countdown counts for the wait now under way: the protocol's deadline, or our
    own one (the margin less, as the prompt counts it) when we are the one awaited."""
    seconds = _deadline(match, default)
    awaited = _awaited(match)
    if isinstance(awaited, tuple) and awaited[0] == me and 1 <= seconds < NO_CLOCK_ABOVE:
        return max(1.0, seconds - OWN_MARGIN)
    return seconds


def _wait_since(match: MatchLike, me: int) -> float | None:
    """When the clock of the wait now under way started (``time.monotonic``), when the match counts
    it from earlier than now: our own, after a resume, from when its input was saved (the driver
    counts so; the other seat's wait starts again when we come back). None: from now."""
    awaited = _awaited(match)
    since = getattr(match, "waiting_since", None)
    if not (isinstance(awaited, tuple) and awaited[0] == me and callable(since)):
        return None
    at = since()
    return at if isinstance(at, float) else None


def _question_started(match: MatchLike) -> float:
    """When our clock for the question now asked started (``time.monotonic``): now, unless the
    match counts from earlier (a saved match counts from when the question's input was saved)."""
    started = getattr(match, "question_started", None)
    return started if isinstance(started, float) else time.monotonic()


def _own_deadline(match: MatchLike, asked: float, seconds: float | None = None) -> float | None:
    """When our own decision must be in (a ``time.monotonic`` time), or None without a clock.
    ``seconds``: the deadline of the decision asked, when the wait now awaited is another's."""
    if seconds is None:
        seconds = _deadline(match, 0.0)
    if not 1 <= seconds < NO_CLOCK_ABOVE:
        return None
    return asked + max(1.0, seconds - OWN_MARGIN)


def _waiting_label(screen: Screen, table: Table, match: object = None) -> str:
    """What the countdown says we wait for: the opponent deciding koi-koi, or just the opponent;
    while our relay does not answer, that (no claim runs out meanwhile, spec/protocol.md §12.4)."""
    from koikoi_p2p.rules.round import NeedAction

    relay_down = getattr(match, "relay_down", None)
    if callable(relay_down) and relay_down():
        return screen.t("The relay does not answer: trying again")

    view = table.last_view
    need = view.need if view is not None else None
    them = screen.names[1]
    awaited = _awaited(match) if match is not None else None
    if isinstance(awaited, tuple) and awaited[0] == table.me and awaited[1] in ("act", "accept"):
        # Our own decision, not yet asked (after a resume, while the relay pairs us again): its
        # clock runs, and it is ours, not theirs (review).
        return screen.t("Reaching {them} again: your clock runs", them=them)
    if isinstance(need, NeedAction) and need.seat != table.me:
        if need.kind == "decide":
            return screen.t("{Them} is deciding: koi-koi or stop", Them=capitalised(them))
        if need.kind == "capture":
            return screen.t("{Them} is choosing a card to take", Them=capitalised(them))
        if need.kind == "play":
            return screen.t("{Them} is choosing a card to play", Them=capitalised(them))
    return screen.t("Waiting for {them}", them=them)


def _show_interim(screen: Screen, table: Table) -> None:
    """Our own move's board, when the opponent's answer is slow to come (online)."""
    view, table.interim = table.interim, None
    if view is not None:
        _render(view, screen, table)


async def _handle(
    event: Event, match: MatchLike, screen: Screen, prompter: Prompter, table: Table
) -> int | None:
    from koikoi_p2p.protocol import events as ev

    name = screen.names
    if isinstance(event, ev.Paired):
        return await _paired(event, match, screen, prompter, table)
    if isinstance(event, ev.TermsProposed):  # the joiner decides before signing (spec/game.md §2.4)
        return await _proposed(event, match, screen, prompter, table)
    if isinstance(event, ev.TimeUp):  # our own deadline, as the library enforces it
        if not table.timed_out:
            table.timed_out = True
            _say_time_up(screen, event.seq, terms=event.expected == "accept")
        return None
    if isinstance(event, ev.TermsAgreed):
        _terms(event.profile, event.rounds, screen, table)
    elif isinstance(event, ev.FirstDealer):
        who = name[0] if event.dealer == table.me else name[1]
        screen.say(screen.t("First dealer: {who}.", who=who))
    elif isinstance(event, ev.RoundStarted):
        table.round_index = event.round_index
        table.last_view = None
        table.interim = None
        dealer = name[0] if event.dealer == table.me else name[1]
        screen.say("")
        screen.mark()
        screen.say(screen.style.bold(screen.t("--- Round {n} (deal {deal}), dealer: {who} ---",
                                              n=event.round_index, deal=event.deal, who=dealer)))
    elif isinstance(event, ev.Board | ev.OpponentMoved):
        # Every board from our decision on (the play, then our draw and what it took) is ours, and
        # the last of them is the one drawn while the opponent is awaited; their move ends it.
        own = table.own_move and isinstance(event, ev.Board)
        if not own:
            table.own_move = False
            table.interim = None
        _show_changes(event.view, screen, table, interim=own)
    elif isinstance(event, ev.YourTurn):
        table.own_move, table.interim = False, None
        asked = _question_started(match)
        _show_changes(event.view, screen, table, quiet=True)
        note = None
        if len(event.options) < len(hand_by_position(event.view)) and not table.told_compulsory:
            table.told_compulsory = True
            note = screen.t("Matching is compulsory under these rules: only the cards that capture are "
                            "offered.")
        choices = play_choices(event.view, event.options, screen)
        question = screen.t("Your turn: which card do you play?") + _time_left(match, screen, asked)
        action = await _ask(match, screen, prompter, table, event.view, question, choices,
                            screen.t(HELP["play"]) + "\n" + screen.t(LEGEND), asked, [note] if note else [])
        if action is not None:
            await _decide(match, action, table)
        else:
            return await _resign(match, screen, table)
    elif isinstance(event, ev.ChoiceNeeded):
        table.own_move, table.interim = False, None
        asked = _question_started(match)
        only = forced_choice(event.kind, event.options, event.view, screen)
        if only is None and event.kind == "capture" and interchangeable(event.options):
            first = event.options[0]
            only = first, screen.t("Both matching cards are plains of that month (worth the same): you take "
                                   "one, {card}.", card=card_label(getattr(first, "card", 0), screen.lang,
                                                                    screen.style))
        if only is not None:
            screen.say(only[1])
            await _decide(match, only[0], table)
            return None
        _show_changes(event.view, screen, table, quiet=True)
        before: list[str] = []
        if event.kind == "decide" and table.profile is not None:
            before = stakes(event.view, table.profile, table.me, screen.names[1], screen.lang)
        question, choices = decision_choices(event.kind, event.view, event.options, screen)
        question += _time_left(match, screen, asked)
        action = await _ask(match, screen, prompter, table, event.view, question, choices,
                            screen.t(HELP.get(event.kind, "")), asked, before)
        if action is not None:
            await _decide(match, action, table)
        else:
            return await _resign(match, screen, table)
    elif isinstance(event, ev.RoundOver):
        table.own_move, table.interim = False, None
        table.scores = event.scores
        _round_summary(event, screen, table)
    elif isinstance(event, ev.MatchOver):
        me, other = table.me, 1 - table.me
        if event.winner is None:
            verdict = screen.t("The match is a draw.")
        elif event.winner == me:
            verdict = screen.t("You win the match!")
        else:
            verdict = screen.t("{Them} wins the match.", Them=capitalised(name[1]))
        final = screen.t("=== Final score: {me} {mine} - {theirs} {them}. {verdict} ===", me=name[0],
                         mine=event.scores[me], theirs=event.scores[other], them=name[1], verdict=verdict)
        screen.say(screen.style.bold("\n" + final))
        resigned = getattr(event, "resigned", None)
        if resigned is not None:
            screen.say(screen.t("You resigned.") if resigned == me else
                       screen.t("{Them} resigned.", Them=capitalised(name[1])))
        if event.transcript_path:
            screen.say(screen.t("Transcript: {path}  (check it with: {koikoi} verify FILE)",
                                path=event.transcript_path, koikoi=own_command()))
        return exit_codes.OK
    elif isinstance(event, ev.Failure):
        if table.timed_out and event.reason == "own_timeout":
            return exit_codes.ERROR  # said already, with what the opponent may claim
        if event.reason == "terms_refused":
            screen.say(screen.t("You refused the proposed terms: nothing was signed."))
            return exit_codes.ERROR
        if table.password and not table.paired and failure_code(
                event.reason, event.who, table.me, event.evidence_path) == exit_codes.OPPONENT_LEFT:
            screen.say(screen.style.bold("\n" + screen.t(
                "Your opponent hung up during the handshake: most likely the passwords differ. Agree on it "
                "again and start a new room.")))
            return exit_codes.WRONG_PASSWORD
        return failure(event, screen, table.me)
    return None


async def _decide(match: MatchLike, action: Action, table: Table) -> None:
    table.mark_next = True
    table.own_move = True
    await match.decide(action)


async def _ask(match: MatchLike, screen: Screen, prompter: Prompter, table: Table, view: RoundView,
               question: str, choices: list[Choice[Action]], help_text: str, asked: float,
               before: list[str]) -> Action | None:
    """Draw the board in the room the question leaves, then ask; None means "resign"."""
    can_resign = getattr(match, "can_resign", None)
    offer_resign = callable(getattr(match, "resign", None)) and (
        not callable(can_resign) or bool(can_resign()))
    menu: list[Choice[Action | Resign]] = [Choice(c.key, c.label, c.value, c.aliases) for c in choices]
    if offer_resign:
        menu.append(Choice("r", screen.t("resign (the opponent wins the match)"), RESIGN,
                           (screen.t("resign"),)))
    room = None
    if screen.height is not None:
        asked_lines = sum(len(fold(line, screen.width)) for line in [*before, question])
        room = screen.height - screen.lines - asked_lines - prompter.menu(menu).count("\n") - 2
    _render(view, screen, table, budget=room, show_hand=False)
    for line in before:
        screen.say(line)
    deadline = _own_deadline(match, asked)
    while True:
        answer = await _choose(match, prompter.choose(question, menu, help_text, deadline=deadline))
        screen.mark()
        if not isinstance(answer, Resign):
            return answer
        sure = await _choose(match, prompter.choose(
            screen.t("Resign: the opponent wins the match. Are you sure?"), [
                Choice("y", screen.t("yes, resign"), True, (screen.t("yes"),)),
                Choice("n", screen.t("no, go back"), False, (screen.t("no"),))], deadline=deadline))
        if sure:
            return None


class MatchStopped(Exception):
    """The match ended while a question was on screen (e.g. the library's own deadline passed)."""


async def _choose(match: MatchLike, asking: Coroutine[object, object, T]) -> T:
    """The answer, unless the match says it stopped first (``match.stopped``, an asyncio.Event):
    then the question is taken back and MatchStopped raised, so the events that say why follow."""
    stopped = getattr(match, "stopped", None)
    if not isinstance(stopped, asyncio.Event):
        return await asyncio.ensure_future(asking)
    question = asyncio.ensure_future(asking)
    watch = asyncio.ensure_future(stopped.wait())
    try:
        await asyncio.wait({question, watch}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watch.cancel()
    if question.done():
        return question.result()
    question.cancel()
    await asyncio.gather(question, return_exceptions=True)
    raise MatchStopped


async def _resign(match: MatchLike, screen: Screen, table: Table) -> int | None:
    resign = getattr(match, "resign", None)
    assert callable(resign)
    await resign()
    screen.say(screen.t("You resigned; the result is being signed."))
    return None


async def _proposed(event: TermsProposed, match: MatchLike, screen: Screen, prompter: Prompter,
                    table: Table) -> int | None:
    """The host's proposal: shown whole, then accepted or refused by the person (or --accept)."""
    for line in terms_lines(event.terms, screen.lang, table.me):
        screen.say(line)
    if table.accept_terms:
        screen.say(screen.t("Accepted (--accept)."))
        accept = True
    else:
        # Within our own deadline for `accept`, the proposed terms' `turn` (spec/game.md §7.1): the
        # library stops taking the answer once it has passed, and the prompt stops with it. (Not
        # the wait now awaited: the host's keys may still be on their way, a `step` wait.)
        asked = _question_started(match)
        accept = await prompter.choose(screen.t("Accept these terms?"), accept_choices(screen.lang),
                                       deadline=_own_deadline(match, asked,
                                                              float(event.terms.deadlines.turn)))
        screen.mark()
    decide_terms = getattr(match, "decide_terms")  # noqa: B009
    await decide_terms(accept)
    return None


async def _paired(event: object, match: MatchLike, screen: Screen, prompter: Prompter,
                  table: Table) -> int | None:
    table.paired = True
    fingerprint = getattr(event, "peer_fingerprint", "")
    peer_name = getattr(event, "peer_name", "") or ""
    if table.practice:
        pass  # the computer's key is made afresh in this process: its fingerprint tells nothing
    elif peer_name:
        screen.say(screen.t("Opponent: {name}, key fingerprint {fp}", name=peer_name, fp=fingerprint))
    else:
        screen.say(screen.t("Opponent's key fingerprint: {fp}", fp=fingerprint))
    known = getattr(event, "known", False)
    if known == "changed":
        screen.say(screen.style.bold(screen.t(
            "WARNING: this opponent's key CHANGED since you last played this name. Someone may be in the "
            "middle, or your friend made a new key: ask them over another channel before going on.")))
        go_on = await prompter.choose(screen.t("Play on with the new key?"), [
            Choice("n", screen.t("no, stop here"), False, (screen.t("no"),)),
            Choice("y", screen.t("yes, my friend made a new key"), True, (screen.t("yes"),))])
        if not go_on:
            screen.say(screen.t("Stopped: the opponent's key changed."))
            return exit_codes.WRONG_PASSWORD
        confirm = getattr(match, "trust_new_key", None)
        if callable(confirm):
            confirm()
        screen.say(screen.t("The new key is remembered for this name."))
    elif known is True:
        screen.say(screen.t("Known opponent: the same key as last time."))
    sas = getattr(event, "sas", None)
    if sas is not None:
        screen.say(screen.style.bold(screen.t("Security code: {sas}", sas=sas)) + "  " +
                   screen.t("(compare with your opponent; if it differs, someone is in the middle: quit)"))
    return None


def _terms(profile: Profile, rounds: int, screen: Screen, table: Table) -> None:
    table.rounds = rounds or None
    table.profile = profile
    table.cup_is_plain = profile.cup_is_plain
    table.viewing = profile.viewing == "always"
    length = count(rounds, "round", screen.lang) if rounds else screen.t("to the target score")
    screen.say(screen.t("Rules: {rules}, {length}  (koikoi rules {name} lists them).",
                        rules=rules_name(profile, screen.lang), length=length, name=base_preset(profile)))
    for line in difference_lines(profile, screen.lang):
        screen.say("  " + line)
    # With a pool (koikoi-online, board-game) each seat starts with it and the loser pays.
    table.scores = (profile.pool_start, profile.pool_start)
    if profile.pool_start:
        n, lang = profile.pool_start, screen.lang
        if profile.bust_ends_game:
            said = ngettext_in(lang, "Each player starts with a pool of {n} point; the loser of a round "
                                     "pays the winner, and a player who runs out loses the match.",
                               "Each player starts with a pool of {n} points; the loser of a round "
                               "pays the winner, and a player who runs out loses the match.", n)
        else:
            said = ngettext_in(lang, "Each player starts with a pool of {n} point; the loser of a round "
                                     "pays the winner.",
                               "Each player starts with a pool of {n} points; the loser of a round "
                               "pays the winner.", n)
        screen.say(said.format(n=n))
    if profile.target_score:
        n = profile.target_score
        screen.say(ngettext_in(screen.lang, "The first player to reach {n} point wins.",
                               "The first player to reach {n} points wins.", n).format(n=n))
    screen.say(screen.t(LEGEND))


def failure(event: Failure, screen: Screen, me: int) -> int:
    """Say what went wrong in words a person can act on, and pick the exit code."""
    code = failure_code(event.reason, event.who, me, event.evidence_path)
    hints = {
        exit_codes.WRONG_PASSWORD: screen.t("Both of you give --password (or neither): start a new room.")
        if event.reason == "mode_mismatch" else screen.t(
            "The passwords differ (or someone in the middle guessed): agree on it again over another "
            "channel and start a new room."),
        exit_codes.OPPONENT_LEFT: screen.t("The opponent left or stopped answering."),
        exit_codes.OPPONENT_DEVIATED:
            screen.t("The opponent (or the relay) broke the protocol; the match is void."),
        exit_codes.RELAY_UNREACHABLE: screen.t("The relay could not be reached."),
    }
    stopped = screen.t("Match stopped: {what}.", what=reason_words(event, screen.lang))
    screen.say(screen.style.bold("\n" + stopped))
    if code in hints:
        screen.say(hints[code])
    if event.evidence_path:
        screen.say(screen.t("Evidence saved: {path}", path=event.evidence_path))
    return code


def reason_words(event: Failure, lang: str) -> str:
    from koikoi_p2p.cli.untrusted import safe

    # A failure's reason and message may be the relay's or the opponent's words: escaped.
    reason = safe(event.reason, 64)
    words = word(lang, event.reason)
    message = safe(event.message, 200) or reason
    if words != event.reason:  # named (cli/word_ids.py); the code stays in brackets for a bug report
        # (an error of this program keeps its own words too: they are what a bug report needs)
        return f"{words}: {message} ({reason})" if event.reason == "local_error" else f"{words} ({reason})"
    return message if message == reason else f"{message} ({reason})"


_LEFT_WORDS = ("left", "closed", "timeout", "timed_out", "abort", "gone", "disconnect")


def failure_code(reason: str, who: int | None, me: int, evidence: str | None) -> int:
    text = reason.lower()
    if text in ("own_timeout", "terms_refused"):
        return exit_codes.ERROR  # our own doing: our time ran out, we refused the terms
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


def _time_left(match: MatchLike, screen: Screen, asked: float | None = None) -> str:
    """A reminder of the time for a decision (the opponent stops waiting after it): the agreed
    time for a question asked now; what is left of it for one whose clock started earlier (a
    resumed match, or a question that came while a round's summary was read; terminal QA: the
    prompt said the full time while less was left)."""
    seconds = _deadline(match, 0.0)
    # Long deadlines (practice against the computer) need no reminder.
    if not 1 <= seconds < NO_CLOCK_ABOVE:
        return ""
    own = None if asked is None else _own_deadline(match, asked)
    if own is not None and asked is not None and time.monotonic() - asked >= LATE_QUESTION:
        left = max(0, int(own - time.monotonic()))
        return screen.t(" (you have {n} left)", n=count(left, "second", screen.lang))
    return screen.t(" (you have {n})", n=count(int(seconds), "second", screen.lang))


# -- view helpers (the only place that knows the engine's view fields) ------------------------


def board_model(
    view: RoundView, table: Table, names: tuple[str, str], width: int | None = None, *,
    layout: str = "wide", budget: int | None = None, show_hand: bool = True,
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
        layout=layout,
        budget=budget,
        show_hand=show_hand or layout == "wide",
    )


def _show_changes(
    view: RoundView, screen: Screen, table: Table, *, quiet: bool = False, interim: bool = False
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
    for seat, line in narrate(before, view, table.me, screen.names, screen.lang, screen.style):
        if table.mark_next and seat != table.me:
            # The opponent's move: from here to the next question must fit one 80x24 screen.
            table.mark_next = False
            screen.mark()
        screen.say(line)
    if interim:
        table.interim = view  # drawn only if the opponent is slow to answer
    if len(view.calls) > len(before.calls) and view.calls[-1] != table.me and table.profile is not None:
        screen.say(after_their_call(table.profile, len(view.calls), screen.lang))


def _dealing(view: RoundView) -> bool:
    """The deal is still being revealed (my hand not yet known, nothing played)."""
    return view.stock_count == 24 and not view.piles[0] and not view.piles[1] and not any(
        c >= 0 for c in view.hand)


def _render(view: RoundView, screen: Screen, table: Table, *, budget: int | None = None,
            show_hand: bool = True) -> None:
    """The whole board, unless it would repeat the one just shown."""
    key = (view.round_index, view.field, view.hand, view.piles, view.stock_count, view.calls, table.scores,
           view.opponent_hand_size)
    if key == table.last_board:
        return
    table.last_board = key
    table.mark_next = True
    layout = screen.layout
    model = board_model(view, table, screen.names, screen.width, layout=layout, budget=budget,
                        show_hand=show_hand)
    screen.say(render_board(model, screen.lang, screen.style))


def _round_summary(event: RoundOver, screen: Screen, table: Table) -> None:
    view = table.last_view if table.last_view is not None and (
        table.last_view.round_index == event.round_index) else None
    piles: tuple[Sequence[int], Sequence[int]] | None = ((view.piles[0], view.piles[1]) if view is not None
                                                         else ((), ()))
    if view is None and (table.last_view is None or event.round_index != table.round_index):
        # Shown again after a resume: no board of the round is known (a replay shows none), or the
        # next round began and took its piles; either way they are not known, so none are listed.
        piles = None
    screen.say("")
    for line in summary_lines(round_index=event.round_index, result=event.result, scores=event.scores,
                              me=table.me, names=screen.names, lang=screen.lang, style=screen.style,
                              piles=piles, profile=table.profile,
                              month=view.month if view is not None else None, width=screen.width):
        screen.say(line)
    if event.transcript_path:
        table.transcripts.append(event.transcript_path)
        screen.say(screen.t("Transcript: {path}", path=event.transcript_path))


def _terminal_size(stream: TextIO) -> os.terminal_size:
    """The terminal's own size (the window the person sees), else $COLUMNS/$LINES, else 80x24."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return shutil.get_terminal_size((80, 24))
    if size.columns < 20 or size.lines < 5:  # a terminal that reports no size (0x0): assume 80x24
        return shutil.get_terminal_size((80, 24))
    return size


def make_screen(lang: str, names: tuple[str, str] | str = "opponent", out: TextIO | None = None,
                colour: Callable[[TextIO], bool] | None = None) -> Screen:
    """A screen on ``out`` (standard output); ``names`` is the opponent's kind ("computer",
    "opponent") or an explicit pair."""
    from koikoi_p2p.cli.style import wants_colour

    stream = out if out is not None else sys.stdout
    decide = colour if colour is not None else wants_colour
    live = bool(getattr(stream, "isatty", lambda: False)())
    size = _terminal_size(stream) if live else None
    pair = side_names(lang, names) if isinstance(names, str) else names
    return Screen(out=stream, lang=lang, style=Style(decide(stream)), live=live, names=pair,
                  width=size.columns if size else None, height=size.lines if size else None)

