"""What the joiner reads before signing the terms (issue 11): rules and every changed switch, the
length, the deadlines, rated or not, who the host is."""

from __future__ import annotations

from pathlib import Path

import pytest

from koikoi_p2p.cli.switches import apply_switches
from koikoi_p2p.cli.terms_screen import rules_name, terms_lines
from koikoi_p2p.protocol.identity import Identity, fingerprint
from koikoi_p2p.protocol.terms import GAME_VERSION, Deadlines, MatchTerms
from koikoi_p2p.rules.profile import Profile, preset, with_rounds


def _terms(*, profile: Profile | None = None, names: tuple[str, str] = ("Aiko", ""), rated: bool = False,
           ratings: str = "") -> MatchTerms:
    host, friend = Identity.generate().public_key, Identity.generate().public_key
    if profile is None:
        profile = apply_switches(with_rounds(preset("nintendo"), 3),
                                 ["exhaustion=oya_ken", "max_calls_per_round=0"])
    return MatchTerms(version=GAME_VERSION, profile=profile, rounds=3, keys=(host, friend), room="ROOM01",
                      names=names, deadlines=Deadlines(turn=120, step=60), rated=rated, ratings=ratings)


def test_the_terms_say_everything_that_is_signed() -> None:
    terms = _terms()
    text = "\n".join(terms_lines(terms, "en", 1))
    assert "Rules: custom, based on nintendo" in text
    # Each changed switch and both values in words, with the browser's entries (cli/rules_text.py).
    assert "Hands run out = the dealer scores (oya-ken) (the preset has nobody scores)" in text
    assert "Koi-koi calls per round = any number (the preset has 1 call)" in text
    assert "rounds" not in text.split("Length:")[0]  # the length is no house rule: it is said once
    assert "Length: 3 rounds" in text
    assert "Time for each decision: 120 seconds; for each automatic step: 60 seconds" in text
    assert "Unrated: no rating service" in text
    assert f"Host: Aiko, key fingerprint {fingerprint(terms.keys[0])}" in text
    terms = _terms(rated=True, ratings="https://ratings.example/v1", names=("", ""))
    rated = "\n".join(terms_lines(terms, "en", 1))
    assert "Rated: the result goes to the rating service https://ratings.example/v1" in rated
    assert "(no display name)" in rated


def test_the_terms_in_japanese() -> None:
    text = "\n".join(terms_lines(_terms(), "ja", 1))
    assert "ルール: nintendo (任天堂版) の変更版" in text and "長さ: 3回戦" in text
    assert "レーティング対象外" in text
    # The changed switches in Japanese too (issue 16): what they are called and their values.
    assert "手札がなくなったとき = 親権により親が得点 (元の設定は 誰も得点しない)" in text
    assert "1回戦のこいこい回数 = 無制限 (元の設定は 1回)" in text
    from tests.e2e.test_cli_practice_pty import english_left

    assert english_left(text.replace("Aiko", "")) == [], text  # the host's own name stays as chosen


def test_a_preset_played_as_itself_is_named_plainly() -> None:
    assert rules_name(with_rounds(preset("wikipedia"), 1), "en") == "wikipedia"


def test_a_custom_name_is_shown_as_the_hosts_own_words() -> None:
    """A profile named by the host ("house") is custom, based on the nearest preset, and its name is
    shown as a name, never taken for a preset (issue 11 hole 4)."""
    profile = _terms().profile.with_switches(name="house")
    assert rules_name(profile, "en") == "custom (house), based on nintendo"
    assert rules_name(profile, "ja") == "nintendo (任天堂版) の変更版「house」"


def test_a_host_names_its_rules_with_the_name_switch() -> None:
    """spec/rules.md §3.7 gives `name` a text form: `--switch name=NAME` names the profile (issue 27
    item 8); a preset's name is refused unless the switches are that preset's (spec/game.md §2.4)."""
    import pytest

    from koikoi_p2p.cli.switches import PRESET_NAME, SwitchError
    from koikoi_p2p.protocol.terms import MatchTerms

    base = with_rounds(preset("nintendo"), 3)
    named = apply_switches(base, ["exhaustion=oya_ken", "name=room-7"])
    assert named.name == "room-7" and named.exhaustion == "oya_ken"
    assert apply_switches(base, ["name=room-7"]).name == "room-7"       # a custom name for preset rules
    assert apply_switches(base, ["exhaustion=oya_ken"]).name == "nintendo-custom"
    assert apply_switches(base, ["name=nintendo"]) == base               # the preset's own name: itself
    with pytest.raises(SwitchError) as caught:
        apply_switches(base, ["exhaustion=oya_ken", "name=wikipedia"])
    assert caught.value.problem == PRESET_NAME
    # The name survives the proposal, which renames only a preset's name on other switches.
    terms = MatchTerms.propose(profile=named, keys=(bytes(32), bytes(32)), room="ROOM01", rounds=3)
    assert terms.profile.name == "room-7"


def test_koikoi_host_and_rules_take_the_name_switch_in_its_text_form(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 8 through the commands themselves: `koikoi host --switch name=NAME` proposes
    terms under that name and `koikoi rules --switch name=NAME` describes the profile under it
    (spec/rules.md §3.7); a preset's name on other switches, or a name outside [a-z0-9_-]{1,40}
    (spec/rules.md §3.2), is refused before anything is sent."""
    import json

    from koikoi_p2p.cli.main import build_parser, main
    from koikoi_p2p.cli.setup import prepare
    from koikoi_p2p.protocol.terms import MatchTerms

    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    parser = build_parser()
    args = parser.parse_args(["host", "--rules", "nintendo", "--switch", "exhaustion=oya_ken",
                              "--switch", "name=room-7"])
    setup = prepare(args)
    assert setup is not None and setup.profile.name == "room-7" and setup.profile.exhaustion == "oya_ken"
    terms = MatchTerms.propose(profile=setup.profile, keys=(bytes(32), bytes(32)), room="ROOM01",
                               rounds=setup.rounds)
    assert terms.profile.name == "room-7"
    for refused, why in ((["--switch", "exhaustion=oya_ken", "--switch", "name=wikipedia"],
                          "--switch name=wikipedia: a preset's name is for that preset's own switches"),
                         (["--switch", "name=Room 7"], "--switch name=Room 7: name is 1..40 characters")):
        capsys.readouterr()
        assert prepare(parser.parse_args(["host", "--rules", "nintendo", *refused])) is None
        assert why in capsys.readouterr().err

    assert main(["rules", "nintendo", "--switch", "name=room-7", "--switch", "exhaustion=oya_ken",
                 "--json"]) == 0
    described = json.loads(capsys.readouterr().out)
    assert described["name"] == "room-7" and described["switches"]["exhaustion"] == "oya_ken"
    assert main(["rules", "nintendo", "--switch", "name=nintendo"]) == 0     # the preset as itself
    capsys.readouterr()
    assert main(["rules", "nintendo", "--switch", "exhaustion=oya_ken", "--switch", "name=wikipedia"]) == 2
    assert "a preset's name is for that preset's own switches" in capsys.readouterr().err


# What a value needs beside it to be valid rules (profile.py's checks).
_NEEDS = {"transfer_cap": ["pool_start=30"], "bust_ends_game": ["pool_start=30"],
          "cup_either": ["cup_is_plain=false"], "akatan_aotan_on_top": ["ribbon_pair=separate_5_5"],
          "hand_whole_month": ["hand_yaku=kuttsuki:6"],
          "single_yaku_scope": ["single_yaku=true"]}


def _one_change(key: str, value: str) -> MatchTerms:
    switches = [*_NEEDS.get(key, []), f"{key}={value}"]
    return _terms(profile=apply_switches(with_rounds(preset("nintendo"), 3), switches))


def test_every_switch_value_on_the_english_terms_screen_is_in_words() -> None:
    """Each switch of a choice and each of its values, and each yes/no switch, as the joiner reads
    it in English: the switch's label and the value's words (the entries the browser's sw_ and sv_
    keys name), never their ids."""
    from koikoi_p2p.cli.rules_text import SWITCH_LABELS, VALUE_WORDS, choice_words
    from koikoi_p2p.rules.profile import SWITCH_CHOICES, SWITCHES
    from tests.e2e.test_cli_practice_pty import raw_left

    nintendo = preset("nintendo")
    seen = 0
    for key in SWITCHES:
        current = getattr(nintendo, key)
        if isinstance(current, bool):
            values = ["false" if current else "true"]
        else:
            values = [v for v in SWITCH_CHOICES.get(key, ()) if v != current]
        for value in values:
            terms = _one_change(key, value)
            text = "\n".join(terms_lines(terms, "en", 1))
            line = next(x for x in text.splitlines() if SWITCH_LABELS[key] + " = " in x)
            yes_no = "yes" if value == "true" else "no"
            words = choice_words(key, value, "en") if key in VALUE_WORDS else yes_no
            assert f"{SWITCH_LABELS[key]} = {words} (the preset has " in line, line
            assert key not in line and (value not in line or "_" not in value), line
            assert raw_left(line) == [], line
            seen += 1
    assert seen == 42  # every value but the preset's own, of every choice and yes/no switch


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_number_switch_at_zero_reads_as_the_browser_says_it(lang: str) -> None:
    """0 means never or none for these switches: the terms screen says the words the browser's
    svNever, svPoolNone, svNone and svRoundsUntilTarget name (one catalogue entry each), not 0;
    other values are points."""
    from koikoi_p2p.cli.catalogue import ngettext_in, pgettext_in
    from koikoi_p2p.cli.rules_text import SWITCH_LABELS, switch_label

    none = pgettext_in(lang, "value of double_threshold", "never")
    cases = {"double_threshold": none,
             "pool_start": pgettext_in(lang, "value of pool_start", "none, scores add up from 0"),
             "monthly_yaku_points": "なし" if lang == "ja" else "none"}
    for key, words in cases.items():
        nintendo = getattr(preset("nintendo"), key)
        for value, said in ((0, words), (9, ngettext_in(lang, "{n} point", "{n} points", 9).format(n=9))):
            if value == nintendo:
                continue
            text = "\n".join(terms_lines(_one_change(key, str(value)), lang, 1))
            label = switch_label(key, lang) if lang == "ja" else SWITCH_LABELS[key]
            line = next(x for x in text.splitlines() if label in x)
            assert f" {said} " in f" {line} ".replace("=", " ").replace("(", " ").replace("、", " "), line
