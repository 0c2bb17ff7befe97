"""``koikoi resume``: clear errors without a usable state; a finished match reports its outcome again."""

from __future__ import annotations

from pathlib import Path

import pytest

from koikoi_p2p.cli.main import main
from koikoi_p2p.net.journal import Journal


def test_no_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resume", "--state", str(tmp_path / "nothing")]) == 1
    assert "missing" in capsys.readouterr().err


def test_new_needs_its_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resume", "--state", str(tmp_path / "s"), "--new"]) == 2
    assert "--seat" in capsys.readouterr().err


def test_damaged_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = Journal(tmp_path / "s")
    store.rebase({"format": 2})
    store.unlock()
    store.path.write_bytes(store.path.read_bytes()[:-3])
    assert main(["resume", "--state", str(tmp_path / "s")]) == 1
    assert "truncated" in capsys.readouterr().err


def test_a_finished_match_reports_its_outcome(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from koikoi_p2p.net.core import PeerCore
    from tests.faults.resume_util import setup

    store = Journal(tmp_path / "s")
    core = PeerCore(setup(0, relay_url="ws://127.0.0.1:9/v1", rendezvous="r")).snapshot()
    state = {"format": 2, "core": core,
             "outcome": {"status": "abandoned", "seat": 0, "reason": "abandoned by player 1 at message 9",
                         "messages": 9, "scores": None, "winner": None, "file": "x.abandoned", "absent": 1}}
    store.rebase(state)
    store.unlock()
    assert main(["resume", "--state", str(tmp_path / "s"), "--json"]) == 7
    assert '"abandoned by player 1 at message 9"' in capsys.readouterr().out
