"""spec/vectors/rules/describe.json: the rules' descriptions as messages, which the browser's
twin (web/src/rules/describe.js, web/test/rules/describe.test.js) must give alike, is what
koikoi_p2p/rules/describe.py says today, and each case's phrases are its English sentences."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from koikoi_p2p.rules.describe import summary, yaku_table
from koikoi_p2p.rules.profile import PRESETS, Profile

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"


def generator() -> ModuleType:
    path = VECTORS / "generators" / "describe_vectors.py"
    spec = importlib.util.spec_from_file_location("describe_vectors", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def english(part: object) -> str:
    """A phrase tree read back as its English (what Python's Phrase reads as)."""
    if isinstance(part, dict):
        if "word" in part:
            return str(part["word"])
        template = str(part["t"])
        values = {k: english(v) for k, v in part["v"].items()}
        return template.format(**values) if values else template
    return str(part)


def test_the_generator_is_current() -> None:
    assert generator().build() == (VECTORS / "rules" / "describe.json").read_text(encoding="utf-8")


def test_every_preset_and_the_phrases_read_as_the_english() -> None:
    cases = json.loads((VECTORS / "rules" / "describe.json").read_text(encoding="utf-8"))["cases"]
    assert [c["label"] for c in cases[: len(PRESETS)]] == list(PRESETS)
    for c in cases:
        profile = Profile.from_dict(c["profile"])
        assert [english(t) for t in c["summary"]] == [str(line) for line in summary(profile)], c["label"]
        assert [english(r["rule"]) for r in c["yaku"]] == [str(r["rule"]) for r in yaku_table(profile)]
