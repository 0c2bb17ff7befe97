"""Exit codes of the play commands, one per situation a person can act on.

Kept in one table so --help, the README and the code cannot drift apart; each command's help
lists only the codes it can exit with.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

OK = 0
ERROR = 1
USAGE = 2
RELAY_UNREACHABLE = 3
ROOM_NOT_FOUND = 4
ROOM_FULL = 5
WRONG_PASSWORD = 6
OPPONENT_LEFT = 7
OPPONENT_DEVIATED = 8
NOBODY_JOINED = 9
INTERRUPTED = 130

MEANINGS: tuple[tuple[int, str], ...] = (
    (OK, "the match finished"),
    (ERROR, "another error (the message says which), your input ended or your time ran out"),
    (USAGE, "bad command line"),
    (RELAY_UNREACHABLE, "no relay reachable at the URL, it takes no one new for now (full, busy, or too "
                        "many from your address), or its certificate is not trusted"),
    (ROOM_NOT_FOUND, "room not found (check the code, or ask the host for a new one)"),
    (ROOM_FULL, "room full (someone else joined first)"),
    (WRONG_PASSWORD, "wrong password, someone in the middle, or a changed key you did not accept"),
    (OPPONENT_LEFT, "the opponent left or stopped answering"),
    (OPPONENT_DEVIATED, "the opponent (or the relay) deviated; the evidence file is named"),
    (NOBODY_JOINED, "nobody joined the room in time (--wait)"),
    (INTERRUPTED, "interrupted (Ctrl-C)"),
)

# The codes each command can exit with.
PRACTICE = (OK, ERROR, USAGE, INTERRUPTED)
HOST = (OK, ERROR, USAGE, RELAY_UNREACHABLE, WRONG_PASSWORD, OPPONENT_LEFT, OPPONENT_DEVIATED, NOBODY_JOINED,
        INTERRUPTED)
JOIN = (OK, ERROR, USAGE, RELAY_UNREACHABLE, ROOM_NOT_FOUND, ROOM_FULL, WRONG_PASSWORD, OPPONENT_LEFT,
        OPPONENT_DEVIATED, INTERRUPTED)
LOBBY = (OK, ERROR, USAGE, RELAY_UNREACHABLE, INTERRUPTED)
RESUME = (OK, ERROR, USAGE, RELAY_UNREACHABLE, WRONG_PASSWORD, OPPONENT_LEFT, OPPONENT_DEVIATED, INTERRUPTED)
# The lobby plays no match: its 0 and 1 say what they mean there.
LOBBY_WORDS = {OK: "the rooms were listed (no room is no error)",
               ERROR: "another error (the message says which)"}


def epilog(codes: Iterable[int] | None = None, words: Mapping[int, str] | None = None) -> str:
    """The exit-code table (or the part of it that ``codes`` names) as text for argparse's epilog;
    ``words`` replaces the meaning of a code for a command that plays no match."""
    wanted = set(codes) if codes is not None else {code for code, _ in MEANINGS}
    said = dict(words or {})
    lines = ["exit codes:"]
    lines.extend(f"  {code:<4} {said.get(code, text)}" for code, text in MEANINGS if code in wanted)
    return "\n".join(lines)
