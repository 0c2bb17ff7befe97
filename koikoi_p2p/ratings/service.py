"""The rating service: checks submissions, counts them in the store, serves the readings
(spec/ratings.md §3, §7). Store calls and signature checks run in worker threads, so the event
loop (shared with the relay in ``koikoi relay --ratings``) never waits on the database.

An abandonment file costs a full replay (about a second per 0.4 MB), so the service pays for one
only when it must (§6.1): a claim for a session already recorded is answered from the store, a
file refused before is refused again from memory (by its SHA-256), replays run one at a time, and
one source may have only ``MAX_CLAIMS_PER_SOURCE`` of them waiting.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import re
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from koikoi_p2p.protocol.identity import fingerprint
from koikoi_p2p.ratings.board import export_json, history_json, leaderboard
from koikoi_p2p.ratings.checks import check_abandonment, check_result, claim_session
from koikoi_p2p.ratings.errors import Refused
from koikoi_p2p.ratings.ledger import Player
from koikoi_p2p.ratings.store import Store

T = TypeVar("T")
# What GET /ratings/PLAYER may name (§7.2): a fingerprint (protocol/identity.py) or a key in hex.
NAMES_A_KEY = re.compile(r"[a-z2-7]{4}(?:-[a-z2-7]{4}){3}|[0-9a-f]{64}")
CLAIM_ANSWER_SECONDS = 8.0
MAX_WAITING_CLAIMS = 8      # claims being checked or queued; more are answered 503
MAX_CLAIMS_PER_SOURCE = 2   # of those, from one source address; more are answered 429
REFUSED_MEMORY = 4096       # digests of refused claim files remembered (oldest forgotten first)
log = logging.getLogger("koikoi.ratings")


class RatingService:
    def __init__(self, store: Store, *, workers: int = 4) -> None:
        self.store = store
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ratings")
        self._claims = asyncio.Semaphore(1)
        self._waiting_claims = 0
        self._claims_by_source: Counter[str] = Counter()
        self._refused: OrderedDict[bytes, Refused] = OrderedDict()
        self._background: set[asyncio.Future[dict[str, object]]] = set()

    async def _run(self, fn: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(fn, *args))

    async def submit_result(self, data: bytes) -> dict[str, object]:
        """Check and count a co-signed result; ``Refused`` says why not. A repeat is a no-op."""
        rated = await self._run(check_result, data)
        counted = await self._run(self.store.count, rated)
        log.info(
            "result %s session=%s seq=%d",
            "counted" if counted.counted else "repeated",
            rated.session.hex()[:16],
            counted.seq,
        )
        return {"ok": True, "counted": counted.counted, "seq": counted.seq, "session": rated.session.hex()}

    async def submit_abandonment(self, data: bytes, *, source: str = "") -> dict[str, object]:
        """Check an abandonment file (a full replay) and record its claim once per session. A
        check that takes longer than ``CLAIM_ANSWER_SECONDS`` goes on after the answer, which is
        then "pending" (202), so a client is not left waiting on a long replay.

        Before any replay: a claim for a session with a recorded claim is answered with that
        record, a file refused before gets the same refusal, and ``source`` (the client's address)
        may have at most ``MAX_CLAIMS_PER_SOURCE`` claims waiting (429 ``too_many_claims``)."""
        digest = hashlib.sha256(data).digest()
        refused = self._refused.get(digest)
        if refused is not None:
            self._refused.move_to_end(digest)
            raise Refused(refused.reason, refused.message, refused.status)
        session = await self._run(claim_session, data)
        if session is not None:
            seq = await self._run(self.store.claim_recorded, session)
            if seq is not None:
                return {"ok": True, "counted": False, "seq": seq, "session": session.hex()}
        if self._claims_by_source[source] >= MAX_CLAIMS_PER_SOURCE:
            raise Refused("too_many_claims", "claims from this address are being checked: try later",
                          429)
        if self._waiting_claims >= MAX_WAITING_CLAIMS:
            raise Refused("busy", "too many abandonment claims are being checked: send it again later", 503)
        # Counted here, with no await since the checks above, so that claims arriving together
        # cannot all pass them.
        self._waiting_claims += 1
        self._claims_by_source[source] += 1
        task = asyncio.ensure_future(self._abandonment(data, digest, session, source))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        try:
            return await asyncio.wait_for(asyncio.shield(task), CLAIM_ANSWER_SECONDS)
        except TimeoutError:
            return {"ok": True, "pending": True}

    async def _abandonment(self, data: bytes, digest: bytes, session: bytes | None,
                           source: str) -> dict[str, object]:
        try:
            async with self._claims:
                seq = None if session is None else await self._run(self.store.claim_recorded, session)
                if session is not None and seq is not None:      # recorded while this one waited
                    return {"ok": True, "counted": False, "seq": seq, "session": session.hex()}
                try:
                    claim = await self._run(check_abandonment, data)
                except Refused as exc:
                    self._refused[digest] = exc
                    while len(self._refused) > REFUSED_MEMORY:
                        self._refused.popitem(last=False)
                    raise
        finally:
            self._waiting_claims -= 1
            self._claims_by_source[source] -= 1
            if self._claims_by_source[source] <= 0:
                del self._claims_by_source[source]
        counted = await self._run(self.store.add_abandonment, claim)
        log.info(
            "abandonment claim %s session=%s",
            "recorded" if counted.counted else "repeated",
            claim.session.hex()[:16],
        )
        return {"ok": True, "counted": counted.counted, "seq": counted.seq, "session": claim.session.hex()}

    async def leaderboard(self) -> dict[str, object]:
        players, abandoned, count = await self._run(self.store.standings)
        return leaderboard(players, abandoned, count)

    async def player(self, who: str) -> dict[str, object] | None:
        """A player's standing and history; a key known only from claims against it (§7.2) is
        a new player's standing with no history, so that its claims can be looked up. Text that
        names no key (neither a fingerprint nor 64 hex digits) is answered without a query."""
        if not NAMES_A_KEY.fullmatch(who.strip().lower()):
            return None
        player = await self._run(self.store.find_player, who)
        players, abandoned, _ = await self._run(self.store.standings)
        if player is None:
            key = _claimed(who, abandoned)
            return None if key is None else history_json(Player.new(key, ""), abandoned[key], [], {})
        lines = await self._run(self.store.history, player.key)
        names = {p.key: p.name for p in players}
        return history_json(player, abandoned.get(player.key, 0), lines, names)

    async def export(self) -> dict[str, object]:
        results, claims = await self._run(self.store.exported)
        return export_json(results, claims)

    async def healthy(self) -> None:
        """Raise StoreError unless the store answers now: ``/healthz`` fails while the database is
        unreachable, so a balancer stops routing here (spec/ratings.md §5.5)."""
        await self._run(self.store.ping)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.store.close()


def _claimed(who: str, abandoned: dict[bytes, int]) -> bytes | None:
    """The key among those with standing claims that ``who`` names (its fingerprint or its 64 hex
    digits, as ``Store.find_player`` reads them), else None."""
    text = who.strip().lower()
    return next((key for key in abandoned if text in (key.hex(), fingerprint(key))), None)
