"""This identity's display name (spec/game.md §2.2): kept beside the identity key, asked for once
before the first match against a person (at a terminal), changed with ``koikoi name NAME``. It
travels in the handshake, signed by the key, and in the terms; "" means no name (screens then show
only the fingerprint)."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

MAX_NAME = 32

# Why a name is refused, as English templates the screens translate (the catalogue, koikoi_p2p/locale).
TOO_LONG = "a display name has at most {n} characters"
SPACE_AT_END = "a display name has no space at either end"
BAD_CHARACTER = "a display name has no control, format or unassigned characters"
PROBLEMS = (TOO_LONG, SPACE_AT_END, BAD_CHARACTER)


class BadName(ValueError):
    """A name that is not a valid display name; the message (and ``describe(lang)``) says why."""

    def __init__(self, problem: str, **values: object) -> None:
        super().__init__(problem.format(**values))
        self.problem = problem
        self.values = values

    def describe(self, lang: str = "en") -> str:
        from koikoi_p2p.cli.i18n import tr

        return tr(lang, self.problem, **self.values)


def normalise(name: str) -> str:
    """NFC, then the checks of spec/game.md §2.2; ``BadName`` otherwise."""
    from koikoi_p2p.protocol.terms import valid_name

    text = unicodedata.normalize("NFC", name)
    if len(text) > MAX_NAME:
        raise BadName(TOO_LONG, n=MAX_NAME)
    if text != text.strip():
        raise BadName(SPACE_AT_END)
    if not valid_name(text):
        raise BadName(BAD_CHARACTER)
    return text


def load_name(path: Path) -> str:
    """The saved name, "" when none was chosen (or the file is unreadable or invalid)."""
    try:
        text = path.read_text(encoding="utf-8").rstrip("\n")
        return normalise(text)
    except (OSError, UnicodeDecodeError, BadName):
        return ""


def save_name(path: Path, name: str) -> str:
    """Check and save the name atomically (0600, beside the key); the name as saved."""
    checked = normalise(name)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(checked + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
    return checked


def shown(name: str, fingerprint: str) -> str:
    """How a screen names a player: the name beside the fingerprint, or the fingerprint alone."""
    return f"{name} ({fingerprint})" if name else fingerprint
