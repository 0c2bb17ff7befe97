"""A scripted `koikoi join` for the browser tests: the real terminal client, answering every prompt
with its first choice (tests/e2e/test_cli_console.Console.autoplay), until the final score.

    python web/test/browser/join_seat.py CODE RELAY_URL HOME [PASSWORD]   (from the repository root)

Prints the final score line, then "EXIT <code>" when koikoi join ends.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.e2e.test_cli_console import Console  # noqa: E402
from tests.e2e.test_cli_support import SCRIPT, env_for  # noqa: E402


def main() -> int:
    code, url, home = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    password = sys.argv[4] if len(sys.argv) > 4 else None
    extra = {"KOIKOI_PASSWORD": password} if password else {}
    proc = subprocess.Popen([str(SCRIPT), "join", code, "--relay", url, *(["--password"] if password else [])],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=env_for(home, **extra))
    assert proc.stdin is not None and proc.stdout is not None
    stdin = proc.stdin

    def type_line(line: str) -> None:
        stdin.write((line + "\n").encode())
        stdin.flush()

    console = Console(proc.stdout.fileno(), type_line)
    try:
        print(console.autoplay(timeout=300, ask_help=False), flush=True)
    except AssertionError as exc:
        print(f"FAILED {exc}", flush=True)
    stdin.close()
    status = proc.wait(60)
    print(f"EXIT {status}", flush=True)
    if os.environ.get("KOIKOI_JOIN_LOG"):
        Path(os.environ["KOIKOI_JOIN_LOG"]).write_text(console.text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
