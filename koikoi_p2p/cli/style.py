"""Colour when a person is watching a terminal that wants it; plain text for pipes and NO_COLOR."""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TextIO

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"

# One colour per card class, so the class reads at a glance beside the month number.
CLASS_COLOURS: dict[str, str] = {
    "bright": "\x1b[1;33m",  # bold yellow
    "animal": "\x1b[32m",  # green
    "ribbon": "\x1b[31m",  # red
    "plain": "\x1b[37m",  # grey
}


def wants_colour(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """ANSI colour only on a tty, never when NO_COLOR is set (https://no-color.org) or TERM=dumb."""
    env = os.environ if environ is None else environ
    if "NO_COLOR" in env or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@dataclass(frozen=True, slots=True)
class Style:
    """Wraps text in ANSI codes, or returns it untouched when colour is off."""

    colour: bool

    def paint(self, text: str, code: str) -> str:
        return f"{code}{text}{RESET}" if self.colour and code else text

    def klass(self, text: str, klass: str) -> str:
        return self.paint(text, CLASS_COLOURS.get(klass, ""))

    def bold(self, text: str) -> str:
        return self.paint(text, BOLD)

    def dim(self, text: str) -> str:
        return self.paint(text, DIM)


_ANSI = re.compile("\x1b\\[[0-9;]*m")


def display_width(text: str) -> int:
    """Columns a string takes on a terminal: ANSI codes take none, wide (CJK) characters two."""
    plain = _ANSI.sub("", text)
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in plain)
