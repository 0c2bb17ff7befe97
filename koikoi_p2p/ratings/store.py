"""The rating service's storage: one small interface, SQLite and PostgreSQL behind it (spec/ratings.md §5).

Every submission is counted in one transaction that holds the service-wide write lock: look the
session up, read both players, apply the rating rule (``ledger.apply``), write the result, both
players and both history lines, commit. The lock gives every counted result its sequence number
in the order the ratings were computed, so the export replays to the same standings; the
session's UNIQUE constraint is the second line of defence. A process killed at any point leaves
either the whole submission or none of it.

The two backends differ only in their dialect (placeholders, column types, how the lock is
taken) and their migrations; the SQL of the operations is shared here.
"""

from __future__ import annotations

import contextlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from koikoi_p2p.protocol.identity import fingerprint
from koikoi_p2p.ratings.checks import Abandonment, RatedResult
from koikoi_p2p.ratings.errors import Refused, StoreError
from koikoi_p2p.ratings.ledger import HistoryLine, Player, apply
from koikoi_p2p.ratings.system import Rating


@dataclass(frozen=True, slots=True)
class Counted:
    """The answer to a submission that was not refused."""

    seq: int
    counted: bool  # False: this result was already counted (a no-op)


@dataclass(frozen=True, slots=True)
class Exported:
    """One line of the export: what was counted, in which order, when."""

    seq: int
    accepted_at: int  # Unix seconds (information only: no computation uses it)
    data: bytes


# (version, name, statements) per backend; a database records which versions it has applied.
Migration = tuple[int, str, Sequence[str]]


class Store(ABC):
    """The storage interface. Methods are blocking; the service calls them from worker threads,
    each of which gets its own connection."""

    migrations: Sequence[Migration] = ()
    placeholder = "?"

    def __init__(self) -> None:
        self._local = threading.local()
        self._connections: list[Any] = []
        self._guard = threading.Lock()
        self.migrate()

    # -- what a backend provides ----------------------------------------------------------------

    @abstractmethod
    def _connect(self) -> Any:
        """A new DB-API connection in autocommit mode (transactions are explicit)."""

    @abstractmethod
    def _begin_exclusive(self, cur: Any) -> None:
        """Open a transaction holding the store-wide write lock."""

    @abstractmethod
    def _begin_migration(self, cur: Any) -> None:
        """Open a transaction that excludes every other migrating process."""

    description = "store"

    # -- connections and transactions -----------------------------------------------------------

    def _conn(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is not None and self._lost(conn):
            self._drop(conn)
            conn = None
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
            with self._guard:
                self._connections.append(conn)
        return conn

    def _sql(self, text: str) -> str:
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def _lost(self, conn: Any) -> bool:
        """Whether ``conn`` can no longer be used (its server went away); a backend that can tell
        says so, so that the connection is dropped and the next request opens a new one (§5.5)."""
        return False

    def _drop(self, conn: Any) -> None:
        """Forget this thread's connection ``conn`` (closed quietly: it is already broken)."""
        with self._guard:
            if conn in self._connections:
                self._connections.remove(conn)
        if getattr(self._local, "conn", None) is conn:
            self._local.conn = None
        with contextlib.suppress(Exception):
            conn.close()

    def _open(self, exclusive: bool) -> tuple[Any, Any]:
        """This thread's connection and a cursor in a new transaction. A connection found lost at
        BEGIN (nothing was done on it) is replaced once, so the first request after the database
        restarts is served (spec/ratings.md §5.5)."""
        for attempt in (1, 2):
            conn = self._conn()
            try:
                cur = conn.cursor()
                (self._begin_exclusive if exclusive else self._begin_shared)(cur)
            except Exception as exc:
                if not self._lost(conn):
                    raise
                self._drop(conn)
                if attempt == 2:
                    raise StoreError(f"the connection to {self.description} was lost: {exc}") from None
                continue
            return conn, cur
        raise AssertionError("unreachable")

    @contextmanager
    def _transaction(self, exclusive: bool = True) -> Iterator[Any]:
        conn, cur = self._open(exclusive)
        try:
            try:
                yield cur
            except BaseException:
                self._finish(conn, cur, "ROLLBACK")
                raise
            self._finish(conn, cur, "COMMIT")
        finally:
            with contextlib.suppress(Exception):
                cur.close()

    def _finish(self, conn: Any, cur: Any, statement: str) -> None:
        try:
            cur.execute(statement)
        except Exception as exc:
            if not self._lost(conn):
                raise
            # Nothing to end on a dead connection (the server rolled it back): drop it, and say
            # "store unavailable" rather than fail as an internal error (spec/ratings.md §5.5).
            self._drop(conn)
            raise StoreError(f"the connection to {self.description} was lost: {exc}") from None

    def ping(self) -> None:
        """Raise StoreError unless the database answers now (for ``/healthz``)."""
        self._query("SELECT 1")

    def _begin_shared(self, cur: Any) -> None:
        """Open a read-only transaction that sees one consistent state."""
        cur.execute("BEGIN")

    def _query(self, text: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        with self._transaction(exclusive=False) as cur:
            cur.execute(self._sql(text), tuple(params))
            return list(cur.fetchall())

    def close(self) -> None:
        """Close every connection any thread opened."""
        with self._guard:
            connections, self._connections = self._connections, []
        for conn in connections:
            with contextlib.suppress(Exception):  # a broken connection must not hide the real error
                conn.close()
        self._local = threading.local()

    # -- migrations ---------------------------------------------------------------------------

    def migrate(self) -> int:
        """Apply every migration this database lacks, each in its own transaction; the version."""
        known = max((m[0] for m in self.migrations), default=0)
        conn = self._conn()
        cur = conn.cursor()
        try:
            self._begin_migration(cur)
            cur.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
            )
            cur.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
            current = int(cur.fetchone()[0])
            if current > known:
                raise StoreError(
                    f"the database has schema version {current}, newer than this program's "
                    f"{known}: upgrade koikoi"
                )
            for version, name, statements in self.migrations:
                if version <= current:
                    continue
                for statement in statements:
                    cur.execute(statement)
                cur.execute(
                    self._sql(
                        "INSERT INTO schema_migrations (version, name, applied_at) "
                        "VALUES (?, ?, CAST(? AS BIGINT))"
                    ),
                    (version, name, _now()),
                )
            cur.execute("COMMIT")
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        finally:
            cur.close()
        return known

    def schema_version(self) -> int:
        rows = self._query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(rows[0][0])

    # -- counting -----------------------------------------------------------------------------

    def count(self, rated: RatedResult, now: int | None = None) -> Counted:
        """Count a checked result once: a repeat of a counted outcome is a no-op; another outcome
        for a counted session is refused ("replayed"). All or nothing."""
        result = rated.result
        with self._transaction() as cur:
            cur.execute(self._sql("SELECT seq, digest FROM results WHERE session = ?"), (rated.session,))
            row = cur.fetchone()
            if row is not None:
                if bytes(row[1]) == rated.digest:
                    return Counted(seq=int(row[0]), counted=False)
                raise Refused("replayed", "this session was already counted with another outcome", 409)
            cur.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM results")
            seq = int(cur.fetchone()[0])
            before = (self._player(cur, result.keys[0]), self._player(cur, result.keys[1]))
            after, lines = apply(result, seq, before)
            cur.execute(
                self._sql(
                    "INSERT INTO results (seq, session, digest, data, key0, key1, winner, accepted_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                ),
                (
                    seq,
                    rated.session,
                    rated.digest,
                    rated.data,
                    result.keys[0],
                    result.keys[1],
                    result.winner,
                    now if now is not None else _now(),
                ),
            )
            for player, line in zip(after, lines, strict=True):
                self._write_player(cur, player)
                self._write_line(cur, line)
            return Counted(seq=seq, counted=True)

    def _player(self, cur: Any, key: bytes) -> Player | None:
        cur.execute(
            self._sql(
                "SELECT key, name, mu, sigma, games, wins, losses, draws, last_seq FROM players WHERE key = ?"
            ),
            (key,),
        )
        row = cur.fetchone()
        return None if row is None else _player_from(row)

    def _write_player(self, cur: Any, p: Player) -> None:
        cur.execute(
            self._sql(
                "INSERT INTO players (key, fingerprint, name, mu, sigma, games, wins, losses, draws, "
                "last_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
                "sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, "
                "losses = excluded.losses, draws = excluded.draws, last_seq = excluded.last_seq"
            ),
            (
                p.key,
                fingerprint(p.key),
                p.name,
                p.rating.mu,
                p.rating.sigma,
                p.games,
                p.wins,
                p.losses,
                p.draws,
                p.last_seq,
            ),
        )

    def _write_line(self, cur: Any, line: HistoryLine) -> None:
        cur.execute(
            self._sql(
                "INSERT INTO history (seq, key, seat, opponent, outcome, mu_before, sigma_before, mu_after, "
                "sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ),
            (
                line.seq,
                line.key,
                line.seat,
                line.opponent,
                line.outcome,
                line.before.mu,
                line.before.sigma,
                line.after.mu,
                line.after.sigma,
            ),
        )

    # -- abandonment claims -------------------------------------------------------------------

    def add_abandonment(self, claim: Abandonment, now: int | None = None) -> Counted:
        """Record an upheld claim once per session (the first claim of a session stands)."""
        with self._transaction() as cur:
            cur.execute(self._sql("SELECT seq, digest FROM abandonments WHERE session = ?"), (claim.session,))
            row = cur.fetchone()
            if row is not None:
                return Counted(seq=int(row[0]), counted=False)
            cur.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM abandonments")
            seq = int(cur.fetchone()[0])
            cur.execute(
                self._sql(
                    "INSERT INTO abandonments (seq, session, absent, claimant, message, digest, data, "
                    "accepted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                ),
                (
                    seq,
                    claim.session,
                    claim.absent,
                    claim.claimant,
                    claim.message,
                    claim.digest,
                    claim.data,
                    now if now is not None else _now(),
                ),
            )
            return Counted(seq=seq, counted=True)

    def claim_recorded(self, session: bytes) -> int | None:
        """The seq of the claim recorded for ``session``, None when there is none."""
        rows = self._query("SELECT seq FROM abandonments WHERE session = ?", (session,))
        return int(rows[0][0]) if rows else None

    # -- reading ------------------------------------------------------------------------------

    def standings(self) -> tuple[list[Player], dict[bytes, int], int]:
        """Every player, the abandonment counts and the number of counted results, as of one moment."""
        with self._transaction(exclusive=False) as cur:
            cur.execute("SELECT key, name, mu, sigma, games, wins, losses, draws, last_seq FROM players")
            players = [_player_from(row) for row in cur.fetchall()]
            cur.execute(
                "SELECT absent, COUNT(*) FROM abandonments WHERE session NOT IN "
                "(SELECT session FROM results) GROUP BY absent"
            )
            abandoned = {bytes(key): int(n) for key, n in cur.fetchall()}
            cur.execute("SELECT COUNT(*) FROM results")
            count = int(cur.fetchone()[0])
        return players, abandoned, count

    def find_player(self, who: str) -> Player | None:
        """A player by fingerprint (``abcd-efgh-...``) or by the 64 hex digits of the key."""
        text = who.strip().lower()
        value: bytes | str
        if len(text) == 64 and all(c in "0123456789abcdef" for c in text):
            column, value = "key", bytes.fromhex(text)
        else:
            column, value = "fingerprint", text
        rows = self._query(
            f"SELECT key, name, mu, sigma, games, wins, losses, draws, last_seq FROM players "  # noqa: S608
            f"WHERE {column} = ?",
            (value,),
        )
        return _player_from(rows[0]) if rows else None

    def history(self, key: bytes) -> list[HistoryLine]:
        rows = self._query(
            "SELECT seq, key, seat, opponent, outcome, mu_before, sigma_before, mu_after, "
            "sigma_after FROM history WHERE key = ? ORDER BY seq",
            (key,),
        )
        return [
            HistoryLine(
                seq=int(r[0]),
                key=bytes(r[1]),
                seat=int(r[2]),
                opponent=bytes(r[3]),
                outcome=str(r[4]),
                before=Rating(float(r[5]), float(r[6])),
                after=Rating(float(r[7]), float(r[8])),
            )
            for r in rows
        ]

    def result_count(self) -> int:
        return int(self._query("SELECT COUNT(*) FROM results")[0][0])

    def exported(self) -> tuple[list[Exported], list[Exported]]:
        """Every counted result and every recorded claim, in sequence order, as of one moment."""
        with self._transaction(exclusive=False) as cur:
            cur.execute("SELECT seq, accepted_at, data FROM results ORDER BY seq")
            results = [Exported(seq=int(s), accepted_at=int(t), data=bytes(d)) for s, t, d in cur.fetchall()]
            cur.execute("SELECT seq, accepted_at, data FROM abandonments ORDER BY seq")
            claims = [Exported(seq=int(s), accepted_at=int(t), data=bytes(d)) for s, t, d in cur.fetchall()]
        return results, claims


def _player_from(row: Sequence[Any]) -> Player:
    key, name, mu, sigma, games, wins, losses, draws, last_seq = row
    return Player(
        key=bytes(key),
        name=str(name),
        rating=Rating(float(mu), float(sigma)),
        games=int(games),
        wins=int(wins),
        losses=int(losses),
        draws=int(draws),
        last_seq=int(last_seq),
    )


def _now() -> int:
    import time

    return int(time.time())


def open_store(url: str) -> Store:
    """``sqlite:///PATH`` (or a plain path) or ``postgresql://USER@HOST:PORT/DB``."""
    if url.startswith(("postgresql://", "postgres://")):
        from koikoi_p2p.ratings.store_postgres import PostgresStore

        return PostgresStore(url)
    from koikoi_p2p.ratings.store_sqlite import SqliteStore, sqlite_path

    return SqliteStore(sqlite_path(url))
