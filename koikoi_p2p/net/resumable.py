"""The crash-safe peer (spec/protocol.md §12), split by role; this module gathers its public names.

- ``net.core``: the sans-I/O peer core (``PeerCore``, ``PeerSetup``, ``DeterministicRng``): frames
  and decisions in, frames and events out, snapshot and replay;
- ``net.journal``: the storage (``Journal``): an append-only, checksummed record per accepted
  message, a snapshot at each deal boundary, an exclusive lock on the folder;
- ``net.driver``: the asyncio driver (``run_peer``, ``DriverOptions``, ``Outcome``): the link,
  re-sends, both sides' deadlines, the result files, forgetting the secrets at the end.
"""

from __future__ import annotations

from koikoi_p2p.net.core import DeterministicRng, PeerCore, PeerSetup, ResumeError
from koikoi_p2p.net.driver import (
    DriverOptions,
    Outcome,
    create_state,
    forget,
    load_core,
    read_state,
    result_file,
    run_peer,
)
from koikoi_p2p.net.journal import Journal

__all__ = ["DeterministicRng", "DriverOptions", "Journal", "Outcome", "PeerCore", "PeerSetup", "ResumeError",
           "create_state", "forget", "load_core", "read_state", "result_file", "run_peer"]
