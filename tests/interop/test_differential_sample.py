"""A fixed small sample of the differential campaign (``koikoi bench differential``, issue 27):
Python and JavaScript seats play each other in both seatings, with changed switches, several
computer levels and forced rare deals, and both auditors must accept every transcript; and the
seeded 12-round ``koikoi selfplay --seed 1`` match, which the JavaScript auditor once refused
(its deal 4 is void at its opening, inside the second disclose of deal 3).

The default run plays the campaign's matches 2 and 3 of seed 1 (both seatings, both forced rare
deals); with ``KOIKOI_FULL_CAMPAIGN=1 .venv/bin/python -m pytest -q
tests/interop/test_differential_sample.py`` (tests/campaign.py) its first four, and
``koikoi bench differential`` runs the whole campaign."""

from __future__ import annotations

import asyncio
from pathlib import Path

from koikoi_p2p.bench.differential import campaign, plan
from tests.campaign import full_campaign
from tests.interop.support import js_verdicts, py_verdict, require_node


def test_a_fixed_sample_of_the_differential_campaign(tmp_path: Path) -> None:
    require_node()
    start, matches = (0, 4) if full_campaign() else (2, 2)
    plans = [plan(1, i) for i in range(start, start + matches)]
    assert {p.py_seat for p in plans} == {0, 1}
    assert {p.scenario for p in plans} >= {"field_month", "hand_yaku_both"}
    records = campaign(seed=1, start=start, matches=matches, max_seconds=3600, workdir=tmp_path, log=None)
    assert len(records) == matches
    for record in records:
        assert record.live_ok, record.to_json()
        assert record.py_verdict == {"ok": True, "reason": None, "index": None}, record.to_json()
        assert record.agree, record.to_json()
    reasons = {reason for record in records for reason in record.reasons}
    assert {"field_month", "both_hand_yaku"} <= reasons


def test_the_seed_1_twelve_round_match_verifies_in_both_auditors(tmp_path: Path) -> None:
    require_node()
    from koikoi_p2p.net.selfplay import selfplay

    played = asyncio.run(selfplay(rounds=12, seed=1, rules="nintendo"))
    assert played.transcripts[0] == played.transcripts[1]
    path = tmp_path / "seed1.transcript"
    path.write_bytes(played.transcripts[0])
    assert py_verdict(path.read_bytes()) == {"ok": True, "reason": None, "index": None}
    assert js_verdicts([path]) == [{"ok": True, "reason": None, "index": None}]
