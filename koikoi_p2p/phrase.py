"""Sentences a screen can say in another language (the audit's reports, the rules descriptions).

A report's notes and verdicts are English strings everywhere they travel (the JSON report, the
rating service's refusals, the soak benchmark). A ``Phrase`` is such a string that also remembers
the template it was made from and the values put in it, so that a terminal can render the same
sentence from its gettext catalogue (cli/catalogue.py) instead of parsing the English back. A
``Word`` marks a machine word inside a phrase (a reason code such as ``bad_share``, a message type
such as ``act``) that a translation names in its own words.
"""

from __future__ import annotations


class Word(str):
    """A reason code or message type: printed as is in English, named in words elsewhere."""

    __slots__ = ()


class Phrase(str):
    """``template.format(**values)``, remembering ``template`` and ``values``."""

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, /, **values: object) -> Phrase:
        self = super().__new__(cls, template.format(**values) if values else template)
        self.template = template
        self.values = values
        return self


# The empty phrase (a part that adds nothing). Not written as a literal: Babel would extract an
# empty message id, which gettext reserves for the catalogue's header.
_EMPTY = ""
NOTHING = Phrase(_EMPTY)


def detail(reason: str, message: str) -> Phrase:
    """``reason (message)``, or ``reason`` alone. A plain ``message`` is the protocol's English
    detail (field ``message``, which a translation may leave out: it names the reason in words);
    a ``Phrase`` message is this package's own sentence (field ``detail``, always translated)."""
    if not message:
        return Phrase("{reason}", reason=Word(reason))
    if isinstance(message, Phrase):
        return Phrase("{reason} ({detail})", reason=Word(reason), detail=message)
    return Phrase("{reason} ({message})", reason=Word(reason), message=message)


__all__ = ["NOTHING", "Phrase", "Word", "detail"]
