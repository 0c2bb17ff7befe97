"""What the joiner reads before signing the terms (issue 11): rules and every changed switch, the
length, the deadlines, rated or not, who the host is."""

from __future__ import annotations

from types import SimpleNamespace

from koikoi_p2p.cli.switches import apply_switches
from koikoi_p2p.cli.terms_screen import rules_name, terms_lines
from koikoi_p2p.protocol.identity import Identity, fingerprint
from koikoi_p2p.rules.profile import preset, with_rounds


def _terms(**extra: object) -> SimpleNamespace:
    host, friend = Identity.generate().public_key, Identity.generate().public_key
    profile = apply_switches(with_rounds(preset("nintendo"), 3),
                             ["exhaustion=oya_ken", "max_calls_per_round=0"])
    fields: dict[str, object] = {"profile": profile, "rounds": 3, "keys": (host, friend),
                                 "names": ("Aiko", ""), "deadlines": SimpleNamespace(turn=120, step=60),
                                 "rated": False, "ratings": ""}
    fields.update(extra)
    return SimpleNamespace(**fields)


def test_the_terms_say_everything_that_is_signed() -> None:
    terms = _terms()
    text = "\n".join(terms_lines(terms, "en", 1))
    assert "Rules: custom, based on nintendo" in text
    assert 'exhaustion = oya_ken (the preset has draw)' in text
    assert 'max_calls_per_round = 0 (the preset has 1)' in text
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
    assert "流れたとき = 親権 (元の設定は 流れ (得点なし))" in text
    assert "こいこいの回数 = 0 (元の設定は 1)" in text
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
