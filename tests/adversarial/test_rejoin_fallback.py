"""The joiner stops looking for the unbound rejoin tag once the host is known to hold the session
(spec/protocol.md §12.2). The unbound tag hashes only the rendezvous id, the room code the match
started in, which a lobby reader may know: a stranger can keep a room under it open for the whole
match. While the joiner also looked for that tag it joined the stranger's room whenever the host's
bound room was not listed yet, and a stranger holding any frame the host once sent it (the host
repeats its last frame to whoever joins, §12.1 rule 5) could replay it there, be vouched for as
the peer and keep the joiner from the host. Once an envelope of the host follows one of the
joiner's, the host holds the session and only ever opens rooms under the bound tag.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from koikoi_p2p.net import rendezvous as rendezvous_module
from koikoi_p2p.net.core import PeerCore
from koikoi_p2p.net.driver import _bind, _peer_bound, peer_holds_session
from koikoi_p2p.net.rendezvous import RelayRendezvous, rendezvous_tag
from koikoi_p2p.net.selfplay import play_cores
from koikoi_p2p.protocol.transport import Transport
from tests.faults.resume_util import setup


def test_peer_holds_session_once_its_envelope_follows_ours() -> None:
    assert not peer_holds_session([], 1)
    assert not peer_holds_session([0], 1)           # the host's terms: we hold the session
    assert not peer_holds_session([0, 0], 1)
    assert not peer_holds_session([1], 1)
    assert peer_holds_session([0, 1, 0], 1)         # the host took our accept, then sent on
    assert peer_holds_session([1, 0], 1)


def test_the_joiner_looks_for_the_unbound_tag_only_until_the_host_is_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    async def list_rooms(url: str, *, rejoin: str) -> list[dict[str, Any]]:
        asked.append(rejoin)
        return []

    monkeypatch.setattr(rendezvous_module, "list_rooms", list_rooms)
    connector = RelayRendezvous("ws://127.0.0.1:9", 1, "ROOM42", pair_timeout_s=0.0, poll_s=0.0)
    session = bytes(range(32))
    bound, unbound = rendezvous_tag("ROOM42", session), rendezvous_tag("ROOM42")

    def lookups() -> list[str]:
        asked.clear()
        with pytest.raises(Exception, match="in time"):
            asyncio.run(connector())
        return sorted(set(asked))

    connector.bind(session)
    assert lookups() == sorted({bound, unbound})    # the host may not hold the session yet
    connector.peer_bound()
    assert lookups() == [bound]


class Recorder:
    """A connector that records what the driver tells it (it is never asked to connect here)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def __call__(self) -> Transport:
        raise AssertionError("the recorder is never asked to connect")

    def bind(self, session_id: bytes) -> None:
        self.calls.append("bind")

    def peer_bound(self) -> None:
        self.calls.append("peer_bound")


def test_the_driver_says_when_the_host_holds_the_session(tmp_path: Path) -> None:
    cores = (PeerCore(setup(0)), PeerCore(setup(1)))
    recorder = Recorder()
    told: list[list[int]] = []
    bound = settled = False

    def on_input(seat: int, kind: str, value: object, out: list[bytes]) -> None:
        nonlocal bound, settled
        core = cores[1]
        if seat != 1 or core.peer is None:
            return
        if not bound:
            bound = _bind(recorder, core)
        if bound and not settled:
            settled = _peer_bound(recorder, core)
            if settled:
                told.append([env.sender for env in core.peer.transcript])

    play_cores(cores, on_input=on_input)
    assert recorder.calls == ["bind", "peer_bound"]
    assert told and told[0][-1] == 0 and 1 in told[0]
