"""``koikoi resume [--state DIR]``: continue a match saved by a crash-safe peer, from wherever it stopped.

Without ``--state`` it continues the person's interrupted ``koikoi host``/``join`` match saved in
the data folder (a menu when there are several), with the same board and prompts.

The state folder holds everything (identity, seeds, relay, rendezvous id, the log of accepted
messages), so the command needs nothing else. ``--new`` first writes a fresh state for a
computer-played seat (``--level``, random by default), which is how tests and the soak benchmark
start a peer they can kill -9 and resume.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from koikoi_p2p.ai.levels import LEVELS
from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.options import add_cafile

EXIT_BY_STATUS = {
    "completed": exit_codes.OK,
    "abandoned": exit_codes.OPPONENT_LEFT,
    "gave_up": exit_codes.OPPONENT_LEFT,
    "failed": exit_codes.OPPONENT_DEVIATED,
    "timed_out": exit_codes.ERROR,
}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "resume",
        help="continue an interrupted match from its saved state",
        description="Continue a match interrupted by a crash, a kill or a lost connection, with the "
                    "same board and prompts. Without --state: the interrupted koikoi host/join match "
                    "saved in the data folder (a menu when there are several). The finished transcript "
                    "is the one the match would have had without the interruption.",
        epilog=exit_codes.epilog(exit_codes.RESUME),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--state", metavar="DIR",
                        help="the match's state folder (default: the interrupted host/join match in the "
                             "data folder)")
    parser.add_argument("--lang", choices=("en", "ja"), help="the language of the screens (remembered)")
    add_cafile(parser)
    hidden = argparse.SUPPRESS
    # For tests and the soak benchmark (a computer-played seat they can kill -9 and resume):
    # not something a player needs, so not in --help.
    parser.add_argument("--json", action="store_true", help=hidden)
    parser.add_argument("--progress", action="store_true", help=hidden)
    parser.add_argument("--new", action="store_true", help=hidden)
    parser.add_argument("--seat", type=int, choices=(0, 1), help=hidden)
    parser.add_argument("--relay", metavar="URL", help=hidden)
    parser.add_argument("--rendezvous", metavar="ID", help=hidden)
    parser.add_argument("--room", default="koikoi", help=hidden)
    parser.add_argument("--password", default=None, help=hidden)
    parser.add_argument("--password-file", default=None, help=hidden)
    parser.add_argument("--rounds", type=int, default=1, help=hidden)
    parser.add_argument("--profile", default="nintendo", help=hidden)
    parser.add_argument("--step-deadline", type=int, default=60, metavar="S", help=hidden)
    parser.add_argument("--turn-deadline", type=int, default=300, metavar="S", help=hidden)
    parser.add_argument("--strategy-seed", type=int, default=0, help=hidden)
    parser.add_argument("--level", choices=LEVELS, default="easy", help=hidden)
    parser.add_argument("--dead-after", type=float, default=10.0, help=hidden)
    parser.add_argument("--resend-after", type=float, default=2.0, help=hidden)
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    import asyncio
    from pathlib import Path

    from koikoi_p2p.net import tls
    from koikoi_p2p.net.rendezvous import RelayRendezvous
    from koikoi_p2p.net.resumable import (
        DriverOptions,
        Journal,
        PeerCore,
        PeerSetup,
        ResumeError,
        create_state,
        read_state,
        run_peer,
    )

    if args.state is None:
        if args.new:
            print("koikoi resume --new needs --state", file=sys.stderr)
            return exit_codes.USAGE
        from koikoi_p2p.cli.online import resume

        return resume(None, args)
    store = Journal(Path(args.state))
    try:
        if args.new and not store.exists():
            if args.seat is None or not args.relay or not args.rendezvous:
                print("koikoi resume --new needs --seat, --relay and --rendezvous", file=sys.stderr)
                return exit_codes.USAGE
            password = args.password
            if args.password_file:
                password = Path(args.password_file).read_text(encoding="utf-8").splitlines()[0]
            create_state(store, PeerSetup.generate(
                seat=args.seat, room=args.room, password=password, relay_url=args.relay,
                rendezvous=args.rendezvous, rounds=args.rounds, profile=args.profile,
                step_deadline=args.step_deadline, turn_deadline=args.turn_deadline,
                handshake_deadline=args.step_deadline, strategy_seed=args.strategy_seed,
                level=args.level, cafile=tls.given_cafile() or ""))
        setup, finished = read_state(store)
    except (ResumeError, OSError, IndexError) as exc:
        print(f"koikoi resume: cannot use {args.state}: {exc}", file=sys.stderr)
        return exit_codes.ERROR
    if finished is not None:
        # A finished match keeps only its outcome (the setup held the seed of every key).
        return _report(args, finished)
    if setup is None:
        print("koikoi resume: the state has no setup", file=sys.stderr)
        return exit_codes.ERROR
    if setup.human:
        from koikoi_p2p.cli.online import resume

        return resume(args.state, args)
    try:
        tls.resume_with(setup.cafile)   # the CA file the match began with, unless --cafile names one
    except tls.BadCafile as exc:
        print(f"koikoi resume: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    connector = RelayRendezvous(setup.relay_url, setup.seat, setup.rendezvous,
                                pair_timeout_s=max(5.0, args.dead_after * 2))
    options = DriverOptions(resend_after_s=args.resend_after,
                            link={"dead_after_s": args.dead_after, "give_up_s": None}, forget_secrets=True)

    def progress(phase: str, core: PeerCore) -> None:
        if args.progress and phase != "decided":
            print(f"phase {phase} {core.sent_count}", flush=True)

    async def main() -> Any:
        try:
            return await run_peer(store, connector, options=options, progress=progress)
        finally:
            await connector.close()

    try:
        outcome = asyncio.run(main())
    except ResumeError as exc:
        print(f"koikoi resume: {exc}", file=sys.stderr)
        return exit_codes.ERROR
    return _report(args, outcome)


def _report(args: argparse.Namespace, outcome: Any) -> int:
    if args.json:
        print(json.dumps(outcome.to_dict()), flush=True)
    else:
        from koikoi_p2p.cli.catalogue import word
        from koikoi_p2p.cli.i18n import tr
        from koikoi_p2p.cli.setup import command_lang
        from koikoi_p2p.cli.untrusted import safe

        lang = command_lang(args)
        # The reason may be the relay's or the opponent's words: named when known, else escaped.
        named = word(lang, str(outcome.reason or ""))
        reason = (named if named != outcome.reason else safe(outcome.reason)) or tr(lang, "no reason given")
        gone = named if outcome.reason == "relay_unreachable" else tr(lang, "the opponent never came back")
        text = {"completed": tr(lang, "the match finished"), "abandoned": reason, "gave_up": gone,
                "timed_out": reason,
                "failed": tr(lang, "the match stopped: {reason}", reason=reason)}
        said = text.get(outcome.status, safe(outcome.status))
        print(said + (f" ({outcome.file})" if outcome.file else ""))
    if outcome.status == "gave_up" and outcome.reason == "relay_unreachable":
        return exit_codes.RELAY_UNREACHABLE   # nothing claimed: the match goes on later (§12.4)
    return EXIT_BY_STATUS.get(outcome.status, exit_codes.ERROR)
