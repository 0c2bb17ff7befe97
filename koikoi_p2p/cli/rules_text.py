"""The rules as a screen says them: switch names, what each switch means, its values, what it
takes, and the yaku rules and summary of ``rules/describe.py``.

A switch's label and a choice's words are one vocabulary with the browser: ``SWITCH_LABELS`` (the
English message in the catalogue's context ``switch``) and ``VALUE_WORDS`` (in ``value of
<switch>``, so one value id, such as ``draw``, can read differently for two switches) are the
msgids of web/app/messages.en.json's ``sw_<switch>`` and ``sv_<switch>_<value>``
(tests/unit/test_cli_rules_ja.py checks that they agree), so both clients say a switch and its value
with one entry and one translation. A switch's meaning is ``describe.SWITCH_HELP`` in the context
``switch help`` (English: the rules package's own words, ``Profile.switch_text`` for the value to
type, on ``koikoi rules``' table); and
describe's ``Phrase`` parts by their templates, with the yaku ids inside them (``Word``) said by
their names. The rules package stays pure and English; both languages are built from its parts,
so they cannot drift. ``messages`` lists what the catalogue needs for extraction (cli/i18n.py).
"""

from __future__ import annotations

from koikoi_p2p.cli.catalogue import gettext_in, ngettext_in, pgettext_in, say
from koikoi_p2p.cli.i18n import YAKU_EN, tr, yaku_name
from koikoi_p2p.rules.profile import PRESETS, Profile

SWITCH = "switch"
SWITCH_HELP_CONTEXT = "switch help"
SWITCH_VALUE = "switch value"  # custom: what a profile's name may read

# The English of each switch's label and each choice's words (msgids; see the docstring).
SWITCH_LABELS: dict[str, str] = {
    "name": "Name",
    "rounds": "Rounds",
    "bright_values": "Points of the bright yaku",
    "named_extension": "Named yaku grow with extra cards",
    "tane_with_inoshikacho": "Tane also scores beside inoshikacho",
    "tan_with_ribbon_yaku": "Tan also scores beside the ribbon yaku",
    "ribbon_pair": "Both ribbon sets",
    "cup_is_plain": "Sake Cup also a plain",
    "joker_card": "Joker card",
    "viewing": "Viewing yaku",
    "monthly_yaku_points": "Tsukifuda",
    "monthly_yaku_scope": "Tsukifuda: which month",
    "double_threshold": "Doubled from",
    "koikoi_multiplier": "Koi-koi multiplier",
    "max_calls_per_round": "Koi-koi calls per round",
    "after_call": "After a call",
    "last_turn_stop_only": "Last turn: stop only",
    "exhaustion": "Hands run out",
    "oya_ken_points": "Oya-ken points",
    "dealer_after_draw": "Dealer after a round nobody won",
    "hand_yaku": "Dealt-hand yaku",
    "hand_yaku_both": "Both hands are yaku",
    "field_whole_month": "A month of four on the field",
    "redeal_consumes_round": "A deal again counts as a round",
    "hand_capture": "Playing a hand card",
    "first_dealer_tie": "First dealer on a tie",
    "pool_start": "Starting pool",
    "transfer_cap": "Payment capped",
    "bust_ends_game": "Reaching 0 loses",
    "target_score": "Target score",
    "match_tie": "Equal scores at the end",
    "hanami_cancelled_by": "Cards that cancel hanami",
    "tsukimi_cancelled_by": "Cards that cancel tsukimi",
    "cup_either": "Sake Cup an animal or a plain",
    "brights_add": "Bright yaku add up",
    "sanko_with_rain": "Sanko with the Rain Man",
    "single_yaku": "Only the highest yaku",
    "call_limit": "Koi-koi calls counted",
    "caller_pays_more": "A losing caller pays more",
    "subtract_from_opponent": "Points taken off the loser",
    "field_four_pairs": "Four pairs on the field",
    "first_dealer": "First dealer",
    "viewing_by_call": "Viewing yaku 1, or 3 after one’s own koi-koi",
    "koikoi_bonus": "Bonus for the winner’s own calls",
    "akatan_aotan_on_top": "Six ribbons: 10 more on top",
    "stop_on_own_last_turn": "Own last turn: stop only",
    "hand_whole_month": "A month of four in a dealt hand",
    "single_yaku_scope": "Only the highest: of the pile, or of a yaku and its extensions",
}
VALUE_WORDS: dict[str, dict[str, str]] = {
    "ribbon_pair": {
        "chofuku_10": "{both} 10 points, instead of the two",
        "separate_5_5": "{a} 5 points and {b} 5 points, both count",
    },
    "viewing": {
        "always": "always scored",
        "bonus_only": "only beside another yaku",
        "off": "not played",
    },
    "monthly_yaku_scope": {
        "current_month": "the round’s month",
        "any_month": "any month",
    },
    "koikoi_multiplier": {
        "opponent_flat_x2": "×2 for beating a player who called",
        "shared_one_plus_calls": "×(1 + every call by either player)",
        "winner_pow2": "×2 for each of the winner’s own calls",
        "none": "calls multiply nothing",
    },
    "after_call": {
        "next_improvement_ends_round": "the next yaku by either player ends the round",
        "shobu_only": "play goes on until someone stops",
    },
    "exhaustion": {
        "draw": "nobody scores",
        "oya_ken": "the dealer scores (oya-ken)",
        "last_caller_scores_else_oya_ken": "the last caller scores; with no call, the dealer",
    },
    "dealer_after_draw": {
        "same": "the same dealer",
        "other": "the other player",
    },
    "hand_yaku_both": {
        "void_redeal": "the deal is void and dealt again",
        "dealer": "the dealer’s counts",
    },
    "field_whole_month": {
        "redeal": "dealt again",
        "play_on": "play on",
    },
    "hand_capture": {
        "free": "any hand card may be played",
        "compulsory": "a matching card must be played",
    },
    "first_dealer_tie": {
        "redraw": "draw again",
        "higher_card": "the higher class deals",
    },
    "match_tie": {
        "draw": "a drawn match",
        "extra_round": "extra rounds until one leads",
    },
    "call_limit": {
        "per_round": "both players together",
        "per_seat": "each player on their own",
    },
    "caller_pays_more": {
        "off": "no",
        "times_calls": "× the number of their calls",
        "doubled_per_call": "×2 for each of their calls",
    },
    "field_four_pairs": {
        "play_on": "play on",
        "redeal": "dealt again",
    },
    "first_dealer": {
        "card_draw": "each draws a card, the earlier month deals",
        "coin": "a fair coin from the shuffled deck",
        "host": "the host",
        "joiner": "the player who joined",
    },
    "koikoi_bonus": {
        "off": "none",
        "winner_add": "+1 to +3 points for one to three calls, ×2 to ×5 for four to seven",
    },
    "hand_whole_month": {
        "play_on": "play on",
        "redeal": "shown and dealt again",
    },
    "single_yaku_scope": {
        "pile": "of the whole pile",
        "extensions": "of a yaku and its extensions",
    },
}


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
    """A switch's name in words, the browser's ``sw_<switch>``; its id where it has none."""
    english = SWITCH_LABELS.get(key)
    return pgettext_in(lang, SWITCH, english) if english else key


def switch_help(key: str, lang: str) -> str:
    from koikoi_p2p.rules.describe import SWITCH_HELP

    text = SWITCH_HELP.get(key, "")
    return text if lang == "en" or not text else pgettext_in(lang, SWITCH_HELP_CONTEXT, text)


def choice_words(key: str, value: str, lang: str) -> str:
    """One choice of a switch in words (the browser's ``sv_<switch>_<value>``); the id if unknown."""
    english = VALUE_WORDS.get(key, {}).get(value)
    if english is None:
        return value
    said = pgettext_in(lang, value_context(key), english)
    if key == "ribbon_pair":
        said = said.format(both=yaku_name("akatan_aotan", lang), a=yaku_name("akatan", lang),
                           b=yaku_name("aotan", lang))
    return said


def _card_words(ref: str, lang: str) -> str:
    """A card id by its name, a month number by the month's name (as the board says it)."""
    from koikoi_p2p.cli.cardnames import card_name, month_name
    from koikoi_p2p.rules.cards import card
    from koikoi_p2p.rules.errors import RulesError

    if ref.isdigit() and 1 <= int(ref) <= 12:
        return month_name(int(ref), lang)
    try:
        return card_name(card(ref).index, lang)
    except RulesError:
        return ref


def switch_value(profile: Profile, key: str, lang: str) -> str:
    """One switch's value in words, in any language (``koikoi rules``' English table shows
    ``Profile.switch_text``, the value as it is typed); numbers and preset names stay."""
    value = getattr(profile, key)
    none = gettext_in(lang, "none")
    if isinstance(value, bool):
        return gettext_in(lang, "yes") if value else gettext_in(lang, "no")
    if key in VALUE_WORDS:
        return choice_words(key, str(value), lang)
    if key == "max_calls_per_round":  # 0: no limit (the browser's svCallsN and svCallsAny)
        return (ngettext_in(lang, "{n} call", "{n} calls", value).format(n=value) if value
                else pgettext_in(lang, "value of max_calls_per_round", "any number"))
    if key == "rounds":  # 0: until the target score (the browser's svRoundsN, svRoundsUntilTarget)
        return (ngettext_in(lang, "{n} round", "{n} rounds", value).format(n=value) if value
                else pgettext_in(lang, "value of rounds", "until the target score"))
    if key in ("double_threshold", "pool_start", "monthly_yaku_points", "target_score"):
        if value:
            return str(ngettext_in(lang, "{n} point", "{n} points", value).format(n=value))
        # 0 means never or none (the browser's svNever, svPoolNone, svNone)
        if key == "double_threshold":
            return pgettext_in(lang, "value of double_threshold", "never")
        if key == "pool_start":
            return pgettext_in(lang, "value of pool_start", "none, scores add up from 0")
        return none
    if key == "hand_yaku":
        items = list(value.items()) if isinstance(value, dict) else list(value)
        named = [tr(lang, "{yaku} {points}", yaku=yaku_name(str(k), lang), points=v) for k, v in items]
        return listed(named, lang) or none
    if key == "name" and value not in PRESETS:
        return _reads("custom", lang)  # the first line says what it is based on
    text = profile.switch_text(key)
    if key in ("joker_card", "hanami_cancelled_by", "tsukimi_cancelled_by") and text != "none":
        return listed([_card_words(ref, lang) for ref in text.split(",")], lang)
    return none if text == "none" else text


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
    """A part of describe.py in ``lang``; its yaku and card ids by their names."""
    return say(lang, text, lambda code: yaku_name(code, lang) if code in YAKU_EN else _card_words(code, lang))


def yaku_rules(profile: Profile, lang: str) -> dict[str, str]:
    from koikoi_p2p.rules.describe import yaku_table

    return {str(row["id"]): rules_said(row["rule"], lang) for row in yaku_table(profile)}


def summary_lines(profile: Profile, lang: str) -> list[str]:
    from koikoi_p2p.rules.describe import summary

    return [rules_said(line, lang) for line in summary(profile)]


def messages() -> list[tuple[str, str]]:
    """(context, English) of every switch label, meaning and value word, for extraction."""
    from koikoi_p2p.rules.describe import SWITCH_HELP

    found = [(SWITCH, label) for label in SWITCH_LABELS.values()]
    found += [(SWITCH_HELP_CONTEXT, text) for text in SWITCH_HELP.values()]
    found += [(value_context(key), said) for key, words in VALUE_WORDS.items() for said in words.values()]
    found += [(SWITCH_VALUE, "custom")]
    return found
