"""Short coverage-guided atheris runs of every parser (skipped where atheris is not installed)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(importlib.util.find_spec("atheris") is None,
                                reason="atheris is optional and not installed")


@pytest.mark.parametrize("target", ["relay", "codec", "envelope", "transcript", "state", "link"])
def test_atheris_target(target: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.faults.atheris_harness", target, "-runs=3000", "-max_len=1024",
         "-timeout=5", "-seed=1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Done 3000 runs" in proc.stderr
