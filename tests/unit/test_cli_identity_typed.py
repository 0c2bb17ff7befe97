"""`koikoi identity export` at a terminal (terminal QA): two typed passphrases that differ are the
person's typing, exit 1 as for the room password, not 2 ("bad command line"); nothing is written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from koikoi_p2p.cli.main import main


def test_two_typed_passphrases_that_differ_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import getpass

    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KOIKOI_PASSPHRASE", raising=False)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    typed = iter(["correct horse battery", "correct horse batery"])
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": next(typed))
    target = tmp_path / "me.koikoi-id"
    assert main(["identity", "export", str(target), "--lang", "en"]) == 1
    assert "the two passphrases differ: nothing was written" in capsys.readouterr().err
    assert not target.exists()
