"""``koikoi verify`` on transcripts that are not complete, valid matches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from koikoi_p2p.cli.main import main as koikoi
from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.transcript import encode_transcript
from tests.adversarial.test_peer_attacks import Cheater
from tests.protocol.game_support import make_pair, run, transcript_bytes


def test_a_transcript_without_its_end_is_incomplete(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    pair = run(make_pair(rounds=1, seed=6))
    envs = pair.peers[0].transcript[:-3]
    path = tmp_path / "cut.transcript"
    path.write_bytes(encode_transcript(pair.records[0], envs, closed=False))
    assert koikoi(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "INCOMPLETE" in out and "waiting for player" in out
    assert koikoi(["verify", "--json", str(path)]) == 1
    report = codec.decode(codec.encode(capsys.readouterr().out))  # plain text JSON
    assert isinstance(report, str) and '"complete": false' in report


def _cheater_transcript(tmp_path: Path, attack: Any, seed: int) -> tuple[Path, int]:
    pair = run(make_pair(rounds=1, seed=seed, peer1_factory=Cheater, attack=attack))
    cheater = pair.peers[1]
    assert isinstance(cheater, Cheater) and cheater.tampered_seq is not None
    # The cheater's own transcript holds its signed lie: a well-formed, fully chained file.
    path = tmp_path / "cheat.transcript"
    path.write_bytes(transcript_bytes(pair, seat=1))
    return path, cheater.tampered_seq


def test_a_signed_wrong_share_in_a_transcript_is_named(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    def bad_share(peer: Cheater, kind: str, body: dict[str, Any]) -> dict[str, Any] | None:
        if peer.flow.deal < 1 or not body.get("shares"):
            return None
        positions, data = body["shares"][0]
        body["shares"][0] = [positions, data[32:64] + data[32:]]
        return body

    path, seq = _cheater_transcript(tmp_path, bad_share, seed=2)
    assert koikoi(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"player 1 deviated at message {seq}: a decryption share that is not valid" in out


def test_a_deal_cut_before_its_keys_is_judged_on_what_is_public(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Hands stay hidden without the round keys, but the rest of the deal is public: a stock
    position played as a hand card is named from the transcript alone, and a transcript cut
    inside a deal says which deal's hidden hands could not be checked (the honest peer's evidence
    file, which holds its own round key, is what proves a cheat that needs them)."""
    def steal(peer: Cheater, kind: str, body: dict[str, Any]) -> dict[str, Any] | None:
        if kind != m.ACT or body["action"]["type"] != "play":
            return None
        return {**body, "action": {"type": "play", "position": 47}}

    path, seq = _cheater_transcript(tmp_path, steal, seed=2)
    assert koikoi(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"player 1 deviated at message {seq}: a move the rules do not allow" in out

    honest = run(make_pair(rounds=1, seed=2))
    envs = honest.peers[0].transcript
    first_play = next(e.seq for e in envs if e.type == m.ACT)
    cut = tmp_path / "cut.transcript"
    cut.write_bytes(encode_transcript(honest.records[0], envs[:first_play + 3], closed=False))
    assert koikoi(["verify", str(cut)]) == 1
    out = capsys.readouterr().out
    assert "deal 1 was replayed without its round keys" in out and "deviated" not in out


def test_evidence_of_a_dropped_frame_names_no_player(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The relay drops one of two envelopes seat 0 sends in a row: seat 1's evidence file of the
    gap is reported without blaming seat 0, and verify exits 1."""
    from tests.adversarial.test_peer_attacks import _first_run_of_two
    from tests.protocol.game_support import evidence_bytes

    target = _first_run_of_two(run(make_pair(rounds=1, seed=1)))
    dropped: list[int] = []

    def relay(to: int, frame: bytes) -> list[bytes]:
        if frame[0] == 0x10 and int.from_bytes(frame[1:5], "big") == target and not dropped:
            dropped.append(target)
            return []
        return [frame]

    pair = run(make_pair(rounds=1, seed=1), deliver=relay)
    path = tmp_path / "gap.evidence"
    path.write_bytes(evidence_bytes(pair, 1))
    assert koikoi(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "no player is shown to have deviated" in out and "does NOT prove" in out
    assert "player 0 deviated" not in out
