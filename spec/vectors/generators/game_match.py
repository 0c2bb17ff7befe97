"""Generate spec/vectors/protocol/match_* : a whole seeded match and its expected outcome, and an
evidence file of a peer that sent a wrong decryption share.

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
from typing import Any

from koikoi_p2p.ai.strategy import RandomPlayer
from koikoi_p2p.audit import AuditError, audit_bytes
from koikoi_p2p.net.selfplay import seeded_identity, seeded_rng, selfplay
from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.errors import ProtocolError, RemoteViolation
from koikoi_p2p.protocol.events import ChoiceNeeded, YourTurn
from koikoi_p2p.protocol.flow import shares_to_wire
from koikoi_p2p.protocol.handshake import Handshake
from koikoi_p2p.protocol.peer import GamePeer, _MakeShares
from koikoi_p2p.protocol.terms import MatchTerms
from koikoi_p2p.protocol.transcript import TRANSCRIPT_MAGIC, decode_transcript, encode_evidence
from koikoi_p2p.rules.profile import preset
from mentalpoker.group import hash_to_point

OUT = Path(__file__).resolve().parents[1] / "protocol"
NAME = "match_nintendo_seed1"
EVIDENCE = "match_evidence_wrong_share"
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


class _WrongShare(GamePeer):
    """Seat 1, honest except that its first share group of deal 1 carries another valid point."""

    tampered: int | None = None

    def _send(self, msg_type: str, body: dict[str, Any]) -> bytes:
        source = (_MakeShares(self.party, self.channel.head)
                  if "shares" in body and self.party is not None else None)
        self.flow.accept(self.seat, msg_type, body, seq=self.channel.next_seq, prev=self.channel.head,
                         source=source)
        if source is not None:
            body["shares"] = shares_to_wire(source.groups)
        if self.tampered is None and self.flow.deal == 1 and body.get("shares"):
            positions, data = body["shares"][0]
            body["shares"][0] = [positions, hash_to_point(b"koikoi-p2p vectors: wrong share").raw + data[32:]]
            self.tampered = self.channel.next_seq
        frame, env = self.channel.seal(msg_type, body)
        self.transcript.append(env)
        return frame


def build_evidence() -> tuple[bytes, dict[str, object]]:
    """Seat 1 sends a wrong decryption share; seat 0's evidence file and what verify must say."""
    shakes = [Handshake(seat=s, identity=seeded_identity(b"vector/%d" % s), room="VECTOR", password=None,
                        rng=seeded_rng(b"vector handshake %d" % s)) for s in (0, 1)]
    pending = [(1, f) for f in shakes[0].start()] + [(0, f) for f in shakes[1].start()]
    while pending:
        to, frame = pending.pop(0)
        pending += [(1 - to, f) for f in shakes[to].receive(frame)]
    results = [h.result for h in shakes]
    keys = (results[0].channel.identity.public_key, results[1].channel.identity.public_key)
    terms = MatchTerms.propose(profile=preset("nintendo"), keys=keys, room="VECTOR", rounds=1)
    peers: list[GamePeer] = [
        GamePeer(channel=results[0].channel, room="VECTOR", proposal=terms, rng=seeded_rng(b"vector p0"),
                 handshake_record=results[0].record),
        _WrongShare(channel=results[1].channel, room="VECTOR", rng=seeded_rng(b"vector p1"),
                    handshake_record=results[1].record)]
    players = [RandomPlayer(0), RandomPlayer(1)]
    queue = [(1, f) for f in peers[0].start()]
    while True:
        while queue:
            to, frame = queue.pop(0)
            try:
                queue += [(1 - to, f) for f in peers[to].receive(frame)]
            except ProtocolError:
                queue.clear()
        acted = False
        for seat in (0, 1):
            for event in peers[seat].events():
                if isinstance(event, (YourTurn, ChoiceNeeded)) and peers[seat].error is None:
                    queue += [(1 - seat, f) for f in peers[seat].decide(players[seat].choose(event.view,
                                                                                         event.options))]
                    acted = True
        if not queue and not acted:
            break
    honest = peers[0]
    error = honest.error
    if not isinstance(error, RemoteViolation):
        raise SystemExit("the evidence vector's deviation was not caught")
    data = encode_evidence(results[0].record, honest.transcript, reporter=0, reason=error.reason,
                           message=error.message, offence=honest.offence())
    report = audit_bytes(data)
    assert report.deviation is not None
    vector = {
        "provenance": {"generator": GENERATOR, "evidence": f"{EVIDENCE}.evidence",
                       "how": "seat 1 replaces the first decryption share of its first share group in "
                              "deal 1 with another valid point; seat 0 stops and writes this file"},
        "expected": {"ok": report.ok, "seat": report.deviation.seat, "seq": report.deviation.seq,
                     "reason": report.deviation.reason, "text": report.deviation.describe()},
    }
    return data, vector


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    outputs = []
    data, vector = build()
    outputs.append((OUT / f"{NAME}.transcript", data, OUT / f"{NAME}.json", vector))
    data, vector = build_evidence()
    outputs.append((OUT / f"{EVIDENCE}.evidence", data, OUT / f"{EVIDENCE}.json", vector))
    current = True
    for bin_path, payload, json_path, content in outputs:
        text = json.dumps(content, indent=2, sort_keys=True) + "\n"
        if args.check:
            current = current and bin_path.exists() and bin_path.read_bytes() == payload \
                and json_path.exists() and json_path.read_text() == text
            continue
        OUT.mkdir(parents=True, exist_ok=True)
        bin_path.write_bytes(payload)
        json_path.write_text(text)
        print(f"wrote {bin_path} and {json_path}")
    if args.check:
        print("current" if current else "stale")
        return 0 if current else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
