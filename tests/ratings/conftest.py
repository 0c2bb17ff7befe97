"""Fixtures of the rating service's tests: a store of each kind, fresh for every test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from koikoi_p2p.ratings.store import Store, open_store
from tests.ratings.postgres import PostgresServer, postgres_server


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    with postgres_server() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL of each backend, empty."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ratings.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    opened = open_store(store_url)
    yield opened
    opened.close()
