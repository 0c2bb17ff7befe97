"""spec/vectors/protocol/game_invalid.json: files and the verdict koikoi verify gives them (issue 27):
malformed messages (spec/game.md §3.4), session-level offences with the auditor's own reason
(spec/protocol.md §9), abandonment claims with and without the claimant's round secret (§9.1),
pairs of files (§9.2) and files of no known kind (§8). web/test/protocol/invalid_vectors.test.js
checks the same files with the JavaScript auditor."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from koikoi_p2p.audit import AuditError, audit_bytes
from koikoi_p2p.audit.compare import Account, compare, read_account


def _vector(vectors_dir: Path) -> dict[str, list[dict[str, object]]]:
    data = json.loads((vectors_dir / "protocol" / "game_invalid.json").read_text())
    assert isinstance(data, dict)
    return data


def _verdict(data: bytes) -> dict[str, object]:
    try:
        report = audit_bytes(data)
    except AuditError as exc:
        return {"ok": False, "reason": exc.reason, "seat": None, "seq": exc.index}
    if report.deviation is not None:
        return {"ok": report.ok, "reason": report.deviation.reason, "seat": report.deviation.seat,
                "seq": report.deviation.seq}
    return {"ok": report.ok, "reason": None if report.ok else "incomplete", "seat": None, "seq": None}


@pytest.mark.parametrize("group", ["messages", "round_keys", "session", "claims"])
def test_every_file_gets_its_verdict(vectors_dir: Path, group: str) -> None:
    cases = _vector(vectors_dir)[group]
    assert len(cases) >= 2
    for case in cases:
        data = (vectors_dir / "protocol" / str(case["file"])).read_bytes()
        assert _verdict(data) == case["expected"], case["name"]


def test_the_message_cases_cover_each_rule_of_game_md_3_4(vectors_dir: Path) -> None:
    reasons = {case["expected"]["reason"] for case in _vector(vectors_dir)["messages"]}  # type: ignore[index]
    assert reasons >= {"bad_terms", "bad_key", "bad_shuffle", "bad_share", "wrong_shares", "missing_shares",
                       "bad_disclosed_key", "bad_result_signature", "bad_message"}


def test_the_session_verdict_is_the_auditors_not_the_reporters(vectors_dir: Path) -> None:
    """Every session case's header says out_of_turn; the verdicts name what the signatures prove."""
    from koikoi_p2p.protocol.transcript import decode_evidence

    for case in _vector(vectors_dir)["session"]:
        evidence = decode_evidence((vectors_dir / "protocol" / str(case["file"])).read_bytes())
        assert evidence.reason == "out_of_turn"
        assert case["expected"]["reason"] == case["name"]  # type: ignore[index]


@pytest.fixture(scope="module")
def accounts(vectors_dir: Path) -> Callable[[str], Account]:
    """One account per file, however many pairs it is in."""
    cache: dict[str, Account] = {}

    def account(name: str) -> Account:
        if name not in cache:
            cache[name] = read_account((vectors_dir / "protocol" / name).read_bytes(), name)
        return cache[name]
    return account


def _verdict_of(account: Account) -> dict[str, object]:
    if account.error is not None:
        return {"ok": False, "reason": account.error.reason, "seat": None, "seq": account.error.index}
    assert account.report is not None
    found = account.report.deviation
    if found is not None:
        return {"ok": account.report.ok, "reason": found.reason, "seat": found.seat, "seq": found.seq}
    return {"ok": account.report.ok, "reason": None if account.report.ok else "incomplete", "seat": None,
            "seq": None}


def _pair_verdict(first: Account, second: Account) -> dict[str, object]:
    try:
        comparison = compare(first, second)
    except AuditError as exc:
        return {"error": exc.reason}
    found = comparison.finding
    finding = None if found is None else {"seat": found.seat, "seq": found.seq, "reason": found.reason}
    return {"verdict": comparison.status, "stands": comparison.stands, "finding": finding}


def test_pairs_of_files_get_their_comparison(vectors_dir: Path, accounts: Callable[[str], Account]) -> None:
    for case in _vector(vectors_dir)["pairs"]:
        first, second = (accounts(str(f)) for f in case["files"])  # type: ignore[attr-defined]
        assert [_verdict_of(first), _verdict_of(second)] == case["single"], case["name"]
        assert _pair_verdict(first, second) == case["expected"], case["name"]
        # The order of the two files changes only which index stands (spec/protocol.md §9.2).
        expected = dict(case["expected"])
        if expected.get("stands") is not None:
            expected["stands"] = 1 - expected["stands"]
        assert _pair_verdict(second, first) == expected, case["name"]


def test_the_pairs_cover_every_rule_of_protocol_md_9_2(vectors_dir: Path) -> None:
    """Every verdict and every kind of finding a comparison gives is pinned by some pair."""
    outcomes = {(str(c["expected"].get("verdict", c["expected"].get("error"))),  # type: ignore[attr-defined]
                 str((c["expected"].get("finding") or {}).get("reason")))  # type: ignore[attr-defined]
                for c in _vector(vectors_dir)["pairs"]}
    assert outcomes >= {("agree", "None"), ("stands", "None"), ("agree", "equivocation"),
                        ("stands", "equivocation"), ("agree", "resigned"), ("stands", "false_claim"),
                        ("agree", "abandoned"), ("stands", "abandoned"), ("conflict", "None"),
                        ("bad_file", "None"), ("different_sessions", "None")}


def test_files_of_no_known_kind_are_unknown_files(vectors_dir: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from koikoi_p2p.cli.main import main

    for case in _vector(vectors_dir)["unknown"]:
        status = main(["verify", "--json", str(vectors_dir / "protocol" / str(case["file"]))])
        said = json.loads(capsys.readouterr().out)
        verdict = {"ok": said["ok"], "reason": said["reason"], "status": status}
        assert verdict == case["expected"], case["name"]
