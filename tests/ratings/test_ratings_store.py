"""The storage interface on both backends: once and only once, all or nothing, migrations."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.ratings.board import export_json, leaderboard, recompute
from koikoi_p2p.ratings.checks import check_result
from koikoi_p2p.ratings.errors import Refused, StoreError
from koikoi_p2p.ratings.store import Store, open_store
from koikoi_p2p.ratings.store_sqlite import MIGRATIONS, SqliteStore
from koikoi_p2p.ratings.system import MU, Rating, rate
from tests.ratings.support import signed

ALICE, BOB, CAROL = Identity.generate(), Identity.generate(), Identity.generate()


def board(store: Store) -> dict[str, object]:
    return leaderboard(*store.standings())


def test_a_result_counts_once_and_moves_both_ratings(store: Store) -> None:
    rated = check_result(signed(ALICE, BOB, winner=0))
    first = store.count(rated)
    assert first.counted and first.seq == 1
    again = store.count(check_result(rated.data))
    assert not again.counted and again.seq == 1
    players = {p.key: p for p in store.standings()[0]}
    a, b = players[ALICE.public_key], players[BOB.public_key]
    expected = rate(Rating(), Rating(), 0)
    assert (a.rating, b.rating) == expected and a.rating.mu > MU > b.rating.mu
    assert (a.games, a.wins, b.losses, a.name, b.name) == (1, 1, 1, "alice", "bob")
    assert store.result_count() == 1
    history = store.history(ALICE.public_key)
    assert [(h.seq, h.outcome, h.opponent) for h in history] == [(1, "win", BOB.public_key)]


def test_another_outcome_for_a_counted_session_is_refused_and_changes_nothing(store: Store) -> None:
    session = b"\x42" * 32
    store.count(check_result(signed(ALICE, BOB, winner=0, session=session)))
    before = board(store)
    with pytest.raises(Refused) as caught:
        store.count(check_result(signed(ALICE, BOB, winner=1, session=session)))
    assert caught.value.reason == "replayed" and caught.value.status == 409
    assert board(store) == before and store.result_count() == 1


def test_names_follow_the_latest_result_and_players_are_found_by_fingerprint_or_key(store: Store) -> None:
    store.count(check_result(signed(ALICE, BOB, names=("al", "bob"))))
    store.count(check_result(signed(BOB, ALICE, names=("bobby", "Alice <3"), winner=None)))
    found = store.find_player(ALICE.fingerprint())
    assert found is not None and found.name == "Alice <3" and found.draws == 1
    by_key = store.find_player(BOB.public_key.hex())
    assert by_key is not None and by_key.name == "bobby"
    assert store.find_player("zzzz-zzzz-zzzz-zzzz") is None


def test_the_same_result_from_both_players_at_once_counts_once(store_url: str) -> None:
    """Eight connections submit one result at the same moment, and twenty distinct results
    race each other: every distinct result is counted exactly once, in one order."""
    same = check_result(signed(ALICE, BOB, winner=0))
    distinct = [check_result(signed(ALICE, CAROL, winner=i % 2)) for i in range(20)]
    stores = [open_store(store_url) for _ in range(8)]
    start = threading.Barrier(len(stores))
    outcomes: list[bool] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def worker(index: int) -> None:
        try:
            start.wait()
            mine = [stores[index].count(same).counted]
            mine += [stores[index].count(r).counted for r in distinct[index::4]]
            with lock:
                outcomes.extend(mine)
        except BaseException as exc:  # report in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert sum(outcomes) == 1 + len(distinct)  # each distinct result counted by exactly one
    check = stores[0]
    assert check.result_count() == 21
    results, claims = check.exported()
    assert [r.seq for r in results] == list(range(1, 22))
    replayed = recompute(export_json(results, claims))
    assert replayed.board == board(check)
    for s in stores:
        s.close()


def test_migrations_upgrade_an_old_database_and_refuse_a_newer_one(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
        "applied_at BIGINT NOT NULL)"
    )
    for statement in MIGRATIONS[0][2]:
        conn.execute(statement)
    conn.execute("INSERT INTO schema_migrations VALUES (1, 'results, players and history', 0)")
    conn.close()
    old = SqliteStore(path)  # migrates 1 -> 2 on open
    assert old.schema_version() == len(MIGRATIONS)
    old.count(check_result(signed(ALICE, BOB)))
    old.close()
    reopened = SqliteStore(path)
    assert reopened.result_count() == 1 and reopened.schema_version() == len(MIGRATIONS)
    reopened.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO schema_migrations VALUES (99, 'from the future', 0)")
    conn.close()
    with pytest.raises(StoreError, match="newer"):
        SqliteStore(path)


def test_migrations_on_each_backend_are_idempotent(store_url: str) -> None:
    first = open_store(store_url)
    version = first.schema_version()
    first.count(check_result(signed(ALICE, BOB)))
    first.close()
    second = open_store(store_url)
    assert second.schema_version() == version and second.result_count() == 1
    second.close()


def test_a_bad_database_url_says_so() -> None:
    with pytest.raises(StoreError, match="unknown database URL"):
        open_store("mysql://somewhere/db")
