"""host, join and lobby: play a friend through a relay that is trusted with nothing but delivery."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.options import PasswordUnavailable, default_relay, read_password, relay_url
from koikoi_p2p.cli.setup import Setup, prepare

if TYPE_CHECKING:
    from koikoi_p2p.cli.paths import Folders
    from koikoi_p2p.cli.play import Screen
    from koikoi_p2p.net.journal import Journal
    from koikoi_p2p.net.relay_client import RelayClient, RelayError
    from koikoi_p2p.net.rendezvous import RelayRendezvous
    from koikoi_p2p.net.resumable import DriverOptions, Outcome, PeerCore
    from koikoi_p2p.protocol.events import ChoiceNeeded, Event, Paired, YourTurn
    from koikoi_p2p.protocol.peer import GamePeer
    from koikoi_p2p.rules.actions import Action
    from koikoi_p2p.rules.round import RoundView

# Relay refusals and the exit code a person can act on.
RELAY_CODES = {
    "unreachable": exit_codes.RELAY_UNREACHABLE,
    "bad_url": exit_codes.RELAY_UNREACHABLE,
    "relay_full": exit_codes.RELAY_UNREACHABLE,
    "shutdown": exit_codes.RELAY_UNREACHABLE,
    "resume_failed": exit_codes.RELAY_UNREACHABLE,
    "room_not_found": exit_codes.ROOM_NOT_FOUND,
    "not_found": exit_codes.ROOM_NOT_FOUND,
    "bad_code": exit_codes.ROOM_NOT_FOUND,
    "room_full": exit_codes.ROOM_FULL,
    "full": exit_codes.ROOM_FULL,
    "peer_left": exit_codes.OPPONENT_LEFT,
    "peer_timeout": exit_codes.OPPONENT_LEFT,
    "peer_resume_failed": exit_codes.OPPONENT_LEFT,
    "room_closed": exit_codes.OPPONENT_LEFT,
    "room_expired": exit_codes.OPPONENT_LEFT,
}
RELAY_HINTS = {
    exit_codes.RELAY_UNREACHABLE: "No relay reachable at {url}: check the URL, "
    "or start one with 'koikoi relay'.",
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
}


def relay_failure(exc: RelayError, url: str) -> int:
    """Say why the relay could not connect us, and pick the exit code."""
    code = RELAY_CODES.get(exc.reason, exit_codes.ERROR)
    template = REASON_HINTS.get(exc.reason) or RELAY_HINTS.get(code, "The relay refused: {reason}.")
    hint = template.format(url=url, reason=exc)
    print(f"koikoi: {hint} ({exc.reason})", file=sys.stderr)
    return code


def host(args: argparse.Namespace) -> int:
    url = relay_url(args.relay)
    try:
        password = read_password(args)
    except PasswordUnavailable as exc:
        print(f"koikoi: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    setup = prepare(args)
    if setup is None:
        return exit_codes.USAGE
    return asyncio.run(_host(args, url, password, setup))


async def _host(args: argparse.Namespace, url: str, password: str | None, setup: Setup) -> int:
    from koikoi_p2p.cli.countdown import with_countdown
    from koikoi_p2p.net.relay_client import RelayClient, RelayError

    meta = {"rules": setup.profile.name, "rounds": setup.rounds, "password": password is not None}
    try:
        client = await RelayClient.create(url, public=args.public, meta=meta)
    except RelayError as exc:
        return relay_failure(exc, url)
    try:
        flags = " --password" if password is not None else ""
        setup.screen.say(f"Room code: {setup.screen.style.bold(client.code)}")
        setup.screen.say(f"Send this to your friend:  koikoi join {client.code} --relay {url}{flags}")
        if args.public:
            setup.screen.say("The room is listed in the lobby (koikoi lobby).")
        try:
            await with_countdown(
                client.wait_for_peer(timeout=args.wait), write=setup.screen.write, limit=args.wait,
                live=setup.screen.live, label="Waiting for your friend to join", grace=0.0)
        except TimeoutError:
            setup.screen.say()  # end the countdown line
            print(f"koikoi: nobody joined within {args.wait:g}s; host a new room when your friend is ready "
                  "(--wait sets how long to wait).", file=sys.stderr)
            return exit_codes.OPPONENT_LEFT
        except RelayError as exc:
            return relay_failure(exc, url)
        setup.screen.say("Your friend joined.")
        return await _play(client, 0, client.code, password, setup, args.timeout, url, args.peer)
    finally:
        await client.close()


def join(args: argparse.Namespace) -> int:
    url = relay_url(args.relay)
    try:
        password = read_password(args)
    except PasswordUnavailable as exc:
        print(f"koikoi: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    setup = prepare(args, terms=False)
    if setup is None:
        return exit_codes.USAGE
    return asyncio.run(_join(args, url, password, setup))


async def _join(args: argparse.Namespace, url: str, password: str | None, setup: Setup) -> int:
    from koikoi_p2p.net.relay_client import RelayClient, RelayError

    code = args.code.strip().upper()
    if len(code) != 6 or not code.isascii() or not code.isalnum():
        print(f"koikoi: {args.code!r} is not a room code: a code is six letters and digits, like K7QX2M "
              "(the host's screen shows it).", file=sys.stderr)
        return exit_codes.USAGE
    try:
        client = await RelayClient.join(url, code)
    except RelayError as exc:
        return relay_failure(exc, url)
    try:
        setup.screen.say(f"Joined room {code}.")
        return await _play(client, 1, client.code, password, setup, JOINER_WAIT, url, args.peer)
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
) -> int:
    """Play crash-safe: the state is saved after every accepted message, so ``koikoi resume``
    continues the match if this process dies (net.resumable.run_peer drives it)."""
    from koikoi_p2p.net.resumable import PeerSetup, ResumeError, create_state

    turn = max(1, min(86_400, int(timeout)))
    peer_setup = PeerSetup.generate(
        seat=seat, room=room, password=password, identity=setup.identity.identity.private_bytes(),
        relay_url=url, rendezvous=room, profile=setup.profile.name,
        profile_data=setup.profile.to_dict() if seat == 0 else None,
        rounds=setup.rounds if seat == 0 else None, step_deadline=max(60, min(turn, 600)),
        turn_deadline=turn, handshake_deadline=30, out_dir=str(setup.folders.transcripts), human=True)
    try:
        store = create_state(saved_matches(setup.folders) / f"{room}-seat{seat}", peer_setup)
    except ResumeError as exc:   # an unfinished match of this room and seat, or one running
        print(f"koikoi: {exc.message or exc}", file=sys.stderr)
        return exit_codes.ERROR
    setup.screen.say(f"The match is saved after every message in {store.folder} "
                     "(if this stops, continue with: koikoi resume).")
    known = setup.folders.known_peers_file if peer_name else None
    return await play_saved(store, setup.screen, first=client, peer_name=peer_name, known_peers=known)


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
        print(f"koikoi resume: no interrupted match in {home}", file=sys.stderr)
        return exit_codes.ERROR
    return asyncio.run(_resume_one(found, setup))


async def _resume_one(found: list[Path], setup: Setup) -> int:
    from koikoi_p2p.cli.prompt import Choice, InputClosed, Prompter, StdinLines
    from koikoi_p2p.net.journal import Journal

    folder = found[0]
    if len(found) > 1:
        lines = StdinLines()
        choices = [Choice(str(n), f"room {d.name.rsplit('-seat', 1)[0]} "
                          f"({'host' if d.name.endswith('0') else 'joined'})", d)
                   for n, d in enumerate(found, start=1)]
        try:
            folder = await Prompter(lines, setup.screen.write).choose(
                "Several interrupted matches: which one?", choices, "The newest is listed first.")
        except InputClosed:
            return exit_codes.INTERRUPTED
    setup.screen.say(f"Resuming the match saved in {folder}.")
    return await play_saved(Journal(folder), setup.screen)


def saved_matches(where: Folders) -> Path:
    """The folder of crash-safe match states (one subfolder each, 0700, files 0600)."""
    return where.data / "matches"


async def play_saved(store: Journal, screen: Screen, *, first: RelayClient | None = None,
                     peer_name: str | None = None, known_peers: Path | None = None) -> int:
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
        print(f"koikoi: cannot use the saved match in {store.folder}: {exc}", file=sys.stderr)
        return exit_codes.ERROR
    from koikoi_p2p.net.state_store import StateStoreError

    try:
        store.lock()      # held by this process until run_peer ends (one process per match)
    except StateStoreError as exc:
        print(f"koikoi: {exc.message or exc}", file=sys.stderr)
        return exit_codes.ERROR
    connector = RelayRendezvous(setup.relay_url, setup.seat, setup.rendezvous, pair_timeout_s=30.0,
                                first=first)
    options = DriverOptions(link={"dead_after_s": 10.0, "give_up_s": None}, forget_secrets=True)
    match = SavedMatch(screen, peer_name=peer_name, known_peers=known_peers)
    runner = asyncio.create_task(match.run(store, connector, options, run_peer))
    code = exit_codes.ERROR
    try:
        code = await drive(match, screen, StdinLines(), me=setup.seat, timeout=float(setup.turn_deadline),
                           password=setup.password is not None)
        if code == exit_codes.INTERRUPTED:
            runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
    finally:
        if not runner.done():
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)
        await connector.close()
        if match.outcome is None:  # also on Ctrl-C
            screen.say(f"\nThe match is saved in {store.folder}: continue it with koikoi resume.")
    if match.outcome is not None:  # the match ended: its state (every key's seed) goes
        from koikoi_p2p.net.resumable import forget

        with contextlib.suppress(OSError):
            forget(store)
    return code


class SavedMatch:
    """cli.play's MatchLike over run_peer: events go to the screen, decisions come from the prompt.

    Events of the replayed log (after a resume) rebuild the screen's table silently: only the
    match terms, round starts and round results are fed to it, then the board as it stands.
    """

    def __init__(self, screen: Screen, *, peer_name: str | None = None,
                 known_peers: Path | None = None) -> None:
        self.screen = screen
        self.peer_name = peer_name
        self.known_peers = known_peers
        self.core: PeerCore | None = None
        self.outcome: Outcome | None = None
        self._queue: asyncio.Queue[tuple[Event, bool] | None] = asyncio.Queue()
        self._answer: asyncio.Future[Action] | None = None
        self._ended = False
        self._replayed_view: RoundView | None = None   # the board where the saved log stops

    @property
    def peer(self) -> GamePeer | None:
        """The game peer (cli.play reads its deadline for the countdown)."""
        return self.core.peer if self.core is not None else None

    async def run(self, store: Journal, connector: RelayRendezvous, options: DriverOptions,
                  run_peer: Callable[..., Awaitable[Outcome]]) -> None:
        from koikoi_p2p.protocol.events import Failure

        def progress(phase: str, core: PeerCore) -> None:
            from koikoi_p2p.protocol.events import Board

            self.core = core
            view, self._replayed_view = self._replayed_view, None
            if view is not None and not self._ended:
                self._put(Board(view=view), False)   # resumed: show the board at once

        try:
            outcome = await run_peer(store, connector, options=options, progress=progress,
                                     on_event=self.on_event, ask=self.ask)
        except Exception as exc:  # a state that does not replay, a folder gone: say it
            self._put(Failure(reason="local_error", message=str(exc), who=None), False)
        else:
            self.outcome = outcome
            if not self._ended and outcome.status != "completed":
                reason = {"abandoned": "timeout", "gave_up": "connection_closed",
                          "timed_out": "own_timeout"}.get(outcome.status, outcome.reason)
                self._put(Failure(reason=reason, message=outcome.reason or outcome.status,
                                  who=outcome.absent, evidence_path=outcome.file), False)
        self._queue.put_nowait(None)

    async def events(self) -> AsyncIterator[Event]:
        real = self.screen.out
        try:
            while True:
                item = await self._queue.get()
                if item is None:
                    return
                event, quiet = item
                self.screen.out = io.StringIO() if quiet else real
                yield event
                self.screen.out = real
        finally:
            self.screen.out = real

    async def decide(self, action: Action) -> None:
        if self._answer is not None and not self._answer.done():
            self._answer.set_result(action)

    async def ask(self, event: YourTurn | ChoiceNeeded) -> Action:
        self._answer = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((event, False))
        return await self._answer

    def on_event(self, event: Event, replayed: bool) -> None:
        import dataclasses

        from koikoi_p2p.protocol import events as ev

        if isinstance(event, ev.YourTurn | ev.ChoiceNeeded):
            return  # asked through ask(), live only
        if replayed:
            if isinstance(event, ev.Board | ev.OpponentMoved):
                self._replayed_view = event.view
                return
            if isinstance(event, ev.RoundStarted | ev.RoundOver):
                self._replayed_view = None
        if isinstance(event, ev.Paired) and not replayed:
            event = self._known(event)
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
        from koikoi_p2p.protocol.events import Failure, MatchOver

        if isinstance(event, MatchOver | Failure):
            self._ended = True
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
        return dataclasses.replace(event, known="changed" if status == "changed" else status == "known")


def lobby(args: argparse.Namespace) -> int:
    url = relay_url(args.relay)
    return asyncio.run(_lobby(url, args.json, args.timeout))


async def _lobby(url: str, as_json: bool, timeout: float) -> int:
    from koikoi_p2p.net.relay_client import RelayError, list_rooms

    try:
        rooms = await asyncio.wait_for(list_rooms(url), timeout)
    except TimeoutError:
        print(f"koikoi: no answer from the relay at {url} within {timeout:g}s", file=sys.stderr)
        return exit_codes.RELAY_UNREACHABLE
    except RelayError as exc:
        return relay_failure(exc, url)
    if as_json:
        print(json.dumps([_plain(room) for room in rooms], indent=2, sort_keys=True))
        return exit_codes.OK
    if not rooms:
        print("No public rooms are waiting. Host one with: koikoi host --public")
        return exit_codes.OK
    print(f"{'code':<8} {'rules':<16} {'rounds':>6} {'password':<8} {'waiting':>8}")
    for room in rooms:
        meta = room.get("meta")
        if not isinstance(meta, dict):
            meta = {}
        age = room.get("age")
        waited = f"{int(age)}s" if isinstance(age, int | float) else "?"
        print(
            f"{room.get('code', '?')!s:<8} {meta.get('rules', '?')!s:<16} {meta.get('rounds', '?')!s:>6} "
            f"{'yes' if meta.get('password') else 'no':<8} {waited:>8}"
        )
    print("Join one with: koikoi join CODE" + ("" if url == default_relay() else f" --relay {url}"))
    return exit_codes.OK


def _plain(value: Any) -> Any:
    """JSON-safe copy of what the relay sent (bytes as hex)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)
