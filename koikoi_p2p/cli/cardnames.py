"""Card names in English or Japanese, and the short month-and-class tag shown beside them."""

from __future__ import annotations

from koikoi_p2p.cli.style import Style

# The months as the board's header names them (short, for 80 columns): the English is the message
# id of the catalogue's context ``month``, which also holds the browser's full names (January,
# web/app/messages.en.json); each language says both its own way (Japanese: 1月).
MONTH = "month"
MONTHS_SHORT = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# The months' plants (spec/glossary.md §3, the card table's plant_en): message ids of the context
# ``plant``, which the browser build compiles into its vocabulary.
PLANT = "plant"
# The classes' names (spec/glossary.md §4): the English is the message id of the catalogue's
# context ``class`` (cli/catalogue.py), which says them in the other languages.
CLASS = "class"
CLASS_EN = {"bright": "bright", "animal": "animal", "ribbon": "ribbon", "plain": "plain"}
# The kinds of ribbon (the same glossary section, same context): the browser's card label names them.
RIBBON_EN = {"poetry": "poetry ribbon", "blue": "blue ribbon", "red": "red ribbon"}
CLASS_MARK = {"bright": "*", "animal": "A", "ribbon": "R", "plain": "."}


def card_name(index: int, lang: str) -> str:
    from koikoi_p2p.rules.cards import card

    c = card(index)
    return c.name_ja if lang == "ja" else c.name_en


def card_code(index: int) -> str:
    """E.g. ``03*``: the month number and the class mark, the same in both languages."""
    from koikoi_p2p.rules.cards import card

    c = card(index)
    return f"{c.month:02d}{CLASS_MARK.get(c.klass, '?')}"


def card_label(index: int, lang: str, style: Style) -> str:
    """E.g. ``03* Cherry Curtain``: month number, a class mark, the name; coloured by class."""
    from koikoi_p2p.rules.cards import card

    c = card(index)
    return style.klass(f"{card_code(index)} {card_name(index, lang)}", c.klass)


def short_name(index: int, lang: str) -> str:
    """E.g. ``03 Cherry Poetry Ribbon``: month and name, uncoloured (inside other sentences)."""
    from koikoi_p2p.rules.cards import card

    return f"{card(index).month:02d} {card_name(index, lang)}"


def card_aliases(index: int) -> tuple[str, ...]:
    """What a person may type for a card besides its label: its id and its name in both languages."""
    from koikoi_p2p.rules.cards import card

    c = card(index)
    return (c.id, c.name_en, c.name_ja, f"{card_code(index)} {c.name_en}", f"{card_code(index)} {c.name_ja}")


def class_name(klass: str, lang: str) -> str:
    from koikoi_p2p.cli.catalogue import pgettext_in

    return pgettext_in(lang, CLASS, CLASS_EN[klass]) if klass in CLASS_EN else klass


def month_name(month: int, lang: str) -> str:
    from koikoi_p2p.cli.catalogue import pgettext_in

    return pgettext_in(lang, MONTH, MONTHS_SHORT[(month - 1) % 12])
