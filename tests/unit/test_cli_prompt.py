"""Prompts accept only the legal choices, answer '?' with help, and stop cleanly at end of input."""

from __future__ import annotations

import asyncio
import io

import pytest

from koikoi_p2p.cli.countdown import with_countdown
from koikoi_p2p.cli.prompt import Choice, InputClosed, Prompter, ScriptedLines, StdinLines, match_choice

CHOICES = [Choice("1", "Crane and Sun", "a"), Choice("2", "Cherry Curtain", "b"), Choice("k", "koi-koi", "c")]


def run(lines: list[str]) -> tuple[str, str]:
    out: list[str] = []
    prompter = Prompter(ScriptedLines(lines), out.append)
    value = asyncio.run(prompter.choose("Which card?", CHOICES, "Play a card from your hand."))
    return value, "".join(out)


def test_key_selects() -> None:
    assert run(["2"])[0] == "b"


def test_illegal_answers_are_refused_until_a_legal_one() -> None:
    value, text = run(["7", "", "x", "k"])  # 7: no such key, and places are not keys
    assert value == "c"
    assert text.count("is not one of the choices") == 2  # "7" and "x"; the empty line re-asks
    assert text.count("Which card?") == 4


def test_help_at_the_prompt_lists_only_legal_choices() -> None:
    value, text = run(["?", "1"])
    assert value == "a"
    assert "Play a card from your hand." in text
    assert "Only the choices listed are legal" in text
    assert "Crane and Sun" in text and "koi-koi" in text


def test_label_prefix_must_be_unique() -> None:
    assert match_choice("cra", CHOICES) is CHOICES[0]
    assert match_choice("c", CHOICES) is None  # Crane and Cherry: ambiguous
    assert match_choice("KOI", CHOICES) is CHOICES[2]


def test_a_place_in_the_menu_is_no_answer() -> None:
    """Numbers are not menu places any more: "04" is April to a person (bug: it played item 4)."""
    assert match_choice("3", CHOICES) is None
    assert match_choice("0", CHOICES) is None


def test_a_coloured_label_matches_by_its_text() -> None:
    """Labels carry colour codes on a terminal; typing the start of the text still works."""
    from koikoi_p2p.cli.cardnames import card_aliases, card_label
    from koikoi_p2p.cli.style import Style

    colour = Style(True)
    choices = [Choice(k, card_label(c, "en", colour), c, card_aliases(c)) for k, c in (("a", 1), ("b", 14))]
    assert "\x1b[" in choices[0].label
    assert match_choice("01R", choices) is choices[0]
    assert match_choice("pine", choices) is choices[0]
    assert match_choice("04-plain1", choices) is choices[1]
    assert match_choice("藤", choices) is choices[1]  # the Japanese name works in either language


def test_a_month_number_that_fits_two_cards_asks_again() -> None:
    from koikoi_p2p.cli.cardnames import card_aliases, card_label
    from koikoi_p2p.cli.style import Style

    plain = Style(False)
    cards = (("a", 12), ("b", 13), ("c", 16))
    choices = [Choice(k, card_label(c, "en", plain), c, card_aliases(c)) for k, c in cards]
    out: list[str] = []
    value = asyncio.run(Prompter(ScriptedLines(["04", "05", "04R"]), out.append).choose("Which?", choices))
    text = "".join(out)
    assert "'04' could be [a] 04A Cuckoo or [b] 04R Wisteria Red Ribbon: type its key." in text
    assert "'05' is not one of the choices" not in text  # a unique month prefix is a card
    assert value == 16  # "05": the only May card


def test_a_bare_number_is_a_month_never_a_prefix_or_a_place() -> None:
    """Issue 29 item 3: "1" played 11A (Swallow), the start of its code. A number alone is a month
    everywhere: "1" and "01" are January, "11" is November, and a month with no card is refused."""
    from koikoi_p2p.cli.cardnames import card_aliases, card_label
    from koikoi_p2p.cli.style import Style

    plain = Style(False)
    swallow, pine_plain, deer = 41, 2, 36  # 11A, 01., 10A
    choices = [Choice(k, card_label(c, "en", plain), c, card_aliases(c)) for k, c in
               (("a", swallow), ("b", deer))]
    assert choices[0].label.startswith("11A")
    assert match_choice("1", choices) is None  # no January card: not the Swallow
    assert match_choice("11", choices) is choices[0]
    assert match_choice("１１", choices) is choices[0]  # full-width digits fold
    assert match_choice("10", choices) is choices[1]
    assert match_choice("13", choices) is None and match_choice("0", choices) is None
    pine = Choice("c", card_label(pine_plain, "en", plain), pine_plain, card_aliases(pine_plain))
    with_pine = [*choices, pine]
    assert match_choice("1", with_pine) is with_pine[2]
    assert match_choice("01", with_pine) is with_pine[2]
    out: list[str] = []
    value = asyncio.run(Prompter(ScriptedLines(["1", "?", "a"]), out.append).choose("Which?", choices))
    text = "".join(out)
    assert value == swallow
    assert "'1' is not one of the choices" in text
    assert "A number alone is a month" in text  # the help says so


def test_a_long_question_folds_at_words_for_the_terminal() -> None:
    """Issue 29 item 4: the question with its clock wrapped mid-word ("300 seco" / "nds")."""
    from koikoi_p2p.cli.style import display_width

    out: list[str] = []
    question = "You made a yaku: stop now or call koi-koi and play on? (you have 300 seconds)"
    prompter = Prompter(ScriptedLines(["k"]), out.append, width=40)
    assert asyncio.run(prompter.choose(question, CHOICES)) == "c"
    lines = "".join(out).split("\n")
    assert all(display_width(line) <= 40 for line in lines), lines
    words = [word for line in lines for word in line.split()]
    assert words[:words.index("seconds)") + 1] == question.split(), lines  # folded at spaces only


def test_end_of_input_raises() -> None:
    with pytest.raises(InputClosed):
        run(["9"])


def test_stdin_lines_reads_in_a_thread() -> None:
    async def read_two() -> list[str]:
        source = StdinLines(io.StringIO("1\r\n"))
        first = await source.readline()
        with pytest.raises(InputClosed):
            await source.readline()
        return [first]

    assert asyncio.run(read_two()) == ["1"]


def test_countdown_shows_time_left_only_when_waiting() -> None:
    out: list[str] = []

    async def slow() -> int:
        await asyncio.sleep(0.3)
        return 5

    async def go() -> tuple[int, int]:
        fast = await with_countdown(asyncio.sleep(0, result=1), write=out.append, limit=60, live=True)
        waited = await with_countdown(slow(), write=out.append, limit=60, live=True, grace=0.05)
        return fast, waited

    assert asyncio.run(go()) == (1, 5)
    assert any("Waiting for the opponent..." in s and "60s" in s for s in out)


def test_a_wait_past_its_count_stops_counting_and_writes_no_line_twice() -> None:
    """A wait that outlasts its limit (our relay down: no claim meanwhile) shows the label without
    a number, once: it printed "... 0s" every second."""
    out: list[str] = []

    async def slow() -> int:
        await asyncio.sleep(3.3)
        return 5

    assert asyncio.run(with_countdown(slow(), write=out.append, limit=1, live=True, grace=0.01,
                                      label="The relay does not answer: trying again")) == 5
    lines = [s for s in out if s.strip()]
    assert not any("0s" in s for s in lines), lines
    assert sum("trying again..." in s and "1s" not in s for s in lines) == 1, lines


def test_a_countdown_starts_again_from_the_new_wait_s_limit() -> None:
    """Terminal QA: the host, waiting through the handshake into the joiner's accept, kept counting
    the first wait's 60 s while the joiner had 8 s. With ``wait`` naming the wait, a change starts
    the count again from the limit read then."""
    out: list[str] = []
    now: list[tuple[str, str]] = [("host", "key")]
    limit = [60.0]

    async def slow() -> int:
        await asyncio.sleep(1.2)
        now[0], limit[0] = ("joiner", "accept"), 8.0
        await asyncio.sleep(1.3)
        return 7

    assert asyncio.run(with_countdown(slow(), write=out.append, limit=lambda: limit[0], live=True,
                                      grace=0.01, wait=lambda: now[0])) == 7
    shown = [s for s in out if "s " in s and "..." in s]
    assert any(" 60s" in s for s in shown), shown
    assert any(" 8s" in s or " 7s" in s for s in shown[-2:]), shown
    assert not any(" 58s" in s or " 57s" in s for s in shown[-1:]), shown


def test_own_deadline_takes_no_answer_after_it_and_counts_down_live() -> None:
    """With a deadline the answer line starts with the time left, rewritten every second on a
    terminal; when it passes no more input is taken (TimeUp)."""
    from koikoi_p2p.cli.prompt import TimeUp

    class Never(ScriptedLines):
        async def readline(self) -> str:
            await asyncio.sleep(60)
            return "1"

    out: list[str] = []
    now = [100.0]

    async def go() -> None:
        prompter = Prompter(Never([]), out.append, live=True, clock=lambda: now[0])

        async def tick() -> None:
            for _ in range(5):
                await asyncio.sleep(0.01)
                now[0] += 1.0

        ticking = asyncio.ensure_future(tick())
        try:
            with pytest.raises(TimeUp):
                await prompter.choose("Which card?", CHOICES, deadline=103.5)
        finally:
            ticking.cancel()

    asyncio.run(asyncio.wait_for(go(), 10))
    text = "".join(out)
    assert "[0:04] > " in text  # 3.5 s left, rounded up
    assert "\x1b7\r[0:0" in text and "\x1b8" in text  # rewritten in place, the cursor put back


def test_a_superscript_digit_is_no_choice_and_no_crash() -> None:
    from koikoi_p2p.cli.prompt import Choice, match_choice

    choices = [Choice("1", "first", 1), Choice("2", "second", 2)]
    assert match_choice("²", choices) is choices[1]  # folded (NFKC) like a full-width digit, no crash
    assert match_choice("⑩", choices) is None
    assert match_choice("2", choices) is choices[1]
    assert match_choice("２", choices) is choices[1]  # a full-width digit is folded (NFKC) to its key


def test_a_countdown_whose_clock_started_earlier_counts_what_is_left() -> None:
    """``since``: a resumed match's own wait counts from when its input was saved, on a terminal
    too (it started again at the full time)."""
    import time

    out: list[str] = []

    async def slow() -> int:
        await asyncio.sleep(0.3)
        return 5

    assert asyncio.run(with_countdown(slow(), write=out.append, limit=60, live=True, grace=0.05,
                                      since=lambda: time.monotonic() - 45)) == 5
    counts = [s for s in out if "s " in s and "..." in s]
    assert counts and all(" 15s" in s or " 14s" in s for s in counts), out
