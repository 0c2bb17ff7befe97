"""``koikoi score``: the yaku and round score of a captured pile under a rule profile."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from koikoi_p2p.cli.i18n import tr, yaku_name
from koikoi_p2p.cli.options import add_lang


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
    parser.add_argument("--rules", default="nintendo", metavar="PRESET",
                        help="rule preset (default: nintendo)")
    parser.add_argument("--switch", action="append", default=[], metavar="NAME=VALUE",
                        help="change a switch of the preset (repeatable): cup_is_plain=false, "
                             "hand_yaku=teshi:6")
    parser.add_argument("--month", type=int, default=None, metavar="M", help="the round's month, 1..12")
    parser.add_argument("--calls", default="", metavar="A,B,...", help="koi-koi calls of the round, in order")
    parser.add_argument("--winner", default="A", choices=("A", "B", "a", "b"), metavar="A|B",
                        help="the seat whose pile it is (default A)")
    parser.add_argument("--json", action="store_true",
                        help='print {"yaku": {...}, "base": N, "round_score": N}')
    parser.add_argument("cards", nargs="*", metavar="CARD_ID",
                        help="captured cards: ids (koikoi cards lists them), indices 0-47 or names")
    add_lang(parser, remembered=False)
    parser.set_defaults(handler=_handle)


def _seat(text: str, lang: str = "en") -> int:
    letter = text.strip().upper()
    if letter not in ("A", "B"):
        raise ValueError(tr(lang, "a call is A or B, not {text!r}", text=text))
    return 0 if letter == "A" else 1


def parse_switches(preset_name: str, items: list[str]) -> Any:
    """The preset with ``NAME=VALUE`` changes, each VALUE read by ``rules.profile.parse_switch``."""
    from koikoi_p2p.cli.switches import apply_switches
    from koikoi_p2p.rules.profile import preset

    return apply_switches(preset(preset_name), items)


def profile_problem(exc: Exception, preset_name: str, lang: str) -> str:
    """What was wrong with --rules/--switch (or another value), in ``lang``."""
    from koikoi_p2p.cli.switches import SwitchError
    from koikoi_p2p.rules.errors import RulesError
    from koikoi_p2p.rules.profile import PRESETS

    if isinstance(exc, SwitchError):
        return exc.describe(lang)
    if isinstance(exc, RulesError) and exc.reason == "unknown_preset":
        return tr(lang, "unknown rules preset {name!r}: the presets are {presets}.", name=preset_name,
                  presets=", ".join(PRESETS))
    if isinstance(exc, RulesError):
        return exc.message or exc.reason
    return str(exc)


def card_ref(text: str, lang: str = "en") -> int:
    """The card a person named: an id (03-curtain), an index (0-47), a code as the board shows it
    (03*, 04R) or a name in either language; a wrong one says which ids are nearest."""
    import difflib

    from koikoi_p2p.rules.cards import CARDS
    from koikoi_p2p.rules.errors import RulesError

    raw = text.strip()
    if raw.isascii() and raw.isdecimal():
        if int(raw) < len(CARDS):
            return int(raw)
        raise RulesError("unknown_card", tr(lang, "no card has the index {raw} (0-47)", raw=raw))
    lowered = raw.lower()
    for c in CARDS:
        if lowered in (c.id, c.name_en.lower(), c.name_ja) and (lowered != c.name_en.lower() or _unique(c)):
            return c.index
    # The code the board shows before a card's name and the prompts take (04R, 03*, 08A, 01.):
    # one card, or, for a month's plains, the ids to choose from (terminal QA).
    from koikoi_p2p.cli.cardnames import card_code

    coded = [c for c in CARDS if card_code(c.index).lower() == lowered]
    if len(coded) == 1:
        return coded[0].index
    if coded:
        raise RulesError("unknown_card", tr(lang, "the code {raw!r} names several cards: {ids}", raw=raw,
                                            ids=", ".join(c.id for c in coded)))
    ids = [c.id for c in CARDS]
    near = difflib.get_close_matches(lowered, ids, n=3, cutoff=0.5)
    month = lowered[:2]
    if not near and month.isdecimal():
        near = [i for i in ids if i.startswith(month)]
    hint = tr(lang, "; nearest: {ids}", ids=", ".join(near)) if near else ""
    problem = tr(lang, "no card has the id {raw!r}{hint} (koikoi cards lists them all)", raw=raw, hint=hint)
    raise RulesError("unknown_card", problem)


def _unique(c: Any) -> bool:
    from koikoi_p2p.rules.cards import CARDS

    return sum(1 for other in CARDS if other.name_en == c.name_en) == 1


def _handle(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.setup import command_lang
    from koikoi_p2p.cli.style import display_width
    from koikoi_p2p.rules.errors import RulesError
    from koikoi_p2p.rules.profile import PRESETS
    from koikoi_p2p.rules.scoring import round_score, score_yaku

    lang = "en" if args.json else command_lang(args)
    try:
        profile = parse_switches(args.rules, args.switch)
        calls = [_seat(c, lang) for c in args.calls.split(",") if c.strip()] if args.calls else []
        limit = profile.max_calls_per_round
        per_seat = profile.call_limit == "per_seat"
        used = max(calls.count(0), calls.count(1)) if per_seat else len(calls)
        if limit and used > limit:
            if per_seat:
                raise ValueError(tr(lang, "{rules} allows {limit} koi-koi call(s) by one player in a round, "
                                          "not {used}", rules=profile.name, limit=limit, used=used))
            raise ValueError(tr(lang, "{rules} allows {limit} koi-koi call(s) in a round, not {used}",
                                rules=profile.name, limit=limit, used=used))
        if args.month is not None and not 1 <= args.month <= 12:
            raise ValueError(tr(lang, "--month is the round's month, 1..12, not {month}", month=args.month))
        winner = _seat(args.winner, lang)
        if not args.cards:
            return _list_cards(lang)
        cards: list[int | str] = [card_ref(c, lang) for c in args.cards]
        if len(set(cards)) != len(cards):
            raise ValueError(tr(lang, "a card is named twice"))
        # The pile is the winner's: it has called when it is among --calls (viewing_by_call).
        yaku = score_yaku(cards, profile, args.month, winner in calls)
        base = sum(yaku.values())
        total = round_score(base, calls, winner, profile)
    except (RulesError, ValueError) as exc:
        print(f"koikoi score: {profile_problem(exc, args.rules, lang)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"yaku": yaku, "base": base, "round_score": total}, separators=(",", ":")))
        return 0
    # English keeps the engine's yaku ids (what --json prints); Japanese shows the usual names.
    names = {key: yaku_name(key, "ja") if lang == "ja" else key for key in yaku}
    width = max((display_width(n) for n in names.values()), default=4)
    rules = profile.name if lang != "ja" or profile.name in PRESETS else \
        tr(lang, "custom, based on {base}", base=args.rules)
    print(tr(lang, "rules: {rules}, month {month}", rules=rules, month=args.month) if args.month
          else tr(lang, "rules: {rules}", rules=rules))
    if not yaku:
        print(tr(lang, "no yaku"))
    for key, points in yaku.items():
        print(f"  {names[key]}{' ' * (width - display_width(names[key]))}  {points:>3}")
    print(tr(lang, "base: {n}", n=base))
    who = "AB"[winner]
    shown_calls = ",".join("AB"[c] for c in calls) or tr(lang, "none")
    print(tr(lang, "round score: {total} (winner {who}, calls {calls})", total=total, who=who,
             calls=shown_calls))
    return 0


def _list_cards(lang: str) -> int:
    """No cards given: say how to name them, with the whole list."""
    from koikoi_p2p.cli.cmd_cards import _handle as cards

    print("koikoi score: " + tr(lang, "name the captured cards by id (or index), e.g. koikoi score 01-crane "
                                      "03-curtain 08-moon. The ids:"), file=sys.stderr)
    cards(argparse.Namespace(only=[], json=False, lang=lang))
    return 2
