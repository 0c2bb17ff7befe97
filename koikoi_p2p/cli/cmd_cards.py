"""``koikoi cards``: the 48 cards with their ids (what ``koikoi score`` takes), in both languages."""

from __future__ import annotations

import argparse
import json
from typing import Any

from koikoi_p2p.cli.i18n import tr
from koikoi_p2p.cli.options import add_lang

# The classes as a Japanese player may type them.
CLASS_WORDS_JA = {"光": "bright", "光札": "bright", "タネ": "animal", "種": "animal", "種札": "animal",
                  "短冊": "ribbon", "タン": "ribbon", "カス": "plain"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "cards",
        help="list the 48 cards: id, month, class and name in English and Japanese",
        description="List the 48 cards with the ids that koikoi score takes (such as 03-curtain), the "
                    "code the board shows (month and class mark: * bright, A animal, R ribbon, . plain), "
                    "and the names in English and Japanese. MONTH or CLASS narrows the list.",
    )
    parser.add_argument("only", nargs="*", metavar="MONTH|CLASS",
                        help="a month number (1-12) or a class (bright, animal, ribbon, plain)")
    parser.add_argument("--json", action="store_true", help="print the cards as a JSON list")
    add_lang(parser, remembered=False)
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    import sys

    from koikoi_p2p.cli.cardnames import card_code, class_name
    from koikoi_p2p.cli.setup import command_lang
    from koikoi_p2p.cli.style import display_width
    from koikoi_p2p.rules.cards import CARDS

    lang = "en" if args.json else command_lang(args)

    months: set[int] = set()
    classes: set[str] = set()
    for item in args.only:
        text = item.strip().lower().removesuffix("s")
        if text.isdecimal() and 1 <= int(text) <= 12:
            months.add(int(text))
        elif text in ("bright", "animal", "ribbon", "plain"):
            classes.add(text)
        elif text in CLASS_WORDS_JA:
            classes.add(CLASS_WORDS_JA[text])
        else:
            problem = tr(lang, "{item!r} is neither a month (1-12) nor a class (bright, animal, ribbon, "
                               "plain)", item=item)
            print(f"koikoi cards: {problem}", file=sys.stderr)
            return 2
    shown = [c for c in CARDS if (not months or c.month in months) and (not classes or c.klass in classes)]
    if args.json:
        print(json.dumps([{"index": c.index, "id": c.id, "code": card_code(c.index), "month": c.month,
                           "class": c.klass, "name_en": c.name_en, "name_ja": c.name_ja} for c in shown],
                         indent=2, ensure_ascii=False))
        return 0
    width = max(len(c.id) for c in shown)
    if lang == "ja":
        # A Japanese screen: the class and the name in Japanese (the id is what koikoi score takes).
        kwidth = max(display_width(class_name(c.klass, "ja")) for c in shown)
        for c in shown:
            klass = class_name(c.klass, "ja")
            print(f"{c.index:>2}  {c.id:<{width}}  {card_code(c.index)}  "
                  f"{klass}{' ' * (kwidth - display_width(klass))}  {c.name_ja}")
        return 0
    name_width = max(len(c.name_en) for c in shown)
    for c in shown:
        print(f"{c.index:>2}  {c.id:<{width}}  {card_code(c.index)}  {c.klass:<6}  "
              f"{c.name_en:<{name_width}}  {c.name_ja}")
    return 0
