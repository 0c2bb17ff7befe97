"""Generate spec/vectors/ai/value_positions.json: the learned value network on recorded positions.

    python spec/vectors/generators/ai_vectors.py [--check]

Positions come from two seeded strong-against-strong matches (koikoi_p2p/ai/selfplay_data.py):
each seat's compact row (koikoi_p2p/ai/features.py) at the start of plays, then the shipped
network's value of each (koikoi_p2p/ai/value.py). tests/unit/test_ai_expert.py and
web/test/ai/value_parity.test.js recompute every value, in Python and in JavaScript, and
compare them with these within ``tolerance``. The file names the weights' SHA-256: a new
``koikoi train`` output needs a regeneration. With --check nothing is written; the exit status
says whether the file on disk is current.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from importlib import resources
from pathlib import Path

from koikoi_p2p.ai.selfplay_data import generate
from koikoi_p2p.ai.value import WEIGHTS_FILE, shipped

OUT = Path(__file__).resolve().parent.parent / "ai" / "value_positions.json"
TOLERANCE = 1e-9


def build() -> str:
    weights = resources.files("koikoi_p2p.ai").joinpath(WEIGHTS_FILE).read_bytes()
    rows: list[list[int]] = []
    for rules, seed in (("nintendo", 1), ("koikoi-online", 2)):
        found = generate(rules, 1, seed)
        rows.extend(found.compact[::7].tolist())
    net = shipped()
    values = [float(net.values(rows)[i]) for i in range(len(rows))]
    doc = {
        "about": "The learned value network (koikoi_p2p/ai/value.py, web/src/ai/value.js) on compact rows "
                 "(features.py): each value within tolerance in both languages.",
        "generator": "spec/vectors/generators/ai_vectors.py",
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
