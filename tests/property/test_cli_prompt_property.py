"""Whatever a person types, a prompt yields one of its legal choices or asks again: never anything else."""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.cli.prompt import HELP_KEYS, Choice, Prompter, ScriptedLines, match_choice

labels = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x30FF), min_size=1, max_size=20)


@st.composite
def menus(draw: st.DrawFn) -> list[Choice[int]]:
    n = draw(st.integers(1, 8))
    names = draw(st.lists(labels, min_size=n, max_size=n))
    return [Choice(str(i + 1), name, i) for i, name in enumerate(names)]


@given(menus(), st.text(max_size=30))
def test_an_answer_selects_a_listed_choice_or_nothing(choices: list[Choice[int]], answer: str) -> None:
    picked = match_choice(answer, choices)
    assert picked is None or picked in choices


@given(menus(), st.lists(st.text(max_size=12), max_size=6))
def test_prompt_returns_only_legal_values(choices: list[Choice[int]], noise: list[str]) -> None:
    out: list[str] = []
    # Noise first, then a valid key: the prompt must end on a legal value, whatever the noise was.
    lines = [*noise, choices[-1].key]
    value = asyncio.run(Prompter(ScriptedLines(lines), out.append).choose("?", choices, "help"))
    assert value in {c.value for c in choices}
    for line in noise:
        if line.strip().lower() in HELP_KEYS:
            assert any("Only the choices listed are legal" in text for text in out)
