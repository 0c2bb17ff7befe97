"""Exit codes of the play commands, one per situation a person can act on.

Kept in one table so --help, the README and the code cannot drift apart.
"""

from __future__ import annotations

OK = 0
ERROR = 1
USAGE = 2
RELAY_UNREACHABLE = 3
ROOM_NOT_FOUND = 4
ROOM_FULL = 5
WRONG_PASSWORD = 6
OPPONENT_LEFT = 7
OPPONENT_DEVIATED = 8
INTERRUPTED = 130

MEANINGS: tuple[tuple[int, str], ...] = (
    (OK, "the match finished"),
    (ERROR, "another error (the message says which)"),
    (USAGE, "bad command line"),
    (RELAY_UNREACHABLE, "no relay reachable at the URL (check it, or start one: koikoi relay)"),
    (ROOM_NOT_FOUND, "room not found (check the code, or ask the host for a new one)"),
    (ROOM_FULL, "room full (someone else joined first)"),
    (WRONG_PASSWORD, "wrong password, or someone in the middle (agree on it again)"),
    (OPPONENT_LEFT, "the opponent left or stopped answering"),
    (OPPONENT_DEVIATED, "the opponent (or the relay) deviated; the evidence file is named"),
    (INTERRUPTED, "interrupted (Ctrl-C)"),
)


def epilog() -> str:
    """The exit-code table as text for argparse's epilog."""
    lines = ["exit codes:"]
    lines.extend(f"  {code:<4} {text}" for code, text in MEANINGS)
    return "\n".join(lines)
