"""Cross-implementation fuzz: random JavaScript matches replay identically in the Python auditor,
and a cheat by either implementation is refused by the other with the same reason, with evidence
both auditors judge alike.

The default run replays 3 random matches and has each cheat made once, by the JavaScript and the
Python implementation in turn; 8 random matches and every cheat by both with
``KOIKOI_FULL_CAMPAIGN=1 .venv/bin/python -m pytest -q tests/interop/test_js_fuzz.py``
(tests/campaign.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.campaign import full_campaign
from tests.interop.support import (
    REPO,
    WEB,
    first_divergence,
    js_peer,
    js_traces,
    js_verdicts,
    outcome,
    py_peer,
    py_trace,
    py_verdict,
    relay_process,
    require_node,
    room_code,
)

CHEATS = {"bad_key": "bad_key", "bad_shuffle": "bad_shuffle", "bad_share": "bad_share",
          "illegal_action": "illegal_action", "extra_field": "bad_message"}
# (cheat, cheater): by default each cheat once, the cheater alternating; all ten in a full campaign.
CHEAT_CASES = [(cheat, cheater) for n, cheat in enumerate(sorted(CHEATS)) for cheater in ("js", "py")
               if full_campaign() or cheater == ("js", "py")[n % 2]]
RANDOM_MATCHES = 8 if full_campaign() else 3


def test_random_js_matches_replay_in_the_python_auditor(tmp_path: Path) -> None:
    """Every message of random JS-vs-JS matches (random presets, players, 1-2 rounds) is replayed
    by the Python auditor, which must reach the same end and the same scores; the two flows never
    diverge: the same state, wait, deal and scores after every envelope."""
    node = require_node()
    script = WEB / "tools" / "selfplay_many.js"
    out = subprocess.run([node, str(script), str(tmp_path), str(RANDOM_MATCHES), "2026"],
                         capture_output=True, text=True, check=True, cwd=REPO, timeout=600).stdout
    from koikoi_p2p.audit import audit_bytes

    matches = [json.loads(line) for line in out.splitlines()]
    assert len(matches) == RANDOM_MATCHES
    for m in matches:
        report = audit_bytes(Path(m["file"]).read_bytes()).to_json()
        assert report["ok"], (m, report["deviation"], report["notes"])
        assert report["profile"] == m["rules"]
        assert list(report["scores"]) == m["scores"]  # type: ignore[call-overload]
        assert report["winner"] == m["winner"]
    paths = [Path(m["file"]) for m in matches]
    for path, js in zip(paths, js_traces(paths), strict=True):
        assert first_divergence(js, py_trace(path.read_bytes())) is None, path.name


@pytest.mark.parametrize(("cheat", "cheater"), CHEAT_CASES)
def test_cheat_refused_with_the_same_reason(tmp_path: Path, cheat: str, cheater: str) -> None:
    """The cheater hosts (seat 0); the honest joiner of the other implementation stops with the
    reason, blames seat 0, and writes evidence that both auditors find proves it."""
    node = require_node()
    cheat_file, honest_file = tmp_path / "cheater.bin", tmp_path / "honest.bin"
    # Three rounds, though every cheat ends the match at once: the act cheats wait for the
    # cheater's first act, and a dealt hand yaku (teshi, kuttsuki) can end a round before it has
    # one; the deal comes from fresh keys, so one round left the cheat unplayed now and then.
    common = ["--rounds", "3", "--seed", "4"]
    cheating = [*common, "--cheat", cheat, "--transcript", str(cheat_file)]
    honest_args = [*common, "--transcript", str(honest_file)]
    with relay_process() as relay:
        if cheater == "js":
            script = WEB / "tools" / "cheat_peer.js"
            host = subprocess.Popen([node, "--experimental-websocket", str(script), "host", "--relay", relay,
                                     *cheating],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
            guest = py_peer("join", relay, code=room_code(host), extra=honest_args)
        else:
            host = py_peer("host", relay, extra=cheating)
            guest = js_peer("join", relay, code=room_code(host), extra=honest_args)
        honest = outcome(guest)
        outcome(host)
    failure = honest["failure"]
    assert isinstance(failure, dict), honest
    assert failure["reason"] == CHEATS[cheat]
    assert failure.get("blame", failure.get("who")) == 0
    evidence = honest_file.read_bytes()
    py = py_verdict(evidence)
    js = js_verdicts([honest_file])[0]
    assert py["ok"] and js["ok"], (py, js)
    assert (js["reason"], js["index"], js.get("seat")) == (py["reason"], py["index"], py.get("seat"))
    assert (py["reason"], py.get("seat")) == (CHEATS[cheat], 0)
    assert py["index"] == failure.get("seq", py["index"])
