"""``--help`` in Japanese (issue 16, "Japanese all the way"): every command's and subcommand's help,
with the headings argparse prints, has no English prose left (what is typed stays: flags, metavars,
preset names, values, technical names); the remembered language is used; English stays the default."""

from __future__ import annotations

import argparse
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from koikoi_p2p.cli.exit_codes import LOBBY_WORDS, MEANINGS
from koikoi_p2p.cli.help_text import HELP, default_ja, key, parsers, wrap
from koikoi_p2p.cli.main import build_parser, main
from koikoi_p2p.cli.style import display_width
from tests.e2e.test_cli_practice_pty import english_left
from tests.e2e.test_cli_support import SCRIPT, env_for
from tests.unit.test_catalogue import translated

# What a Japanese help keeps as it is typed or named, besides what english_left already allows.
TYPED = [
    r"^(?:使い方: )?koikoi .*$",                         # usage lines: the command line itself
    r"^\s{20,}[-\[\]{}A-Z_ .,a-z|]*\]\s*$",              # a usage line's continuation
    # the option column: -h, --help / --rules PRESET / --lang {en,ja}
    r"^\s*(?:-\w, )?--?[\w-]+(?: [A-Z_]+| \{[^}]*\})?(?:, --[\w-]+(?: [A-Z_]+)?)*(?=\s|$)",
    r"\b[A-Z][A-Z0-9_]+\b",                              # metavars and technical names: FILE, JSON, TCP
    # score's JSON, $VARS, {choices}, NAME=VALUE, teshi:6
    r'\{"yaku".*"round_score": N\}', r"\$[A-Z_]+", r"\{[^}]*\}", r"[\w.-]+=[\w,:.-]+", r"\b\w+:\d+",
    r"\b(?:SQLite|Redis|redis-server|WebSocket|Content-Security-Policy|python -m koikoi_relay)\b",
    r"\b(?:true/false|none)\b",
    r"\b(?:easy|medium|strong|master|greedy|random|network|en|ja|default|sqlite|postgresql)\b",  # values
    r"^\s{2,}[a-z]+(?=\s{2,}|$)",                        # a subcommand's name in the command list
    r"\.result\b", r"\bhttp\(s\)", r"\b[\w.]+\.sqlite3\b", r"master-strong,greedy-random",
]


def prose_left(text: str) -> list[str]:
    lines = [re.sub("|".join(f"(?:{t})" for t in TYPED), " ", line) for line in text.splitlines()]
    return english_left("\n".join(lines))


def texts(parser: argparse.ArgumentParser) -> Iterator[str]:
    for _, each in parsers(parser):
        if each.description:
            yield each.description
        yield from (group.title for group in each._action_groups if group.title)
        for action in each._actions:
            if action.help and action.help != argparse.SUPPRESS:
                yield action.help
            if isinstance(action, argparse._SubParsersAction):
                yield from (choice.help for choice in action._choices_actions if choice.help)


def test_every_help_text_has_a_japanese_translation() -> None:
    help_ja = translated("ja", HELP)
    found = {key(text) for text in texts(build_parser("en"))}
    found |= {key(text) for _, text in MEANINGS} | set(LOBBY_WORDS.values())
    assert len(found) > 150  # the walk sees every command's texts
    missing = sorted(t for t in found if t not in help_ja and default_ja(t) is None)
    assert not missing, "untranslated:\n" + "\n".join(missing)
    argparse_own = {"usage:", "exit codes:", "show this help message and exit",
                    "show program's version number and exit"}
    stale = sorted(set(help_ja) - found - argparse_own)
    assert not stale, stale
    assert default_ja("(default 20.0; 0 disables)") == "(既定 20.0。0 なら無効)"


COMMANDS = [path for path, _ in parsers(build_parser("en"))]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda path: " ".join(path) or "koikoi")
def test_every_help_in_japanese_has_no_english_prose(command: tuple[str, ...],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--lang", "ja", *command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("使い方: koikoi") and "オプション:" in out
    assert "usage:" not in out and "options:" not in out and "positional arguments" not in out
    assert prose_left(out) == [], out
    # Japanese lines fit 80 columns (argparse's own, such as a long list of choices, are as in English).
    assert all(display_width(line) <= 80 or line.isascii() for line in out.splitlines()), out


def test_the_remembered_language_and_english_by_default(tmp_path: Path) -> None:
    def help_of(*args: str) -> str:
        return subprocess.run([str(SCRIPT), *args, "--help"], capture_output=True, text=True,
                              env=env_for(tmp_path), timeout=60, check=True).stdout

    assert help_of("practice").startswith("usage: koikoi practice")
    (tmp_path / "config" / "settings.json").write_text('{"lang": "ja", "level": "easy"}\n', encoding="utf-8")
    said = help_of("practice")
    assert said.startswith("使い方: koikoi practice") and "終了コード:" in said and "中断 (Ctrl-C)" in said
    assert prose_left(said) == [], said
    assert help_of("--lang", "en", "practice").startswith("usage: ")
    assert help_of("practice", "--lang", "en").startswith("usage: ")


def test_japanese_lines_wrap_by_terminal_columns_and_keep_words_whole() -> None:
    text = "双方署名の結果 (記録の隣の .result ファイル) をレーティングサービスに送ります。" \
           "--password-file を使う"
    lines = wrap(text, 30)
    assert all(display_width(line) <= 30 for line in lines), lines
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert any("--password-file" in line for line in lines)
    assert not any(line.startswith("。") for line in lines)
