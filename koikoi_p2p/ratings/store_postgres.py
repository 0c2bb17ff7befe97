"""PostgreSQL storage through psycopg 3, for several relays sharing one service (spec/ratings.md §5).

Counting takes a transaction-scoped advisory lock, so every process that counts against this
database does it one at a time and sequence numbers follow the order of the rating updates; it
is released by COMMIT or ROLLBACK, and by the server when a killed client's connection drops.
Reads run in REPEATABLE READ, one consistent snapshot per request.
"""

from __future__ import annotations

from typing import Any

from koikoi_p2p.ratings.errors import StoreError
from koikoi_p2p.ratings.store import Migration, Store

COUNT_LOCK = 0x6B6F696B6F690001  # "koikoi" + 1: the counting lock's advisory key
MIGRATION_LOCK = 0x6B6F696B6F690002

MIGRATIONS: tuple[Migration, ...] = (
    (
        1,
        "results, players and history",
        (
            "CREATE TABLE results (seq BIGINT PRIMARY KEY, session BYTEA NOT NULL UNIQUE, "
            "digest BYTEA NOT NULL, data BYTEA NOT NULL, key0 BYTEA NOT NULL, key1 BYTEA NOT NULL, "
            "winner INTEGER, accepted_at BIGINT NOT NULL)",
            "CREATE TABLE players (key BYTEA PRIMARY KEY, fingerprint TEXT NOT NULL, name TEXT NOT NULL, "
            "mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL, games BIGINT NOT NULL, "
            "wins BIGINT NOT NULL, losses BIGINT NOT NULL, draws BIGINT NOT NULL, last_seq BIGINT NOT NULL)",
            "CREATE INDEX players_fingerprint ON players (fingerprint)",
            "CREATE TABLE history (seq BIGINT NOT NULL REFERENCES results (seq), key BYTEA NOT NULL, "
            "seat INTEGER NOT NULL, opponent BYTEA NOT NULL, outcome TEXT NOT NULL, "
            "mu_before DOUBLE PRECISION NOT NULL, sigma_before DOUBLE PRECISION NOT NULL, "
            "mu_after DOUBLE PRECISION NOT NULL, sigma_after DOUBLE PRECISION NOT NULL, "
            "PRIMARY KEY (key, seq))",
        ),
    ),
    (
        2,
        "abandonment claims",
        (
            "CREATE TABLE abandonments (seq BIGINT PRIMARY KEY, session BYTEA NOT NULL UNIQUE, "
            "absent BYTEA NOT NULL, claimant BYTEA NOT NULL, message BIGINT NOT NULL, digest BYTEA NOT NULL, "
            "data BYTEA NOT NULL, accepted_at BIGINT NOT NULL)",
            "CREATE INDEX abandonments_absent ON abandonments (absent)",
        ),
    ),
)


class PostgresStore(Store):
    migrations = MIGRATIONS
    placeholder = "%s"

    def __init__(self, url: str) -> None:
        self.url = url
        self.description = _without_password(url)
        super().__init__()

    def _connect(self) -> Any:
        import psycopg

        try:
            return psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to {self.description}: {exc}") from None

    def _lost(self, conn: Any) -> bool:
        # psycopg marks a connection whose server went away (a restart, a network cut) "broken".
        return bool(conn.broken or conn.closed)

    def _begin_exclusive(self, cur: Any) -> None:
        cur.execute("BEGIN")
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (COUNT_LOCK,))

    def _begin_shared(self, cur: Any) -> None:
        cur.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def _begin_migration(self, cur: Any) -> None:
        cur.execute("BEGIN")
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))


def _without_password(url: str) -> str:
    """The URL as logs and errors may show it."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))
