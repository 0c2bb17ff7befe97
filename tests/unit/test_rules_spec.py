"""spec/rules.md agrees with the code: preset table, every switch, yaku id and error reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

from koikoi_p2p.rules.cards import CARDS
from koikoi_p2p.rules.describe import SWITCH_HELP
from koikoi_p2p.rules.profile import EXTENSION_DEFAULTS, PRESETS, SWITCH_CHOICES, SWITCHES
from koikoi_p2p.rules.round import PHASE_NAMES
from koikoi_p2p.rules.scoring import YAKU_IDS

SPEC = Path(__file__).resolve().parents[2] / "spec" / "rules.md"


def test_preset_table_matches_the_code() -> None:
    text = SPEC.read_text(encoding="utf-8")
    header = "| switch | " + " | ".join(PRESETS) + " |"
    assert header in text
    section = text.split(header, 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in section.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = [json.loads(c.strip("`")) for c in cells[1:]]
    # every core switch, and the extension switches some preset sets (koikoi-japan, issue 28)
    set_somewhere = {key for profile in PRESETS.values() for key in profile.to_dict()}
    assert set(rows) == set_somewhere
    assert set(rows) >= set(SWITCHES) - set(EXTENSION_DEFAULTS)
    for i, profile in enumerate(PRESETS.values()):
        data = profile.every_switch()
        for key in rows:
            value = data[key]
            assert rows[key][i] == (list(value) if isinstance(value, tuple) else value), (profile.name, key)


def test_every_switch_value_yaku_and_card_is_documented() -> None:
    text = SPEC.read_text(encoding="utf-8")
    assert set(SWITCH_HELP) == set(SWITCHES)
    for key in SWITCHES:
        assert f"| `{key}` |" in text, key
    for choices in SWITCH_CHOICES.values():
        for choice in choices:
            assert f"`{choice}`" in text or f"{choice}" in text, choice
    for yaku in YAKU_IDS:
        assert f"`{yaku}`" in text, yaku
    for c in CARDS:
        assert f"| {c.index} | `{c.id}` | {c.month} | {c.klass} |" in text


def test_error_reasons_in_the_code_are_documented() -> None:
    text = SPEC.read_text(encoding="utf-8")
    root = Path(__file__).resolve().parents[2] / "koikoi_p2p" / "rules"
    reasons = set()
    for path in root.glob("*.py"):
        reasons |= set(re.findall(r'(?:RulesError|IllegalMove|InconsistentReveal)\("([a-z_]+)"',
                                  path.read_text(encoding="utf-8")))
    assert len(reasons) > 20
    errors_section = text.split("## 12. Errors", 1)[1].split("## 13.", 1)[0]
    missing = sorted(r for r in reasons if f"`{r}`" not in errors_section)
    assert not missing, missing


def test_phase_table_lists_every_phase() -> None:
    text = SPEC.read_text(encoding="utf-8")
    table = text.split("9.1.", 1)[1].split("9.2.", 1)[0]
    listed = [line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ")][1:]
    assert listed == list(PHASE_NAMES)


def test_extension_table_gives_each_switch_its_default() -> None:
    text = SPEC.read_text(encoding="utf-8")
    section = text.split("Extension switches.", 1)[1].split("\n\n", 2)[1]
    rows = {}
    for line in section.splitlines()[2:]:
        cells = [c.strip() for c in line.replace("\\|", "/").strip("|").split("|")]
        rows[cells[0].strip("`")] = json.loads(cells[2].strip("`"))
    assert set(rows) == set(EXTENSION_DEFAULTS)
    for key, default in EXTENSION_DEFAULTS.items():
        assert rows[key] == (list(default) if isinstance(default, tuple) else default), key
        for choice in SWITCH_CHOICES.get(key, ()):
            assert f"`{choice}`" in section, (key, choice)
