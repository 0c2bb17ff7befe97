"""Shared test configuration: hypothesis profiles and the path to spec/ vectors."""

from __future__ import annotations

import os
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
