"""Preferences remembered between runs (the language, the computer's level), kept as small JSON."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from pathlib import Path

LANGUAGES = ("en", "ja")
LEVELS = ("easy", "medium", "strong", "master", "expert")  # the computer's levels, weakest first (ai.levels)
# A first match is against the middle of the ladder: medium (issue 18's greedy player) where the
# ladder has it, else easy; after that, the level last chosen (issue 16: strong beat new players).
FIRST_LEVEL = "medium" if "medium" in LEVELS else "easy"


@dataclass(frozen=True, slots=True)
class Settings:
    lang: str = "en"
    level: str = FIRST_LEVEL

    def with_lang(self, lang: str | None) -> Settings:
        return self if lang is None else replace(self, lang=lang)

    def with_level(self, level: str | None) -> Settings:
        return self if level is None else replace(self, level=level)


def load_settings(path: Path) -> Settings:
    """The saved settings, or defaults when the file is missing or unreadable (never fatal)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    lang, level = data.get("lang"), data.get("level")
    return Settings(lang=lang if lang in LANGUAGES else "en", level=level if level in LEVELS else FIRST_LEVEL)


def save_settings(path: Path, settings: Settings) -> None:
    """Write atomically, so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"lang": settings.lang, "level": settings.level}, sort_keys=True) + "\n",
                   encoding="utf-8")
    os.replace(tmp, path)


def remember(path: Path, *, lang: str | None = None, level: str | None = None) -> Settings:
    """Load the settings, apply an explicit --lang / --level and save them when they changed."""
    settings = load_settings(path)
    updated = settings.with_lang(lang).with_level(level)
    if updated != settings or not path.exists():
        save_settings(path, updated)
    return updated


def remember_lang(path: Path, lang: str | None) -> Settings:
    return remember(path, lang=lang)
