"""The 48 hanafuda cards (spec/rules.md §2) and the bit masks the scorer and the round use.

A set of cards is an ``int`` bit mask over card indices (bit i = card i): unions, counts and
month lookups are then single integer operations, which keeps random full rounds fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from koikoi_p2p.rules.errors import RulesError

__all__ = [
    "ANIMALS", "BLUE_RIBBONS", "BOAR_DEER_BUTTERFLIES", "BRIGHTS", "CARDS", "CHERRY_CURTAIN",
    "CLASS_RANK", "FULL_MOON", "MONTH_MASKS", "PLAINS", "POETRY_RIBBONS", "RAIN_MAN", "RIBBONS",
    "SAKE_CUP", "Card", "card", "card_ids", "cards_of", "mask_of",
]


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the canonical table; ``klass`` is bright, animal, ribbon or plain."""

    index: int
    id: str
    month: int
    klass: str
    subclass: str
    name_en: str
    name_ja: str
    plant_en: str
    plant_ja: str

    def __str__(self) -> str:
        return self.id


# id, month, plant_en, plant_ja, class, subclass, name_en, name_ja: the canonical card table.
_TABLE: tuple[tuple[str, int, str, str, str, str, str, str], ...] = (
    ('01-crane', 1, 'pine', '松', 'bright', '', 'Crane and Sun', '松に鶴'),
    ('01-poetry', 1, 'pine', '松', 'ribbon', 'poetry', 'Pine Poetry Ribbon', '松に赤短'),
    ('01-plain1', 1, 'pine', '松', 'plain', '', 'Pine Plain', '松のカス'),
    ('01-plain2', 1, 'pine', '松', 'plain', '', 'Pine Plain', '松のカス'),
    ('02-warbler', 2, 'plum', '梅', 'animal', '', 'Bush Warbler', '梅に鶯'),
    ('02-poetry', 2, 'plum', '梅', 'ribbon', 'poetry', 'Plum Poetry Ribbon', '梅に赤短'),
    ('02-plain1', 2, 'plum', '梅', 'plain', '', 'Plum Plain', '梅のカス'),
    ('02-plain2', 2, 'plum', '梅', 'plain', '', 'Plum Plain', '梅のカス'),
    ('03-curtain', 3, 'cherry', '桜', 'bright', '', 'Cherry Curtain', '桜に幕'),
    ('03-poetry', 3, 'cherry', '桜', 'ribbon', 'poetry', 'Cherry Poetry Ribbon', '桜に赤短'),
    ('03-plain1', 3, 'cherry', '桜', 'plain', '', 'Cherry Plain', '桜のカス'),
    ('03-plain2', 3, 'cherry', '桜', 'plain', '', 'Cherry Plain', '桜のカス'),
    ('04-cuckoo', 4, 'wisteria', '藤', 'animal', '', 'Cuckoo', '藤に不如帰'),
    ('04-ribbon', 4, 'wisteria', '藤', 'ribbon', 'red', 'Wisteria Red Ribbon', '藤に短冊'),
    ('04-plain1', 4, 'wisteria', '藤', 'plain', '', 'Wisteria Plain', '藤のカス'),
    ('04-plain2', 4, 'wisteria', '藤', 'plain', '', 'Wisteria Plain', '藤のカス'),
    ('05-bridge', 5, 'iris', '菖蒲', 'animal', '', 'Eight-plank Bridge', '菖蒲に八橋'),
    ('05-ribbon', 5, 'iris', '菖蒲', 'ribbon', 'red', 'Iris Red Ribbon', '菖蒲に短冊'),
    ('05-plain1', 5, 'iris', '菖蒲', 'plain', '', 'Iris Plain', '菖蒲のカス'),
    ('05-plain2', 5, 'iris', '菖蒲', 'plain', '', 'Iris Plain', '菖蒲のカス'),
    ('06-butterflies', 6, 'peony', '牡丹', 'animal', '', 'Butterflies', '牡丹に蝶'),
    ('06-blue', 6, 'peony', '牡丹', 'ribbon', 'blue', 'Peony Blue Ribbon', '牡丹に青短'),
    ('06-plain1', 6, 'peony', '牡丹', 'plain', '', 'Peony Plain', '牡丹のカス'),
    ('06-plain2', 6, 'peony', '牡丹', 'plain', '', 'Peony Plain', '牡丹のカス'),
    ('07-boar', 7, 'bush clover', '萩', 'animal', '', 'Boar', '萩に猪'),
    ('07-ribbon', 7, 'bush clover', '萩', 'ribbon', 'red', 'Bush Clover Red Ribbon', '萩に短冊'),
    ('07-plain1', 7, 'bush clover', '萩', 'plain', '', 'Bush Clover Plain', '萩のカス'),
    ('07-plain2', 7, 'bush clover', '萩', 'plain', '', 'Bush Clover Plain', '萩のカス'),
    ('08-moon', 8, 'pampas grass', '芒', 'bright', '', 'Full Moon', '芒に月'),
    ('08-geese', 8, 'pampas grass', '芒', 'animal', '', 'Geese', '芒に雁'),
    ('08-plain1', 8, 'pampas grass', '芒', 'plain', '', 'Pampas Plain', '芒のカス'),
    ('08-plain2', 8, 'pampas grass', '芒', 'plain', '', 'Pampas Plain', '芒のカス'),
    ('09-cup', 9, 'chrysanthemum', '菊', 'animal', 'sake', 'Sake Cup', '菊に盃'),
    ('09-blue', 9, 'chrysanthemum', '菊', 'ribbon', 'blue', 'Chrysanthemum Blue Ribbon', '菊に青短'),
    ('09-plain1', 9, 'chrysanthemum', '菊', 'plain', '', 'Chrysanthemum Plain', '菊のカス'),
    ('09-plain2', 9, 'chrysanthemum', '菊', 'plain', '', 'Chrysanthemum Plain', '菊のカス'),
    ('10-deer', 10, 'maple', '紅葉', 'animal', '', 'Deer', '紅葉に鹿'),
    ('10-blue', 10, 'maple', '紅葉', 'ribbon', 'blue', 'Maple Blue Ribbon', '紅葉に青短'),
    ('10-plain1', 10, 'maple', '紅葉', 'plain', '', 'Maple Plain', '紅葉のカス'),
    ('10-plain2', 10, 'maple', '紅葉', 'plain', '', 'Maple Plain', '紅葉のカス'),
    ('11-rainman', 11, 'willow', '柳', 'bright', 'rain', 'Rain Man', '柳に小野道風'),
    ('11-swallow', 11, 'willow', '柳', 'animal', '', 'Swallow', '柳に燕'),
    ('11-ribbon', 11, 'willow', '柳', 'ribbon', 'red', 'Willow Red Ribbon', '柳に短冊'),
    ('11-lightning', 11, 'willow', '柳', 'plain', '', 'Lightning', '柳のカス'),
    ('12-phoenix', 12, 'paulownia', '桐', 'bright', '', 'Phoenix', '桐に鳳凰'),
    ('12-plain1', 12, 'paulownia', '桐', 'plain', '', 'Paulownia Plain', '桐のカス'),
    ('12-plain2', 12, 'paulownia', '桐', 'plain', '', 'Paulownia Plain', '桐のカス'),
    ('12-plain3', 12, 'paulownia', '桐', 'plain', '', 'Paulownia Plain', '桐のカス'),
)

CARDS: tuple[Card, ...] = tuple(
    Card(index=i, id=cid, month=month, klass=klass, subclass=sub, name_en=name_en, name_ja=name_ja,
         plant_en=plant_en, plant_ja=plant_ja)
    for i, (cid, month, plant_en, plant_ja, klass, sub, name_en, name_ja) in enumerate(_TABLE)
)
_BY_ID: dict[str, Card] = {c.id: c for c in CARDS}


def _mask(pred: Callable[[Card], bool]) -> int:
    m = 0
    for c in CARDS:
        if pred(c):
            m |= 1 << c.index
    return m


# MONTH_MASKS[m] = the four cards of month m (index 0 unused).
def _month_mask(month: int) -> int:
    return _mask(lambda c: c.month == month)


MONTH_MASKS: tuple[int, ...] = (0, *(_month_mask(m) for m in range(1, 13)))
BRIGHTS = _mask(lambda c: c.klass == "bright")
ANIMALS = _mask(lambda c: c.klass == "animal")
RIBBONS = _mask(lambda c: c.klass == "ribbon")
PLAINS = _mask(lambda c: c.klass == "plain")
POETRY_RIBBONS = _mask(lambda c: c.subclass == "poetry")
BLUE_RIBBONS = _mask(lambda c: c.subclass == "blue")
RAIN_MAN = _mask(lambda c: c.subclass == "rain")
SAKE_CUP = _mask(lambda c: c.subclass == "sake")
CHERRY_CURTAIN = 1 << _BY_ID["03-curtain"].index
FULL_MOON = 1 << _BY_ID["08-moon"].index
BOAR_DEER_BUTTERFLIES = (
    (1 << _BY_ID["07-boar"].index) | (1 << _BY_ID["10-deer"].index) | (1 << _BY_ID["06-butterflies"].index)
)
# Rank of a class when two drawn cards of one month decide the first dealer (spec/rules.md §5.1).
CLASS_RANK: dict[str, int] = {"bright": 4, "animal": 3, "ribbon": 2, "plain": 1}


def card(ref: int | str) -> Card:
    """The card with this index (0..47) or id ("01-crane"); RulesError otherwise."""
    if isinstance(ref, bool):
        raise RulesError("unknown_card", repr(ref))
    if isinstance(ref, int):
        if 0 <= ref < len(CARDS):
            return CARDS[ref]
        raise RulesError("unknown_card", f"no card with index {ref}")
    if isinstance(ref, str):
        found = _BY_ID.get(ref)
        if found is not None:
            return found
        raise RulesError("unknown_card", f"no card with id {ref!r}")
    raise RulesError("unknown_card", repr(ref))


def mask_of(cards: Iterable[int | str]) -> int:
    """Bit mask of an iterable of card indices or ids; a repeated card is an error."""
    m = 0
    for ref in cards:
        bit = 1 << card(ref).index
        if m & bit:
            raise RulesError("duplicate_card", str(CARDS[bit.bit_length() - 1].id))
        m |= bit
    return m


def cards_of(mask: int) -> tuple[int, ...]:
    """Card indices of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def card_ids(mask: int) -> tuple[str, ...]:
    """Card ids of a mask, in card order."""
    return tuple(CARDS[i].id for i in cards_of(mask))
