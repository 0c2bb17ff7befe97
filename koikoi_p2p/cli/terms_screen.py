"""The match terms as a player reads them: the rules (and every switch that differs from the preset
they start from), the length, the deadlines, rated or not, who proposes them.

The joiner sees all of it before anything is signed (spec/game.md §2.4: the library raises
``TermsProposed`` and signs ``accept`` only on ``decide_terms(True)``) and is asked; ``koikoi join
--accept`` takes them without asking, for scripts, and still shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from koikoi_p2p.cli.i18n import count, tr
from koikoi_p2p.cli.prompt import Choice

if TYPE_CHECKING:
    from koikoi_p2p.protocol.terms import MatchTerms
    from koikoi_p2p.rules.profile import Profile

PRESET_JA = {"nintendo": "任天堂版", "koikoi-online": "こいこいオンライン", "teaching-card": "教本",
             "wikipedia": "ウィキペディア版", "board-game": "ボードゲーム版", "classic-variant": "古典的変種"}


def base_preset(profile: Profile) -> str:
    """The preset a profile is, or starts from: its own name, ``<preset>-custom``'s preset, or the
    preset it differs least from (``rules.profile.nearest_preset``)."""
    from koikoi_p2p.rules.profile import PRESETS, nearest_preset

    name = profile.name.removesuffix("-custom")
    return name if name in PRESETS else nearest_preset(profile)


def differences(profile: Profile) -> list[tuple[str, str, str]]:
    """(switch, value, the preset's value) for each switch that differs from the base preset played
    at the same length, values in the rules' text form."""
    from koikoi_p2p.rules.profile import differences as differing
    from koikoi_p2p.rules.profile import preset, with_rounds

    base = with_rounds(preset(base_preset(profile)), profile.rounds)
    return [(key, value, base.switch_text(key)) for key, value in differing(profile, base).items()]


def rules_name(profile: Profile, lang: str) -> str:
    """E.g. ``nintendo``, or ``custom, based on nintendo`` when switches differ from the preset."""
    base = base_preset(profile)
    shown = f"{base} ({PRESET_JA[base]})" if lang == "ja" and base in PRESET_JA else base
    own = own_name(profile)
    if own:
        return tr(lang, "custom ({name}), based on {base}", name=own, base=shown)
    if differences(profile):
        return tr(lang, "custom, based on {base}", base=shown)
    return shown


def own_name(profile: Profile) -> str:
    """The name a custom profile carries when it says more than "custom" (the host's free text,
    shown as such, never as a preset: spec/game.md §2.4); "" for presets and the usual names."""
    from koikoi_p2p.protocol.terms import CUSTOM_NAME
    from koikoi_p2p.rules.profile import PRESETS

    name = profile.name
    if name in PRESETS or name == CUSTOM_NAME or name.removesuffix("-custom") in PRESETS:
        return ""
    return name


def difference_lines(profile: Profile, lang: str) -> list[str]:
    """Each changed switch and both values in words (cli/rules_text.py: the browser's entries)."""
    from koikoi_p2p.cli.rules_text import switch_label, switch_value
    from koikoi_p2p.rules.profile import preset, with_rounds

    base = with_rounds(preset(base_preset(profile)), profile.rounds)
    return [tr(lang, "{switch} = {value} (the preset has {base})", switch=switch_label(key, lang),
               value=switch_value(profile, key, lang), base=switch_value(base, key, lang))
            for key, _value, _base in differences(profile)]


def terms_lines(terms: MatchTerms, lang: str, me: int) -> list[str]:
    """Everything the joiner signs, in words."""
    from koikoi_p2p.protocol.identity import fingerprint

    profile = terms.profile
    rounds = terms.rounds
    deadlines = terms.deadlines
    lines = [tr(lang, "The host proposes these terms (nothing is signed until you accept):"),
             "  " + tr(lang, "Rules: {rules}", rules=rules_name(profile, lang))]
    lines += ["    " + line for line in difference_lines(profile, lang)]
    length = count(rounds, "round", lang) if rounds else tr(lang, "to the target score")
    lines.append("  " + tr(lang, "Length: {length}", length=length))
    lines.append("  " + tr(lang, "Time for each decision: {turn}; for each automatic step: {step}",
                           turn=count(int(deadlines.turn), "second", lang),
                           step=count(int(deadlines.step), "second", lang)))
    if terms.rated:
        lines.append("  " + tr(lang, "Rated: the result goes to the rating service {url}",
                               url=terms.ratings))
    else:
        lines.append("  " + tr(lang, "Unrated: no rating service"))
    keys, names = terms.keys, terms.names
    if keys:
        other = 1 - me
        name = names[other] if names and names[other] else ""
        if name:
            lines.append("  " + tr(lang, "Host: {name}, key fingerprint {fp}", name=name,
                                   fp=fingerprint(keys[other])))
        else:
            lines.append("  " + tr(lang, "Host: key fingerprint {fp} (no display name)",
                                   fp=fingerprint(keys[other])))
    return lines


def accept_choices(lang: str) -> list[Choice[bool]]:
    return [Choice("y", tr(lang, "yes, play on these terms"), True, (tr(lang, "yes"),)),
            Choice("n", tr(lang, "no, leave (nothing is signed)"), False, (tr(lang, "no"),))]
