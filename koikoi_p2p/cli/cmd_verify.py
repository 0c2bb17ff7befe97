"""``koikoi verify FILE``: replay a transcript or an evidence file; ``--result``: check a co-signed result."""

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
                    "proves it). With --result, FILE is a co-signed match result checked on its own.",
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

    from koikoi_p2p.audit import AuditError, audit_bytes, verify_result

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
    if args.html and not args.result:
        from koikoi_web import report_html

        try:
            Path(args.html).write_bytes(report_html(data))
        except OSError as exc:
            print(f"koikoi verify: cannot write {args.html}: {exc.strerror}")
            return 2
    if args.result:
        try:
            result = verify_result(data)
        except AuditError as exc:
            _say(args.json, {"ok": False, "reason": exc.reason, "message": exc.message},
                 f"INVALID co-signed result: {exc.reason}: {exc.message}")
            return 1
        winner = "a draw" if result.winner is None else f"player {result.winner} won"
        text = (f"valid co-signed result: {result.profile}, {len(result.rounds)} rounds, "
                f"scores {result.scores[0]}-{result.scores[1]}, {winner}; signed by both keys "
                f"{result.keys[0].hex()[:16]}... and {result.keys[1].hex()[:16]}...")
        _say(args.json, {"ok": True, "profile": result.profile, "scores": list(result.scores),
                         "winner": result.winner, "rounds": [list(r) for r in result.rounds],
                         "keys": [k.hex() for k in result.keys], "session": result.session_id.hex(),
                         "terms": result.terms_digest.hex(), "head": result.head.hex()}, text)
        return 0
    try:
        report = audit_bytes(data)
    except AuditError as exc:
        where = f" at message {exc.index}" if exc.index is not None else ""
        _say(args.json, {"ok": False, "reason": exc.reason, "message": exc.message, "index": exc.index},
             f"INVALID file{where}: {exc.reason}: {exc.message}")
        return 1
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
        return 0 if report.ok else 1
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
    winner = "a draw" if report.winner is None else f"player {report.winner} wins"
    print(f"valid transcript: {report.profile}, {len(report.rounds)} rounds, {report.messages} messages; "
          f"final scores {report.scores[0]}-{report.scores[1]} ({winner}); result co-signed by both")
    return 0


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
    if args.json:
        print(json.dumps(comparison.to_json(), indent=2))
    else:
        print("\n".join(comparison.lines()))
    return 0 if comparison.ok else 1


def _say(as_json: bool, data: dict[str, object], text: str) -> None:
    import json

    print(json.dumps(data, indent=2) if as_json else text)
