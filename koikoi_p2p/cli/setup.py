"""What every play command does first: folders, remembered settings, rules, identity, screen."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from koikoi_p2p.cli.i18n import tr
from koikoi_p2p.cli.identity_store import IdentityFileError, LoadedIdentity, load_or_create_identity
from koikoi_p2p.cli.paths import Folders, folders
from koikoi_p2p.cli.play import Screen, make_screen
from koikoi_p2p.cli.settings import Settings, load_settings, remember
from koikoi_p2p.cli.untrusted import safe

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
    settings: Settings = field(default_factory=Settings)
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
    screen.say(screen.t("Choose a display name: opponents and leaderboards show it beside your "
                        "fingerprint (up to 32 characters; Enter for none; `koikoi name NAME` changes it "
                        "later)."))
    for _ in range(3):
        try:
            typed = input(screen.t("Name: ")).strip()
        except EOFError:
            return
        try:
            save_name(path, typed)
            return
        except BadName as exc:
            screen.say(screen.t("{problem}; try again.", problem=exc.describe(screen.lang)))


def command_lang(args: argparse.Namespace) -> str:
    """The language of this command's messages: --lang, else the remembered one (English first)."""
    lang = getattr(args, "lang", None)
    if lang:
        return str(lang)
    return load_settings(folders().settings_file).lang


def error(args: argparse.Namespace | str, text: str, /, **values: object) -> None:
    """A one-line message on standard error, in the command's language."""
    lang = args if isinstance(args, str) else command_lang(args)
    # A value may be a relay's, a service's or a file's words: every one is escaped (untrusted.py).
    shown = {name: safe(value) for name, value in values.items()}
    print("koikoi: " + tr(lang, text, **shown), file=sys.stderr)


def choose_profile(args: argparse.Namespace, lang: str) -> Profile | None:
    """The rules of --rules, --switch and --rounds; None (after saying why) when they are wrong."""
    from koikoi_p2p.cli.switches import SwitchError, apply_switches
    from koikoi_p2p.rules.errors import RulesError
    from koikoi_p2p.rules.profile import PRESETS, preset, with_rounds

    name = getattr(args, "rules", "nintendo")
    try:
        profile = preset(name)
    except RulesError:
        error(lang, "unknown rules preset {name!r}: the presets are {presets}.", name=name,
              presets=", ".join(PRESETS))
        return None
    rounds = getattr(args, "rounds", None) or profile.rounds
    if rounds != profile.rounds:
        profile = with_rounds(profile, rounds)  # board-game: 6 rounds from pools of 50, 3 from 25
    try:
        return apply_switches(profile, getattr(args, "switch", None) or [])
    except SwitchError as exc:
        error(lang, "{problem}", problem=exc.describe(lang))
        return None


def prepare(args: argparse.Namespace, *, terms: bool = True, opponent: str = "opponent",
            show_identity: bool = True) -> Setup | None:
    """Everything before the first frame; None (after saying why) on a usage problem."""
    from koikoi_p2p.cli.display_name import load_name
    from koikoi_p2p.rules.profile import preset

    # Everything the client writes (transcripts, states, evidence) is for this user's eyes.
    os.umask(0o077)
    where = folders().ensure()
    asked_lang = getattr(args, "lang", None)
    before = load_settings(where.settings_file).lang
    settings = remember(where.settings_file, lang=asked_lang, level=getattr(args, "level", None))
    lang = settings.lang
    profile = choose_profile(args, lang) if terms else preset("nintendo")
    if profile is None:
        return None
    screen = make_screen(lang, opponent)
    if asked_lang is not None and asked_lang != before:
        # --lang changes every later command too (--help included): say so the first time.
        screen.say(screen.t("The language is remembered for every koikoi command from now on; "
                            "--lang {other} switches back.", other=before))
    try:
        identity = load_or_create_identity(where.identity_file)
    except IdentityFileError as exc:
        print(f"koikoi: {exc}", file=sys.stderr)
        return None
    if getattr(args, "command", None) in ("host", "join") and not where.name_file.exists():
        choose_first_name(where.name_file, screen)   # the first match against a person
    if show_identity:
        if identity.created:
            screen.say(screen.t("Made your identity key ({path}).", path=where.identity_file))
        name = load_name(where.name_file)
        screen.say(screen.t("Your fingerprint: {fp}", fp=identity.fingerprint)
                   + (screen.t(" (your name: {name})", name=name) if name else ""))

    rated, ratings = bool(getattr(args, "rated", False)), getattr(args, "ratings", None) or ""
    if ratings and not rated:
        error(lang, "--ratings names the service of a rated match: add --rated")
        return None
    if ratings:
        from koikoi_p2p.protocol.terms import valid_ratings

        if not valid_ratings(True, ratings):
            error(lang, "--ratings {url} is not a rating service URL: http(s)://HOST[:PORT], at most 200 "
                  "characters", url=ratings)
            return None
    return Setup(where, identity, profile, profile.rounds, screen, settings, name=load_name(where.name_file),
                 rated=rated, ratings=ratings)
