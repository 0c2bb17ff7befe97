"""Drive a sans-I/O handshake over a transport (the only I/O of the session layer)."""

from __future__ import annotations

from koikoi_p2p.protocol.handshake import Handshake, HandshakeResult
from koikoi_p2p.protocol.transport import Transport


async def run_handshake(transport: Transport, handshake: Handshake) -> HandshakeResult:
    """Exchange handshake frames until done; raises the handshake's ``RemoteViolation`` or
    ``TransportClosed``. Deadlines are the caller's (wrap it in ``asyncio.timeout``)."""
    for frame in handshake.start():
        await transport.send(frame)
    while not handshake.done:
        for frame in handshake.receive(await transport.recv()):
            await transport.send(frame)
    return handshake.result
