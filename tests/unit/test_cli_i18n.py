"""Every sentence the terminal client shows has a Japanese translation with the same fields."""

from __future__ import annotations

import string

from koikoi_p2p.cli.i18n import YAKU_EN, count, tables, templates_in_source, tr, yaku_name
from koikoi_p2p.rules.scoring import YAKU_IDS
from tests.unit.test_catalogue import translated


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_template_has_a_translation_with_the_same_fields() -> None:
    ja = translated("ja")
    found = templates_in_source()
    assert len(found) > 150  # the walk really sees the client's sentences
    missing = [f"{where}: {text!r}" for text, where in found.items() if text not in ja]
    missing += [repr(text) for text in tables() if text not in ja]
    assert not missing, "untranslated:\n" + "\n".join(missing)
    for english in [*found, *tables()]:
        assert fields(english) == fields(ja[english]), english


def test_the_catalogue_holds_nothing_unused() -> None:
    # (the catalogue holds the audit's phrases too: test_catalogue checks the whole of it against
    # what Babel extracts; here, the client's own templates are all found by the walk)
    assert len(set(templates_in_source()) | set(tables())) > 300


def test_every_yaku_has_its_usual_name_in_both_languages() -> None:
    for yaku in YAKU_IDS:
        assert yaku in YAKU_EN
        assert not any(ch.isascii() and ch.isalpha() for ch in yaku_name(yaku, "ja"))
    assert yaku_name("inoshikacho", "ja") == "猪鹿蝶" and yaku_name("akatan", "ja") == "赤短"
    assert yaku_name("ame_shiko", "en") == "ame-shiko"


def test_counts_and_plurals() -> None:
    assert count(1, "card", "en") == "1 card" and count(3, "card", "en") == "3 cards"
    assert count(1, "round", "en") == "1 round" and count(2, "round", "en") == "2 rounds"
    assert count(3, "card", "ja") == "3枚" and count(5, "point", "ja") == "5点"
    assert tr("ja", "stock: {n}", n=7) == "山札: 7" and tr("en", "stock: {n}", n=7) == "stock: 7"


def test_no_english_count_has_a_fixed_plural() -> None:
    """A number of things goes through count() or ngettext_in (the catalogue's plural rule), never
    a template that says "{n} points" whatever n is (a count a peer or a service sends too: the
    lobby's target, the leaderboard's results)."""
    import re

    counted = re.compile(r"\{\w+\} (?:[a-z-]+ )?"
                         r"(?:points|cards|rounds|calls|seconds|messages|matches|results)\b")
    fixed = [text for text in [*templates_in_source(), *tables()]
             if counted.search(text)]
    assert fixed == []
    from koikoi_p2p.cli.lobby import _facts

    assert "until 1 point" in _facts({"rounds": 0, "target": 1}, 3, "en")
    assert "until 5 points" in _facts({"rounds": 0, "target": 5}, 3, "en")
