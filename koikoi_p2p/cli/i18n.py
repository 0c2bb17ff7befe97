"""Every sentence a player reads, in English (the default) or another language of the catalogue.

Call sites write the English sentence as a ``str.format`` template and pass it through ``tr``; the
gettext catalogue (koikoi_p2p/locale, read by cli/catalogue.py) holds its translations, keyed by
the English template. Keeping the English at the call site keeps the code readable and the
catalogue greppable. The templates reach Babel through ``extract_terminal`` (babel.cfg), which
finds them the way a reader does: the template arguments of the calls in ``TEMPLATE_ARGS`` and
the sentences kept in tables (``tables``); the catalogue test checks that each has a translation
with the same fields, and the pseudo-terminal tests check that a Japanese screen shows no English.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from koikoi_p2p.cli.catalogue import gettext_in, ngettext_in, pgettext_in

LANGUAGES = ("en", "ja")

# The yaku's names (spec/glossary.md §5): romaji in English, the message ids of the catalogue's
# context ``yaku`` (kanji or kana in Japanese). Keys are the rules engine's yaku ids (spec/rules.md
# §4); "brights" is the family the board counts towards, named as its class.
YAKU_EN: dict[str, str] = {
    "goko": "goko", "shiko": "shiko", "ame_shiko": "ame-shiko", "sanko": "sanko", "hanami": "hanami",
    "tsukimi": "tsukimi", "inoshikacho": "inoshikacho", "akatan": "akatan", "aotan": "aotan",
    "akatan_aotan": "akatan-aotan", "tane": "tane", "tan": "tan", "kasu": "kasu", "tsukifuda": "tsukifuda",
    "teshi": "teshi", "kuttsuki": "kuttsuki", "tenho": "tenho", "double_tenho": "double tenho",
    "oya_ken": "oya-ken", "brights": "brights",
}


YAKU = "yaku"   # the catalogue's context of the yaku names
ROLE = "role"   # ... of the roles (spec/glossary.md §7): the host (ホスト) is not the dealer (親)


def tr(lang: str, text: str, /, **values: object) -> str:
    """``text`` (an English template) in ``lang``, with ``values`` filled in."""
    template = gettext_in(lang, text)
    return template.format(**values) if values else template


def yaku_name(yaku: str, lang: str) -> str:
    name = YAKU_EN.get(yaku, yaku)
    return pgettext_in(lang, YAKU, name) if yaku in YAKU_EN else name


def role_name(role: str, lang: str) -> str:
    """A role's name (spec/glossary.md §7): dealer, host, joiner, you, opponent or computer."""
    # (the context written out: Babel reads it from the call)
    names = {"dealer": pgettext_in(lang, "role", "dealer"), "host": pgettext_in(lang, "role", "host"),
             "joiner": pgettext_in(lang, "role", "joiner"), "you": pgettext_in(lang, "role", "you"),
             "opponent": pgettext_in(lang, "role", "opponent"),
             "computer": pgettext_in(lang, "role", "computer")}
    return names.get(role, role)


def side_names(lang: str, other: str) -> tuple[str, str]:
    """("you", other) in ``lang``; ``other`` is "computer" or "opponent"."""
    return role_name("you", lang), role_name(other, lang)


def count(n: int, noun: str, lang: str) -> str:
    """``n`` of a noun, e.g. "1 card", "3 cards", "3枚", in the plural form the catalogue's rule
    gives ``n``; nouns: card, round, point, second, minute, hour, day, call, match, message,
    result."""
    forms = {
        "card": lambda: ngettext_in(lang, "{n} card", "{n} cards", n),
        "round": lambda: ngettext_in(lang, "{n} round", "{n} rounds", n),
        "point": lambda: ngettext_in(lang, "{n} point", "{n} points", n),
        "second": lambda: ngettext_in(lang, "{n} second", "{n} seconds", n),
        "minute": lambda: ngettext_in(lang, "{n} minute", "{n} minutes", n),
        "hour": lambda: ngettext_in(lang, "{n} hour", "{n} hours", n),
        "day": lambda: ngettext_in(lang, "{n} day", "{n} days", n),
        "call": lambda: ngettext_in(lang, "{n} call", "{n} calls", n),
        "match": lambda: ngettext_in(lang, "{n} match", "{n} matches", n),
        "message": lambda: ngettext_in(lang, "{n} message", "{n} messages", n),
        "result": lambda: ngettext_in(lang, "{n} result", "{n} results", n),
    }
    return forms[noun]().format(n=n)


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- extraction (babel.cfg): the templates the terminal hands to tr() --------------------------------

# Which positional argument of each call is a template: screen.t(TEXT), tr(lang, TEXT),
# error(args, TEXT), narrate's say(seat, MINE, THEIRS), cmd_ratings' _problem(command, lang, exc, TEXT).
TEMPLATE_ARGS = {"t": (0,), "tr": (1,), "error": (1,), "say": (1, 2), "_problem": (3,)}


def templates_in_source() -> dict[str, str]:
    """Every literal template handed to a call of ``TEMPLATE_ARGS`` in the client's modules, with
    where it is (file:line)."""
    found: dict[str, str] = {}
    for path in sorted(Path(__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            for index in TEMPLATE_ARGS.get(str(name), ()):
                if index < len(node.args):
                    arg = node.args[index]
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        found.setdefault(arg.value, f"{path.name}:{node.lineno}")
    return found


def tables() -> list[str]:
    """Sentences kept in tables and passed to tr() by variable."""
    from koikoi_p2p.cli import (
        cmd_identity,
        cmd_ratings,
        cmd_verify,
        display_name,
        lobby,
        online,
        play,
        summary,
        switches,
    )
    from koikoi_relay import main as relay_main

    return [play.LEGEND, *play.HELP.values(), *summary.ROUND_END.values(),
            *online.RELAY_HINTS.values(), *online.REASON_HINTS.values(), *switches.PROBLEMS, *lobby.HEADINGS,
            *display_name.PROBLEMS, *cmd_verify._ARTICLE.values(), *cmd_verify._HINTS.values(),
            *cmd_ratings.OUTCOMES.values(), *cmd_ratings.BOARD_HEADINGS,
            *cmd_identity.IMPORT_PROBLEMS.values(), *relay_main.MESSAGES]


def extract_terminal(fileobj: object, keywords: object, comment_tags: object,
                     options: object) -> Iterator[tuple[int, str | None, str | tuple[str, str], list[str]]]:
    """A Babel extraction method (babel.cfg) for what Babel's Python extractor cannot see: the
    templates above (a ``tr`` template is a plain argument, a table's sentence a plain value), the
    yaku, class, month and plant names (contexts ``yaku``, ``class``, ``month``, ``plant``), the
    machine words (cli/word_ids.py), the switches' words (cli/rules_text.messages) and the --help
    texts (cli/help_text.extract_help).
    Babel calls it for the one file babel.cfg names (cli/main.py); the file's content is not read."""
    from koikoi_p2p.cli.help_text import extract_help
    from koikoi_p2p.cli.rules_text import messages

    for text in dict.fromkeys([*templates_in_source(), *tables()]):
        yield 0, None, text, []
    from koikoi_p2p.cli.cardnames import CLASS, CLASS_EN, MONTH, MONTHS_SHORT, PLANT, RIBBON_EN
    from koikoi_p2p.rules.cards import CARDS

    for name in YAKU_EN.values():
        yield 0, "pgettext", (YAKU, name), []
    for name in [*CLASS_EN.values(), *RIBBON_EN.values()]:
        yield 0, "pgettext", (CLASS, name), []
    for name in MONTHS_SHORT:
        yield 0, "pgettext", (MONTH, name), []
    for name in dict.fromkeys(c.plant_en for c in CARDS):
        yield 0, "pgettext", (PLANT, name), []
    for context, text in messages():
        yield 0, "pgettext", (context, text), []
    from koikoi_p2p.cli.word_ids import MESSAGE_WORD, MESSAGE_WORDS, REASON, REASONS

    for context, table in ((REASON, REASONS), (MESSAGE_WORD, MESSAGE_WORDS)):
        for text in table.values():
            yield 0, "pgettext", (context, text), []
    yield from extract_help(fileobj, keywords, comment_tags, options)



def extract_web(fileobj: BinaryIO, keywords: object, comment_tags: object,
                options: object) -> Iterator[tuple[int, str | None, str | tuple[str | None, ...], list[str]]]:
    """A Babel extraction method (babel.cfg) for the browser app's English source strings,
    web/app/messages.en.json: per section (the message context: ``web`` for the page's sentences,
    ``reason`` for why a match stopped), the app's key -> the English message, or an object with a
    ``plural`` form and a ``context`` (``null``: the terminal's own message, shared so that both
    clients say the same words). The key reaches the translator as a comment."""
    for section, entries in json.load(fileobj).items():
        for key, entry in entries.items():
            fields = entry if isinstance(entry, dict) else {"msgid": entry}
            context = fields.get("context", section)
            forms = (fields["msgid"], fields["plural"]) if "plural" in fields else (fields["msgid"],)
            note = [f"{section}: {key}"]
            if context is None:
                yield 0, "ngettext" if len(forms) == 2 else None, forms if len(forms) == 2 else forms[0], note
            else:
                yield 0, "npgettext" if len(forms) == 2 else "pgettext", (context, *forms), note
