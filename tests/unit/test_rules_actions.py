"""Actions: wire form and text form round-trip; malformed input is a typed error; views serialise."""

from __future__ import annotations

import json
import random

import pytest

from koikoi_p2p.rules.actions import (
    Action,
    Capture,
    ClaimHandYaku,
    KoiKoi,
    NoHandYaku,
    Play,
    Stop,
    action_from_dict,
    parse_action,
)
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import preset
from koikoi_p2p.rules.round import NeedAction
from koikoi_p2p.rules.simulate import random_round

EXAMPLES: list[Action] = [Play(0), Play(47), Capture(12), KoiKoi(), Stop(), NoHandYaku(),
            ClaimHandYaku("teshi", (0, 1, 6, 7)), ClaimHandYaku("kuttsuki", (0, 1, 6, 7, 12, 13, 18, 19))]


def test_round_trips() -> None:
    for action in EXAMPLES:
        wire = json.loads(json.dumps(action.to_dict()))
        assert action_from_dict(wire) == action
        assert parse_action(str(action)) == action


@pytest.mark.parametrize("wire", [
    {}, {"type": "jump"}, {"type": "play"}, {"type": "play", "position": 48},
    {"type": "play", "position": True},
    {"type": "play", "position": "3"}, {"type": "stop", "extra": 1}, {"type": "capture", "card": -1},
    {"type": "claim_hand_yaku", "yaku": "teshi", "positions": [1, 0, 6, 7]},
    {"type": "claim_hand_yaku", "yaku": "teshi", "positions": [0, 0, 6, 7]},
    {"type": "claim_hand_yaku", "yaku": "royal", "positions": [0, 1, 6, 7]},
    {"type": "claim_hand_yaku", "yaku": "teshi", "positions": [0, 1, 6]},
    {"type": "claim_hand_yaku", "yaku": "teshi", "positions": "0,1,6,7"},
])
def test_malformed_wire_is_refused(wire: dict[str, object]) -> None:
    with pytest.raises(RulesError) as info:
        action_from_dict(wire)
    assert info.value.reason == "bad_action"


def test_malformed_text_is_refused() -> None:
    for text in ("", "play", "play x", "play 48", "capture", "claim teshi", "claim teshi 1,2", "koikoi now"):
        with pytest.raises(RulesError):
            parse_action(text)


def test_view_serialises() -> None:
    state, _, _ = random_round(preset("koikoi-online"), random.Random(4))
    view = state.view(0)
    data = json.loads(json.dumps(view.to_dict()))
    assert data["seat"] == 0 and data["need"] is None and len(data["piles"]) == 2
    assert sum(len(p) for p in data["piles"]) + len(data["field"]) + len(data["hand"]) <= 48
    assert state.result is not None and json.loads(json.dumps(state.result.to_dict()))["reason"]
    assert isinstance(NeedAction(0, "play"), NeedAction)
