"""Play seeded matches between two Python strong players and print every decision they made.

For the JavaScript parity test (web/test/ai/strong_parity.test.js). Reads one JSON request per
line on stdin: {"preset": name, "seed": n, "rounds": r, "players": [seed0, seed1]} (or "profile": a
Profile.to_dict() instead of "preset", for house rules); prints one
JSON line per request: {"players": [[decision, ...], [decision, ...]]}, each decision
{"view": RoundView.to_dict(), "options": [action dict...], "choice": action dict}, in the order
that player made them (the JavaScript player replays them in the same order, so its random
source advances exactly as the Python one did). Only public APIs of koikoi_p2p are used.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from koikoi_p2p.ai.arena import play_local_match
from koikoi_p2p.ai.strong import StrongPlayer
from koikoi_p2p.rules.actions import Action
from koikoi_p2p.rules.profile import Profile, preset
from koikoi_p2p.rules.round import RoundView


class Recorder:
    """A strong player that writes down each decision it makes."""

    def __init__(self, player: StrongPlayer) -> None:
        self.player = player
        self.decisions: list[dict[str, Any]] = []

    def choose(self, view: RoundView, options: Sequence[Action]) -> Action:
        choice = self.player.choose(view, options)
        self.decisions.append({"view": view.to_dict(), "options": [o.to_dict() for o in options],
                               "choice": choice.to_dict()})
        return choice


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        profile = Profile.from_dict(req["profile"]) if "profile" in req else preset(req["preset"])
        recorders = [Recorder(StrongPlayer(profile, seed)) for seed in req["players"]]
        play_local_match(profile, recorders, random.Random(req["seed"]),  # noqa: S311 - seeded deals
                         rounds=req["rounds"])
        print(json.dumps({"players": [r.decisions for r in recorders]}), flush=True)


if __name__ == "__main__":
    main()
