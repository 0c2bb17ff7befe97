"""Generate spec/vectors/protocol/invalid/ and spec/vectors/protocol/game_invalid.json: files with
the verdict every verifier must give them (issue 27's items 1, 2, 4, 5 and 6).

- ``messages``: evidence files of seat 0 against a seat 1 that sends one malformed message, one
  case per rule of spec/game.md §3.4 (which check names the reason: the shape, ``bad_message``,
  or the message type's own rule); the verdict is "player 1 deviated at message N: reason".
- ``session``: evidence files whose offence is a session-level deviation the auditor proves from
  signatures alone, with the reason it names itself (spec/protocol.md §9): ``bad_seq`` (the accused
  spoke at a number the game gave the reporter), ``equivocation``, ``bad_prev``.
- ``round_keys``: an evidence file whose verdict needs the reporter's round secrets, with its
  ``round_keys`` entries replaced by ones a verifier ignores (spec/game.md §8.1: a secret that is
  not 32 bytes, an empty one, a malformed entry); the verdict is that of no entry at all.
- ``claims``: abandonment files (spec/protocol.md §9.1): the same signed claim with and without the
  claimant's round secret of the deal in play; both hold (step 5: the replay reaches message N).
- ``pairs``: two files and the verdict of ``koikoi verify A B`` (§9.2), each rule deciding at
  least one pair: a finished match beside its own cut-short prefix agrees; beside a claim in the
  middle of it, it stands; two envelopes one seat signed for one number; a proven deviation; a
  resignation; a claim that fails on its own; a claim against a shorter chain, and one answered but
  not refuted; two claims (the earlier stands, the earlier is refuted, one seat's two claims
  conflict); a file that is no account; files that cannot be compared.
- ``unknown``: files ``koikoi verify FILE`` recognises as none of its kinds (``unknown_file``), and
  a co-signed result that decodes but does not verify.

Run from the repository root:  python spec/vectors/generators/game_invalid.py [--check]
With --check nothing is written; the exit status says whether the files on disk are current.
Every match is seeded (identities, deck randomness, the random players), so the bytes are reproducible.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game_match import _drive, _peers, _random_players, _Tampering

from koikoi_p2p.audit import AuditError, audit_bytes
from koikoi_p2p.audit.compare import compare_bytes
from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.abandonment import AbandonmentClaim, encode_abandonment, sign_claim
from koikoi_p2p.protocol.envelope import VERSION as ENVELOPE_VERSION
from koikoi_p2p.protocol.envelope import sign_envelope
from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.events import ChoiceNeeded, TermsProposed, YourTurn
from koikoi_p2p.protocol.peer import GamePeer
from koikoi_p2p.protocol.transcript import decode_evidence, encode_evidence, encode_transcript

OUT = Path(__file__).resolve().parents[1] / "protocol"
FOLDER = "invalid"
INDEX = "game_invalid.json"
GENERATOR = "spec/vectors/generators/game_invalid.py"

Change = Callable[[GamePeer, str, dict[str, Any]], "dict[str, Any] | None"]


def _first_group(body: dict[str, Any], edit: Callable[[list[Any]], list[Any]],
                 need: Callable[[list[Any]], bool] = lambda g: True) -> dict[str, Any] | None:
    shares = body.get("shares")
    if not shares or not need(shares[0]):
        return None
    return {**body, "shares": [edit(list(shares[0])), *shares[1:]]}


# name -> (how, change): seat 1 alters the first message `change` does not answer None for.
MESSAGE_CASES: dict[str, tuple[str, Change]] = {
    "accept_digest_31_bytes": (
        "accept.terms is the terms digest without its last byte (the type's rule: bad_terms)",
        lambda p, t, b: {**b, "terms": b["terms"][:31]} if t == "accept" else None),
    "key_message_95_bytes": (
        "key.key, the 96-byte key message, without its last byte (bad_key)",
        lambda p, t, b: {**b, "key": b["key"][:95]} if t == "key" else None),
    "shuffle_message_short": (
        "shuffle.deck without its last byte (bad_shuffle)",
        lambda p, t, b: {**b, "deck": b["deck"][:-1]} if t == "shuffle" else None),
    "share_data_short": (
        "the first share group's data without its last byte (bad_share)",
        lambda p, t, b: _first_group(b, lambda g: [g[0], g[1][:-1]])),
    "share_position_repeated": (
        "the first share group of several positions names its first position twice (distinct "
        "positions are the owed positions' rule: wrong_shares)",
        lambda p, t, b: _first_group(b, lambda g: [[g[0][0], *g[0][:-1]], g[1]], lambda g: len(g[0]) > 1)),
    "share_position_48": (
        "the first share group names position 48 (not a deck position: the shape, bad_message)",
        lambda p, t, b: _first_group(b, lambda g: [[48, *g[0][1:]], g[1]])),
    "share_positions_empty": (
        "the first share group has no positions (the shape, bad_message)",
        lambda p, t, b: _first_group(b, lambda g: [[], g[1]])),
    "reveal_without_groups": (
        "a reveal that carries no share group (missing_shares)",
        lambda p, t, b: {**b, "shares": []} if t == "reveal" else None),
    "disclose_key_31_bytes": (
        "disclose.key, the round secret, without its last byte (bad_disclosed_key)",
        lambda p, t, b: {**b, "key": b["key"][:31]} if t == "disclose" else None),
    "round_sign_signature_63_bytes": (
        "round_sign.sig without its last byte (bad_result_signature)",
        lambda p, t, b: {**b, "sig": b["sig"][:63]} if t == "round_sign" else None),
    "match_signature_63_bytes": (
        "the signature of seat 1's match_result or match_sign without its last byte (bad_result_signature)",
        lambda p, t, b: {**b, "sig": b["sig"][:63]} if t in ("match_result", "match_sign") else None),
    "deal_negative": (
        "key.deal is -1 (not a non-negative integer: the shape, bad_message)",
        lambda p, t, b: {**b, "deal": -1} if t == "key" else None),
    "deal_out_of_range": (
        "key.deal is 2^20 + 1 (beyond the shape's bound: bad_message, before the deal is compared)",
        lambda p, t, b: {**b, "deal": (1 << 20) + 1} if t == "key" else None),
    "sig_of_wrong_type": (
        "round_sign.sig is a string (the shape, bad_message)",
        lambda p, t, b: {**b, "sig": "x" * 64} if t == "round_sign" else None),
}


def _tamperer(change: Change) -> type[_Tampering]:
    class Cheat(_Tampering):
        def change(self, msg_type: str, body: dict[str, Any]) -> dict[str, Any] | None:
            return change(self, msg_type, body)
    return Cheat


def _verdict(data: bytes) -> dict[str, object]:
    """``koikoi verify``'s verdict on one file, as the tests compare it."""
    try:
        report = audit_bytes(data)
    except AuditError as exc:
        return {"ok": False, "reason": exc.reason, "seat": None, "seq": exc.index}
    if report.deviation is not None:
        return {"ok": report.ok, "reason": report.deviation.reason, "seat": report.deviation.seat,
                "seq": report.deviation.seq}
    return {"ok": report.ok, "reason": None if report.ok else "incomplete", "seat": None, "seq": None}


def message_cases(files: dict[str, bytes]) -> list[dict[str, object]]:
    cases = []
    for name, (how, change) in MESSAGE_CASES.items():
        results, peers = _peers("VECTOR", _tamperer(change), rounds=1)
        _drive(peers, _random_players())
        honest, cheater = peers[0], peers[1]
        assert isinstance(cheater, _Tampering)
        error = honest.error
        if not isinstance(error, RemoteViolation) or cheater.tampered is None:
            raise SystemExit(f"{name}: the deviation was not caught")
        data = encode_evidence(results[0].record, honest.transcript, reporter=0, reason=error.reason,
                               message=error.message, offence=honest.offence())
        verdict = _verdict(data)
        if verdict != {"ok": True, "reason": error.reason, "seat": 1, "seq": cheater.tampered}:
            raise SystemExit(f"{name}: the reporter says {error.reason}, the auditor {verdict}")
        files[f"msg_{name}.evidence"] = data
        cases.append({"name": name, "how": how, "file": f"{FOLDER}/msg_{name}.evidence", "expected": verdict})
    return cases


def round_keys_cases(files: dict[str, bytes]) -> list[dict[str, object]]:
    """The evidence file of ``disclose_key_31_bytes`` (its verdict needs the reporter's round
    secrets: the deal's keys are not all disclosed) with its ``round_keys`` entries replaced by
    ones a verifier ignores (spec/game.md §8.1): the verdict is the one of no entry at all."""
    base = files["msg_disclose_key_31_bytes.evidence"]
    evidence = decode_evidence(base)
    keys = evidence.offence["round_keys"]
    assert isinstance(keys, list) and keys
    bare = encode_evidence(evidence.handshake, evidence.envelopes, reporter=evidence.reporter,
                           reason=evidence.reason, message=evidence.message,
                           offence={**evidence.offence, "round_keys": []})
    cases = []
    for name, how, entries in (
            ("wrong_length", "every secret one byte short or one byte long (a secret is 32 bytes)",
             [[deal, secret[:31] if i % 2 == 0 else secret + b"\x00"]
              for i, (deal, secret) in enumerate(keys)]),
            ("empty_or_malformed",
             "an empty secret (the reporter had no key of that deal yet), a one-element entry, a string "
             "entry and a secret given as text",
             [[keys[0][0], b""], [keys[0][0]], "x", [keys[-1][0], "secret"]])):
        data = encode_evidence(evidence.handshake, evidence.envelopes, reporter=evidence.reporter,
                               reason=evidence.reason, message=evidence.message,
                               offence={**evidence.offence, "round_keys": entries})
        verdict = _verdict(data)
        if verdict != _verdict(bare):
            raise SystemExit(f"round_keys {name}: {verdict}, not {_verdict(bare)} (no entries)")
        files[f"round_keys_{name}.evidence"] = data
        cases.append({"name": name, "how": how, "file": f"{FOLDER}/round_keys_{name}.evidence",
                      "expected": verdict})
    return cases


def _honest_pair(rounds: int = 1) -> tuple[list[Any], list[GamePeer]]:
    results, peers = _peers("VECTOR", GamePeer, rounds=rounds)
    _drive(peers, _random_players())
    if not (peers[0].done and peers[1].done):
        raise SystemExit("the honest match did not finish")
    return results, peers


def session_cases(files: dict[str, bytes]) -> list[dict[str, object]]:
    results, peers = _honest_pair()
    envs = peers[0].transcript
    record = results[0].record
    accused = results[1].channel.identity

    def forge(seq: int, prev: bytes, like: Any) -> Any:
        return sign_envelope(accused, version=ENVELOPE_VERSION, session_id=like.session_id, seq=seq,
                             prev=prev, sender=1, type=like.type, body=like.body)

    cases = []
    # bad_seq: seat 1 signs, on the reporter's history, an envelope at a number that was seat 0's.
    s = next(e.seq for e in envs[10:] if e.sender == 0 and envs[e.seq - 1].sender == 1)
    theirs = next(e for e in envs[s:] if e.sender == 1)
    stolen = forge(s, envs[s - 1].digest(), theirs)
    # equivocation: a second, different envelope of seat 1 at one of its own numbers.
    own = envs[s - 1]
    twin = forge(own.seq, own.prev, theirs)
    # bad_prev: after its own envelope n - 1, seat 1 signs envelope n on another history.
    n = next(e.seq + 1 for e in envs[8:-1] if e.sender == 1 and envs[e.seq + 1].sender == 1)
    astray = forge(n, bytes(32), envs[n])
    for name, how, prefix, env, reason in (
            ("bad_seq", "seat 1 signs an envelope at a number the game gave seat 0, on the history seat 0 "
                        "holds (its prev is the digest of the envelope before that number)", envs, stolen,
             "bad_seq"),
            ("equivocation", "seat 1 signs a second, different envelope at one of its own numbers",
             envs, twin,
             "equivocation"),
            ("bad_prev", "right after its own envelope, seat 1 signs the next one on another history",
             envs[:n], astray, "bad_prev")):
        offence = {"envelope": env.raw, "signature": env.signature, "seq": env.seq}
        # The reporter's unsigned word is deliberately another reason: the verdict is the auditor's.
        data = encode_evidence(record, prefix, reporter=0, reason="out_of_turn", message="", offence=offence)
        verdict = _verdict(data)
        if verdict != {"ok": True, "reason": reason, "seat": 1, "seq": env.seq}:
            raise SystemExit(f"{name}: {verdict}")
        files[f"session_{name}.evidence"] = data
        cases.append({"name": name, "how": how, "file": f"{FOLDER}/session_{name}.evidence",
                      "expected": verdict})
    return cases


STALL = object()


def _drive_stalling(peers: list[GamePeer], players: list[Any], stall_at: int) -> None:
    """As game_match._drive, but seat 1 never answers its ``stall_at``-th decision."""
    asked = [0]

    def seat1(peer: GamePeer, event: Any) -> Any:
        asked[0] += 1
        return STALL if asked[0] >= stall_at else players[1](peer, event)

    queue = [(1, f) for f in peers[0].start()]
    stalled = False
    while True:
        while queue:
            to, frame = queue.pop(0)
            queue += [(1 - to, f) for f in peers[to].receive(frame)]
        acted = False
        for seat in (0, 1):
            peer = peers[seat]
            out = peer.idle()
            queue += [(1 - seat, f) for f in out]
            acted = acted or bool(out)
            for event in peer.events():
                if isinstance(event, TermsProposed):
                    queue += [(1 - seat, f) for f in peer.decide_terms(True)]
                    acted = True
                elif isinstance(event, (YourTurn, ChoiceNeeded)):
                    decision = seat1(peer, event) if seat == 1 else players[0](peer, event)
                    if decision is STALL:
                        stalled = True
                        continue
                    queue += [(1 - seat, f) for f in peer.decide(decision)]
                    acted = True
        if not queue and not acted:
            if not stalled:
                raise SystemExit("seat 1 was never asked to stall")
            return


def claim_cases(files: dict[str, bytes]) -> list[dict[str, object]]:
    results, peers = _peers("VECTOR", GamePeer, rounds=2)
    _drive_stalling(peers, _random_players(), stall_at=3)
    claimant = peers[0]
    wait = claimant.flow.waiting_for()
    assert wait is not None and wait[0] == 1
    channel = claimant.channel
    claim = AbandonmentClaim(session_id=channel.session_id, seq=channel.next_seq, head=channel.head,
                             claimant=0, absent=1, expected=wait[1], deadline=wait[2])
    transcript = encode_transcript(results[0].record, claimant.transcript, closed=False)
    signature = sign_claim(results[0].channel.identity, claim)
    assert claimant.party is not None
    deal = claimant.flow.deal
    cases = []
    for name, how, extra in (
            ("with_round_secret", "seat 1 stops answering at its third decision; seat 0's claim carries its "
                                  "round secret of the deal in play",
             {"deal": deal, "round_key": claimant.party.disclose_key()}),
            ("without_round_secret", "the same signed claim without the round secret (deal -1, round_key "
                                     "empty): the deal in play replays with its hands hidden and the claim "
                                     "holds as well (spec/protocol.md §9.1 step 5)", {})):
        data = encode_abandonment(transcript, claim, signature, **extra)
        verdict = _verdict(data)
        if verdict != {"ok": True, "reason": "abandoned", "seat": 1, "seq": claim.seq}:
            raise SystemExit(f"claim {name}: {verdict}")
        files[f"claim_{name}.abandoned"] = data
        cases.append({"name": name, "how": how, "file": f"{FOLDER}/claim_{name}.abandoned",
                      "expected": verdict})
    return cases


def _finding(comparison: Any) -> dict[str, object] | None:
    found = comparison.finding
    return None if found is None else {"seat": found.seat, "seq": found.seq, "reason": found.reason}


def _pair_verdict(first: bytes, second: bytes) -> dict[str, object]:
    """``koikoi verify A B``'s verdict on two files, or the reason it cannot compare them."""
    try:
        comparison = compare_bytes(first, second)
    except AuditError as exc:
        return {"error": exc.reason}
    return {"verdict": comparison.status, "stands": comparison.stands, "finding": _finding(comparison)}


def pair_cases(files: dict[str, bytes]) -> list[dict[str, object]]:
    """One file per account a seat could write of one match, paired so that every rule of
    spec/protocol.md §9.2 decides at least one pair."""
    results, peers = _honest_pair()
    record, envs = results[0].record, peers[0].transcript
    session_id = results[0].channel.session_id
    finished = encode_transcript(record, envs, closed=True)
    cut = len(envs) // 2
    prefix = encode_transcript(record, envs[:cut], closed=False)

    def claim(n: int, claimant: int) -> bytes:
        """Seat ``claimant``'s abandonment file at message n (the file names what the replay waits for)."""
        before = encode_transcript(record, envs[:n], closed=False)
        report = audit_bytes(before)
        assert report.waiting is not None
        c = AbandonmentClaim(session_id=session_id, seq=n, head=envs[n - 1].digest(), claimant=claimant,
                             absent=1 - claimant, expected=report.waiting[1], deadline=report.waiting[2])
        return encode_abandonment(before, c, sign_claim(results[claimant].channel.identity, c))

    # Seat 0 claims that seat 1 went silent at `at`, a message of seat 1 after the prefix, and
    # again at `at + 1`, the next message of seat 1's run; seat 1 claims at `back`, the first message
    # of seat 0 after that run, and at `later`, the next message of seat 0 after `back`.
    at = next(i for i in range(cut, len(envs) - 2) if envs[i].sender == 1 and envs[i + 1].sender == 1)
    back = next(i for i in range(at, len(envs)) if envs[i].sender == 0)
    later = next(i for i in range(back + 1, len(envs)) if envs[i].sender == 0 and envs[i - 1].sender == 1)
    files["pair_finished.transcript"] = finished
    files["pair_prefix.transcript"] = prefix
    files["pair_claim.abandoned"] = claim(at, 0)
    files["pair_claim_next.abandoned"] = claim(at + 1, 0)
    files["pair_claim_seat1.abandoned"] = claim(back, 1)
    files["pair_claim_seat1_later.abandoned"] = claim(later, 1)
    files["pair_answered.transcript"] = encode_transcript(record, envs[:at + 1], closed=False)
    # Seat 1 claims that seat 0 went silent at a message that was seat 1's own: false on its own.
    wrong = audit_bytes(encode_transcript(record, envs[:at], closed=False)).waiting
    assert wrong is not None
    lie = AbandonmentClaim(session_id=session_id, seq=at, head=envs[at - 1].digest(), claimant=1, absent=0,
                           expected=wrong[1], deadline=wrong[2])
    files["pair_false_claim.abandoned"] = encode_abandonment(
        encode_transcript(record, envs[:at], closed=False), lie, sign_claim(results[1].channel.identity, lie))
    here = {name: f"{FOLDER}/{name}" for name in files if name.startswith("pair_")}
    here.update({name: f"{FOLDER}/{name}" for name in files if name.startswith(("session_", "claim_"))})
    here["match_resigned.transcript"] = "match_resigned.transcript"
    table = [
        ("finished_and_its_prefix",
         "the finished match and its first half without a closing marker: one is a prefix of the other, "
         "the files agree (rule 3 sends it to rule 7)",
         "pair_finished.transcript", "pair_prefix.transcript"),
        ("finished_and_a_claim",
         "the finished match and seat 0's claim that seat 1 went silent in its middle: the finished match "
         "stands (rule 3)",
         "pair_finished.transcript", "pair_claim.abandoned"),
        ("equivocation_across_files", "the finished match and a file of the same session whose message 0 is "
                                      "another proposal of terms signed by seat 0 (the claims' two-round "
                                      "match): two envelopes one seat signed for one number (rule 1)",
         "pair_finished.transcript", "claim_with_round_secret.abandoned"),
        ("proven_evidence_beside_the_match", "the finished match and an evidence file proving seat 1's "
                                             "equivocation: the proven deviation stands (rule 2)",
         "pair_finished.transcript", "session_equivocation.evidence"),
        ("a_resignation_twice", "a match ended by resignation beside a copy of itself: they agree on the "
                                "resignation (rule 2)",
         "match_resigned.transcript", "match_resigned.transcript"),
        ("a_false_claim_beside_a_prefix", "seat 1 claims seat 0 went silent at a message that was seat 1's "
                                          "own; beside a transcript cut short the transcript stands (rule 3)",
         "pair_false_claim.abandoned", "pair_prefix.transcript"),
        ("a_claim_beside_a_shorter_chain", "seat 0's claim beside a transcript that stops before it: the "
                                           "files agree and the claim holds (rules 4 and 7)",
         "pair_prefix.transcript", "pair_claim.abandoned"),
        ("a_claim_answered_not_refuted",
         "seat 0's claim at message N beside a transcript that holds seat 1's message N and nothing later "
         "from seat 0: the claim stands (rule 4)",
         "pair_claim.abandoned", "pair_answered.transcript"),
        ("two_claims_the_earlier_stands", "seat 0 claims at N1, seat 1 at N2 > N1 on a chain that holds no "
                                          "envelope of seat 0 from N1 on: the earlier claim stands (rule 5)",
         "pair_claim_seat1.abandoned", "pair_claim.abandoned"),
        ("two_claims_the_earlier_refuted", "seat 0 claims at N1, and seat 1's later claim holds seat 0's own "
                                           "envelope after N1: the later claim stands (rules 4 and 5)",
         "pair_claim.abandoned", "pair_claim_seat1_later.abandoned"),
        ("two_claims_of_one_seat", "seat 0 claims at N and at N + 1 (seat 1 signed N and nothing of seat 0 "
                                   "follows): the files conflict (rule 6)",
         "pair_claim.abandoned", "pair_claim_next.abandoned"),
        ("a_file_that_is_no_account", "the finished match beside a text file: the text is no account and "
                                      "the match stands",
         "pair_finished.transcript", "unknown_text.bin"),
        ("neither_file_verifies", "two files that are no account: they cannot be compared (bad_file)",
         "unknown_text.bin", "unknown_empty.bin"),
        ("two_sessions", "files of two sessions cannot be compared (different_sessions)",
         "pair_finished.transcript", "match_resigned.transcript"),
    ]
    here["unknown_text.bin"] = f"{FOLDER}/unknown_text.bin"
    here["unknown_empty.bin"] = f"{FOLDER}/unknown_empty.bin"
    cases = []
    for name, how, one, two in table:
        pair = [_pair_bytes(files, here[one]), _pair_bytes(files, here[two])]
        cases.append({"name": name, "how": how, "files": [here[one], here[two]],
                      "single": [_verdict(pair[0]), _verdict(pair[1])],
                      "expected": _pair_verdict(*pair)})
    return cases


def _pair_bytes(files: dict[str, bytes], where: str) -> bytes:
    """A file of this vector (being built) or an older vector file under spec/vectors/protocol."""
    name = where.removeprefix(f"{FOLDER}/")
    return files[name] if where.startswith(f"{FOLDER}/") else (OUT / where).read_bytes()


def unknown_cases(files: dict[str, bytes]) -> list[dict[str, object]]:
    from koikoi_p2p.cli.main import main as cli

    results, peers = _honest_pair()
    transcript = encode_transcript(results[0].record, peers[0].transcript, closed=True)
    result = audit_bytes(transcript).result
    assert result is not None
    decoded = codec.decode(result)
    assert isinstance(decoded, dict)
    altered_sig = codec.encode({**decoded, "signatures": [decoded["signatures"][0],  # type: ignore[index]
                                                           bytes(64)]})
    candidates = {
        "empty": (b"", "an empty file"),
        "transcript_magic_changed": (b"\x89KOIKOX\n" + transcript[8:200],
                                     "the first 200 bytes of a transcript with one byte of its magic "
                                     "changed"),
        "result_cut_short": (result[:-10], "a co-signed result without its last 10 bytes (it no longer "
                                           "decodes)"),
        "text": (b"hello, koikoi\n", "a text file"),
        "result_bad_signature": (altered_sig, "a co-signed result whose second signature is zero bytes: it "
                                              "decodes, so it is a result, and fails its check"),
    }
    cases = []
    import contextlib
    import io
    import tempfile

    for name, (data, how) in candidates.items():
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "file"
            path.write_bytes(data)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                status = cli(["verify", "--json", str(path)])
        said = json.loads(out.getvalue())
        files[f"unknown_{name}.bin"] = data
        cases.append({"name": name, "how": how, "file": f"{FOLDER}/unknown_{name}.bin",
                      "expected": {"ok": False, "reason": said["reason"], "status": status}})
    return cases


def build() -> tuple[dict[str, bytes], dict[str, object]]:
    files: dict[str, bytes] = {}
    vector = {
        "provenance": {"generator": GENERATOR, "seed": "the vector identities and deck streams of "
                                                      "game_match.py, random players 0 and 1"},
        "description": "files and the verdict koikoi verify gives them; every implementation's verifier "
                       "must give the same (spec/game.md §3.4, spec/protocol.md §9, §9.1, §9.2, §8)",
        "messages": message_cases(files),
        "round_keys": round_keys_cases(files),
        "session": session_cases(files),
        "claims": claim_cases(files),
        "unknown": unknown_cases(files),
        "pairs": pair_cases(files),
    }
    return files, vector


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    files, vector = build()
    text = json.dumps(vector, indent=2, sort_keys=True) + "\n"
    folder = OUT / FOLDER
    if args.check:
        current = (OUT / INDEX).exists() and (OUT / INDEX).read_text() == text and all(
            (folder / name).exists() and (folder / name).read_bytes() == data for name, data in files.items())
        current = current and folder.exists() and sorted(p.name for p in folder.iterdir()) == sorted(files)
        print("current" if current else "stale")
        return 0 if current else 1
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        if old.name not in files:
            old.unlink()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    (OUT / INDEX).write_text(text)
    print(f"wrote {OUT / INDEX} and {len(files)} files in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
