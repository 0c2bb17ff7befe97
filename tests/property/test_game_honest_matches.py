"""No false alarm: honest peers with random seeds and presets always finish and verify."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_p2p.audit import audit_bytes
from koikoi_p2p.protocol.flow import Phase
from koikoi_p2p.rules.profile import PRESETS
from tests.protocol.game_support import make_pair, run, transcript_bytes


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(sorted(PRESETS)))
def test_honest_match_completes_and_verifies(seed: int, rules: str) -> None:
    pair = run(make_pair(rules=rules, rounds=1, seed=seed))
    assert pair.errors == [None, None]
    assert pair.peers[0].phase is Phase.DONE and pair.peers[1].phase is Phase.DONE
    data = transcript_bytes(pair)
    assert data == transcript_bytes(pair, seat=1)
    assert audit_bytes(data).ok
