"""``koikoi rules [PRESET]``: a rule profile's switches and yaku table."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


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
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.cmd_score import parse_switches
    from koikoi_p2p.rules.describe import SWITCH_HELP, summary, yaku_table
    from koikoi_p2p.rules.errors import RulesError
    from koikoi_p2p.rules.profile import PRESETS, differences

    try:
        profile = parse_switches(args.preset, args.switch)
    except (RulesError, ValueError) as exc:
        print(f"koikoi rules: {exc}", file=sys.stderr)
        return 2
    table = yaku_table(profile)
    changed = differences(profile, args.preset)
    if args.json:
        print(json.dumps({"name": profile.name, "based_on": args.preset, "differences": changed,
                          "summary": summary(profile), "switches": profile.every_switch(), "yaku": table,
                          "encoding": profile.encode().decode(), "presets": list(PRESETS)},
                         indent=2, ensure_ascii=False))
        return 0
    print(f"rule profile {profile.name} (presets: {', '.join(PRESETS)})")
    if changed:
        print(f"custom, based on {args.preset}: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    print()
    for line in summary(profile):
        print(line)
    print()
    print("switches (* = changed from the preset):")
    width = max(len(k) for k in SWITCH_HELP)
    for key in profile.every_switch():
        shown = profile.switch_text(key)
        mark = "*" if key in changed else " "
        print(f" {mark}{key:<{width}}  {shown:<28} {SWITCH_HELP.get(key, '')}")
    print()
    print("yaku:")
    ywidth = max(len(str(row["id"])) for row in table)
    for row in table:
        print(f"  {row['id']!s:<{ywidth}}  {row['points']!s:>3}  {row['rule']}")
    return 0
