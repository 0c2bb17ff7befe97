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
    value, text = run(["7", "", "x", "k"])  # 7: no such key and no seventh choice
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


def test_a_choice_can_be_picked_by_its_number() -> None:
    assert match_choice("3", CHOICES) is CHOICES[2]  # the koi-koi choice has key "k"
    assert match_choice("4", CHOICES) is None
    assert match_choice("0", CHOICES) is None


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
    assert any("waiting for the opponent..." in s and "60s" in s for s in out)


def test_a_superscript_digit_is_no_choice_and_no_crash() -> None:
    from koikoi_p2p.cli.prompt import Choice, match_choice

    choices = [Choice("1", "first", 1), Choice("2", "second", 2)]
    assert match_choice("²", choices) is None  # str.isdigit() is true for it, int() refuses it
    assert match_choice("2", choices) is choices[1]
