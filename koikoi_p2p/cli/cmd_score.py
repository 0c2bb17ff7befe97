"""``koikoi score``: the yaku and round score of a captured pile under a rule profile."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a captured pile: yaku, base and round score under a rule profile",
        description=(
            "Print the yaku and base total of a captured pile (card ids such as 01-crane) and the round "
            "score after the profile's doubling and koi-koi multiplier. --calls lists the round's koi-koi "
            "calls in order by seat (A or B); --winner says whose pile it is (default A)."
        ),
    )
    parser.add_argument("--rules", default="nintendo", metavar="PRESET", help="rule preset (nintendo)")
    parser.add_argument("--switch", action="append", default=[], metavar="KEY=VALUE",
                        help="change a switch of the preset (repeatable): cup_is_plain=false, "
                             "hand_yaku=teshi:6")
    parser.add_argument("--month", type=int, default=None, metavar="M", help="the round's month, 1..12")
    parser.add_argument("--calls", default="", metavar="A,B,...", help="koi-koi calls of the round, in order")
    parser.add_argument("--winner", default="A", choices=("A", "B", "a", "b"), metavar="A|B",
                        help="the seat whose pile it is (default A)")
    parser.add_argument("--json", action="store_true",
                        help='print {"yaku": {...}, "base": N, "round_score": N}')
    parser.add_argument("cards", nargs="*", metavar="CARD_ID", help="captured cards: ids or indices")
    parser.set_defaults(handler=_handle)


def _seat(text: str) -> int:
    letter = text.strip().upper()
    if letter not in ("A", "B"):
        raise ValueError(f"a call is A or B, not {text!r}")
    return 0 if letter == "A" else 1


def parse_switches(preset_name: str, items: list[str]) -> Any:
    """The preset with ``NAME=VALUE`` changes, each VALUE read by ``rules.profile.parse_switch``."""
    from koikoi_p2p.rules.profile import preset

    changes: dict[str, object] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"a switch is NAME=VALUE, not {item!r}")
        changes[key.strip()] = raw
    profile = preset(preset_name)
    return profile.with_switches(changes) if changes else profile


def _handle(args: argparse.Namespace) -> int:
    from koikoi_p2p.rules.errors import RulesError
    from koikoi_p2p.rules.scoring import round_score, score_yaku

    try:
        profile = parse_switches(args.rules, args.switch)
        calls = [_seat(c) for c in args.calls.split(",") if c.strip()] if args.calls else []
        limit = profile.max_calls_per_round
        per_seat = profile.call_limit == "per_seat"
        used = max(calls.count(0), calls.count(1)) if per_seat else len(calls)
        if limit and used > limit:
            whose = "by one player " if per_seat else ""
            raise ValueError(f"{profile.name} allows {limit} koi-koi call(s) {whose}in a round, not {used}")
        winner = _seat(args.winner)
        cards: list[int | str] = [int(c) if c.isascii() and c.isdigit() else c for c in args.cards]
        yaku = score_yaku(cards, profile, args.month)
        base = sum(yaku.values())
        total = round_score(base, calls, winner, profile)
    except (RulesError, ValueError) as exc:
        print(f"koikoi score: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"yaku": yaku, "base": base, "round_score": total}, separators=(",", ":")))
        return 0
    width = max((len(k) for k in yaku), default=4)
    print(f"rules: {profile.name}" + (f", month {args.month}" if args.month else ""))
    if not yaku:
        print("no yaku")
    for key, points in yaku.items():
        print(f"  {key:<{width}}  {points:>3}")
    print(f"base: {base}")
    who = "AB"[winner]
    shown_calls = ",".join("AB"[c] for c in calls) or "none"
    print(f"round score: {total} (winner {who}, calls {shown_calls})")
    return 0
