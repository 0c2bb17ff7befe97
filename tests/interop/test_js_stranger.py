"""Issue 11 hole 5 across the two implementations: a JavaScript host (web/bin/peer.js with its
retransmission link) and the Python crash-safe driver as the joiner, through a real relay process
on loopback. Mid-match the relay restarts, so the seats meet again in a rejoin room
(spec/protocol.md §12.2); the Python joiner is slowed down, and a stranger that knows the tag gets
there first and plays a live peer at the link level under the joiner's link id (HELLO, PONG, an
ACK for every DATA frame, PINGs of its own), never sending a payload. The JavaScript host counts
only a connection on which a payload authenticated (§12.1 rule 5), drops this one after its
keepalive bound, opens the room again, and both seats finish with the same transcript, which both
auditors verify. Before the JavaScript link vouched for pairings the stranger held the room and
the match could not finish."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path
from typing import Any

from koikoi_p2p.net.relay_client import RelayClient
from koikoi_p2p.net.rendezvous import RelayRendezvous
from koikoi_p2p.net.resumable import DriverOptions, create_state, run_peer
from koikoi_p2p.net.state_store import StateStore
from tests.adversarial.test_rejoin_stranger import LateJoiner, _stranger
from tests.e2e.test_cli_support import SCRIPT
from tests.faults.resume_util import FAST_LINK, setup, transcript_raws
from tests.interop.support import js_peer, js_verdicts, outcome, require_node, room_code, start_relay
from tests.interop.support import stop_process as stop


def test_a_stranger_cannot_hold_the_rejoin_room_of_a_js_host(tmp_path: Path) -> None:
    require_node()
    js_file = tmp_path / "js.transcript"
    relay, url = start_relay()
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    relays = [relay]
    js = js_peer("host", url, extra=["--rules", "wikipedia", "--rounds", "1", "--seed", "61", "--link",
                                     "--transcript", str(js_file)])
    seen = {"listed": 0, "sent": 0, "pings": 0}

    async def joiner_side() -> Any:
        code = await asyncio.to_thread(room_code, js)
        folder = tmp_path / "py"
        create_state(StateStore(folder), setup(1, room=code, password=None, relay_url=url, rendezvous=code,
                                               out_dir=str(tmp_path / "out")))
        first = await RelayClient.join(url, code)
        joiner = LateJoiner(RelayRendezvous(url, 1, code, first=first, pair_timeout_s=30, poll_s=0.1), 1.0)
        stop_event = asyncio.Event()
        tasks: list[asyncio.Task[None]] = []
        started = [False]

        async def restart() -> None:
            await asyncio.to_thread(stop, relays[-1])
            relays.append((await asyncio.to_thread(start_relay, port))[0])

        def progress(phase: str, core: Any) -> None:
            # Mid-match (both seats hold the session, so the tag is bound): the relay restarts and
            # the stranger, which knows the tag, races the slowed joiner into the rejoin room.
            if phase == "playing" and not started[0]:
                started[0] = True
                loop = asyncio.get_running_loop()
                held = _stranger(url, joiner.inner, True, stop_event, seen, holds=True)
                tasks.append(loop.create_task(held))
                tasks.append(loop.create_task(restart()))

        opts = DriverOptions(resend_after_s=0.5, linger_s=2.0, forget_secrets=False,
                             link={**FAST_LINK, "dead_after_s": 2.0, "give_up_s": None})
        try:
            run = run_peer(StateStore(folder), joiner, options=opts, progress=progress)
            return await asyncio.wait_for(run, 150)
        finally:
            stop_event.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await joiner.inner.close()

    try:
        py = asyncio.run(joiner_side())
        end = outcome(js, timeout=60)
    finally:
        if js.poll() is None:
            js.kill()
            js.wait()
        for proc in relays:
            stop(proc)
    assert seen["sent"] == 1 and seen["pings"] >= 3, seen
    assert py.status == "completed", py
    assert end["ok"], end
    # The JavaScript host paired again twice: the rejoin room the stranger held, and the one it
    # opened again after dropping that connection as silent.
    assert isinstance(end["repairs"], int) and end["repairs"] >= 2, end
    assert end["dropped"] == 0 and py.dropped == 0, (end, py)   # it never sent a payload
    assert transcript_raws(py.file) == transcript_raws(str(js_file))
    verified = subprocess.run([str(SCRIPT), "verify", str(js_file)], capture_output=True, text=True,
                              timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert js_verdicts([js_file])[0]["ok"]
