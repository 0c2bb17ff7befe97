"""Where the command keeps its files: XDG folders, or one folder named by KOIKOI_HOME.

KOIKOI_HOME exists so tests (and people who want everything in one place) can point the whole
client at a throwaway directory without touching the real config of the user.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Folders:
    """The config folder (identity key, settings, known peers) and the data folder (transcripts)."""

    config: Path
    data: Path

    @property
    def identity_file(self) -> Path:
        return self.config / "identity.key"

    @property
    def name_file(self) -> Path:
        """This identity's display name (cli/display_name.py)."""
        return self.config / "name.txt"

    @property
    def settings_file(self) -> Path:
        return self.config / "settings.json"

    @property
    def known_peers_file(self) -> Path:
        return self.config / "known_peers.json"

    @property
    def transcripts(self) -> Path:
        return self.data / "transcripts"

    def ensure(self) -> Folders:
        """Create both folders, private to the user (they hold a secret key)."""
        for path in (self.config, self.data, self.transcripts):
            path.mkdir(parents=True, exist_ok=True, mode=0o700)
        return self


def folders(environ: Mapping[str, str] | None = None) -> Folders:
    """The folders for this user, from KOIKOI_HOME, else XDG_CONFIG_HOME/XDG_DATA_HOME, else ~."""
    env = os.environ if environ is None else environ
    home_override = env.get("KOIKOI_HOME")
    if home_override:
        base = Path(home_override)
        return Folders(config=base / "config", data=base / "data")
    home = Path(env.get("HOME") or Path.home())
    config_root = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"
    data_root = Path(env["XDG_DATA_HOME"]) if env.get("XDG_DATA_HOME") else home / ".local" / "share"
    return Folders(config=config_root / "koikoi", data=data_root / "koikoi")


def own_command(argv0: str | None = None, search: str | None = None) -> str:
    """How this person can run koikoi again, for the hints the screens print ("check it with:
    koikoi verify FILE"): ``koikoi`` when that name on the PATH is this very program, else the path
    that started it (``.venv/bin/koikoi`` after the README's quick start, with no environment
    activated). Anything else (``python -m ...``) keeps the plain name."""
    import shlex
    import shutil
    import sys

    started = Path(argv0 if argv0 is not None else sys.argv[0])
    if started.name != "koikoi":
        return "koikoi"
    found = shutil.which("koikoi", path=search)
    try:
        if found is not None and os.path.samefile(found, started):
            return "koikoi"
    except OSError:
        pass
    try:
        shown = str(started.resolve().relative_to(Path.cwd()))
        shown = shown if "/" in shown else f"./{shown}"
    except (OSError, ValueError):
        shown = str(started.resolve())
    return shlex.quote(shown)
