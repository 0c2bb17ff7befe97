"""An address's shared byte rate, enforced where its bytes are read (spec/relay.md §7.1).

The bytes a source's connections read are charged to the source's bucket as each read happens.
When the bucket goes into debt every connection of the source stops reading its socket, not only
the one that read, until the debt is paid: TCP then holds the senders back.

Why at the read and for all of them at once: 64 connections of one address that each send a 64 KiB
frame at the same instant are all readable in the same turn of the event loop. Charged per message
(as before), each connection's frame was read in full before any handler saw the debt, so one
synchronised burst of 16 addresses cost the relay 64 MiB of reads, parses and copies in one go: the
stalls of 50 to 175 ms behind which the honest frames of the hostile bench waited (its p99 round
trip 80 ms against 5 ms without attackers, the buffer attack alone). Pausing a transport cancels
the read asyncio has already queued for it in this turn, so the first read that puts the address in
debt is the last one of that address until the debt is paid.

A held source is released only once its bucket has refilled to half its burst, not as soon as the
debt is paid: released at zero, its first read put it back in debt, so each source resumed and
paused all its connections four times a second (64 of them at 1 to 9 ms a cycle, sixteen sources in
the hostile bench); at half the burst it reads on for a second or so before the next hold, and over
time no more than its rate either way.

A connection's reading is also paused by websockets' own flow control (its queue of received
messages, ``max_queue``); a connection reads only when neither holds it (``Member``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from koikoi_relay.ratelimit import TokenBucket


class Member(Protocol):
    """A connection the gate can hold (koikoi_relay/server.py ``MeteredConnection``)."""

    def hold_reading(self, held: bool) -> None: ...


class Timer(Protocol):
    def cancel(self) -> None: ...


# (delay in seconds, callback) -> a handle with cancel(): the event loop's call_later, injected.
Schedule = Callable[[float, Callable[[], None]], Timer]


class ReadGate:
    """One source's byte rate over all its connections' reads."""

    __slots__ = ("bucket", "held", "members", "schedule", "timer")

    def __init__(self, bucket: TokenBucket, schedule: Schedule | None = None) -> None:
        self.bucket = bucket
        self.members: dict[Member, None] = {}   # insertion-ordered: held and released in that order
        self.held = False
        self.schedule = schedule
        self.timer: Timer | None = None

    def join(self, member: Member) -> None:
        self.members[member] = None
        if self.held:
            member.hold_reading(True)

    def leave(self, member: Member) -> None:
        self.members.pop(member, None)
        if not self.members and self.timer is not None:
            self.timer.cancel()
            self.timer = None
            self.held = False

    def charge(self, size: int) -> None:
        """``size`` bytes were just read from one of the members' sockets."""
        if self.bucket.owe(size) > 0 and not self.held:
            self.held = True
            for member in self.members:
                member.hold_reading(True)
            self._wake_in(self.bucket.until(self.bucket.capacity / 2))

    def _wake_in(self, wait: float) -> None:
        schedule = self.schedule
        if schedule is None:
            import asyncio

            schedule = self.schedule = asyncio.get_running_loop().call_later
        self.timer = schedule(wait, self._paid)

    def _paid(self) -> None:
        self.timer = None
        wait = self.bucket.until(self.bucket.capacity / 2)   # an early timer, or reads meanwhile
        if wait > 0:
            self._wake_in(wait)
            return
        self.held = False
        for member in list(self.members):
            member.hold_reading(False)
