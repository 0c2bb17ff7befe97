"""``koikoi lobby``: the public rooms waiting on a relay, and the line that joins each."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.catalogue import ngettext_in
from koikoi_p2p.cli.options import default_relay
from koikoi_p2p.cli.room_listing import room_entry
from koikoi_p2p.cli.setup import command_lang
from koikoi_p2p.cli.untrusted import safe

# The words of the room list (translated by tr()).
HEADINGS = ("code", "host", "rules", "custom", "rounds", "rated", "not rated", "password", "waiting")


def lobby(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.online import checked_url

    url = checked_url(args)
    if url is None:
        return exit_codes.USAGE
    return asyncio.run(_lobby(url, args.json, args.timeout, command_lang(args)))


async def _lobby(url: str, as_json: bool, timeout: float, lang: str) -> int:
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
        print(json.dumps([{**_plain(room), "listing": room_entry(room)} for room in rooms], indent=2,
                         sort_keys=True))
        return exit_codes.OK
    import shutil

    width = max(40, shutil.get_terminal_size((100, 24)).columns) if sys.stdout.isatty() else None
    for line in room_lines(rooms, url, lang, width):
        print(line)
    return exit_codes.OK


def room_lines(rooms: list[dict[str, Any]], url: str, lang: str, width: int | None = None) -> list[str]:
    """The lobby as a person reads it: each room's join line (with this relay's --relay when it is
    not the default, so the line can be pasted as it is) and its facts below it, folded to
    ``width`` columns (the join line never: it is pasted whole)."""
    from koikoi_p2p.cli.board import fold
    from koikoi_p2p.cli.i18n import tr
    from koikoi_p2p.cli.style import display_width

    relay = "" if url == default_relay() else safe(f" --relay {url}")
    if not rooms:
        return fold(tr(lang, "No public rooms are waiting. Host one with: {command}",
                       command="koikoi host --public" + relay), width)
    # Columns by display width: a Japanese heading is two columns a character.
    column = max(8, display_width(tr(lang, "code")) + 2)

    def pad(text: str) -> str:
        return text + " " * (column - display_width(text))

    lines = [pad(tr(lang, "code")) + tr(lang, "to join")]
    entries = [(room, room_entry(room)) for room in rooms]
    for room, entry in entries:
        # Every field is the relay's to choose. The listing is checked (room_entry) and what is shown
        # is escaped besides, so nothing can move the cursor, forge a row or reorder the line (issue
        # 25 hole 6); a code is letters and digits only, so it cannot add words to the join line.
        code = room.get("code")
        code = safe(code) if isinstance(code, str) and code.isalnum() and len(code) <= 16 else "?"
        password = bool(entry.get("password"))
        lines.append(pad(code) + "koikoi join " + code + relay + (" --password" if password else ""))
        lines.extend(fold(" " * column + "; ".join(_facts(entry, room.get("age"), lang)), width))
    if any(entry.get("password") for _, entry in entries):
        lines.extend(fold(tr(lang, "A room with a password: ask its host for the password, then join with "
                                   "--password."), width))
    return lines


def _facts(entry: dict[str, Any], age: object, lang: str) -> list[str]:
    """A room's listing in words (spec/relay.md §4.2): host, rules, rounds, rated, password, wait."""
    from koikoi_p2p.cli.i18n import count, tr

    facts = []
    if "name" in entry or "fp" in entry:
        who = " ".join(safe(entry[k], 64) for k in ("name", "fp") if entry.get(k))
        facts.append(f"{tr(lang, 'host')}: {who or '?'}")
    if "rules" in entry:
        rules = safe(entry["rules"], 64) + (f" ({tr(lang, 'custom')})" if entry.get("custom") else "")
        facts.append(f"{tr(lang, 'rules')}: {rules}")
    if "rounds" in entry:
        rounds = entry["rounds"]
        target = entry.get("target", "?")
        # The host's number (any value a listing holds): its plural form when it is a count.
        many = target if isinstance(target, int) and not isinstance(target, bool) else 2
        facts.append(f"{tr(lang, 'rounds')}: {safe(rounds, 16)}" if rounds else ngettext_in(
            lang, "until {n} point", "until {n} points", many).format(n=safe(target, 16)))
    if "rated" in entry:
        facts.append(tr(lang, "rated") if entry["rated"] else tr(lang, "not rated"))
    turn = entry.get("turn")
    if isinstance(turn, int) and not isinstance(turn, bool) and turn > 0:
        # The host's time for each decision (spec/relay.md §4.2 `turn`): part of what one joins.
        # Whole minutes only when the time is some (a term the joiner agrees to: never rounded).
        time_text = count(turn // 60, "minute", lang) if turn >= 120 and turn % 60 == 0 else count(
            turn, "second", lang)
        facts.append(tr(lang, "time per decision: {time}", time=time_text))
    facts.append(f"{tr(lang, 'password')}: {tr(lang, 'yes') if entry.get('password') else tr(lang, 'no')}")
    waited = "?"
    if isinstance(age, int | float) and not isinstance(age, bool) and age >= 0:
        waited = _waited(int(age), lang)
    facts.append(f"{tr(lang, 'waiting')}: {waited}")
    return facts


def _waited(seconds: int, lang: str) -> str:
    """How long a room has waited, in the person's words: seconds, then whole minutes."""
    from koikoi_p2p.cli.i18n import count

    if seconds < 120:
        return count(seconds, "second", lang)
    return count(seconds // 60, "minute", lang)


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
