"""A JavaScript peer (web/) against the Python peer through a real relay process on loopback:
every preset, both seats, with a password and with the SAS. Both transcripts must be byte for
byte the same and verify with both auditors; single-byte changes are refused by both auditors
with the same reason at the same message."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from koikoi_p2p.rules.profile import PRESETS
from tests.interop.support import (
    js_peer,
    js_verdicts,
    outcome,
    py_peer,
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
