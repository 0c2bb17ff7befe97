"""A scripted `koikoi host` for the browser tests: the real terminal client (1 round, rules
wikipedia: no hand yaku, so a card is played before the deal can end), answering every prompt with
its first choice (tests/e2e/test_cli_console.Console.autoplay).

    python web/test/browser/host_seat.py RELAY_URL HOME [TIMEOUT]   (from the repository root)

TIMEOUT is the host's `--timeout` (its turn deadline; the step deadline is at least 60 s), 120 by
default.

Prints "CODE <room code>" once the room is open, "MID" once the joiner has played a card (the test
then restarts the relay), the final score line, "TRANSCRIPT <path>" and "EXIT <code>".
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.e2e.test_cli_play_relay import _spawn


def main() -> int:
    url, home = sys.argv[1], Path(sys.argv[2])
    timeout = sys.argv[3] if len(sys.argv) > 3 else "120"
    proc, console = _spawn(home, "host", "--relay", url, "--rounds", "1", "--rules", "wikipedia",
                           "--timeout", timeout)

    def stop(_signum: int, _frame: object) -> None:
        # The test stops this script by its pid: koikoi host goes with it, not left behind.
        proc.kill()
        proc.wait()
        sys.exit(1)

    signal.signal(signal.SIGTERM, stop)
    try:
        print("CODE " + console.expect(r"Room code: ([A-Z0-9]{6})", 60).group(1), flush=True)
        console.autoplay(timeout=120, done=r"Opponent plays", ask_help=False)
        print("MID", flush=True)
        print(console.autoplay(timeout=300, ask_help=False), flush=True)
    except AssertionError as exc:
        print(f"FAILED {exc}\n{console.text[-3000:]}", flush=True)
    status = proc.wait(60)
    for path in sorted((home / "data" / "transcripts").glob("*.transcript")):
        print(f"TRANSCRIPT {path}", flush=True)
    print(f"EXIT {status}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
