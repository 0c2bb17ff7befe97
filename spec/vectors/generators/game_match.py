"""Generate spec/vectors/protocol/match_* : a whole seeded match and its expected outcome, a match
that one seat resigns, a match whose second deal ends inside the closing of the first (a field of
one month, dealt through a forced deck: ``koikoi_p2p.bench.differential.forced_decks``), and the
evidence files of a peer that sent a wrong decryption share and of
one whose shuffle of the next deal's deck does not verify (found by a deferred check).

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
from koikoi_p2p.audit import AuditError, audit_bytes, verify_result
from koikoi_p2p.net.selfplay import seeded_identity, seeded_rng, selfplay
from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.errors import ProtocolError, RemoteViolation
from koikoi_p2p.protocol.events import ChoiceNeeded, TermsProposed, YourTurn
from koikoi_p2p.protocol.flow import shares_to_wire
from koikoi_p2p.protocol.handshake import Handshake
from koikoi_p2p.protocol.peer import GamePeer, _MakeShares
from koikoi_p2p.protocol.terms import MatchTerms
from koikoi_p2p.protocol.transcript import (
    TRANSCRIPT_MAGIC,
    decode_transcript,
    encode_evidence,
    encode_transcript,
)
from koikoi_p2p.protocol.trips import trip_report
from koikoi_p2p.rules.profile import preset
from mentalpoker.group import hash_to_point

OUT = Path(__file__).resolve().parents[1] / "protocol"
NAME = "match_nintendo_seed1"
EVIDENCE = "match_evidence_wrong_share"
BAD_SHUFFLE = "match_evidence_bad_shuffle"
RESIGNED = "match_resigned"
FIELD_REDEAL = "match_field_redeal_at_close"
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
        "round_trips": trip_report(envs).to_json(),
    }
    vector = {
        "provenance": {"generator": GENERATOR,
                       "command": "koikoi selfplay --rounds 2 --seed 1 --rules nintendo",
                       "transcript": f"{NAME}.transcript"},
        "expected": expected,
        "cases": cases,
    }
    return data, vector


def _handshake(room: str, names: tuple[str, str] = ("", "")) -> list[Any]:
    shakes = [Handshake(seat=s, identity=seeded_identity(b"vector/%d" % s), room=room, password=None,
                        rng=seeded_rng(b"vector handshake %d" % s), name=names[s]) for s in (0, 1)]
    pending = [(1, f) for f in shakes[0].start()] + [(0, f) for f in shakes[1].start()]
    while pending:
        to, frame = pending.pop(0)
        pending += [(1 - to, f) for f in shakes[to].receive(frame)]
    return [h.result for h in shakes]


def _peers(room: str, second: type[GamePeer], *, rounds: int = 1, names: tuple[str, str] = ("", ""),
           **kw: Any) -> tuple[list[Any], list[GamePeer]]:
    results = _handshake(room, names)
    keys = (results[0].channel.identity.public_key, results[1].channel.identity.public_key)
    terms = MatchTerms.propose(profile=preset("nintendo"), keys=keys, room=room, rounds=rounds, names=names)
    peers: list[GamePeer] = [
        GamePeer(channel=results[0].channel, room=room, proposal=terms, rng=seeded_rng(b"vector p0"),
                 handshake_record=results[0].record, names=names),
        second(channel=results[1].channel, room=room, rng=seeded_rng(b"vector p1"),
               handshake_record=results[1].record, names=names, **kw)]
    return results, peers


def _drive(peers: list[GamePeer], players: list[Any]) -> None:
    """Both peers in step: frames in order, the joiner accepts, idle work whenever nothing else."""
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
            peer = peers[seat]
            if peer.error is not None:
                continue
            try:
                out = peer.idle()
            except ProtocolError:
                continue
            queue += [(1 - seat, f) for f in out]
            acted = acted or bool(out)
            for event in peer.events():
                if peer.error is not None:
                    break
                if isinstance(event, TermsProposed):
                    queue += [(1 - seat, f) for f in peer.decide_terms(True)]
                    acted = True
                elif isinstance(event, (YourTurn, ChoiceNeeded)):
                    decision = players[seat](peer, event)
                    frames = peer.resign() if decision is None else peer.decide(decision)
                    queue += [(1 - seat, f) for f in frames]
                    acted = True
        if not queue and not acted:
            return


class _Tampering(GamePeer):
    """Seat 1, honest except for the first outgoing message ``change`` alters after its own
    machine accepted the honest one."""

    tampered: int | None = None

    def change(self, msg_type: str, body: dict[str, Any]) -> dict[str, Any] | None:
        raise NotImplementedError

    def _send(self, msg_type: str, body: dict[str, Any]) -> bytes:
        source = _MakeShares(self) if "shares" in body else None
        self.flow.accept(self.seat, msg_type, body, seq=self.channel.next_seq, prev=self.channel.head,
                         source=source)
        if source is not None:
            body["shares"] = shares_to_wire(source.groups)
        if self.tampered is None:
            changed = self.change(msg_type, body)
            if changed is not None:
                body = changed
                self.tampered = self.channel.next_seq
        frame, env = self.channel.seal(msg_type, body)
        self.transcript.append(env)
        return frame


class _WrongShare(_Tampering):
    """Its first share group of deal 1 carries another valid point."""

    def change(self, msg_type: str, body: dict[str, Any]) -> dict[str, Any] | None:
        if self.flow.deal != 1 or not body.get("shares"):
            return None
        positions, data = body["shares"][0]
        body["shares"][0] = [positions, hash_to_point(b"koikoi-p2p vectors: wrong share").raw + data[32:]]
        return body


class _BadShuffle(_Tampering):
    """Its shuffle of deal 2's deck (prepared during deal 1) carries a proof with one bit changed."""

    def change(self, msg_type: str, body: dict[str, Any]) -> dict[str, Any] | None:
        if msg_type != "shuffle" or body["deal"] != 2:
            return None
        deck = bytearray(body["deck"])
        deck[48 * 64 + 100] ^= 1
        return {**body, "deck": bytes(deck)}


def _random_players() -> list[Any]:
    players = [RandomPlayer(0), RandomPlayer(1)]
    return [lambda peer, event, p=p: p.choose(event.view, event.options) for p in players]


def _evidence(tampering: type[_Tampering], how: str, name: str) -> tuple[bytes, dict[str, object]]:
    results, peers = _peers("VECTOR", tampering)
    _drive(peers, _random_players())
    honest, cheater = peers[0], peers[1]
    error = honest.error
    assert isinstance(cheater, _Tampering)
    if not isinstance(error, RemoteViolation) or cheater.tampered is None:
        raise SystemExit(f"the deviation of {name} was not caught")
    data = encode_evidence(results[0].record, honest.transcript, reporter=0, reason=error.reason,
                           message=error.message, offence=honest.offence())
    report = audit_bytes(data)
    assert report.deviation is not None and report.deviation.seq == cheater.tampered
    vector = {
        "provenance": {"generator": GENERATOR, "evidence": f"{name}.evidence", "how": how},
        "expected": {"ok": report.ok, "seat": report.deviation.seat, "seq": report.deviation.seq,
                     "reason": report.deviation.reason, "text": report.deviation.describe(),
                     "accepted_after": sum(1 for env in honest.transcript if env.seq > cheater.tampered)},
    }
    return data, vector


def build_evidence() -> tuple[bytes, dict[str, object]]:
    """Seat 1 sends a wrong decryption share; seat 0's evidence file and what verify must say."""
    return _evidence(_WrongShare, "seat 1 replaces the first decryption share of its first share group "
                                  "in deal 1 with another valid point; seat 0 stops and writes this file",
                     EVIDENCE)


def build_bad_shuffle() -> tuple[bytes, dict[str, object]]:
    """Seat 1's shuffle of the next deal's deck is wrong; seat 0 finds it in a deferred check."""
    return _evidence(_BadShuffle, "seat 1 flips one bit of the proof in its shuffle of deal 2's deck, "
                                  "sent during deal 1; seat 0 verifies it later (idle time) and writes "
                                  "this file, which names the shuffle's envelope", BAD_SHUFFLE)


def build_resigned() -> tuple[bytes, dict[str, object]]:
    """Seat 1 resigns at its first play of the second deal of a 2-round match; both sign the result."""
    results, peers = _peers("VECTOR", GamePeer, rounds=2, names=("Aiko", "Bashō"))
    base = _random_players()

    def resigner(peer: GamePeer, event: Any) -> Any:
        if isinstance(event, YourTurn) and peer.flow.deal == 2:
            return None                         # resign instead of playing
        return base[1](peer, event)

    _drive(peers, [base[0], resigner])
    if not (peers[0].done and peers[1].done):
        raise SystemExit("the resigned match did not end co-signed")
    data = encode_transcript(results[0].record, peers[0].transcript)
    if data != encode_transcript(results[1].record, peers[1].transcript):
        raise SystemExit("the two seats' transcripts differ")
    report = audit_bytes(data)
    assert report.resigned is not None and report.result is not None
    result = verify_result(report.result)
    vector = {
        "provenance": {"generator": GENERATOR, "transcript": f"{RESIGNED}.transcript",
                       "how": "a 2-round nintendo match (names Aiko and Bashō); seat 1 resigns when it "
                              "is first asked to play in the second deal"},
        "expected": {"ok": report.ok, "complete": report.complete, "messages": report.messages,
                     "resigned": {"seat": report.resigned[0], "seq": report.resigned[1]},
                     "winner": report.winner, "scores": list(report.scores or ()),
                     "rounds": [list(r) for r in report.rounds], "result": report.result.hex(),
                     "names": list(result.names), "notes": list(report.notes)},
    }
    return data, vector


def build_field_redeal(seed: int = 1) -> tuple[bytes, dict[str, object]]:
    """A 2-round nintendo match (seed 1) whose deal 2 deals the four cards of one month to the
    field: the deal is void at its opening, which the second disclose of deal 1 completes, so it
    ends inside that envelope (spec/game.md §4.4, §5.4). The dealer of deal 3 then owes, before
    its disclose of deal 2: its countersignature of deal 1, its shuffle of deck 3, its key of deck 4."""
    from koikoi_p2p.bench.differential import forced_decks, scenario_order

    with forced_decks({2: scenario_order("field_month", seed)}, partner_keeps_order=False):
        played = asyncio.run(selfplay(rounds=2, seed=seed, rules="nintendo"))
    data = played.transcripts[0]
    if played.transcripts[1] != data:
        raise SystemExit("the two seats' transcripts differ")
    report = audit_bytes(data)
    envs = decode_transcript(data).envelopes
    reasons = [env.body["result"]["reason"] for env in envs  # type: ignore[index]
               if env.type == "round_sign" and env.sender == 0]
    if reasons[1] != "field_month":
        raise SystemExit(f"deal 2 did not end with the forced field: {reasons}")
    second = max(env.seq for env in envs if env.type == "disclose" and env.body["deal"] == 1)
    batch = []
    for env in envs[second + 1:]:
        batch.append([env.seq, env.sender, env.type, env.body.get("deal")])
        if env.type == "disclose":
            break
    vector = {
        "provenance": {"generator": GENERATOR, "transcript": f"{FIELD_REDEAL}.transcript",
                       "how": "koikoi selfplay --rounds 2 --seed 1 --rules nintendo, with deck 2 shuffled "
                              "into a chosen order (the four cards of one month on the field)"},
        "expected": {"ok": report.ok, "complete": report.complete, "messages": report.messages,
                     "scores": list(report.scores or ()), "winner": report.winner,
                     "rounds": [list(r) for r in report.rounds], "result": (report.result or b"").hex(),
                     "round_reasons": reasons,
                     "after_second_disclose_of_deal_1": batch},
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
    data, vector = build_bad_shuffle()
    outputs.append((OUT / f"{BAD_SHUFFLE}.evidence", data, OUT / f"{BAD_SHUFFLE}.json", vector))
    data, vector = build_resigned()
    outputs.append((OUT / f"{RESIGNED}.transcript", data, OUT / f"{RESIGNED}.json", vector))
    data, vector = build_field_redeal()
    outputs.append((OUT / f"{FIELD_REDEAL}.transcript", data, OUT / f"{FIELD_REDEAL}.json", vector))
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
