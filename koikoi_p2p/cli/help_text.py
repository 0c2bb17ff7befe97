"""``--help`` in the player's language.

The commands write their descriptions and option helps in English, as argparse takes them. For
a Japanese screen the parsers get a help formatter that says each text from the gettext catalogue
(context ``help``, keyed by the English text with its whitespace collapsed), together with the
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
from collections.abc import Iterator, Sequence
from typing import Any

from koikoi_p2p.cli.style import display_width

HELP = "help"  # the catalogue's context of the help texts

# What argparse itself prints, besides the group titles the walk finds.
ARGPARSE_OWN = ("usage:", "exit codes:", "show this help message and exit",
                "show program's version number and exit")

# The relay's limits say only their default: "(default 65536)", "(default 20.0; 0 disables)".
DEFAULT_ONLY = re.compile(r"\(default ([^;)]*)(; 0 disables)?\)")


def key(text: str) -> str:
    """The catalogue key of a help text: its words with whitespace collapsed."""
    return " ".join(text.split())


def said_ja(text: str) -> str | None:
    """``text`` from the Japanese catalogue, or None when it has no entry."""
    from koikoi_p2p.cli.catalogue import pgettext_in

    said = pgettext_in("ja", HELP, key(text))
    return None if said == key(text) else said


def default_ja(text: str) -> str | None:
    """A limit's "(default N)" in Japanese (a pattern: the numbers come from the relay's limits)."""
    found = DEFAULT_ONLY.fullmatch(text)
    if found is None:
        return None
    return f"(既定 {found.group(1)}" + ("。0 なら無効" if found.group(2) else "") + ")"


def help_ja(text: str) -> str:
    """``text`` in Japanese when the catalogue has it, else as it is."""
    return said_ja(text) or default_ja(key(text)) or text


def parsers(parser: argparse.ArgumentParser,
            path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """``parser`` and every subcommand's parser under it, with their command paths."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, (*path, name))


def help_texts() -> list[str]:
    """Every help text the terminal can print, as catalogue keys: each parser's description, group
    titles and option helps, the exit-code meanings, and what argparse prints itself. A limit's
    "(default N)" is said by ``default_ja``, not the catalogue."""
    from koikoi_p2p.cli.exit_codes import LOBBY_WORDS, MEANINGS
    from koikoi_p2p.cli.main import build_parser

    found: list[str] = [*ARGPARSE_OWN, *(text for _, text in MEANINGS), *LOBBY_WORDS.values()]
    for _, each in parsers(build_parser("en")):
        if each.description:
            found.append(each.description)
        found.extend(group.title for group in each._action_groups if group.title)
        for action in each._actions:
            if action.help and action.help != argparse.SUPPRESS:
                found.append(action.help)
            if isinstance(action, argparse._SubParsersAction):
                found.extend(choice.help for choice in action._choices_actions if choice.help)
    keys = dict.fromkeys(key(text) for text in found)
    return [k for k in keys if default_ja(k) is None]


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
            whole = said_ja(text)
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


def extract_help(fileobj: object, keywords: object, comment_tags: object,
                 options: object) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """A Babel extraction method (babel.cfg): argparse assembles the help at run time, so Babel's
    Python extractor cannot find the texts; this walks the parser (``help_texts``) and hands Babel
    each text in the context ``help``. Babel calls it for the one file babel.cfg names; the file's
    content is not read. Only ``pybabel extract`` and the catalogue test call it."""
    for text in help_texts():
        yield 0, "pgettext", (HELP, text), []

