"""What every play command does first: folders, remembered language, identity, rules, screen."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from koikoi_p2p.cli.identity_store import IdentityFileError, LoadedIdentity, load_or_create_identity
from koikoi_p2p.cli.paths import Folders, folders
from koikoi_p2p.cli.play import Screen, make_screen
from koikoi_p2p.cli.settings import remember_lang

if TYPE_CHECKING:
    from koikoi_p2p.net.match import Match
    from koikoi_p2p.protocol.transport import Transport
    from koikoi_p2p.rules.profile import Profile


@dataclass(frozen=True, slots=True)
class Setup:
    folders: Folders
    identity: LoadedIdentity
    profile: Profile
    rounds: int
    screen: Screen
    name: str = ""                # this identity's display name (cli/display_name.py)
    rated: bool = False           # host: koikoi host --rated ...
    ratings: str = ""             # ... --ratings URL ("" then: the relay's service)

    def make_match(
        self,
        transport: Transport,
        *,
        seat: int,
        room: str,
        password: str | None,
        timeout: float,
        peer_name: str | None = None,
    ) -> Match:
        """The protocol's Match for this seat; the host proposes the terms, the joiner accepts.

        ``timeout`` is the time a person gets for a decision (the terms' turn deadline, which
        the host proposes); automatic steps keep the protocol's own deadline.
        """
        from koikoi_p2p.net.match import Match
        from koikoi_p2p.protocol.identity import KnownPeers
        from koikoi_p2p.protocol.terms import Deadlines

        known = KnownPeers(self.folders.known_peers_file) if peer_name else None
        turn = max(1, min(86_400, int(timeout)))
        return Match(
            transport,
            seat=seat,
            identity=self.identity.identity,
            room=room,
            password=password,
            profile=self.profile if seat == 0 else None,
            rounds=self.rounds if seat == 0 else None,
            deadlines=Deadlines(step=max(60, min(turn, 600)), turn=turn) if seat == 0 else None,
            store=self.folders.transcripts,
            known_peers=known,
            peer_name=peer_name,
        )


def choose_first_name(path: Path, screen: Screen) -> None:
    """Before the first match against a person, at a terminal: ask for a display name, once (Enter
    for none, saved too; ``koikoi name`` changes it). Practice against the computer does not ask."""
    from koikoi_p2p.cli.display_name import BadName, save_name

    if not sys.stdin.isatty():
        return
    screen.say("Choose a display name: opponents and leaderboards show it beside your fingerprint "
               "(up to 32 characters; Enter for none; `koikoi name NAME` changes it later).")
    for _ in range(3):
        try:
            typed = input("Name: ").strip()
        except EOFError:
            return
        try:
            save_name(path, typed)
            return
        except BadName as exc:
            screen.say(f"{exc}; try again.")


def prepare(args: argparse.Namespace, *, terms: bool = True, names: tuple[str, str] = ("you", "opponent"),
            show_identity: bool = True) -> Setup | None:
    """Everything before the first frame; None (after saying why) on a usage problem."""
    from koikoi_p2p.rules.errors import RulesError
    from koikoi_p2p.rules.profile import preset

    where = folders().ensure()
    settings = remember_lang(where.settings_file, getattr(args, "lang", None))
    screen = make_screen(settings.lang, names)
    try:
        identity = load_or_create_identity(where.identity_file)
    except IdentityFileError as exc:
        print(f"koikoi: {exc}", file=sys.stderr)
        return None
    if getattr(args, "command", None) in ("host", "join") and not where.name_file.exists():
        choose_first_name(where.name_file, screen)   # the first match against a person
    if show_identity:
        from koikoi_p2p.cli.display_name import load_name

        if identity.created:
            screen.say(f"Made your identity key ({where.identity_file}).")
        name = load_name(where.name_file)
        screen.say(f"Your fingerprint: {identity.fingerprint}" + (f" (your name: {name})" if name else ""))
    try:
        profile = preset(getattr(args, "rules", "nintendo") if terms else "nintendo")
    except RulesError as exc:
        print(f"koikoi: unknown rules preset: {exc}", file=sys.stderr)
        return None
    rounds = getattr(args, "rounds", None) or profile.rounds
    if rounds != profile.rounds:
        from koikoi_p2p.rules.profile import with_rounds

        profile = with_rounds(profile, rounds)  # board-game: 6 rounds from pools of 50, 3 from 25
    from koikoi_p2p.cli.display_name import load_name

    rated, ratings = bool(getattr(args, "rated", False)), getattr(args, "ratings", None) or ""
    if ratings and not rated:
        print("koikoi: --ratings names the service of a rated match: add --rated", file=sys.stderr)
        return None
    if ratings:
        from koikoi_p2p.protocol.terms import valid_ratings

        if not valid_ratings(True, ratings):
            print(f"koikoi: --ratings {ratings!r} is not a rating service URL: http(s)://HOST[:PORT], "
                  "at most 200 characters", file=sys.stderr)
            return None
    return Setup(where, identity, profile, rounds, screen, name=load_name(where.name_file), rated=rated,
                 ratings=ratings)
