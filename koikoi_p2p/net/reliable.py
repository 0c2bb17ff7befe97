"""A reliable link: in-order, exactly-once delivery of opaque frames over a transport that fails.

The relay already buffers frames for a client that reconnects, but a relay that restarts loses
its buffer, and a faulty relay (or the chaos proxy) drops, duplicates and reorders frames. The
secure channel refuses gaps and reordering (its sequence numbers and hash chain are the proof of
integrity), so something below it must put frames back in order without weakening those checks.
That is this link: a small selective-repeat protocol between the two peers, inside the relay's
frames and outside the channel.

Theory of operation (spec/protocol.md, "Faults and recovery"):

- Each link instance draws a random 8-byte id when it starts. A pairing is (my id, peer id).
- Link frames: ``HELLO(from, to, challenge)``, ``DATA(from, to, n, payload)``, ``ACK(from, to, next)``,
  ``PING``/``PONG(from, to)``, ``PROOF(from, to, mac)``.
  ``n`` counts DATA frames of one direction of one pairing from 0; ``next`` is cumulative.
- The sender keeps every DATA frame until it is acknowledged, retransmits the unacknowledged ones
  when no acknowledgement progressed for a while (exponential backoff) and at once after a
  reconnect. The receiver delivers frames in ``n`` order, holds early ones, drops duplicates and
  acknowledges after every DATA frame.
- Memory is bounded in bytes: early frames per pairing (``early_bytes``) and the delivery queue
  (``queue_bytes``: delivered, not yet taken by ``recv``). A frame that fits neither is not kept
  and so not acknowledged (back-pressure): an honest sender re-sends it once the caller has read,
  so a slow reader loses nothing, and a flood costs the link no more than the bounds.
- A transport that fails is replaced through ``connect`` with exponential backoff and jitter;
  the link gives up (LinkClosed "unreachable") only after ``give_up_s`` without success.
- A HELLO or frame from a new peer id means the peer process restarted (a crash and resume), or
  a stranger joined the room while the two seats paired again. The pairing is reset, and
  ``on_reset`` tells the driver, which re-sends its own record of sent but unaccepted envelopes;
  the peer's channel ignores the exact duplicates among them. Ids carry no proof, so the driver
  says which pairing is real: ``vouch()`` after a payload that authenticated (the old ids are then
  retired for good), ``reject()`` after one that did not (that id is retired, we take a fresh id
  and pair again). Until a new pairing is vouched for, the id it displaced is kept: if that peer
  speaks again, the link pairs with it again under a fresh id of its own, so both sides restart
  their counters (a stranger delays the pair, it cannot cut it off).
- Keepalive: with ``dead_after_s`` set, the link pings the peer and, when nothing came from it
  for that long, drops the transport and connects again: through the relay this is how a
  survivor notices that the other seat crashed (the relay only sees a seat "away") and pairs
  again with its restarted process. With ``vouching``, only the real peer keeps a connection
  alive: frames count for liveness (and ACKs are taken) only once the caller has vouched for a
  payload that came on this very connection, so a stranger in a rejoin room that answers
  HELLOs and PINGs (even under the peer's id, which our HELLO names) is dropped after
  ``dead_after_s`` like silence, and the room is opened again. ``on_connect`` asks the caller
  for such a payload after every reconnection (a repeat of a frame the peer already holds is
  enough), and ``give_up_s`` then also bounds the time without a live connection. A transport
  that says where the relay shows the other seat (``peer``, a relay client) makes it quicker: a
  seat shown "away" for ``away_after_s`` without coming back is treated as silent (the peer's
  process may have died with its resume token; a rejoin room brings it back).
- With ``vouching=True`` the caller says which pairing is real (``vouch``/``reject`` above);
  without it any new id is trusted at once, as a bare link over a private transport may.
- With ``confirm=True`` an ACK covers only frames the caller confirmed after saving them, so a
  sender that sees everything acknowledged knows the peer would still have it after a crash
  (the resumable driver relies on it before it exits at the end of a match).
- Liveness proofs (spec/protocol.md §12.2 item 4): once the session exists the caller gives the
  link a key only the two seats hold (``set_liveness_key``). From then on a payload that
  authenticates is delivered but proves nothing (a repeat of an old frame does authenticate);
  each connection's HELLO carries a fresh random challenge, the peer answers with
  ``PROOF = HMAC-SHA-256(key, label || challenger id || prover id || challenge)``, and only a
  valid proof for our current challenge makes the connection live and the pairing vouched. A
  bad proof is dropped and counted, never fatal.
- Link frames carry no signature: a relay can forge or withhold them, which costs liveness only
  (it could drop everything anyway). Integrity stays with the channel above.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import random
import secrets
import struct
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass

from koikoi_p2p.protocol.transport import Transport, TransportClosed

HELLO, DATA, ACK, PING, PONG, PROOF = 1, 2, 3, 4, 5, 6
ID_BYTES = 8
CHALLENGE_BYTES = 16
PROOF_BYTES = 32
#: Domain of the liveness MAC (spec/protocol.md §12.2 item 4).
LIVENESS_LABEL = b"koikoi-p2p/v2/link-liveness"
NO_ID = bytes(ID_BYTES)
_HEAD = struct.Struct(">B8s8s")
_COUNT = struct.Struct(">I")
MAX_COUNT = 2**32 - 1
#: Upper bound of one payload: a frame larger than this never came from an honest peer.
MAX_PAYLOAD = 1 << 20
#: Displaced ids kept while a new pairing is unproven (older ones are retired).
MAX_DISPLACED = 8
AWAY_AFTER_S = 3.0   # spec/protocol.md §12.1 rule 5: a seat the relay shows away this long is silent
#: Payload bytes a link holds of DATA frames that arrived early (out of order), per pairing.
EARLY_BYTES = 1 << 20
#: Payload bytes a link holds delivered but not yet taken by ``recv`` (spec/protocol.md §12.1).
QUEUE_BYTES = 2 << 20

Rng = Callable[[int], bytes]
Connector = Callable[[], Awaitable[Transport]]


class LinkClosed(TransportClosed):
    """The link is closed (by us) or gave up reconnecting; ``reason`` says which."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


@dataclass(slots=True)
class LinkStats:
    """Counters for tests and benchmarks."""

    sent: int = 0
    delivered: int = 0
    retransmitted: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    malformed: int = 0
    stale: int = 0
    rejected: int = 0
    unproven: int = 0
    refused: int = 0          # DATA frames not taken for lack of room (back-pressure: not acknowledged)
    reconnects: int = 0
    resets: int = 0
    dead: int = 0
    bad_proofs: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class LinkFrame:
    """One parsed link frame."""

    kind: int
    sender: bytes
    to: bytes
    count: int = 0
    payload: bytes = b""      # DATA: the payload; HELLO: the challenge; PROOF: the MAC


def liveness_proof(key: bytes, challenger: bytes, prover: bytes, challenge: bytes) -> bytes:
    """The answer to ``challenger``'s HELLO challenge by ``prover`` (spec/protocol.md §12.2 item 4)."""
    return hmac.new(key, LIVENESS_LABEL + challenger + prover + challenge, hashlib.sha256).digest()


def encode_link_frame(frame: LinkFrame) -> bytes:
    head = _HEAD.pack(frame.kind, frame.sender, frame.to)
    if frame.kind in (HELLO, PROOF):
        return head + frame.payload
    if frame.kind in (PING, PONG):
        return head
    if frame.kind == ACK:
        return head + _COUNT.pack(frame.count)
    return head + _COUNT.pack(frame.count) + frame.payload


def decode_link_frame(raw: bytes) -> LinkFrame | None:
    """The link frame in ``raw``, or None when it is malformed (the caller counts and ignores it)."""
    if not isinstance(raw, bytes) or len(raw) < _HEAD.size:
        return None
    kind, sender, to = _HEAD.unpack_from(raw)
    rest = raw[_HEAD.size:]
    if sender == NO_ID:
        return None
    if kind in (PING, PONG):
        return LinkFrame(kind, sender, to) if not rest else None
    if kind == HELLO:
        return LinkFrame(HELLO, sender, to, payload=rest) if len(rest) == CHALLENGE_BYTES else None
    if kind == PROOF:
        if len(rest) != PROOF_BYTES or to == NO_ID:
            return None
        return LinkFrame(PROOF, sender, to, payload=rest)
    if kind == ACK:
        if len(rest) != _COUNT.size or to == NO_ID:
            return None
        return LinkFrame(ACK, sender, to, _COUNT.unpack(rest)[0])
    if kind == DATA:
        if len(rest) < _COUNT.size or to == NO_ID or len(rest) - _COUNT.size > MAX_PAYLOAD:
            return None
        return LinkFrame(DATA, sender, to, _COUNT.unpack_from(rest)[0], rest[_COUNT.size:])
    return None


class ReliableLink:
    """A Transport that survives drops, duplicates, reordering, reconnects and peer restarts.

    ``connect`` makes a fresh transport (after a failure); ``transport`` is an optional first one.
    Call ``start()`` (or use ``async with``) before sending.
    """

    def __init__(
        self,
        connect: Connector | None,
        *,
        transport: Transport | None = None,
        rng: Rng | None = None,
        retransmit_s: float = 0.25,
        max_retransmit_s: float = 4.0,
        reconnect_min_s: float = 0.05,
        reconnect_max_s: float = 2.0,
        give_up_s: float | None = 60.0,
        on_reset: Callable[[], None] | None = None,
        on_connect: Callable[[], None] | None = None,
        max_window: int = 4096,
        early_bytes: int = EARLY_BYTES,
        queue_bytes: int = QUEUE_BYTES,
        dead_after_s: float | None = None,
        away_after_s: float | None = AWAY_AFTER_S,
        confirm: bool = False,
        vouching: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if connect is None and transport is None:
            raise ValueError("a ReliableLink needs a transport or a way to connect")
        draw = rng if rng is not None else secrets.token_bytes
        self._draw = draw
        self.link_id = self._fresh_id()
        # Jitter for reconnect delays only; nothing secret depends on it.
        self._jitter = random.Random(int.from_bytes(draw(8), "big"))  # noqa: S311
        self._connect = connect
        self._transport = transport
        self._retransmit_s = retransmit_s
        self._max_retransmit_s = max_retransmit_s
        self._reconnect_min_s = reconnect_min_s
        self._reconnect_max_s = reconnect_max_s
        self._give_up_s = give_up_s
        self.on_reset = on_reset
        self.on_connect = on_connect
        self._max_window = max_window
        if early_bytes < 0 or queue_bytes < 0:
            raise ValueError("byte bounds are not negative")
        self._max_early = early_bytes
        self._max_queued = queue_bytes
        self._dead_after_s = dead_after_s
        self._away_after_s = away_after_s
        self._away: tuple[object, float] | None = None   # (the transport, since when) it shows the seat away
        self._clock = clock
        self._last_heard = clock()
        self._last_live = clock()           # the last frame that counted for liveness (or the start)
        self._last_ping = clock()
        self.stats = LinkStats()

        self.peer_id: bytes | None = None
        self._retired: set[bytes] = set()
        self._displaced: list[bytes] = []   # ids an unproven pairing displaced (not retired yet)
        self._vouched = False               # the current pairing delivered an authentic payload
        self._vouching = vouching           # the caller vouches for pairings (else: trust any id)
        self._connection = 0                # transport number, to tell stale inbox items apart
        self._taken_connection = 0
        self._live = not vouching           # the peer proved itself on this connection
        self._peer_knows_me = False
        self._liveness_key: bytes | None = None   # once the session exists (§12.2 item 4)
        self._challenge = draw(CHALLENGE_BYTES)   # this connection's; fresh on every connection
        self._unacked: deque[tuple[int, bytes]] = deque()
        self._send_count = 0
        self._expected = 0
        self._confirm = confirm
        self._confirmed = 0                 # with confirm: frames the caller said it has kept
        self._generation = 0                # pairing number, to tell stale inbox items apart
        self._taken_generation = 0
        # With confirm: the pairing of each frame taken and not yet confirmed, oldest first. A
        # confirmation counts only for a frame of the current pairing (§12.1 rule 3).
        self._unconfirmed_generations: deque[int] = deque()
        self._early: dict[int, bytes] = {}
        self._early_bytes = 0               # payload bytes in _early
        self._queued_bytes = 0              # payload bytes in _inbox
        self._inbox: asyncio.Queue[tuple[int, int, bytes] | None] = asyncio.Queue()
        self._out: asyncio.Queue[bytes] = asyncio.Queue()
        self._rto = retransmit_s
        self._last_progress = clock()
        self._failure: LinkClosed | None = None
        self._broken = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._started = False

    # --- public API (Transport) ------------------------------------------------------------------

    async def start(self) -> None:
        if self._started:
            return
        self._started = True
        self._tasks = [
            asyncio.create_task(self._run(), name="link-run"),
            asyncio.create_task(self._write(), name="link-write"),
            asyncio.create_task(self._tick(), name="link-tick"),
        ]

    async def __aenter__(self) -> ReliableLink:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def send_nowait(self, frame: bytes) -> None:
        """Queue ``frame`` for reliable delivery (callable from ``on_reset``)."""
        if self._failure is not None:
            raise self._failure
        if not isinstance(frame, bytes) or len(frame) > MAX_PAYLOAD:
            raise ValueError("a frame is bytes of at most MAX_PAYLOAD")
        if len(self._unacked) >= self._max_window or self._send_count >= MAX_COUNT:
            raise LinkClosed("window_full", "too many frames wait for an acknowledgement")
        count = self._send_count
        self._send_count += 1
        if not self._unacked:
            self._last_progress = self._clock()
        self._unacked.append((count, frame))
        self.stats.sent += 1
        if self.peer_id is not None:
            self._emit(LinkFrame(DATA, self.link_id, self.peer_id, count, frame))

    async def send(self, frame: bytes) -> None:
        self.send_nowait(frame)

    async def recv(self) -> bytes:
        item = await self._inbox.get()
        if item is None:
            self._inbox.put_nowait(None)  # every later call fails the same way
            assert self._failure is not None
            raise self._failure
        self._taken_generation, self._taken_connection = item[0], item[1]
        if self._confirm:
            self._unconfirmed_generations.append(item[0])
        self._queued_bytes -= len(item[2])
        if self._pull() and not self._confirm and self.peer_id is not None:
            # Room again: frames held early went on to the queue; say so (§12.1 rule 3).
            self._emit(LinkFrame(ACK, self.link_id, self.peer_id, self._expected))
        return item[2]

    def set_liveness_key(self, key: bytes) -> None:
        """The session exists: from now on only a liveness proof under ``key`` makes a connection
        live and a pairing vouched (spec/protocol.md §12.2 item 4); payloads prove nothing."""
        if not isinstance(key, bytes) or len(key) != 32:
            raise ValueError("a liveness key is 32 bytes")
        if self._liveness_key == key:
            return
        self._liveness_key = key
        if self._vouching and not self._live and self._transport is not None:
            self._hello()                     # ask for a proof now rather than at the next tick

    def vouch(self) -> None:
        """The payload last returned by ``recv`` authenticated. Before the session exists this
        makes the current pairing the real peer (the ids it displaced are retired: old
        incarnations of a restarted peer); afterwards a repeat of an old frame authenticates too,
        so only a liveness proof does that and this does nothing."""
        if self._taken_generation != self._generation or self.peer_id is None:
            return
        if self._liveness_key is not None:
            return
        if self._taken_connection == self._connection:
            self._prove_live()
        self._prove_pairing()

    def _prove_live(self) -> None:
        if not self._live:
            self._live = True                 # the real peer is on this connection
            self._last_heard = self._last_live = self._clock()

    def _prove_pairing(self) -> None:
        if self._vouched:
            return
        self._vouched = True
        self._retired.update(self._displaced)
        self._displaced.clear()

    def reject(self) -> None:
        """The payload last returned by ``recv`` did not authenticate. From an unproven pairing
        (a stranger in the room, or a forger): retire that id, take a fresh id of our own and pair
        again. From a proven one (a relay forging the peer's id): only counted."""
        self.stats.rejected += 1
        if self._taken_generation != self._generation or self.peer_id is None or self._vouched:
            return
        self._retired.add(self.peer_id)
        self.peer_id = None
        self._new_own_id()
        self._broken.set()

    def confirm(self) -> None:
        """With ``confirm=True``: the oldest frame returned by ``recv`` and not yet confirmed is
        safely kept (saved), so it may be acknowledged; one call per frame taken. The peer keeps
        re-sending until then: an acknowledgement means the frame survives a crash of this
        process, not merely that it arrived."""
        if not self._confirm or not self._unconfirmed_generations:
            return
        # Confirmations come one per frame taken, in order: each counts under its own pairing.
        taken_in = self._unconfirmed_generations.popleft()
        if taken_in != self._generation or self.peer_id is None:
            return
        if self._confirmed < self._expected:
            self._confirmed += 1
            self._emit(LinkFrame(ACK, self.link_id, self.peer_id, self._confirmed))

    async def close(self) -> None:
        if self._failure is None:
            self._failure = LinkClosed("closed", "the link was closed")
        self._inbox.put_nowait(None)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        transport, self._transport = self._transport, None
        if transport is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(transport.close(), 2.0)

    @property
    def backlog(self) -> int:
        """Frames delivered and waiting for ``recv``."""
        return self._inbox.qsize()

    @property
    def early_bytes(self) -> int:
        """Payload bytes held of DATA frames that arrived early (bounded by ``early_bytes``)."""
        return self._early_bytes

    @property
    def queued_bytes(self) -> int:
        """Payload bytes delivered and waiting for ``recv`` (bounded by ``queue_bytes``, but one
        frame is always taken into an empty queue)."""
        return self._queued_bytes

    @property
    def buffered_bytes(self) -> int:
        """Every payload byte the link holds for the caller: early frames and the delivery queue."""
        return self._early_bytes + self._queued_bytes

    @property
    def unacknowledged(self) -> int:
        return len(self._unacked)

    @property
    def closed(self) -> bool:
        return self._failure is not None

    # --- internals -------------------------------------------------------------------------------

    def _fresh_id(self) -> bytes:
        link_id = self._draw(ID_BYTES)
        if len(link_id) != ID_BYTES or link_id == NO_ID:
            raise ValueError("the rng gave an unusable link id")
        return link_id

    def _new_own_id(self) -> None:
        """A fresh id of our own: the peer then starts a new pairing too (its counters restart)."""
        self._retired.add(self.link_id)
        self.link_id = self._fresh_id()
        self._generation += 1
        self._expected = 0
        self._confirmed = 0
        self._early.clear()
        self._early_bytes = 0

    def _fail(self, reason: str, message: str) -> None:
        if self._failure is None:
            self._failure = LinkClosed(reason, message)
            self._inbox.put_nowait(None)

    def _emit(self, frame: LinkFrame) -> None:
        self._out.put_nowait(encode_link_frame(frame))

    def _hello(self) -> None:
        self._emit(LinkFrame(HELLO, self.link_id, self.peer_id or NO_ID, payload=self._challenge))

    def _retransmit(self, limit: int = 256, *, first: bool = False) -> None:
        if self.peer_id is None:
            return
        for count, payload in list(self._unacked)[:limit]:
            self._emit(LinkFrame(DATA, self.link_id, self.peer_id, count, payload))
            if not first:
                self.stats.retransmitted += 1

    async def _run(self) -> None:
        first = True
        while self._failure is None:
            if self._transport is None:
                transport = await self._reconnect()
                if transport is None:
                    return
                self._transport = transport
                if not first:
                    self.stats.reconnects += 1
            # A fresh connection: drop stale queued bytes, introduce ourselves, resend the backlog.
            while not self._out.empty():
                self._out.get_nowait()
            self._broken.clear()
            self._last_heard = self._clock()
            self._connection += 1
            self._live = not self._vouching
            self._challenge = self._draw(CHALLENGE_BYTES)   # an old proof answers an old challenge
            self._hello()
            if not first:
                self._retransmit()
                if self.on_connect is not None:
                    self.on_connect()         # something the peer can vouch for on this connection
            first = False
            reader = asyncio.create_task(self._read(self._transport))
            broken = asyncio.create_task(self._broken.wait())
            try:
                await asyncio.wait({reader, broken}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                reader.cancel()
                broken.cancel()
                await asyncio.gather(reader, broken, return_exceptions=True)
            old, self._transport = self._transport, None
            if old is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(old.close(), 1.0)
            if self._connect is None:
                self._fail("closed", "the transport closed and there is no way to reconnect")

    async def _reconnect(self) -> Transport | None:
        assert self._connect is not None
        started = self._clock()
        delay = self._reconnect_min_s
        while self._failure is None:
            try:
                return await self._connect()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # any failure to connect is retried until the give-up bound
                if self._give_up_s is not None and self._clock() - started >= self._give_up_s:
                    self._fail("unreachable", f"could not reconnect: {type(exc).__name__}: {exc}")
                    return None
            await asyncio.sleep(delay * (0.5 + self._jitter.random()))
            delay = min(delay * 2, self._reconnect_max_s)
        return None

    async def _read(self, transport: Transport) -> None:
        try:
            while True:
                raw = await transport.recv()
                self._handle(raw)
        except asyncio.CancelledError:
            raise
        except Exception:  # the transport failed, however it says so: reconnect
            self._broken.set()

    async def _write(self) -> None:
        while True:
            data = await self._out.get()
            transport = self._transport
            if transport is None or self._broken.is_set():
                continue  # lost; retransmission and the HELLO after reconnecting cover it
            try:
                await transport.send(data)
            except asyncio.CancelledError:
                raise
            except Exception:
                self._broken.set()

    async def _tick(self) -> None:
        period = max(self._retransmit_s / 2, 0.01)
        last = self._clock()
        while True:
            await asyncio.sleep(period)
            now = self._clock()
            stall, last = now - last - period, now
            if stall > period:
                # Our own process did not run (a long computation, a loaded machine): frames the
                # peer sent meanwhile may still wait unread, so that time is not the peer's silence.
                self._last_heard += stall
                self._last_live += stall
                if self._away is not None:
                    self._away = (self._away[0], self._away[1] + stall)
            if self._transport is None or self._broken.is_set():
                continue
            if (self.peer_id is None or not self._peer_knows_me
                    or (self._liveness_key is not None and not self._live)):
                self._hello()                 # until the peer knows us, or proved itself here
            if (self._vouching and self._dead_after_s is not None and self._give_up_s is not None
                    and now - self._last_live >= self._give_up_s):
                self._fail("unreachable", f"nothing authenticated from the peer for {self._give_up_s:g} s")
                self._broken.set()
                return
            if self._seat_away_too_long(now):
                self.stats.dead += 1
                self._broken.set()            # the relay shows the seat away: pair again (§12.1 rule 5)
                continue
            if self._dead_after_s is not None:
                if now - self._last_heard >= self._dead_after_s:
                    self.stats.dead += 1
                    self._broken.set()        # silent for too long: pair again
                    continue
                if now - self._last_ping >= self._dead_after_s / 4:
                    self._last_ping = now
                    self._emit(LinkFrame(PING, self.link_id, self.peer_id or NO_ID))
            if self._unacked and self._clock() - self._last_progress >= self._rto:
                self._retransmit()
                self._last_progress = self._clock()
                self._rto = min(self._rto * 2, self._max_retransmit_s)

    def _seat_away_too_long(self, now: float) -> bool:
        """The transport's relay has shown the other seat away for ``away_after_s`` (only a link
        that can connect again acts on it)."""
        transport = self._transport
        if self._connect is None or self._away_after_s is None or getattr(transport, "peer", None) != "away":
            self._away = None
            return False
        if self._away is None or self._away[0] is not transport:
            self._away = (transport, now)
            return False
        return now - self._away[1] >= self._away_after_s

    def _adopt(self, peer: bytes) -> None:
        """A new peer id: the first pairing, the peer process restarted, or a stranger."""
        restarted = self.peer_id is not None or bool(self._displaced)
        if peer in self._displaced:
            # A peer we had paired with speaks again after an unproven pairing displaced it: it
            # kept its counters for us, so restart both sides' under a fresh id of ours.
            self._displaced.remove(peer)
            self._new_own_id()
        if self.peer_id is not None:
            if self._vouching:
                self._displaced.append(self.peer_id)
                self._retired.update(self._displaced[:-MAX_DISPLACED])
                del self._displaced[:-MAX_DISPLACED]
            else:
                self._retired.add(self.peer_id)
            self.stats.resets += 1
            if self.on_reset is not None:
                # The driver re-sends what the peer may lack from its own records; frames queued
                # here may have reached the old incarnation and would be out of place now.
                self._unacked.clear()
        self.peer_id = peer
        self._vouched = False
        self._live = not self._vouching     # a new id proves itself before it counts
        self._peer_knows_me = False
        self._generation += 1
        self._expected = 0
        self._confirmed = 0
        self._early.clear()
        self._early_bytes = 0
        # Renumber what is still queued for the new pairing, in order.
        queued = [payload for _, payload in self._unacked]
        self._unacked = deque(enumerate(queued))
        self._send_count = len(queued)
        self._last_progress = self._clock()
        self._rto = self._retransmit_s
        self._retransmit(first=not restarted)
        if restarted and self.on_reset is not None:
            self.on_reset()

    def _handle(self, raw: bytes) -> None:
        frame = decode_link_frame(raw)
        if frame is None:
            self.stats.malformed += 1
            return
        if frame.sender == self.link_id or frame.sender in self._retired:
            self.stats.stale += 1  # our own frame reflected, or a restarted peer's old incarnation
            return
        if frame.to not in (self.link_id, NO_ID):
            self.stats.stale += 1  # addressed to an earlier incarnation of us
            return
        if frame.sender != self.peer_id:
            self._adopt(frame.sender)
        if frame.to == self.link_id:
            self._peer_knows_me = True
        if self._live:
            self._last_heard = self._last_live = self._clock()
        elif frame.kind == ACK:
            self.stats.unproven += 1  # not from a peer that proved itself here: it promises nothing
            return
        if frame.kind == PING:
            self._emit(LinkFrame(PONG, self.link_id, frame.sender))
            return
        if frame.kind == PONG:
            return
        if frame.kind == HELLO:
            if frame.to != self.link_id:
                self._hello()  # the peer does not know us yet
            if self._liveness_key is not None:
                proof = liveness_proof(self._liveness_key, frame.sender, self.link_id, frame.payload)
                self._emit(LinkFrame(PROOF, self.link_id, frame.sender, payload=proof))
            return
        if frame.kind == PROOF:
            self._check_proof(frame)
            return
        if frame.kind == ACK:
            self._acknowledge(frame.count)
            return
        self._receive(frame.count, frame.payload)

    def _check_proof(self, frame: LinkFrame) -> None:
        """Only a proof for this connection's challenge, by the current pairing, counts (§12.2)."""
        key = self._liveness_key
        if (key is None or frame.to != self.link_id
                or not hmac.compare_digest(frame.payload,
                                           liveness_proof(key, self.link_id, frame.sender, self._challenge))):
            self.stats.bad_proofs += 1      # a stale or forged proof: dropped, never fatal
            return
        self._prove_live()
        self._prove_pairing()

    def _acknowledge(self, next_count: int) -> None:
        progressed = False
        while self._unacked and self._unacked[0][0] < next_count:
            self._unacked.popleft()
            progressed = True
        if progressed:
            self._last_progress = self._clock()
            self._rto = self._retransmit_s

    def _receive(self, count: int, payload: bytes) -> None:
        """DATA: deliver in order, hold early frames, both within their byte bounds. A frame that
        fits neither is not kept; the ACK below never covers a frame not delivered, so the sender
        re-sends it later (back-pressure, spec/protocol.md §12.1 rule 3): nothing is lost and
        nothing grows."""
        assert self.peer_id is not None
        if count < self._expected or count in self._early:
            self.stats.duplicates += 1
        elif count == self._expected and self._room(len(payload)):
            self._deliver(payload)
            self._pull()
        elif (count - self._expected <= self._max_window
              and self._early_bytes + len(payload) <= self._max_early):
            # Early, or next but the queue is full: held (not acknowledged) until it fits.
            self._early[count] = payload
            self._early_bytes += len(payload)
            if count != self._expected:
                self.stats.out_of_order += 1
        else:
            self.stats.refused += 1
        acknowledged = self._confirmed if self._confirm else self._expected
        self._emit(LinkFrame(ACK, self.link_id, self.peer_id, acknowledged))

    def _room(self, size: int) -> bool:
        """Whether a payload of ``size`` bytes fits the delivery queue (an empty one takes any)."""
        return self._queued_bytes == 0 or self._queued_bytes + size <= self._max_queued

    def _pull(self) -> bool:
        """Move the early frames that are next in order to the delivery queue while they fit."""
        moved = False
        while self._expected in self._early and self._room(len(self._early[self._expected])):
            payload = self._early.pop(self._expected)
            self._early_bytes -= len(payload)
            self._deliver(payload)
            moved = True
        return moved

    def _deliver(self, payload: bytes) -> None:
        self._expected += 1
        self._queued_bytes += len(payload)
        self.stats.delivered += 1
        self._inbox.put_nowait((self._generation, self._connection, payload))

__all__ = [
    "ACK",
    "DATA",
    "HELLO",
    "PING",
    "PONG",
    "PROOF",
    "LinkClosed",
    "LinkFrame",
    "LinkStats",
    "ReliableLink",
    "decode_link_frame",
    "encode_link_frame",
    "liveness_proof",
]
