"""host, join and lobby: play a friend through a relay that is trusted with nothing but delivery."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import TYPE_CHECKING, Any

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.options import PasswordUnavailable, default_relay, read_password, relay_url
from koikoi_p2p.cli.setup import Setup, prepare

if TYPE_CHECKING:
    from koikoi_p2p.net.relay_client import RelayClient, RelayError

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
    from koikoi_p2p.cli.play import drive
    from koikoi_p2p.cli.prompt import StdinLines
    from koikoi_p2p.net.relay_client import RelayError

    match = setup.make_match(
        client, seat=seat, room=room, password=password, timeout=timeout, peer_name=peer_name
    )
    try:
        return await drive(
            match, setup.screen, StdinLines(), me=seat, timeout=timeout, password=password is not None
        )
    except RelayError as exc:
        return relay_failure(exc, url)


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
