"""``koikoi rules [PRESET]``: a rule profile's switches and yaku table."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from typing import TYPE_CHECKING, Any

from koikoi_p2p.cli.board import fold
from koikoi_p2p.cli.i18n import tr
from koikoi_p2p.cli.options import add_lang
from koikoi_p2p.cli.style import display_width

if TYPE_CHECKING:
    from koikoi_p2p.rules.profile import Profile


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rules",
        help="show a rule preset: its switches and yaku table",
        description="Print a rule preset's switches and its yaku table (default: nintendo). Presets: "
                    "nintendo, koikoi-online, teaching-card, wikipedia, board-game, classic-variant.",
    )
    parser.add_argument("preset", nargs="?", default="nintendo", metavar="PRESET", help="preset name")
    parser.add_argument("--switch", action="append", default=[], metavar="NAME=VALUE",
                        help="change one switch of the preset (repeatable): true/false, a number, one of "
                             "the listed words, 10,8,7,5, teshi:6,kuttsuki:6, card ids or months, none")
    parser.add_argument("--json", action="store_true", help="print the profile and yaku table as JSON")
    add_lang(parser, remembered=False)
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.cmd_score import parse_switches, profile_problem
    from koikoi_p2p.cli.setup import command_lang
    from koikoi_p2p.rules.describe import summary, yaku_table
    from koikoi_p2p.rules.errors import RulesError
    from koikoi_p2p.rules.profile import PRESETS, differences

    lang = "en" if args.json else command_lang(args)
    try:
        profile = parse_switches(args.preset, args.switch)
    except (RulesError, ValueError) as exc:
        print(f"koikoi rules: {profile_problem(exc, args.preset, lang)}", file=sys.stderr)
        return 2
    table = yaku_table(profile)
    changed = differences(profile, args.preset)
    if args.json:
        print(json.dumps({"name": profile.name, "based_on": args.preset, "differences": changed,
                          "summary": summary(profile), "switches": profile.every_switch(), "yaku": table,
                          "encoding": profile.encode().decode(), "presets": list(PRESETS)},
                         indent=2, ensure_ascii=False))
        return 0
    for line in describe(profile, args.preset, changed, lang, width=_width()):
        print(line)
    return 0


def _width() -> int:
    """The terminal's width, or 80 columns when the output is not a terminal (a pipe, a file)."""
    if sys.stdout.isatty():
        return max(40, shutil.get_terminal_size((80, 24)).columns)
    return 80


def describe(profile: Profile, based_on: str, changed: dict[str, str], lang: str,
             width: int | None = None) -> list[str]:
    """The screen of ``koikoi rules``: summary, switches and yaku table, in ``lang``; folded to
    ``width`` columns when given (table rows keep their columns, the text after them wraps)."""
    from koikoi_p2p.cli.i18n import yaku_name
    from koikoi_p2p.cli.rules_text import summary_lines, switch_help, switch_label, switch_value, yaku_rules
    from koikoi_p2p.cli.terms_screen import rules_name
    from koikoi_p2p.rules.describe import yaku_table
    from koikoi_p2p.rules.profile import PRESETS

    ja = lang == "ja"
    # A custom profile's name ("board-game-custom") is an identifier: a Japanese screen says what it
    # is, as the terms screen does ("nintendo (任天堂版) の変更版").
    name = rules_name(profile, lang) if ja else profile.name
    lines = [tr(lang, "rule profile {name} (presets: {presets})", name=name, presets=", ".join(PRESETS))]
    if changed:
        shown = [f"{switch_label(k, lang)}={switch_value(profile, k, lang)}" if ja else f"{k}={v}"
                 for k, v in changed.items()]
        lines.append(tr(lang, "custom, based on {base}: {changes}", base=based_on,
                        changes=(", " if not ja else "、").join(shown)))
    lines += ["", *summary_lines(profile, lang), ""]
    lines = [part for line in lines for part in fold(line, width)]
    lines.append(tr(lang, "switches (* = changed from the preset):"))
    keys = list(profile.every_switch())
    # English keeps the --switch column as typed (NAME=VALUE); the meaning column says it in words.
    names = {k: switch_label(k, lang) if ja else k for k in keys}
    values = {k: switch_value(profile, k, lang) if ja else profile.switch_text(k) for k in keys}
    nwidth = max(display_width(n) for n in names.values())
    vwidth = max(28, *(display_width(v) for v in values.values())) if ja else 28
    if width is not None and ja:
        # The Japanese labels and values are words of varying length: the columns take the usual
        # ones, and a row with a longer label or value is said on lines of its own (below).
        nwidth, vwidth = min(nwidth, _JA_NAME_COLUMN), min(vwidth, _JA_VALUE_COLUMN)
    for key in keys:
        mark = "*" if key in changed else " "
        if ja and width is not None and (display_width(names[key]) > nwidth
                                         or display_width(values[key]) > vwidth):
            lines += [*fold(f" {mark}{names[key]}", width), *fold("    " + values[key], width),
                      *fold("      " + switch_help(key, lang), width)]
            continue
        head = f" {mark}{pad(names[key], nwidth)}  {pad(values[key], vwidth)} "
        lines += table_row(head, switch_help(key, lang), width)
    if ja:
        lines += fold(tr(lang, "(The switch names that --switch NAME=VALUE takes are on the English screen "
                               "and in --json.)"), width)
    lines += ["", tr(lang, "yaku:")]
    table = yaku_table(profile)
    rules = yaku_rules(profile, lang)
    # Each yaku by its name (spec/glossary.md §5: ame-shiko in English, 雨四光 in Japanese).
    ynames = {str(row["id"]): yaku_name(str(row["id"]), lang) for row in table}
    ywidth = max(display_width(n) for n in ynames.values())
    for row in table:
        rule = rules[str(row["id"])]
        lines += table_row(f"  {pad(ynames[str(row['id'])], ywidth)}  {row['points']!s:>3}  ", rule, width)
    return lines


# The Japanese switch table's columns when folded to a width (terminal columns; a kanji takes two).
_JA_NAME_COLUMN = 26
_JA_VALUE_COLUMN = 28

# Narrower than this, the text after a table row goes on lines of its own below the row.
_MIN_TEXT_COLUMN = 24


def table_row(head: str, text: str, width: int | None) -> list[str]:
    """A table row: ``head`` (its fixed columns) then ``text``, which wraps under itself when the row
    is wider than ``width``, or starts on the next line when the columns leave too little room."""
    line = (head + text).rstrip()
    if width is None or display_width(line) <= width:
        return [line]
    room = width - display_width(head)
    if room >= _MIN_TEXT_COLUMN:
        parts = [part.rstrip() for part in fold(text, room)]
        return [head + parts[0], *(" " * display_width(head) + part for part in parts[1:])]
    return [head.rstrip(), *fold("      " + text, width)]


def pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns (a kanji takes two)."""
    return text + " " * max(0, width - display_width(text))
