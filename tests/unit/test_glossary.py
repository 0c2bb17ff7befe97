"""The terminal names every game term as spec/glossary.md does, in English and Japanese.

The glossary's tables are parsed here; a name table of the terminal that differs from a row, a
term the glossary lacks, a dropped name (glossary §8) anywhere in the terminal's text, or a
Japanese sentence about the room's host that calls the host 親 (the dealer) fails.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from babel.messages.pofile import read_po

import koikoi_p2p.cli as cli_package
from koikoi_p2p.cli import board, cardnames
from koikoi_p2p.cli.i18n import YAKU_EN, role_name, yaku_name
from koikoi_p2p.rules.cards import CARDS
from koikoi_p2p.rules.scoring import YAKU_IDS
from tests.unit.test_catalogue import translated

GLOSSARY = Path(__file__).resolve().parents[2] / "spec" / "glossary.md"


def glossary() -> dict[str, list[dict[str, str]]]:
    """Each numbered section's table as rows keyed by the header's cells ("2. Cards" -> "cards")."""
    sections: dict[str, list[dict[str, str]]] = {}
    section, header = "", list[str]()
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section, header = re.sub(r"^## \d+\. ", "", line).split(" ")[0].lower(), []
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not header:
                header = cells
            elif not set(cells[0]) <= {"-", " "}:
                sections.setdefault(section, []).append(dict(zip(header, cells, strict=True)))
    return sections


def by_id(section: str) -> dict[str, dict[str, str]]:
    return {row["id"]: row for row in glossary()[section]}


def test_the_glossary_has_every_card_yaku_and_class_once() -> None:
    g = glossary()
    assert [r["id"] for r in g["cards"]] == [c.id for c in CARDS]
    assert [r["id"] for r in g["yaku"]] == list(YAKU_IDS)
    assert {"bright", "animal", "ribbon", "plain"} <= set(by_id("classes"))
    assert {"dealer", "host", "joiner", "koikoi", "stop"} <= set(by_id("roles")) | set(by_id("calls"))
    for section, rows in g.items():
        if section != "names":
            assert all(row["English"] and row["Japanese"] for row in rows), section


def test_card_and_plant_names_are_the_glossary_s() -> None:
    cards, plants = by_id("cards"), by_id("plants")
    for c in CARDS:
        assert (c.name_en, c.name_ja) == (cards[c.id]["English"], cards[c.id]["Japanese"]), c.id
        assert (c.plant_en, c.plant_ja) == (plants[str(c.month)]["English"], plants[str(c.month)]["Japanese"])


def test_class_names_are_the_glossary_s() -> None:
    classes = by_id("classes")
    for klass in ("bright", "animal", "ribbon", "plain"):
        assert cardnames.class_name(klass, "en") == classes[klass]["English"]
        assert cardnames.class_name(klass, "ja") == classes[klass]["Japanese"]
        assert board.PLURAL_EN[klass] == classes[klass]["English"] + "s"


def test_yaku_names_are_the_glossary_s() -> None:
    yaku, classes = by_id("yaku"), by_id("classes")
    for key in YAKU_EN:
        names = (yaku_name(key, "en"), yaku_name(key, "ja"))
        if key in yaku:
            assert names == (yaku[key]["English"], yaku[key]["Japanese"]), key
        else:  # a family the board counts towards (the brights), named as its class
            klass = classes[key.removesuffix("s")]
            assert names == (klass["English"] + "s", klass["Japanese"]), key
    # and the catalogue's context "yaku" names nothing else
    assert set(translated("ja", "yaku")) == set(YAKU_EN.values())


def test_the_roles_are_named_as_the_glossary_says() -> None:
    roles = by_id("roles")
    in_catalogue = translated("ja", "role")
    assert {"dealer", "host", "joiner"} <= set(in_catalogue)
    for role in in_catalogue:
        for lang, column in (("en", "English"), ("ja", "Japanese")):
            assert role_name(role, lang) == roles[role][column], (role, lang)


def terminal_texts() -> list[str]:
    """Every string constant of the terminal client's modules and of the rules' descriptions, and
    every message and translation of its catalogues."""
    paths = [*sorted(Path(cli_package.__file__).parent.glob("*.py")),
             Path(cli_package.__file__).parents[1] / "rules" / "describe.py"]
    texts: list[str] = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                texts.append(node.value)
    # Whole messages, not the .po's lines: a long one is wrapped over several lines that do not
    # start with "msg" (an old name there went unseen), and each plural form counts.
    for path in (Path(cli_package.__file__).parents[1] / "locale").glob("*/LC_MESSAGES/*.po"):
        with path.open("rb") as po:
            for message in read_po(po):
                for text in (message.id, message.string):
                    forms = text if isinstance(text, tuple | list) else (text,)
                    texts += [form for form in forms if isinstance(form, str) and form]
    return texts


def dropped_names_in(texts: list[str]) -> list[tuple[str, str]]:
    """(dropped name, text) for every text that uses a name glossary §8 lists as not used."""
    hits = []
    for row in glossary()["names"]:
        chosen = [name.strip() for name in row["use instead"].split(",")]
        for text in texts:
            rest = text
            for name in chosen:
                rest = rest.replace(name, "")
            if row["not used"] in rest:
                hits.append((row["not used"], text))
    return hits


def test_dropped_names_are_not_used_by_the_terminal() -> None:
    assert dropped_names_in(terminal_texts()) == []


def test_the_check_finds_a_dropped_name() -> None:
    assert dropped_names_in(["Three Brights 5", "コンピューター", "あがり"]) == [
        ("Three Brights", "Three Brights 5"), ("あがり", "あがり")]


def host_called_dealer(pairs: dict[str, str]) -> list[str]:
    """English sentences about the host (not the deal) whose Japanese says 親 or lacks ホスト."""
    return [en for en, ja in pairs.items()
            if re.search(r"(?i)\b(?:the|its|your)\s+host\b|\bhost['’]s\b|^host:", en) and "deal" not in en
            and ("親" in ja.replace("親権", "") or "ホスト" not in ja)]


def test_japanese_never_calls_the_host_the_dealer() -> None:
    assert host_called_dealer(translated("ja")) == []
    assert host_called_dealer({"The host proposes": "親が提案する"}) == ["The host proposes"]
