"""``koikoi cards``: the 48 cards with their ids (what ``koikoi score`` takes), in both languages."""

from __future__ import annotations

import argparse
import json
from typing import Any

from koikoi_p2p.cli.i18n import tr
from koikoi_p2p.cli.options import add_lang

# Other spellings a player may type for a class, besides its name in each language of the
# catalogue (class_words). These are input, not text shown to anyone: what a Japanese player types
# when the name is shortened (光 for 光札) or written as the yaku is (タネ, タン), so they are kept
# here as data, like the card ids, rather than translated.
CLASS_SPELLINGS = {"光": "bright", "タネ": "animal", "種": "animal", "タン": "ribbon"}


def class_words() -> dict[str, str]:
    """Every word that names a class: its name in each language (the catalogue's context
    ``class``, spec/glossary.md §4), lower case, and the spellings above."""
    from koikoi_p2p.cli.cardnames import CLASS_EN, class_name
    from koikoi_p2p.cli.settings import LANGUAGES

    named = {class_name(klass, lang).lower(): klass for lang in LANGUAGES for klass in CLASS_EN}
    return {**named, **CLASS_SPELLINGS}


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
    words = class_words()
    for item in args.only:
        text = item.strip().lower()
        if text.isdecimal() and 1 <= int(text) <= 12:
            months.add(int(text))
        elif text in words or text.removesuffix("s") in words:   # an English plural too
            classes.add(words.get(text) or words[text.removesuffix("s")])
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
        print(f"{c.index:>2}  {c.id:<{width}}  {card_code(c.index)}  {class_name(c.klass, lang):<6}  "
              f"{c.name_en:<{name_width}}  {c.name_ja}")
    return 0
