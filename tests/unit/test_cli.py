"""The ``koikoi`` command answers --version and --help, in process and as an installed script."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from koikoi_p2p import __version__
from koikoi_p2p.cli.main import build_parser, main


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_help_lists_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "bench" in capsys.readouterr().out


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage" in capsys.readouterr().out


def test_every_subcommand_has_help() -> None:
    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert actions
    for name, sub in actions[0].choices.items():
        assert sub.format_help(), name


def test_module_entry_point() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "koikoi_p2p", "--version"], capture_output=True, text=True, check=True
    )
    assert __version__ in out.stdout


def test_console_script() -> None:
    """The installed script sits beside the interpreter running the tests (pip install -e)."""
    script = Path(sys.executable).parent / "koikoi"
    out = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=True)
    assert "koikoi" in out.stdout
