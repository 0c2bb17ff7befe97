"""The Redis room backend: this process is one node of a relay cluster (spec/relay.md §13).

Rooms, seats, resume tokens and the lobby live in Redis with expiry, so any node can serve any
seat: a host may create a room on one node and its friend join on another. Each direction of a room
is a Redis Stream (entry id = frame seq + 1), both the backplane and the resume buffer; the node
holding the receiving seat gets each frame from its own inbox stream (``XREAD BLOCK``), written by
the same atomic script that appended the frame, and reads the room stream itself to replay a
resume or fill a hole. Every room change is one Lua script (``cluster_scripts``), so two nodes
never disagree about a count, an owner or an epoch.

What a node keeps in memory is only about its own connections (``Member``): the counts it has
submitted, confirmed and delivered. After an outage it checks them against Redis; a room whose
history is gone (Redis restarted without persistence, a stream trimmed past what a seat needs)
ends with ``resume_gap`` instead of a silent loss.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import hiredis
import msgpack
import redis.asyncio as aioredis
from redis._parsers.base import BaseParser
from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import InvalidResponse, NoScriptError, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from websockets.exceptions import ConnectionClosed

from koikoi_relay.cluster_scripts import (
    FWD_DUP,
    FWD_GAP,
    FWD_LOCAL,
    FWD_LOST,
    FWD_NO_PEER,
    FWD_REPLACED,
    NODE_ID,
    script_sources,
)
from koikoi_relay.codes import generate_code, normalize_code
from koikoi_relay.errors import CloseCode
from koikoi_relay.logs import log_event
from koikoi_relay.messages import TOKEN_BYTES, Create, Frame, Join, Lobby, Resume, Sync, encode, encode_frame
from koikoi_relay.probes import Sweep
from koikoi_relay.rooms import SWEEP_SLICE, Rooms
from koikoi_relay.sending import send_message

if TYPE_CHECKING:
    from koikoi_relay.state import Connection

ACK_EVERY = 32              # spec §5.4, as in the in-process backend
HEARTBEAT_S = 1.0           # a node refreshes its liveness key this often ...
NODE_TTL_MS = 5000          # ... which expires this long after the last refresh (the node is then dead)
INBOX_TTL_MS = 60000        # a node's inbox outlives its heartbeat: a slow node must not lose it
LINK_HOLD_S = 3.0           # connections wait this long for a lost Redis link before being closed (1011)
COMMAND_TIMEOUT_S = 2.0     # a Redis reply later than this counts as a lost link
BLOCK_MS = 1000             # XREAD BLOCK on the inbox
READ_COUNT = 512            # inbox entries per read
INBOX_TRIM_ENTRIES = 256    # the inbox loses what was read once this many entries were read ...
INBOX_TRIM_S = 0.1          # ... or this long after its last trim (spec/relay.md §13.2)
REPLAY_COUNT = 256          # stream entries per read when replaying or filling a hole
EARLY_FRAMES = 16           # frames a seat keeps that came while it read the stream (a resume, a hole) ...
EARLY_BYTES = 256 * 1024    # ... and their bytes: what a room closed meanwhile still delivers
ROOM_TTL_SLACK_MS = 10000   # room keys outlive the resume grace by this much without a refresh
LOBBY_REPLY_S = 1.0         # a node answers a lobby from its last reply for that tag this long
LOBBY_SLACK = 64            # entries a lobby call may examine beyond those it lists (stale ones)
UNSEATED_JOBS = ("away", "call", "held")   # jobs that go out whether or not a seat has a connection
HELD_STEPS = 256            # a node's bytes in flight are written at once when they grew by half a
                            # step (max_buffered_bytes / this) since last written; a frame's call takes
                            # a step off the budget for each other node beside what it wrote (§13.6)

Error = (RedisError, OSError, asyncio.TimeoutError)
CLAIM_POLL_S = 0.25         # how often a starting node looks at a heartbeat under its own id


class NodeIdInUse(Exception):
    """A live node already runs under this node id (spec §13.5): starting a second would take its
    inbox and heartbeat."""

    def __init__(self, node: str) -> None:
        super().__init__(f"node id {node} is in use by a live node")
        self.node = node
_PUSH = getattr(hiredis, "PushNotification", None)   # hiredis 3.2 and later


class Member:
    """A seat held by a connection of this node, and what this node knows of its streams."""

    __slots__ = (
        "acked_to_client", "attached", "backlog", "client_acked", "code", "conn", "drainer", "early",
        "epoch", "in_count",
        "in_next", "last_active", "out_count", "owner", "packed", "packed_epoch", "paired", "peer",
        "peer_owner", "probe_gap", "probe_mark", "probe_wait", "refreshed", "seat", "settled", "trimmed",
    )

    def __init__(self, conn: Connection, code: str, seat: int, epoch: str, owner: str, now: float) -> None:
        self.conn: Connection | None = conn
        self.code = code
        self.seat = seat
        self.epoch = epoch
        self.owner = owner
        self.in_next = 0            # next seq expected from the client (submitted below it)
        self.in_count = 0           # frames from the client confirmed in Redis
        self.settled = True         # False from a Redis outage until its counts are checked again
        self.acked_to_client = 0
        self.out_count = 0          # frames delivered to the client = next seq it gets
        self.client_acked = 0       # the client has every frame below this
        self.trimmed = 0            # ... and the stream was trimmed below this
        self.probe_mark = -1        # spec §5.5 rule 4, backed off (koikoi_relay/probes.py)
        self.probe_gap = 1
        self.probe_wait = 0
        self.attached = True        # False while a resume replays missed frames
        self.paired = seat == 1
        self.peer = "present" if seat == 1 else "none"
        self.peer_owner = ""
        self.backlog: deque[bytes] = deque()
        self.drainer: asyncio.Future[None] | None = None   # the task writing the backlog
        # Frames that came while the seat read its stream: a close deletes the stream, so a room
        # closed before the read caught up still delivers them (RedisRooms._room_closed).
        self.early: dict[int, bytes] = {}
        self.last_active = now
        self.refreshed = now
        self.packed: bytes | None = None   # this seat's FORWARD arguments, RESP-encoded once
        self.packed_epoch = ""

    def release_pending(self, keep_backlog: bool = False) -> None:
        """Frames not yet written leave this member: its backlog is cleared (a drain still writing
        it stops after its current frame) unless ``keep_backlog`` (the drain writes it out ahead
        of a closing notice); either way the member starts a new one, and keeps no early frames."""
        if not keep_backlog:
            self.backlog.clear()
        self.backlog, self.drainer = deque(), None
        self.early.clear()

    @property
    def key(self) -> tuple[str, int]:
        return self.code, self.seat


def _bulk(value: bytes) -> bytes:
    """One RESP bulk string (how every command argument travels to Redis)."""
    return b"$%d\r\n%s\r\n" % (len(value), value)


_PARTIAL = object()   # hiredis: no whole reply buffered yet (a reply may itself be False or None)


class _Batch:
    """Commands written in one go, and the replies read for them so far."""

    __slots__ = ("count", "done", "replies", "sent")

    def __init__(self, done: asyncio.Future[list[Any]], count: int, sent: float) -> None:
        self.done = done
        self.count = count
        self.sent = sent
        self.replies: list[Any] = []


class _Replies(asyncio.Protocol):
    """The protocol of a Wire's connection once redis-py's handshake (AUTH, SELECT, HELLO, TLS) is
    done: hiredis parses replies as the bytes arrive, and each batch's future completes when its
    last reply is in, with no reader task, stream buffer or timer per command."""

    def __init__(self, wire: Wire, transport: Any) -> None:
        self.wire = wire
        self.transport = transport   # a late callback of an older connection must not touch the new one

    def data_received(self, data: bytes) -> None:
        if self.wire._transport is self.transport:
            self.wire._received(data)

    def eof_received(self) -> bool:
        return False   # Redis closed its side: the transport closes and connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        if self.wire._transport is self.transport:
            self.wire._fail(RedisConnectionError("the Redis connection closed"))


class Wire:
    """One Redis connection for the hot paths (frames in, inbox out). redis-py opens it, so the URL
    means what it means everywhere else (password, database, TLS); then the connection is driven
    by hand: a batch of packed commands goes out in one write and its replies come back in order.
    The command objects, stream reader and per-reply timeout of redis-py cost several times Redis's
    own work per frame (spec/relay.md §13.3): a watchdog instead fails a batch older than the
    timeout, as a lost link. A connection found closed is opened again by the next call, as
    redis-py does (a Redis ``timeout`` may close one that sat idle)."""

    def __init__(self, url: str, timeout: float) -> None:
        self._pool = ConnectionPool.from_url(url, socket_timeout=timeout, retry=Retry(NoBackoff(), 0),
                                             socket_connect_timeout=COMMAND_TIMEOUT_S)
        self.conn: AbstractConnection = self._pool.make_connection()  # type: ignore[no-untyped-call]
        self.timeout = timeout
        self._transport: asyncio.Transport | None = None
        self._parser = self._new_parser()
        self._waiting: deque[_Batch] = deque()
        self._watchdog: asyncio.Task[None] | None = None
        self._opening = asyncio.Lock()

    @staticmethod
    def _new_parser() -> Any:
        return hiredis.Reader(protocolError=InvalidResponse, replyError=BaseParser.parse_error,
                              notEnoughData=_PARTIAL)

    async def connect(self) -> None:
        self._fail(RedisConnectionError("reconnecting to Redis"))
        await self.conn.disconnect(nowait=True)
        await self.conn.connect()  # type: ignore[no-untyped-call]
        writer = getattr(self.conn, "_writer", None)
        transport = getattr(writer, "transport", None)
        if transport is None or not hasattr(transport, "set_protocol"):   # any loop's transport
            raise RedisConnectionError("this version of redis-py does not expose its connection's transport")
        self._parser = self._new_parser()
        self._transport = transport
        transport.set_protocol(_Replies(self, transport))
        if self._watchdog is None or self._watchdog.done():
            self._watchdog = asyncio.create_task(self._watch())

    @staticmethod
    def pack(*args: str | int | bytes) -> bytes:
        """One command as Redis reads it: an array of bulk strings (text as UTF-8, numbers in decimal)."""
        parts = [b"*%d\r\n" % len(args)]
        for arg in args:
            if isinstance(arg, bytes):
                parts.append(_bulk(arg))
            elif isinstance(arg, str | int) and not isinstance(arg, bool):
                parts.append(_bulk(str(arg).encode()))
            else:
                raise TypeError(f"a Redis argument is text, bytes or an integer, not {type(arg).__name__}")
        return b"".join(parts)

    async def run(self, packed: bytes, count: int) -> list[Any]:
        """Send ``count`` packed commands at once; their replies (an error reply as its exception).
        A cancelled caller leaves the connection in step: its replies are still read, and dropped."""
        assert count > 0
        transport = self._transport
        if transport is None or transport.is_closing():
            async with self._opening:   # one reconnection for every caller that found it closed
                if self._transport is None or self._transport.is_closing():
                    await self.connect()
            transport = self._transport
            assert transport is not None
        loop = asyncio.get_running_loop()
        batch = _Batch(loop.create_future(), count, loop.time())
        self._waiting.append(batch)
        transport.write(packed)
        replies = await batch.done
        for reply in replies:
            if isinstance(reply, RedisConnectionError):   # LOADING, NOAUTH: the link, not the command
                raise reply
        return replies

    def _received(self, data: bytes) -> None:
        parser = self._parser
        parser.feed(data)
        while True:
            try:
                reply = parser.gets()
            except InvalidResponse as exc:
                self._fail(exc)
                return
            if reply is _PARTIAL:
                return
            if _PUSH is not None and isinstance(reply, _PUSH):
                continue   # out-of-band (RESP3 push): no command of ours asked for it
            if not self._waiting:
                self._fail(InvalidResponse("Redis sent a reply nobody asked for"))
                return
            batch = self._waiting[0]
            batch.replies.append(reply)
            if len(batch.replies) == batch.count:
                self._waiting.popleft()
                if not batch.done.done():
                    batch.done.set_result(batch.replies)

    def _fail(self, exc: Exception) -> None:
        """The connection is unusable: every batch waiting fails with ``exc`` (a lost link)."""
        transport, self._transport = self._transport, None
        if transport is not None:
            transport.abort()
        waiting, self._waiting = self._waiting, deque()
        for batch in waiting:
            if not batch.done.done():
                batch.done.set_exception(exc)

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(min(self.timeout / 8, 0.25))
            if self._waiting and loop.time() - self._waiting[0].sent > self.timeout:
                self._fail(RedisTimeoutError(f"Redis did not answer within {self.timeout:g} s"))

    async def close(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
            await asyncio.wait([self._watchdog])
        self._fail(RedisConnectionError("the Redis connection was closed"))
        await self.conn.disconnect(nowait=True)
        await self._pool.aclose()


class RedisRooms(Rooms):
    """Rooms in Redis; this process is one node (``node_id`` random unless given)."""

    seats_survive_shutdown = True

    def __init__(self, url: str, *, prefix: str = "koikoi:", node_id: str | None = None) -> None:
        self.url = url
        self.prefix = prefix
        self.node = node_id or secrets.token_hex(6)
        if not NODE_ID.fullmatch(self.node):
            raise ValueError("a node id is 1 to 64 letters, digits, dots, hyphens and underscores")
        self._sources = script_sources()
        self._sha: dict[str, str] = {}
        self._members: dict[tuple[str, int], Member] = {}
        self._away: dict[tuple[str, int], tuple[str, float, str]] = {}   # seat -> epoch, deadline, dead owner
        self._dropped: list[tuple[str, str, int, str]] = []   # AWAY calls owed to Redis after an outage
        self._jobs: list[tuple[Any, ...]] = []
        self._wake = asyncio.Event()
        # Batches written to Redis, and those whose replies the writer has handled (frames for a
        # seat of this node are delivered then, not through the inbox: _after_sent_batches).
        self._batches_sent = 0
        self._batches_handled = 0
        self._batch_handled = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._sweeping = False
        self._stopping = False
        self.up = False
        self._down_since: float | None = time.monotonic()
        self._inbox_id = "0-0"
        self._inbox_trimmed = "0-0"   # entries below this id were removed from the inbox (§13.2)
        self._inbox_read = 0          # entries read since then
        self._inbox_trim_at = 0.0     # when (monotonic)
        # Metrics (spec §9): the Redis link, its round trips and errors.
        self.round_trips = 0
        self.round_trip_seconds = 0.0
        self.last_ping_s = 0.0
        self.redis_errors = 0
        self._ctl: aioredis.Redis | None = None
        self._lobby_replies: dict[str, tuple[float, bytes]] = {}
        self.buffered = 0           # the cluster's buffered bytes, as read at the last sweep
        self.redis_memory = 0       # Redis's used_memory, as read at the last sweep (§13.6)
        self.others_held = 0        # the other nodes' own parts of the budget, as read at the last sweep
        self.held_said = 0          # this node's parts (b) and (d) as last written to Redis (§13.6)
        self._held_queued = False   # a job writing them is in the queue
        self._held_half = 0         # ... which is queued once they grew by this much (half a step)
        self._calls: Wire | None = None
        self._writer: Wire | None = None
        self._reader: Wire | None = None

    # -- names -------------------------------------------------------------------------------

    def _room_key(self, code: str) -> str:
        return f"{self.prefix}r:{code}"

    def _stream(self, code: str, epoch: str, seat: int) -> str:
        return f"{self.prefix}s:{code}:{epoch}:{seat}"

    @property
    def _inbox(self) -> str:
        return f"{self.prefix}i:{self.node}"

    def _owner(self, conn: Connection) -> str:
        return f"{self.node}:{conn.serial}"

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        def client(timeout: float) -> aioredis.Redis:
            return aioredis.Redis.from_url(
                self.url, socket_timeout=timeout, socket_connect_timeout=COMMAND_TIMEOUT_S,
                retry=Retry(NoBackoff(), 0), single_connection_client=True, decode_responses=False)

        # One connection each: set-up and sweeps (redis-py's commands), a client's scripts and stream
        # reads (driven by hand, pipelined: concurrent requests share the round trip), the frame
        # writer (pipelined) and the blocking reader.
        self._ctl = client(COMMAND_TIMEOUT_S)
        self._calls = Wire(self.url, COMMAND_TIMEOUT_S)
        self._writer = Wire(self.url, COMMAND_TIMEOUT_S)
        self._reader = Wire(self.url, COMMAND_TIMEOUT_S + BLOCK_MS / 1000)
        # Called whenever this node's bytes grow (a read, a write buffer, a connection); without a
        # budget nobody reads what it would write.
        if self.relay.limits.max_buffered_bytes:
            self._held_half = max(1, self._held_step() // 2)
            self.relay.inbound.squeeze = self._held_grew
        with contextlib.suppress(*Error):
            try:
                await self._claim_node_id()
            except NodeIdInUse:
                await self._ctl.aclose()
                raise
            await self._connect()
        if not self.up:
            log_event("redis_unreachable", logging.WARNING, node=self.node)
        self._tasks = [asyncio.create_task(task) for task in (
            self._supervise(), self._read_inbox(), self._write_jobs())]

    async def _claim_node_id(self) -> None:
        """Take this node's liveness key (spec §13.5), or raise NodeIdInUse if a live node holds it.
        A key left by a dead node (a crash, a restart) runs out within NODE_TTL_MS; a live node's
        is refreshed every second, which shows as its time to live growing."""
        assert self._ctl is not None
        key = f"{self.prefix}n:{self.node}"
        last = None
        while not await self._ctl.set(key, b"1", px=NODE_TTL_MS, nx=True):
            left = int(await self._ctl.pttl(key))
            if left == -1 or (last is not None and left > last):
                raise NodeIdInUse(self.node)
            last = left
            await asyncio.sleep(CLAIM_POLL_S)

    async def stop(self) -> None:
        # redis-py may turn a cancellation inside a command into a ConnectionError: the loops also
        # check ``_stopping``, so none of them carries on after this.
        self._stopping = True
        self._wake.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.wait(self._tasks, timeout=COMMAND_TIMEOUT_S + BLOCK_MS / 1000)
        if self.up and self._ctl is not None:
            with contextlib.suppress(*Error):
                await self._ctl.delete(f"{self.prefix}n:{self.node}", self._inbox)
        for wire in (self._calls, self._writer, self._reader):
            if wire is not None:
                with contextlib.suppress(Exception):
                    await wire.close()
        if self._ctl is not None:
            with contextlib.suppress(Exception):
                await self._ctl.aclose()

    async def _connect(self) -> None:
        """(Re)load the scripts, announce this node and open its inbox; then the link is up."""
        assert self._ctl is not None and self._writer is not None and self._reader is not None
        assert self._calls is not None
        ctl = self._ctl
        for name, source in self._sources.items():
            self._sha[name] = str(await ctl.script_load(source))
        await self._calls.connect()
        await self._writer.connect()
        await self._reader.connect()
        await self._heartbeat()
        if not await ctl.exists(self._inbox):
            # A fresh inbox (first start, or Redis lost it): read it from the start.
            await ctl.xadd(self._inbox, {"k": "hello"})
            self._inbox_id = "0-0"
        await ctl.pexpire(self._inbox, INBOX_TTL_MS)
        was_down = self._down_since is not None
        self.up = True
        self._down_since = None
        log_event("redis_up", node=self.node)
        if was_down and (self._members or self._dropped):
            await self._reconcile()

    async def _heartbeat(self) -> None:
        assert self._ctl is not None
        start = time.perf_counter()
        pipe = self._ctl.pipeline(transaction=False)
        pipe.set(f"{self.prefix}n:{self.node}", b"1", px=NODE_TTL_MS)
        pipe.pexpire(self._inbox, INBOX_TTL_MS)
        # spec §13.6: the bytes passing through this node (§8.7 (b) and (d)), for the other nodes'
        # budgets; not its connections (c), or idle connections on a few nodes could use up every
        # node's budget and refuse every room.
        said = self.relay.inbound.in_flight()
        pipe.set(f"{self.prefix}h:{self.node}", b"%d" % said, px=NODE_TTL_MS)
        pipe.sadd(f"{self.prefix}nodes", self.node)
        _, kept, _, _ = await pipe.execute()
        self.held_said = said
        # A prompt write of a larger value may have gone out meanwhile (another connection) and
        # been overwritten by this one: write again if the bytes are already half a step above.
        self._held_grew()
        self.last_ping_s = time.perf_counter() - start
        if self.up and not kept:
            # The inbox is gone (Redis lost it, or this node stalled past its expiry): entries for
            # it were dropped, so reconnect as after an outage (a fresh inbox, every seat checked).
            raise RedisError("the inbox of this node expired")

    async def _supervise(self) -> None:
        """Heartbeat while the link is up; reconnect while it is down; close held seats if it stays down."""
        while not self._stopping:
            await asyncio.sleep(HEARTBEAT_S if self.up else 0.2)
            try:
                if self.up:
                    await self._heartbeat()
                else:
                    await self._connect()
            except Error as exc:
                self._link_lost(exc)
            if not self.up and self._down_since is not None:
                if time.monotonic() - self._down_since > LINK_HOLD_S:
                    self._drop_all_members()

    def _link_lost(self, exc: BaseException) -> None:
        if self._stopping:
            return
        self.redis_errors += 1
        self.relay.metrics.errors["redis"] += 1
        if not self.up:
            return
        self.up = False
        self._down_since = time.monotonic()
        for member in self._members.values():
            member.settled = False
        # Unconfirmed frames are checked against Redis when it is back; owed AWAY calls are kept.
        self._dropped.extend((job[1].code, job[2], job[1].seat, job[1].owner)
                             for job in self._jobs if job[0] == "away")
        for job in self._jobs:
            if job[0] == "call" and not job[4].done():
                job[4].set_exception(exc)
        self._jobs.clear()
        self._held_queued = False   # the heartbeat after the reconnection writes them again
        log_event("redis_down", logging.WARNING, node=self.node, exc=type(exc).__name__)

    def _drop_all_members(self) -> None:
        """The link stayed down: close every held seat as resumable (1011), so its peer can resume
        on a node that reaches Redis (a balancer sends it there: /healthz says 503)."""
        for member in list(self._members.values()):
            conn = member.conn
            if conn is not None:
                self._forget(member)
                self._dropped.append((member.code, member.epoch, member.seat, member.owner))
                self.relay.close_later(conn, None, 1011, "relay storage unreachable")

    def health(self) -> tuple[bool, str]:
        if self.up:
            return True, f"ok redis=up node={self.node}"
        return False, f"redis unreachable node={self.node}"

    def metrics_lines(self) -> list[str]:
        return [
            "# HELP relay_redis_up Whether this node reaches Redis.",
            "# TYPE relay_redis_up gauge",
            f"relay_redis_up {int(self.up)}",
            "# HELP relay_redis_ping_seconds Round trip of the last heartbeat to Redis.",
            "# TYPE relay_redis_ping_seconds gauge",
            f"relay_redis_ping_seconds {self.last_ping_s:.6f}",
            "# HELP relay_redis_round_trips_total Round trips to Redis (a pipeline counts once).",
            "# TYPE relay_redis_round_trips_total counter",
            f"relay_redis_round_trips_total {self.round_trips}",
            "# HELP relay_redis_round_trip_seconds_total Time spent waiting for those round trips.",
            "# TYPE relay_redis_round_trip_seconds_total counter",
            f"relay_redis_round_trip_seconds_total {self.round_trip_seconds:.6f}",
            "# HELP relay_redis_errors_total Failed Redis calls (lost link, time-outs).",
            "# TYPE relay_redis_errors_total counter",
            f"relay_redis_errors_total {self.redis_errors}",
            "# HELP relay_redis_used_memory_bytes Redis's used_memory at this node's last sweep.",
            "# TYPE relay_redis_used_memory_bytes gauge",
            f"relay_redis_used_memory_bytes {self.redis_memory}",
        ]

    def room_counts(self) -> tuple[int, int]:
        """Rooms with a seat on this node (the cluster-wide count is ZCARD of the rooms set)."""
        codes = {m.code: m.paired for m in self._members.values()}
        paired = sum(1 for p in codes.values() if p)
        return len(codes) - paired, paired

    # -- calling Redis -----------------------------------------------------------------------

    async def _call(self, name: str, *args: str | int | bytes) -> Any:
        """One script for a client's request; a failure (an error reply too) marks the link lost and
        re-raises."""
        start = time.perf_counter()
        try:
            try:
                result = await self._command("EVALSHA", self._sha[name], 0, self.prefix, *args)
            except NoScriptError:   # Redis restarted: its script cache is empty
                assert self._ctl is not None
                self._sha[name] = str(await self._ctl.script_load(self._sources[name]))
                result = await self._command("EVALSHA", self._sha[name], 0, self.prefix, *args)
        except Error as exc:
            self._link_lost(exc)
            raise
        self.round_trips += 1
        self.round_trip_seconds += time.perf_counter() - start
        return result

    async def _command(self, *args: str | int | bytes) -> Any:
        """One command on the calls connection: its reply, an error reply raised."""
        wire = self._calls
        assert wire is not None
        (reply,) = await wire.run(wire.pack(*args), 1)
        if isinstance(reply, Exception):
            raise reply
        return reply

    async def _guarded(self, conn: Connection, name: str, *args: str | int | bytes) -> Any:
        """``_call`` for a client's request: when Redis fails, the client is closed as resumable."""
        if not self.up:
            self.relay.close_later(conn, None, 1011, "relay storage unreachable")
            return None
        try:
            return await self._call(name, *args)
        except Error:
            self.relay.close_later(conn, None, 1011, "relay storage unreachable")
            return None

    async def _ordered(self, conn: Connection, member: Member, name: str, *args: str | int | bytes) -> Any:
        """A script run by the writer after the frames queued before it (a leave must not overtake
        the last frames), for a client's request: when Redis fails, the client is closed (1011)."""
        if not self.up:
            self.relay.close_later(conn, None, 1011, "relay storage unreachable")
            return None
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue(("call", member, name, args, done))
        try:
            return await done
        except Error:
            self.relay.close_later(conn, None, 1011, "relay storage unreachable")
            return None

    def _queue(self, job: tuple[Any, ...]) -> None:
        self._jobs.append(job)
        self._wake.set()

    async def _write_jobs(self) -> None:
        """Frames (and trims) in order, pipelined: everything queued while a round trip was out goes
        in the next one, so a busy node makes few round trips and an idle one adds no wait."""
        while not self._stopping:
            await self._wake.wait()
            self._wake.clear()
            while self._jobs and self.up and not self._stopping:
                batch, self._jobs = self._jobs, []
                batch = [job for job in batch if job[0] in UNSEATED_JOBS or job[1].conn is not None]
                if not batch:
                    continue
                if self._held_queued and len(batch) > 1:
                    # The write of this node's bytes goes first: in the middle of the frames it would
                    # split one FORWARD call in two (stable: the rest keep their order).
                    batch.sort(key=lambda job: job[0] != "held")
                self._batches_sent += 1
                try:
                    try:
                        results = await self._run_batch(batch)
                    except Error as exc:
                        for job in batch:
                            if job[0] == "call" and not job[4].done():
                                job[4].set_exception(exc)
                        self._link_lost(exc)
                        break
                    for job, result in zip(batch, results, strict=True):
                        if job[0] == "forward":
                            await self._forwarded(job, result)
                        elif job[0] == "call" and not job[4].done():
                            job[4].set_result(result)
                        elif job[0] == "held" and isinstance(result, Exception):
                            self.held_said = 0   # not written (Redis refused): write at the next growth
                finally:
                    self._batches_handled += 1
                    self._batch_handled.set()

    async def _after_sent_batches(self) -> None:
        """Wait until the replies of every batch already written are handled. A notice read from
        the inbox was written after every frame Redis had stored by then, and a frame for a seat of
        this node is delivered when its batch's reply is handled (spec §13.3): so a notice never
        overtakes a frame sent before it (the last frames of a peer that leaves come first)."""
        target = self._batches_sent
        while self._batches_handled < target and self.up and not self._stopping:
            self._batch_handled.clear()
            await self._batch_handled.wait()

    async def _run_batch(self, batch: list[tuple[Any, ...]]) -> list[Any]:
        """One write for the whole batch: each run of frames is a single FORWARD call, any other job
        its own script, in queue order; the replies come back as one per job."""
        wire = self._writer
        assert wire is not None
        start = time.perf_counter()
        segments: list[list[tuple[Any, ...]]] = []
        for job in batch:
            last = segments[-1] if segments else None
            if job[0] == "forward" and last is not None and last[0][0] == "forward" and len(last) < 512:
                segments[-1].append(job)
            else:
                segments.append([job])
        for attempt in range(2):
            packed = b"".join(self._pack_segment(wire, segment) for segment in segments)
            replies = await wire.run(packed, len(segments))
            if not any(isinstance(reply, NoScriptError) for reply in replies):
                break
            if attempt:   # a script refused twice over is a bug, not a restart
                raise next(reply for reply in replies if isinstance(reply, NoScriptError))
            # Redis restarted and lost its scripts: load them again; the refused calls did nothing.
            assert self._ctl is not None
            for name, source in self._sources.items():
                self._sha[name] = str(await self._ctl.script_load(source))
        self.round_trips += 1
        self.round_trip_seconds += time.perf_counter() - start
        results: list[Any] = []
        for segment, reply in zip(segments, replies, strict=True):
            if segment[0][0] == "forward" and isinstance(reply, list):
                results.extend(reply)
            else:
                results.extend([reply] * len(segment))
        return results

    def _pack_segment(self, wire: Wire, segment: list[tuple[Any, ...]]) -> bytes:
        job = segment[0]
        kind = job[0]
        if kind == "held":
            # spec §13.6: the value of now, as the batch goes out; only while the heartbeat's key
            # lives (XX), and without extending it (KEEPTTL): the key still says the node is alive.
            self._held_queued = False
            self.held_said = self.relay.inbound.in_flight()
            return wire.pack("SET", f"{self.prefix}h:{self.node}", self.held_said, "XX", "KEEPTTL")
        member: Member = job[1]
        if kind == "forward":
            lim = self.relay.limits
            head = [b"EVALSHA", self._sha["forward"].encode(), b"0", self.prefix.encode(),
                    b"%d" % lim.buffer_frames, b"%d" % lim.buffer_bytes, b"%d" % self._ttl_ms(),
                    b"%d" % self._budget_left(others=False), self.node.encode(), b"%d" % self._held_step()]
            parts = [b"*%d\r\n" % (len(head) + 6 * len(segment)), *(_bulk(item) for item in head)]
            for _, member, epoch, seq, data in segment:
                # code, epoch, seat and owner are packed once per seat and epoch (spec §13.2).
                fixed = member.packed
                if fixed is None or member.packed_epoch != epoch:
                    fixed = b"".join(_bulk(item.encode()) for item in (
                        member.code, epoch, str(member.seat), member.owner))
                    member.packed, member.packed_epoch = fixed, epoch
                parts.append(fixed)
                parts.append(_bulk(b"%d" % seq))
                parts.append(_bulk(data))
            return b"".join(parts)
        if kind == "ack":
            _, _, epoch, received = job
            return wire.pack("EVALSHA", self._sha["ack"], 0, self.prefix, member.code, epoch, member.seat,
                             received)
        if kind == "away":
            return wire.pack("EVALSHA", self._sha["away"], 0, self.prefix, member.code, job[2], member.seat,
                             member.owner)
        return wire.pack("EVALSHA", self._sha[job[2]], 0, self.prefix, *job[3])

    def _ttl_ms(self) -> int:
        return int(self.relay.limits.resume_grace * 1000) + ROOM_TTL_SLACK_MS

    # -- the inbox ---------------------------------------------------------------------------

    async def _read_inbox(self) -> None:
        """Frames and notices for this node's seats, in the order Redis wrote them."""
        wire = self._reader
        assert wire is not None
        while not self._stopping:
            if not self.up:
                await asyncio.sleep(0.1)
                continue
            # spec/relay.md §13.2: what this node has read leaves its inbox (the entries copy frame
            # data, so an inbox trimmed only by length could hold INBOX_MAX frames of 64 KiB), in
            # one XTRIM for every INBOX_TRIM_ENTRIES entries or INBOX_TRIM_S, not one per read. At
            # most READ_COUNT entries read stay untrimmed, and none longer than INBOX_TRIM_S: a read
            # that leaves some behind reads no more than that and waits no longer than the trim.
            read_to = self._inbox_id
            now = time.monotonic()
            due = self._inbox_trim_at + INBOX_TRIM_S
            untrimmed = read_to not in (self._inbox_trimmed, "0-0")
            trim = untrimmed and (self._inbox_read >= INBOX_TRIM_ENTRIES or now >= due)
            count, block = READ_COUNT, BLOCK_MS
            if untrimmed and not trim:
                count = READ_COUNT - self._inbox_read
                block = max(1, min(BLOCK_MS, math.ceil((due - now) * 1000)))
            try:
                packed = wire.pack("XREAD", "COUNT", count, "BLOCK", block, "STREAMS", self._inbox, read_to)
                if trim:
                    packed = wire.pack("XTRIM", self._inbox, "MINID", read_to) + packed
                replies = await wire.run(packed, 2 if trim else 1)
                reply = replies[-1]
                if trim and not isinstance(replies[0], Exception):
                    self._inbox_trimmed, self._inbox_read, self._inbox_trim_at = read_to, 0, now
            except Error as exc:
                self._link_lost(exc)
                continue
            if isinstance(reply, ResponseError):
                self._link_lost(reply)
                continue
            # RESP3 answers XREAD with a map, RESP2 with a list of [stream, entries] pairs.
            streams = reply.items() if isinstance(reply, dict) else reply or ()
            for _stream, entries in streams:
                self._inbox_read += len(entries)
                for entry_id, fields in entries:
                    self._inbox_id = entry_id.decode()
                    try:
                        await self._on_inbox(fields)
                    except Exception:
                        self.relay.metrics.errors["internal"] += 1
                        logging.getLogger("koikoi_relay").exception("inbox entry failed")

    async def _on_inbox(self, fields: list[bytes]) -> None:
        kind = fields[0]
        if kind == b"f":
            code, epoch, seat, seq_text = fields[1].decode().split(":")
            member = self._members.get((code, int(seat)))
            if member is None or member.epoch != epoch:
                return
            if not member.attached:   # a resume replays the stream: it reads this one there
                self._keep_early(member, int(seq_text), fields[3])
                return
            await self._arrived(member, int(seq_text), fields[3])
        elif kind == b"e":
            code, epoch, seat = fields[1].decode().split(":")
            member = self._members.get((code, int(seat)))
            if member is None or member.epoch != epoch:
                return
            values = dict(zip(fields[2::2], fields[3::2], strict=True))
            await self._after_sent_batches()
            await self._on_notice(member, values[b"t"].decode(), values[b"v"].decode(), values[b"x"].decode())

    async def _arrived(self, member: Member, seq: int, data: bytes) -> None:
        """A frame for an attached seat of this node, from the inbox or from a seat of this node:
        the next one is written, a lower one dropped, a higher one fills the hole from the stream."""
        if seq < member.out_count:
            return
        if seq > member.out_count:
            self._keep_early(member, seq, data)
            self.relay.spawn(self._fill(member, seq))   # an entry went elsewhere or was trimmed
            return
        member.out_count = seq + 1
        if member.early:
            self._prune_early(member)
        await self._deliver(member, encode_frame(seq, member.in_count, data))

    @staticmethod
    def _prune_early(member: Member) -> None:
        early = member.early
        for old in [s for s in early if s < member.out_count]:
            del early[old]

    @classmethod
    def _keep_early(cls, member: Member, seq: int, data: bytes) -> None:
        """Keep a frame the seat reads from its stream (a resume's replay, a hole's fill), in case
        the room closes first: the close deletes the stream (spec §13.3: the last frames of a peer
        that leaves come before its leaving). Bounded; beyond the bound the stream is the copy."""
        cls._prune_early(member)
        early = member.early
        if len(early) < EARLY_FRAMES and sum(map(len, early.values())) + len(data) <= EARLY_BYTES:
            early[seq] = data

    async def _on_notice(self, member: Member, target: str, what: str, extra: str) -> None:
        if what == "peer_joined":
            member.paired, member.peer, member.peer_owner = True, "present", extra
            await self._notify(member, encode("peer_joined"))
        elif what == "peer_away":
            member.peer, member.peer_owner = "away", ""
            self._away.setdefault((member.code, 1 - member.seat), (
                member.epoch, time.monotonic() + self.relay.limits.resume_grace, ""))
            await self._notify(member, encode("peer_away"))
        elif what == "peer_back":
            member.peer, member.peer_owner = "present", extra
            self._away.pop((member.code, 1 - member.seat), None)
            await self._notify(member, encode("peer_back"))
        elif what == "closed":
            self._room_closed(member, extra)
        elif what == "rejected" and target == member.owner:
            conn = member.conn
            self._forget(member)
            if conn is not None:
                self.relay.close_later(conn, encode("rejected"), CloseCode.REJECTED, "rejected by host")
        elif what == "replaced" and target == member.owner and extra != member.owner:
            self._replaced(member)

    async def _deliver(self, member: Member, data: bytes) -> None:
        """Write to the member's connection in order, never waiting on a slow reader: the shared
        inbox must not stall behind one client (its frames wait in the backlog instead)."""
        conn = member.conn
        if conn is None:
            return
        if member.backlog or conn.ws.paused:
            self._queue_frame(member, conn, data)
            return
        await send_message(conn.ws, data)

    def _queue_frame(self, member: Member, conn: Connection, data: bytes) -> None:
        """Put ``data`` behind the member's backlog, which a task writes in order."""
        member.backlog.append(data)
        if len(member.backlog) == 1:
            member.drainer = self.relay.spawn(self._drain(conn, member.backlog))

    @staticmethod
    async def _drain(conn: Connection, backlog: deque[bytes]) -> None:
        """Write ``backlog`` to ``conn`` in order. The seat may be forgotten meanwhile: a backlog
        it drops is cleared (and replaced), one its closing notice waits for is written out."""
        while backlog:
            data = backlog[0]
            try:
                await conn.ws.send(data)
            except ConnectionClosed:
                backlog.clear()
                return
            if backlog:
                backlog.popleft()

    async def _fill(self, member: Member, upto: int = -1) -> None:
        """Deliver from the room stream what the inbox did not bring (spec §8: none lost, none twice).
        ``upto``: a frame known to be stored (the one that showed the hole); a stream that no longer
        reaches it lost frames to an eviction (§13.6), and the seat is told (§13.4), not left waiting."""
        conn, epoch = member.conn, member.epoch
        # A reopened room (reject: a new epoch, counts from 0) ends this fill: its hole was the old epoch's.
        while member.conn is conn and conn is not None and member.attached and self.up \
                and member.epoch == epoch:
            start = member.out_count
            entries = await self._xrange(member, start)
            if entries is None:
                return
            if member.conn is not conn or member.epoch != epoch or member.out_count != start:
                continue   # something was delivered meanwhile: read again from the new count
            if not entries:
                if member.out_count <= upto:
                    await self._closed_or_lost(member, epoch, "the frames this seat needs were evicted")
                return
            for seq, data in entries:
                if member.epoch != epoch:
                    return
                if seq != member.out_count:
                    if seq > member.out_count:
                        await self._history_lost(member, "the frames this seat needs were trimmed")
                        return
                    continue
                member.out_count = seq + 1
                await self._deliver(member, encode_frame(seq, member.in_count, data))

    async def _xrange(self, member: Member, start: int) -> list[tuple[int, bytes]] | None:
        """Up to REPLAY_COUNT buffered frames for the member's seat from ``start`` (None: link lost)."""
        key = self._stream(member.code, member.epoch, member.seat)
        try:
            entries: Any = await self._command("XRANGE", key, f"0-{start + 1}", "+", "COUNT", REPLAY_COUNT)
        except Error as exc:
            self._link_lost(exc)
            return None
        # An entry: its id and its fields as a flat list (field ``d``, the data: §13.2).
        return [(int(entry_id.split(b"-")[1]) - 1, dict(zip(fields[::2], fields[1::2], strict=True))[b"d"])
                for entry_id, fields in entries]

    # -- frames ------------------------------------------------------------------------------

    async def frame(self, conn: Connection, msg: Frame) -> None:
        relay = self.relay
        member: Member | None = conn.member
        if member is None:
            await relay.error(conn, "not_in_room", "create or join a room first")
            return
        if len(msg.data) > relay.limits.max_frame_bytes:
            limit = relay.limits.max_frame_bytes
            await relay.error(conn, "frame_too_large", f"frame data is limited to {limit} bytes")
            return
        if not member.paired:
            await relay.error(conn, "no_peer", "no peer in the room yet")
            return
        if msg.ack is not None:
            self._client_ack(member, msg.ack)
        if not (self.up and member.settled):
            # spec §13.7: while Redis is down or the seat's counts are not checked again, no frame
            # is judged (in_next may count frames Redis never stored): none stored, none refused;
            # the sync sent after the check says where to resend from.
            return
        if msg.seq < member.in_next:
            return
        if msg.seq > member.in_next:
            if not conn.gap_reported:
                conn.gap_reported = True
                await relay.error(conn, "frame_gap", f"expected seq {member.in_next}")
            return
        conn.gap_reported = False   # spec §5.2: a gap is refused once until the next accepted frame
        member.in_next += 1
        self._queue(("forward", member, member.epoch, msg.seq, msg.data))

    async def _forwarded(self, job: tuple[Any, ...], result: Any) -> None:
        _, member, epoch, seq, data = job
        if isinstance(result, int) and result > FWD_LOCAL:
            # Stored, and the recipient's owner is this node (spec §13.3): no inbox entry was made.
            result -= FWD_LOCAL
            peer = self._members.get((member.code, 1 - member.seat))
            if peer is not None and peer.epoch == epoch and peer.conn is not None:
                if peer.attached:
                    await self._arrived(peer, seq, data)
                else:   # its resume replays the stream, which holds this frame
                    self._keep_early(peer, seq, data)
        if member.epoch != epoch or member.conn is None:
            return
        if isinstance(result, int) and result > 0:
            member.in_count = max(member.in_count, result)
            self.relay.metrics.frames_forwarded_total += 1
            self.relay.metrics.bytes_forwarded_total += len(data)
            conn = member.conn
            if member.in_count - member.acked_to_client >= ACK_EVERY and conn is not None:
                member.acked_to_client = member.in_count
                await self.relay.send(conn, encode("ack", seq=member.in_count))
            return
        if not isinstance(result, int):
            raise result if isinstance(result, Exception) else RedisError("unexpected forward reply")
        if FWD_GAP < result <= FWD_DUP:
            member.in_count = max(member.in_count, FWD_DUP - result)
        elif seq >= member.in_next:
            return   # submitted before a reset of the counts: stale
        elif result <= FWD_GAP:
            await self._history_lost(member, "Redis has fewer frames of this seat than it confirmed")
        elif result == FWD_LOST:
            await self._closed_or_lost(member, epoch, "the room's history is gone")
        elif result == FWD_REPLACED:
            self._replaced(member)
        elif result == FWD_NO_PEER:
            member.in_next = member.in_count
            member.paired = False
            if member.conn is not None:
                await self.relay.error(member.conn, "no_peer", "no peer in the room yet")

    def _client_ack(self, member: Member, received: int) -> None:
        received = min(received, member.out_count)
        if received <= member.client_acked:
            return
        member.client_acked = received
        if received - member.trimmed >= ACK_EVERY and self.up:
            member.trimmed = received
            self._queue(("ack", member, member.epoch, received))

    async def ack(self, conn: Connection, seq: int) -> None:
        if conn.member is not None:
            self._client_ack(conn.member, seq)

    async def sync(self, conn: Connection, msg: Sync) -> None:
        """Re-send what the client has not received and tell it our counts (spec §5.5)."""
        relay = self.relay
        member: Member | None = conn.member
        if member is None:
            await relay.error(conn, "not_in_room", "create or join a room first")
            return
        received = min(msg.received, member.out_count)
        self._client_ack(member, received)
        if self.up and member.attached:
            # The count before the read: frames stored and delivered while the read is out (a
            # seat of this node forwarding, §13.3) are not in what it returns, and are no gap.
            delivered, epoch = member.out_count, member.epoch
            entries = await self._read_stream(member, received)
            if entries is None:
                return
            if member.conn is not conn or member.epoch != epoch:
                return   # replaced or reopened while the read was out: this sync is stale
            if (entries and entries[0][0] > received) or (not entries and received < delivered):
                await self._history_lost(member, "missed frames not buffered", sync=True)
                return
            for seq, data in entries:
                member.out_count = max(member.out_count, seq + 1)
                await self._deliver(member, encode_frame(seq, member.in_count, data))
        member.acked_to_client = member.in_count
        await self._deliver(member, encode("sync", accepted=member.in_count, sent=member.out_count))

    async def _read_stream(self, member: Member, start: int) -> list[tuple[int, bytes]] | None:
        """Every buffered frame for the member's seat from ``start`` (None: the link failed)."""
        out: list[tuple[int, bytes]] = []
        while True:
            entries = await self._xrange(member, start)
            if entries is None:
                return None
            out.extend(entries)
            if len(entries) < REPLAY_COUNT:
                return out
            start = out[-1][0] + 1

    # -- rooms -------------------------------------------------------------------------------

    def _add_member(self, conn: Connection, member: Member) -> None:
        old = self._members.get(member.key)
        if old is not None and old.conn is not None and old.conn is not conn:
            self._replaced(old)
        self._members[member.key] = member
        self._away.pop(member.key, None)
        conn.member = member

    def _forget(self, member: Member, keep_backlog: bool = False) -> None:
        """This node no longer holds the seat through that connection. Its frames not yet written
        are dropped, unless ``keep_backlog`` (they are still written, ahead of a closing notice)."""
        conn = member.conn
        member.conn = None
        member.release_pending(keep_backlog)
        if self._members.get(member.key) is member:
            del self._members[member.key]
        if conn is not None and conn.member is member:
            conn.member = None
            conn.attached = False

    def _replaced(self, member: Member) -> None:
        conn = member.conn
        self._forget(member)
        if conn is not None:
            self.relay.close_later(conn, None, CloseCode.REPLACED, "replaced by a resumed connection")

    def _room_closed(self, member: Member, reason: str) -> None:
        conn = member.conn
        # The frames delivered before the room closed reach the seat before it hears why (the
        # peer's last move, then its leaving): those kept while it read its stream, which the close
        # deleted, join the backlog, and the notice waits for the backlog being written.
        if conn is not None:
            seq = member.out_count
            while seq in member.early:
                self._queue_frame(member, conn, encode_frame(seq, member.in_count, member.early[seq]))
                seq += 1
            member.out_count = seq
        pending = member.drainer if member.backlog else None
        self._forget(member, keep_backlog=True)
        self._away.pop((member.code, 0), None)
        self._away.pop((member.code, 1), None)
        if conn is None:
            return
        log_event("room_closed", conn=conn.serial, reason=reason)
        if reason == "room_expired":
            self.relay.metrics.errors["room_expired"] += 1
            self.relay.close_later(conn, encode("error", reason=reason, message="room closed"),
                                   CloseCode.IDLE, reason, after=pending)
        else:
            self.relay.close_later(conn, encode("peer_left", reason=reason), CloseCode.ROOM_CLOSED, reason,
                                   after=pending)

    async def _closed_or_lost(self, member: Member, epoch: str, why: str) -> None:
        """Frames of ``epoch`` this seat needs are gone: a room that closed (its tombstone says
        why) ends as closed, the seat told its reason; otherwise its history is lost (resume_gap)."""
        try:
            reason: Any = await self._command("GET", f"{self.prefix}x:{member.code}:{epoch}")
        except Error as exc:
            # Not knowing is not "no tombstone": the seat stays for the reconciliation after the
            # outage (§13.7) instead of being refused with resume_gap for a room that may be fine.
            self._link_lost(exc)
            return
        if reason:
            self._room_closed(member, bytes(reason).decode())
            return
        if member.epoch == epoch:
            await self._history_lost(member, why)

    async def _history_lost(self, member: Member, why: str, *, sync: bool = False) -> None:
        """The frames this seat needs are gone: close the room (its peer gets peer_left resume_failed)
        and refuse this seat with resume_gap (spec §8), never a silent gap."""
        conn = member.conn
        log_event("resume_gap", conn=conn.serial if conn else 0, why=why)
        self._forget(member)
        if self.up:
            with contextlib.suppress(*Error):
                await self._call("close", member.code, member.epoch, "resume_failed", member.owner)
        if conn is not None:
            await self.relay.fail(conn, "resume_gap", CloseCode.RESUME_FAILED, "missed frames not buffered")

    async def create(self, conn: Connection, msg: Create) -> None:
        relay = self.relay
        if conn.in_room:
            await relay.error(conn, "already_in_room", "one room per connection at a time")
            return
        if conn.rooms_created >= relay.limits.max_rooms_per_connection:
            await relay.error(conn, "too_many_rooms", "room creation limit of this connection reached")
            return
        token = relay.new_token()
        epoch = secrets.token_hex(8)
        owner = self._owner(conn)
        meta = msgpack.packb(msg.meta, use_bin_type=True)
        listing = b"" if msg.listing is None else msgpack.packb(msg.listing, use_bin_type=True)
        tag = msg.meta.get("rejoin")
        # The lobby set that lists the room: the public one, its rejoin tag's, or none (a rejoin
        # value that is no string is never listed, as in the single process).
        lobby_key = "" if not msg.public or ("rejoin" in msg.meta and not isinstance(tag, str)) else \
            self._lobby_key(tag if isinstance(tag, str) else None)
        lim = relay.limits
        for _ in range(64):
            code = generate_code(relay.choose)
            result = await self._guarded(conn, "create", code, token, token[:8].hex(), epoch, lobby_key, meta,
                                         owner, lim.max_rooms, self._ttl_ms(), conn.source,
                                         lim.max_rooms_per_source, self._budget_left(), lim.buffer_bytes,
                                         listing)
            if result is None:
                return
            if result[0] == b"full":
                await relay.error(conn, "relay_full", "room limit reached")
                return
            if result[0] == b"source":
                await relay.error(conn, "source_rooms", "too many live rooms from this address")
                return
            if result[0] == b"busy":
                await relay.error(conn, "relay_busy", "the relay's buffer budget is spent; try again later")
                return
            if result[0] == b"ok":
                break
        else:
            await relay.error(conn, "relay_full", "no free room code")
            return
        member = Member(conn, code, 0, epoch, owner, relay.clock())
        self._add_member(conn, member)
        self._lobby_replies.pop(lobby_key, None)
        conn.rooms_created += 1
        relay.metrics.rooms_created_total += 1
        log_event("room_created", conn=conn.serial, public=msg.public, node=self.node)
        await relay.send(conn, encode(
            "created", code=code, token=token, seat=0, limits=relay.limits.public()))

    async def join(self, conn: Connection, msg: Join) -> None:
        relay = self.relay
        if conn.in_room:
            await relay.error(conn, "already_in_room", "one room per connection at a time")
            return
        code = normalize_code(msg.code)
        if code is None:
            await relay.bad_join(conn)
            return
        token = relay.new_token()
        owner = self._owner(conn)
        result = await self._guarded(conn, "join", code, token, token[:8].hex(), owner, self._ttl_ms())
        if result is None:
            return
        if result[0] == b"none":
            await relay.bad_join(conn)
            return
        if result[0] == b"full":
            await relay.error(conn, "room_full", "the room already has two peers")
            return
        _, epoch, meta, presence, host = result
        self._lobby_replies.clear()   # the room left a listing (which one, this node need not know)
        member = Member(conn, code, 1, epoch.decode(), owner, relay.clock())
        member.peer, member.peer_owner = presence.decode(), host.decode()
        self._add_member(conn, member)
        if member.peer == "away":
            self._away.setdefault((code, 0), (member.epoch, time.monotonic() + relay.limits.resume_grace,
                                              member.peer_owner))
        log_event("room_joined", conn=conn.serial, node=self.node)
        await relay.send(conn, encode(
            "joined", code=code, token=token, seat=1, meta=msgpack.unpackb(meta, raw=False),
            peer=member.peer, limits=relay.limits.public()))

    def _lobby_key(self, tag: str | None) -> str:
        """The sorted set listing the public rooms (``tag`` None) or the rejoin rooms of a tag."""
        return f"{self.prefix}lobby" if tag is None else f"{self.prefix}lobby:{tag}"

    def buffered_bytes(self) -> int:
        return self.buffered

    def _budget_left(self, others: bool = True) -> int:
        """The budget the Redis buffers may use (spec/relay.md §8.7, §13.6): ``max_buffered_bytes``
        less what this node holds itself now (bytes read and not yet handled, write buffers,
        connections) and the bytes passing through the others as read at the last sweep (at least
        1: 0 would mean no budget). ``others`` False: not the others' (a frame's call reads them in
        Redis itself, as they are when it runs)."""
        lim = self.relay.limits
        if lim.max_redis_bytes and self.redis_memory > lim.max_redis_bytes:
            return 1   # §13.6: Redis is over its own budget: no new room, every stream at its low mark
        if not lim.max_buffered_bytes:
            return 0
        others_held = self.others_held if others else 0
        return max(1, lim.max_buffered_bytes - self.relay.inbound.held() - others_held)

    def _held_step(self) -> int:
        return max(1, self.relay.limits.max_buffered_bytes // HELD_STEPS)

    def _held_grew(self) -> None:
        """This node's bytes grew (the hot path: every read). Once its parts (b) and (d) are half a
        step above what Redis has, the next batch writes them (spec §13.6): the other nodes' frames
        then leave Redis's buffers that much less, without waiting for the heartbeat."""
        inbound = self.relay.inbound
        if inbound.total + inbound.outbound - self.held_said >= self._held_half \
                and not self._held_queued and self.up and self._held_half:
            self._held_queued = True
            self._queue(("held",))

    async def lobby(self, conn: Connection, msg: Lobby) -> None:
        # Each tag's rooms have their own sorted set, holding only what a lobby lists (spec §13.2),
        # so one call examines at most lobby_max + LOBBY_SLACK entries; its reply is reused for
        # LOBBY_REPLY_S (or until this node changes a listing).
        relay = self.relay
        key = self._lobby_key(msg.rejoin)
        now_s = relay.clock()
        kept = self._lobby_replies.get(key)
        if kept is not None and now_s - kept[0] < LOBBY_REPLY_S:
            await relay.send(conn, kept[1])
            return
        lim = relay.limits
        result = await self._guarded(conn, "lobby", lim.lobby_max, key, lim.lobby_max + LOBBY_SLACK)
        if result is None:
            return
        now = int(result[0])
        listed = []
        size = 16
        for i in range(1, len(result) - 3, 4):
            entry = {"code": result[i].decode(), "meta": msgpack.unpackb(result[i + 1], raw=False),
                     "age": max(0, (now - int(result[i + 2])) // 1000),
                     "listing": msgpack.unpackb(result[i + 3], raw=False) if result[i + 3] else None}
            size += len(msgpack.packb(entry, use_bin_type=True))
            if size > lim.lobby_max_bytes:
                break
            listed.append(entry)
        reply = encode("rooms", rooms=listed)
        if len(self._lobby_replies) >= 1024:
            self._lobby_replies.clear()
        self._lobby_replies[key] = (now_s, reply)
        await relay.send(conn, reply)

    async def reject(self, conn: Connection) -> None:
        relay = self.relay
        member: Member | None = conn.member
        if member is None or member.seat != 0:
            await relay.error(conn, "not_host", "only the host of a room can reject its peer")
            return
        if not member.paired:
            await relay.error(conn, "no_peer", "no peer to reject")
            return
        fresh = secrets.token_hex(8)
        result = await self._guarded(conn, "reject", member.code, member.epoch, member.owner, fresh)
        if result is None:
            return
        status = result[0]
        if status == b"no_peer":
            await relay.error(conn, "no_peer", "no peer to reject")
            return
        if status == b"replaced":
            self._replaced(member)
            return
        if status == b"lost":
            if result[1]:
                self._room_closed(member, result[1].decode())
            else:
                await self._history_lost(member, "the room's history is gone")
            return
        # spec §5.3: a new peer restarts both directions at seq 0, under a new epoch.
        self._lobby_replies.clear()
        member.epoch = fresh
        member.in_next = member.in_count = member.acked_to_client = member.out_count = 0
        member.client_acked = member.trimmed = 0
        member.paired, member.peer, member.peer_owner = False, "none", ""
        member.release_pending()   # the old epoch's frames
        self._away.pop((member.code, 1), None)
        log_event("peer_rejected", conn=conn.serial)
        await relay.send(conn, encode("reopened"))

    async def leave(self, conn: Connection) -> None:
        member: Member | None = conn.member
        if member is None:
            await self.relay.error(conn, "not_in_room", "not in a room")
            return
        log_event("room_left", conn=conn.serial)
        result = await self._ordered(conn, member, "close", member.code, member.epoch, "left", member.owner)
        self._forget(member)
        self._away.pop((member.code, 1 - member.seat), None)
        if result is not None:
            await self.relay.send(conn, encode("left"))

    async def resume(self, conn: Connection, msg: Resume) -> None:
        relay = self.relay
        if conn.in_room:
            await relay.error(conn, "already_in_room", "one room per connection at a time")
            return
        found = await self._guarded(conn, "lookup", msg.token[:8].hex())
        if conn.closing:
            return
        # spec §8.3: found by the token's id, then the whole token compared in constant time.
        stored = bytes(found[3]) if found else b""
        if len(stored) != TOKEN_BYTES or not secrets.compare_digest(stored, msg.token):
            await relay.fail(conn, "resume_unknown", CloseCode.RESUME_FAILED, "no seat has this token")
            return
        code, seat, epoch = found[0].decode(), int(found[1]), found[2].decode()
        owner = self._owner(conn)
        result = await self._guarded(conn, "take", code, seat, epoch, msg.token, owner, msg.received)
        if result is None:
            return
        status = result[0]
        if status == b"unknown":
            await relay.fail(conn, "resume_unknown", CloseCode.RESUME_FAILED, "no seat has this token")
            return
        if status == b"bad":
            await relay.fail(conn, "bad_resume", CloseCode.RESUME_FAILED, "claims more frames than sent")
            return
        if status == b"gap":
            log_event("resume_gap", conn=conn.serial)
            await relay.fail(conn, "resume_gap", CloseCode.RESUME_FAILED, "missed frames beyond the buffer")
            return
        _, accepted, sent, presence, meta, peer_owner, _old = result
        member = Member(conn, code, seat, epoch, owner, relay.clock())
        member.in_next = member.in_count = member.acked_to_client = int(accepted)
        member.out_count = member.client_acked = member.trimmed = msg.received
        member.paired = presence != b"none"
        member.peer, member.peer_owner = presence.decode(), peer_owner.decode() if peer_owner else ""
        member.attached = False
        self._add_member(conn, member)
        conn.attached = False
        relay.metrics.resumes_total += 1
        log_event("resumed", conn=conn.serial, seat=seat, node=self.node)
        await relay.send(conn, encode(
            "resumed", code=code, seat=seat, accepted=member.in_count, peer=member.peer,
            meta=msgpack.unpackb(meta, raw=False), limits=relay.limits.public()))
        # Replay from the stream until caught up; the inbox is ignored meanwhile, so the order holds,
        # and one more read after attaching catches what raced with the last one.
        while member.conn is conn:
            entries = await self._read_stream(member, member.out_count)
            if entries is None or member.conn is not conn:
                return   # closed, replaced or gone while reading: what was read goes nowhere
            if entries and entries[0][0] > member.out_count:
                await self._history_lost(member, "missed frames not buffered")
                return
            pending = [(seq, data) for seq, data in entries if seq >= member.out_count]
            if not pending:
                if member.out_count < int(sent):
                    # TAKE found them; a close or an eviction (§13.6) took them since: never a silent gap.
                    await self._closed_or_lost(member, epoch, "missed frames evicted")
                    return
                member.attached = conn.attached = True
                break
            # Through the backlog, whose writer a closing notice waits for.
            for seq, data in pending:
                member.out_count = seq + 1
                self._queue_frame(member, conn, encode_frame(seq, member.in_count, data))
            if member.drainer is not None:
                await asyncio.wait([member.drainer])
        if member.conn is conn:
            self.relay.spawn(self._fill(member))
            if member.paired:
                with contextlib.suppress(*Error):
                    await self._call("notify", code, epoch, 1 - seat, "peer_back", owner)
            if member.peer == "away":
                self._away.setdefault((code, 1 - seat), (epoch, time.monotonic() + relay.limits.resume_grace,
                                                         member.peer_owner))

    async def _notify(self, member: Member, data: bytes) -> None:
        if member.conn is not None and member.attached:
            await self._deliver(member, data)

    def disconnected(self, conn: Connection) -> None:
        member: Member | None = conn.member
        if member is None:
            return
        self._forget(member)
        log_event("seat_away", conn=conn.serial)
        self._away[member.key] = (member.epoch, time.monotonic() + self.relay.limits.resume_grace, "")
        if self.up:
            # Through the writer, after the frames this connection sent: they cannot re-take the seat.
            self._queue(("away", member, member.epoch, 0))
        else:
            self._dropped.append((member.code, member.epoch, member.seat, member.owner))

    async def _send_dropped(self) -> None:
        dropped, self._dropped = self._dropped, []
        try:
            for code, epoch, seat, owner in dropped:
                await self._call("away", code, epoch, seat, owner)
        except Error:
            self._dropped.extend(dropped)

    # -- outages -----------------------------------------------------------------------------

    async def _reconcile(self) -> None:
        """After an outage: each held seat continues only if Redis still has what this node confirmed."""
        await self._send_dropped()
        for member in list(self._members.values()):
            if member.conn is None:
                continue
            try:
                result = await self._call("check", member.code, member.epoch, member.seat)
            except Error:
                return
            if result[0] == b"lost":
                if result[1]:
                    self._room_closed(member, result[1].decode())
                else:
                    await self._history_lost(member, "Redis lost the room")
                continue
            owner, mine, theirs = result[1].decode(), int(result[2]), int(result[3])
            if owner not in ("", member.owner):
                self._replaced(member)
                continue
            if mine < member.in_count or theirs < member.out_count:
                await self._history_lost(member, "Redis lost frames it had confirmed")
                continue
            if owner == "":   # marked away meanwhile (our heartbeat stopped): take the seat back
                with contextlib.suppress(*Error):
                    await self._call("reclaim", member.code, member.epoch, member.seat, member.owner)
            # Submitted frames Redis did not store are sent again by the client after this sync.
            member.in_count = member.in_next = mine
            paired, peer_owner = result[4] == b"1", result[5].decode()
            # Notices may have been lost with the link: tell the client what changed meanwhile.
            if paired and not member.paired:
                member.paired, member.peer = True, "present"
                await self._notify(member, encode("peer_joined"))
            if paired and peer_owner == "" and member.peer == "present":
                member.peer = "away"
                self._away.setdefault((member.code, 1 - member.seat), (
                    member.epoch, time.monotonic() + self.relay.limits.resume_grace, ""))
                await self._notify(member, encode("peer_away"))
            elif paired and peer_owner and member.peer == "away":
                member.peer = "present"
                await self._notify(member, encode("peer_back"))
            member.paired, member.peer_owner = paired, peer_owner
            conn = member.conn
            if conn is not None:
                member.settled = True
                # This sync already says where to resend from, as a frame_gap would (§5.2): frames
                # the client sent before it arrives are no gap to refuse.
                conn.gap_reported = True
                self.relay.spawn(self._fill(member))
                await self._deliver(member, encode("sync", accepted=member.in_count, sent=member.out_count))

    # -- expiry ------------------------------------------------------------------------------

    async def sweep(self, now: float) -> None:
        # spec §5.5: frames unacknowledged for a whole sweep may have been lost at the tail.
        probes = Sweep()
        for index, member in enumerate(list(self._members.values())):
            if index and not index % SWEEP_SLICE:
                await asyncio.sleep(0)   # the event loop free between slices, as the local sweep
            if self._members.get(member.key) is not member:
                continue   # gone meanwhile
            first = member.client_acked if member.client_acked < member.out_count else -1
            if probes.due(member, first, member.conn is not None and member.attached):
                probe = encode("sync", accepted=member.in_count, sent=member.out_count)
                self.relay.spawn(self._deliver(member, probe))
        if self.up and not self._sweeping:
            self._sweeping = True
            self.relay.spawn(self._sweep_redis(now))

    async def _sweep_redis(self, now: float) -> None:
        try:
            assert self._ctl is not None
            self.buffered = int(await self._ctl.get(f"{self.prefix}buf") or 0)
            await self._read_others_held()
            if self.relay.limits.max_redis_bytes:
                memory: Any = await self._ctl.info("memory")
                self.redis_memory = int(memory["used_memory"])
            await self._refresh_rooms(now)
            await self._check_peers()
            await self._expire_away()
            await self._expire_idle(now)
        except Error:
            pass
        finally:
            self._sweeping = False

    async def _read_others_held(self) -> None:
        """What the other live nodes hold themselves, as each last wrote it (§13.6);
        a node whose word has expired is dead and leaves the set of nodes."""
        assert self._ctl is not None
        names: set[bytes] = await self._ctl.smembers(f"{self.prefix}nodes")  # type: ignore[assignment]
        others = [name.decode() for name in names if name.decode() != self.node]
        if not others:
            self.others_held = 0
            return
        values = await self._ctl.mget([f"{self.prefix}h:{name}" for name in others])
        gone = [name for name, value in zip(others, values, strict=True) if value is None]
        if gone:
            await self._ctl.srem(f"{self.prefix}nodes", *gone)
        self.others_held = sum(int(value) for value in values if value is not None)

    async def _refresh_rooms(self, now: float) -> None:
        """Keep the expiry of served rooms ahead; record activity for the idle timeout."""
        assert self._ctl is not None
        lim = self.relay.limits
        every = max(1.0, min(lim.resume_grace, lim.room_idle_timeout) / 4)
        calls: list[tuple[str, str, str]] = []
        for member in self._members.values():
            if now - member.refreshed >= every:
                active = member.last_active > member.refreshed
                member.refreshed = now
                calls.append((member.code, member.epoch, "1" if active else "0"))
        for (code, seat), (epoch, _, _) in list(self._away.items()):
            if (code, 1 - seat) not in self._members:
                calls.append((code, epoch, "0"))
        ttl = self._ttl_ms()
        for start in range(0, len(calls), 500):
            pipe = self._ctl.pipeline(transaction=False)
            for code, epoch, flag in calls[start:start + 500]:
                pipe.evalsha(self._sha["refresh"], 0, self.prefix, code, epoch, ttl, flag)
            try:
                await pipe.execute()
            except Error as exc:
                self._link_lost(exc)
                raise

    async def _check_peers(self) -> None:
        """A peer held by a node whose heartbeat stopped is away from now on."""
        owners = {m.peer_owner for m in self._members.values() if m.peer_owner and m.peer == "present"}
        nodes = {owner.split(":", 1)[0] for owner in owners} - {self.node}
        if not nodes:
            return
        assert self._ctl is not None
        dead = set()
        for node in nodes:
            if not await self._ctl.exists(f"{self.prefix}n:{node}"):
                dead.add(node)
        for member in list(self._members.values()):
            if member.peer_owner and member.peer_owner.split(":", 1)[0] in dead:
                await self._call("expire_away", member.code, member.epoch, 1 - member.seat,
                                 int(self.relay.limits.resume_grace * 1000), member.peer_owner)

    async def _expire_away(self) -> None:
        now = time.monotonic()
        grace_ms = int(self.relay.limits.resume_grace * 1000)
        for key, (epoch, deadline, dead) in list(self._away.items()):
            if now < deadline:
                continue
            code, seat = key
            result = await self._call("expire_away", code, epoch, seat, grace_ms, dead)
            status = result[0]
            if status == b"away":
                self._away[key] = (epoch, now + int(result[1]) / 1000, "")
            else:
                self._away.pop(key, None)

    async def _expire_idle(self, now: float) -> None:
        idle = self.relay.limits.room_idle_timeout
        for member in list(self._members.values()):
            if now - member.last_active > idle:
                peer = self._members.get((member.code, 1 - member.seat))
                if peer is not None and now - peer.last_active <= idle:
                    continue
                await self._call("idle", member.code, member.epoch, int(idle * 1000))


__all__: Sequence[str] = ["Member", "RedisRooms", "Wire"]
