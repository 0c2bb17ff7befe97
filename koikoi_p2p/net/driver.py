"""The crash-safe peer's I/O driver: asyncio, the transport, deadlines, result files.

``run_peer`` runs (or resumes) the match saved in a journal folder to its end (spec/protocol.md
§12), joining the three parts of the crash-safe peer:

- the core (``core.PeerCore``, sans-I/O) takes each frame and decision and returns the frames;
- the journal (``journal.Journal``, storage) makes each accepted input durable before anything it
  caused leaves: one appended record per message, a new snapshot at each deal boundary;
- this driver moves frames over a ``ReliableLink``, re-sends the outbox, enforces the deadlines
  of the terms on both sides (the opponent's: an abandonment claim; our own: no input after it)
  and writes the transcript, abandonment or evidence file at the end. On every outcome the state
  then keeps only the outcome: the secrets it held (identity, password, the seed of every key)
  are gone, and the result file is the evidence.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

from koikoi_p2p.ai.strategy import Strategy
from koikoi_p2p.net.core import (
    DECIDED,
    IDLE,
    RECEIVED,
    RESIGN,
    RESIGNED,
    TERMS,
    PeerCore,
    PeerSetup,
    ResumeError,
)
from koikoi_p2p.net.journal import JOURNAL_VERSION, LOG, Journal
from koikoi_p2p.net.reach import RelayReach
from koikoi_p2p.net.reliable import Connector, ReliableLink
from koikoi_p2p.net.state_store import StateStoreError
from koikoi_p2p.protocol.abandonment import AbandonmentClaim, encode_abandonment, sign_claim
from koikoi_p2p.protocol.envelope import decode_envelope
from koikoi_p2p.protocol.errors import LocalMisuse, ProtocolError, RemoteViolation
from koikoi_p2p.protocol.events import ChoiceNeeded, Event, TermsProposed, TimeUp, YourTurn
from koikoi_p2p.protocol.transcript import encode_evidence, encode_transcript
from koikoi_p2p.rules.actions import Action

STATE_FORMAT = 2


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a run ended. status: "completed", "abandoned" (we claimed), "failed" (a violation or a
    local fault), "gave_up" (no way to reach the peer and no deadline to claim on), "timed_out"
    (our own deadline passed: the peer may claim; ``absent`` is then our own seat)."""

    status: str
    seat: int
    reason: str = ""
    messages: int = 0
    scores: tuple[int, int] | None = None
    winner: int | None = None
    file: str | None = None
    absent: int | None = None
    resumed: bool = False
    dropped: int = 0                   # frames dropped because they did not authenticate

    def to_dict(self) -> dict[str, object]:
        return {"status": self.status, "seat": self.seat, "reason": self.reason, "messages": self.messages,
                "scores": list(self.scores) if self.scores else None, "winner": self.winner,
                "file": self.file, "absent": self.absent, "resumed": self.resumed, "dropped": self.dropped}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        scores = data.get("scores")
        return cls(status=str(data.get("status")), seat=int(data.get("seat", 0)),
                   reason=str(data.get("reason", "")), messages=int(data.get("messages", 0)),
                   scores=(int(scores[0]), int(scores[1])) if isinstance(scores, list) else None,
                   winner=data.get("winner"), file=data.get("file"), absent=data.get("absent"),
                   resumed=bool(data.get("resumed")), dropped=int(data.get("dropped", 0)))


@dataclass(slots=True)
class DriverOptions:
    """Timing knobs of the driver (the deadlines themselves come from the match terms)."""

    resend_after_s: float = 2.0        # re-send the outbox when a wait makes no progress this long
    linger_s: float = 5.0              # after the end: wait for the last frames to be acknowledged
    settle_s: float = 0.3              # ... and then this long for a repeat from a peer that lost them
    # Before an acknowledgement's fdatasync, wait this long for the peer's next frame: a peer's
    # move often comes a millisecond behind the frame before it, and it is shown (then saved with
    # it, one fdatasync) instead of waiting behind that sync. Acknowledgements wait as long.
    settle_grace_s: float = 0.005
    link: dict[str, Any] = field(default_factory=dict)   # ReliableLink keyword arguments
    # Whatever the outcome, keep only the outcome: the setup and the journal hold the identity key,
    # the password and the seed of every key of the match (forward secrecy); the result file is
    # the evidence. On by default; only tests that replay a finished state turn it off.
    forget_secrets: bool = True
    # Our own deadline ends this long before the terms' (at most half of it): our last frame must
    # reach the peer before its own clock, started when it sent, runs out (§12.4).
    own_margin_s: float = 2.0
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time    # when inputs were saved: our own deadline spans a restart
    watch: Callable[[ReliableLink], None] | None = None   # sees the link once made (tests read its counters)
    # Wait for the disk in a worker thread (the link keeps acknowledging and answering meanwhile);
    # False waits on the event loop itself (``koikoi bench latency`` measures both).
    disk_thread: bool = True


ProgressHook = Callable[[str, PeerCore], None]
EventSink = Callable[[Event, bool], None]          # (event, replayed from the saved state)
Ask = Callable[[YourTurn | ChoiceNeeded], Awaitable[Action | str]]   # an action, or RESIGN
AskTerms = Callable[[TermsProposed], Awaitable[bool]]
JournalLike = Journal | str | os.PathLike[str]


def _journal(where: JournalLike | Any) -> Journal:
    if isinstance(where, Journal):
        return where
    folder = getattr(where, "folder", where)     # a StateStore-like object names its folder
    return Journal(Path(folder))


def create_state(where: JournalLike | Any, setup: PeerSetup) -> Journal:
    """Write the initial state of a new match (before anything is sent); returns its journal.

    Refused (``exists``) when the folder holds a match that has not ended: it may have sent
    frames already, and only ``koikoi resume`` may continue it (spec/protocol.md §12.3). A state
    that keeps only its outcome is replaced."""
    journal = _journal(where)
    try:
        with journal:
            if journal.exists() and not _finished(journal):
                raise StateStoreError("exists", f"{journal.folder} holds a match that has not ended: "
                                                "continue it with koikoi resume --state, or remove it")
            journal.rebase({"format": STATE_FORMAT, "core": PeerCore(setup).snapshot(), LOG: []})
    except StateStoreError as exc:
        raise ResumeError(exc.reason, exc.message) from None
    return journal


def _finished(journal: Journal) -> bool:
    """Whether the saved state is only the outcome of an ended match (an unreadable one is not)."""
    try:
        base, _ = journal.read()
    except StateStoreError:
        return False
    return isinstance(base.get("outcome"), dict) and "core" not in base


def read_state(where: JournalLike | Any) -> tuple[PeerSetup | None, Outcome | None]:
    """The setup and the outcome of a saved match, without replaying it (either may be None)."""
    try:
        base, _ = _journal(where).read()
    except StateStoreError as exc:
        raise ResumeError(exc.reason, exc.message) from None
    outcome = base.get("outcome")
    core = base.get("core")
    setup = None
    if isinstance(core, dict) and isinstance(core.get("setup"), dict):
        setup = PeerSetup.from_dict(cast(dict[str, object], core["setup"]))
    return setup, Outcome.from_dict(outcome) if isinstance(outcome, dict) else None


def load_core(where: JournalLike | Any, on_event: Callable[[Event], None] | None = None) -> PeerCore:
    """Rebuild the peer saved in a journal (snapshot plus the records after it), read only."""
    try:
        base, records = _journal(where).read()
    except StateStoreError as exc:
        raise ResumeError(exc.reason, exc.message) from None
    return _restore(base, records, on_event)


def _restore(base: Mapping[str, object], records: list[list[Any]],
             on_event: Callable[[Event], None] | None) -> PeerCore:
    if base.get("format") != STATE_FORMAT or not isinstance(base.get("core"), dict):
        raise ResumeError("bad_state", "unknown state format")
    core = cast(dict[str, object], base["core"])
    peer = core.get("peer")
    if LOG in base and isinstance(peer, dict):
        # The transcript is the journal's log, appended base by base (§12.3 rule 2).
        log = cast(list[Any], base[LOG])
        peer = {**peer, "transcript": log}
        channel = peer.get("channel")
        if base.get(FROM_LOG) and isinstance(channel, dict):
            peer["channel"] = {**channel, **_channel_log(log)}
        core = {**core, "peer": peer}
    return PeerCore.restore(core, records, on_event)


def _channel_log(log: list[Any]) -> dict[str, bytes]:
    """The channel's digest and sender of every envelope, from the transcript they came from."""
    try:
        envelopes = [decode_envelope(bytes(raw), bytes(sig)) for raw, sig in log]
    except (ProtocolError, TypeError, ValueError) as exc:
        raise ResumeError("bad_state", f"damaged transcript in the journal: {exc}") from None
    return {"digests": b"".join(env.digest() for env in envelopes),
            "senders": bytes(env.sender for env in envelopes)}


FROM_LOG = "channel_from_log"    # the base's channel digests and senders are the log's


def _logged(base: Mapping[str, object]) -> int:
    """How many envelopes of the transcript the journal holds already (in its log)."""
    log = base.get(LOG)
    return len(log) if isinstance(log, list) else 0


class SavedCore:
    """The core and its journal: every input is committed before what it caused is sent, and
    before the link acknowledges it (an acknowledgement promises the frame survives a crash).

    An input that causes nothing to send may stay unsynced for a moment (a group commit): the
    next durable commit (a decision's, an answer's) or ``settle`` syncs every record at once, and
    only then are the frames they hold acknowledged. Nothing left because of them, so losing them
    in a crash contradicts nothing (spec/protocol.md §12.3 rule 1). The driver uses ``save`` and
    ``settle``, which wait for the disk in a worker thread so that the link keeps running (acks,
    keepalive, frames arriving); ``holding`` is then the number of frames at the end of the core's
    outbox that are not durable yet, which a re-send must leave alone."""

    def __init__(self, core: PeerCore, journal: Journal, *, saved_at: float = 0.0,
                 wall: Callable[[], float] = time.time, logged: int = 0, disk_thread: bool = True) -> None:
        self.core = core
        self.journal = journal
        self.deal = core.deal
        self.unconfirmed = 0          # frames taken from the link and not yet acknowledged
        self.saved_at = saved_at      # wall time the last input was saved (0: unknown)
        self.wall = wall
        self.holding = 0              # frames at the end of the outbox waiting for their record
        self.logged = logged          # envelopes of the transcript in the journal's log
        self.disk_thread = disk_thread
        self._base: dict[str, object] | None = None   # a deal boundary's base, written after its send

    def _record(self, kind: str, value: object, out: list[bytes]) -> dict[str, object] | None:
        """Append the record (unsynced), or return the base to write at a deal boundary."""
        self.saved_at = self.wall()
        if self.core.deal != self.deal:
            # A deal boundary: the snapshot covers this input, and the records start again.
            return self._snapshot()
        self.journal.append([kind, value, out, self.saved_at], sync=False)
        return None

    def _snapshot(self) -> dict[str, object]:
        """A base of the state alone: the envelopes the journal's log lacks go in its ``log``, the
        rest of the transcript stays where it was written (§12.3 rule 2). A file of an older
        version is replaced whole by the next base, which then holds the whole transcript."""
        core = self.core.snapshot()
        peer = core.get("peer")
        start = self.logged if self.journal.version == JOURNAL_VERSION else 0
        base: dict[str, object] = {"format": STATE_FORMAT, "core": core, "at": self.saved_at, LOG: []}
        if isinstance(peer, dict):
            transcript = cast(list[Any], peer.pop("transcript"))
            base[LOG] = transcript[start:]
            channel = peer.get("channel")
            if isinstance(channel, dict) and len(cast(bytes, channel["senders"])) == len(transcript):
                # The channel's digest and sender of each envelope grow with the transcript: a
                # resume recomputes them from the log instead.
                channel["digests"], channel["senders"] = b"", b""
                base[FROM_LOG] = True
        return base

    def _checkpoint(self, base: dict[str, object]) -> None:
        start = self.logged if self.journal.version == JOURNAL_VERSION else 0
        self.journal.checkpoint(base)
        self.logged = start + len(cast(list[Any], base[LOG]))

    def commit(self, kind: str, value: object, out: list[bytes], *, durable: bool = True) -> None:
        """``save`` without the worker thread (for callers without an event loop)."""
        base = self._record(kind, value, out)
        if base is not None:
            self._checkpoint(base)
            self.deal = self.core.deal
        elif durable:
            self.journal.sync()

    async def save(self, kind: str, value: object, out: list[bytes], *, durable: bool = True) -> None:
        """Record one input; with ``durable`` (the default) return once it and every record before
        it are on disk, so that ``out`` may leave.

        At a deal boundary the input is appended and synced like any other (one fdatasync before
        its frames leave), and the new base, a snapshot taken now, replaces the file afterwards
        (``rebase_later``), off the path of the frames it covers but before the next input."""
        base = self._record(kind, value, out)
        if base is not None:
            self.journal.append([kind, value, out, self.saved_at], sync=False)
            self.deal = self.core.deal
            self._base = base
            durable = True
        self.holding = len(out)
        try:
            if durable:
                await self.flush()
        finally:
            self.holding = 0

    async def rebase_later(self) -> None:
        """Write the base of a deal boundary saved by ``save`` (atomic; two flushes in a worker
        thread): from then on a resume replays only the records of the deal under way."""
        base, self._base = self._base, None
        if base is not None:
            if self.disk_thread:
                await asyncio.to_thread(self._checkpoint, base)
            else:
                self._checkpoint(base)

    async def flush(self) -> None:
        if self.journal.dirty:
            if self.disk_thread:
                await asyncio.to_thread(self.journal.sync)
            else:
                self.journal.sync()

    async def settle(self, link: ReliableLink) -> None:
        """Make every record durable, then acknowledge the frames they hold."""
        await self.flush()
        self.confirm(link)

    def confirm(self, link: ReliableLink) -> None:
        """Acknowledge the frames taken so far; only when every record is durable."""
        for _ in range(self.unconfirmed):
            link.confirm()
        self.unconfirmed = 0


async def run_peer(
    store: JournalLike | Any,
    connect: Connector,
    *,
    strategy: Callable[[int], Strategy] | None = None,
    options: DriverOptions | None = None,
    progress: ProgressHook | None = None,
    on_event: EventSink | None = None,
    ask: Ask | None = None,
    ask_terms: AskTerms | None = None,
) -> Outcome:
    """Run (or resume) the match saved in ``store`` (a ``Journal`` or its folder) to its end; the
    library form of ``koikoi resume``.

    ``strategy(n)`` gives the computer player for the n-th decision (seeded per decision, so a
    resumed peer decides exactly as it would have without the crash). ``ask`` instead puts each
    decision to a person, within our own deadline (answering ``core.RESIGN`` gives the match up);
    ``ask_terms`` puts the proposed terms to the
    joiner (without it the setup's ``accept_terms`` answers); ``on_event`` sees every event, first
    those of the restored state. The folder is locked for the whole run: ``ResumeError("locked")`` if
    another process runs it.
    """
    opts = options or DriverOptions()
    journal = _journal(store)
    try:
        journal.lock()
        base, records = journal.load()
    except StateStoreError as exc:
        journal.unlock()
        raise ResumeError(exc.reason, exc.message) from None
    try:
        return await _run_locked(journal, base, records, connect, strategy, opts, progress, on_event, ask,
                                 ask_terms)
    finally:
        journal.unlock()


async def _run_locked(journal: Journal, base: dict[str, object], records: list[list[Any]], connect: Connector,
                      strategy: Callable[[int], Strategy] | None, opts: DriverOptions,
                      progress: ProgressHook | None, on_event: EventSink | None, ask: Ask | None,
                      ask_terms: AskTerms | None = None) -> Outcome:
    if isinstance(base.get("outcome"), dict):
        return Outcome.from_dict(cast(dict[str, Any], base["outcome"]))
    replaying = [True]

    def sink(event: Event) -> None:
        if on_event is not None:
            on_event(event, replaying[0])

    core = _restore(base, records, sink if on_event is not None else None)
    replaying[0] = False
    resumed = core.inputs > 0
    core.folder = journal.folder
    # Records never cross a deal boundary: the core is at the base's deal.
    saved = SavedCore(core, journal, saved_at=_saved_at(base, records), wall=opts.wall, logged=_logged(base),
                      disk_thread=opts.disk_thread)

    def choose(n: int) -> Strategy:
        if strategy is not None:
            return strategy(n)
        return core.computer(n)

    link: ReliableLink | None = None

    def resend(proof: bool = False) -> None:
        # Only what is durable: the last ``holding`` frames wait for their record (§12.3 rule 1).
        if link is not None and not link.closed:
            frames = core.outbox[:len(core.outbox) - saved.holding]
            if proof and not frames and not saved.holding and core.last_sent:
                # On a new connection or pairing the peer's link counts it live only once it
                # vouched for a payload there (§12.2): a frame it holds already (a harmless
                # duplicate to its channel) does.
                frames = [core.last_sent]
            for frame in frames:
                link.send_nowait(frame)

    link = ReliableLink(connect, on_reset=lambda: resend(proof=True), on_connect=lambda: resend(proof=True),
                        confirm=True, vouching=True, **opts.link)
    if opts.watch is not None:
        opts.watch(link)
    bound = [False, False]   # we hold the session; the other seat is known to hold it too
    keyed = [False]          # the link has the session's liveness key

    def on_session() -> None:
        if not keyed[0] and core.peer is not None and link is not None:
            # The session exists: liveness and vouching now need a proof bound to it (§12.2 item 4).
            link.set_liveness_key(core.peer.channel.liveness_key())
            keyed[0] = True
        if not bound[0]:
            bound[0] = _bind(connect, core)
        if bound[0] and not bound[1]:
            bound[1] = _peer_bound(connect, core)

    on_session()
    await link.start()
    try:
        resend(proof=True)
        outcome = await _drive(saved, link, choose, opts, progress, resend, ask, sink, on_session,
                               ask_terms, connect)
        if outcome.status == "completed":
            await _linger(saved, link, opts, resend)
    finally:
        await link.close()
    outcome = replace(outcome, resumed=resumed, dropped=core.dropped)
    if outcome.status == "gave_up" and outcome.reason == "relay_unreachable":
        return outcome    # nothing claimed: the saved state stays, to go on with `koikoi resume` (§12.4)
    final: dict[str, object] = {"format": STATE_FORMAT}
    if not opts.forget_secrets and core.peer is not None:
        final["core"] = core.snapshot()       # tests that replay a finished match keep it
    final["outcome"] = outcome.to_dict()
    journal.rebase(final)
    return outcome


# A person who answers within this long shares the fdatasync of its decision with the inputs that
# asked it; one who thinks longer gets those saved and acknowledged meanwhile.
QUICK_ANSWER_S = 0.05

T = TypeVar("T")


async def _answer(asking: Callable[[], Awaitable[T]], budget: float, saved: SavedCore, link: ReliableLink,
                  on_session: Callable[[], None], failure: list[ProtocolError]) -> T | None:
    """A person's answer, or None when our own deadline passed first (then no input is taken) or
    a frame taken meanwhile failed the match (then ``failure`` holds the error).

    Past a moment, what was saved is made durable and acknowledged, and frames keep being taken
    from the link and applied while the person thinks (``_attend``): a flood then neither fills
    the link nor holds up the peer (spec/protocol.md §12.1 rule 3)."""
    if budget <= 0:
        return None
    loop = asyncio.get_running_loop()
    end = loop.time() + budget
    task = asyncio.ensure_future(asking())
    stop = asyncio.Event()
    attend: asyncio.Task[None] | None = None
    try:
        done, _ = await asyncio.wait({task}, timeout=min(budget, QUICK_ANSWER_S))
        if not done:
            await saved.settle(link)
            attend = asyncio.create_task(_attend(saved, link, on_session, stop, failure))
            while not task.done() and not failure and (left := end - loop.time()) > 0:
                waiting: set[asyncio.Future[Any]] = {task} if attend.done() else {task, attend}
                await asyncio.wait(waiting, timeout=left, return_when=asyncio.FIRST_COMPLETED)
        if failure or not task.done():
            return None
        return task.result()
    except TimeoutError:
        return None
    finally:
        task.cancel()
        if attend is not None:
            stop.set()
            await attend          # it stops between frames: nothing is left half saved


async def _attend(saved: SavedCore, link: ReliableLink, on_session: Callable[[], None],
                  stop: asyncio.Event, failure: list[ProtocolError]) -> None:
    """While a person decides, take frames from the link and apply them as the main loop does
    (one that does not authenticate is judged and dropped, a repeat acknowledged, the peer's
    next message saved and applied) until ``stop``; only the wait on the link is interrupted."""
    stopping = asyncio.ensure_future(stop.wait())
    recv: asyncio.Future[bytes] | None = None
    try:
        while not stop.is_set():
            recv = asyncio.ensure_future(link.recv())
            await asyncio.wait({recv, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if not recv.done():
                recv.cancel()         # the queue keeps a frame not yet taken
                await asyncio.gather(recv, return_exceptions=True)
                return
            try:
                frame = recv.result()
            except Exception:  # the link gave up: the main loop hears it after the answer
                return
            error, _ = await _take(saved, link, frame, on_session)
            if error is not None:
                failure.append(error)
                return
            await saved.rebase_later()    # a deal boundary's base before the next input, as the main loop
    finally:
        stopping.cancel()
        if recv is not None:
            # Cancelled with the match (its time ran out, the person left): the wait on the link
            # goes too, and what it ends with (the link closing) is nobody's error to report.
            recv.cancel()
            recv.add_done_callback(_retrieved)


def _retrieved(future: asyncio.Future[bytes]) -> None:
    if not future.cancelled():
        future.exception()


async def _take(saved: SavedCore, link: ReliableLink, frame: bytes,
                on_session: Callable[[], None]) -> tuple[ProtocolError | None, bool]:
    """Apply one frame from the link: (the error that fails the match, or None; whether the frame
    was new, as opposed to a repeat or a frame that did not authenticate)."""
    core = saved.core
    dropped = core.dropped
    try:
        answer = core.receive(frame)
    except ProtocolError as exc:
        return exc, False
    _judge(link, core, dropped)
    saved.unconfirmed += 1
    if answer is None:
        await saved.settle(link)
        return None, False                # a duplicate (harmless) or a frame not the peer's
    # Durable before anything it caused is sent. With nothing to send, the sync is shared
    # with what comes next (more frames waiting, the decision it asked, our idle work's
    # frames), and in any case done before we wait or acknowledge.
    await saved.save(RECEIVED, frame, answer, durable=bool(answer))
    on_session()
    if answer:
        await saved.settle(link)
    for item in answer:
        link.send_nowait(item)
    return None, True


def _own_budget(core: PeerCore, saved: SavedCore, opts: DriverOptions, wait_started: float,
                wait: tuple[str, int] | None = None) -> tuple[str, int, float]:
    """The wait our person answers (message type, deadline; ``wait`` when given, else the core's)
    and the seconds left of our own deadline: the terms' less the margin, counted from when the
    question came, and across a restart from when the input that asked it was saved
    (spec/protocol.md §12.4)."""
    waiting = core.waiting_for()
    if wait is not None:
        expected, deadline = wait
    else:
        expected = waiting[1] if waiting is not None else "act"
        deadline = waiting[2] if waiting is not None else core.setup.turn_deadline
    margin = min(opts.own_margin_s, deadline / 2)
    elapsed = opts.clock() - wait_started
    if saved.saved_at:
        elapsed = max(elapsed, opts.wall() - saved.saved_at)
    return expected, deadline, deadline - margin - elapsed


async def _drive(saved: SavedCore, link: ReliableLink, choose: Callable[[int], Strategy], opts: DriverOptions,
                 progress: ProgressHook | None, resend: Callable[[], None], ask: Ask | None,
                 sink: Callable[[Event], None], on_session: Callable[[], None],
                 ask_terms: AskTerms | None = None, connect: Connector | None = None) -> Outcome:
    core = saved.core
    seat = core.setup.seat
    clock = opts.clock
    last_phase = ""
    wait_started = clock()
    failure: list[ProtocolError] = []     # a frame applied while a person decided failed the match
    while True:
        await saved.rebase_later()            # a deal boundary's base, once its frames have left
        if progress is not None and core.phase != last_phase:
            last_phase = core.phase
            progress(last_phase, core)
        if core.done:
            return _finish(core)
        if core.failed or core.failure is not None:
            return _fail(core, core.failure.reason if core.failure else "failed")
        if core.terms_pending is not None:
            # The joiner decides on the terms before anything is signed (spec/game.md §2.5).
            await saved.settle(link)
            proposed = core.terms_pending
            if ask_terms is None:
                accept = core.setup.accept_terms
            else:
                # A person reads the terms within our own deadline for `accept`, the terms' `turn`
                # (spec/game.md §2.5, §7.1), while frames keep being taken (the host's keys come
                # with its terms).
                expected, deadline, budget = _own_budget(core, saved, opts, wait_started,
                                                         ("accept", proposed.terms.deadlines.turn))
                answered = await _answer(partial(ask_terms, proposed), budget, saved, link, on_session,
                                         failure)
                if failure:
                    return _fail(core, failure[0].reason, failure[0])
                if answered is None:
                    return _time_up(core, expected, deadline, sink)
                accept = answered
            try:
                out = core.decide_terms(accept)
            except ProtocolError as exc:
                return _fail(core, exc.reason)
            await saved.save(TERMS, accept, out)              # durable before sent
            for frame in out:
                link.send_nowait(frame)
            wait_started = clock()
            continue
        try:
            idle = core.idle()      # deferred checks; what we owe before our act leaves now
        except ProtocolError as exc:
            return _fail(core, exc.reason, exc)
        if idle:
            # Durable before sent, unless nothing unsynced precedes it: idle work is a function
            # of the saved state alone, so a resume without this record sends the same frames.
            await saved.save(IDLE, None, idle, durable=saved.journal.dirty)
            for frame in idle:
                link.send_nowait(frame)
            continue
        if core.pending is not None:
            # The inputs that asked are saved with the decision (one fdatasync), or meanwhile when a
            # person takes longer than a moment.
            event = core.pending
            expected, deadline, budget = _own_budget(core, saved, opts, wait_started)
            if ask is None:
                action: Action | str | None = choose(core.decisions).choose(event.view, event.options) \
                    if budget > 0 else None
            else:
                action = await _answer(partial(ask, event), budget, saved, link, on_session, failure)
                if failure:
                    return _fail(core, failure[0].reason, failure[0])
                if core.pending is not event and not core.done and not core.failed:
                    wait_started = clock()    # frames taken meanwhile changed the question: ask anew
                    continue
            if action is None:
                return _time_up(core, expected, deadline, sink)
            try:
                if isinstance(action, str):
                    if action != RESIGN:
                        raise LocalMisuse("bad_decision", f"{action!r} is neither an action nor {RESIGN!r}")
                    out = core.resign()                       # spec/game.md §6.3
                    kind, value = RESIGNED, None
                else:
                    out = core.decide(action)
                    kind, value = DECIDED, action.to_dict()
            except ProtocolError as exc:
                return _fail(core, exc.reason)
            await saved.save(kind, value, out)                # durable before sent
            for frame in out:
                link.send_nowait(frame)
            if progress is not None:
                progress("decided", core)
            wait_started = clock()
            continue
        waiting = core.waiting_for()
        if waiting is None:
            return _fail(core, "stalled")
        expected_seat, expected, deadline = waiting
        if expected_seat == seat:
            return _fail(core, "stalled")     # our turn with nothing to do: a local fault
        remaining = deadline - (clock() - wait_started)
        if remaining <= 0:
            # Not while our own relay is unreachable, nor right after it answers again (§12.4).
            remaining = _claim_hold(connect, deadline, clock() - wait_started)
            if remaining <= 0:
                return _abandon(core, expected, deadline)
        wait = min(remaining, opts.resend_after_s)
        unsettled = (saved.unconfirmed or saved.journal.dirty) and not link.backlog
        if unsettled:
            wait = min(wait, opts.settle_grace_s)
        try:
            frame = await asyncio.wait_for(link.recv(), wait)
        except TimeoutError:
            if unsettled:
                await saved.settle(link)      # nothing else came: make it durable, ack it
            else:
                resend()                      # a stall: the peer may lack our last frames
            continue
        except Exception as exc:  # the link gave up: nothing more will come
            if unsettled:
                await saved.flush()           # durable before the long wait, as before the grace (§12.3)
            if _relay_down(connect):
                # Our relay is gone: the peer could not speak either. No claim; the match stays
                # saved, to go on with `koikoi resume` (§12.4).
                return Outcome("gave_up", seat, reason="relay_unreachable")
            if clock() - wait_started < deadline:
                await asyncio.sleep(max(0.0, deadline - (clock() - wait_started)))
            if core.peer is None:
                return Outcome("gave_up", seat, reason=f"link: {exc}")
            return _abandon(core, expected, deadline)
        error, new = await _take(saved, link, frame, on_session)
        if error is not None:
            return _fail(core, error.reason, error)
        if new:
            wait_started = clock()


async def _linger(saved: SavedCore, link: ReliableLink, opts: DriverOptions,
                  resend: Callable[[], None]) -> None:
    """Stay after the end until the peer has saved our last frames (the link's acknowledgements
    are confirmed saves), answering its repeats; at most ``linger_s``."""
    core = saved.core
    await saved.settle(link)
    end = opts.clock() + opts.linger_s
    settle_until: float | None = None
    while opts.clock() < end:
        if link.unacknowledged == 0:
            # Everything we sent is saved on the other side; wait a moment for a repeat from a
            # peer that restarted from an older state, then go.
            settle_until = settle_until or opts.clock() + opts.settle_s
            if opts.clock() >= settle_until:
                return
        try:
            frame = await asyncio.wait_for(link.recv(), 0.1)
        except TimeoutError:
            continue
        except Exception:
            return                             # the link is gone: nothing more can be done
        dropped = core.dropped
        try:
            answer = core.receive(frame)
        except ProtocolError:
            return
        _judge(link, core, dropped)
        saved.unconfirmed += 1
        if answer is None:
            await saved.settle(link)
            if core.dropped == dropped:
                resend()                       # the peer repeats itself: it may lack our last frames
            settle_until = None
            continue
        await saved.save(RECEIVED, frame, answer)
        await saved.settle(link)
        for item in answer:
            link.send_nowait(item)
        await saved.rebase_later()


def _judge(link: ReliableLink, core: PeerCore, dropped: int) -> None:
    """Tell the link whether the frame just taken came from the peer: it authenticated under the
    channel (or, during the handshake, the handshake took it or it repeats one the handshake took:
    only the peer and the relay saw those)."""
    if core.dropped != dropped:
        link.reject()
    else:
        link.vouch()


def _saved_at(base: Mapping[str, object], records: list[list[Any]]) -> float:
    """Wall time the last saved input was saved (0 when the state does not say)."""
    at = records[-1][3] if records and len(records[-1]) == 4 else base.get("at", 0.0)
    return float(at) if isinstance(at, int | float) else 0.0


def _reach(connect: Connector | None) -> RelayReach | None:
    reach = getattr(connect, "reach", None)
    return reach if isinstance(reach, RelayReach) else None


def _claim_hold(connect: Connector | None, deadline: int, waited: float) -> float:
    """Seconds an abandonment claim whose deadline passed must still wait: none without a relay
    connector; while our relay is unreachable; ``min(deadline, RELAY_GRACE_S)`` after it
    answered again; never past ``RELAY_HOLD_MAX_S`` beyond the deadline (spec/protocol.md §12.4)."""
    hold = getattr(connect, "claim_hold", None)
    return float(hold(deadline, waited)) if callable(hold) else 0.0


def _relay_down(connect: Connector | None) -> bool:
    reach = _reach(connect)
    return reach is not None and reach.down


def _bind(connect: Connector | None, core: PeerCore) -> bool:
    """Once both seats hold the session (the peer signed an envelope of it), a connector that
    pairs through a lobby (``RelayRendezvous``) derives its rejoin tag from the session id too,
    which no stranger in the lobby knows (spec/protocol.md §12.2). True once bound."""
    bind = getattr(connect, "bind", None)
    if not callable(bind):
        return True
    peer = core.peer
    if peer is None or not any(env.sender != core.setup.seat for env in peer.transcript):
        return False
    bind(peer.channel.session_id)
    return True


def _peer_bound(connect: Connector | None, core: PeerCore) -> bool:
    """Once an envelope of the peer follows one of ours in the transcript, the peer accepted ours,
    so it holds the session and pairs only under the bound tag: the connector drops the unbound
    one (spec/protocol.md §12.2). True once told."""
    settle = getattr(connect, "peer_bound", None)
    if not callable(settle):
        return True
    if core.peer is None or not peer_holds_session([env.sender for env in core.peer.transcript],
                                                   core.setup.seat):
        return False
    settle()
    return True


def peer_holds_session(senders: Sequence[int], seat: int) -> bool:
    """Whether, in transcript order, an envelope of the other seat follows one of ``seat``'s."""
    mine = False
    for sender in senders:
        if sender == seat:
            mine = True
        elif mine:
            return True
    return False


# --- result files --------------------------------------------------------------------------------

def _out_dir(core: PeerCore) -> Path:
    folder = Path(core.setup.out_dir) if core.setup.out_dir else (core.folder or Path("."))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def result_file(core: PeerCore, suffix: str) -> Path:
    """Where this match's ``suffix`` file (transcript, abandoned, evidence) is written."""
    assert core.peer is not None
    tag = core.peer.channel.session_id[:6].hex()
    return _out_dir(core) / f"match-{tag}-seat{core.setup.seat}.{suffix}"


def _finish(core: PeerCore) -> Outcome:
    assert core.peer is not None
    path = result_file(core, "transcript")
    _write(path, encode_transcript(core.handshake_record, core.peer.transcript, closed=True))
    over = core.match_over
    return Outcome("completed", core.setup.seat, messages=len(core.peer.transcript),
                   scores=over.scores if over else None, winner=over.winner if over else None, file=str(path))


def _abandon(core: PeerCore, expected: str, deadline: int) -> Outcome:
    seat = core.setup.seat
    if core.peer is None:
        return Outcome("gave_up", seat, reason="the handshake did not finish in time", absent=1 - seat)
    channel = core.peer.channel
    claim = AbandonmentClaim(session_id=channel.session_id, seq=channel.next_seq, head=channel.head,
                             claimant=seat, absent=1 - seat, expected=expected, deadline=deadline)
    transcript = encode_transcript(core.handshake_record, core.peer.transcript, closed=False)
    path = result_file(core, "abandoned")
    peer = core.peer
    deal, round_key = peer.flow.deal, b""
    if peer.party is not None and deal >= 0:
        round_key = peer.party.disclose_key()   # the match is over: it protects nothing any more
    _write(path, encode_abandonment(transcript, claim, sign_claim(core.identity, claim), deal=deal,
                                    round_key=round_key))
    return Outcome("abandoned", seat, reason=claim.describe(), messages=channel.next_seq, file=str(path),
                   absent=1 - seat)


def _time_up(core: PeerCore, expected: str, deadline: int, sink: Callable[[Event], None]) -> Outcome:
    """Our own deadline passed: take no more input, and say what the peer may now claim."""
    seat = core.setup.seat
    seq = core.peer.channel.next_seq if core.peer is not None else 0
    sink(TimeUp(seat=seat, claimant=1 - seat, seq=seq, expected=expected, deadline=deadline))
    return Outcome("timed_out", seat, messages=seq, absent=seat,
                   reason=f"your time ran out ({deadline}s for {expected}): player {1 - seat} may claim "
                          f"abandonment by player {seat} at message {seq}")


def _fail(core: PeerCore, reason: str, exc: ProtocolError | None = None) -> Outcome:
    seat = core.setup.seat
    path: Path | None = None
    if core.peer is not None and isinstance(core.peer.error or exc, RemoteViolation):
        error = cast(RemoteViolation, core.peer.error or exc)
        path = result_file(core, "evidence")
        _write(path, encode_evidence(core.handshake_record, list(core.peer.transcript), reporter=seat,
                                     reason=error.reason, message=error.message, offence=core.peer.offence()))
    return Outcome("failed", seat, reason=reason, file=str(path) if path else None,
                   messages=len(core.peer.transcript) if core.peer else 0)


def _write(path: Path, data: bytes) -> None:
    """Atomic write of a result file (readable by the user alone, like the state)."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def forget(where: JournalLike | Any) -> None:
    """Remove a saved match entirely (its folder too, when empty)."""
    journal = _journal(where)
    journal.remove()
    with contextlib.suppress(OSError):
        journal.folder.rmdir()


__all__ = ["DriverOptions", "Outcome", "create_state", "forget", "load_core", "read_state", "result_file",
           "run_peer"]
