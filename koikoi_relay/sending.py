"""Sending one message to a client: the relay's hot path (every frame forwarded comes here)."""

from __future__ import annotations

from typing import Any

from websockets.exceptions import ConnectionClosed


async def send_message(ws: Any, data: bytes) -> bool:
    """Send ``data`` as one binary message; False when the connection has closed (no error: the
    seat's buffer keeps what a resume replays, spec/relay.md §5). A relay connection that can write
    at once (``send_now``, koikoi_relay/server.py) does so without websockets' coroutine."""
    send_now = getattr(ws, "send_now", None)
    if send_now is not None and send_now(data):
        return True
    try:
        wait = getattr(ws, "until_writable", None)
        if wait is not None:
            # Its write buffer is past its high-water mark (a frame sent at once took it there):
            # wait before adding to it, as websockets waits after a write, so a peer that does
            # not read holds no more than one message beyond the mark.
            await wait()
        await ws.send(data)
    except ConnectionClosed:
        return False
    return True


def writable(ws: Any) -> bool:
    """``ws`` takes a write at once, without waiting (koikoi_relay/server.py ``MeteredConnection``);
    False for a connection that cannot say."""
    check = getattr(ws, "writable", None)
    return check is not None and bool(check())


def send_now(ws: Any, data: bytes) -> bool:
    """Write ``data`` as one binary message without waiting, if ``ws`` can (see ``writable``)."""
    now = getattr(ws, "send_now", None)
    return now is not None and bool(now(data))
