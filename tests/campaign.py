"""Campaigns in the test suite: CI runs a small fixed sample, ``KOIKOI_FULL_CAMPAIGN=1`` every case.

A test that checks a property over many cases (every bit of a message, every phase of a match,
every subset of a set of cards) keeps in the default run a deterministic sample chosen so that
each kind of case is still there and each can still fail; the whole campaign stays one command
away, named in the test's docstring, e.g.::

    KOIKOI_FULL_CAMPAIGN=1 .venv/bin/python -m pytest -q tests/adversarial/test_mp_attacks.py

(`.ci/run` keeps the whole suite under 35 minutes on two cores; campaigns belong in benches.)
"""

from __future__ import annotations

import os


def full_campaign() -> bool:
    """True when the whole campaign was asked for (``KOIKOI_FULL_CAMPAIGN=1``)."""
    return os.environ.get("KOIKOI_FULL_CAMPAIGN") == "1"


def bits_to_flip(length: int) -> list[int]:
    """The bits of a ``length``-byte message to flip: every bit in a full campaign, else one bit
    of every byte, its position within the byte moving from byte to byte (so every position and
    every field of the message is hit)."""
    if full_campaign():
        return list(range(length * 8))
    return [8 * i + (3 * i) % 8 for i in range(length)]
