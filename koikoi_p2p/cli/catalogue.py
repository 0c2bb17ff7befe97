"""The terminal's translations, read from the compiled gettext catalogue with the standard library.

The English text is the message id, written at the call site; each other language has a catalogue
``koikoi_p2p/locale/<lang>/LC_MESSAGES/koikoi.po`` that translators edit with their own tools
(Poedit, Weblate), compiled to the ``.mo`` beside it that this module reads. Babel extracts the
ids (``babel.cfg``) and compiles the catalogue; the ``.mo`` is committed, so an installed or
editable copy needs no build step, and a unit test checks that it is the compilation of the ``.po``
(tests/unit/test_catalogue.py, which also checks that every message of the code is translated).

Message contexts (``pgettext``) keep apart the ids one English word shares (a ``reason`` a match
stopped for, shared with the browser; a role such as ``host`` the room's creator, not the
``dealer``); plural forms (``ngettext``) follow the catalogue's own rule, never ``n == 1`` in code.
A reason code or message type is named in words in every language, English included (``word``,
from the English of cli/word_ids.py).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from pathlib import Path

from koikoi_p2p.phrase import Phrase, Word

DOMAIN = "koikoi"
LOCALE = Path(__file__).resolve().parents[1] / "locale"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang``; English (the ids themselves) needs none. A missing catalogue is an
    installation fault, raised here rather than hidden behind English."""
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE, languages=[lang])


def gettext_in(lang: str, message: str, /) -> str:
    return translations(lang).gettext(message)


def pgettext_in(lang: str, context: str, message: str, /) -> str:
    return translations(lang).pgettext(context, message)


def ngettext_in(lang: str, singular: str, many: str, n: int, /) -> str:
    return translations(lang).ngettext(singular, many, n)


def word(lang: str, code: str) -> str:
    """A reason code or message type in words (cli/word_ids.py), in ``lang``; a code no table
    names (a newer relay's, say) stays as it came."""
    from koikoi_p2p.cli.word_ids import MESSAGE_WORD, MESSAGE_WORDS, REASON, REASONS

    if code in MESSAGE_WORDS:
        return pgettext_in(lang, MESSAGE_WORD, MESSAGE_WORDS[code])
    if code in REASONS:
        return pgettext_in(lang, REASON, REASONS[code])
    return code


def english_detail(message: str) -> str:
    """The protocol's English detail of a failure with the reason it may start with in words
    (``bad_share_proof: the shares do not verify`` -> ``a share proof that does not verify: ...``)."""
    code, colon, rest = message.partition(": ")
    if colon and code.isidentifier() and code.islower():
        named = word("en", code)
        return f"{named}: {english_detail(rest)}" if named != code else message
    return word("en", message) if "_" in message and message.isidentifier() else message


def say(lang: str, said: object, words: Callable[[str], str] | None = None) -> str:
    """A ``Phrase`` (or ``Word``) in ``lang``: its template from the catalogue, its values (nested
    phrases and words) rendered the same way. A field named ``message`` holds the protocol's own
    English detail of a failure; a translation may leave it out, since the reason it follows is
    named in words (the English stays one ``--lang en`` or ``--json`` away). ``words`` says a
    ``Word`` (a reason code or message type by default; the rules' descriptions hold yaku ids, which
    English names by the glossary too: ``double tenho``, not ``double_tenho``)."""
    if isinstance(said, Word):
        return words(said) if words else word(lang, said)
    if not isinstance(said, Phrase) or not said.template:
        return str(said)
    values = {name: say(lang, value, words) if isinstance(value, str) else value
              for name, value in said.values.items()}
    detail = said.values.get("message")
    if lang == "en" and isinstance(detail, str) and not isinstance(detail, Phrase):
        values["message"] = english_detail(detail)
    template = said.template if lang == "en" else gettext_in(lang, said.template)
    return template.format(**values)
