"""A JavaScript peer (web/) against the Python peer through a real relay process on loopback:
every preset, both seats, with a password and with the SAS. Both transcripts must be byte for
byte the same, the two flows in the same public state after every envelope, and verify with both
auditors; single-byte changes are refused by both auditors with the same reason at the same
message; a resignation by either ends alike."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from koikoi_p2p.rules.profile import PRESETS
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

# Every preset with the JavaScript peer in both seats; the password alternates so that each preset
# plays both with a password and with the SAS, and each seat meets both modes.
CASES = [(rules, js_seat, (i + js_seat) % 2 == 1)
         for i, rules in enumerate(sorted(PRESETS)) for js_seat in (0, 1)]


def play(relay: str, tmp: Path, rules: str, js_seat: int, password: bool, seed: int) -> tuple[Path, Path]:
    js_file, py_file = tmp / "js.transcript", tmp / "py.transcript"
    common = ["--rules", rules, "--rounds", "1", "--seed", str(seed)]
    if password:
        common += ["--password", "plum blossom"]
    if js_seat == 0:
        host = js_peer("host", relay, extra=[*common, "--transcript", str(js_file)])
        guest = py_peer("join", relay, code=room_code(host), extra=[*common, "--transcript", str(py_file)])
    else:
        host = py_peer("host", relay, extra=[*common, "--transcript", str(py_file)])
        guest = js_peer("join", relay, code=room_code(host), extra=[*common, "--transcript", str(js_file)])
    results = [outcome(guest), outcome(host)]
    for r in results:
        assert r["ok"], r
    assert results[0]["scores"] == results[1]["scores"]
    if not password:
        sas = [line for r in results for line in str(r["stderr"]).splitlines() if line.startswith("SAS")]
        assert len(sas) <= 1 or len(set(sas)) == 1
    return js_file, py_file


@pytest.mark.parametrize(("rules", "js_seat", "password"), CASES)
def test_js_against_python(tmp_path: Path, rules: str, js_seat: int, password: bool) -> None:
    require_node()
    with relay_process() as relay:
        seed = CASES.index((rules, js_seat, password)) + 1
        js_file, py_file = play(relay, tmp_path, rules, js_seat, password, seed=seed)
    assert js_file.read_bytes() == py_file.read_bytes()
    # The two flows never diverged: the same public state after every envelope.
    assert first_divergence(js_traces([js_file])[0], py_trace(py_file.read_bytes())) is None
    assert py_verdict(py_file.read_bytes())["ok"]
    assert js_verdicts([js_file])[0]["ok"]
    verify = subprocess.run([sys.executable, "-m", "koikoi_p2p", "verify", str(js_file)],
                            capture_output=True, text=True)
    assert verify.returncode == 0, verify.stdout


def test_altered_bytes_refused_alike(tmp_path: Path) -> None:
    """One byte changed anywhere: both auditors refuse, with the same reason at the same message."""
    require_node()
    with relay_process() as relay:
        js_file, _ = play(relay, tmp_path, "nintendo", 0, False, seed=99)
    data = js_file.read_bytes()
    rng = random.Random(7)
    offsets = sorted({*range(0, 8), *rng.sample(range(8, len(data)), 60), len(data) - 1})
    paths = []
    expected = []
    for i, off in enumerate(offsets):
        altered = bytearray(data)
        altered[off] ^= 1 << rng.randrange(8)
        path = tmp_path / f"altered{i}.transcript"
        path.write_bytes(bytes(altered))
        paths.append(path)
        expected.append(py_verdict(bytes(altered)))
    for off, py, js in zip(offsets, expected, js_verdicts(paths), strict=True):
        assert not py["ok"], off
        assert (js["reason"], js["index"]) == (py["reason"], py["index"]), (off, py, js)


@pytest.mark.parametrize("resigner", ["js", "py"])
def test_a_resignation_agrees(tmp_path: Path, resigner: str) -> None:
    """Seat 1 resigns at its second decision (spec/game.md §6.3): both peers end with the same
    transcript and the same co-signed result naming seat 0 the winner; both auditors report the
    resignation at the same message, and both result checkers accept the file."""
    node = require_node()
    files = {name: tmp_path / f"{name}.transcript" for name in ("js", "py")}
    results = {name: tmp_path / f"{name}.result" for name in ("js", "py")}
    common = ["--rules", "nintendo", "--rounds", "2", "--seed", "31"]
    resign = ["--resign-at", "2"]
    out = {name: ["--transcript", str(files[name]), "--result", str(results[name])] for name in files}
    with relay_process() as relay:
        if resigner == "js":
            host = py_peer("host", relay, extra=[*common, *out["py"]])
            guest = js_peer("join", relay, code=room_code(host), extra=[*common, *resign, *out["js"]])
        else:
            host = js_peer("host", relay, extra=[*common, *out["js"]])
            guest = py_peer("join", relay, code=room_code(host), extra=[*common, *resign, *out["py"]])
        ends = [outcome(guest), outcome(host)]
    for end in ends:
        assert end["ok"], end
        assert end["winner"] == 0, end
    data = files["js"].read_bytes()
    assert data == files["py"].read_bytes()
    assert results["js"].read_bytes() == results["py"].read_bytes()
    assert first_divergence(js_traces([files["js"]])[0], py_trace(data)) is None
    from koikoi_p2p.audit import audit_bytes, verify_result

    report = audit_bytes(data).to_json()
    js_report = json.loads(subprocess.run([node, str(WEB / "bin" / "verify.js"), "--json", str(files["js"])],
                                          capture_output=True, text=True, check=True, cwd=REPO).stdout)
    all_notes = report["notes"]
    assert isinstance(all_notes, list | tuple)
    notes = [n for n in all_notes if str(n).startswith("resigned by player 1 at message")]
    assert len(notes) == 1, report["notes"]
    assert notes[0] in js_report["notes"], (notes, js_report["notes"])
    assert report["winner"] == js_report["winner"] == 0
    assert verify_result(results["py"].read_bytes()).resigned == 1
    checked = subprocess.run([node, str(WEB / "bin" / "verify.js"), "--result", str(results["py"])],
                             capture_output=True, text=True, cwd=REPO)
    assert checked.returncode == 0, checked.stdout
