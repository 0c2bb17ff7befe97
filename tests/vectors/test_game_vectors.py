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
    folder = vectors_dir / "protocol"
    for build, stem, ext in ((module.build, NAME, "transcript"),
                             (module.build_resigned, module.RESIGNED, "transcript"),
                             (module.build_evidence, module.EVIDENCE, "evidence"),
                             (module.build_bad_shuffle, module.BAD_SHUFFLE, "evidence")):
        data, vector = build()
        if data != (folder / f"{stem}.{ext}").read_bytes():
            pytest.fail(f"the generator no longer reproduces {stem}; regenerate the vectors "
                        "(python spec/vectors/generators/game_match.py) if the change is intended")
        assert vector == json.loads((folder / f"{stem}.json").read_text())


def test_the_recorded_match_costs_its_recorded_round_trips(vectors_dir: Path) -> None:
    """The round trips are a property of the flow (spec/game.md §5.8), counted on the transcript."""
    from koikoi_p2p.protocol.transcript import decode_transcript
    from koikoi_p2p.protocol.trips import trip_report

    data, vector = _load(vectors_dir)
    expected = vector["expected"]
    assert isinstance(expected, dict)
    trips = trip_report(decode_transcript(data).envelopes)
    assert trips.to_json() == expected["round_trips"]
    assert trips.per_closing() == 0.5 and max(trips.closings) == 1
    assert max(trips.setups) <= 1                       # at most half a round trip per deal setup
    assert trips.by_phase["start"] <= 8


def test_the_resigned_match_verifies_with_its_resignation(vectors_dir: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from koikoi_p2p.cli.main import main

    folder = vectors_dir / "protocol"
    vector = json.loads((folder / "match_resigned.json").read_text())
    path = folder / vector["provenance"]["transcript"]
    expected = vector["expected"]
    report = audit_bytes(path.read_bytes())
    assert report.ok and report.complete and report.messages == expected["messages"]
    assert report.resigned == (expected["resigned"]["seat"], expected["resigned"]["seq"])
    assert report.winner == expected["winner"] == 1 - report.resigned[0]
    assert list(report.scores or ()) == expected["scores"]
    assert list(report.notes) == expected["notes"]
    assert report.result is not None and report.result.hex() == expected["result"]
    result = verify_result(report.result)
    assert result.resigned == report.resigned[0] and list(result.names) == expected["names"]
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    seat, seq = report.resigned
    assert f"resigned by player {seat} at message {seq}" in out
    # The resignation is signed: one changed byte in its envelope and the transcript fails.
    data = bytearray(path.read_bytes())
    from koikoi_p2p.protocol.transcript import decode_transcript

    resign = decode_transcript(bytes(data)).envelopes[seq]
    at = bytes(data).index(resign.raw) + len(resign.raw) - 80
    data[at] ^= 1
    assert _failure(bytes(data)) != "accepted"


def test_a_deferred_check_names_the_envelope_it_checked(vectors_dir: Path) -> None:
    """Seat 0 verifies seat 1's shuffle of the next deck after accepting later envelopes: the
    evidence still names the shuffle's envelope, and verify proves it (spec/game.md §8.1)."""
    folder = vectors_dir / "protocol"
    vector = json.loads((folder / "match_evidence_bad_shuffle.json").read_text())
    expected = vector["expected"]
    report = audit_bytes((folder / vector["provenance"]["evidence"]).read_bytes())
    assert report.ok and report.deviation is not None
    assert (report.deviation.seat, report.deviation.seq, report.deviation.reason) == (
        expected["seat"], expected["seq"], expected["reason"]) == (1, expected["seq"], "bad_shuffle")
    assert expected["accepted_after"] > 0


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
    # The vector's text names the reason by its code; koikoi verify says the code in words
    # (issue 30, cli/word_ids.py), so the screen keeps the text's player and message, and words.
    out = capsys.readouterr().out
    head = expected["text"].split(": ", 1)[0]
    assert head + ": " in out, out
    from koikoi_p2p.cli.catalogue import word
    assert word("en", report.deviation.reason) in out, out
    # One changed byte in the offending envelope and the evidence proves nothing any more.
    from koikoi_p2p.protocol.transcript import decode_evidence

    data = bytearray(path.read_bytes())
    offending = decode_evidence(bytes(data)).offence["envelope"]
    assert isinstance(offending, bytes)
    data[bytes(data).index(offending) + len(offending) // 2] ^= 1
    try:
        altered = audit_bytes(bytes(data))
    except AuditError:
        return
    assert not altered.ok


def test_a_deal_that_ends_inside_the_previous_close_is_valid(vectors_dir: Path) -> None:
    """spec/game.md §4.4: deal 2 of this match is void at its opening (a field of one month), which
    the second disclose of deal 1 completes; the new dealer then sends its countersignature of deal
    1, its shuffle of deck 3 and its key of deck 4 before its disclose of deal 2, in that order. The
    JavaScript auditor once expected the shuffle first (issue 27); web/test runs the same file."""
    folder = vectors_dir / "protocol"
    vector = json.loads((folder / "match_field_redeal_at_close.json").read_text())
    expected = vector["expected"]
    data = (folder / vector["provenance"]["transcript"]).read_bytes()
    report = audit_bytes(data)
    assert report.ok and report.complete
    assert report.messages == expected["messages"]
    assert [list(r) for r in report.rounds] == expected["rounds"]
    assert report.result is not None and report.result.hex() == expected["result"]
    assert expected["round_reasons"][1] == "field_month"
    batch = expected["after_second_disclose_of_deal_1"]
    assert [row[2:] for row in batch] == [["round_sign", 1], ["shuffle", 3], ["key", 4], ["disclose", 2]]
    assert len({row[1] for row in batch}) == 1
