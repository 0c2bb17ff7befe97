"""Text that a relay, a rating service or a peer supplied, made harmless before a terminal shows it.

A relay chooses the lobby's rooms, its error messages and even the room code it hands out; a rating
service chooses names and reasons. Printed raw, a control character moves the cursor, erases lines
or forges whole rows (a fake ``koikoi join`` pointing at another relay); a bidirectional override
reorders what follows. Every such string goes through ``safe`` before the CLI prints it.
"""

from __future__ import annotations

import unicodedata


def _escaped(ch: str) -> str:
    point = ord(ch)
    if point < 0x100:
        return f"\\x{point:02x}"
    return f"\\u{point:04x}" if point < 0x10000 else f"\\U{point:08x}"


def safe(value: object, width: int | None = None) -> str:
    """``value`` as text with every control, format, surrogate, private-use or unassigned code point
    (Unicode category C*) and every line or paragraph separator (Zl, Zp) written as an escape such
    as ``\\x1b``; at most ``width`` characters when given. None is shown as nothing (0 as 0)."""
    text = "" if value is None else str(value)
    if not text.isprintable() or any(unicodedata.category(ch) in ("Zl", "Zp") for ch in text):
        text = "".join(
            _escaped(ch) if unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp")
            else ch for ch in text)
    return text if width is None else text[:width]
