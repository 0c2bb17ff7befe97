"""spec/game.md and the code agree: the state table, the message table, the violation reasons."""

from __future__ import annotations

import re
from pathlib import Path

from koikoi_p2p.protocol.flow import TABLE, Phase, state_table_markdown
from koikoi_p2p.protocol.messages import SCHEMAS

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "spec" / "game.md").read_text(encoding="utf-8")
CODE = "".join((ROOT / "koikoi_p2p" / "protocol" / name).read_text(encoding="utf-8")
               for name in ("flow.py", "messages.py", "terms.py", "peer.py"))


def test_the_state_table_in_the_spec_is_the_code_table() -> None:
    match = re.search(r"<!-- state-table -->\n(.*?)\n<!-- /state-table -->", SPEC, re.S)
    assert match is not None
    assert match.group(1) == state_table_markdown()


def test_every_phase_is_reachable_and_every_message_type_has_a_row() -> None:
    reached = {Phase.PROPOSING} | {p for t in TABLE for p in t.leads_to}
    assert reached == set(Phase) - {Phase.FAILED}
    assert {t.msg_type for t in TABLE} == set(SCHEMAS)


def test_every_message_type_is_in_the_message_table() -> None:
    section = SPEC.split("## 3. Messages")[1].split("## 4.")[0]
    for msg_type, fields in SCHEMAS.items():
        row = next((line for line in section.splitlines() if line.startswith(f"| `{msg_type}` |")), None)
        assert row is not None, msg_type
        if msg_type != "terms":
            for name in fields:
                assert f"`{name}`" in row, (msg_type, name)


def test_every_violation_reason_raised_by_the_game_is_documented() -> None:
    reasons = set(re.findall(r'RemoteViolation\(\s*"([a-z_]+)"', CODE))
    reasons |= set(re.findall(r'violation_at\(\s*"([a-z_]+)"', CODE))
    reasons |= set(re.findall(r'_deck_call\(\s*"([a-z_]+)"', CODE))
    reasons |= set(re.findall(r'_check_sig\([^)]*"([a-z_]+)"\)', CODE))
    assert {"out_of_turn", "bad_share", "illegal_action", "wrong_result"} <= reasons
    section = SPEC.split("## 9. Violation reasons")[1]
    missing = sorted(r for r in reasons if f"`{r}`" not in section)
    assert not missing, missing
