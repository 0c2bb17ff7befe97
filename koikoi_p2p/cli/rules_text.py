"""The rules as a screen says them: switch names, what each switch means, its values, what it
takes, and the yaku rules and summary of ``rules/describe.py``.

English is the rules package's own words (switch ids, ``describe.SWITCH_HELP``,
``Profile.switch_text``). Another language says them from the gettext catalogue: a switch's label
in the context ``switch``, its meaning in ``switch help``, the words a switch takes in ``value of
<switch>`` (so one value id, such as ``draw``, can read differently for two switches), and
describe's ``Phrase`` parts by their templates, with the yaku ids inside them (``Word``) said by
their names. The rules package stays pure and English; both languages are built from its parts,
so they cannot drift. ``messages`` lists what the catalogue needs for extraction (cli/i18n.py).
"""

from __future__ import annotations

from koikoi_p2p.cli.catalogue import pgettext_in, say
from koikoi_p2p.cli.i18n import tr, yaku_name
from koikoi_p2p.rules.profile import PRESETS, Profile

SWITCH = "switch"
SWITCH_HELP_CONTEXT = "switch help"
SWITCH_VALUE = "switch value"  # true, false, none, custom: what any switch may read


def _reads(word: str, lang: str) -> str:
    """``true``, ``false``, ``none`` or ``custom`` as any switch's value reads."""
    return pgettext_in(lang, SWITCH_VALUE, word)


def value_context(key: str) -> str:
    return f"value of {key}"


def listed(items: list[str], lang: str) -> str:
    """``a, b, c`` as the language joins a list (the same part describe's lists use)."""
    said = items[-1] if items else ""
    for first in reversed(items[:-1]):
        said = tr(lang, "{first}, {rest}", first=first, rest=said)
    return said


def switch_label(key: str, lang: str) -> str:
    return key if lang == "en" else pgettext_in(lang, SWITCH, key)


def switch_help(key: str, lang: str) -> str:
    from koikoi_p2p.rules.describe import SWITCH_HELP

    text = SWITCH_HELP.get(key, "")
    return text if lang == "en" or not text else pgettext_in(lang, SWITCH_HELP_CONTEXT, text)


def switch_value(profile: Profile, key: str, lang: str) -> str:
    """One switch's value as the screen shows it; card ids, numbers and preset names stay."""
    from koikoi_p2p.rules.profile import SWITCH_CHOICES

    if lang == "en":
        return profile.switch_text(key)
    value = getattr(profile, key)
    if isinstance(value, bool):
        return _reads("true" if value else "false", lang)
    if key in SWITCH_CHOICES:
        return pgettext_in(lang, value_context(key), str(value))
    if key == "hand_yaku":
        items = list(value.items()) if isinstance(value, dict) else list(value)
        named = [tr(lang, "{yaku} {points}", yaku=yaku_name(str(k), lang), points=v) for k, v in items]
        return listed(named, lang) or _reads("none", lang)
    if key == "name" and value not in PRESETS:
        return _reads("custom", lang)  # the first line says what it is based on
    text = profile.switch_text(key)
    return _reads("none", lang) if text == "none" else text


def allowed(key: str, lang: str) -> str:
    """What a switch takes; the words and ids to type stay as they are typed."""
    from koikoi_p2p.rules.profile import HAND_YAKU_IDS, SWITCH_CHOICES, preset

    value = getattr(preset("nintendo"), key, None)
    if isinstance(value, bool):
        return tr(lang, "true or false")
    if isinstance(value, int):
        return tr(lang, "a whole number from 0 to 10000")
    if key in SWITCH_CHOICES:
        return tr(lang, "one of: {choices}", choices=", ".join(SWITCH_CHOICES[key]))
    if key == "name":
        return tr(lang, "1 to 40 characters of a-z, 0-9, '-' and '_'")
    if key == "bright_values":
        return tr(lang, "four points (1 to 100) for goko, shiko, ame-shiko and sanko, e.g. 10,8,7,5")
    if key == "hand_yaku":
        hand = listed([f"{k} ({yaku_name(k, lang)})" for k in HAND_YAKU_IDS], lang)
        return tr(lang, "none, or hand yaku:points pairs, e.g. teshi:6,kuttsuki:6 (hand yaku: {hand})",
                  hand=hand)
    if key == "joker_card":
        return tr(lang, "none, or the id of an animal card other than 09-cup")
    return tr(lang, "none, or card ids and month numbers separated by commas, e.g. 11-rainman or 11,12")


def rules_said(text: object, lang: str) -> str:
    """A part of describe.py in ``lang``; its yaku ids by their names."""
    return say(lang, text, lambda code: yaku_name(code, lang))


def yaku_rules(profile: Profile, lang: str) -> dict[str, str]:
    from koikoi_p2p.rules.describe import yaku_table

    return {str(row["id"]): rules_said(row["rule"], lang) for row in yaku_table(profile)}


def summary_lines(profile: Profile, lang: str) -> list[str]:
    from koikoi_p2p.rules.describe import summary

    return [rules_said(line, lang) for line in summary(profile)]


def messages() -> list[tuple[str, str]]:
    """(context, English) of every switch label, meaning and value word, for extraction."""
    from koikoi_p2p.rules.describe import SWITCH_HELP
    from koikoi_p2p.rules.profile import SWITCH_CHOICES

    found = [(SWITCH, key) for key in SWITCH_HELP]
    found += [(SWITCH_HELP_CONTEXT, text) for text in SWITCH_HELP.values()]
    found += [(value_context(key), word) for key, words in SWITCH_CHOICES.items() for word in words]
    found += [(SWITCH_VALUE, word) for word in ("true", "false", "none", "custom")]
    return found
