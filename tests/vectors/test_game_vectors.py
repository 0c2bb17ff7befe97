"""The recorded seeded match of spec/vectors/protocol replays to its expected outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from koikoi_p2p.audit import AuditError, audit_bytes, verify_result

NAME = "match_nintendo_seed1"


def _load(vectors_dir: Path) -> tuple[bytes, dict[str, object]]:
    folder = vectors_dir / "protocol"
    vector = json.loads((folder / f"{NAME}.json").read_text())
    return (folder / vector["provenance"]["transcript"]).read_bytes(), vector


def test_recorded_match_replays_to_its_expected_outcome(vectors_dir: Path) -> None:
    data, vector = _load(vectors_dir)
    expected = vector["expected"]
    assert isinstance(expected, dict)
    report = audit_bytes(data)
    assert report.ok and report.complete
    assert report.profile == expected["profile"]
    assert report.messages == expected["messages"]
    assert list(report.scores or ()) == expected["scores"]
    assert report.winner == expected["winner"]
    assert [list(r) for r in report.rounds] == expected["rounds"]
    assert [k.hex() for k in report.keys] == expected["keys"]
    assert report.result is not None and report.result.hex() == expected["result"]
    result = verify_result(report.result)
    assert result.session_id.hex() == expected["session_id"]
    assert list(result.scores) == expected["scores"]


def _failure(data: bytes) -> str:
    try:
        report = audit_bytes(data)
    except AuditError as exc:
        return exc.reason
    if report.deviation is not None:
        return report.deviation.reason
    return "incomplete" if not report.ok else "accepted"


def test_invalid_cases_fail_as_recorded(vectors_dir: Path) -> None:
    data, vector = _load(vectors_dir)
    cases = vector["cases"]
    assert isinstance(cases, list) and len(cases) >= 5
    for case in cases:
        if "truncate_to" in case:
            altered = data[: case["truncate_to"]]
        else:
            buf = bytearray(data)
            buf[case["offset"]] ^= case["xor"]
            altered = bytes(buf)
        assert _failure(altered) == case["error"], case["name"]
        assert case["error"] != "accepted"


def test_the_generator_reproduces_the_same_match(vectors_dir: Path) -> None:
    """Seeded identities, deck randomness and players: the generator's match is byte-identical."""
    import importlib.util

    root = vectors_dir.parent.parent
    generator = root / "spec" / "vectors" / "generators" / "game_match.py"
    spec = importlib.util.spec_from_file_location("game_match", generator)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    data, vector = module.build()
    stored, stored_vector = _load(vectors_dir)
    if data != stored:
        pytest.fail("the generator no longer reproduces the recorded match; regenerate the vector "
                    "(python spec/vectors/generators/game_match.py) if the change is intended")
    assert vector == stored_vector


def test_recorded_evidence_names_the_deviating_player(vectors_dir: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    folder = vectors_dir / "protocol"
    vector = json.loads((folder / "match_evidence_wrong_share.json").read_text())
    path = folder / vector["provenance"]["evidence"]
    report = audit_bytes(path.read_bytes())
    expected = vector["expected"]
    assert report.kind == "evidence" and report.ok == expected["ok"] is True
    assert report.deviation is not None
    assert (report.deviation.seat, report.deviation.seq, report.deviation.reason) == (
        expected["seat"], expected["seq"], expected["reason"])
    from koikoi_p2p.cli.main import main

    assert main(["verify", str(path)]) == 0
    assert expected["text"] in capsys.readouterr().out
    # One changed byte in the offending envelope and the evidence proves nothing any more.
    data = bytearray(path.read_bytes())
    data[-40] ^= 1
    try:
        altered = audit_bytes(bytes(data))
    except AuditError:
        return
    assert not altered.ok
