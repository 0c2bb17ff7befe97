"""Every sentence a player reads, in English (the default) or Japanese.

Call sites write the English sentence as a ``str.format`` template and pass it through ``tr``;
the Japanese catalogue (``cli/ja.py``) maps each English template to its translation. Keeping
the English text at the call site keeps the code readable and the catalogue greppable; a unit
test walks the command's source and checks that every template handed to ``tr`` has a
translation, and the pseudo-terminal tests check that a Japanese screen shows no English.
"""

from __future__ import annotations

from koikoi_p2p.cli.ja import JA

LANGUAGES = ("en", "ja")

# The usual names of the yaku: romaji in English (what English-speaking players call them),
# kanji or kana in Japanese. Keys are the rules engine's yaku ids (spec/rules.md §6).
YAKU_EN: dict[str, str] = {
    "goko": "goko", "shiko": "shiko", "ame_shiko": "ame-shiko", "sanko": "sanko", "hanami": "hanami",
    "tsukimi": "tsukimi", "inoshikacho": "inoshikacho", "akatan": "akatan", "aotan": "aotan",
    "akatan_aotan": "akatan-aotan", "tane": "tane", "tan": "tan", "kasu": "kasu", "tsukifuda": "tsukifuda",
    "teshi": "teshi", "kuttsuki": "kuttsuki", "tenho": "tenho", "double_tenho": "double tenho",
    "oya_ken": "oya-ken", "brights": "brights",
}
YAKU_JA: dict[str, str] = {
    "goko": "五光", "shiko": "四光", "ame_shiko": "雨四光", "sanko": "三光", "hanami": "花見で一杯",
    "tsukimi": "月見で一杯", "inoshikacho": "猪鹿蝶", "akatan": "赤短", "aotan": "青短",
    "akatan_aotan": "赤短・青短の重複", "tane": "タネ", "tan": "タン", "kasu": "カス", "tsukifuda": "月札",
    "teshi": "手四", "kuttsuki": "くっつき", "tenho": "天和", "double_tenho": "ダブル天和",
    "oya_ken": "親権", "brights": "光札",
}

# The two sides as the screens name them.
NAMES: dict[str, dict[str, str]] = {
    "en": {"you": "you", "computer": "computer", "opponent": "opponent"},
    "ja": {"you": "あなた", "computer": "コンピューター", "opponent": "相手"},
}


def tr(lang: str, text: str, /, **values: object) -> str:
    """``text`` (an English template) in ``lang``, with ``values`` filled in."""
    template = JA.get(text, text) if lang == "ja" else text
    return template.format(**values) if values else template


def yaku_name(yaku: str, lang: str) -> str:
    table = YAKU_JA if lang == "ja" else YAKU_EN
    return table.get(yaku, yaku)


def side_names(lang: str, other: str) -> tuple[str, str]:
    """("you", other) in ``lang``; ``other`` is "computer" or "opponent"."""
    table = NAMES.get(lang, NAMES["en"])
    return table["you"], table.get(other, other)


def count(n: int, noun: str, lang: str) -> str:
    """``n`` of a noun, e.g. "1 card", "3 cards", "3枚"; nouns: card, round, point, second, call,
    match, message, result."""
    if lang == "ja":
        unit = {"card": "枚", "round": "回戦", "point": "点", "second": "秒", "call": "回", "match": "試合",
                "message": "通", "result": "件"}
        return f"{n}{unit.get(noun, '')}"
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
