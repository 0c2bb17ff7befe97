"""The gettext catalogues are the terminal's one source of translated text, and they are whole.

Checked here, as CI runs it: every message the code marks (extracted with Babel through
babel.cfg, as a translator's ``pybabel extract`` does) is in the template and in every language's
``.po``, and the ``.po`` holds nothing the code lacks; no translation is fuzzy or empty; a
translation keeps its message's placeholders (only the protocol's English ``message`` detail may
be left out); the committed ``.mo`` is the compilation of the ``.po``; the plural rule is the
language's own.
"""

from __future__ import annotations

import gettext
import io
import json
import re
import string
from pathlib import Path

import pytest

babel_extract = pytest.importorskip("babel.messages.extract")
from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.frontend import parse_mapping_cfg  # noqa: E402
from babel.messages.mofile import read_mo, write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from koikoi_p2p.cli import catalogue  # noqa: E402
from koikoi_p2p.cli.word_ids import MESSAGE_WORDS, REASON, REASONS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "koikoi_p2p" / "locale"
LANGUAGES = sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES").is_dir())

Key = tuple[str | None, str]


def po(lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / "koikoi.po").open("rb") as f:
        return read_po(f, locale=lang)


def entries(catalog: Catalog) -> dict[Key, object]:
    """(context, id) -> translation; a plural message keyed by its singular."""
    found: dict[Key, object] = {}
    for m in catalog:
        if m.id:
            found[(m.context, m.id if isinstance(m.id, str) else m.id[0])] = m.string
    return found


def translated(lang: str, context: str | None = None) -> dict[str, str]:
    """The singular translations of one context of ``lang``'s catalogue, as a table."""
    return {m.id: str(m.string) for m in po(lang) if m.id and isinstance(m.id, str) and m.context == context}


def extracted() -> dict[Key, object]:
    """What the code marks, found as ``pybabel extract -F babel.cfg`` finds it."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as f:
        method_map: list[tuple[str, str]]   # as extract_from_dir takes them (babel's own is unannotated)
        options_map: dict[str, dict[str, object]]
        method_map, options_map = parse_mapping_cfg(f, "babel.cfg")
    found: dict[Key, object] = {}
    for _name, _line, message, _comments, context in babel_extract.extract_from_dir(
            ROOT, method_map, options_map, directory_filter=lambda d: not Path(d).name.startswith(".")):
        found[(context, message if isinstance(message, str) else message[0])] = message
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_template_and_every_catalogue_hold_exactly_the_code_s_messages() -> None:
    code = extracted()
    assert len(code) > 150 and (REASON, REASONS["bad_share"]) in code  # the walk sees phrases and words
    with (LOCALE / "koikoi.pot").open("rb") as f:
        assert set(entries(read_po(f))) == set(code), "run pybabel extract (README, translations)"
    for lang in LANGUAGES:
        have = set(entries(po(lang)))
        assert not set(code) - have, f"{lang}: untranslated {sorted(set(code) - have, key=str)[:10]}"
        assert not have - set(code), f"{lang}: stale {sorted(have - set(code), key=str)[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_translation_is_fuzzy_or_empty_and_each_keeps_its_placeholders(lang: str) -> None:
    catalog = po(lang)
    assert not catalog.fuzzy and catalog.obsolete == {}
    for m in catalog:
        if not m.id:
            continue
        assert not m.fuzzy, m.id
        ids = (m.id,) if isinstance(m.id, str) else m.id
        forms = (m.string,) if isinstance(m.string, str) else m.string
        assert forms and all(forms), f"empty: {m.id!r}"
        for form in forms:
            want = set().union(*(fields(i) for i in ids))
            # Only the protocol's English detail (``message``) may be left out; nothing is added.
            assert fields(form) <= want and want - fields(form) <= {"message"}, (m.id, form)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_committed_mo_is_the_compilation_of_the_po(lang: str) -> None:
    catalog = po(lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    with (LOCALE / lang / "LC_MESSAGES" / "koikoi.mo").open("rb") as f:
        shipped = read_mo(f)
    assert entries(shipped) == entries(read_mo(io.BytesIO(compiled.getvalue()))), "run pybabel compile"
    assert shipped.plural_forms == catalog.plural_forms
    # and the standard library reads it as the terminal does
    loaded = gettext.translation(catalogue.DOMAIN, LOCALE, languages=[lang])
    assert isinstance(loaded, gettext.GNUTranslations)


def test_japanese_has_one_plural_form_and_english_its_two() -> None:
    assert po("ja").plural_forms == "nplurals=1; plural=0;"
    assert catalogue.ngettext_in("en", "{n} card", "{n} cards", 1) == "{n} card"
    assert catalogue.ngettext_in("en", "{n} card", "{n} cards", 2) == "{n} cards"


# Codes the browser names for its own match (web/app/messages.en.json, section reason) in other
# words than an audit or the terminal does, on purpose.
OWN_WORDS = {"abandoned"}  # the browser's player waited: "the opponent did not answer within the deadline"


def test_the_terminal_names_a_reason_in_the_browser_s_words() -> None:
    """One vocabulary (issue 30): a reason both clients name is one message of the context
    ``reason``, so one translation, unless listed in OWN_WORDS."""
    browser = json.loads((ROOT / "web" / "app" / "messages.en.json").read_text(encoding="utf-8"))["reason"]
    shared = 0
    for code, entry in browser.items():
        english = entry if isinstance(entry, str) else entry["msgid"]
        context = REASON if isinstance(entry, str) else entry.get("context", REASON)
        if code in REASONS and code not in OWN_WORDS:
            assert (context, english) == (REASON, REASONS[code]), code
            shared += 1
    assert shared > 60
    # and each is a word, never the code, in every language
    for lang in ["en", *LANGUAGES]:
        for code in [*REASONS, *MESSAGE_WORDS]:
            said = catalogue.word(lang, code)
            assert said and (said != code or code in ("result", "claim")), (lang, code)


def _closing_remark(text: str) -> int | None:
    """Where the bracket that closes ``text`` opens (brackets nest), or None if it does not end in one."""
    if not text.endswith(")"):
        return None
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return None


def test_japanese_sentences_close_with_the_same_brackets() -> None:
    """A Japanese sentence that ends in a remark in brackets, as its English does, writes it as
    the rest of the terminal does, `` (…)``, half-width after a space: `koikoi verify --lang ja`
    mixed （…） and (…) from one line to the next. Every message the terminal prints (no context,
    help, reasons) and the report's verdict notes (the page's vn/vd keys), each plural form.
    Labels of the page such as パスワード（任意） keep the full-width brackets of a form; one that is
    all bracket, such as "(no name)", or a formula such as "×(1 + …)" is no remark. A switch's
    value ends in no bracket at all: the terminal follows it with " (元の設定は …)" and the page
    with "（任天堂: …）" (a terms line showed 親が得点（親権） (元の設定は …))."""
    page = json.loads((ROOT / "web" / "app" / "messages.en.json").read_text(encoding="utf-8"))
    verdicts = {text for key, text in page["web"].items()
                if re.match(r"v[nd][A-Z]", key) and isinstance(text, str)}
    checked, wrong = 0, list[tuple[str | None, str, str]]()
    for m in po("ja"):
        english = m.id if isinstance(m.id, str) else m.id[0] if m.id else ""
        ctx = m.context
        forms = m.string if isinstance(m.string, tuple | list) else (m.string,)
        if (ctx or "").startswith("value of") and not english.startswith("×("):
            wrong += [(ctx, english, ja) for ja in forms if isinstance(ja, str) and ja.endswith((")", "）"))]
        printed = ctx in (None, "help", "reason") or (ctx == "web" and english in verdicts)
        at = _closing_remark(english.rstrip("."))
        if not printed or at is None or at == 0 or english[at - 1] != " ":
            continue
        checked += 1
        for japanese in forms:
            if not isinstance(japanese, str):
                continue
            said = japanese.rstrip("。")
            opens = _closing_remark(said)
            if said.endswith("）") or (opens is not None and opens > 0 and said[opens - 1] != " "):
                wrong.append((ctx, english, japanese))
    assert checked > 100, checked   # the selection itself still finds the sentences it is about
    assert wrong == []
