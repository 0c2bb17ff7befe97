"""A crash-safe computer seat plays at the level its setup names, and a restored copy decides as
the original did (a fresh seeded player per decision, no wall-time cap)."""

from __future__ import annotations

from pathlib import Path

import pytest

from koikoi_p2p.ai.greedy import GreedyPlayer
from koikoi_p2p.ai.master import MasterPlayer
from koikoi_p2p.ai.strategy import MatchContext, RandomPlayer
from koikoi_p2p.ai.strong import StrongPlayer
from koikoi_p2p.net.core import PeerCore, PeerSetup, ResumeError
from koikoi_p2p.net.driver import SavedCore, create_state, load_core
from koikoi_p2p.net.selfplay import play_cores
from tests.faults.resume_util import setup


@pytest.mark.parametrize(("level", "kind"), [("easy", RandomPlayer), ("medium", GreedyPlayer),
                                             ("strong", StrongPlayer), ("master", MasterPlayer)])
def test_the_setup_names_the_player(level: str, kind: type) -> None:
    core = PeerCore(setup(0, level=level))
    assert isinstance(core.computer(3), kind)


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ResumeError, match="level"):
        setup(0, level="grandmaster")
    data = setup(0).to_dict()
    data.pop("level")   # a state written before levels existed plays as before: random
    assert PeerSetup.from_dict(data).level == "easy"


def test_a_restored_master_seat_decides_as_the_original(tmp_path: Path) -> None:
    setups = (setup(0, level="master"), setup(1, level="strong"))
    cores = (PeerCore(setups[0]), PeerCore(setups[1]))
    saved = [SavedCore(cores[seat], create_state(tmp_path / f"s{seat}", setups[seat])) for seat in (0, 1)]
    compared = [0]

    def on_input(seat: int, kind: str, value: object, out: list[bytes]) -> None:
        core = cores[seat]
        saved[seat].commit(kind, value, out)
        if seat == 0 and core.pending is not None and len(core.pending.options) > 1:
            # A copy rebuilt from the journal at this point makes the same next decision.
            restored = load_core(saved[seat].journal.folder)
            event, again = core.pending, restored.pending
            assert again is not None
            mine = core.computer(core.decisions).choose(event.view, event.options)
            theirs = restored.computer(restored.decisions).choose(again.view, again.options)
            assert mine == theirs
            compared[0] += 1

    for journal in saved:
        journal.journal.unlock()
    play_cores(cores, on_input=on_input)
    assert compared[0] >= 3
    assert cores[0].done and cores[1].done


@pytest.mark.parametrize("level", ["medium", "master"])
def test_a_crash_safe_computer_is_told_the_match(tmp_path: Path, level: str) -> None:
    # The match context (scores, rounds played) is part of the seat's state, so a fresh player per
    # decision can be told it, as a long-lived one is (net/match.py): without it the master plays
    # for round points only, whatever the score (ai/master.py ``_worth``).
    setups = (setup(0, level=level, rounds=2), setup(1, level="easy", rounds=2))
    cores = (PeerCore(setups[0]), PeerCore(setups[1]))
    told: list[MatchContext | None] = []

    def on_input(seat: int, kind: str, value: object, out: list[bytes]) -> None:
        core = cores[seat]
        flow = core.peer.flow if core.peer is not None else None
        if seat == 0 and core.pending is not None and flow is not None and flow.match is not None:
            player = core.computer(core.decisions)
            told.append(getattr(player, "_context", None))
            match = flow.match
            assert flow.terms is not None
            assert told[-1] == MatchContext(profile=flow.terms.profile, scores=match.scores,
                                            rounds_played=match.rounds_played)

    play_cores(cores, on_input=on_input)
    assert told and any(c is not None and c.rounds_played == 1 for c in told)
