"""koikoi bench ai prints the strong player's win rate beside the random baseline, as JSON too."""

from __future__ import annotations

import json

import pytest

from koikoi_p2p.cli.main import main


def test_bench_ai_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ai", "--json", "--matches", "8", "--seed", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_name = {m["name"]: m for m in data}
    rate = by_name["strong_vs_random_win_rate"]
    assert rate["unit"] == "win_rate"
    assert 0.0 <= rate["floor_s"] <= 1.0 and 0.0 <= rate["median_s"] <= 1.0
    assert rate["median_s"] > rate["floor_s"]  # strong beats the random baseline of the same run
    assert "8 nintendo matches" in rate["note"]
    assert by_name["match_seconds_strong_vs_random"]["median_s"] > 0


def test_bench_ai_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ai", "--matches", "2", "--rules", "koikoi-online"]) == 0
    out = capsys.readouterr().out
    assert "strong_vs_random_win_rate" in out and "koikoi-online" in out
