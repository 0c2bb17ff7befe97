"""The driver's grace before an acknowledgement's sync (spec/protocol.md §12.3 rule 1): a frame
that asks nothing of us is made durable and acknowledged once the peer's next frame did not come
within ``settle_grace_s``; a frame that comes within it is taken first and shares the sync. So a
move that follows another frame closely is shown without waiting behind that frame's
fdatasync, and a match needs fewer of them, with the same transcript and every frame still
acknowledged (both seats end, each having confirmed what the other sent)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from koikoi_p2p.net.journal import Journal
from koikoi_p2p.net.resumable import DriverOptions, run_peer
from tests.faults.hub import Hub
from tests.faults.resume_util import FAST_LINK, new_stores, transcript_raws

OPTIONS = DriverOptions(resend_after_s=0.3, linger_s=1.0, link=dict(FAST_LINK), forget_secrets=False)


def _match(tmp: Path, grace: float) -> tuple[int, list[bytes]]:
    folders = new_stores(tmp)
    journals = [Journal(folder) for folder in folders]
    hub = Hub(2)
    opts = dataclasses.replace(OPTIONS, settle_grace_s=grace)

    async def both() -> list[object]:
        return list(await asyncio.gather(*(run_peer(journals[seat], hub.connector(seat), options=opts)
                                           for seat in (0, 1))))

    outcomes = asyncio.run(asyncio.wait_for(both(), 120))
    for outcome in outcomes:
        assert getattr(outcome, "status", None) == "completed", outcome
    raws = transcript_raws(getattr(outcomes[0], "file", None))
    assert raws == transcript_raws(getattr(outcomes[1], "file", None))
    return sum(j.syncs for j in journals), raws


def test_frames_close_together_share_a_sync_and_every_frame_is_still_acknowledged(tmp_path: Path) -> None:
    at_once, raws_at_once = _match(tmp_path / "none", 0.0)
    grace, raws_grace = _match(tmp_path / "grace", 0.2)
    assert raws_at_once == raws_grace      # the same match: the grace changes only when syncs happen
    assert grace < at_once, (grace, at_once)
