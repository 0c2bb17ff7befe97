"""The terminal driver against a stand-in match made of the rules engine: every event is shown,
every prompt offers exactly the legal actions, and the match runs to its final score."""

from __future__ import annotations

import asyncio
import io
import random
import re
from collections.abc import AsyncIterator

from koikoi_p2p.ai.strong import StrongPlayer
from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.play import ROUND_END, Screen, decision_choices, drive, play_choices
from koikoi_p2p.cli.prompt import Choice, LineSource
from koikoi_p2p.cli.style import Style
from koikoi_p2p.protocol import events as ev
from koikoi_p2p.rules.actions import Action, Capture, KoiKoi, NoHandYaku, Play, Stop
from koikoi_p2p.rules.profile import preset
from koikoi_p2p.rules.round import NeedAction, NeedReveal, RoundState, RoundView
from koikoi_p2p.rules.simulate import play_round

PROFILE = preset("nintendo")


class EngineMatch:
    """Seat 0 is the person at the terminal, seat 1 the strong player; one round, cards known."""

    def __init__(self, seed: int, *, slow: float = 0.0, slow_reply: float = 0.0) -> None:
        self.slow = slow  # seconds the opponent's share for our draw takes (an online opponent)
        self.slow_reply = slow_reply  # seconds the opponent thinks before each of its plays
        self.rng = random.Random(seed)
        self.answer: asyncio.Queue[Action] = asyncio.Queue()
        self.offered: list[tuple[Action, ...]] = []
        self.moves: list[Action] = []  # the computer's
        self.typed_plays: list[Action] = []  # the person's
        self.reason = ""

    async def decide(self, action: Action) -> None:
        await self.answer.put(action)

    async def events(self) -> AsyncIterator[ev.Event]:
        yield ev.Paired(peer_fingerprint="abcd-efgh", sas="apple banana cherry", known=False)
        yield ev.TermsAgreed(profile=PROFILE, rounds=1, terms_digest=b"\0" * 32)
        yield ev.RoundStarted(round_index=1, deal=1, dealer=0, month=1)
        state = RoundState(profile=PROFILE, dealer=0, viewer=None, round_index=1, month=1)
        deck = list(range(48))
        self.rng.shuffle(deck)
        computer = StrongPlayer(PROFILE, seed=1)
        shown = False
        while state.result is None:
            need = state.need
            if isinstance(need, NeedReveal):
                if self.slow and need.positions[0] >= 24 and state.turn == 0:
                    await asyncio.sleep(self.slow)  # our draw waits for the opponent's share
                for p in need.positions:
                    state.reveal(p, deck[p])
                yield ev.Board(view=state.view(0))  # as the protocol does after every reveal
                continue
            assert isinstance(need, NeedAction)
            options = state.legal_actions()
            if need.seat == 1:
                if self.slow_reply and need.kind == "play":
                    await asyncio.sleep(self.slow_reply)
                action = computer.choose(state.view(1), options)
                state.apply(1, action)
                self.moves.append(action)
                yield ev.OpponentMoved(action=action, view=state.view(0))
                continue
            if not shown:
                shown = True
                yield ev.Board(view=state.view(0))
            self.offered.append(options)
            if need.kind == "play":
                yield ev.YourTurn(view=state.view(0), options=options)
            else:
                yield ev.ChoiceNeeded(kind=need.kind, view=state.view(0), options=options)
            action = await self.answer.get()
            assert action in options
            self.typed_plays.append(action)
            state.apply(0, action)
        result = state.result
        self.reason = result.reason
        scores = (result.points, 0) if result.winner == 0 else (0, result.points)
        yield ev.RoundOver(round_index=1, result=result, scores=scores, transcript_path="/t/round1.koikoi")
        yield ev.MatchOver(scores=scores, winner=result.winner, result=b"", transcript_path="/t/match.koikoi")


class Typist(LineSource):
    """Answers each prompt with the first key of the menu it was just shown, after one '?'."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.typed: list[str] = []

    async def readline(self) -> str:
        if not self.typed:
            self.typed.append("?")
            return "?"
        menu = self.out.getvalue().rsplit("\n> ", 1)[0].rsplit("\n", 1)[-1]
        key = menu.split("[", 1)[1].split("]", 1)[0]
        self.typed.append(key)
        return key


def test_a_whole_round_through_the_terminal_driver() -> None:
    for seed in (1, 2, 3):
        out = io.StringIO()
        screen = Screen(out=out, lang="en", style=Style(False), live=False, names=("you", "computer"))
        match = EngineMatch(seed)
        typist = Typist(out)
        code = asyncio.run(drive(match, screen, typist, me=0, timeout=5))
        text = out.getvalue()
        assert code == exit_codes.OK, text[-1500:]
        assert "Security code: apple banana cherry" in text
        assert "Opponent's key fingerprint: abcd-efgh" in text
        assert "Type the key in brackets" in text  # the help answered '?'
        assert "* bright, A animal, R ribbon" in text  # the legend, at the start and in help
        assert "=== Final score: you" in text
        assert "Rules: nintendo, 1 round  (koikoi rules nintendo lists them)." in text
        assert "Round 1 over:" in text and "[" + ROUND_END[match.reason] + "]" in text
        assert "Transcript: /t/round1.koikoi" in text
        assert any(isinstance(o[0], Play) for o in match.offered)
        # Every play and every draw is told once, with who made it.
        lines = [line.removeprefix("> ") for line in text.splitlines()]  # typed answers are not echoed
        mine = sum(1 for line in lines if line.startswith("You play "))
        theirs = sum(1 for line in lines if line.startswith("Computer plays "))
        draws = sum(1 for line in lines if line.startswith(("You draw ", "Computer draws ")))
        assert theirs == sum(1 for a in match.moves if isinstance(a, Play))
        assert mine == sum(1 for a in match.typed_plays if isinstance(a, Play))
        assert draws == mine + theirs
        assert not any(line.endswith(" take .") or line.endswith(" takes .") for line in lines)


def _view() -> tuple[RoundState, RoundView]:
    state = RoundState(profile=PROFILE, dealer=0, viewer=None, round_index=1, month=1)
    deck = list(range(48))
    random.Random(9).shuffle(deck)
    while isinstance(state.need, NeedReveal):
        for p in state.need.positions:
            state.reveal(p, deck[p])
    return state, state.view(0)


def test_play_prompt_lists_exactly_the_legal_plays() -> None:
    _state, view = _view()
    screen = Screen(out=io.StringIO(), lang="en", style=Style(False), live=False)
    # Offer only two of the eight hand positions (as a compulsory-capture profile might).
    options = (Play(view.hand_positions[5]), Play(view.hand_positions[2]))
    choices = play_choices(view, options, screen)
    assert {c.value for c in choices} == set(options)
    assert [c.key for c in choices] == ["a", "b"]  # letters: a card's label starts with its month number
    full = play_choices(view, tuple(Play(p) for p in view.hand_positions), screen)
    assert len(full) == 8 and all(isinstance(c, Choice) for c in full)


def test_decision_prompts() -> None:
    _, view = _view()
    screen = Screen(out=io.StringIO(), lang="en", style=Style(False), live=False)
    question, choices = decision_choices("decide", view, (Stop(),), screen)
    assert [c.key for c in choices] == ["s"] and "koi-koi" in question  # last turn: stop only
    _, choices = decision_choices("decide", view, (Stop(), KoiKoi()), screen)
    assert [c.key for c in choices] == ["s", "k"]
    _, choices = decision_choices("capture", view, (Capture(0), Capture(1)), screen)
    assert [c.key for c in choices] == ["a", "b"] and "Crane" in choices[0].label


def test_decide_prompt_says_what_stopping_scores_and_what_a_call_risks() -> None:
    from dataclasses import replace

    from koikoi_p2p.cli.narrate import stakes

    _, view = _view()
    view = replace(view, yaku=({"inoshikacho": 5, "tane": 1, "akatan": 5}, {}), calls=())
    nintendo = stakes(view, PROFILE, 0, "computer")
    assert nintendo[0] == "Stop now: you score 22 points (base 11 x2)."
    assert "ends as soon as either of you makes or raises a yaku" in nintendo[1]
    assert "if the computer wins it instead, the computer's score is doubled" in nintendo[1], nintendo[1]
    assert "nobody scores" in nintendo[1]
    assert "if Bob wins it instead, Bob's score is doubled" in stakes(view, PROFILE, 0, "Bob")[1]
    online = stakes(replace(view, calls=(1, 0)), preset("koikoi-online"), 0, "computer")
    assert online[0] == "Stop now: you score 66 points (base 11 x6)."  # 11 x2 (8+) x3 (calls)
    assert "until someone stops" in online[1]
    classic = stakes(replace(view, yaku=({"tan": 1}, {})), preset("classic-variant"), 0, "computer")
    assert classic[0] == "Stop now: you score 1 point."
    assert "last caller scores" in classic[1]
    assert len(nintendo) == 2 and view.hand
    # With no card left the prompt says a call cannot bring another yaku (terminal QA), in Japanese too.
    empty = stakes(replace(view, hand=(), hand_positions=()), PROFILE, 0, "computer")
    assert empty[2] == "You have no cards left: a call cannot bring you another yaku."
    ja = stakes(replace(view, hand=(), hand_positions=()), PROFILE, 0, "computer", "ja")
    assert len(ja) == 3 and "You have" not in ja[2]


def test_pool_rules_show_the_pools_from_the_start() -> None:
    """Under a pool profile the board starts at 25 - 25, not 0 - 0, and the pool rule is said."""
    _, view = _view()

    class PoolMatch:
        async def decide(self, action: Action) -> None:
            raise AssertionError("no decision expected")

        async def events(self) -> AsyncIterator[ev.Event]:
            yield ev.TermsAgreed(profile=preset("koikoi-online"), rounds=1, terms_digest=b"\0" * 32)
            yield ev.RoundStarted(round_index=1, deal=1, dealer=0, month=1)
            yield ev.Board(view=view)
            yield ev.MatchOver(scores=(25, 25), winner=None, result=b"")

    out = io.StringIO()
    screen = Screen(out=out, lang="en", style=Style(False), live=False, names=("you", "computer"))
    code = asyncio.run(drive(PoolMatch(), screen, Typist(out), me=0, timeout=5))
    text = out.getvalue()
    assert code == exit_codes.OK
    assert "score: you 25 - 25 computer" in text
    assert "starts with a pool of 25 points" in text and "runs out loses the match" in text


def _teshi_view() -> tuple[RoundView, tuple[Action, ...]]:
    """Seat 0 deals itself all four January cards (positions 4, 5, 10, 11)."""
    rest = [c for c in range(48) if c >= 4]
    january = dict(zip((4, 5, 10, 11), (0, 1, 2, 3), strict=True))
    deck = [january[p] if p in january else rest.pop(0) for p in range(48)]
    state = RoundState(profile=PROFILE, dealer=0, viewer=None, round_index=1, month=1)
    while isinstance(state.need, NeedReveal):
        for p in state.need.positions:
            state.reveal(p, deck[p])
    return state.view(0), state.legal_actions()


def test_a_compulsory_hand_yaku_claim_is_said_as_a_claim() -> None:
    """The only legal answer is the claim: it is made for the player and said (it read 'No hand yaku')."""
    view, options = _teshi_view()
    assert len(options) == 1

    class ClaimMatch:
        def __init__(self) -> None:
            self.decided: list[Action] = []

        async def decide(self, action: Action) -> None:
            self.decided.append(action)

        async def events(self) -> AsyncIterator[ev.Event]:
            yield ev.TermsAgreed(profile=PROFILE, rounds=1, terms_digest=b"\0" * 32)
            yield ev.ChoiceNeeded(kind="hand_yaku", view=view, options=options)
            yield ev.MatchOver(scores=(6, 0), winner=0, result=b"")

    out = io.StringIO()
    screen = Screen(out=out, lang="en", style=Style(False), live=False, names=("you", "computer"))
    match = ClaimMatch()
    assert asyncio.run(drive(match, screen, Typist(out), me=0, timeout=5)) == exit_codes.OK
    text = out.getvalue()
    assert match.decided == list(options)
    assert "No hand yaku" not in text
    assert "Your dealt hand makes teshi: 01* Crane and Sun, 01R Pine Poetry Ribbon, 01. Pine Plain" in text


def test_the_capture_question_names_the_card_that_matches() -> None:
    from dataclasses import replace

    _, view = _view()
    screen = Screen(out=io.StringIO(), lang="en", style=Style(False), live=False)
    pending = replace(view, pending_card=44, capture_options=(45, 46))
    question, choices = decision_choices("capture", pending, (Capture(45), Capture(46)), screen)
    assert question == "Two field cards match your 12* Phoenix: which do you take?"
    assert [c.key for c in choices] == ["a", "b"]


def test_the_opponents_call_is_explained_under_each_multiplier() -> None:
    from koikoi_p2p.cli.narrate import after_their_call

    assert after_their_call(PROFILE, 1, "en") == (
        "Their koi-koi: if you win this round, your score is doubled; "
                                            "the next yaku either of you makes or raises ends the round.")
    assert "multiplied by 3" in after_their_call(preset("koikoi-online"), 2)
    assert "beating them adds nothing" in after_their_call(preset("board-game"), 1)
    assert "until someone stops" in after_their_call(preset("classic-variant"), 1)


def test_our_own_move_is_on_the_board_before_a_slow_opponent_answers() -> None:
    """Online the draw after our play waits for the opponent: the board with our move is drawn
    while we wait (in practice, where the answer is immediate, it is not repeated)."""
    out = io.StringIO()
    screen = Screen(out=out, lang="en", style=Style(False), live=False, names=("you", "opponent"))
    match = EngineMatch(2, slow=0.6)
    assert asyncio.run(drive(match, screen, Typist(out), me=0, timeout=30)) == exit_codes.OK
    text = out.getvalue()
    first = text.index("You play ")
    waiting = text.index("Waiting for opponent", first)
    # Between our play and the wait, the whole board as our move left it.
    assert "Field: " in text[first:waiting] and "Your captures" in text[first:waiting]

    quick = io.StringIO()
    screen = Screen(out=quick, lang="en", style=Style(False), live=False, names=("you", "computer"))
    assert asyncio.run(drive(EngineMatch(2), screen, Typist(quick), me=0, timeout=30)) == exit_codes.OK
    played = quick.getvalue().index("You play ")
    assert "Waiting for" not in quick.getvalue()[played:played + 2000]


def test_the_board_drawn_while_waiting_includes_our_draw() -> None:
    """Issue 29 item 2: online, our draw waits for the opponent's share and the opponent then thinks.
    After "You draw 10. Maple Plain and take 10. Maple Plain." the board drawn while waiting was
    the one from before the draw: that card still on the field, neither card in our pile."""
    import re

    checked = 0
    for seed in (1, 2, 3):
        out = io.StringIO()
        screen = Screen(out=out, lang="en", style=Style(False), live=False, names=("you", "opponent"))
        match = EngineMatch(seed, slow=0.5, slow_reply=0.5)
        assert asyncio.run(drive(match, screen, Typist(out), me=0, timeout=30)) == exit_codes.OK
        text = out.getvalue()
        for drew in re.finditer(r"You draw (\d\d\S) [^\n]*?(?:and take (\d\d\S) |(goes to the field))", text):
            after = text[drew.end():]
            if "Opponent plays" not in after:
                continue  # the round's last draw
            shown = after[:after.index("Opponent plays")]
            if "Field: " not in shown:
                continue  # a question followed at once (a capture choice): asked with its own board
            field = shown.rsplit("Field: ", 1)[1].split("\n", 1)[0]
            mine = shown.rsplit("Your captures", 1)[1].split("Opponent", 1)[0]
            drawn, taken = drew.group(1), drew.group(2)
            if taken:
                assert drawn in mine and taken in mine and taken not in field, (seed, drew.group(0), shown)
            else:
                assert drawn in field, (seed, drew.group(0), shown)
            checked += 1
    assert checked >= 3


def test_the_wait_says_what_the_opponent_is_deciding() -> None:
    from dataclasses import replace

    from koikoi_p2p.cli.play import Table, _waiting_label
    from koikoi_p2p.rules.round import NeedAction

    _, view = _view()
    screen = Screen(out=io.StringIO(), lang="en", style=Style(False), live=False, names=("you", "opponent"))
    table = Table(me=0, last_view=replace(view, need=NeedAction(seat=1, kind="decide")))
    assert _waiting_label(screen, table) == "Opponent is deciding: koi-koi or stop"
    table.last_view = replace(view, need=NeedAction(seat=1, kind="play"))
    assert _waiting_label(screen, table) == "Opponent is choosing a card to play"
    screen.lang = "ja"
    table.last_view = replace(view, need=NeedAction(seat=1, kind="decide"))
    screen.names = ("あなた", "相手")
    assert _waiting_label(screen, table) == "相手が考え中: こいこいか勝負か"


def test_the_round_summary_shows_each_yakus_cards_and_both_piles() -> None:
    from koikoi_p2p.cli.summary import summary_lines, yaku_cards
    from koikoi_p2p.rules.cards import card
    from koikoi_p2p.rules.round import RoundResult

    ids = ["01-crane", "03-curtain", "08-moon", "09-cup", "07-boar", "10-deer", "06-butterflies", "01-plain1"]
    mine = [card(i).index for i in ids]
    theirs = [card(i).index for i in ("12-phoenix", "02-poetry", "12-plain1")]
    assert yaku_cards("sanko", mine, PROFILE) == tuple(sorted(card(i).index for i in ids[:3]))
    assert yaku_cards("inoshikacho", mine, preset("wikipedia")) == tuple(sorted(mine[4:7]))
    assert yaku_cards("hanami", mine, PROFILE) == (card("03-curtain").index, card("09-cup").index)
    result = RoundResult(winner=0, points=30, yaku={"sanko": 5, "hanami": 5, "tsukimi": 5, "inoshikacho": 5},
                         base=20, calls=(), redeal=False, next_dealer=0, reason="stop")
    lines = summary_lines(round_index=2, result=result, scores=(30, 0), me=0, names=("you", "computer"),
                          lang="en", style=Style(False), piles=(mine, theirs), profile=PROFILE, month=2,
                          width=80)
    text = "\n".join(lines)
    assert "Round 2 over: You won the round: 30 points (base 20 x1). [stopped (shobu)]" in text
    assert "  sanko 5: 01* Crane and Sun, 03* Cherry Curtain, 08* Full Moon" in text
    assert "  hanami 5: 03* Cherry Curtain, 09A Sake Cup" in text
    assert "Your pile (8 cards): 01* 03* 08* 06A 07A 09A 10A 01." in text
    assert "Computer's pile (3 cards): 12* 02R 12." in text
    ja = "\n".join(summary_lines(round_index=2, result=result, scores=(30, 0), me=0, names=("あなた", "相手"),
                                 lang="ja", style=Style(False), piles=(mine, theirs), profile=PROFILE,
                                 month=2, width=80))
    assert "三光 5: 01* 松に鶴" in ja and "猪鹿蝶 5" in ja and "相手の取り札 (3枚)" in ja


def test_a_question_whose_clock_started_earlier_says_the_time_left() -> None:
    """Terminal QA: a resumed match's question, or one that came while a round's summary was read,
    said "(you have 60 seconds)" while less was left; it now says what is left."""
    import time
    from types import SimpleNamespace

    from koikoi_p2p.cli.play import OWN_MARGIN, _time_left

    screen = Screen(out=io.StringIO(), lang="en", style=Style(False), live=False, names=("you", "Bob"))
    match = SimpleNamespace(peer=SimpleNamespace(waiting_for=lambda: (1, "play", 60.0)))
    now = time.monotonic()
    assert _time_left(match, screen, now) == " (you have 60 seconds)"
    late = _time_left(match, screen, now - 20)
    left = int(60 - OWN_MARGIN - 20)
    assert late in (f" (you have {left} seconds left)", f" (you have {left - 1} seconds left)"), late
    assert _time_left(match, screen, now - 500) == " (you have 0 seconds left)"
    ja = Screen(out=io.StringIO(), lang="ja", style=Style(False), live=False, names=("you", "Bob"))
    assert "left" not in _time_left(match, ja, now - 20) and "秒" in _time_left(match, ja, now - 20)
    # Practice against the computer has no clock to remind of.
    assert _time_left(SimpleNamespace(peer=SimpleNamespace(waiting_for=lambda: (1, "play", 3600.0))),
                      screen, now - 20) == ""


def test_a_round_won_with_koikoi_japans_call_points_does_not_say_x1() -> None:
    """Terminal QA: under koikoi-japan the winner's own calls add points (spec/rules.md §7.5), and
    the summary said "6 points (base 4 x1)"; it now says the calls' points are in the score."""
    from koikoi_p2p.cli.summary import summary_lines
    from koikoi_p2p.rules.round import RoundResult
    from koikoi_p2p.rules.scoring import round_score

    japan = preset("koikoi-japan")
    points = round_score(4, (1, 1), 1, japan)
    assert points == 6
    result = RoundResult(winner=1, points=points, yaku={"tan": 4}, base=4, calls=(1, 1), redeal=False,
                         next_dealer=1, reason="stop")
    said_en = "Computer won the round: 6 points (base 4, with the points of the winner's koi-koi calls)"
    for lang, said, wrong in (("en", said_en, "x1"), ("ja", "6点", "1倍")):
        text = "\n".join(summary_lines(round_index=1, result=result, scores=(24, 36), me=0,
                                       names=("you", "computer"), lang=lang, style=Style(False),
                                       piles=((), ()), profile=japan, month=1, width=200))
        assert said in text and wrong not in text, text


def _dealt(round_index: int, seed: int) -> RoundState:
    """A round of the rules engine with every card revealed as far as the next decision."""
    state = RoundState(profile=PROFILE, dealer=0, viewer=None, round_index=round_index, month=round_index)
    deck = list(range(48))
    random.Random(seed).shuffle(deck)
    while isinstance(state.need, NeedReveal) or (state.need is not None and state.need.kind == "hand_yaku"):
        need = state.need
        if isinstance(need, NeedReveal):
            for p in need.positions:
                state.reveal(p, deck[p])
        else:   # a dealt-hand yaku is not claimed
            state.apply(need.seat, next(a for a in state.legal_actions() if isinstance(a, NoHandYaku)))
    return state


def _played_out(seed: int) -> RoundState:
    """A whole round of the rules engine, both seats played by the strong player."""
    state = _dealt(1, seed)
    deck = list(range(48))
    random.Random(seed).shuffle(deck)
    players = (StrongPlayer(PROFILE, seed=0), StrongPlayer(PROFILE, seed=1))

    def strong(at: RoundState, options: tuple[Action, ...]) -> Action:
        assert isinstance(at.need, NeedAction)
        return players[at.need.seat].choose(at.view(at.need.seat), options)

    play_round(state, deck, strong)
    return state


class EnterLater(LineSource):
    """A person at a terminal: Enter once the screen says the next question is waiting, then the
    first key of the question's menu."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.entered = 0

    def is_terminal(self) -> bool:
        return True

    async def readline(self) -> str:
        for _ in range(500):
            text = self.out.getvalue()
            if "press Enter." in text.rsplit("Press Enter to go on.", 1)[-1] and self.entered < text.count(
                    "Press Enter to go on."):
                self.entered += 1
                return ""
            lines = text.rstrip(" ").rsplit("\n", 2)
            menu = re.search(r"\[(\w+)\] ", lines[1]) if len(lines) == 3 else None
            if text.rstrip(" ").endswith(">") and menu is not None:
                return menu.group(1)
            await asyncio.sleep(0.02)
        return ""


def test_a_summary_held_when_the_match_stopped_is_shown_again_after_a_resume() -> None:
    """Terminal QA: a match stopped while its round summary was held (the next question already
    pending) resumed with only "The next question is waiting and its clock runs: press Enter."; the
    summary comes first again (without the piles: the next round has begun). A summary followed by
    an answered question in the saved log is not shown again, nor held."""
    from types import SimpleNamespace

    from koikoi_p2p.cli.online import SavedMatch

    result = _played_out(3).result
    assert result is not None
    scores = (result.points, 0) if result.winner == 0 else (0, result.points)
    turn = next(state for state in map(lambda seed: _dealt(2, seed), range(4, 40))
                if isinstance(state.need, NeedAction) and state.need.seat == 0 and state.need.kind == "play")
    question = ev.YourTurn(view=turn.view(0), options=turn.legal_actions())

    async def resumed(answered: int) -> str:
        out = io.StringIO()
        screen = Screen(out=out, lang="en", style=Style(False), live=True, names=("you", "Bob"))
        match = SavedMatch(screen)
        # What run_peer replays of the saved log: the terms, the last round's result, the next
        # round's start and board, the questions of that round (the last one still pending).
        replayed: tuple[ev.Event, ...] = (
            ev.TermsAgreed(profile=PROFILE, rounds=2, terms_digest=b"\0" * 32),
            ev.RoundOver(round_index=1, result=result, scores=scores),
            ev.RoundStarted(round_index=2, deal=2, dealer=turn.dealer, month=2),
            ev.Board(view=turn.view(0)), *[question] * (answered + 1))
        for event in replayed:
            match.on_event(event, True)
        peer = SimpleNamespace(waiting_for=lambda: (0, "act", 60), can_resign=lambda: False)
        match.progress("playing", SimpleNamespace(pending=question, peer=peer))  # type: ignore[arg-type]
        asked = asyncio.ensure_future(match.ask(question))
        driven = asyncio.ensure_future(drive(match, screen, EnterLater(out), me=0, timeout=60))
        await asyncio.wait_for(asked, 20)
        match._queue.put_nowait(None)
        await asyncio.wait_for(driven, 20)
        return out.getvalue()

    text = asyncio.run(resumed(0))
    summary = text.find("Round 1 over: ")
    assert summary >= 0 and text.count("Round 1 over: ") == 1, text
    waiting = text.find("The next question is waiting and its clock runs: press Enter.")
    assert summary < text.find("Press Enter to go on.") < waiting, text
    assert "Scores: you " in text[summary:waiting] and "pile (" not in text, text
    assert "Your turn: which card do you play?" in text[waiting:], text
    later = asyncio.run(resumed(1))   # a question of round 2 was answered before the stop
    assert "Round 1 over" not in later and "press Enter" not in later.lower(), later
    assert "Your turn: which card do you play?" in later, later


def test_the_countdown_of_a_resumed_own_wait_shows_the_time_left() -> None:
    """Terminal QA: after a resume, while the relay paired us again, the countdown of our own
    pending question started again at the full time, though the driver counts it from when its
    input was saved (and the prompt then said less). The other seat's wait starts afresh."""
    import time
    from types import SimpleNamespace

    from koikoi_p2p.cli.play import OWN_MARGIN

    class Resumed:
        def __init__(self, seat: int) -> None:
            self.peer = SimpleNamespace(waiting_for=lambda: (seat, "act", 60))

        def waiting_since(self) -> float:
            return time.monotonic() - 30   # the question's input was saved 30 s ago

        async def decide(self, action: Action) -> None:
            raise AssertionError("nothing is asked")

        async def events(self) -> AsyncIterator[ev.Event]:
            await asyncio.sleep(0.6)   # the relay pairs us again: the countdown shows
            nothing: tuple[ev.Event, ...] = ()
            for event in nothing:
                yield event

    def waited(seat: int) -> str:
        out = io.StringIO()
        screen = Screen(out=out, lang="en", style=Style(False), live=False, names=("you", "Bob"))
        assert asyncio.run(drive(Resumed(seat), screen, Typist(out), me=0, timeout=60)) == \
            exit_codes.OPPONENT_LEFT
        return out.getvalue()

    left = int(60 - OWN_MARGIN - 30)
    own = waited(0)
    assert (f"Reaching Bob again: your clock runs ({left}s)..." in own
            or f"Reaching Bob again: your clock runs ({left - 1}s)..." in own), own
    assert "Waiting for Bob (60s)..." in waited(1)


def test_a_summary_shown_again_with_no_board_of_its_round_lists_no_piles() -> None:
    """Review: a summary replayed after a resume, with the saved log stopped between the round's
    result and the next round's start, listed both piles as empty ("Your pile (0 cards): -"); no
    board of the round is known then, so it lists none."""
    from koikoi_p2p.cli.play import Table, _round_summary

    result = _played_out(3).result
    assert result is not None
    scores = (result.points, 0) if result.winner == 0 else (0, result.points)
    out = io.StringIO()
    screen = Screen(out=out, lang="en", style=Style(False), live=True, names=("you", "Bob"))
    table = Table(me=0, round_index=1, profile=PROFILE)
    _round_summary(ev.RoundOver(round_index=1, result=result, scores=scores), screen, table)
    text = out.getvalue()
    assert "Round 1 over: " in text and "pile (" not in text, text
