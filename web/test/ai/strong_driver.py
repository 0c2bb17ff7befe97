"""Play seeded matches between two Python strong players and print every decision they made.

For the JavaScript parity test (web/test/ai/strong_parity.test.js). Reads one JSON request per
line on stdin: {"preset": name, "seed": n, "rounds": r, "players": [seed0, seed1]} (or "profile": a
Profile.to_dict() instead of "preset", for house rules); prints one
JSON line per request: {"players": [[decision, ...], [decision, ...]]}, each decision
{"view": RoundView.to_dict(), "options": [action dict...], "choice": action dict}, in the order
that player made them (the JavaScript player replays them in the same order, so its random
source advances exactly as the Python one did).

A request {"kind": "playouts", "preset": name, "seed": n, "count": k} instead stages k decisions
of random play as full states (``RoundState.from_view`` with the true hidden cards) and prints,
for every option, the master's playout value (koikoi_p2p/ai/master.py ``_playout``) with its
horizon of 4 turns and the prospects, and played to the end: the JavaScript master's playout
policy must give the very same numbers (web/test/ai/master_parity.test.js). That one helper
and ``Prospects`` are the only private names used.

A request {"kind": "master", "preset": name, "seed": n, "rounds": r, "master": seed,
"simulations": k} plays a match of a master (seat 0, no wall-time cap) against a strong player
and prints the master's log in order: ["match", scores, rounds_played] for the match context
before each round, ["observe", view] for every view the arena showed it and
["choose", view, options, choice] for every decision. {"kind": "spread", "presets": [...]}
prints ``utility.spread`` of each preset.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from koikoi_p2p.ai.arena import play_local_match
from koikoi_p2p.ai.master import MasterPlayer, Prospects, _playout
from koikoi_p2p.ai.strategy import MatchContext, RandomPlayer
from koikoi_p2p.ai.strong import StrongPlayer
from koikoi_p2p.ai.utility import spread
from koikoi_p2p.rules.actions import Action
from koikoi_p2p.rules.profile import Profile, preset
from koikoi_p2p.rules.round import NeedAction, NeedReveal, RoundState, RoundView


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


def playouts(req: dict[str, Any]) -> list[dict[str, Any]]:
    """Playout values of every option at ``count`` decisions of random play (see the docstring)."""
    profile = preset(req["preset"])
    rng = random.Random(req["seed"])  # noqa: S311 - seeded deals
    players = [RandomPlayer(req["seed"]), RandomPlayer(req["seed"] + 1)]
    prospects = Prospects(profile)
    records: list[dict[str, Any]] = []
    while len(records) < req["count"]:
        state = RoundState(profile=profile, dealer=rng.randrange(2), viewer=None, round_index=1,
                           month=rng.randrange(1, 13))
        deck = list(range(48))
        rng.shuffle(deck)
        while state.result is None and len(records) < req["count"]:
            need = state.need
            if isinstance(need, NeedReveal):
                for p in need.positions:
                    state.reveal(p, deck[p])
                continue
            assert isinstance(need, NeedAction)
            seat, options = need.seat, state.legal_actions()
            if need.kind in ("play", "capture", "decide") and len(options) > 1:
                view = state.view(seat)
                opponent = [deck[p] for p in sorted(_bits_of(state.hands[1 - seat]))]
                stock = [deck[p] for p in state.layout.stock[state.stock_next:]]
                root = RoundState.from_view(view, profile, opponent + stock)
                values = []
                for option in options:
                    after = root.copy()
                    after.apply(seat, option)
                    values.append([_playout(after.copy(), seat, 4, prospects), _playout(after, seat)])
                records.append({"view": view.to_dict(), "hidden": opponent + stock,
                                "options": [o.to_dict() for o in options], "values": values})
            state.apply(seat, players[seat].choose(state.view(seat), options))
    return records


class MasterLog:
    """A master that writes down what it was shown and what it chose."""

    def __init__(self, player: MasterPlayer) -> None:
        self.player = player
        self.log: list[list[Any]] = []

    def observe(self, view: RoundView) -> None:
        self.log.append(["observe", view.to_dict()])
        self.player.observe(view)

    def match_update(self, context: MatchContext) -> None:
        self.log.append(["match", list(context.scores), context.rounds_played])
        self.player.match_update(context)

    def choose(self, view: RoundView, options: Sequence[Action]) -> Action:
        choice = self.player.choose(view, options)
        self.log.append(["choose", view.to_dict(), [o.to_dict() for o in options], choice.to_dict()])
        return choice


def master_log(req: dict[str, Any]) -> list[list[Any]]:
    """The master's log over one match (see the docstring)."""
    profile = preset(req["preset"])
    master = MasterLog(MasterPlayer(profile, req["master"], simulations=req["simulations"], max_seconds=None))
    play_local_match(profile, [master, StrongPlayer(profile, req["master"] + 1)],
                     random.Random(req["seed"]), rounds=req["rounds"])  # noqa: S311 - seeded deals
    return master.log


def _bits_of(mask: int) -> list[int]:
    return [i for i in range(48) if mask >> i & 1]


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        if req.get("kind") == "playouts":
            print(json.dumps(playouts(req)), flush=True)
            continue
        if req.get("kind") == "master":
            print(json.dumps(master_log(req)), flush=True)
            continue
        if req.get("kind") == "spread":  # utility.spread of each preset, as [sd, mean gain]
            print(json.dumps([list(spread(preset(name))) for name in req["presets"]]), flush=True)
            continue
        profile = Profile.from_dict(req["profile"]) if "profile" in req else preset(req["preset"])
        recorders = [Recorder(StrongPlayer(profile, seed)) for seed in req["players"]]
        play_local_match(profile, recorders, random.Random(req["seed"]),  # noqa: S311 - seeded deals
                         rounds=req["rounds"])
        print(json.dumps({"players": [r.decisions for r in recorders]}), flush=True)


if __name__ == "__main__":
    main()
