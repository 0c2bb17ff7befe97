"""What every play command does first: folders, remembered language, identity, rules, screen."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from koikoi_p2p.cli.identity_store import IdentityFileError, LoadedIdentity, load_or_create_identity
from koikoi_p2p.cli.paths import Folders, folders
from koikoi_p2p.cli.play import Screen, make_screen
from koikoi_p2p.cli.settings import remember_lang

if TYPE_CHECKING:
    from koikoi_p2p.protocol.transport import Transport
    from koikoi_p2p.rules.profile import Profile


@dataclass(frozen=True, slots=True)
class Setup:
    folders: Folders
    identity: LoadedIdentity
    profile: Profile
    rounds: int
    screen: Screen

    def make_match(
        self, transport: Transport, *, seat: int, room: str, password: str | None, timeout: float
    ) -> Any:
        """The protocol's Match for this seat; the host proposes the terms, the joiner accepts."""
        from koikoi_p2p.net.match import Match

        return Match(
            transport,
            seat=seat,
            identity=self.identity.identity,
            room=room,
            password=password,
            profile=self.profile if seat == 0 else None,
            rounds=self.rounds if seat == 0 else None,
            store=self.folders.transcripts,
        )


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
    if show_identity:
        if identity.created:
            screen.say(f"Made your identity key ({where.identity_file}).")
        screen.say(f"Your fingerprint: {identity.fingerprint}")
    try:
        profile = preset(getattr(args, "rules", "nintendo") if terms else "nintendo")
    except RulesError as exc:
        print(f"koikoi: unknown rules preset: {exc}", file=sys.stderr)
        return None
    rounds = getattr(args, "rounds", None) or profile.rounds
    return Setup(where, identity, profile, rounds, screen)
