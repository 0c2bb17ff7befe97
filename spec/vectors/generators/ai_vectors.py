"""Generate spec/vectors/ai/value_positions.json: the learned value network on recorded positions.

    python spec/vectors/generators/ai_vectors.py [--check]

Positions come from two seeded strong-against-strong matches (koikoi_p2p/ai/selfplay_data.py):
each seat's compact row (koikoi_p2p/ai/features.py) at the start of every 7th play and of
every other play after a koi-koi call, then the shipped network's value of each
(koikoi_p2p/ai/value.py). tests/unit/test_ai_expert.py and web/test/ai/value_parity.test.js
recompute every value, in Python and in JavaScript, and compare them with these within
``tolerance``. The file names the weights' SHA-256: a new ``koikoi train`` output needs a
regeneration. With --check nothing is written; the exit status says whether the file on disk is
current.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from importlib import resources
from pathlib import Path

from koikoi_p2p.ai.features import MY_CALLS, THEIR_CALLS
from koikoi_p2p.ai.selfplay_data import generate
from koikoi_p2p.ai.value import WEIGHTS_FILE, shipped

OUT = Path(__file__).resolve().parent.parent / "ai" / "value_positions.json"
TOLERANCE = 1e-9
SOURCES = (("nintendo", 1), ("koikoi-online", 2))   # (preset, seed) of the one match each


def build() -> str:
    weights = resources.files("koikoi_p2p.ai").joinpath(WEIGHTS_FILE).read_bytes()
    rows: list[list[int]] = []
    for rules, seed in SOURCES:
        found = generate(rules, 1, seed)
        # Every 7th position, and every other one after a koi-koi call (the calls' and piles'
        # inputs are 0 in most positions; every 7th alone never had the opponent call).
        called = 0
        for i, row in enumerate(found.compact.tolist()):
            late = row[MY_CALLS] or row[THEIR_CALLS]
            called += bool(late)
            if i % 7 == 0 or (late and called % 2 == 1):
                rows.append(row)
    net = shipped()
    values = [float(v) for v in net.values(rows)]
    doc = {
        "about": "The learned value network (koikoi_p2p/ai/value.py, web/src/ai/value.js) on compact rows "
                 "(features.py): each value within tolerance in both languages.",
        "generator": "spec/vectors/generators/ai_vectors.py",
        "provenance": {"generator": "spec/vectors/generators/ai_vectors.py",
                       "positions": "koikoi_p2p/ai/selfplay_data.py generate(rules, 1, seed) for "
                                    + ", ".join(f"({r}, {n})" for r, n in SOURCES),
                       "values": "koikoi_p2p/ai/value.py on the weights named by weights_sha256",
                       "independent_check": "web/test/ai/value_parity.test.js recomputes every value"},
        "weights_sha256": hashlib.sha256(weights).hexdigest(),
        "tolerance": TOLERANCE,
        "cases": [],
    }
    head = json.dumps(doc, indent=1)[:-len('[]\n}')].rstrip()
    cases = ",\n  ".join(json.dumps({"compact": r, "value": v}, separators=(",", ":"))
                         for r, v in zip(rows, values, strict=True))
    return f"{head}[\n  {cases}\n ]\n}}\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = build()
    if args.check:
        current = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("current" if current else f"stale: {OUT.name}")
        return 0 if current else 1
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
