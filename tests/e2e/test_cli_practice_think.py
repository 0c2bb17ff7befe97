"""``koikoi practice --think`` is the searching levels' time to think (terminal QA): given with a
level that does not search, it is refused in words (exit 2) instead of being silently ignored, and
before anything else is printed or done (no fingerprint, no key made, no level remembered)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from koikoi_p2p.cli import exit_codes
from tests.e2e.test_cli_support import SCRIPT, env_for


def practice(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), "practice", "--rounds", "1", *args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, env=env_for(home), timeout=120, check=False)


def test_think_is_refused_for_a_level_that_does_not_search(tmp_path: Path) -> None:
    done = practice(tmp_path, "--level", "easy", "--think", "2")
    assert done.returncode == exit_codes.USAGE, done.stdout + done.stderr
    assert "--think is for the master and expert levels; this match's level is easy" in done.stderr
    assert done.stdout == "" and not (tmp_path / "config" / "settings.json").exists()
    assert not list(tmp_path.rglob("identity*")), "refused before the key was made"
    ja = practice(tmp_path, "--level", "strong", "--think", "2", "--lang", "ja")
    assert ja.returncode == exit_codes.USAGE and "--think" in ja.stderr and "strong" in ja.stderr
    assert "level" not in ja.stderr.replace("--level", "")
    assert ja.stdout == ""
    # With a searching level it is taken: the match starts (and ends at once: no input).
    master = practice(tmp_path, "--level", "master", "--think", "0.2")
    assert master.returncode != exit_codes.USAGE, master.stdout + master.stderr
