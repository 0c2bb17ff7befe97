"""koikoi cards lists the card ids with their names in both languages (issue 16)."""

from __future__ import annotations

import json

import pytest

from koikoi_p2p.cli.main import main


def test_cards_lists_every_id_with_both_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 48
    assert lines[0].split() == ["0", "01-crane", "01*", "bright", "Crane", "and", "Sun", "松に鶴"]
    assert main(["cards", "9", "ribbons"]) == 0
    assert [line.split()[1] for line in capsys.readouterr().out.splitlines()] == ["09-blue"]
    assert main(["cards", "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)
    assert cards[32] == {"index": 32, "id": "09-cup", "code": "09A", "month": 9, "class": "animal",
                         "name_en": "Sake Cup", "name_ja": "菊に盃"}
    assert main(["cards", "thirteen"]) == 2


def test_score_without_cards_lists_the_ids(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score"]) == 2
    captured = capsys.readouterr()
    assert "name the captured cards by id" in captured.err and "12-phoenix" in captured.out
    assert main(["score", "03-curtan"]) == 2
    assert "nearest: 03-curtain" in capsys.readouterr().err
    assert main(["score", "桜に幕", "09-cup"]) == 0  # a Japanese name is a card too
    assert "hanami" in capsys.readouterr().out


def test_score_takes_the_codes_the_board_shows(capsys: pytest.CaptureFixture[str]) -> None:
    """Terminal QA: the prompts teach codes such as 04R; `koikoi score` refused them."""
    assert main(["score", "01R", "02R", "03R"]) == 0
    assert "akatan" in capsys.readouterr().out
    assert main(["score", "03*", "09a"]) == 0          # the code's case does not matter
    assert "hanami" in capsys.readouterr().out
    # A month's plains share a code: the ids to choose from are named.
    assert main(["score", "01."]) == 2
    assert "the code '01.' names several cards: 01-plain1, 01-plain2" in capsys.readouterr().err
