"""Generate spec/vectors/protocol/match_* : a whole seeded match and its expected outcome.

Run from the repository root:  python spec/vectors/generators/game_match.py [--check]
With --check nothing is written; the exit status says whether the files on disk are current.
The match is `koikoi selfplay --rounds 2 --seed 1 --rules nintendo` (spec/game.md §11): seeded
identities, seeded deck randomness and seeded computer players, so the bytes are reproducible.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys
from pathlib import Path

from koikoi_p2p.audit import AuditError, audit_bytes
from koikoi_p2p.net.selfplay import selfplay
from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.transcript import TRANSCRIPT_MAGIC, decode_transcript

OUT = Path(__file__).resolve().parents[1] / "protocol"
NAME = "match_nintendo_seed1"
GENERATOR = "spec/vectors/generators/game_match.py"


def _failure(data: bytes) -> str:
    try:
        report = audit_bytes(data)
    except AuditError as exc:
        return exc.reason
    if report.deviation is not None:
        return report.deviation.reason
    return "incomplete" if not report.ok else "accepted"


def build() -> tuple[bytes, dict[str, object]]:
    played = asyncio.run(selfplay(rounds=2, seed=1, rules="nintendo"))
    data = played.transcripts[0]
    if played.transcripts[1] != data:
        raise SystemExit("the two seats' transcripts differ")
    report = audit_bytes(data)
    transcript = decode_transcript(data)
    envs = transcript.envelopes
    counts = collections.Counter(env.type for env in envs)
    # Offsets inside the file for the invalid cases: find an envelope's bytes by search.
    middle = envs[len(envs) // 2]
    at_raw = data.index(middle.raw)
    at_sig = data.index(middle.signature)
    cases = [
        {"name": "magic", "offset": 0, "xor": 1},
        {"name": "handshake record", "offset": len(TRANSCRIPT_MAGIC) + 40, "xor": 1},
        {"name": "envelope signature", "offset": at_sig + 10, "xor": 4},
        {"name": "envelope body", "offset": at_raw + len(middle.raw) - 5, "xor": 2},
        {"name": "closing marker head", "offset": len(data) - 3, "xor": 1},
    ]
    for case in cases:
        altered = bytearray(data)
        altered[int(case["offset"])] ^= int(case["xor"])
        case["error"] = _failure(bytes(altered))
    closing = codec.encode({"end": True, "count": len(envs), "head": transcript.head})
    assert data.endswith(closing)
    cases.append({"name": "no closing marker", "truncate_to": len(data) - len(closing),
                  "error": _failure(data[: len(data) - len(closing)])})
    expected = {
        "ok": report.ok, "complete": report.complete, "profile": report.profile,
        "messages": report.messages, "scores": list(report.scores or ()), "winner": report.winner,
        "rounds": [list(r) for r in report.rounds], "types": dict(sorted(counts.items())),
        "result": (report.result or b"").hex(), "keys": [k.hex() for k in report.keys],
        "session_id": transcript.session.session_id.hex(),
    }
    vector = {
        "provenance": {"generator": GENERATOR,
                       "command": "koikoi selfplay --rounds 2 --seed 1 --rules nintendo",
                       "transcript": f"{NAME}.transcript"},
        "expected": expected,
        "cases": cases,
    }
    return data, vector


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    data, vector = build()
    text = json.dumps(vector, indent=2, sort_keys=True) + "\n"
    bin_path, json_path = OUT / f"{NAME}.transcript", OUT / f"{NAME}.json"
    if args.check:
        current = bin_path.exists() and bin_path.read_bytes() == data and json_path.read_text() == text
        print("current" if current else "stale")
        return 0 if current else 1
    OUT.mkdir(parents=True, exist_ok=True)
    bin_path.write_bytes(data)
    json_path.write_text(text)
    print(f"wrote {bin_path} and {json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
