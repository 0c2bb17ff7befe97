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
PROBLEMS = (NOT_NAME_VALUE, NO_SUCH_SWITCH)


class SwitchError(ValueError):
    """A --switch that cannot be applied; ``describe`` says why in words."""

    def __init__(self, item: str, problem: str, suggestions: tuple[str, ...] = ()) -> None:
        super().__init__(item, problem)
        self.item = item
        self.problem = problem
        self.suggestions = suggestions

    def describe(self, lang: str = "en") -> str:
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


def apply_switches(profile: Profile, items: Sequence[str]) -> Profile:
    """``profile`` with each ``NAME=VALUE`` applied, renamed ``<name>-custom`` when anything changed."""
    from koikoi_p2p.rules.errors import RulesError
    from koikoi_p2p.rules.profile import PRESETS, SWITCHES

    if not items:
        return profile
    names = [k for k in SWITCHES if k != "name"]
    changes: dict[str, object] = {}
    for item in items:
        key, value = split_switch(item)
        if key not in names:
            raise SwitchError(item, NO_SUCH_SWITCH, tuple(difflib.get_close_matches(key, names, n=3)))
        changes[key] = value
    try:
        changed = profile.with_switches(changes)
    except RulesError as exc:
        raise SwitchError(", ".join(items), exc.message or exc.reason) from None
    if changed == profile:
        return profile
    base = profile.name.removesuffix("-custom")
    name = f"{base}-custom" if base in PRESETS else profile.name
    try:
        return changed.with_switches(name=name)
    except RulesError as exc:
        raise SwitchError(", ".join(items), str(exc)) from None
