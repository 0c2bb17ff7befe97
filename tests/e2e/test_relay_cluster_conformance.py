"""The in-process relay's own end-to-end tests, run again against a two-node cluster on a real Redis.

Each test body is the original one; only its ``relay()`` is replaced by two cluster nodes behind a
front whose port alternates, so every second connection (the joiner, a resumed seat) lands on the
other node. Left out: the tests that look inside the in-process registry or patch its methods.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import AsyncIterator, Callable
from types import ModuleType
from typing import Any

import pytest

from koikoi_relay.server import RelayServer
from tests.adversarial import test_relay_chaos
from tests.e2e import test_relay_client, test_relay_limits, test_relay_rooms
from tests.e2e.test_relay_support import cluster


class Front:
    """Looks like one RelayServer to the tests; each ``port`` read names the next node."""

    def __init__(self, nodes: list[RelayServer]) -> None:
        self.nodes = nodes
        self._next = itertools.cycle(nodes)

    @property
    def port(self) -> int:
        return next(self._next).port

    def metrics_text(self) -> str:
        return self.nodes[0].metrics_text()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.nodes[0], name)


SKIP = {
    # They read or patch the in-process registry (code lookups, monkeypatched methods).
    "test_idle_connection_and_idle_room_expire", "test_resume_grace_expiry_closes_the_room",
    "test_an_internal_error_ends_one_connection_only",
    # Counters and limits of one process: a cluster counts on each node (a frame on its sender's),
    # and the connection limit is per node.
    "test_health_metrics_and_unknown_paths", "test_message_rate", "test_total_connections",
    "test_malformed_input_is_answered_and_other_rooms_notice_nothing",
    # A cluster node stopping closes seats as resumable (1012), not with the shutdown notice (§13.7).
    "test_local_checks_and_shutdown",
}
MODULES: list[ModuleType] = [test_relay_rooms, test_relay_limits, test_relay_client, test_relay_chaos]
CASES = [(module, name) for module in MODULES for name in sorted(dir(module))
         if name.startswith("test_") and name not in SKIP]


@pytest.mark.parametrize(("module", "name"), CASES,
                         ids=[f"{m.__name__.rsplit('.', 1)[1]}::{n}" for m, n in CASES])
def test_cluster_conforms(module: ModuleType, name: str, redis_url: str,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    @contextlib.asynccontextmanager
    async def two_nodes(**limits: Any) -> AsyncIterator[Front]:
        async with cluster(redis_url, 2, **limits) as nodes:
            yield Front(nodes)

    monkeypatch.setattr(module, "relay", two_nodes)
    test: Callable[[], None] = getattr(module, name)
    test()
