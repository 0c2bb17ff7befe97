"""koikoi identity show / export / import as a person runs them (issue 29 §2, spec/identity.md)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.e2e.test_cli_support import SCRIPT, env_for

PASS = "correct horse battery staple"


def koikoi(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, env=env_for(home, **env),
                          timeout=120, stdin=subprocess.DEVNULL)


def fingerprint(home: Path) -> str:
    shown = koikoi(home, "identity", "show")
    assert shown.returncode == 0, shown.stderr
    return shown.stdout.split("Fingerprint: ", 1)[1].split()[0]


def test_an_identity_travels_with_its_name_and_replaces_only_with_a_backup(tmp_path: Path) -> None:
    laptop, phone = tmp_path / "laptop", tmp_path / "phone"
    assert koikoi(laptop, "name", "Hanako").returncode == 0
    mine = fingerprint(laptop)
    secret = tmp_path / "pass.txt"
    secret.write_text(PASS + "\n", encoding="utf-8")
    carried = tmp_path / "me.koikoi-id"
    done = koikoi(laptop, "identity", "export", str(carried), "--passphrase-file", str(secret))
    assert done.returncode == 0, done.stderr
    assert f"Wrote your identity ({mine}) to {carried.resolve()}" in done.stdout
    assert oct(carried.stat().st_mode & 0o777) == "0o600"
    again = koikoi(laptop, "identity", "export", str(carried), "--passphrase-file", str(secret))
    assert again.returncode == 2 and "--force" in again.stderr  # an existing file is never overwritten

    theirs = fingerprint(phone)  # the phone made its own identity first
    assert theirs != mine
    refused = koikoi(phone, "identity", "import", str(carried), KOIKOI_PASSPHRASE=PASS)
    assert refused.returncode == 1 and "--replace" in refused.stderr  # no terminal to ask: nothing changed
    assert fingerprint(phone) == theirs
    moved = koikoi(phone, "identity", "import", str(carried), "--replace", KOIKOI_PASSPHRASE=PASS)
    assert moved.returncode == 0, moved.stderr
    assert fingerprint(phone) == mine
    assert "Name: Hanako" in koikoi(phone, "identity", "show").stdout
    backups = sorted((phone / "config").glob("identity.key.backup-*"))
    assert [b.name for b in backups if not b.name.endswith(".name")], "the replaced identity was not kept"
    kept = next(b for b in backups if not b.name.endswith(".name"))
    assert oct(kept.stat().st_mode & 0o777) == "0o600"
    from koikoi_p2p.protocol.identity import Identity

    assert Identity.load_or_create(kept).fingerprint() == theirs


def test_bad_files_and_passphrases_get_a_clear_error_and_change_nothing(tmp_path: Path) -> None:
    home, other = tmp_path / "home", tmp_path / "other"
    carried = tmp_path / "me.koikoi-id"
    assert koikoi(home, "identity", "export", str(carried), KOIKOI_PASSPHRASE=PASS).returncode == 0
    before = fingerprint(other)
    short = tmp_path / "short.koikoi-id"
    short.write_bytes(carried.read_bytes()[:-3])
    transcript = tmp_path / "m.transcript"
    made = koikoi(tmp_path, "selfplay", "--rounds", "1", "--seed", "4", "--transcript", str(transcript))
    assert made.returncode == 0, made.stderr
    cases = [
        (carried, "wrong horse battery staple", "the passphrase does not open", "wrong_passphrase"),
        (short, PASS, "is damaged", "damaged_identity_file"),
        (transcript, PASS, "is not a koikoi identity file", "not_identity_file"),
    ]
    for path, phrase, words, reason in cases:
        failed = koikoi(other, "identity", "import", str(path), "--replace", KOIKOI_PASSPHRASE=phrase)
        assert failed.returncode == 1, failed.stdout + failed.stderr
        assert words in failed.stderr and reason in failed.stderr and "Traceback" not in failed.stderr
        assert fingerprint(other) == before
    ja = koikoi(other, "identity", "import", str(carried), "--replace", "--lang", "ja",
                KOIKOI_PASSPHRASE="wrong horse battery staple")
    assert "このパスフレーズでは" in ja.stderr
    weak = koikoi(home, "identity", "export", str(tmp_path / "weak"), KOIKOI_PASSPHRASE="short")
    assert weak.returncode == 2 and "at least 8 characters" in weak.stderr
    assert not (tmp_path / "weak").exists()
    nothing = koikoi(home, "identity", "export", str(tmp_path / "none"))
    assert nothing.returncode == 2 and "no terminal to ask for the passphrase" in nothing.stderr


def test_the_first_command_that_makes_the_key_says_so(tmp_path: Path) -> None:
    """On a fresh install `koikoi identity show` and `koikoi name` make the identity key, as a
    match would, and say so once, like a match does (an import afterwards then needs --replace,
    and the person knows why)."""
    for command in (("identity", "show"), ("name",)):
        home = tmp_path / command[0]
        first, second = koikoi(home, *command), koikoi(home, *command)
        assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
        made = f"Made your identity key ({home / 'config' / 'identity.key'})."
        assert made in first.stdout, first.stdout
        assert "Made your identity key" not in second.stdout, second.stdout
