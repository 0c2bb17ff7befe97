"""What ``koikoi rules`` says of a switch, checked against what ``koikoi score`` (and the round)
then does: one scored example per switch value (issue 28)."""

from __future__ import annotations

import json

import pytest

from koikoi_p2p.cli.main import main
from koikoi_p2p.cli.rules_text import summary_lines, yaku_rules
from koikoi_p2p.rules.describe import summary, yaku_table
from koikoi_p2p.rules.profile import Profile, preset

SIX_RIBBONS = ["01-poetry", "02-poetry", "03-poetry", "06-blue", "09-blue", "10-blue"]
BOAR_DEER_BUTTERFLIES = ["07-boar", "10-deer", "06-butterflies"]


def summary_ja(profile: Profile) -> list[str]:
    return summary_lines(profile, "ja")


def yaku_rules_ja(profile: Profile) -> dict[str, str]:
    return yaku_rules(profile, "ja")


def rules_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["rules", *argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert isinstance(out, dict)
    return out


def score(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["score", *argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert isinstance(out, dict)
    return out


def row(rules: dict[str, object], yaku: str) -> dict[str, object]:
    rows = rules["yaku"]
    assert isinstance(rows, list)
    found = [r for r in rows if r["id"] == yaku]
    assert len(found) == 1, yaku
    return found[0]  # type: ignore[no-any-return]


def said(rules: dict[str, object]) -> str:
    return " ".join(rules["summary"])  # type: ignore[arg-type]


def test_viewing_by_call_says_1_then_3_and_scores_so(capsys: pytest.CaptureFixture[str]) -> None:
    switch = ("--rules", "board-game", "--switch", "viewing_by_call=on")
    rules = rules_json(capsys, "board-game", "--switch", "viewing_by_call=on")
    hanami = row(rules, "hanami")
    assert hanami["points"] == 1 and "3 once its holder has called koi-koi" in str(hanami["rule"])
    pile = ["03-curtain", "09-cup", "08-moon"]
    assert score(capsys, *switch, *pile)["yaku"] == {"hanami": 1, "tsukimi": 1}
    # its holder (the winner, A) called: 3 each; only the opponent called: still 1 each
    assert score(capsys, *switch, "--calls", "B,A", *pile)["yaku"] == {"hanami": 3, "tsukimi": 3}
    assert score(capsys, *switch, "--calls", "B", *pile)["yaku"] == {"hanami": 1, "tsukimi": 1}
    off = rules_json(capsys, "board-game")
    assert row(off, "hanami")["points"] == 5 and "called" not in str(row(off, "hanami")["rule"])
    assert score(capsys, "--rules", "board-game", *pile)["yaku"] == {"hanami": 5, "tsukimi": 5}


def test_koikoi_bonus_says_add_then_multiply_and_scores_so(capsys: pytest.CaptureFixture[str]) -> None:
    switch = ("--rules", "classic-variant", "--switch", "koikoi_bonus=winner_add")
    text = said(rules_json(capsys, "classic-variant", "--switch", "koikoi_bonus=winner_add"))
    assert "the winner's own calls add 1, 2 or 3 points" in text
    assert "from four calls multiply by the number of calls less 2" in text
    expected = {"": 5, "A": 6, "A,A": 7, "A,B,A,A": 8, "A,A,A,A": 10, "A,A,A,A,A,A,A": 25}
    for calls, total in expected.items():
        args = ("--calls", calls) if calls else ()
        assert score(capsys, *switch, *args, *BOAR_DEER_BUTTERFLIES)["round_score"] == total, calls
    assert "own calls add" not in said(rules_json(capsys, "classic-variant"))
    assert score(capsys, "--rules", "classic-variant", "--calls", "A,A", *BOAR_DEER_BUTTERFLIES)[
        "round_score"] == 5


def test_akatan_aotan_on_top_says_10_more_and_scores_20(capsys: pytest.CaptureFixture[str]) -> None:
    switch = ("--rules", "teaching-card", "--switch", "akatan_aotan_on_top=on")
    rules = rules_json(capsys, "teaching-card", "--switch", "akatan_aotan_on_top=on")
    both = row(rules, "akatan_aotan")
    assert both["points"] == 10 and "on top of akatan and aotan" in str(both["rule"])
    out = score(capsys, *switch, *SIX_RIBBONS)
    assert out["yaku"] == {"akatan": 5, "aotan": 5, "akatan_aotan": 10, "tan": 2} and out["base"] == 22
    plain = score(capsys, "--rules", "teaching-card", *SIX_RIBBONS)
    assert plain["yaku"] == {"akatan": 5, "aotan": 5, "tan": 2}
    assert "akatan_aotan" not in [r["id"] for r in rules_json(capsys, "teaching-card")["yaku"]]  # type: ignore[attr-defined]


def test_last_turn_and_hand_month_are_said_in_both_languages() -> None:
    """The round behaviour is tested in tests/unit/test_rules_issue28_switches.py; here the words."""
    base = preset("wikipedia")
    last = base.with_switches(stop_on_own_last_turn=True)
    assert any("on each player's own last turn only stop is offered" in line for line in summary(last))
    assert any("各自の最後の番では勝負しか選べない" in line for line in summary_ja(last))
    month = base.with_switches(hand_whole_month="redeal")
    assert any("a hand holding all four cards of a month is shown and dealt again, as is a field" in line
               for line in summary(month))
    assert any("手札に同じ月の4枚があれば" in line for line in summary_ja(month))
    assert not any("a hand holding" in line for line in summary(base))
    assert yaku_rules_ja(base.with_switches(viewing_by_call=True))["hanami"].endswith("こいこいした後は3点")
    assert [r["points"] for r in yaku_table(base.with_switches(viewing_by_call=True))
            if r["id"] in ("hanami", "tsukimi")] == [1, 1]


def test_koikoi_japan_is_described_and_scores_as_described(capsys: pytest.CaptureFixture[str]) -> None:
    """The seventh preset (issue 28 §2): each rule its description states, scored."""
    rules = rules_json(capsys, "koikoi-japan")
    text = said(rules)
    assert "after 8 rounds" in text and "pool of 30; the loser pays the winner; a player at 0 or less" in text
    japan = ("--rules", "koikoi-japan")
    # akatan 5 + aotan 5 + the 10 on top, and tan beside them
    assert score(capsys, *japan, *SIX_RIBBONS)["yaku"] == {"akatan": 5, "aotan": 5, "akatan_aotan": 10,
                                                          "tan": 2}
    # viewing yaku 1, 3 after the holder's own call; no doubling for a high base
    assert score(capsys, *japan, "03-curtain", "09-cup")["round_score"] == 1
    assert score(capsys, *japan, "--calls", "A", "03-curtain", "09-cup")["round_score"] == 3 + 1
    # the cup is also a plain: nine plains and the cup make kasu 1
    nine = ["01-plain1", "01-plain2", "02-plain1", "02-plain2", "03-plain1", "03-plain2", "04-plain1",
            "04-plain2", "05-plain1"]
    assert score(capsys, *japan, *nine, "09-cup")["yaku"] == {"kasu": 1}
    # inoshikacho 5 fixed, tane beside it; four own calls double, the opponent's calls do nothing
    five = [*BOAR_DEER_BUTTERFLIES, "02-warbler", "04-cuckoo"]
    assert score(capsys, *japan, *five)["yaku"] == {"inoshikacho": 5, "tane": 1}
    assert score(capsys, *japan, "--calls", "A,B,A,B,A,A", *five)["round_score"] == 12
    assert score(capsys, *japan, "--calls", "B,B", *five)["round_score"] == 6
    # brights: 10 / 8 / 7 / 5, only the highest
    five_brights = ["01-crane", "03-curtain", "08-moon", "11-rainman", "12-phoenix"]
    assert score(capsys, *japan, *five_brights)["yaku"] == {"goko": 10}
    assert score(capsys, *japan, "01-crane", "03-curtain", "11-rainman")["yaku"] == {}
    ja = summary_ja(preset("koikoi-japan"))
    assert any("持ち点が0以下になった方はすぐに負け" in line for line in ja)


def test_ame_nagare_help_says_both_viewing_yaku_and_the_pair_cancels_both(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28 §3: each house rule cancels hanami and tsukimi (Koi-Koi Online FAQ Q16)."""
    from koikoi_p2p.rules.describe import SWITCH_HELP

    for key in ("hanami_cancelled_by", "tsukimi_cancelled_by"):
        assert "each cancel both viewing yaku" in SWITCH_HELP[key]
        assert "viewing_cancelled_by" in SWITCH_HELP[key]
    pair = ("--rules", "nintendo", "--switch", "viewing_cancelled_by=11")
    rules = rules_json(capsys, "nintendo", "--switch", "viewing_cancelled_by=11")
    for yaku in ("hanami", "tsukimi"):
        rule = str(row(rules, yaku)["rule"])
        assert "not with any of 11-rainman, 11-swallow, 11-ribbon, 11-lightning" in rule
    pile = ["03-curtain", "08-moon", "09-cup", "11-lightning"]
    assert score(capsys, *pair, *pile)["yaku"] == {}
    assert score(capsys, "--rules", "nintendo", *pile)["yaku"] == {"hanami": 5, "tsukimi": 5}
    kiri = score(capsys, "--rules", "nintendo", "--switch", "viewing_cancelled_by=12", *pile[:3], "12-plain1")
    assert kiri["yaku"] == {}


def test_caller_pays_more_words_match_the_scores(capsys: pytest.CaptureFixture[str]) -> None:
    """times_calls: one call x1, two x2 (the source's "twice would pay twice as much");
    doubled_per_call: one x2, two x4; the words say exactly that."""
    from koikoi_p2p.rules.describe import SWITCH_HELP

    assert "one call x1, two x2" in SWITCH_HELP["caller_pays_more"]
    assert "one call x2, two x4" in SWITCH_HELP["caller_pays_more"]
    for value, by_calls in (("times_calls", {"B": 5, "B,B": 10}), ("doubled_per_call", {"B": 10, "B,B": 20})):
        switch = ("--rules", "classic-variant", "--switch", f"caller_pays_more={value}")
        text = said(rules_json(capsys, "classic-variant", "--switch", f"caller_pays_more={value}"))
        assert ("(one call x1, two x2)" if value == "times_calls" else "(one call x2, two x4)") in text
        for calls, total in by_calls.items():
            out = score(capsys, *switch, "--calls", calls, *BOAR_DEER_BUTTERFLIES)
            assert out["round_score"] == total, (value, calls)


def test_a_call_limit_in_effect_is_said_and_played() -> None:
    """Issue 28 §3: with after_call = next_improvement_ends_round a second call never happens,
    so the summary does not promise any number of calls."""
    import random

    from koikoi_p2p.rules.actions import KoiKoi
    from koikoi_p2p.rules.round import NeedAction, RoundState, run_revealed

    online = preset("koikoi-online")
    assert any("any number of koi-koi calls by either player" in line for line in summary(online))
    ends = online.with_switches(after_call="next_improvement_ends_round")
    text = " ".join(summary(ends))
    assert "one koi-koi call per round in effect" in text and "any number" not in text
    assert any("実際には1回戦に1回" in line for line in summary_ja(ends))
    rng = random.Random(3)
    most = 0
    for _ in range(60):
        deck = list(range(48))
        rng.shuffle(deck)
        state = RoundState(profile=ends, dealer=0, viewer=None, round_index=1, month=1)
        run_revealed(state, deck)
        while state.result is None:
            need = state.need
            assert isinstance(need, NeedAction)
            options = state.legal_actions()
            state.apply(need.seat, KoiKoi() if KoiKoi() in options else options[0])
            run_revealed(state, deck)
        most = max(most, len(state.result.calls))
    assert most == 1


def test_board_game_rounds_switch_pairs_the_pool(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28 §3: --switch rounds=6 plays from 50 as --rounds 6 does; an explicit pool stays."""
    for rounds, pool in (("6", 50), ("3", 25), ("12", 100)):
        out = rules_json(capsys, "board-game", "--switch", f"rounds={rounds}")
        assert out["switches"]["pool_start"] == pool  # type: ignore[index]
        assert f"pool of {pool}" in said(out)
    out = rules_json(capsys, "board-game", "--switch", "rounds=6", "--switch", "pool_start=70")
    assert out["switches"]["pool_start"] == 70  # type: ignore[index]
    out = rules_json(capsys, "board-game", "--switch", "rounds=5")
    assert out["switches"]["pool_start"] == 100  # type: ignore[index]


def test_single_yaku_each_reading_is_said_and_scored(capsys: pytest.CaptureFixture[str]) -> None:
    # spec/rules.md §6.9: off (every yaku), pile (one yaku for the pile), extensions (the highest
    # of a yaku and its extensions). Six ribbons and one more, boar-deer-butterflies and two more
    # animals, and hanami: akatan 5, aotan 5, tan 3, inoshikacho 5, tane 1, hanami 5.
    pile = [*SIX_RIBBONS, "04-ribbon", *BOAR_DEER_BUTTERFLIES, "05-bridge", "09-cup", "03-curtain"]
    readings = {
        (): ({"hanami": 5, "inoshikacho": 5, "akatan": 5, "aotan": 5, "tane": 1, "tan": 3},
             "the base (sum of yaku)"),
        ("single_yaku=true",): ({"hanami": 5}, "the base (the single highest yaku)"),
        ("single_yaku=true", "single_yaku_scope=pile"): ({"hanami": 5}, "the base (the single highest yaku)"),
        ("single_yaku=true", "single_yaku_scope=extensions"):
            ({"hanami": 5, "inoshikacho": 5, "akatan": 5, "aotan": 5},
             "of a yaku and its extensions only the highest counts"),
    }
    for switches, (yaku, words) in readings.items():
        args = [a for s in switches for a in ("--switch", s)]
        assert words in said(rules_json(capsys, "teaching-card", *args)), switches
        out = score(capsys, "--rules", "teaching-card", *args, *pile)
        assert out["yaku"] == yaku and out["base"] == sum(yaku.values()), switches
    extensions = preset("teaching-card").with_switches(single_yaku=True, single_yaku_scope="extensions")
    assert any("役とその発展形では最も高いものだけ" in line for line in summary_ja(extensions))
    assert any("基本点 (最も高い役1つ)" in line
               for line in summary_ja(preset("teaching-card").with_switches(single_yaku=True)))
    # extensions: a higher tan cuts akatan and aotan alike (ten ribbons: tan 6 against 5 and 5)
    ten = [*SIX_RIBBONS, "04-ribbon", "05-ribbon", "07-ribbon", "11-ribbon"]
    assert score(capsys, "--rules", "teaching-card", "--switch", "single_yaku=true", "--switch",
                 "single_yaku_scope=extensions", *ten)["yaku"] == {"tan": 6}
    # extensions with brights_add: goko alone of the bright yaku; tsukifuda is nobody's extension
    brights = ["01-crane", "03-curtain", "08-moon", "11-rainman", "12-phoenix", "11-swallow", "11-ribbon",
               "11-lightning"]
    out = score(capsys, "--rules", "wikipedia", "--switch", "brights_add=true",
                "--switch", "single_yaku=true",
                "--switch", "single_yaku_scope=extensions", "--month", "11", *brights)
    assert out["yaku"] == {"goko": 15, "tsukifuda": 4}
