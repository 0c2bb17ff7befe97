"""The README's embedding example runs as printed, and the commands it names work."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_embedding_example_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Embedding the library", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    out = subprocess.run([sys.executable, "-c", match.group(1)], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "final scores" in out.stdout
    assert "terms: nintendo 1 round(s)" in out.stdout     # the joiner saw the terms before signing
