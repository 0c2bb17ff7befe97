"""``koikoi lobby``: the public rooms waiting on a relay, and the line that joins each."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.options import default_relay
from koikoi_p2p.cli.setup import command_lang
from koikoi_p2p.cli.untrusted import safe

# The columns of the room list (translated by tr()).
HEADINGS = ("code", "rules", "rounds", "password", "waiting")


def lobby(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.online import checked_url

    url = checked_url(args)
    if url is None:
        return exit_codes.USAGE
    return asyncio.run(_lobby(url, args.json, args.timeout, command_lang(args)))


async def _lobby(url: str, as_json: bool, timeout: float, lang: str) -> int:
    from koikoi_p2p.cli.i18n import tr
    from koikoi_p2p.cli.online import relay_failure
    from koikoi_p2p.cli.setup import error
    from koikoi_p2p.net.relay_client import RelayError, list_rooms

    try:
        rooms = await asyncio.wait_for(list_rooms(url), timeout)
    except TimeoutError:
        error(lang, "no answer from the relay at {url} within {seconds}s", url=url, seconds=f"{timeout:g}")
        return exit_codes.RELAY_UNREACHABLE
    except RelayError as exc:
        return relay_failure(exc, url, lang)
    if as_json:
        print(json.dumps([_plain(room) for room in rooms], indent=2, sort_keys=True))
        return exit_codes.OK
    if not rooms:
        print(tr(lang, "No public rooms are waiting. Host one with: koikoi host --public"))
        return exit_codes.OK
    relay = "" if url == default_relay() else f" --relay {url}"
    head = tuple(tr(lang, word) for word in HEADINGS)
    print(f"{head[0]:<8} {head[1]:<16} {head[2]:>6} {head[3]:<8} {head[4]:>8}  {tr(lang, 'to join')}")
    relay = safe(relay)
    for room in rooms:
        # Every field is the relay's to choose: escaped, so none can move the cursor, forge a row or
        # reorder the line (issue 25 hole 6).
        meta = room.get("meta")
        if not isinstance(meta, dict):
            meta = {}
        age = room.get("age")
        waited = f"{int(age)}s" if isinstance(age, int | float) and not isinstance(age, bool) else "?"
        code = safe(room.get("code", "?"), 32)
        password = bool(meta.get("password"))
        line = f"koikoi join {code}{relay}" + (" --password" if password else "")
        print(
            f"{code:<8} {safe(meta.get('rules', '?'), 64):<16} {safe(meta.get('rounds', '?'), 16):>6} "
            f"{tr(lang, 'yes') if password else tr(lang, 'no'):<8} {waited:>8}  {line}"
        )
    if any(isinstance(r.get("meta"), dict) and r["meta"].get("password") for r in rooms):
        print(tr(lang, "A room with a password: ask its host for the password, then join with --password."))
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
