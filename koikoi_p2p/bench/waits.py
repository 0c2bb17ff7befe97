"""``koikoi bench waits``: what a player feels and what a match costs the disk (issue 26 items 4, 6).

- The bytes the crash-safe journal writes over a whole match, at 6 and 12 rounds, for the Python
  driver's journal (two cores in memory, each committing every input to a ``Journal`` in a
  temporary folder, as the driver does) beside what the version 2 layout (a whole base, with the
  transcript, at each deal) would have written in the same match, and for the JavaScript
  FileStore (``web/bench/journal_bytes.js``). Linear growth shows as bytes per transcript byte
  that stay level from 6 to 12 rounds; the version 2 layout's climb.
- In headless Chromium (``web/bench/practice_waits.js``): practice from Start to the first hand,
  and from the dismissal of a deal's summary to the next deal's hand, medians with their spread,
  against the targets of issue 26 (1 s and 0.25 s, in the floor column).

The machine is shared: say the load (``uptime``) beside the figures.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from koikoi_p2p.bench.report import Measurement

REPO = Path(__file__).resolve().parents[2]
WEB = REPO / "web"
WAITS_SCRIPT = WEB / "bench" / "practice_waits.js"
BYTES_SCRIPT = WEB / "bench" / "journal_bytes.js"
ROUNDS = (6, 12)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--matches", type=int, default=4, help="browser practice matches (default 4)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of each practice match (default 4)")
    parser.add_argument("--level", default="greedy", help="the practice computer (default greedy)")
    parser.add_argument("--no-browser", action="store_true", help="only the journal's bytes")
    parser.add_argument("--no-bytes", action="store_true", help="only the browser's waits")


def python_journal_bytes(rounds: int, seed: int = 7) -> dict[str, Any]:
    """One match of ``rounds`` rounds by two crash-safe cores: bytes each journal wrote, what the
    version 2 layout would have written, the deals and the transcript's size."""
    from koikoi_p2p.net.core import PeerCore, PeerSetup
    from koikoi_p2p.net.driver import STATE_FORMAT, SavedCore, create_state
    from koikoi_p2p.net.journal import encode_base
    from koikoi_p2p.net.selfplay import play_cores
    from koikoi_p2p.protocol.statement import sha256

    def setup(seat: int) -> PeerSetup:
        tag = f"bench-waits/{seed}/{seat}".encode()
        return PeerSetup(seat=seat, identity=sha256(b"id/" + tag), seed=sha256(b"seed/" + tag), room="BYTES1",
                         password=None, rounds=rounds, step_deadline=600, turn_deadline=600,
                         handshake_deadline=120, strategy_seed=seed * 2 + seat)

    with tempfile.TemporaryDirectory(prefix="koikoi-bench-waits-") as tmp:
        cores = (PeerCore(setup(0)), PeerCore(setup(1)))
        saved = [SavedCore(cores[s], create_state(Path(tmp) / f"s{s}", cores[s].setup)) for s in (0, 1)]
        old = [saved[s].journal.written for s in (0, 1)]     # the version 2 layout: records + whole bases
        deals = [0, 0]

        def on_input(seat: int, kind: str, value: object, out: list[bytes]) -> None:
            journal = saved[seat].journal
            before, boundary = journal.written, cores[seat].deal != saved[seat].deal
            saved[seat].commit(kind, value, out)
            if not boundary:
                old[seat] += journal.written - before
                return
            deals[seat] += 1
            # The same input's record, then the base version 2 wrote: the snapshot with its transcript.
            old[seat] += len(encode_base({"format": STATE_FORMAT, "core": cores[seat].snapshot(),
                                          "at": saved[seat].saved_at}))

        try:
            play_cores(cores, on_input=on_input)
        finally:
            for item in saved:
                item.journal.unlock()
        peer = cores[0].peer
        assert peer is not None
        transcript = sum(len(env.raw) + len(env.signature) for env in peer.transcript)
        return {"rounds": rounds, "deals": deals[0], "bytes": [s.journal.written for s in saved], "v2": old,
                "transcript": transcript}


def _node() -> str:
    node = shutil.which("node")
    if node is None or not (WEB / "node_modules").is_dir():
        raise SystemExit("koikoi bench waits needs node and web/node_modules (cd web && npm ci)")
    return node


def _run_node(args: list[str]) -> Any:
    nice = shutil.which("nice")
    command = [nice, "-n", "10"] if nice else []
    done = subprocess.run([*command, _node(), *args, "--json"], cwd=WEB, capture_output=True,  # noqa: S603
                          text=True, timeout=1800, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{args[0]} failed: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _bytes_lines(who: str, rows: list[dict[str, Any]], key: str = "bytes") -> list[Measurement]:
    """Bytes written at each length, and their bytes per transcript byte, 12 rounds against 6."""
    by = {int(r["rounds"]): r for r in rows}
    lines = []
    for n in ROUNDS:
        r = by[n]
        lines.append(Measurement(
            name=f"{who}: bytes written per match, {n} rounds", median_s=float(r[key][0]),
            floor_s=float(r["transcript"]), ratio=r[key][0] / r["transcript"], unit="B",
            note=f"seat 0 (seat 1: {r[key][1]}); {r['deals']} deals; floor = the transcript's bytes"))
    a, b = by[ROUNDS[0]], by[ROUNDS[1]]
    per = [r[key][0] / r["transcript"] for r in (a, b)]
    lines.append(Measurement(
        name=f"{who}: growth, {ROUNDS[1]} rounds against {ROUNDS[0]}", median_s=float(b[key][0]),
        floor_s=float(a[key][0]), ratio=per[1] / per[0], unit="B",
        note=f"ratio = bytes per transcript byte at {ROUNDS[1]} / at {ROUNDS[0]} (1.0: linear); "
             f"bytes x{b[key][0] / a[key][0]:.2f} for transcript x{b['transcript'] / a['transcript']:.2f}"))
    return lines


def run(args: argparse.Namespace) -> list[Measurement]:
    out: list[Measurement] = []
    if not args.no_bytes:
        py = [python_journal_bytes(n) for n in ROUNDS]
        out += _bytes_lines("python journal", py)
        out += _bytes_lines("python journal, version 2 layout (before issue 26)", py, key="v2")
        js = _run_node([str(BYTES_SCRIPT), "--rounds", ",".join(map(str, ROUNDS))])
        out += _bytes_lines("javascript FileStore journal", js)
    if not args.no_browser:
        rows = _run_node([str(WAITS_SCRIPT), "--matches", str(args.matches), "--rounds", str(args.rounds),
                          "--level", args.level])
        out += [Measurement(name=r["name"], median_s=r["median_s"], floor_s=r["floor_s"], ratio=r["ratio"],
                            note=r["note"]) for r in rows]
    return out
