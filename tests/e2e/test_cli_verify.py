"""koikoi verify as a player runs it on the files a match leaves (issue 16 bug 6): any file kind with
or without --result, players named by fingerprint with "you" marked, labelled JSON fields."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from koikoi_p2p.protocol.identity import Identity, fingerprint
from koikoi_p2p.protocol.transcript import decode_transcript
from tests.e2e.test_cli_support import SCRIPT, env_for


def koikoi(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, env=env_for(home),
                          timeout=120)


def test_verify_reads_each_file_as_what_it_is(tmp_path: Path) -> None:
    transcript, result = tmp_path / "m.transcript", tmp_path / "m.result"
    made = koikoi(tmp_path, "selfplay", "--rounds", "1", "--seed", "4", "--transcript", str(transcript),
                  "--result", str(result))
    assert made.returncode == 0, made.stdout + made.stderr
    keys = decode_transcript(transcript.read_bytes()).session.keys
    prints = [fingerprint(k) for k in keys]

    # --result on a transcript: said, and checked as the transcript it is (it read "bad_result:
    # not msgpack: non_canonical ... ValueError").
    mistaken = koikoi(tmp_path, "verify", "--result", str(transcript))
    assert mistaken.returncode == 0, mistaken.stdout
    assert "is a transcript, not a co-signed result" in mistaken.stdout
    assert "non_canonical" not in mistaken.stdout and "valid transcript" in mistaken.stdout
    # A result file without --result (it read "bad_magic").
    plain = koikoi(tmp_path, "verify", str(result))
    assert plain.returncode == 0, plain.stdout
    assert "valid co-signed result" in plain.stdout and "bad_magic" not in plain.stdout
    for out in (mistaken.stdout, plain.stdout):
        assert f"player 0 (host): {prints[0]}" in out and f"player 1 (joiner): {prints[1]}" in out
        assert "(you)" not in out  # neither seat is this user's key
        assert "round 1: " in out and "final scores: player 0 " in out

    labelled = json.loads(koikoi(tmp_path, "verify", "--json", str(result)).stdout)
    assert [p["fingerprint"] for p in labelled["players"]] == prints
    assert all(set(r) == {"round", "winner", "points"} for r in labelled["rounds"])
    replay = json.loads(koikoi(tmp_path, "verify", "--json", str(transcript)).stdout)
    assert replay["ok"] is True and replay["you"] is None
    assert replay["rounds"] and all(set(r) == {"round", "winner", "points"} for r in replay["rounds"])

    junk = tmp_path / "notes.txt"
    junk.write_text("hello\n", encoding="utf-8")
    unknown = koikoi(tmp_path, "verify", str(junk))
    assert unknown.returncode == 1
    assert "is no transcript, evidence, abandonment file or co-signed result" in unknown.stdout


def test_verify_says_which_player_was_you(tmp_path: Path) -> None:
    """The practice transcript's seat 0 is this user's own key: verify marks it."""
    done = subprocess.run([str(SCRIPT), "practice", "--rounds", "1", "--rules", "wikipedia"],
                          input="a\ns\n" * 200, capture_output=True, text=True, env=env_for(tmp_path),
                          timeout=120)
    assert done.returncode == 0, done.stdout[-1000:]
    transcript = next((tmp_path / "data" / "transcripts").glob("*.transcript"))
    me = Identity.load_or_create(tmp_path / "config" / "identity.key")
    out = koikoi(tmp_path, "verify", str(transcript)).stdout
    assert f"player 0 (host): {me.fingerprint()} (you)" in out
    report = json.loads(koikoi(tmp_path, "verify", "--json", str(transcript)).stdout)
    assert report["you"] == 0 and report["players"][0]["you"] is True
    assert "(you)" not in koikoi(tmp_path / "someone-else", "verify", str(transcript)).stdout
