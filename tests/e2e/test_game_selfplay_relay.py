"""Selfplay through a real relay on loopback (port 0): the full protocol over websockets."""

from __future__ import annotations

from pathlib import Path

from koikoi_p2p.audit import audit_bytes
from koikoi_p2p.net.selfplay import selfplay
from tests.e2e.test_relay_support import relay, run, url


def test_selfplay_through_the_relay_matches_the_memory_run() -> None:
    async def body() -> None:
        async with relay() as server:
            played = await selfplay(rounds=1, seed=8, rules="nintendo", relay=url(server))
        out0, out1 = played.outcomes
        assert out0.failure is None and out1.failure is None
        assert played.transcripts[0] == played.transcripts[1]
        report = audit_bytes(played.transcripts[0])
        assert report.ok
        # The relay only carries frames: the same seeds in the same room (the relay chose its code;
        # every random value is bound to the session, spec/crypto.md §3.5) give the same match in
        # memory, byte for byte.
        from koikoi_p2p.protocol.transcript import decode_transcript

        room = decode_transcript(played.transcripts[0]).session.room
        local = await selfplay(rounds=1, seed=8, rules="nintendo", room=room)
        assert local.outcomes[0].scores == out0.scores
        assert local.transcripts[0] == played.transcripts[0]

    run(body)


def test_koikoi_selfplay_relay_command_in_a_subprocess(tmp_path: Path) -> None:
    import asyncio
    import sys

    transcript = tmp_path / "relay.transcript"

    async def body() -> None:
        async with relay() as server:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "koikoi_p2p", "selfplay", "--rounds", "1", "--seed", "4",
                "--relay", url(server), "--transcript", str(transcript),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await proc.communicate()
            assert proc.returncode == 0, err.decode()
            assert b"identical transcripts on both sides: yes" in out

    run(body)
    assert audit_bytes(transcript.read_bytes()).ok


def test_a_match_fits_the_least_frame_size_the_relay_accepts() -> None:
    """spec/relay.md §7: ``koikoi relay`` refuses a max_frame_bytes below MATCH_FRAME_BYTES, the
    largest frame a match sends; at exactly that limit a match plays to its end."""
    from koikoi_relay.main import MATCH_FRAME_BYTES

    async def body() -> None:
        async with relay(max_frame_bytes=MATCH_FRAME_BYTES) as server:
            played = await selfplay(rounds=1, seed=8, rules="nintendo", relay=url(server))
        assert all(outcome.failure is None for outcome in played.outcomes)

    run(body)
