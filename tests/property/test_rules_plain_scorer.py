"""An independent, deliberately plain scorer checks the engine's over every subset of key cards.

The plain scorer reads the profile as plain data and writes each yaku out longhand from card ids,
sharing no code with koikoi_p2p.rules.scoring. It is compared with the engine over all 2^15
subsets of the key cards (five brights, boar, deer, butterflies, the six poetry and blue ribbons,
the cup) for every preset and for profiles with the house-rule scoring switches on (viewing
cancelled by rain or paulownia, the cup as animal or plain, bright yaku that add up, the rain man
in sanko, only the highest yaku), each subset joined with one of several fixed filler piles so
that the counted yaku (tane, tan, kasu) and the monthly yaku are exercised too.

The default run checks each profile on every seventh subset, starting at a different one for each
profile, so that seven consecutive profiles together check every subset (a stride prime to the
twelve months and the five filler piles: each profile still meets every month and every pile);
every profile on every subset with
``KOIKOI_FULL_CAMPAIGN=1 .venv/bin/python -m pytest -q tests/property/test_rules_plain_scorer.py``
(tests/campaign.py).
"""

from __future__ import annotations

from typing import TypeVar

from koikoi_p2p.rules.cards import CARDS
from koikoi_p2p.rules.profile import PRESETS, Profile, preset
from koikoi_p2p.rules.scoring import YAKU_IDS, round_score, scorer
from tests.campaign import full_campaign

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
T = TypeVar("T")


def _list_of(value: object, kind: type[T]) -> list[T]:
    """A list switch of the plain data (``Profile.to_dict`` writes tuples as lists), each item a ``kind``."""
    assert isinstance(value, list), value
    items: list[T] = []
    for item in value:
        assert isinstance(item, kind), value
        items.append(item)
    return items


def plain_score(ids: set[str], rules: dict[str, object], month: int, called: bool = False) -> dict[str, int]:
    """Yaku written out by hand from the rule texts, one yaku at a time.

    ``rules`` is a profile's plain data; an extension switch that is absent is at its default.
    """
    out: dict[str, int] = {}
    g, s4, a4, s3 = _list_of(rules["bright_values"], int)
    lights = [x for x in ("01-crane", "03-curtain", "08-moon", "12-phoenix") if x in ids]
    rain = "11-rainman" in ids
    if rules.get("brights_add", False):
        # every bright yaku whose cards are there
        if len(lights) == 4 and rain:
            out["goko"] = g
        if len(lights) == 4:
            out["shiko"] = s4
        if rain and len(lights) >= 3:
            out["ame_shiko"] = a4
        if len(lights) >= 3 or (rules.get("sanko_with_rain", False) and rain and len(lights) >= 2):
            out["sanko"] = s3
    elif len(lights) == 4 and rain:
        out["goko"] = g
    elif len(lights) == 4:
        out["shiko"] = s4
    elif len(lights) == 3 and rain:
        out["ame_shiko"] = a4
    elif len(lights) == 3:
        out["sanko"] = s3
    elif len(lights) == 2 and rain and rules.get("sanko_with_rain", False):
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
        if red and blue and rules.get("akatan_aotan_on_top", False):
            # the red-and-blue 10 beside akatan and aotan (needs separate_5_5)
            r["akatan_aotan"] = 10 + (ribbons - 6) if ext else 10
        if animals >= 5 and (rules["tane_with_inoshikacho"] or not has_isc):
            r["tane"] = 1 + (animals - 5)
        if ribbons >= 5 and (rules["tan_with_ribbon_yaku"] or not (red or blue)):
            r["tan"] = 1 + (ribbons - 5)
        if plains >= 10:
            r["kasu"] = 1 + (plains - 10)
        return r

    def finish(found: dict[str, int]) -> dict[str, int]:
        """Viewing, monthly and the single-yaku cut on top of the brights and the counted yaku."""
        mine = dict(found)
        has_basic = len(mine) > 0
        if "09-cup" in ids and rules["viewing"] != "off" and (rules["viewing"] == "always" or has_basic):
            rain_on_cherry = set(_list_of(rules.get("hanami_cancelled_by", []), str)) & ids
            cloud_on_moon = set(_list_of(rules.get("tsukimi_cancelled_by", []), str)) & ids
            worth = (3 if called else 1) if rules.get("viewing_by_call", False) else 5
            if "03-curtain" in ids and not rain_on_cherry:
                mine["hanami"] = worth
            if "08-moon" in ids and not cloud_on_moon:
                mine["tsukimi"] = worth
        points = rules["monthly_yaku_points"]
        if points:
            complete = [m for m in range(1, 13) if len([x for x in ids if MONTH_OF[x] == m]) == 4]
            if rules["monthly_yaku_scope"] == "current_month":
                if month in complete:
                    mine["tsukifuda"] = points  # type: ignore[assignment]
            elif complete:
                mine["tsukifuda"] = points * len(complete)  # type: ignore[operator]
        if rules.get("single_yaku", False) and mine:
            ranked = sorted(mine.items(), key=lambda kv: (-kv[1], YAKU_IDS.index(kv[0])))
            if rules.get("single_yaku_scope", "pile") == "extensions":
                # §6.9: yaku of one card class are related (the one with more cards extends the
                # other), except akatan and aotan; the first related yaku in rank order keeps it.
                family = {"goko": "bright", "shiko": "bright", "ame_shiko": "bright", "sanko": "bright",
                          "inoshikacho": "animal", "tane": "animal",
                          "akatan": "ribbon", "aotan": "ribbon", "akatan_aotan": "ribbon", "tan": "ribbon"}

                def related(x: str, y: str) -> bool:
                    return x in family and family.get(x) == family.get(y) and {x, y} != {"akatan", "aotan"}

                mine = {k: v for i, (k, v) in enumerate(ranked)
                        if not any(related(k, higher) for higher, _ in ranked[:i])}
            else:
                mine = {ranked[0][0]: ranked[0][1]}
        return {k: mine[k] for k in YAKU_IDS if k in mine}

    # The joker and (with cup_either) the cup may each be an animal or a plain, never both:
    # try every way, keep the best total, the fewest plains on a tie.
    flexible = 0
    joker = rules["joker_card"]
    if joker and joker in ids:
        flexible += 1
    if rules.get("cup_either", False) and "09-cup" in ids:
        flexible += 1
    best: dict[str, int] | None = None
    for as_plain in range(flexible + 1):
        candidate = finish({**out, **rest(base_animals - as_plain, base_plains + as_plain)})
        if best is None or sum(candidate.values()) > sum(best.values()):
            best = candidate
    assert best is not None
    return best


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
    loser_calls = len([c for c in calls if c != winner])
    if rules.get("caller_pays_more", "off") == "times_calls" and loser_calls > 0:
        score = score * loser_calls
    if rules.get("caller_pays_more", "off") == "doubled_per_call":
        for _ in range(loser_calls):
            score = score * 2
    own_calls = len(calls) - loser_calls
    if rules.get("koikoi_bonus", "off") == "winner_add":
        score = score * (own_calls - 2) if own_calls > 3 else score + own_calls
    return score


# Profiles with the extension scoring switches on, beside the presets (issue 17).
HOUSE_RULE_PROFILES: list[Profile] = [
    preset("nintendo").with_switches(
        name="ame", hanami_cancelled_by=("11-rainman",),
        tsukimi_cancelled_by=("12-phoenix", "12-plain1", "12-plain2", "12-plain3")),
    preset("koikoi-online").with_switches(name="cup", cup_either=True, single_yaku=True),
    # cup_either alone and beside the joker: the engine's fast base (no single_yaku, no
    # brights_add) must move the cup too, not only the readable yaku map.
    preset("koikoi-online").with_switches(name="cup-fast", cup_either=True),
    preset("classic-variant").with_switches(name="cup-joker", cup_either=True),
    preset("classic-variant").with_switches(name="flex", cup_either=True, brights_add=True,
                                            hanami_cancelled_by=("11-rainman", "11-swallow", "11-ribbon",
                                                                 "11-lightning")),
    preset("board-game").with_switches(name="rain", sanko_with_rain=True),
    preset("board-game").with_switches(name="rain-add", sanko_with_rain=True, brights_add=True),
    preset("wikipedia").with_switches(name="single", single_yaku=True, joker_card="05-bridge"),
    # issue 28: viewing by call (scored here before the call; after it in the test below) and the
    # red-and-blue 10 on top, with and without named extension.
    preset("board-game").with_switches(name="japan-ish", viewing_by_call=True, akatan_aotan_on_top=True),
    preset("teaching-card").with_switches(name="on-top-ext", akatan_aotan_on_top=True, named_extension=True),
    # issue 28: single_yaku in the source's reading (only the highest of a yaku and its extensions),
    # beside added bright yaku, the red-and-blue 10 on top and the joker.
    preset("teaching-card").with_switches(name="extensions", single_yaku=True, single_yaku_scope="extensions",
                                          brights_add=True, akatan_aotan_on_top=True),
    preset("classic-variant").with_switches(name="extensions-joker", single_yaku=True,
                                            single_yaku_scope="extensions", named_extension=True),
]


def test_engine_matches_plain_scorer_on_every_key_subset() -> None:
    stride = 1 if full_campaign() else 7
    profiles = [*PRESETS.values(), *HOUSE_RULE_PROFILES]
    checked = 0
    for number, profile in enumerate(profiles):
        rules = profile.to_dict()
        s = scorer(profile)
        for subset in range(number % stride, 1 << len(KEY_IDS), stride):
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
    assert checked == sum(len(range(n % stride, 2**15, stride)) for n in range(len(profiles)))
    assert len(profiles) >= stride


def test_viewing_by_call_matches_plain_scorer_after_a_call() -> None:
    """viewing_by_call: 1 per viewing yaku before the holder's call, 3 after (spec/rules.md §6.4)."""
    for profile in [*HOUSE_RULE_PROFILES, preset("nintendo").with_switches(name="v", viewing_by_call=True)]:
        rules = profile.to_dict()
        s = scorer(profile)
        for subset in range(0, 1 << len(KEY_IDS), 7):
            ids = {KEY_IDS[i] for i in range(len(KEY_IDS)) if subset >> i & 1}
            ids |= set(FILLERS[subset % len(FILLERS)])
            mask = 0
            for x in ids:
                mask |= 1 << _INDEX[x]
            expected = plain_score(ids, rules, 1, called=True)
            assert s.yaku(mask, 1, True) == expected, (profile.name, sorted(ids))
            assert s.base(mask, 1, True) == sum(expected.values())


def test_round_score_matches_plain_model() -> None:
    call_lists: list[list[int]] = [[], [0], [1], [0, 1], [1, 0], [0, 0], [1, 1, 0], [0, 1, 0, 1]]
    extra = [p.with_switches(caller_pays_more=mode) for p in PRESETS.values()
             for mode in ("times_calls", "doubled_per_call")]
    extra += [p.with_switches(koikoi_bonus="winner_add") for p in PRESETS.values()]
    call_lists += [[0] * n + [1] for n in range(4, 9)]
    for profile in [*PRESETS.values(), *extra]:
        rules = profile.to_dict()
        for base in range(0, 40):
            for calls in call_lists:
                for winner in (0, 1):
                    expected = plain_round_score(base, calls, winner, rules)
                    assert round_score(base, calls, winner, profile) == expected


_INDEX = {c.id: c.index for c in CARDS}
