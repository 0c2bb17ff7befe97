"""``koikoi rules --lang ja``: every line of every preset in Japanese (issue 16), the same
structure as the English screen, and a Japanese entry for every switch and every switch word."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from koikoi_p2p.cli.cmd_rules import describe
from koikoi_p2p.cli.i18n import yaku_name
from koikoi_p2p.cli.rules_text import (
    SWITCH,
    SWITCH_HELP_CONTEXT,
    SWITCH_LABELS,
    VALUE_WORDS,
    choice_words,
    rules_said,
    summary_lines,
    switch_label,
    switch_value,
    value_context,
    yaku_rules,
)
from koikoi_p2p.rules.describe import SWITCH_HELP, summary, yaku_table
from koikoi_p2p.rules.profile import PRESETS, SWITCH_CHOICES, SWITCHES, Profile, preset
from tests.e2e.test_cli_practice_pty import english_left, raw_left
from tests.e2e.test_cli_support import SCRIPT, env_for
from tests.unit.test_catalogue import ROOT, po, translated


def rules(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``koikoi rules ARGS`` as a player runs it, with its own empty home."""
    return subprocess.run([str(SCRIPT), "rules", *args], env=env_for(home), capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.mark.parametrize("name", list(PRESETS))
def test_koikoi_rules_in_japanese_shows_no_english(tmp_path: Path, name: str) -> None:
    done = rules(tmp_path, name, "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert "役:" in done.stdout and "五光" in done.stdout
    assert english_left(done.stdout) == [], english_left(done.stdout)


def test_a_custom_profile_in_japanese_shows_no_english(tmp_path: Path) -> None:
    done = rules(tmp_path, "nintendo", "--lang", "ja", "--switch", "koikoi_multiplier=none",
                 "--switch", "hand_yaku=tenho:6", "--switch", "viewing=bonus_only")
    assert done.returncode == 0, done.stderr
    assert "nintendo の変更版" in done.stdout and "天和" in done.stdout
    assert english_left(done.stdout) == [], english_left(done.stdout)


@pytest.mark.parametrize("name", list(PRESETS))
def test_koikoi_rules_in_english_shows_no_raw_id_and_no_wrong_plural(tmp_path: Path, name: str) -> None:
    done = rules(tmp_path, name, "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert "goko" in done.stdout
    # The switch table names each switch and value as `--switch NAME=VALUE` takes them (what each
    # means is checked below); the sentences above it and the yaku table after it are in words.
    said = done.stdout.split("\nswitches (")[0] + done.stdout.split("\nyaku:")[1]
    assert "Koi-koi:" in said and "ame-shiko" in said and raw_left(said) == [], raw_left(said)


def help_column(said: str) -> str:
    """The third column of ``koikoi rules``'s switch table (what each switch means), its folded
    lines joined; an id to type, quoted, may be folded inside ('next_improvement_ends\n_round')."""
    rows = said.split("\nswitches (")[1].splitlines()[1:]
    rows = rows[:next((i for i, row in enumerate(rows) if not row.startswith("  ")), len(rows))]
    column = rows[0].index("name of the profile")
    text = " ".join(row[column:].strip() for row in rows if len(row) > column)
    while True:
        joined = re.sub(r"(?<![A-Za-z])'([^'\s]*) ([^'\s]*)'", r"'\1\2'", text)
        if joined == text:
            return text
        text = joined


@pytest.mark.parametrize("name", ["nintendo", "koikoi-online"])
def test_the_switch_table_says_what_each_switch_means_in_words(tmp_path: Path, name: str) -> None:
    """The switch table's names and values are what ``--switch NAME=VALUE`` takes; what each one
    means is said in words, an id to type only quoted ('per_seat'), yaku by their names."""
    done = rules(tmp_path, name, "--lang", "en")
    meaning = help_column(done.stdout)
    assert "ame-shiko" in meaning and "'per_seat'" in meaning, meaning
    assert raw_left(meaning) == [], raw_left(meaning)


def test_a_custom_profile_in_english_shows_no_raw_id(tmp_path: Path) -> None:
    done = rules(tmp_path, "nintendo", "--lang", "en", "--switch", "koikoi_multiplier=none",
                 "--switch", "hand_yaku=tenho:6", "--switch", "viewing=bonus_only",
                 "--switch", "single_yaku=true", "--switch", "single_yaku_scope=extensions",
                 "--switch", "hand_yaku=double_tenho:8")
    assert done.returncode == 0, done.stderr
    said = done.stdout.split("\nswitches (")[0] + done.stdout.split("\nyaku:")[1]
    assert "Koi-koi:" in said and raw_left(said) == [], raw_left(said)


def test_raw_left_finds_what_it_looks_for() -> None:
    assert raw_left("koikoi_multiplier: none; 1 points; 3 card; ame_shiko") == [
        "1 points", "3 card", "ame_shiko", "koikoi_multiplier"]
    assert raw_left("1 point, 3 cards, --switch koikoi_multiplier=none, ame-shiko, ./a_b/c.json") == []
    assert raw_left("final scores: player 0 10 - 0 player 1") == []  # a score, then a seat


def test_a_wrong_switch_is_refused_in_japanese(tmp_path: Path) -> None:
    done = rules(tmp_path, "--lang", "ja", "--switch", "nonsense")
    assert done.returncode == 2
    # What was typed is quoted back as typed.
    assert english_left(done.stderr.removeprefix("koikoi rules:").replace("nonsense", "")) == [], done.stderr
    done = rules(tmp_path, "nosuch", "--lang", "ja")
    assert done.returncode == 2 and "nosuch" in done.stderr
    assert english_left(done.stderr.removeprefix("koikoi rules:")) == [], done.stderr


def summary_ja(profile: Profile) -> list[str]:
    return summary_lines(profile, "ja")


def yaku_rules_ja(profile: Profile) -> dict[str, str]:
    return yaku_rules(profile, "ja")


def test_every_switch_and_switch_word_has_japanese() -> None:
    labels_ja = translated("ja", SWITCH)
    helps = translated("ja", SWITCH_HELP_CONTEXT)
    helps_ja_by_key = {k: helps[text] for k, text in SWITCH_HELP.items() if text in helps}
    values_ja = {m.context.removeprefix("value of "): translated("ja", m.context)
                for m in po("ja") if m.context and m.context.startswith("value of ")}
    assert set(labels_ja) == set(SWITCH_LABELS.values())
    assert set(SWITCH_LABELS) == set(helps_ja_by_key) == set(SWITCH_HELP) == set(SWITCHES)
    assert set(SWITCH_CHOICES) <= set(values_ja) and set(VALUE_WORDS) == set(SWITCH_CHOICES)
    for key, words in SWITCH_CHOICES.items():
        assert set(VALUE_WORDS[key]) == set(words), key
        assert set(values_ja[key]) == set(VALUE_WORDS[key].values()), key
    assert len(set(labels_ja.values())) == len(labels_ja)  # no two switches read alike


def _browser() -> tuple[dict[str, object], dict[str, dict[str, dict[str, object]]]]:
    """The browser's English source (section web) and its compiled messages (lang -> section ->
    key -> text), as web/app/build.mjs writes them into src/messages.js."""
    english = json.loads((ROOT / "web" / "app" / "messages.en.json").read_text(encoding="utf-8"))["web"]
    compiled = (ROOT / "web" / "app" / "src" / "messages.js").read_text(encoding="utf-8")
    found = re.search(r"export const MESSAGES = (\{.*\});", compiled, re.S)
    assert found
    return english, json.loads(found[1])


def test_the_terminal_and_the_browser_name_each_switch_and_value_with_one_entry() -> None:
    """A switch's label is the browser's sw_<switch> and a choice's words its sv_<switch>_<value>:
    the same msgid and context (one catalogue entry, one translation), and both clients say the
    same in every language; a yes/no switch says the shared "yes" and "no" (no context)."""
    english, compiled = _browser()
    assert {k.removeprefix("sw_") for k in english if k.startswith("sw_")} == set(SWITCH_LABELS)
    for key, label in SWITCH_LABELS.items():
        assert english[f"sw_{key}"] == {"msgid": label, "context": SWITCH}, key
    choices = {k for k in english if any(k.startswith(f"sv_{key}_") for key in VALUE_WORDS)}
    assert choices == {f"sv_{key}_{value}" for key, words in VALUE_WORDS.items() for value in words}
    for key, words in VALUE_WORDS.items():
        for value, said in words.items():
            entry = {"msgid": said, "context": value_context(key)}
            assert english[f"sv_{key}_{value}"] == entry, (key, value)
    assert english["yes"] == {"msgid": "yes", "context": None}
    assert english["no"] == {"msgid": "no", "context": None}
    yaku = {lang: {"both": yaku_name("akatan_aotan", lang), "a": yaku_name("akatan", lang),
                   "b": yaku_name("aotan", lang)} for lang in ("en", "ja")}
    for lang in ("en", "ja"):
        web = compiled[lang]["web"]
        for key in SWITCH_LABELS:
            assert web[f"sw_{key}"] == switch_label(key, lang), (lang, key)
        for key, words in VALUE_WORDS.items():
            for value in words:
                browser = str(web[f"sv_{key}_{value}"]).format(**yaku[lang])
                assert browser == choice_words(key, value, lang), (lang, key, value)
        nintendo = preset("nintendo")
        for flag in ("cup_is_plain", "brights_add"):
            said = switch_value(nintendo, flag, lang)
            assert said == web["yes" if getattr(nintendo, flag) else "no"], (lang, flag)


@pytest.mark.parametrize("name", list(PRESETS))
def test_both_languages_describe_the_same_rules(name: str) -> None:
    profile = preset(name)
    assert len(summary_ja(profile)) == len(summary(profile))
    assert list(yaku_rules_ja(profile)) == [row["id"] for row in yaku_table(profile)]
    en, ja = describe(profile, name, {}, "en"), describe(profile, name, {}, "ja")
    assert len(ja) == len(en) + 1  # the Japanese screen adds where to read the switch names


def test_every_switch_value_of_every_preset_reads_in_japanese() -> None:
    for name in PRESETS:
        profile = preset(name)
        for key in SWITCHES:
            assert english_left(switch_value(profile, key, "ja")) == [], (name, key)


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], env=env_for(home), capture_output=True, text=True, timeout=60,
                          check=False)


def test_koikoi_score_and_cards_in_japanese_show_no_english(tmp_path: Path) -> None:
    done = run(tmp_path, "score", "--lang", "ja", "--month", "8", "--calls", "A", "01-crane", "03-curtain",
               "08-moon", "09-cup")
    assert done.returncode == 0, done.stderr
    assert "花見で一杯" in done.stdout and "基本点: 15" in done.stdout
    assert english_left(done.stdout) == [], done.stdout
    done = run(tmp_path, "score", "--lang", "ja", "03-curtan")  # a wrong id: the nearest ones, in Japanese
    assert done.returncode == 2 and "03-curtain" in done.stderr
    assert english_left(done.stderr.replace("koikoi score:", "")) == [], done.stderr
    for wrong in (["--month", "13"], ["--calls", "C"], ["--calls", "A,B"], ["99"], ["01-crane", "01-crane"]):
        done = run(tmp_path, "score", "--lang", "ja", *wrong, "01-crane")
        assert done.returncode == 2, done.stderr
        assert english_left(done.stderr.replace("koikoi score:", "")) == [], done.stderr
    done = run(tmp_path, "score", "--lang", "ja")  # no cards: how to name them, and the list
    assert done.returncode == 2 and "松に鶴" in done.stdout
    assert english_left(done.stdout + done.stderr) == [], done.stdout + done.stderr
    done = run(tmp_path, "cards", "--lang", "ja", "9", "タネ")
    assert done.returncode == 0 and done.stdout.split() == ["32", "09-cup", "09A", "種札", "菊に盃"]
    done = run(tmp_path, "cards", "--lang", "ja")
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 48
    assert english_left(done.stdout) == [], done.stdout
    done = run(tmp_path, "cards", "--lang", "ja", "thirteen")
    assert done.returncode == 2 and english_left(done.stderr.replace("thirteen", "")) == [], done.stderr
    assert run(tmp_path, "cards").stdout.splitlines()[0].split()[4:] == ["Crane", "and", "Sun", "松に鶴"]


@pytest.mark.parametrize("switch", ["rounds=-1", "viewing=maybe", "hand_yaku=foo:3", "joker_card=xx",
                                    "bright_values=1", "hanami_cancelled_by=zz", "cup_is_plain=maybe",
                                    "cup_either=true"])
def test_a_refused_switch_value_says_what_it_takes_in_japanese(switch: str) -> None:
    from koikoi_p2p.cli.switches import SwitchError, apply_switches

    with pytest.raises(SwitchError) as refused:
        apply_switches(preset("nintendo"), [switch])
    key = switch.split("=")[0]
    english = refused.value.describe("en")
    assert english.startswith(f"--switch {switch}: ")
    assert any(word in english for word in ("expected", "needs", "joker_card is")), english
    japanese = refused.value.describe("ja")
    assert switch_label(key, "ja") in japanese
    # Left in Latin letters: only what is typed (the item, and the words and ids the switch takes).
    from koikoi_p2p.rules.profile import HAND_YAKU_IDS

    typed = {*switch.replace("=", " ").replace(":", " ").split(), *SWITCH_CHOICES.get(key, ()),
             *HAND_YAKU_IDS, "true", "false", "none"}
    left = english_left(japanese.replace("--lang en", ""))  # the command to type for the English reason
    assert set(left) <= {w for t in typed for w in t.replace("_", " ").split()}, japanese


def test_both_languages_follow_every_switch_word_of_every_preset() -> None:
    """The Japanese rendering is a parallel of describe.py: for each preset and each value of each
    switch that takes words or true/false (and the hand yaku), the same lines and yaku rows."""
    from koikoi_p2p.rules.errors import RulesError

    values: dict[str, tuple[object, ...]] = {key: words for key, words in SWITCH_CHOICES.items()}
    for key in SWITCHES:
        if isinstance(getattr(preset("nintendo"), key), bool):
            values[key] = (True, False)
    values["hand_yaku"] = ({}, {"teshi": 6, "kuttsuki": 6}, {"tenho": 6, "double_tenho": 14})
    values["monthly_yaku_points"] = (0, 4)
    values["pool_start"] = (0, 30)
    values["max_calls_per_round"] = (0, 1, 3)
    tried = 0
    for name in PRESETS:
        for key, choices in values.items():
            for value in choices:
                try:
                    profile = preset(name).with_switches(**{key: value})
                except RulesError:
                    continue  # a combination the rules refuse
                tried += 1
                assert len(summary_ja(profile)) == len(summary(profile)), (name, key, value)
                assert list(yaku_rules_ja(profile)) == [row["id"] for row in yaku_table(profile)], (name, key)
                assert english_left("\n".join(describe(profile, name, {}, "ja"))) == [], (name, key, value)
    assert tried > 300


def test_the_japanese_rules_are_said_from_the_english_parts() -> None:
    """describe.py's summary and yaku rules are Phrase parts; the Japanese screen renders the same
    parts from its catalogue, so a new or changed English part without its Japanese fails here."""
    import ast
    import string

    import koikoi_p2p.rules.describe as describe_module

    source = ast.parse(Path(describe_module.__file__).read_text(encoding="utf-8"))
    templates = {node.args[0].value for node in ast.walk(source)
                 if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "P" and node.args
                 and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)}
    assert len(templates) > 80
    catalogue = translated("ja")
    assert sorted(templates - set(catalogue)) == []
    rules_ja_table = {template: catalogue[template] for template in templates}

    def rules_ja(text: object) -> str:
        return rules_said(text, "ja")

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    assert all(fields(en) == fields(ja) for en, ja in rules_ja_table.items())
    for name in PRESETS:
        profile = preset(name)
        for line in summary(profile):
            assert english_left(rules_ja(line)) == [], line
        for row in yaku_table(profile):
            said = rules_ja(row["rule"])
            assert english_left(re.sub(r"\d\d-[a-z]+\d?", " ", said)) == [], said
