"""SQLite storage (the default): one embedded file, nothing to install (spec/ratings.md §5).

WAL journal and ``synchronous=FULL``: a commit is on disk before the service answers, and
readers never wait for the writer. ``BEGIN IMMEDIATE`` takes the write lock at the start of a
counting transaction, so two processes or threads counting at once are put in one order;
``busy_timeout`` makes the second wait for the first instead of failing.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from koikoi_p2p.ratings.errors import StoreError
from koikoi_p2p.ratings.store import Migration, Store

MIGRATIONS: tuple[Migration, ...] = (
    (
        1,
        "results, players and history",
        (
            "CREATE TABLE results (seq INTEGER PRIMARY KEY, session BLOB NOT NULL UNIQUE, "
            "digest BLOB NOT NULL, data BLOB NOT NULL, key0 BLOB NOT NULL, key1 BLOB NOT NULL, "
            "winner INTEGER, accepted_at INTEGER NOT NULL)",
            "CREATE TABLE players (key BLOB PRIMARY KEY, fingerprint TEXT NOT NULL, name TEXT NOT NULL, "
            "mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL, wins INTEGER NOT NULL, "
            "losses INTEGER NOT NULL, draws INTEGER NOT NULL, last_seq INTEGER NOT NULL)",
            "CREATE INDEX players_fingerprint ON players (fingerprint)",
            "CREATE TABLE history (seq INTEGER NOT NULL REFERENCES results (seq), key BLOB NOT NULL, "
            "seat INTEGER NOT NULL, opponent BLOB NOT NULL, outcome TEXT NOT NULL, mu_before REAL NOT NULL, "
            "sigma_before REAL NOT NULL, mu_after REAL NOT NULL, sigma_after REAL NOT NULL, "
            "PRIMARY KEY (key, seq))",
        ),
    ),
    (
        2,
        "abandonment claims",
        (
            "CREATE TABLE abandonments (seq INTEGER PRIMARY KEY, session BLOB NOT NULL UNIQUE, "
            "absent BLOB NOT NULL, claimant BLOB NOT NULL, message INTEGER NOT NULL, digest BLOB NOT NULL, "
            "data BLOB NOT NULL, accepted_at INTEGER NOT NULL)",
            "CREATE INDEX abandonments_absent ON abandonments (absent)",
        ),
    ),
)


def sqlite_path(url: str) -> Path:
    """``sqlite:///abs/path`` (three slashes, then the path without its leading one),
    ``sqlite:relative/path`` or a bare path."""
    for prefix in ("sqlite:///", "sqlite://", "sqlite:"):
        if url.startswith(prefix):
            rest = url[len(prefix) :]
            return Path("/" + rest) if prefix == "sqlite:///" else Path(rest)
    if "://" in url:
        raise StoreError(f"unknown database URL {url!r}: use sqlite:///PATH or postgresql://...")
    return Path(url)


class SqliteStore(Store):
    migrations = MIGRATIONS

    def __init__(self, path: Path) -> None:
        self.path = path
        # The URL of the absolute path, which is what was typed for sqlite:///PATH; "sqlite:///"
        # + "/var/x" would print four slashes, another URL than the one typed.
        self.description = "sqlite:///" + str(path.absolute()).lstrip("/")
        # The file is created, its folder is not: a typo in the folder must not start an empty
        # leaderboard somewhere unexpected (spec/ratings.md §5.1).
        if not path.parent.is_dir():
            raise StoreError(f"the folder {path.parent} of the rating store does not exist: create it "
                             "first, or name another")
        super().__init__()

    def _connect(self) -> Any:
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=60.0, check_same_thread=False)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from None
        return conn

    def _begin_exclusive(self, cur: Any) -> None:
        cur.execute("BEGIN IMMEDIATE")

    def _begin_migration(self, cur: Any) -> None:
        cur.execute("BEGIN IMMEDIATE")
