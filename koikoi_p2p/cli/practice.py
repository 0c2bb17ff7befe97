"""koikoi practice: the person against the computer, both real peers of the protocol in memory."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import sys
from typing import TYPE_CHECKING

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.setup import Setup, prepare

if TYPE_CHECKING:
    from koikoi_p2p.ai.strategy import Strategy
    from koikoi_p2p.cli.prompt import LineSource
    from koikoi_p2p.net.memory import Tamper
    from koikoi_p2p.rules.profile import Profile

THINKING_LEVELS = ("master", "expert")  # the levels that search for a time (ai.levels: max_seconds)
COMPUTER_TIMEOUT = 3600.0  # the computer never walks away; the person may take their time


def practice(args: argparse.Namespace) -> int:
    if getattr(args, "think", None) is not None:
        # Only the searching levels have a time to think; silently ignoring it would mislead. Said
        # before anything else is done or printed (terminal QA: the fingerprint came first).
        from koikoi_p2p.cli.paths import folders
        from koikoi_p2p.cli.settings import load_settings
        from koikoi_p2p.cli.setup import error

        level = args.level or load_settings(folders().settings_file).level
        if level not in THINKING_LEVELS:
            error(args, "--think is for the master and expert levels; this match's level is {level} "
                        "(choose another with --level)", level=level)
            return exit_codes.USAGE
    setup = prepare(args, opponent="computer")
    if setup is None:
        return exit_codes.USAGE
    try:
        return asyncio.run(_practice(args, setup))
    except KeyboardInterrupt:
        print("\n" + setup.screen.t("interrupted"), file=sys.stderr)
        return exit_codes.INTERRUPTED


def computer_player(level: str, profile: Profile, seed: int | None, think: float | None = None) -> Strategy:
    from koikoi_p2p.ai.levels import computer_player as make
    from koikoi_p2p.ai.master import DEFAULT_MAX_SECONDS

    return make(level, profile, seed, max_seconds=DEFAULT_MAX_SECONDS if think is None else think)


async def _practice(args: argparse.Namespace, setup: Setup) -> int:
    from koikoi_p2p.cli.prompt import StdinLines

    return await practice_match(setup, StdinLines(), level=args.level or setup.settings.level, seed=args.seed,
                                think=getattr(args, "think", None))


async def practice_match(
    setup: Setup,
    lines: LineSource,
    *,
    level: str = "strong",
    seed: int | None = None,
    think: float | None = None,
    tamper: Tamper | None = None,
    computer_gone_after: int | None = None,
) -> int:
    """The person (seat 0, host) against the computer (seat 1) over an in-memory connection.

    ``tamper`` (a man in the middle) and ``computer_gone_after`` (the computer walks away after
    that many events) exist so tests can show what the person sees when things go wrong.
    """
    from koikoi_p2p.cli.play import drive
    from koikoi_p2p.net.match import play_match
    from koikoi_p2p.net.memory import memory_pair
    from koikoi_p2p.protocol.identity import Identity

    mine, theirs = memory_pair(tamper=tamper)
    # A fresh room name and password per practice: the password skips the SAS comparison,
    # which means nothing against a computer running in this very process.
    room = "practice-" + secrets.token_hex(3)
    password = secrets.token_urlsafe(12)
    strategy = computer_player(level, setup.profile, seed, think)
    seen = 0

    def on_event(_: object) -> None:
        nonlocal seen
        seen += 1
        if computer_gone_after is not None and seen >= computer_gone_after:
            raise ComputerLeft

    async def computer_side() -> None:
        try:
            await play_match(
                theirs, strategy, seat=1, identity=Identity.generate(), room=room, password=password,
                on_event=on_event,
            )
        except ComputerLeft:
            await theirs.close()

    computer = asyncio.create_task(computer_side(), name="computer")
    t = setup.screen.t
    level_text = {"easy": t("easy"), "medium": t("medium"), "strong": t("strong"),
                  "master": t("master"), "expert": t("expert")}.get(level, level)
    setup.screen.say(setup.screen.t("Practice against the computer ({level}).", level=level_text))
    match = setup.make_match(mine, seat=0, room=room, password=password, timeout=COMPUTER_TIMEOUT)
    code: int | None = None
    try:
        code = await drive(match, setup.screen, lines, me=0, timeout=COMPUTER_TIMEOUT, practice=True)
        return code
    finally:
        if not computer.done():
            computer.cancel()
        with contextlib.suppress(BaseException):
            await computer
        if code != exit_codes.OK:
            _mark_incomplete(match.transcript_path, setup)


def _mark_incomplete(path: str | None, setup: Setup) -> None:
    """A match that did not finish keeps its transcript under a name that says so."""
    from pathlib import Path

    if path is None or not Path(path).exists():
        return
    marked = Path(path).with_name(Path(path).stem + "-incomplete.transcript")
    with contextlib.suppress(OSError):
        Path(path).rename(marked)
        # On a line of its own: after Ctrl-C the cursor is still on the prompt's line.
        setup.screen.say("\n" + setup.screen.t("The match so far is saved, marked incomplete: {path}",
                                               path=marked))


class ComputerLeft(Exception):
    """Raised inside the computer's event hook to make it walk away (tests)."""
