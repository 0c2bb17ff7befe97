"""A scripted `koikoi host --rated` for the browser tests: the real terminal client, named, hosting
a rated 1-round match on the relay's own rating service and answering every prompt with its first
choice (tests/e2e/test_cli_console.Console.autoplay), until the final score.

    python web/test/browser/rated_host_seat.py RELAY_URL HOME NAME   (from the repository root)

Prints "CODE <room code>", then the final score line and what the rating service answered, then
"EXIT <code>" when koikoi host ends.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.e2e.test_cli_console import Console  # noqa: E402
from tests.e2e.test_cli_support import SCRIPT, env_for  # noqa: E402


def main() -> int:
    url, home, name = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    subprocess.run([str(SCRIPT), "name", name], env=env_for(home), check=True, capture_output=True)
    proc = subprocess.Popen([str(SCRIPT), "host", "--relay", url, "--rounds", "1", "--rated"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=env_for(home))
    assert proc.stdin is not None and proc.stdout is not None
    stdin = proc.stdin

    def type_line(line: str) -> None:
        stdin.write((line + "\n").encode())
        stdin.flush()

    console = Console(proc.stdout.fileno(), type_line)
    try:
        print("CODE " + console.expect(r"Room code: ([A-Z0-9]{6})", 60).group(1), flush=True)
        print(console.autoplay(timeout=300, ask_help=False), flush=True)
        print(console.expect(r"Rating service [^\n]*", 60).group(0), flush=True)
    except AssertionError as exc:
        print(f"FAILED {exc}", flush=True)
    stdin.close()
    status = proc.wait(60)
    print(f"EXIT {status}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
