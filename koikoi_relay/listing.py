"""A room's lobby listing (spec/relay.md §4.2): what a host chooses to publish about its room.

A listing is a msgpack map of known keys with bounded values. The relay checks it on ``create``
(``bad_listing``), keeps only the known keys, and shows it in the lobby; clients check what a
lobby sends them with the same rules (``koikoi_p2p.net.relay_client``, web/src/net/listing.js),
because the relay is not trusted. Nothing here imports anything beyond the standard library: the
relay stays free of crypto and game code.
"""

from __future__ import annotations

import re
import unicodedata

from koikoi_relay.errors import MessageError

ListingValue = str | int | bool
Listing = dict[str, ListingValue]

NAME_MAX = 32                      # code points, as a display name (spec/protocol.md §5.1)
RULES_RE = re.compile(r"[a-z0-9_-]{1,40}")
FINGERPRINT_PREFIX_RE = re.compile(r"[a-z2-7]{4}-[a-z2-7]{4}")
INT_MAX = {"rounds": 10_000, "target": 10_000, "turn": 86_400}
BOOLS = ("custom", "rated", "password")
KEYS = ("name", "fp", "rules", "custom", "rounds", "target", "rated", "password", "turn")
MAX_ENTRIES = 32                   # keys of a listing map, known or not


def name_problem(name: str) -> str | None:
    """Why ``name`` is no display name (spec/protocol.md §5.1), or None when it is one."""
    if len(name) > NAME_MAX:
        return f"at most {NAME_MAX} characters"
    if not unicodedata.is_normalized("NFC", name):
        return "not in Unicode form NFC"
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] == "C" or category in ("Zl", "Zp"):
            return "a control, format or separator character"
    if name and (unicodedata.category(name[0]) == "Zs" or unicodedata.category(name[-1]) == "Zs"):
        return "a space at either end"
    return None


def _bad(why: str) -> MessageError:
    return MessageError("bad_listing", f"listing: {why}")


def parse_listing(value: object) -> Listing | None:
    """The listing of a ``create`` in its normal form (known keys only), None when absent.

    Raises ``MessageError("bad_listing")`` for a value that is not a map or a known key whose value
    breaks §4.2. Unknown keys are dropped: the relay stores and shows only what §4.2 defines.
    """
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) > MAX_ENTRIES:
        raise _bad(f"a map of at most {MAX_ENTRIES} entries")
    out: Listing = {}
    for key in KEYS:
        if key not in value or value[key] is None:
            continue
        item = value[key]
        if key == "name":
            if not isinstance(item, str):
                raise _bad("name is a string")
            problem = name_problem(item)
            if problem is not None:
                raise _bad(f"name: {problem}")
        elif key == "fp":
            if not isinstance(item, str) or not FINGERPRINT_PREFIX_RE.fullmatch(item):
                raise _bad("fp is the first two groups of a fingerprint, like abcd-ef23")
        elif key == "rules":
            if not isinstance(item, str) or not RULES_RE.fullmatch(item):
                raise _bad("rules is 1 to 40 characters of a-z, 0-9, '-' and '_'")
        elif key in BOOLS:
            if not isinstance(item, bool):
                raise _bad(f"{key} is true or false")
        elif type(item) is not int or not 0 <= item <= INT_MAX[key]:
            raise _bad(f"{key} is an integer 0..{INT_MAX[key]}")
        out[key] = item
    return out


def checked_listing(value: object) -> Listing | None:
    """A client's reading of a lobby entry's listing: its normal form, or None when it is absent
    or breaks §4.2 (a relay may send anything; such a listing is not shown)."""
    try:
        return parse_listing(value)
    except MessageError:
        return None
