"""``koikoi verify`` on a match resigned in its first round (terminal QA): it said "0 rounds" and
printed final scores that did not explain the winner. Now the report says no round ended before the
resignation and that the winner won by it, for the transcript and for the co-signed result."""

from __future__ import annotations

import subprocess
from pathlib import Path

from koikoi_p2p.audit import audit_bytes
from tests.e2e.test_cli_support import SCRIPT, env_for
from tests.faults.test_faults_resign import resigned_match

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "protocol"


def verify(home: Path, *args: str | Path) -> str:
    done = subprocess.run([str(SCRIPT), "verify", "--lang", "en", *map(str, args)], capture_output=True,
                          text=True, env=env_for(home), timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_first_round_resignation_is_reported_as_one(tmp_path: Path) -> None:
    _, _, guest = resigned_match(tmp_path)
    transcript = Path(guest.file)
    report = audit_bytes(transcript.read_bytes())
    assert report.ok and report.rounds == () and report.result is not None
    result = tmp_path / "m.result"
    result.write_bytes(report.result)
    for shown in (verify(tmp_path, transcript), verify(tmp_path, result)):
        assert "resigned before the first round ended" in shown, shown
        assert "0 rounds" not in shown
        assert "(player 1 wins: player 0 resigned)" in shown, shown


def test_a_later_resignation_counts_the_rounds_before_it(tmp_path: Path) -> None:
    shown = verify(tmp_path, VECTORS / "match_resigned.transcript")
    assert "nintendo, 1 round finished before the resignation, " in shown, shown
    assert "final scores: player 0 0 - 14 player 1 (player 0 wins: player 1 resigned)" in shown, shown
