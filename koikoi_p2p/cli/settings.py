"""Preferences remembered between runs (for now the card-name language), kept as small JSON."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from pathlib import Path

LANGUAGES = ("en", "ja")


@dataclass(frozen=True, slots=True)
class Settings:
    lang: str = "en"

    def with_lang(self, lang: str | None) -> Settings:
        return self if lang is None else replace(self, lang=lang)


def load_settings(path: Path) -> Settings:
    """The saved settings, or defaults when the file is missing or unreadable (never fatal)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    lang = data.get("lang") if isinstance(data, dict) else None
    return Settings(lang=lang if lang in LANGUAGES else "en")


def save_settings(path: Path, settings: Settings) -> None:
    """Write atomically, so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"lang": settings.lang}, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def remember_lang(path: Path, lang: str | None) -> Settings:
    """Load the settings, apply an explicit --lang and save it when it changed."""
    settings = load_settings(path)
    updated = settings.with_lang(lang)
    if updated != settings or not path.exists():
        save_settings(path, updated)
    return updated
