"""``--switch NAME=VALUE``: the host's changes to a preset's switches (spec/rules.md §3).

Each VALUE is read by the rules' text form (``rules.profile.parse_switch``: ``true``, ``7``,
``oya_ken``, ``10,8,7,5``, ``teshi:6``, card ids...). A changed preset is no longer that preset:
it gets the name ``<preset>-custom`` (a preset's name means exactly its switches, spec/game.md),
and the screens list what differs from the preset it starts from. A misspelt name is answered
with the nearest switch names.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from koikoi_p2p.cli.i18n import tr

if TYPE_CHECKING:
    from koikoi_p2p.rules.profile import Profile


# The problems a --switch can have, in words (translated by tr()).
NOT_NAME_VALUE = "a switch is NAME=VALUE"
NO_SUCH_SWITCH = "no such switch"
PRESET_NAME = "a preset's name is for that preset's own switches"
PROBLEMS = (NOT_NAME_VALUE, NO_SUCH_SWITCH, PRESET_NAME)


class SwitchError(ValueError):
    """A --switch that cannot be applied; ``describe`` says why in words."""

    def __init__(self, item: str, problem: str, suggestions: tuple[str, ...] = (), key: str = "",
                 clash: bool = False) -> None:
        super().__init__(item, problem)
        self.item = item
        self.problem = problem
        self.suggestions = suggestions
        self.key = key  # the switch whose value was refused, when one alone was
        self.clash = clash  # its value reads, but the profile refuses it (another switch, or its kind)

    def describe(self, lang: str = "en") -> str:
        if lang == "ja" and self.key:
            # The rules package explains in English; a Japanese screen says what the switch takes.
            from koikoi_p2p.cli.rules_text import allowed, switch_label

            label = switch_label(self.key, lang)
            if self.clash:
                return tr(lang, "--switch {item}: {switch} cannot take this value in these rules "
                                "(koikoi rules --lang en says why)", item=self.item, switch=label)
            return tr(lang, "--switch {item}: {switch} does not take this value; it takes {allowed}",
                      item=self.item, switch=label, allowed=allowed(self.key, lang))
        text = tr(lang, "--switch {item}: {problem}", item=self.item, problem=tr(lang, self.problem))
        if self.suggestions:
            text += tr(lang, " (did you mean {names}?)", names=", ".join(self.suggestions))
        return text

    def __str__(self) -> str:
        return self.describe()


def split_switch(item: str) -> tuple[str, str]:
    key, sep, raw = item.partition("=")
    key = key.strip()
    if not sep or not key:
        raise SwitchError(item, NOT_NAME_VALUE)
    return key, raw


def _refused(profile: Profile, items: Sequence[str]) -> tuple[str, bool]:
    """The one switch refused on its own ("" when none or several are), and whether its value
    reads but clashes with the profile's other switches."""
    from koikoi_p2p.rules.errors import RulesError
    from koikoi_p2p.rules.profile import parse_switch

    refused: list[tuple[str, bool]] = []
    for item in items:
        key, value = split_switch(item)
        try:
            profile.with_switches({key: value})
        except RulesError:
            try:
                parse_switch(key, value)
                refused.append((key, True))
            except RulesError:
                refused.append((key, False))
    return refused[0] if len(refused) == 1 else ("", False)


def apply_switches(profile: Profile, items: Sequence[str]) -> Profile:
    """``profile`` with each ``NAME=VALUE`` applied, renamed ``<name>-custom`` when anything changed,
    or named as ``name=NAME`` says (spec/rules.md §3.7; spec/game.md §2.4: a preset's name only
    for that preset's own switches)."""
    from koikoi_p2p.rules.errors import RulesError
    from koikoi_p2p.rules.profile import PAIR_SWITCH, PRESETS, SWITCHES, preset, with_rounds

    if not items:
        return profile
    names = [*SWITCHES, PAIR_SWITCH]
    changes: dict[str, object] = {}
    for item in items:
        key, value = split_switch(item)
        if key not in names:
            raise SwitchError(item, NO_SUCH_SWITCH, tuple(difflib.get_close_matches(key, names, n=3)))
        changes[key] = value
    try:
        changed = profile.with_switches(changes)
    except RulesError as exc:
        key, clash = _refused(profile, items)
        raise SwitchError(", ".join(items), exc.message or exc.reason, key=key, clash=clash) from None
    if "name" in changes:
        if changed.name in PRESETS and changed != with_rounds(preset(changed.name), changed.rounds):
            named = next(item for item in items if split_switch(item)[0] == "name")
            raise SwitchError(named, PRESET_NAME, key="name", clash=True)
        return changed
    if changed == profile:
        return profile
    base = profile.name.removesuffix("-custom")
    name = f"{base}-custom" if base in PRESETS else profile.name
    try:
        return changed.with_switches(name=name)
    except RulesError as exc:
        raise SwitchError(", ".join(items), str(exc)) from None
