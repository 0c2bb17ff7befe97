"""``koikoi ratings``: read a rating service's leaderboard; ``serve`` runs one; ``recompute``
rebuilds the leaderboard from an export and compares it with the service (spec/ratings.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from koikoi_p2p.cli.catalogue import ngettext_in
from koikoi_p2p.cli.exit_codes import RELAY_UNREACHABLE
from koikoi_p2p.cli.i18n import count, tr
from koikoi_p2p.cli.options import add_cafile, seconds
from koikoi_p2p.cli.settings import LANGUAGES
from koikoi_p2p.cli.untrusted import safe
from koikoi_p2p.phrase import Phrase
from koikoi_relay.main import port_number, run_listening

DEFAULT_PORT = 8766
DEFAULT_TIMEOUT = 10.0   # as koikoi lobby's
T = TypeVar("T")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "ratings",
        help="the leaderboard of a rating service (and: serve one, recompute one from its export)",
        description="Show the leaderboard of the rating service of a relay (ratings count only "
        "co-signed results of rated matches). `koikoi ratings serve` runs a service, "
        "`koikoi ratings recompute FILE` rebuilds a leaderboard from an export.",
    )
    parser.add_argument(
        "--relay",
        metavar="URL",
        default=None,
        help="the relay (ws://, wss://) or rating service (http://, https://) to ask "
        "(default: $KOIKOI_RELAY or the local relay)",
    )
    parser.add_argument(
        "--player",
        metavar="WHO",
        default=None,
        help="show one player's history (a fingerprint, or the key in hex)",
    )
    parser.add_argument("--json", action="store_true", help="print the service's JSON")
    add_timeout(parser)
    add_lang(parser)
    add_cafile(parser)
    parser.set_defaults(handler=_show)
    commands = parser.add_subparsers(dest="ratings_command", metavar="COMMAND")

    serve = commands.add_parser(
        "serve",
        help="run a rating service",
        description="Run a rating service on its own port (HTTP, or HTTPS with --tls-cert and "
        "--tls-key; SIGHUP reloads the certificate). `koikoi relay --ratings DB_URL` runs one "
        "beside a relay in the same process.",
    )
    serve.add_argument(
        "--db",
        metavar="DB_URL",
        default=None,
        help="sqlite:///PATH or postgresql://USER@HOST:PORT/DB (default: ratings.sqlite3 in the data folder)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    add_serve_arguments(serve)
    add_lang(serve, default=argparse.SUPPRESS)
    serve.set_defaults(handler=_serve)

    recompute = commands.add_parser(
        "recompute",
        help="rebuild the leaderboard from an export (GET /ratings/results)",
        description="Check every result of an export again, replay them in their order through the "
        "same rating rule and print the leaderboard; with --compare, exit 1 unless it "
        "equals the service's exactly.",
    )
    recompute.add_argument("file", metavar="FILE", help="the export (JSON; - for standard input)")
    recompute.add_argument(
        "--compare",
        metavar="URL",
        default=None,
        help="the relay or rating service whose leaderboard must be equal",
    )
    recompute.add_argument("--json", action="store_true", help="print the leaderboard as JSON")
    add_timeout(recompute, default=argparse.SUPPRESS)
    add_lang(recompute, default=argparse.SUPPRESS)
    add_cafile(recompute, default=argparse.SUPPRESS)
    recompute.set_defaults(handler=_recompute)

    submit = commands.add_parser(
        "submit",
        help="send a co-signed result file to a rating service",
        description="Send a co-signed result (the .result file beside a transcript) to a rating "
        "service. The first submission counts; sending it again changes nothing.",
    )
    submit.add_argument("file", metavar="FILE", help="the co-signed result file")
    submit.add_argument(
        "--to",
        metavar="URL",
        default=None,
        help="the relay or rating service (default: $KOIKOI_RELAY or the local relay)",
    )
    submit.add_argument("--json", action="store_true", help="print the service's answer as JSON")
    add_lang(submit, default=argparse.SUPPRESS)
    add_cafile(submit, default=argparse.SUPPRESS)
    submit.set_defaults(handler=_submit)


def add_timeout(parser: argparse.ArgumentParser, default: object = DEFAULT_TIMEOUT) -> None:
    """--timeout, as ``koikoi lobby`` has it: a reading gives up after that long (exit 3). A
    subcommand passes ``argparse.SUPPRESS``, so the command's --timeout given before it stays."""
    parser.add_argument("--timeout", type=seconds, default=default, metavar="SECONDS",
                        help=f"give up when the service has not answered within SECONDS (default: "
                             f"{DEFAULT_TIMEOUT:g})")


def within(limit: float, work: Callable[[], T]) -> T:
    """``work()``, or TimeoutError when it has not returned within ``limit`` seconds in all: urllib's
    timeout bounds each socket operation, not a server that answers a byte at a time. It runs in a
    daemon thread, which a command that gives up leaves behind as it exits."""
    import threading

    done: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            done.append((True, work()))
        except BaseException as exc:   # raised again in the caller's thread
            done.append((False, exc))

    thread = threading.Thread(target=run, name="koikoi-ratings-read", daemon=True)
    thread.start()
    thread.join(limit)
    if not done:
        raise TimeoutError
    ok, value = done[0]
    if not ok:
        raise value
    result: T = value
    return result


def _too_slow(command: str, lang: str, url: str, limit: float) -> int:
    print(f"{command}: " + tr(lang, "no answer from {url} within {seconds}s", url=safe(url),
                              seconds=f"{limit:g}"), file=sys.stderr)
    return RELAY_UNREACHABLE


def add_lang(parser: argparse.ArgumentParser, default: object = None) -> None:
    """--lang on ``koikoi ratings`` and on each subcommand (whose default leaves the command's
    own --lang, given before the subcommand, in place)."""
    parser.add_argument("--lang", choices=LANGUAGES, default=default,
                        help="the language of the output: en or ja (default: the one the last match used, "
                             "first en)")


def _lang(args: argparse.Namespace) -> str:
    """The output's language: --lang, else the remembered one; JSON is always the service's own."""
    from koikoi_p2p.cli.setup import command_lang

    return "en" if getattr(args, "json", False) else command_lang(args)


def default_db() -> str:
    from koikoi_p2p.cli.paths import folders

    where = folders().ensure()
    return f"sqlite:///{where.data / 'ratings.sqlite3'}"


def _service(args: argparse.Namespace, timeout: float = 5.0) -> str:
    """The service of ``--relay`` / ``--to``: the one a relay points to (spec/ratings.md §2.1)."""
    from koikoi_p2p.ratings.client import locate

    return locate(_target(args), timeout=min(5.0, timeout))


def _target(args: argparse.Namespace) -> str:
    from koikoi_p2p.cli.options import relay_url

    return str(args.relay or relay_url(None))


def _show(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.catalogue import word
    from koikoi_p2p.ratings.client import CertificateRefused, ServiceUnreachable, history, leaderboard

    lang = _lang(args)
    limit: float = args.timeout
    service = args.relay

    def read() -> Any:
        nonlocal service
        service = _service(args, limit)
        return history(service, args.player, timeout=limit) if args.player else \
            leaderboard(service, timeout=limit)

    try:
        answer = within(limit, read)
    except TimeoutError:
        return _too_slow("koikoi ratings", lang, service or _target(args), limit)
    except ValueError as exc:
        _problem("koikoi ratings", lang, exc, "{url} is not a relay or rating service URL", url=args.relay)
        return 2
    except CertificateRefused as exc:
        return _untrusted("koikoi ratings", lang, exc, service)
    except ServiceUnreachable as exc:
        _problem("koikoi ratings", lang, exc, "no answer from {url}", url=service)
        return 3
    if args.json:
        print(json.dumps(answer.body, indent=2, ensure_ascii=False))
        return 0 if answer.ok else 1
    if not answer.ok:
        reason, message = safe(answer.body.get("reason")), safe(answer.body.get("message"))
        # The reason in words; the service's message is English, shown on an English screen only.
        text = tr(lang, "{url} answered {status}: {reason}", url=service, status=answer.status,
                  reason=word(lang, reason) or tr(lang, "no reason given")) + (
                      f" ({message})" if lang == "en" and message else "")
        print(f"koikoi ratings: {text}", file=sys.stderr)
        return 1
    print(player_text(answer.body, lang) if args.player else board_text(answer.body, service, lang))
    return 0


def _untrusted(command: str, lang: str, exc: Exception, url: str) -> int:
    """A certificate that does not verify: said as every command that connects says it, with the
    tag ``bad_certificate`` and exit 3 (README, spec/relay.md §14.3)."""
    _problem(command, lang, exc, "the certificate of {url} is not trusted (--lang en says why)", url=url,
             tag="bad_certificate")
    # The same way out as the relay commands give (cli/online.py): nothing reached the service.
    hint = tr(lang, "Nothing was sent. If it uses its own CA, give that CA with --cafile FILE.")
    print(f"{command}: {hint}", file=sys.stderr)
    return RELAY_UNREACHABLE


def _problem(command: str, lang: str, exc: Exception, japanese: str, tag: str = "",
             **values: object) -> None:
    """An error on standard error: the exception's own (English) words, or ``japanese`` (an
    English template of the catalogue) on a Japanese screen."""
    from koikoi_p2p.cli.catalogue import say

    if exc.args and isinstance(exc.args[0], Phrase):
        text = say(lang, exc.args[0])   # an export's problem, its reasons in words
    else:
        text = tr(lang, japanese, **values) if lang == "ja" else str(exc)
    print(f"{command}: {text}" + (f" ({tag})" if tag else ""), file=sys.stderr)


def _num(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) else 0.0


def _form(value: object) -> int:
    """The number that picks the plural form of a count the service sent (one that is no number
    takes the form of many)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 2


def _counted(template: str, value: object) -> str:
    return template.format(n=safe(value))   # the service's value, escaped


def board_text(board: dict[str, object], service: str, lang: str = "en") -> str:
    from koikoi_p2p.cli.cmd_rules import pad

    players = board.get("players")
    rows = players if isinstance(players, list) else []
    rated, results, claims = len(rows), board.get("results"), board.get("abandonments")
    lines = [tr(lang, "{service}: {players}, {results}", service=safe(service),
                players=_counted(ngettext_in(lang, "{n} rated player", "{n} rated players", rated), rated),
                results=_counted(ngettext_in(lang, "{n} co-signed result", "{n} co-signed results",
                                             _form(results)), results))]
    if claims:   # (terminal QA: "0 rated players" and nothing else when a claim was counted)
        lines[0] += tr(lang, ", {claims} (never rated)", claims=_counted(ngettext_in(
            lang, "{n} abandonment claim", "{n} abandonment claims", _form(claims)), claims))
    if rows:
        head = [tr(lang, word) for word in BOARD_HEADINGS]
        lines.append(f"{'#':>4}  {lpad(head[0], 11)}  {lpad(head[1], 5)}  {pad(head[2], 11)} "
                     f"{lpad(head[3], 6)}  {pad(head[4], 19)}  {head[5]}")
    for entry in rows:
        if not isinstance(entry, dict):
            continue
        wld = f"{safe(entry.get('wins'))}-{safe(entry.get('losses'))}-{safe(entry.get('draws'))}"
        name = safe(entry.get("name"), 32) or tr(lang, "(no name)")
        lines.append(
            f"{safe(entry.get('rank')):>4}  {_num(entry.get('rating')):>5.0f} "
            f"±{_num(entry.get('deviation')):>4.0f}"
            f"  {safe(entry.get('games')):>5}  {wld:<11} {safe(entry.get('abandoned')):>6}  "
            f"{safe(entry.get('fingerprint'), 19):<19}  {name}"
        )
    lines.append(tr(lang, "names are not unique: the fingerprint is the identity; 'aband.' counts "
                          "abandonment claims, shown but never rated"))
    return "\n".join(lines)


def lpad(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` terminal columns (a kanji takes two)."""
    from koikoi_p2p.cli.style import display_width

    return " " * max(0, width - display_width(text)) + text


def player_text(found: dict[str, object], lang: str = "en") -> str:
    from koikoi_p2p.cli.cmd_rules import pad

    player = found.get("player")
    if not isinstance(player, dict):
        return tr(lang, "no such player")
    games, abandoned = player.get("games"), player.get("abandoned")
    if games == 0:   # known only from claims against it (spec/ratings.md §7.2): no rating to show
        return tr(lang, "{who}  {fp}: not rated (no counted result), {abandoned}",
                  who=safe(player.get("name"), 32) or tr(lang, "(no name)"),
                  fp=safe(player.get("fingerprint"), 19),
                  abandoned=_counted(ngettext_in(lang, "{n} abandonment claim", "{n} abandonment claims",
                                                 _form(abandoned)), abandoned))
    lines = [tr(lang, "{who}  {fp}: rating {rating} ± {deviation}, {games}, {abandoned}",
                who=safe(player.get("name"), 32) or tr(lang, "(no name)"),
                fp=safe(player.get("fingerprint"), 19),
                rating=f"{_num(player.get('rating')):.0f}", deviation=f"{_num(player.get('deviation')):.0f}",
                games=_counted(ngettext_in(lang, "{n} game", "{n} games", _form(games)), games),
                abandoned=_counted(ngettext_in(lang, "{n} abandonment claim", "{n} abandonment claims",
                                               _form(abandoned)), abandoned))]
    history = found.get("history")
    for line in history if isinstance(history, list) else []:
        if isinstance(line, dict):
            outcome = safe(line.get("outcome"))
            lines.append(tr(lang, "  #{seq} {outcome} against {who} ({opponent})  {before} -> {after}",
                            seq=f"{safe(line.get('seq')):<6}",
                            outcome=pad(tr(lang, OUTCOMES.get(outcome, outcome)), 5),
                            who=safe(line.get("opponent_name"), 32) or tr(lang, "(no name)"),
                            opponent=_opponent(line),
                            before=f"{_num(line.get('rating_before')):.0f}",
                            after=f"{_num(line.get('rating_after')):.0f}"))
    return "\n".join(lines)


def _opponent(line: dict[str, object]) -> str:
    """The opponent as people know keys: the fingerprint the service sends (spec/ratings.md §5),
    else one made from the key; a hex prefix only from a service that sends neither in shape."""
    import re

    from koikoi_p2p.protocol.identity import fingerprint

    given = line.get("opponent_fingerprint")
    if isinstance(given, str) and re.fullmatch(r"[a-z2-7]{4}(-[a-z2-7]{4}){3}", given):
        return given
    key = line.get("opponent")
    if isinstance(key, str) and re.fullmatch(r"[0-9a-f]{64}", key):
        return fingerprint(bytes.fromhex(key))
    return safe(key, 16) + "..."


# A history line's outcome (ratings.ledger) and the leaderboard's headings, passed to tr() by variable.
OUTCOMES = {"win": "win", "loss": "loss", "draw": "draw"}
BOARD_HEADINGS = ("rating", "games", "W-L-D", "aband.", "fingerprint", "name")


def open_service(db: str) -> Any:
    """The service over the database at ``db`` (migrated on open)."""
    from koikoi_p2p.ratings.service import RatingService
    from koikoi_p2p.ratings.store import open_store

    return RatingService(open_store(db))


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """TLS and the limits of spec/ratings.md §7.5 (``ServeLimits``), as options."""
    from koikoi_p2p.ratings.limits import ServeLimits

    parser.add_argument("--tls-cert", metavar="FILE", default=None,
                        help="serve https:// with this certificate chain (PEM); SIGHUP reloads it")
    parser.add_argument("--tls-key", metavar="FILE", default=None, help="the certificate's private key (PEM)")
    parser.add_argument("--trusted-proxy", metavar="ADDRESS", action="append", default=[], type=ip_address,
                        help="a proxy in front of the service (repeatable): not capped per address, "
                             "its X-Forwarded-For names the client")
    defaults = ServeLimits()
    group = parser.add_argument_group("limits (spec/ratings.md §7.5)")
    for name in ("max_connections", "max_connections_per_address", "head_timeout", "min_body_rate",
                 "body_grace", "handler_timeout"):
        default = getattr(defaults, name)
        group.add_argument("--" + name.replace("_", "-"), type=positive(type(default)), default=default,
                           metavar="N", help=f"(default {default})")


def ip_address(text: str) -> str:
    """An argparse type: an IPv4 or IPv6 address, as the service compares peers' (spec/ratings.md
    §7.5); a name or a typo would silently trust nobody."""
    import ipaddress

    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an IP address: {text!r}") from None


def positive(kind: type[int] | type[float]) -> Callable[[str], float]:
    """An argparse type: a number of ``kind`` above 0 (a limit of 0 or less would refuse everything,
    or nothing)."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
        return value

    parse.__name__ = kind.__name__     # argparse names the type in its messages
    return parse


def serve_limits_from(args: argparse.Namespace) -> Any:
    from koikoi_p2p.ratings.limits import ServeLimits

    return ServeLimits(
        max_connections=args.max_connections,
        max_connections_per_address=args.max_connections_per_address,
        head_timeout=args.head_timeout,
        min_body_rate=args.min_body_rate,
        body_grace=args.body_grace,
        handler_timeout=args.handler_timeout,
        trusted_proxies=frozenset(args.trusted_proxy),
    )


def _serve(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal

    from koikoi_p2p.ratings.app import RatingsServer
    from koikoi_p2p.ratings.errors import StoreError
    from koikoi_relay.tls import ServerTLS, TLSFilesError

    logging.basicConfig(
        level=getattr(logging, args.log_level.upper()),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    lang = _lang(args)
    if (args.tls_cert is None) != (args.tls_key is None):   # a usage error: 2, as koikoi relay
        print("koikoi ratings serve: " + tr(lang, "--tls-cert and --tls-key go together"), file=sys.stderr)
        return 2
    try:
        # The relay's TLS files: SIGHUP swaps in a whole new context (spec/ratings.md §8).
        tls = None if args.tls_cert is None else ServerTLS(args.tls_cert, args.tls_key)
    except TLSFilesError as exc:
        print("koikoi ratings serve: " + tr(lang, "cannot load the certificate: {problem}",
                                            problem=safe(str(exc))), file=sys.stderr)
        return 1
    db = args.db or default_db()
    try:
        app = open_service(db)
    except StoreError as exc:
        _problem("koikoi ratings serve", lang, exc, "cannot open the rating store {db} (koikoi ratings serve "
                                                    "--lang en says why)", db=db)
        return 1

    async def run() -> None:
        server = RatingsServer(app, serve_limits_from(args))
        await server.start(args.host, args.port, None if tls is None else tls.context)
        scheme = "http" if tls is None else "https"
        print(tr(lang, "ratings listening on {url} ({store})", url=f"{scheme}://{args.host}:{server.port}/ratings",
                 store=app.store.description), flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        if tls is not None:
            loop.add_signal_handler(signal.SIGHUP, reload_certificate, tls)
        await stop.wait()
        await server.close()

    try:
        return run_listening("koikoi ratings serve", lambda: asyncio.run(run()),
                             lambda problem: tr(lang, "cannot listen: {problem}", problem=problem))
    finally:
        app.close()


def reload_certificate(tls: Any) -> None:
    """SIGHUP: new connections get the certificate now in the files, and only it; files that do
    not load leave the old one in place (logged)."""
    import logging

    from koikoi_relay.tls import TLSFilesError

    log = logging.getLogger("koikoi.ratings")
    try:
        tls.reload()
    except TLSFilesError as exc:
        log.error("certificate not reloaded, the old one stays: %s", exc)
        return
    log.info("certificate reloaded from %s", tls.cert)


def submit_text(answer: Any, what: str = "result", lang: str = "en", *, claim: bool = False,
                after_match: bool = False) -> str:
    """One line for a submission's answer, in ``lang``. ``claim``: an abandonment claim was sent;
    ``after_match``: by the client at the end of its match, where a result counted already is
    the opponent's copy (both clients send it, spec/ratings.md §2.3)."""
    from koikoi_p2p.cli.catalogue import word
    from koikoi_p2p.cli.i18n import tr

    body = answer.body
    if answer.ok and body.get("counted") is True:
        return tr(lang, "{what} counted (number {seq})", what=what, seq=safe(body.get("seq")))
    if answer.ok and body.get("pending"):
        return tr(lang, "accepted; the service is still checking it")
    if answer.ok:
        # (terminal QA: "already counted (number 2)" read as a second count, number 2)
        seq = safe(body.get("seq"))
        if claim:
            return tr(lang, "a claim about this match was already recorded (claim number {seq}): nothing "
                            "changed", seq=seq)
        if after_match:
            return tr(lang, "this result was already counted (your opponent's copy arrived first): nothing "
                            "changed")
        return tr(lang, "this result was already counted (result number {seq}): nothing changed", seq=seq)
    # The reason in words; the service's message is English, shown on an English screen only.
    message = safe(body.get("message"))
    refused = tr(lang, "refused ({status}, {reason})", status=answer.status,
                 reason=word(lang, safe(body.get("reason"))) or tr(lang, "no reason given"))
    return refused + (f": {message}" if lang == "en" and message else "")


def _submit(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.rated import retry_line
    from koikoi_p2p.ratings.client import CertificateRefused, ServiceUnreachable, submit_result

    lang = _lang(args)
    try:
        data = Path(args.file).read_bytes()
    except OSError as exc:
        print("koikoi ratings submit: " + tr(lang, "cannot read {file}: {problem}", file=args.file,
                                             problem=exc.strerror), file=sys.stderr)
        return 2
    from koikoi_p2p.cli.cmd_verify import file_kind

    if file_kind(data) != "result":   # a transcript, evidence or a claim: said here, not sent
        print("koikoi ratings submit: " + tr(lang, "{file} is not a co-signed result: only the .result file "
                                             "of a finished match is rated", file=args.file), file=sys.stderr)
        return 2
    try:
        service = _service(argparse.Namespace(relay=args.to))
        answer = submit_result(service, data, on_retry=lambda retry: print(
            "koikoi ratings submit: " + retry_line(retry, service, tr(lang, "result"), lang),
            file=sys.stderr))
    except ValueError as exc:
        _problem("koikoi ratings submit", lang, exc, "{url} is not a relay or rating service URL",
                 url=args.to)
        return 2
    except CertificateRefused as exc:
        return _untrusted("koikoi ratings submit", lang, exc, service)
    except ServiceUnreachable as exc:
        _problem("koikoi ratings submit", lang, exc, "no answer from {url}", url=service)
        return 3
    print(json.dumps(answer.body, indent=2, ensure_ascii=False) if args.json
          else submit_text(answer, tr(lang, "result"), lang))
    return 0 if answer.ok else 1


def _recompute(args: argparse.Namespace) -> int:
    from koikoi_p2p.ratings.board import ExportError, recompute
    from koikoi_p2p.ratings.client import CertificateRefused, ServiceUnreachable, leaderboard

    lang = _lang(args)
    command = "koikoi ratings recompute"
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        export = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        _problem(command, lang, ValueError(f"cannot read {args.file}: {exc}"),
                 "cannot read {file}: not a JSON export (--lang en says why)", file=args.file)
        return 2
    try:
        rebuilt = recompute(export if isinstance(export, dict) else {})
    except ExportError as exc:
        _problem(command, lang, exc, "the export cannot be replayed (--lang en says why)")
        return 1
    if args.json:
        print(json.dumps(rebuilt.board, indent=2, ensure_ascii=False))
    else:
        print(board_text(rebuilt.board, tr(lang, "recomputed from {file}", file=args.file), lang))
    if args.compare is None:
        return 0
    limit: float = args.timeout
    try:
        answer = within(limit, lambda: leaderboard(_service(argparse.Namespace(relay=args.compare), limit),
                                                   timeout=limit))
    except TimeoutError:
        return _too_slow(command, lang, args.compare, limit)
    except ValueError as exc:
        _problem(command, lang, exc, "{url} is not a relay or rating service URL", url=args.compare)
        return 3
    except CertificateRefused as exc:
        return _untrusted(command, lang, exc, args.compare)
    except ServiceUnreachable as exc:
        _problem(command, lang, exc, "no answer from {url}", url=args.compare)
        return 3
    if answer.body == rebuilt.board:
        print(tr(lang, "equal to the leaderboard of {url}: {results}", url=args.compare,
                 results=count(rebuilt.results, "result", lang)), file=sys.stderr)
        return 0
    print(tr(lang, "DIFFERENT from the leaderboard of {url}", url=args.compare), file=sys.stderr)
    return 1
