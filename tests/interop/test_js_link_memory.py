"""Back-pressure across the two implementations (spec/protocol.md §12.1 rule 3): a JavaScript host
(web/bin/peer.js with its retransmission link) sends at full speed to the Python crash-safe driver
as the joiner, whose link holds far less than a deck message (every frame beyond the one it holds
is refused and not acknowledged) and whose person takes a while to read the terms and to decide.
The JavaScript link re-sends what was refused, nothing is lost, and both seats finish with the
same transcript."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from koikoi_p2p.net.relay_client import RelayClient
from koikoi_p2p.net.reliable import ReliableLink
from koikoi_p2p.net.rendezvous import RelayRendezvous
from koikoi_p2p.net.resumable import DriverOptions, create_state, run_peer
from koikoi_p2p.net.state_store import StateStore
from tests.faults.resume_util import FAST_LINK, setup, transcript_raws
from tests.interop.support import js_peer, js_verdicts, outcome, require_node, room_code, start_relay
from tests.interop.support import stop_process as stop


def test_a_js_sender_honours_the_python_links_back_pressure(tmp_path: Path) -> None:
    require_node()
    js_file = tmp_path / "js.transcript"
    relay, url = start_relay()
    js = js_peer("host", url, extra=["--rules", "wikipedia", "--rounds", "1", "--seed", "71", "--link",
                                     "--transcript", str(js_file)])
    links: list[ReliableLink] = []

    async def read_terms(_: Any) -> bool:
        await asyncio.sleep(0.3)
        return True

    async def decide(event: Any) -> Any:
        await asyncio.sleep(0.1)
        return event.options[0]

    async def joiner_side() -> Any:
        code = await asyncio.to_thread(room_code, js)
        folder = tmp_path / "py"
        create_state(StateStore(folder), setup(1, room=code, password=None, relay_url=url, rendezvous=code,
                                               out_dir=str(tmp_path / "out")))
        first = await RelayClient.join(url, code)
        connect = RelayRendezvous(url, 1, code, first=first, pair_timeout_s=30, poll_s=0.1)
        opts = DriverOptions(resend_after_s=0.5, linger_s=2.0, forget_secrets=False, watch=links.append,
                             link={**FAST_LINK, "dead_after_s": 5.0, "queue_bytes": 1, "early_bytes": 0})
        return await asyncio.wait_for(run_peer(StateStore(folder), connect, options=opts, ask=decide,
                                               ask_terms=read_terms), 150)

    try:
        py = asyncio.run(joiner_side())
        end = outcome(js, timeout=60)
    finally:
        if js.poll() is None:
            js.kill()
            js.wait()
        stop(relay)
    assert py.status == "completed", py
    assert end["ok"], end
    assert links[0].stats.refused > 0, links[0].stats     # back-pressure did happen
    assert transcript_raws(py.file) == transcript_raws(str(js_file))
    assert js_verdicts([js_file])[0]["ok"]
