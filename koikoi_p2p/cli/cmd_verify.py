"""``koikoi verify FILE``: replay a transcript or an evidence file; ``--result``: check a co-signed result.

The file's kind is read from its first bytes (transcripts, evidence and abandonment files start
with their magic; a co-signed result is a bare canonical map), so each is checked the right way
whether or not ``--result`` was given. Players are named by seat and key fingerprint, the same
fingerprint the game screens show, and the seat whose key is this user's identity is marked as
"you"; the JSON output labels every field.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from koikoi_p2p.cli.catalogue import ngettext_in
from koikoi_p2p.cli.i18n import count, role_name, tr


def register(subparsers: Any) -> None:
    from koikoi_p2p.cli.options import add_lang

    parser = subparsers.add_parser(
        "verify",
        help="replay a transcript or evidence file, or check a co-signed result",
        description="Replay a transcript through the same protocol and rules code: every signature, "
                    "chain link, proof, move and result. Exits 0 for a complete valid match, 1 when the "
                    "file fails (naming the first message that fails and why). An evidence file is "
                    "reported as 'player X deviated at message N: reason' (exit 0 if the evidence "
                    "proves it). A co-signed match result (the .result file) is checked on its own; "
                    "the kind of file is recognised, --result is only a reminder. Exits 2 when a "
                    "file cannot be read or the command line is wrong.",
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
    add_lang(parser, remembered=False)
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    import json

    from koikoi_p2p.audit import AuditError, audit_bytes
    from koikoi_p2p.cli.catalogue import say
    from koikoi_p2p.cli.setup import command_lang

    # The JSON report is a machine format: English keys and texts whatever the language.
    lang = args.lang = "en" if args.json else command_lang(args)
    try:
        data = Path(args.file).read_bytes()
        other = Path(args.other).read_bytes() if args.other is not None else None
    except OSError as exc:
        print("koikoi verify: " + tr(lang, "cannot read {file}: {problem}", file=exc.filename,
                                     problem=exc.strerror))
        return 2
    if other is not None:
        if args.result:
            print("koikoi verify: " + tr(lang, "--result takes one file"))
            return 2
        # Two accounts of one match are compared; a co-signed result is no account (it holds
        # the outcome alone) and is checked on its own.
        pair = ((args.file, data), (args.other, other))
        results = [name for name, raw in pair if file_kind(raw) == "result"]
        if results:
            text = tr(lang, "{file} is not a transcript, an evidence file or an abandonment file, the only "
                            "files compared; a co-signed result is verified alone: koikoi verify {file}",
                      file=results[0])
            print("koikoi verify: " + text)
            return 2
        return _compare(args, data, other)
    kind = file_kind(data)
    if args.html and kind != "result":
        from koikoi_web import report_html

        try:
            Path(args.html).write_bytes(report_html(data))
        except OSError as exc:
            print("koikoi verify: " + tr(lang, "cannot write {file}: {problem}", file=args.html,
                                         problem=exc.strerror))
            return 2
        # Say where the report went (on stderr under --json, whose stdout is one JSON document).
        print(tr(lang, "Wrote the match report to {file} (open it in a browser).",
                 file=Path(args.html).resolve()), file=sys.stderr if args.json else sys.stdout)
    if args.result and kind != "result" and not args.json:
        print(tr(lang, "note: {file} is {kind}, not a co-signed result: checking it as one", file=args.file,
                 kind=tr(lang, _ARTICLE[kind])))
    if kind == "result":
        return _verify_result(args, data)
    try:
        report = audit_bytes(data)
    except AuditError as exc:
        why = say(lang, failure(exc.reason, exc.message))
        hint = _HINTS.get(exc.reason)
        text = (tr(lang, "INVALID file at message {index}: {why}", index=exc.index, why=why)
                if exc.index is not None else tr(lang, "INVALID file: {why}", why=why))
        _say(args.json, {"ok": False, "reason": exc.reason, "message": exc.message, "index": exc.index},
             text + (tr(lang, " ({hint})", hint=tr(lang, hint)) if hint else ""))
        return 1
    me = own_key()
    names = file_names(data)
    if args.json:
        print(json.dumps(labelled(report.to_json(), report.keys, me, names), indent=2))
        return 0 if report.ok else 1
    for line in players(report.keys, me, names, lang):
        print(line)
    if report.kind == "abandonment":
        for note in report.notes:
            print(say(lang, note))
        print(tr(lang, "the claim holds") if report.ok else tr(lang, "the claim does NOT hold"))
        return 0 if report.ok else 1
    if report.kind == "evidence":
        if report.deviation is not None:
            print(say(lang, report.deviation.describe()))
        for note in report.notes:
            print(say(lang, note))
        print(tr(lang, "the evidence proves the deviation") if report.ok
              else tr(lang, "the evidence does NOT prove a deviation"))
        return 0 if report.ok else 1
    if report.deviation is not None:
        print(tr(lang, "INVALID transcript: {finding}", finding=say(lang, report.deviation.describe())))
        return 1
    for note in report.notes:
        print(say(lang, note))
    if not report.ok:
        print(tr(lang, "INCOMPLETE transcript: not a finished, verified match ({messages})",
                 messages=count(report.messages, "message", lang)))
        return 1
    assert report.scores is not None
    resigned = None if report.resigned is None else report.resigned[0]
    print(tr(lang, "valid transcript: {rules}, {rounds}, {messages}; result co-signed by both",
             rules=report.profile, rounds=_rounds_played(len(report.rounds), resigned, lang),
             messages=count(report.messages, "message", lang)))
    for line in _outcome(report.rounds, report.scores, report.winner, lang, resigned):
        print(line)
    return 0


def failure(reason: str, message: str) -> str:
    """``reason: message`` as the report prints a file's failure (a phrase: a Japanese screen names
    the reason in words and leaves the protocol's English detail to --lang en and --json)."""
    from koikoi_p2p.phrase import Phrase, Word

    return Phrase("{reason}: {message}", reason=Word(reason), message=message)


def _verify_result(args: argparse.Namespace, data: bytes) -> int:
    from koikoi_p2p.audit import AuditError, verify_result
    from koikoi_p2p.cli.catalogue import say

    lang = args.lang
    try:
        result = verify_result(data)
    except AuditError as exc:
        if not args.result and exc.reason == "bad_result":
            # No magic and no result: not a file of this program at all.
            _say(args.json, {"ok": False, "reason": "unknown_file", "message": exc.message},
                 tr(lang, "INVALID file: {file} is no transcript, evidence, abandonment file or co-signed "
                          "result ({hint})", file=args.file, hint=tr(lang, _HINTS["bad_magic"])))
            return 1
        _say(args.json, {"ok": False, "reason": exc.reason, "message": exc.message},
             tr(lang, "INVALID co-signed result: {why}", why=say(lang, failure(exc.reason, exc.message))))
        return 1
    me = own_key()
    if args.json:
        _say(True, labelled({"ok": True, "kind": "result", "profile": result.profile,
                             "scores": list(result.scores), "winner": result.winner,
                             "resigned": result.resigned, "rated": result.rated,
                             "names": list(result.names),
                             "rounds": [list(r) for r in result.rounds],
                             "keys": [k.hex() for k in result.keys],
                             "session": result.session_id.hex(), "terms": result.terms_digest.hex(),
                             "head": result.head.hex()}, result.keys, me, result.names), "")
        return 0
    for line in players(result.keys, me, result.names, lang):
        print(line)
    print(tr(lang, "valid co-signed result: {rules}, {rounds}; signed by both players' keys (this shows who "
                   "agreed to the outcome, not that the match was played by the rules: the transcript shows "
                   "that)", rules=result.profile,
             rounds=_rounds_played(len(result.rounds), result.resigned, lang)))
    for line in _outcome(result.rounds, result.scores, result.winner, lang, result.resigned):
        print(line)
    print(tr(lang, "rated: the players agreed to send it to a rating service") if result.rated
          else tr(lang, "not rated"))
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


_ARTICLE = {"transcript": "a transcript", "evidence": "an evidence file",   # tr() at the call
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


def players(keys: tuple[bytes, bytes], me: bytes | None, names: tuple[str, str] = ("", ""),
            lang: str = "en") -> list[str]:
    """``player 0 (host): Hanako (mfrg-gzdf-mztw-q2lk) (you)``, one line per seat: the display
    name (signed by its key in the handshake, spec/game.md §2.2) beside the fingerprint, which
    stays the identity."""
    from koikoi_p2p.cli.display_name import shown
    from koikoi_p2p.protocol.identity import fingerprint

    role = (role_name("host", lang), role_name("joiner", lang))
    return [tr(lang, "player {seat} ({role}): {who}", seat=seat, role=role[seat],
               who=shown(names[seat], fingerprint(key))) + (tr(lang, " (you)") if key == me else "")
            for seat, key in enumerate(keys)]


def file_names(data: bytes) -> tuple[str, str]:
    """Both display names of a transcript, evidence or abandonment file (its handshake record);
    ("", "") when the file holds none."""
    from koikoi_p2p.protocol.abandonment import decode_abandonment
    from koikoi_p2p.protocol.errors import ProtocolError
    from koikoi_p2p.protocol.transcript import TRANSCRIPT_MAGIC, TranscriptError, decode_transcript

    try:
        if data.startswith(TRANSCRIPT_MAGIC):
            return decode_transcript(data).session.names
        if file_kind(data) == "abandonment":
            return decode_abandonment(data).transcript.session.names
    except (TranscriptError, ProtocolError):
        pass
    return ("", "")


def labelled(data: dict[str, Any], keys: tuple[bytes, bytes], me: bytes | None,
             names: tuple[str, str] = ("", "")) -> dict[str, Any]:
    """The report with labelled fields: ``players`` (seat, role, fingerprint, key, you) and
    ``rounds`` as objects ``{"round", "winner", "points"}`` instead of bare triples (``scores``
    and ``keys`` stay lists indexed by seat, as ``players`` is)."""
    from koikoi_p2p.protocol.identity import fingerprint

    out = dict(data)
    out["players"] = [{"seat": seat, "role": ("host", "joined")[seat], "name": names[seat],
                       "fingerprint": fingerprint(key), "key": key.hex(), "you": key == me}
                      for seat, key in enumerate(keys)]
    out["you"] = next((seat for seat, key in enumerate(keys) if key == me), None)
    rounds = out.get("rounds")
    if isinstance(rounds, list):
        out["rounds"] = [{"round": r[0], "winner": r[1], "points": r[2]} for r in rounds
                         if isinstance(r, list | tuple) and len(r) == 3]
    return out


def _rounds_played(n: int, resigned: int | None, lang: str) -> str:
    """The rounds a match counted: a resignation ends the match inside a round that is never
    scored (spec/game.md §6.3), so "0 rounds" would read as an empty match."""
    if resigned is None:
        return count(n, "round", lang)
    if n == 0:
        return tr(lang, "resigned before the first round ended")
    return ngettext_in(lang, "{n} round finished before the resignation",
                       "{n} rounds finished before the resignation", n).format(n=n)


def _outcome(rounds: tuple[tuple[int, int | None, int], ...], scores: tuple[int, int],
             winner: int | None, lang: str = "en", resigned: int | None = None) -> list[str]:
    lines = []
    for index, who, points in rounds:
        won = (tr(lang, "drawn") if who is None
               else tr(lang, "player {seat} won {points}", seat=who, points=count(points, "point", lang)))
        lines.append(tr(lang, "  round {n}: {won}", n=index, won=won))
    verdict = tr(lang, "a draw") if winner is None else tr(lang, "player {seat} wins", seat=winner)
    if resigned is not None and winner is not None:
        # The scores need not favour the winner: the resigner's points do not count (§6.3).
        verdict = tr(lang, "player {seat} wins: player {other} resigned", seat=winner, other=resigned)
    lines.append(tr(lang, "final scores: player 0 {first} - {second} player 1 ({verdict})", first=scores[0],
                    second=scores[1], verdict=verdict))
    return lines


def _compare(args: argparse.Namespace, data: bytes, other: bytes) -> int:
    """``koikoi verify A B``: two files of one session (spec/protocol.md §9.2)."""
    import json

    from koikoi_p2p.audit import AuditError
    from koikoi_p2p.audit.compare import compare_bytes
    from koikoi_p2p.cli.catalogue import say

    lang = args.lang
    try:
        comparison = compare_bytes(data, other, (args.file, args.other))
    except AuditError as exc:
        _say(args.json, {"ok": False, "reason": exc.reason, "message": exc.message},
             tr(lang, "cannot compare the two files: {why}", why=say(lang, failure(exc.reason, exc.message))))
        return 1
    keys = next((a.report.keys for a in comparison.accounts if a.report is not None), None)
    me = own_key()
    names = file_names(data) if file_names(data) != ("", "") else file_names(other)
    if args.json:
        verdict = comparison.to_json()
        print(json.dumps(labelled(verdict, keys, me, names) if keys is not None else verdict, indent=2))
    else:
        for line in players(keys, me, names, lang) if keys is not None else []:
            print(line)
        print("\n".join(say(lang, line) for line in comparison.lines()))
    return 0 if comparison.ok else 1


def _say(as_json: bool, data: dict[str, object], text: str) -> None:
    import json

    print(json.dumps(data, indent=2) if as_json else text)
