"""`node web/bin/verify.js` and `koikoi verify` on co-signed results: the same JSON fields and
shapes for a valid result, and the same usage error (exit 2) when a result is given as one of two
files to compare (QA: JavaScript printed only {"ok": true}, and exited 0 calling the result
"refuted (bad_magic)")."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from koikoi_p2p.ai.strategy import RandomPlayer
from koikoi_p2p.net.match import play_match
from koikoi_p2p.net.memory import memory_pair
from koikoi_p2p.net.selfplay import seeded_identity, seeded_rng
from tests.interop.support import REPO, WEB, require_node


def _files(tmp: Path) -> tuple[Path, Path]:
    async def body() -> tuple[str | None, str | None]:
        a, b = memory_pair()
        host, _ = await asyncio.gather(
            play_match(a, RandomPlayer(1), seat=0, identity=seeded_identity(b"h"), room="ROOM01", rounds=1,
                       store=tmp, rng=seeded_rng(b"h")),
            play_match(b, RandomPlayer(2), seat=1, identity=seeded_identity(b"g"), room="ROOM01",
                       store=tmp / "guest", rng=seeded_rng(b"g")))
        return host.transcript_path, str(Path(host.transcript_path or "").with_suffix(".result"))

    transcript, result = asyncio.run(body())
    assert transcript is not None and result is not None and Path(result).is_file()
    return Path(transcript), Path(result)


def test_both_verifiers_report_a_result_alike(tmp_path: Path) -> None:
    node = require_node()
    transcript, result = _files(tmp_path)
    # A home without an identity: neither verifier knows a key of "yours".
    env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "home"),
           "XDG_DATA_HOME": str(tmp_path / "home")}
    py = subprocess.run([sys.executable, "-m", "koikoi_p2p", "verify", "--json", str(result)],
                        capture_output=True, text=True, env=env, cwd=REPO)
    js = subprocess.run([node, str(WEB / "bin" / "verify.js"), "--json", str(result)],
                        capture_output=True, text=True, env=env, cwd=REPO)
    assert py.returncode == js.returncode == 0, (py.stdout, js.stdout)
    py_report, js_report = json.loads(py.stdout), json.loads(js.stdout)
    assert py_report["you"] is None
    assert js_report == py_report
    assert js_report["rounds"] and set(js_report["rounds"][0]) == {"round", "winner", "points"}
    for pair in ([transcript, result], [result, transcript]):
        py2 = subprocess.run([sys.executable, "-m", "koikoi_p2p", "verify", *map(str, pair)],
                             capture_output=True, text=True, env=env, cwd=REPO)
        js2 = subprocess.run([node, str(WEB / "bin" / "verify.js"), *map(str, pair)],
                             capture_output=True, text=True, env=env, cwd=REPO)
        assert py2.returncode == js2.returncode == 2, (py2.stdout, js2.stdout)
        assert js2.stdout == py2.stdout
