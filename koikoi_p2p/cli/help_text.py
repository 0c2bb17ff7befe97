"""``--help`` in the player's language.

The commands write their descriptions and option helps in English, as argparse takes them. For
a Japanese screen the parsers get a help formatter that says each text from the catalogue
(``cli/help_ja.py``, keyed by the English text with its whitespace collapsed), together with the
headings argparse itself prints ("usage:", "positional arguments", "options"), and wraps the
result by terminal columns (a kanji takes two; Japanese has no spaces to break at). This uses the
extension point argparse documents, ``formatter_class``, with the methods its own formatters
override (``_get_help_string``, ``_fill_text``, ``_split_lines``), so nothing of argparse is
patched. Option flags, metavars, choices and preset names stay as they are typed.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import Any

from koikoi_p2p.cli.style import display_width


def key(text: str) -> str:
    """The catalogue key of a help text: its words with whitespace collapsed."""
    return " ".join(text.split())


def help_ja(text: str) -> str:
    """``text`` in Japanese when the catalogue has it, else as it is."""
    from koikoi_p2p.cli.help_ja import HELP_JA, default_ja

    said = HELP_JA.get(key(text))
    return said if said is not None else default_ja(key(text)) or text


_TOKEN = re.compile(r"[!-~]+\s*|\s+|.")   # a run of printable ASCII (a flag, a word), or one character
_NO_START = "、。，．）」』】"                # never at the start of a line


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` terminal columns, breaking between Japanese
    characters or at spaces, never inside an ASCII word (a flag or a file name)."""
    lines: list[str] = []
    line = ""
    for token in _TOKEN.findall(" ".join(text.split())):
        if line and display_width((line + token).rstrip()) > width and token[0] not in _NO_START:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line += token
    if line.strip():
        lines.append(line.rstrip())
    return lines


def japanese_formatter(base: type[argparse.HelpFormatter]) -> type[argparse.HelpFormatter]:
    """``base`` (HelpFormatter or RawDescriptionHelpFormatter) saying everything in Japanese."""

    raw = issubclass(base, argparse.RawDescriptionHelpFormatter)

    class JapaneseHelp(base):  # type: ignore[valid-type,misc]
        def _get_help_string(self, action: argparse.Action) -> str | None:
            text = super()._get_help_string(action)
            return help_ja(text) if text else text

        def _split_lines(self, text: str, width: int) -> list[str]:
            return wrap(text, width)

        def _fill_text(self, text: str, width: int, indent: str) -> str:
            from koikoi_p2p.cli.help_ja import HELP_JA

            whole = HELP_JA.get(key(text))
            if whole is not None or not raw:
                return "\n".join(indent + line for line in wrap(whole or text, width - len(indent)))
            # A raw block (the exit-code table): each line said on its own, its indent and code kept.
            out: list[str] = []
            for line in text.splitlines():
                lead = re.match(r"\s*(?:\d+\s+)?", line)
                head = lead.group(0) if lead else ""
                said = help_ja(line[len(head):]) if line[len(head):] else ""
                parts = (wrap(said, width - len(indent) - len(head)) if display_width(head + said) > width
                         else [said])
                out.extend(indent + (head if n == 0 else " " * len(head)) + part
                           for n, part in enumerate(parts))
            return "\n".join(out)

        def start_section(self, heading: str | None) -> None:
            super().start_section(help_ja(heading) if heading else heading)

        def add_usage(self, usage: str | None, actions: Any, groups: Any, prefix: str | None = None) -> None:
            super().add_usage(usage, actions, groups, help_ja("usage: ") + " " if prefix is None else prefix)

    JapaneseHelp.__name__ = f"Japanese{base.__name__}"
    return JapaneseHelp


def parser_class(lang: str) -> type[argparse.ArgumentParser]:
    """The parser class of every command: in Japanese, its formatter is ``japanese_formatter``
    of the one the command asked for (argparse gives nested subcommands the same class)."""
    if lang != "ja":
        return argparse.ArgumentParser

    class JapaneseParser(argparse.ArgumentParser):
        def __init__(self, *args: Any, formatter_class: type[argparse.HelpFormatter] = argparse.HelpFormatter,
                     **kwargs: Any) -> None:
            kwargs["formatter_class"] = japanese_formatter(formatter_class)
            super().__init__(*args, **kwargs)

    return JapaneseParser


def lang_of(argv: Sequence[str] | None) -> str:
    """The language of the help: --lang on the command line, else the remembered one."""
    from koikoi_p2p.cli.paths import folders
    from koikoi_p2p.cli.settings import LANGUAGES, load_settings

    args = list(sys.argv[1:] if argv is None else argv)
    for index, arg in enumerate(args):
        if arg == "--":
            break
        value = args[index + 1] if arg == "--lang" and index + 1 < len(args) else arg.removeprefix("--lang=")
        if (arg == "--lang" or arg.startswith("--lang=")) and value in LANGUAGES:
            return value
    return load_settings(folders().settings_file).lang
