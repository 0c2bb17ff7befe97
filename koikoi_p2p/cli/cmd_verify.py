"""``koikoi verify FILE``: replay a transcript or an evidence file; ``--result``: check a co-signed result.

The file's kind is read from its first bytes (transcripts, evidence and abandonment files start
with their magic; a co-signed result is a bare canonical map), so each is checked the right way
whether or not ``--result`` was given. Players are named by seat and key fingerprint, the same
fingerprint the game screens show, and the seat whose key is this user's identity is marked as
"you"; the JSON output labels every field.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="replay a transcript or evidence file, or check a co-signed result",
        description="Replay a transcript through the same protocol and rules code: every signature, "
                    "chain link, proof, move and result. Exits 0 for a complete valid match, 1 when the "
                    "file fails (naming the first message that fails and why). An evidence file is "
                    "reported as 'player X deviated at message N: reason' (exit 0 if the evidence "
                    "proves it). A co-signed match result (the .result file) is checked on its own; "
                    "the kind of file is recognised, --result is only a reminder.",
    )
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("other", metavar="FILE2", nargs="?",
                        help="a second file of the same session (transcript, evidence or abandonment "
                             "file): say which account stands, or that the two conflict")
    parser.add_argument("--result", action="store_true", help="FILE is a co-signed result, not a transcript")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--html", metavar="OUT",
                        help="also write the match report (every deal step by step, verified again in the "
                             "browser) as one self-contained HTML file with the transcript inside")
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from koikoi_p2p.audit import AuditError, audit_bytes

    try:
        data = Path(args.file).read_bytes()
        other = Path(args.other).read_bytes() if args.other is not None else None
    except OSError as exc:
        print(f"koikoi verify: cannot read {exc.filename}: {exc.strerror}")
        return 2
    if other is not None:
        if args.result:
            print("koikoi verify: --result takes one file")
            return 2
        return _compare(args, data, other)
    kind = file_kind(data)
    if args.html and kind != "result":
        from koikoi_web import report_html

        try:
            Path(args.html).write_bytes(report_html(data))
        except OSError as exc:
            print(f"koikoi verify: cannot write {args.html}: {exc.strerror}")
            return 2
    if args.result and kind != "result" and not args.json:
        print(f"note: {args.file} is {_ARTICLE[kind]}, not a co-signed result: checking it as one")
    if kind == "result":
        return _verify_result(args, data)
    try:
        report = audit_bytes(data)
    except AuditError as exc:
        where = f" at message {exc.index}" if exc.index is not None else ""
        hint = _HINTS.get(exc.reason, "")
        _say(args.json, {"ok": False, "reason": exc.reason, "message": exc.message, "index": exc.index},
             f"INVALID file{where}: {exc.reason}: {exc.message}" + (f" ({hint})" if hint else ""))
        return 1
    me = own_key()
    if args.json:
        print(json.dumps(labelled(report.to_json(), report.keys, me), indent=2))
        return 0 if report.ok else 1
    for line in players(report.keys, me):
        print(line)
    if report.kind == "abandonment":
        for note in report.notes:
            print(note)
        print("the claim holds" if report.ok else "the claim does NOT hold")
        return 0 if report.ok else 1
    if report.kind == "evidence":
        if report.deviation is not None:
            print(report.deviation.describe())
        for note in report.notes:
            print(note)
        print("the evidence proves the deviation" if report.ok else "the evidence does NOT prove a deviation")
        return 0 if report.ok else 1
    if report.deviation is not None:
        print(f"INVALID transcript: {report.deviation.describe()}")
        return 1
    for note in report.notes:
        print(note)
    if not report.ok:
        print(f"INCOMPLETE transcript: not a finished, verified match ({report.messages} messages)")
        return 1
    assert report.scores is not None
    print(f"valid transcript: {report.profile}, {_count(len(report.rounds), 'round')}, "
          f"{_count(report.messages, 'message')}; result co-signed by both")
    for line in _outcome(report.rounds, report.scores, report.winner):
        print(line)
    return 0


def _verify_result(args: argparse.Namespace, data: bytes) -> int:
    from koikoi_p2p.audit import AuditError, verify_result

    try:
        result = verify_result(data)
    except AuditError as exc:
        if not args.result and exc.reason == "bad_result":
            # No magic and no result: not a file of this program at all.
            _say(args.json, {"ok": False, "reason": "unknown_file", "message": exc.message},
                 f"INVALID file: {args.file} is no transcript, evidence, abandonment file or co-signed "
                 f"result ({_HINTS['bad_magic']})")
            return 1
        _say(args.json, {"ok": False, "reason": exc.reason, "message": exc.message},
             f"INVALID co-signed result: {exc.reason}: {exc.message}")
        return 1
    me = own_key()
    if args.json:
        _say(True, labelled({"ok": True, "kind": "result", "profile": result.profile,
                             "scores": list(result.scores), "winner": result.winner,
                             "rounds": [list(r) for r in result.rounds],
                             "keys": [k.hex() for k in result.keys],
                             "session": result.session_id.hex(), "terms": result.terms_digest.hex(),
                             "head": result.head.hex()}, result.keys, me), "")
        return 0
    for line in players(result.keys, me):
        print(line)
    print(f"valid co-signed result: {result.profile}, {_count(len(result.rounds), 'round')}; signed by both "
          "players' keys (this shows who agreed to the outcome, not that the match was played by the rules: "
          "the transcript shows that)")
    for line in _outcome(result.rounds, result.scores, result.winner):
        print(line)
    return 0


def file_kind(data: bytes) -> str:
    """"transcript", "evidence", "abandonment", "result" (anything else: tried as a result)."""
    from koikoi_p2p.protocol.abandonment import ABANDON_MAGIC
    from koikoi_p2p.protocol.transcript import EVIDENCE_MAGIC, TRANSCRIPT_MAGIC

    for magic, kind in ((TRANSCRIPT_MAGIC, "transcript"), (EVIDENCE_MAGIC, "evidence"),
                        (ABANDON_MAGIC, "abandonment")):
        if data.startswith(magic):
            return kind
    return "result"


_ARTICLE = {"transcript": "a transcript", "evidence": "an evidence file",
            "abandonment": "an abandonment file", "result": "a co-signed result"}
_HINTS = {"bad_magic": "koikoi verify reads transcripts, evidence and abandonment files, and co-signed "
                       ".result files"}


def own_key() -> bytes | None:
    """This user's identity key, when there is one (never made here: verify writes nothing)."""
    from koikoi_p2p.cli.paths import folders
    from koikoi_p2p.protocol.errors import LocalMisuse
    from koikoi_p2p.protocol.identity import Identity

    path = folders().identity_file
    if not path.is_file():
        return None
    try:
        return Identity.load_or_create(path).public_key
    except LocalMisuse:
        return None


def players(keys: tuple[bytes, bytes], me: bytes | None) -> list[str]:
    """``player 0 (host): mfrg-gzdf-mztw-q2lk (you)``, one line per seat."""
    from koikoi_p2p.protocol.identity import fingerprint

    role = ("host", "joined")
    return [f"player {seat} ({role[seat]}): {fingerprint(key)}" + (" (you)" if key == me else "")
            for seat, key in enumerate(keys)]


def labelled(data: dict[str, Any], keys: tuple[bytes, bytes], me: bytes | None) -> dict[str, Any]:
    """The report with labelled fields: ``players`` (seat, role, fingerprint, key, you) and
    ``rounds`` as objects ``{"round", "winner", "points"}`` instead of bare triples (``scores``
    and ``keys`` stay lists indexed by seat, as ``players`` is)."""
    from koikoi_p2p.protocol.identity import fingerprint

    out = dict(data)
    out["players"] = [{"seat": seat, "role": ("host", "joined")[seat], "fingerprint": fingerprint(key),
                       "key": key.hex(), "you": key == me} for seat, key in enumerate(keys)]
    out["you"] = next((seat for seat, key in enumerate(keys) if key == me), None)
    rounds = out.get("rounds")
    if isinstance(rounds, list):
        out["rounds"] = [{"round": r[0], "winner": r[1], "points": r[2]} for r in rounds
                         if isinstance(r, list | tuple) and len(r) == 3]
    return out


def _outcome(rounds: tuple[tuple[int, int | None, int], ...], scores: tuple[int, int],
             winner: int | None) -> list[str]:
    lines = []
    for index, who, points in rounds:
        won = "drawn" if who is None else f"player {who} won {_count(points, 'point')}"
        lines.append(f"  round {index}: {won}")
    verdict = "a draw" if winner is None else f"player {winner} wins"
    lines.append(f"final scores: player 0 {scores[0]} - {scores[1]} player 1 ({verdict})")
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _compare(args: argparse.Namespace, data: bytes, other: bytes) -> int:
    """``koikoi verify A B``: two files of one session (spec/protocol.md §9.2)."""
    import json

    from koikoi_p2p.audit import AuditError
    from koikoi_p2p.audit.compare import compare_bytes

    try:
        comparison = compare_bytes(data, other, (args.file, args.other))
    except AuditError as exc:
        _say(args.json, {"ok": False, "reason": exc.reason, "message": exc.message},
             f"cannot compare the two files: {exc.reason}: {exc.message}")
        return 1
    keys = next((a.report.keys for a in comparison.accounts if a.report is not None), None)
    me = own_key()
    if args.json:
        verdict = comparison.to_json()
        print(json.dumps(labelled(verdict, keys, me) if keys is not None else verdict, indent=2))
    else:
        for line in players(keys, me) if keys is not None else []:
            print(line)
        print("\n".join(comparison.lines()))
    return 0 if comparison.ok else 1


def _say(as_json: bool, data: dict[str, object], text: str) -> None:
    import json

    print(json.dumps(data, indent=2) if as_json else text)
