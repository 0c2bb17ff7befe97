"""An independent, deliberately plain scorer checks the engine's over every subset of key cards.

The plain scorer reads the profile as plain data and writes each yaku out longhand from card ids,
sharing no code with koikoi_p2p.rules.scoring. It is compared with the engine over all 2^15
subsets of the key cards (five brights, boar, deer, butterflies, the six poetry and blue ribbons,
the cup) for every preset, each subset joined with one of several fixed filler piles so that the
counted yaku (tane, tan, kasu) and the monthly yaku are exercised too.
"""

from __future__ import annotations

from koikoi_p2p.rules.cards import CARDS
from koikoi_p2p.rules.profile import PRESETS
from koikoi_p2p.rules.scoring import round_score, scorer

KEY_IDS = [
    "01-crane", "03-curtain", "08-moon", "11-rainman", "12-phoenix",
    "07-boar", "10-deer", "06-butterflies",
    "01-poetry", "02-poetry", "03-poetry", "06-blue", "09-blue", "10-blue",
    "09-cup",
]
FILLERS: list[list[str]] = [
    [],
    ["02-warbler", "04-cuckoo", "04-ribbon", "05-ribbon"],
    ["02-warbler", "05-bridge", "08-geese", "11-swallow", "07-ribbon", "11-ribbon",
     "01-plain1", "01-plain2", "02-plain1", "02-plain2", "04-plain1", "04-plain2", "05-plain1", "05-plain2"],
    ["05-bridge", "04-ribbon", "01-plain1", "01-plain2", "02-plain1", "02-plain2", "04-plain1", "04-plain2",
     "05-plain1", "05-plain2", "11-lightning", "12-plain1", "12-plain2", "12-plain3"],
    ["08-geese", "08-plain1", "08-plain2", "09-blue", "09-plain1", "09-plain2", "09-cup", "06-plain1",
     "06-plain2", "10-plain1"],
]
MONTH_OF = {c.id: c.month for c in CARDS}


def plain_score(ids: set[str], rules: dict[str, object], month: int) -> dict[str, int]:
    """Yaku written out by hand from the rule texts, one yaku at a time."""
    out: dict[str, int] = {}
    g, s4, a4, s3 = rules["bright_values"]  # type: ignore[misc]
    lights = [x for x in ("01-crane", "03-curtain", "08-moon", "12-phoenix") if x in ids]
    rain = "11-rainman" in ids
    if len(lights) == 4 and rain:
        out["goko"] = g
    elif len(lights) == 4:
        out["shiko"] = s4
    elif len(lights) == 3 and rain:
        out["ame_shiko"] = a4
    elif len(lights) == 3:
        out["sanko"] = s3

    animal_ids = ["02-warbler", "04-cuckoo", "05-bridge", "06-butterflies", "07-boar", "08-geese",
                  "09-cup", "10-deer", "11-swallow"]
    ribbon_ids = ["01-poetry", "02-poetry", "03-poetry", "04-ribbon", "05-ribbon", "06-blue", "07-ribbon",
                  "09-blue", "10-blue", "11-ribbon"]
    plain_ids = [c.id for c in CARDS if c.id not in animal_ids and c.id not in ribbon_ids
                 and c.id not in ("01-crane", "03-curtain", "08-moon", "11-rainman", "12-phoenix")]
    base_animals = len([x for x in animal_ids if x in ids])
    base_plains = len([x for x in plain_ids if x in ids])
    if rules["cup_is_plain"] and "09-cup" in ids:
        base_plains += 1
    ribbons = len([x for x in ribbon_ids if x in ids])

    def rest(animals: int, plains: int) -> dict[str, int]:
        r: dict[str, int] = {}
        ext = rules["named_extension"]
        has_isc = "07-boar" in ids and "10-deer" in ids and "06-butterflies" in ids
        if has_isc:
            r["inoshikacho"] = 5 + (animals - 3) if ext else 5
        red = "01-poetry" in ids and "02-poetry" in ids and "03-poetry" in ids
        blue = "06-blue" in ids and "09-blue" in ids and "10-blue" in ids
        if red and blue and rules["ribbon_pair"] == "chofuku_10":
            r["akatan_aotan"] = 10 + (ribbons - 6) if ext else 10
        if red and not (blue and rules["ribbon_pair"] == "chofuku_10"):
            r["akatan"] = 5 + (ribbons - 3) if ext else 5
        if blue and not (red and rules["ribbon_pair"] == "chofuku_10"):
            r["aotan"] = 5 + (ribbons - 3) if ext else 5
        if animals >= 5 and (rules["tane_with_inoshikacho"] or not has_isc):
            r["tane"] = 1 + (animals - 5)
        if ribbons >= 5 and (rules["tan_with_ribbon_yaku"] or not (red or blue)):
            r["tan"] = 1 + (ribbons - 5)
        if plains >= 10:
            r["kasu"] = 1 + (plains - 10)
        return r

    options = [rest(base_animals, base_plains)]
    joker = rules["joker_card"]
    if joker and joker in ids:
        options.append(rest(base_animals - 1, base_plains + 1))
    best = options[0]
    for o in options[1:]:
        if sum(o.values()) + sum(out.values()) > sum(best.values()) + sum(out.values()):
            best = o
    out.update(best)
    has_basic = len(out) > 0
    if "09-cup" in ids and rules["viewing"] != "off" and (rules["viewing"] == "always" or has_basic):
        if "03-curtain" in ids:
            out["hanami"] = 5
        if "08-moon" in ids:
            out["tsukimi"] = 5
    points = rules["monthly_yaku_points"]
    if points:
        complete = [m for m in range(1, 13) if len([x for x in ids if MONTH_OF[x] == m]) == 4]
        if rules["monthly_yaku_scope"] == "current_month":
            if month in complete:
                out["tsukifuda"] = points  # type: ignore[assignment]
        elif complete:
            out["tsukifuda"] = points * len(complete)  # type: ignore[operator]
    return out


def plain_round_score(base: int, calls: list[int], winner: int, rules: dict[str, object]) -> int:
    score = base
    threshold = rules["double_threshold"]
    if threshold and base >= threshold:  # type: ignore[operator]
        score = score * 2
    if rules["koikoi_multiplier"] == "opponent_flat_x2" and (1 - winner) in calls:
        score = score * 2
    if rules["koikoi_multiplier"] == "shared_one_plus_calls":
        score = score * (len(calls) + 1)
    if rules["koikoi_multiplier"] == "winner_pow2":
        for c in calls:
            if c == winner:
                score = score * 2
    return score


def test_engine_matches_plain_scorer_on_every_key_subset() -> None:
    checked = 0
    for profile in PRESETS.values():
        rules = profile.to_dict()
        s = scorer(profile)
        for subset in range(1 << len(KEY_IDS)):
            chosen = {KEY_IDS[i] for i in range(len(KEY_IDS)) if subset >> i & 1}
            ids = chosen | set(FILLERS[subset % len(FILLERS)])
            month = subset % 12 + 1
            mask = 0
            for x in ids:
                mask |= 1 << _INDEX[x]
            expected = plain_score(ids, rules, month)
            got = s.yaku(mask, month)
            if got != expected:
                raise AssertionError(f"{profile.name} {sorted(ids)} {month}: engine {got} plain {expected}")
            assert s.base(mask, month) == sum(expected.values())
            checked += 1
    assert checked == 6 * 2**15


def test_round_score_matches_plain_model() -> None:
    call_lists: list[list[int]] = [[], [0], [1], [0, 1], [1, 0], [0, 0], [1, 1, 0], [0, 1, 0, 1]]
    for profile in PRESETS.values():
        rules = profile.to_dict()
        for base in range(0, 40):
            for calls in call_lists:
                for winner in (0, 1):
                    expected = plain_round_score(base, calls, winner, rules)
                    assert round_score(base, calls, winner, profile) == expected


_INDEX = {c.id: c.index for c in CARDS}
