"""Whole matches between two honest peers: every preset, identical transcripts, co-signed results."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from koikoi_p2p.audit import audit_bytes, verify_result
from koikoi_p2p.net.selfplay import selfplay
from koikoi_p2p.protocol.events import Failure, MatchOver
from koikoi_p2p.protocol.flow import Phase
from koikoi_p2p.rules.profile import PRESETS
from tests.protocol.game_support import make_pair, run, share_positions, transcript_bytes


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_every_preset_plays_to_a_co_signed_result(rules: str) -> None:
    pair = run(make_pair(rules=rules, rounds=1, seed=7))
    assert pair.errors == [None, None]
    p0, p1 = pair.peers
    assert p0.phase is Phase.DONE and p1.phase is Phase.DONE
    assert [e.raw for e in p0.transcript] == [e.raw for e in p1.transcript]
    assert p0.flow.cosigned is not None and p1.flow.cosigned is not None
    assert p0.flow.cosigned.encode() == p1.flow.cosigned.encode()
    assert not any(isinstance(e, Failure) for seat in (0, 1) for e in pair.events[seat])
    assert sum(isinstance(e, MatchOver) for e in pair.events[0]) == 1
    report = audit_bytes(transcript_bytes(pair))
    assert report.ok and report.complete and report.deviation is None
    assert report.result == p0.flow.cosigned.encode()
    assert verify_result(report.result).scores == p0.flow.scores


def test_asyncio_selfplay_twelve_rounds_through_the_memory_pair() -> None:
    played = asyncio.run(selfplay(rounds=12, seed=5, rules="nintendo"))
    out0, out1 = played.outcomes
    assert out0.failure is None and out1.failure is None
    assert played.transcripts[0] == played.transcripts[1]
    assert out0.result == out1.result and out0.result is not None
    assert len(played.rounds) >= 12
    report = audit_bytes(played.transcripts[0])
    assert report.ok and report.complete
    assert len(report.rounds) == 12
    assert report.scores == out0.scores


def test_two_round_match_for_each_seat_sees_the_same_scores() -> None:
    pair = run(make_pair(rules="koikoi-online", rounds=2, seed=11))
    assert pair.errors == [None, None]
    assert pair.peers[0].flow.scores == pair.peers[1].flow.scores
    assert len(pair.peers[0].flow.history) == 2


def test_the_co_signed_result_fails_when_altered() -> None:
    pair = run(make_pair(rounds=1, seed=3))
    cosigned = pair.peers[0].flow.cosigned
    assert cosigned is not None
    data = cosigned.encode()
    verify_result(data)
    from koikoi_p2p.audit import AuditError

    for index in range(0, len(data), 7):
        bad = bytearray(data)
        bad[index] ^= 0x01
        with pytest.raises(AuditError):
            verify_result(bytes(bad))


def test_match_writes_a_transcript_that_the_cli_verifies(tmp_path: Path) -> None:
    from koikoi_p2p.cli.main import main

    path = tmp_path / "t.koikoi"
    result = tmp_path / "r.bin"
    assert main(["selfplay", "--rounds", "1", "--seed", "2", "--transcript", str(path),
                 "--result", str(result)]) == 0
    assert main(["verify", str(path)]) == 0
    assert main(["verify", "--result", str(result)]) == 0
    assert main(["verify", "--json", str(path)]) == 0
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))
    assert main(["verify", str(path)]) == 1


@pytest.mark.parametrize("rule", ["card_draw", "coin", "host", "joiner"])
def test_every_first_dealer_rule_plays_through_the_real_decks(rule: str) -> None:
    """spec/game.md §5.1 with every proof: host and joiner have no deal 0; the coin reveals one
    card of it, the draw pairs; both seats and the auditor agree on the first dealer."""
    from koikoi_p2p.protocol import messages as m
    from koikoi_p2p.protocol.events import FirstDealer
    from koikoi_p2p.rules.profile import preset as _preset

    profile = _preset("wikipedia").with_switches(first_dealer=rule, name="first")
    pair = run(make_pair(profile=profile, rounds=1, seed=5))
    assert pair.errors == [None, None]
    dealers = {next(e.dealer for e in pair.events[seat] if isinstance(e, FirstDealer)) for seat in (0, 1)}
    assert len(dealers) == 1
    envs = pair.peers[0].transcript
    deal0 = [e for e in envs if e.body.get("deal") == 0]
    if rule in ("host", "joiner"):
        assert dealers == {0 if rule == "host" else 1} and not deal0
    else:
        first = next(e for e in envs if e.type == m.REVEAL)
        assert share_positions(first) == ([[0]] if rule == "coin" else [[0, 1]])
    report = audit_bytes(transcript_bytes(pair))
    assert report.ok and report.complete
