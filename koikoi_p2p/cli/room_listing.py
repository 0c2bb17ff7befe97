"""The lobby listing of a hosted room (spec/relay.md §4.2), made by ``koikoi host --public`` and
read by ``koikoi lobby``. The check is the relay's own (koikoi_relay.listing): a client trusts a
lobby no more than the relay that sent it."""

from __future__ import annotations

from typing import Any

from koikoi_p2p.rules.profile import Profile, differences, preset, with_rounds
from koikoi_relay.listing import Listing, checked_listing


def host_listing(profile: Profile, *, name: str, fingerprint: str, rated: bool, password: bool,
                 turn: float) -> Listing:
    """What the host publishes: its name and fingerprint prefix, the rules, length, deadline, and
    whether the match is rated and has a password (never the password)."""
    try:
        custom = bool(differences(profile, with_rounds(preset(profile.name), profile.rounds)))
    except Exception:  # a name that is no preset: say custom
        custom = True
    listing: dict[str, Any] = {
        "name": name, "fp": fingerprint[:9], "rules": profile.name, "custom": custom,
        "rounds": profile.rounds, "target": profile.target_score, "rated": rated, "password": password,
        "turn": max(0, min(86_400, round(turn))),
    }
    checked = checked_listing(listing)
    # Our own values always pass; should one not (a name from an old config), publish the rest.
    return checked if checked is not None else checked_listing({**listing, "name": None}) or {}


def room_entry(room: dict[str, Any]) -> Listing:
    """What a lobby entry says of its room: its listing when the relay sent a valid one, else the
    old ``meta``'s rules, rounds and password, checked the same way (spec/relay.md §4.2)."""
    listing = checked_listing(room.get("listing"))
    if listing is not None:
        return listing
    meta = room.get("meta")
    if not isinstance(meta, dict):
        return {}
    return {key: value for key in ("rules", "rounds", "password")
            if (value := (checked_listing({key: meta.get(key)}) or {}).get(key)) is not None}
