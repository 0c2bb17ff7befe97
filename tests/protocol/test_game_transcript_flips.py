"""Any single-byte change anywhere in a transcript file makes verification fail.

Every byte of the head of the file (magic, header, handshake record, first envelopes) and of its
tail (final results, closing marker) is flipped, and a dense stride through the middle (shuffles
and shares), each with a different bit; verification of the altered file must fail every time.
"""

from __future__ import annotations

import functools

from koikoi_p2p.audit import AuditError, audit_bytes
from tests.protocol.game_support import make_pair, run, transcript_bytes

HEAD, TAIL, STRIDE = 1500, 800, 29


@functools.lru_cache(maxsize=1)
def _transcript() -> bytes:
    pair = run(make_pair(rounds=1, seed=3))
    return transcript_bytes(pair)


def _accepted(data: bytes) -> bool:
    try:
        return audit_bytes(data).ok
    except AuditError:
        return False


def test_the_unaltered_transcript_verifies() -> None:
    assert _accepted(_transcript())


def test_every_sampled_single_byte_change_fails() -> None:
    data = _transcript()
    positions = sorted(set(range(HEAD)) | set(range(len(data) - TAIL, len(data)))
                       | set(range(HEAD, len(data) - TAIL, STRIDE)))
    accepted = []
    for i in positions:
        altered = bytearray(data)
        altered[i] ^= 1 << (i % 8)
        if _accepted(bytes(altered)):
            accepted.append(i)
    assert not accepted, f"altered bytes accepted at offsets {accepted[:20]}"
    assert len(positions) > 3000


def test_truncation_and_extension_fail() -> None:
    data = _transcript()
    for cut in (1, 10, 100, len(data) // 2):
        assert not _accepted(data[:-cut])
    assert not _accepted(data + b"\x00")
    assert not _accepted(data + data[-40:])
