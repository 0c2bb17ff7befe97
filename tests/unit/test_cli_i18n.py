"""Every sentence the terminal client shows has a Japanese translation with the same fields."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import koikoi_p2p.cli as cli_package
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
from koikoi_p2p.cli.i18n import YAKU_EN, YAKU_JA, count, tr, yaku_name
from koikoi_p2p.cli.ja import JA
from koikoi_p2p.rules.scoring import YAKU_IDS

# Which positional argument of each call is a template: screen.t(TEXT), tr(lang, TEXT),
# error(args, TEXT), narrate's say(seat, MINE, THEIRS), cmd_ratings' _problem(command, lang, exc, TEXT).
TEMPLATE_ARGS = {"t": (0,), "tr": (1,), "error": (1,), "say": (1, 2), "_problem": (3,)}


def templates_in_source() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(Path(cli_package.__file__).parent.glob("*.py")):
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
    return [play.LEGEND, *play.HELP.values(), *summary.ROUND_END.values(), *play.REASON_WORDS.values(),
            *online.RELAY_HINTS.values(), *online.REASON_HINTS.values(), *switches.PROBLEMS, *lobby.HEADINGS,
            *display_name.PROBLEMS, *cmd_verify._ARTICLE.values(), *cmd_verify._HINTS.values(),
            *cmd_ratings.OUTCOMES.values(), *cmd_ratings.BOARD_HEADINGS,
            *cmd_identity.IMPORT_PROBLEMS.values()]


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_template_has_a_translation_with_the_same_fields() -> None:
    found = templates_in_source()
    assert len(found) > 150  # the walk really sees the client's sentences
    missing = [f"{where}: {text!r}" for text, where in found.items() if text not in JA]
    missing += [repr(text) for text in tables() if text not in JA]
    assert not missing, "untranslated:\n" + "\n".join(missing)
    for english, japanese in JA.items():
        assert fields(english) == fields(japanese), english


def test_the_catalogue_holds_nothing_unused() -> None:
    used = set(templates_in_source()) | set(tables())
    stale = sorted(set(JA) - used)
    assert not stale, "translations of sentences the client no longer shows:\n" + "\n".join(stale)


def test_every_yaku_has_its_usual_name_in_both_languages() -> None:
    for yaku in YAKU_IDS:
        assert yaku in YAKU_EN and yaku in YAKU_JA
        assert not any(ch.isascii() and ch.isalpha() for ch in YAKU_JA[yaku])
    assert yaku_name("inoshikacho", "ja") == "猪鹿蝶" and yaku_name("akatan", "ja") == "赤短"
    assert yaku_name("ame_shiko", "en") == "ame-shiko"


def test_counts_and_plurals() -> None:
    assert count(1, "card", "en") == "1 card" and count(3, "card", "en") == "3 cards"
    assert count(1, "round", "en") == "1 round" and count(2, "round", "en") == "2 rounds"
    assert count(3, "card", "ja") == "3枚" and count(5, "point", "ja") == "5点"
    assert tr("ja", "stock: {n}", n=7) == "山札: 7" and tr("en", "stock: {n}", n=7) == "stock: 7"
