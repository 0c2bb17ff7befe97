"""Shared test configuration: hypothesis profiles and the path to spec/ vectors."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SPEC_VECTORS = ROOT / "spec" / "vectors"

# "ci" is derandomised so a CI run is reproducible; "dev" explores more and differently each run.
settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    """Root of the normative test vectors shipped in spec/vectors."""
    return SPEC_VECTORS


def need_program(name: str, package: str) -> str:
    """A server binary from a Debian package; without it a test skips naming the package, and
    fails under CI=true (.ci/run installs it)."""
    import shutil

    binary = shutil.which(name)
    if binary is None:
        message = f"needs {name} (Debian package {package}; .ci/run installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return binary


def need_redis_server() -> str:
    return need_program("redis-server", "redis-server")


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """One real redis-server for the session (persistence off, loopback); tests use their own key prefix."""
    need_redis_server()
    from koikoi_p2p.bench.cluster import RedisProcess

    with RedisProcess() as server:
        yield server.url


@pytest.fixture
def redis_process() -> Iterator[object]:
    """A redis-server of this test's own, which the test may kill and restart."""
    need_redis_server()
    from koikoi_p2p.bench.cluster import RedisProcess

    with RedisProcess() as server:
        yield server
