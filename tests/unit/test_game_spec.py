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


def test_the_worked_example_is_the_recorded_match() -> None:
    from koikoi_p2p.protocol.transcript import decode_transcript

    data = (ROOT / "spec" / "vectors" / "protocol" / "match_nintendo_seed1.transcript").read_bytes()
    envs = decode_transcript(data).envelopes
    section = SPEC.split("## 12. Example")[1]
    rows = re.findall(r"^    (\d+) +seat (\d) (\w+)[ ]*(.*)$", section, re.M)
    assert len(rows) > 20
    for seq, seat, msg_type, rest in rows:
        env = envs[int(seq)]
        assert (env.sender, env.type) == (int(seat), msg_type)
        shares = env.body.get("shares", [])
        assert isinstance(shares, list)
        groups = [",".join(map(str, g[0])) for g in shares]
        if "shares" in rest and "—" not in rest:
            listed = rest.split("shares", 1)[1].split("  ")[0].strip()
            assert listed == " | ".join(groups), (seq, listed, groups)
        if env.type == "act":
            action = env.body["action"]
            assert isinstance(action, dict)
            word = {"play": f"play {action.get('position')}", "capture": f"capture {action.get('card')}"}
            assert word.get(action["type"], action["type"]) in rest


def test_the_evidence_verdict_quoted_in_the_spec_is_the_vector_s() -> None:
    import json

    path = ROOT / "spec" / "vectors" / "protocol" / "match_evidence_wrong_share.json"
    vector = json.loads(path.read_text())
    expected = vector["expected"]
    quoted = f"player {expected['seat']} deviated at message {expected['seq']}: {expected['reason']}"
    assert f"(`{quoted}`)" in SPEC
