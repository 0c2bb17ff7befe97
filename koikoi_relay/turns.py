"""Matches in play first (spec/relay.md §7.3): what the relay reads from connections that are not
in a match is handled a few connections a turn of the event loop; the frames of matches in play
are handled as they come.

A frame of a match waits for everything else its turn of the event loop runs. Setting a match up
or leaving costs far more per message than forwarding a frame (a request head parsed, a handler
started, a room made and listed, a close answered and a connection torn down), and nothing bounds
how many such messages arrive in the same instant: 256 connections of a few addresses, each within
its own rates, closing together (a close frame each) ran in one or two turns of 20 to 33 ms, every
honest frame behind them. Paced here, they run ``per_turn`` a turn, each turn a short one.

A connection whose read is put off keeps what was read (``Deferred.stash``) and stops reading until
its turn; the turns are served first come, first served, and later reads of a connection already
waiting join its stash, so its bytes keep their order. The pace is sans-I/O but for the event
loop's ``call_soon``, which ends a turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Protocol


class Deferred(Protocol):
    """A connection whose reads the pace may put off (server.MeteredConnection)."""

    stash: bytearray | None   # bytes read and put off, in order; None: none

    def hold_setup(self) -> None:
        """Stop reading: this connection's reads wait for their turn."""

    def release_setup(self, data: bytes) -> None:
        """Its turn: handle ``data`` (what was put off, in order), then read again."""


class SetupPace:
    """At most ``per_turn`` reads of connections not in a match handled in one turn of the event
    loop (``per_turn`` 0: no pace); ``deferred``: how many reads were put off in all."""

    def __init__(self, per_turn: int) -> None:
        self.per_turn = per_turn
        self.deferred = 0
        self._used = 0
        self._waiting: deque[Deferred] = deque()
        self._turn: asyncio.Handle | None = None

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def admit(self, conn: Deferred, data: bytes) -> bool:
        """Whether ``conn`` may handle ``data`` now. False: it is kept in ``conn.stash`` and handed
        back through ``release_setup`` in a later turn."""
        if self.per_turn <= 0:
            return True
        if conn.stash is not None:   # already waiting (a TLS layer may hand over several reads)
            conn.stash += data
            return False
        if not self._waiting and self._used < self.per_turn:
            self._used += 1
            self._next()
            return True
        conn.stash = bytearray(data)
        self._waiting.append(conn)
        self.deferred += 1
        conn.hold_setup()
        self._next()
        return False

    def close(self) -> None:
        """Shutting down: every connection waiting is handed what it had sent now, and reads are
        no longer put off, so that each close is answered at once (spec/relay.md §11)."""
        self.per_turn = 0
        if self._turn is not None:
            self._turn.cancel()
            self._turn = None
        while self._waiting:
            self._release(self._waiting.popleft())

    def forget(self, conn: Deferred) -> None:
        """``conn`` no longer waits (it closed, or took what it had kept itself)."""
        try:
            self._waiting.remove(conn)
        except ValueError:
            pass

    def _next(self) -> None:
        if self._turn is None:
            self._turn = asyncio.get_running_loop().call_soon(self._serve)

    def _serve(self) -> None:
        """A new turn: its first reads go to the connections that waited longest."""
        self._turn = None
        self._used = 0
        try:
            while self._waiting and self._used < self.per_turn:
                self._used += 1
                self._release(self._waiting.popleft())
        finally:   # the count starts again next turn, whatever happened here
            if self._waiting or self._used:
                self._next()

    @staticmethod
    def _release(conn: Deferred) -> None:
        stash = conn.stash
        if stash is None:
            return
        conn.stash = None
        try:
            conn.release_setup(bytes(stash))
        except Exception as exc:   # that connection's own trouble: the others' turns go on
            logging.getLogger("koikoi_relay").error("releasing a read failed: %s", type(exc).__name__)
