"""host, join and lobby: play a friend through a relay that is trusted with nothing but delivery."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import sys
from collections.abc import AsyncGenerator, Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.catalogue import word
from koikoi_p2p.cli.i18n import tr
from koikoi_p2p.cli.options import (
    LEAST_DECISION_TIME,
    BadRelayUrl,
    PasswordUnavailable,
    check_relay_url,
    read_password,
    relay_url,
)
from koikoi_p2p.cli.paths import own_command
from koikoi_p2p.cli.setup import Setup, error, prepare
from koikoi_p2p.cli.untrusted import safe

if TYPE_CHECKING:
    from koikoi_p2p.cli.paths import Folders
    from koikoi_p2p.cli.play import Screen
    from koikoi_p2p.cli.prompt import LineSource
    from koikoi_p2p.net.journal import Journal
    from koikoi_p2p.net.relay_client import RelayClient, RelayError
    from koikoi_p2p.net.rendezvous import RelayRendezvous
    from koikoi_p2p.net.resumable import DriverOptions, Outcome, PeerCore
    from koikoi_p2p.protocol.events import ChoiceNeeded, Event, Failure, Paired, RoundOver, YourTurn
    from koikoi_p2p.protocol.peer import GamePeer
    from koikoi_p2p.rules.actions import Action
    from koikoi_p2p.rules.round import RoundView

# Relay refusals and the exit code a person can act on.
RELAY_CODES = {
    "unreachable": exit_codes.RELAY_UNREACHABLE,
    "relay_unreachable": exit_codes.RELAY_UNREACHABLE,
    "dropped": exit_codes.RELAY_UNREACHABLE,
    "speaks_ws": exit_codes.RELAY_UNREACHABLE,
    "speaks_wss": exit_codes.RELAY_UNREACHABLE,
    "bad_certificate": exit_codes.RELAY_UNREACHABLE,
    "bad_url": exit_codes.USAGE,
    "relay_full": exit_codes.RELAY_UNREACHABLE,
    "relay_unavailable": exit_codes.RELAY_UNREACHABLE,
    # A relay that takes no one new for now, whatever its reason (spec/relay.md §7.1, §8.7): the
    # same code as a full relay or one a proxy's 429 speaks for, so a script retries them alike.
    "relay_busy": exit_codes.RELAY_UNREACHABLE,
    "source_handshakes": exit_codes.RELAY_UNREACHABLE,
    "handshakes_busy": exit_codes.RELAY_UNREACHABLE,
    "source_connections": exit_codes.RELAY_UNREACHABLE,
    "source_rooms": exit_codes.RELAY_UNREACHABLE,
    "shutdown": exit_codes.RELAY_UNREACHABLE,
    "resume_failed": exit_codes.RELAY_UNREACHABLE,
    "room_not_found": exit_codes.ROOM_NOT_FOUND,
    "not_found": exit_codes.ROOM_NOT_FOUND,
    "bad_code": exit_codes.ROOM_NOT_FOUND,
    "room_full": exit_codes.ROOM_FULL,
    "full": exit_codes.ROOM_FULL,
    "peer_left": exit_codes.OPPONENT_LEFT,
    "left_before_terms": exit_codes.OPPONENT_LEFT,
    "peer_timeout": exit_codes.OPPONENT_LEFT,
    "peer_resume_failed": exit_codes.OPPONENT_LEFT,
    "room_closed": exit_codes.OPPONENT_LEFT,
    "room_expired": exit_codes.OPPONENT_LEFT,
}
RELAY_HINTS = {
    exit_codes.RELAY_UNREACHABLE:
        "No relay reachable at {url}: check the URL, or start one with 'koikoi relay'.",
    exit_codes.ROOM_NOT_FOUND: "Room not found: check the code, or ask your friend for a new one.",
    exit_codes.ROOM_FULL: "Room full: someone else joined first. Ask your friend to host a new room.",
    exit_codes.OPPONENT_LEFT: "The opponent left.",
    exit_codes.ERROR: "The relay refused: {reason}.",
}


# Shown in the countdown until the host's terms (and their deadlines) are agreed.
JOINER_WAIT = 60.0


# Reasons that deserve their own words (the exit code stays the reason's).
REASON_HINTS = {
    "bad_url": "{url} is not a relay address: use ws://HOST:PORT (or wss://HOST behind TLS).",
    "relay_full": "The relay at {url} is full: try again later, or another relay.",
    "shutdown": "The relay at {url} is shutting down: try again in a moment.",
    "relay_unavailable": "The relay at {url} cannot serve rooms for now (its storage is unreachable): "
                         "try again in a moment.",
    # spec/relay.md §7.1: a relay closes unanswered the connections of an address whose new
    # connections are spent (without a proxy); behind one it answers 429 (source_handshakes).
    # Also what a ws:// URL to a TLS port (or the reverse) or a proxy with no relay behind it
    # looks like from here: the words name those too.
    "dropped": "The relay at {url} closed the connection without answering. Too many new connections "
               "may have come from your address: try again in a minute. Otherwise check the address "
               "(ws:// or wss://) and that the relay is up.",
    # A scheme that does not match the relay's (net/relay_client.scheme_mismatch): said before the
    # guesses of "dropped", which the same failure would otherwise show.
    "speaks_ws": "The relay at {url} speaks plain ws://, not wss://: give its address with ws://.",
    "speaks_wss": "The relay at {url} speaks wss:// (TLS), not plain ws://: give its address with wss://.",
    "source_handshakes": "The relay at {url} takes no more new connections from your address for now "
                         "(too many came from it): try again in a minute.",
    "source_connections": "The relay at {url} holds as many connections from your address as it allows: "
                          "close another match or lobby on this network, or try again later.",
    "source_rooms": "The relay at {url} holds as many open rooms from your address as it allows: close one "
                    "you host, or wait until they end.",
    "relay_busy": "The relay at {url} is busy and opens no new room for now: try again in a minute, "
                  "or another relay.",
    "handshakes_busy": "The relay at {url} has more new connections than it lets in at once: try again "
                       "in a moment.",
    "bad_certificate": "The relay at {url} is not trusted: {reason}. Nothing was sent. If it uses its own "
                       "CA, give that CA with --cafile FILE.",
}


def relay_failure(exc: RelayError, url: str, lang: str = "en") -> int:
    """Say why the relay could not connect us, and pick the exit code."""
    code = RELAY_CODES.get(exc.reason, exit_codes.ERROR)
    template = REASON_HINTS.get(exc.reason) or RELAY_HINTS.get(code, "The relay refused: {reason}.")
    # The reason and message are the relay's words: escaped (a relay may send anything). A reason
    # of cli/word_ids.py is named in words (its code stays in brackets below, for a bug report);
    # an untrusted certificate is said in the system's words (its message).
    if exc.reason == "bad_certificate":
        # The hint ends the system's sentence with its own full stop.
        said = safe(exc.message).rstrip(". ") or word(lang, exc.reason)
    else:
        named = word(lang, exc.reason)
        said = named if named != exc.reason else safe(exc)
    hint = tr(lang, template, url=safe(url), reason=said)
    print(f"koikoi: {hint} ({safe(exc.reason, 64)})", file=sys.stderr)
    return code


def checked_url(args: argparse.Namespace) -> str | None:
    """The relay URL of --relay, or None (after saying why) when it cannot be a relay's."""
    url = relay_url(args.relay)
    try:
        check_relay_url(url)
    except BadRelayUrl:
        error(args, REASON_HINTS["bad_url"], url=url)
        return None
    return url


def host(args: argparse.Namespace) -> int:
    if args.timeout < LEAST_DECISION_TIME:
        # The joiner reads the terms within this time too (spec/game.md §7.1; terminal QA: 1 s was
        # taken). Said before anything is printed or opened.
        from koikoi_p2p.cli.i18n import count
        from koikoi_p2p.cli.setup import command_lang

        error(args, "--timeout {given} is too short: each decision, the terms' question included, needs "
                    "at least {least}", given=f"{args.timeout:g}",
              least=count(LEAST_DECISION_TIME, "second", command_lang(args)))
        return exit_codes.USAGE
    url = checked_url(args)
    if url is None:
        return exit_codes.USAGE
    setup = prepare(args)
    if setup is None:
        return exit_codes.USAGE
    if setup.rated and not setup.ratings:
        # --rated without --ratings: the service that answers for the relay, asked once here. None
        # answering, no room is opened: a rated match whose result could go nowhere helps nobody
        # (spec/ratings.md §2.1).
        from dataclasses import replace

        from koikoi_p2p.ratings.client import find

        found = find(url)
        if found is None:
            error(args, "no rating service answers for the relay at {url} (it may have none, or be "
                        "restarting): name one with --ratings URL, try again in a moment, or leave out "
                        "--rated", url=url)
            return exit_codes.ERROR
        setup = replace(setup, ratings=found)
    try:
        password = read_password(args, twice=True, lang=setup.screen.lang)
    except PasswordUnavailable as exc:
        error(args, "{problem}", problem=str(exc))
        return exit_codes.USAGE if exc.usage else exit_codes.ERROR
    return asyncio.run(_host(args, url, password, setup))


async def _host(args: argparse.Namespace, url: str, password: str | None, setup: Setup) -> int:
    from koikoi_p2p.cli.countdown import with_countdown
    from koikoi_p2p.cli.room_listing import host_listing
    from koikoi_p2p.net import tls
    from koikoi_p2p.net.relay_client import RelayClient, RelayError
    from koikoi_p2p.rules.profile import with_rounds

    screen = setup.screen
    meta = {"rules": setup.profile.name, "rounds": setup.rounds, "password": password is not None}
    listing = host_listing(with_rounds(setup.profile, setup.rounds), name=setup.name,
                           fingerprint=setup.identity.fingerprint, rated=bool(rated_service(setup, 0, url)),
                           password=password is not None, turn=args.timeout) if args.public else None
    try:
        client = await RelayClient.create(url, public=args.public, meta=meta, listing=listing)
    except RelayError as exc:
        return relay_failure(exc, url, screen.lang)
    try:
        flags = " --password" if password is not None else ""
        cafile = tls.given_cafile()
        # A relay whose certificate a private CA signed: the friend needs that CA too, as a file
        # of their own (the path here means nothing on their machine).
        flags += f" --cafile {Path(cafile).name}" if cafile and url.startswith("wss://") else ""
        screen.say(screen.t("Room code: {code}", code=screen.style.bold(safe(client.code, 32))))
        screen.say(screen.t("Send this to your friend:  {line}",
                            line=f"koikoi join {client.code} --relay {url}{flags}"), whole=True)
        if cafile and url.startswith("wss://"):
            screen.say(screen.t("Send them the CA file {path} too: --cafile names it on their machine.",
                                path=cafile), whole=True)
        if args.public:
            screen.say(screen.t("The room is listed in the lobby (koikoi lobby)."))
        rating = rated_service(setup, 0, url)
        if rating:

            screen.say(screen.t("Rated match: the result goes to {url} (your friend sees it first).",
                                url=safe(rating)))
        try:
            await with_countdown(
                client.wait_for_peer(timeout=args.wait), write=screen.write, limit=args.wait,
                live=screen.live, label=screen.t("Waiting for your friend to join"), grace=0.0,
                unit=screen.t("s"))
        except TimeoutError:
            screen.say()  # end the countdown line
            error(screen.lang, "nobody joined within {seconds}s; host a new room when your friend is ready "
                  "(--wait sets how long to wait).", seconds=f"{args.wait:g}")
            return exit_codes.NOBODY_JOINED
        except RelayError as exc:
            return relay_failure(exc, url, screen.lang)
        screen.say(screen.t("Your friend joined."))
        return await _play(client, 0, client.code, password, setup, args.timeout, url, args.peer)
    finally:
        await client.close()


def join(args: argparse.Namespace) -> int:
    url = checked_url(args)
    if url is None:
        return exit_codes.USAGE
    from koikoi_relay.codes import normalize_code

    # spec/relay.md §3: no code has the look-alikes 0, O, 1, I, L (QA: O0IL1Z went to the relay and
    # came back "room not found"); case, spaces and dashes are forgiven, as in the browser.
    code = normalize_code(args.code)
    if code is None:
        error(args, "{code!r} is not a room code: a code is six letters and digits, like K7QX2M (the host's "
              "screen shows it).", code=args.code)
        return exit_codes.USAGE
    setup = prepare(args, terms=False)
    if setup is None:
        return exit_codes.USAGE
    try:
        password = read_password(args, lang=setup.screen.lang)
    except PasswordUnavailable as exc:
        error(args, "{problem}", problem=str(exc))
        return exit_codes.USAGE if exc.usage else exit_codes.ERROR
    return asyncio.run(_join(args, url, code, password, setup))


async def _join(args: argparse.Namespace, url: str, code: str, password: str | None, setup: Setup) -> int:
    from koikoi_p2p.net.relay_client import RelayClient, RelayError

    try:
        client = await RelayClient.join(url, code)
    except RelayError as exc:
        return relay_failure(exc, url, setup.screen.lang)
    try:
        setup.screen.say(setup.screen.t("Joined room {code}.", code=code))
        return await _play(client, 1, client.code, password, setup, JOINER_WAIT, url, args.peer,
                           accept=bool(getattr(args, "accept", False)))
    finally:
        await client.close()


async def _play(
    client: RelayClient,
    seat: int,
    room: str,
    password: str | None,
    setup: Setup,
    timeout: float,
    url: str,
    peer_name: str | None,
    *,
    accept: bool = False,
) -> int:
    """Play crash-safe: the state is saved after every accepted message, so ``koikoi resume``
    continues the match if this process dies (net.resumable.run_peer drives it)."""
    from koikoi_p2p.net import tls
    from koikoi_p2p.net.resumable import PeerSetup, ResumeError, create_state

    turn = max(1, min(86_400, int(timeout)))
    ratings = rated_service(setup, seat, url)
    peer_setup = PeerSetup.generate(
        seat=seat, room=room, password=password, identity=setup.identity.identity.private_bytes(),
        relay_url=url, rendezvous=room, profile=setup.profile.name,
        profile_data=setup.profile.to_dict() if seat == 0 else None,
        rounds=setup.rounds if seat == 0 else None, step_deadline=max(60, min(turn, 600)),
        turn_deadline=turn, handshake_deadline=30, out_dir=str(setup.folders.transcripts), human=True,
        name=setup.name, rated=bool(ratings), ratings=ratings, cafile=tls.given_cafile() or "")
    try:
        store = create_state(saved_matches(setup.folders) / f"{room}-seat{seat}", peer_setup)
    except ResumeError as exc:   # an unfinished match of this room and seat, or one running
        error(setup.screen.lang, "{problem}", problem=exc.message or exc)
        return exit_codes.ERROR
    setup.screen.say(setup.screen.t("The match is saved after every message in {folder} (if this stops, "
                                    "continue with: {koikoi} resume).", folder=store.folder,
                                    koikoi=own_command()))
    known = setup.folders.known_peers_file if peer_name else None
    if peer_name and known is not None:
        _save_peer_name(store.folder, peer_name, known)
    else:   # a note left by an earlier match of this room and seat is not this match's
        with contextlib.suppress(OSError):
            (store.folder / PEER_FILE).unlink(missing_ok=True)
    return await play_saved(store, setup.screen, first=client, peer_name=peer_name, known_peers=known,
                            accept=accept)


PEER_FILE = "peer.json"   # beside a saved match: the --peer name its opponent's key is checked under


def _save_peer_name(folder: Path, name: str, known: Path) -> None:
    """Keep --peer with the saved match, so that a resumed one checks the opponent's key under it
    too (terminal QA: a resume skipped the changed-key question nobody had answered)."""
    import json

    from koikoi_p2p.net.state_store import write_atomic

    write_atomic(folder / PEER_FILE, json.dumps({"peer": name, "known_peers": str(known)}).encode())


def _saved_peer_name(folder: Path) -> tuple[str | None, Path | None]:
    import json

    try:
        saved = json.loads((folder / PEER_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, None
    if not isinstance(saved, dict) or not isinstance(saved.get("peer"), str) or not isinstance(
            saved.get("known_peers"), str):
        return None, None
    return saved["peer"], Path(saved["known_peers"])


def _forget_saved(store: Journal) -> None:
    """Remove a saved match (its --peer note too, so its folder goes)."""
    from koikoi_p2p.net.resumable import forget

    with contextlib.suppress(OSError):
        (store.folder / PEER_FILE).unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        forget(store)


def resume(state: str | None, args: argparse.Namespace) -> int:
    """``koikoi resume [--state DIR]`` for a person's match: the one interrupted match in the data
    folder (a menu when there are several), continued with the same board and prompts."""
    from koikoi_p2p.net.journal import Journal

    setup = prepare(args, terms=False, show_identity=False)
    if setup is None:
        return exit_codes.USAGE
    if state is not None:
        return asyncio.run(play_saved(Journal(Path(state)), setup.screen))
    home = saved_matches(setup.folders)
    found = sorted((d for d in home.glob("*-seat[01]") if Journal(d).exists()),
                   key=lambda d: Journal(d).path.stat().st_mtime, reverse=True) if home.is_dir() else []
    if not found:
        error(setup.screen.lang, "no interrupted match in {folder}", folder=home)
        return exit_codes.ERROR
    return asyncio.run(_resume_one(found, setup))


async def _resume_one(found: list[Path], setup: Setup) -> int:
    from koikoi_p2p.cli.prompt import Choice, InputClosed, Prompter, StdinLines, card_key
    from koikoi_p2p.net.journal import Journal

    screen = setup.screen
    folder = found[0]
    # One reader of standard input for the menu and the match: a second one would leave the first
    # answer typed after the menu in the menu's reader (QA: a move ignored, then the time ran out).
    lines = StdinLines()
    if len(found) > 1:
        choices = [Choice(card_key(n), _saved_label(d, screen), d) for n, d in enumerate(found)]
        try:
            folder = await Prompter(lines, screen.write, lang=screen.lang).choose(
                screen.t("Several interrupted matches: which one?"), choices,
                screen.t("The newest is listed first."))
        except InputClosed:
            return exit_codes.ERROR
    screen.say(screen.t("Resuming the match saved in {folder}.", folder=folder))
    return await play_saved(Journal(folder), screen, lines=lines)


def _saved_label(folder: Path, screen: Screen) -> str:
    """A saved match in the resume menu: its room, the seat, and how long ago it last moved
    (terminal QA: room codes alone did not tell an old match from today's)."""
    import time

    from koikoi_p2p.cli.i18n import count
    from koikoi_p2p.net.journal import Journal

    room = folder.name.rsplit("-seat", 1)[0]
    label = (screen.t("room {room} (you hosted)", room=room) if folder.name.endswith("0")
             else screen.t("room {room} (you joined)", room=room))
    try:
        ago = max(0, int(time.time() - Journal(folder).path.stat().st_mtime))
    except OSError:
        return label
    if ago < 120:
        when = count(ago, "second", screen.lang)
    elif ago < 7200:
        when = count(ago // 60, "minute", screen.lang)
    elif ago < 2 * 86400:
        when = count(ago // 3600, "hour", screen.lang)
    else:
        when = count(ago // 86400, "day", screen.lang)
    return screen.t("{match}, last saved {when} ago", match=label, when=when)


def rated_service(setup: Setup, seat: int, url: str) -> str:
    """The rating service the host proposes (``koikoi host --rated [--ratings URL]``), "" for an
    unrated match (and always for the joiner, who takes the host's terms or refuses them)."""
    from koikoi_p2p.cli.rated import default_ratings

    if seat != 0 or not setup.rated:
        return ""
    return setup.ratings or default_ratings(url)


def saved_matches(where: Folders) -> Path:
    """The folder of crash-safe match states (one subfolder each, 0700, files 0600)."""
    return where.data / "matches"


async def play_saved(store: Journal, screen: Screen, *, first: RelayClient | None = None,
                     peer_name: str | None = None, known_peers: Path | None = None,
                     accept: bool = False, lines: LineSource | None = None) -> int:
    """Run (or resume) the human match saved in ``store`` on this screen; returns the exit code.

    The board and prompts are cli.play's; run_peer does the saving, resending and re-pairing.
    A match that ends (any way) leaves no state behind: it holds the seed of every key.
    """
    from koikoi_p2p.cli.play import drive
    from koikoi_p2p.cli.prompt import StdinLines
    from koikoi_p2p.net.rendezvous import RelayRendezvous
    from koikoi_p2p.net.resumable import DriverOptions, ResumeError, read_state, run_peer

    try:
        setup, _ = read_state(store)
        if setup is None:
            raise ResumeError("bad_state", "the saved match has no setup (it is over)")
    except ResumeError as exc:
        error(screen.lang, "cannot use the saved match in {folder}: {problem}", folder=store.folder,
              problem=exc)
        return exit_codes.ERROR
    from koikoi_p2p.net import tls

    try:
        tls.resume_with(setup.cafile)   # the CA file the match began with, unless --cafile names one
    except tls.BadCafile as exc:
        error(screen.lang, "{problem}", problem=exc)
        return exit_codes.USAGE
    from koikoi_p2p.net.state_store import StateStoreError

    try:
        store.lock()      # held by this process until run_peer ends (one process per match)
    except StateStoreError as exc:
        error(screen.lang, "{problem}", problem=exc.message or exc)
        return exit_codes.ERROR
    connector = RelayRendezvous(setup.relay_url, setup.seat, setup.rendezvous, pair_timeout_s=30.0,
                                first=first)
    options = DriverOptions(link={"dead_after_s": 10.0, "give_up_s": None}, forget_secrets=True)
    if peer_name is None:   # a resumed match: the --peer it began with, if any
        peer_name, known_peers = _saved_peer_name(store.folder)
    match = SavedMatch(screen, peer_name=peer_name, known_peers=known_peers, accept=accept)
    match.connector = connector
    runner = asyncio.create_task(match.run(store, connector, options, run_peer))
    watcher = asyncio.create_task(match.watch_handshake(first, setup.password is not None)) if first else None
    code = exit_codes.ERROR
    nothing_left = False
    try:
        code = await drive(match, screen, lines or StdinLines(), me=setup.seat,
                           timeout=float(setup.turn_deadline),
                           password=setup.password is not None, accept_terms=accept)
        if not match.ended or match.left_in_handshake:
            await _stop(runner)  # we stop (Ctrl-C, end of input, a refused key...): the state stays
        await asyncio.gather(runner, return_exceptions=True)
    finally:
        for task in (runner, watcher):
            if task is not None and not task.done():
                await _stop(task)
        await connector.close()
        # Nothing to continue when the handshake failed or a changed key was refused; nor when we
        # leave (Ctrl-C, end of input) before the terms are accepted: the other side learns it at
        # once and ends the match (watch_handshake, spec/game.md §2.5), so a resume would find
        # nobody (terminal QA: the joiner was told to resume, the host had already stopped).
        left_early = match.outcome is None and not match.ended and match.leaving_ends_it()
        nothing_left = match.left_in_handshake or left_early or (
            code == exit_codes.WRONG_PASSWORD and not match.ended)
        if left_early and not match.left_in_handshake and not match.timed_out:
            screen.say("\n" + screen.t("You left before the terms were accepted: nothing was signed, and "
                                       "there is no match to continue."))
            _forget_saved(store)   # here: on Ctrl-C nothing after this block runs
        if match.outcome is None and not nothing_left and not match.timed_out:  # also on Ctrl-C
            screen.say("\n" + screen.t("The match is saved in {folder}: continue it with {koikoi} resume.",
                                       folder=store.folder, koikoi=own_command()))
    paused = match.outcome is not None and match.outcome.reason == "relay_unreachable"  # goes on later
    if match.timed_out and match.outcome is None:
        # Our own time ran out at a prompt: no more input is ever taken for this match (the
        # opponent may claim it), so there is nothing to resume (terminal QA: it was offered once).
        _forget_saved(store)
    if (match.outcome is not None and not paused) or nothing_left:  # over: its state (every key's seed) goes
        from koikoi_p2p.cli.rated import after_rated_match

        await after_rated_match(screen.say, match.core, match.outcome, screen.lang)
        _forget_saved(store)
    return code


async def _stop(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` and wait until it has ended. Asked again while it runs: on Python 3.11 a
    cancellation that meets a wait_for() finishing in the same step can be lost (the driver waits
    on its link that way), and the match would then go on with nobody at the screen."""
    for _ in range(100):  # 20 s at most: then the process ends anyway
        if task.done():
            with contextlib.suppress(BaseException):
                task.result()
            return
        task.cancel()
        await asyncio.wait({task}, timeout=0.2)


class SavedMatch:
    """cli.play's MatchLike over run_peer: events go to the screen, decisions come from the prompt.

    Events of the replayed log (after a resume) rebuild the screen's table silently: only the
    match terms, round starts and round results are fed to it, then the board as it stands.
    """

    def __init__(self, screen: Screen, *, peer_name: str | None = None,
                 known_peers: Path | None = None, accept: bool = False) -> None:
        self.screen = screen
        self.peer_name = peer_name
        self.known_peers = known_peers
        self.accept = accept  # --accept: the joiner takes the host's terms without asking
        self._new_key: bytes | None = None  # a changed key, remembered once the person accepts it
        self._replayed_paired: Paired | None = None  # a resumed match's pairing, checked at progress()
        self.left_in_handshake = False  # the other side left before the handshake finished
        self.timed_out = False  # our own time ran out at a prompt
        self._failure: Failure | None = None  # the game's Failure event, reported with its file
        self.core: PeerCore | None = None
        self.outcome: Outcome | None = None
        self._queue: asyncio.Queue[tuple[Event, bool] | None] = asyncio.Queue()
        self._answer: asyncio.Future[Action | str] | None = None  # an action, or the driver's RESIGN
        self._terms_answer: asyncio.Future[bool] | None = None
        self.stopped = asyncio.Event()  # set once the match ends: a question on screen is taken back
        self._ended = False
        self._replayed_view: RoundView | None = None   # the board where the saved log stops
        self._replayed_summary: RoundOver | None = None  # the last round summary of the saved log
        self._asked_since = 0   # our questions in the saved log since that summary (the pending one too)
        self.replaying = False  # the event now on screen is the saved log's, fed to the screen silently
        self.folder: Path | None = None  # the state folder, read for the clock of each question
        self.question_started: float | None = None  # time.monotonic() when the driver's clock started
        self.connector: RelayRendezvous | None = None  # the relay connector, for relay_down()

    def relay_down(self) -> bool:
        """Whether our relay does not answer now (the screen says so instead of the opponent)."""
        return self.connector is not None and self.connector.relay_down()

    @property
    def peer(self) -> GamePeer | None:
        """The game peer (cli.play reads its deadline for the countdown)."""
        return self.core.peer if self.core is not None else None

    @property
    def ended(self) -> bool:
        """The match ended (a result, a failure): nothing more will be asked."""
        return self._ended

    def _before_terms(self) -> bool:
        """The handshake, or the terms not yet accepted: the other side has signed nothing yet."""
        from koikoi_p2p.protocol.flow import Phase

        core = self.core
        return core is None or core.peer is None or core.peer.phase in (Phase.PROPOSING, Phase.KEYING,
                                                                         Phase.ACCEPTING)

    def leaving_ends_it(self) -> bool:
        """Whether our leaving now ends the match for both, so that nothing is left to resume: in
        the handshake, or as the joiner before accepting the terms (the other side is told at once,
        watch_handshake, spec/game.md §2.5). Not the host once it has proposed its terms (a joiner
        that accepted already no longer watches and would claim the host's absence), not while
        our relay is out of reach (nobody learns of the leave, §12.4), not before the saved match
        was read (a resumed match in play)."""
        core = self.core
        if core is None or self.relay_down() or not self._before_terms():
            return False
        return core.peer is None or core.setup.seat == 1

    async def watch_handshake(self, client: RelayClient, password: bool) -> None:
        """Until the terms are accepted: when the relay says the other side left, say so at once.

        With a password, the side whose key confirmation fails leaves the room as soon as it
        knows (spec/protocol.md §3: it sends nothing more); the relay's ``peer_left`` is how this
        side learns it within a second instead of at the handshake deadline. A joiner that refuses
        the terms leaves the same way: the host learns it at once, instead of waiting out the
        terms' deadline for a claim that would prove nothing (the joiner signed nothing). A leave
        just after our own resume is not taken for one (``left_while_steady``): the other seat may
        be pairing again after our absence. (The relay could send that notice falsely, but it can
        always stop the match anyway.)
        """
        from koikoi_p2p.protocol.events import Failure

        while not self._ended and self._before_terms():
            if client.left_while_steady:
                self.left_in_handshake = True
                other = 1 - client.seat
                shaken = self.core is not None and self.core.peer is not None
                # After the handshake a joiner could only refuse the terms or quit at their
                # question: say so to the host (QA: it heard only "the opponent left"; the host
                # proposed the terms, so a joiner keeps "peer_left"). spec/game.md §2.5.
                reason = "left_before_terms" if shaken and client.seat == 0 else "peer_left"
                when = "before the terms were accepted" if shaken else "during the handshake"
                self._put(Failure(reason=reason, message=f"the other side left {when}", who=other),
                          False)
                self._queue.put_nowait(None)
                return
            await asyncio.sleep(0.05)

    def time_up(self) -> None:
        """Our own deadline passed at a prompt: nothing more will be sent for this match."""
        self.timed_out = True

    def trust_new_key(self) -> None:
        """The person accepted the opponent's changed key: remember it under --peer's name."""
        from koikoi_p2p.protocol.identity import KnownPeers

        if self._new_key is not None and self.known_peers is not None and self.peer_name:
            KnownPeers(self.known_peers).remember(self.peer_name, self._new_key)

    def progress(self, phase: str, core: PeerCore) -> None:
        """run_peer's progress hook: the first call comes once the saved log is replayed."""
        from koikoi_p2p.protocol.events import Board

        self.core = core
        paired, self._replayed_paired = self._replayed_paired, None
        if paired is not None:
            paired = self._known(paired)
            if paired.known == "changed":
                self._put(paired, False)
        view, self._replayed_view = self._replayed_view, None
        summary, self._replayed_summary = self._replayed_summary, None
        # The last round's summary again, unless we answered a question since (terminal QA: a match
        # stopped while it was held showed only "the next question is waiting"): the person may
        # not have read it. Its own round's board first, when that is where the log stops.
        answered = self._asked_since - (1 if core.pending is not None else 0)
        again = summary if summary is not None and answered <= 0 and not self._ended else None
        if again is not None and not (view is not None and view.round_index == again.round_index):
            self._put(again, False)
            again = None
        if view is not None and not self._ended:
            self._put(Board(view=view), False)   # resumed: show the board at once
        if again is not None:
            self._put(again, False)

    async def run(self, store: Journal, connector: RelayRendezvous, options: DriverOptions,
                  run_peer: Callable[..., Awaitable[Outcome]]) -> None:
        from koikoi_p2p.protocol.events import Failure

        self.folder = store.folder
        try:
            outcome = await run_peer(store, connector, options=options, progress=self.progress,
                                     on_event=self.on_event, ask=self.ask, ask_terms=self.ask_terms)
        except Exception as exc:  # a state that does not replay, a folder gone: say it
            self._put(Failure(reason="local_error", message=str(exc), who=None), False)
        else:
            self.outcome = outcome
            if not self._ended and outcome.status != "completed":
                seen = self._failure  # the game's own words for it, when it said any
                reason = {"abandoned": "timeout", "gave_up": "connection_closed",
                          "timed_out": "own_timeout"}.get(outcome.status, outcome.reason)
                if outcome.reason == "relay_unreachable":
                    reason = outcome.reason     # nothing claimed: the match can go on later
                self._put(Failure(reason=seen.reason if seen else reason,
                                  message=seen.message if seen else outcome.reason or outcome.status,
                                  who=seen.who if seen else outcome.absent, evidence_path=outcome.file),
                          False)
        self._queue.put_nowait(None)

    async def events(self) -> AsyncGenerator[Event, None]:
        real = self.screen.out
        try:
            while True:
                item = await self._queue.get()
                if item is None:
                    return
                event, quiet = item
                self.screen.out = io.StringIO() if quiet else real
                self.replaying = quiet
                yield event
                self.screen.out = real
                self.replaying = False
        finally:
            self.screen.out = real
            self.replaying = False

    async def decide(self, action: Action) -> None:
        if self._answer is not None and not self._answer.done():
            self._answer.set_result(action)

    def can_resign(self) -> bool:
        """The person may give the match up now: the driver takes a resignation (version 2) and
        the game peer is asked to act."""
        peer = self.peer
        return peer is not None and peer.can_resign()

    async def resign(self) -> None:
        """Answer the pending question with a resignation (spec/game.md §6.3): the driver sends it,
        and the opponent countersigns a result that names it the winner."""
        from koikoi_p2p.net import core as crash_safe

        if self._answer is not None and not self._answer.done():
            self._answer.set_result(crash_safe.RESIGN)

    async def ask(self, event: YourTurn | ChoiceNeeded) -> Action | str:
        self.question_started = self._started()
        self._answer = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((event, False))
        return await self._answer

    def _started(self) -> float:
        """When the driver's clock for this question started, as a ``time.monotonic`` time: it counts
        from when the input that caused the question was saved (net/driver.py), so after a resume
        the time spent stopped is already gone, and the countdown on screen must say so."""
        import time

        from koikoi_p2p.net.journal import Journal
        from koikoi_p2p.net.state_store import StateStoreError

        now = time.monotonic()
        if self.folder is None:
            return now
        try:
            base, records = Journal(self.folder).read()  # no lock needed to read
        except (StateStoreError, OSError, ValueError):  # no better clock than now
            return now
        at = records[-1][3] if records and len(records[-1]) == 4 else base.get("at", 0.0)
        if not isinstance(at, int | float) or not at:
            return now
        return now - min(max(0.0, time.time() - float(at)), 24 * 3600.0)

    def waiting_since(self) -> float:
        """When the driver's clock for our own wait now under way started (``time.monotonic``),
        before the question is asked too (cli.play's countdown: after a resume, while the relay
        pairs us again, it counted our full time)."""
        return self._started()

    async def ask_terms(self, event: Event) -> bool:
        """The joiner is asked to accept the proposed terms (cli.play shows them, then answers
        through decide_terms), within the same own deadline as a move."""
        self.question_started = self._started()
        self._terms_answer = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((event, False))
        return await self._terms_answer

    async def decide_terms(self, accept: bool) -> None:
        if self._terms_answer is not None and not self._terms_answer.done():
            self._terms_answer.set_result(accept)

    def on_event(self, event: Event, replayed: bool) -> None:
        import dataclasses

        from koikoi_p2p.protocol import events as ev

        if isinstance(event, ev.YourTurn | ev.ChoiceNeeded | ev.TermsProposed):
            if replayed and not isinstance(event, ev.TermsProposed):
                self._asked_since += 1   # answered then, or the one pending now (progress)
            return  # asked through ask() / ask_terms(), live only
        if replayed:
            if isinstance(event, ev.Board | ev.OpponentMoved):
                self._replayed_view = event.view
                return
            if isinstance(event, ev.RoundStarted | ev.RoundOver):
                self._replayed_view = None
            if isinstance(event, ev.RoundOver):
                self._replayed_summary, self._asked_since = event, 0
        if isinstance(event, ev.Failure) and not replayed:
            # Held back: run_peer writes the evidence (or abandonment) file next, and the screen
            # names it (run() reports the failure with the file once run_peer has returned).
            self._failure = event
            return
        if isinstance(event, ev.Paired) and not replayed:
            event = self._known(event)
        elif isinstance(event, ev.Paired) and self.peer_name:
            # A resumed match: its key is checked under --peer once the core is read (progress),
            # and a change nobody accepted is asked about again (terminal QA: it was skipped).
            self._replayed_paired = event
        elif isinstance(event, ev.RoundOver) and not replayed:
            event = dataclasses.replace(event, transcript_path=self._transcript(closed=False))
        elif isinstance(event, ev.MatchOver):
            path = self._transcript(closed=None)
            if path is not None:
                with contextlib.suppress(OSError):
                    Path(path).with_suffix(".result").write_bytes(event.result)
            event = dataclasses.replace(event, transcript_path=path)
        self._put(event, replayed and not isinstance(event, ev.MatchOver | ev.Failure))

    def _put(self, event: Event, quiet: bool) -> None:
        from koikoi_p2p.protocol.events import Failure, MatchOver, TimeUp

        if isinstance(event, MatchOver | Failure):
            self._ended = True
        if not quiet and (isinstance(event, MatchOver | Failure) or isinstance(event, TimeUp)):
            self.stopped.set()
        self._queue.put_nowait((event, quiet))

    def _transcript(self, *, closed: bool | None) -> str | None:
        """The transcript's path; ``closed=False`` writes the match so far (named in round summaries),
        None only names the file run_peer writes at the end."""
        from koikoi_p2p.net.resumable import result_file
        from koikoi_p2p.net.state_store import write_atomic
        from koikoi_p2p.protocol.transcript import encode_transcript

        core = self.core
        if core is None or core.peer is None:
            return None
        path = result_file(core, "transcript")
        if closed is False:
            write_atomic(path, encode_transcript(core.handshake_record, core.peer.transcript,
                                                 closed=False))
        return str(path)

    def _known(self, event: Paired) -> Paired:
        """Trust on first use: the opponent's key under the name given with --peer."""
        import dataclasses

        from koikoi_p2p.protocol.identity import KnownPeers

        core = self.core
        if self.known_peers is None or not self.peer_name or core is None:
            return event
        key = core.peer_key
        peers = KnownPeers(self.known_peers)
        status = peers.check(self.peer_name, key)
        if status == "new":
            peers.remember(self.peer_name, key)
        elif status == "changed":
            self._new_key = key  # remembered only if the person accepts it (cli.play asks)
        return dataclasses.replace(event, known="changed" if status == "changed" else status == "known")
