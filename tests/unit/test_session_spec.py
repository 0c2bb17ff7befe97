"""spec/protocol.md and the code agree: the handshake state table and the table of reasons."""

from __future__ import annotations

import re
from pathlib import Path

from koikoi_p2p.protocol.handshake import START_STATES, TRANSITIONS, State

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "spec" / "protocol.md").read_text(encoding="utf-8")
SESSION_MODULES = ("channel", "codec", "envelope", "handshake", "identity", "transcript")
KINDS = {"HELLO": 1, "REPLY": 2, "REVEAL": 3, "CONFIRM": 4, "SIGN": 5}


def section(number: str) -> str:
    start = SPEC.index(f"\n### {number} ")
    end = SPEC.index("\n#", start + 1)
    return SPEC[start:end]


def test_handshake_state_table_matches_the_code() -> None:
    rows = [line.split("|")[1:-1] for line in section("5.2").splitlines() if re.match(r"\| [01] \|", line)]
    spec_transitions = {}
    spec_starts = {}
    for seat, state, receives, _checks, _sends, following in ([c.strip() for c in row] for row in rows):
        if receives == "(start)":
            spec_starts[int(seat)] = State[following]
        else:
            spec_transitions[(int(seat), State[state], KINDS[receives])] = State[following]
    assert spec_transitions == TRANSITIONS
    assert spec_starts == START_STATES


def test_every_remote_reason_is_in_the_spec_table() -> None:
    table = section("2.4")
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.MULTILINE))
    raised: set[str] = set()
    for name in SESSION_MODULES:
        source = (ROOT / "koikoi_p2p" / "protocol" / f"{name}.py").read_text(encoding="utf-8")
        raised |= set(re.findall(r'RemoteViolation\(\s*"([a-z_]+)"', source))
    raised.discard("bad_handshake_record")      # §5.6, from verify_handshake_record on files
    assert raised, "the pattern found nothing"
    assert raised <= documented, raised - documented
