"""`koikoi ratings serve` refuses what it cannot use, clearly, before it starts (spec/ratings.md §8):
a certificate file that is missing is named, --tls-cert without --tls-key is a usage error (2) as
for `koikoi relay`, a --trusted-proxy that is no IP address and a limit of 0 or less are refused,
an SQLite file whose folder does not exist is refused (the folder is not made), and the startup
line shows the SQLite URL as it was typed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.test_cli_support import env_for
from tests.ratings.test_ratings_restart import ROOT, stop


def koikoi(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "koikoi_p2p", *args], cwd=ROOT, capture_output=True,
                          text=True, env=env_for(home), timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("command", [["relay"], ["ratings", "serve"]], ids=["relay", "ratings-serve"])
def test_a_certificate_without_its_key_is_a_usage_error_on_both_commands(tmp_path: Path,
                                                                         command: list[str]) -> None:
    done = koikoi(tmp_path, *command, "--port", "0", "--tls-cert", str(tmp_path / "cert.pem"))
    assert done.returncode == 2, done.stderr
    assert "--tls-cert and --tls-key go together" in done.stderr and "Traceback" not in done.stderr


def test_a_missing_certificate_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "missing-cert.pem"
    done = koikoi(tmp_path, "ratings", "serve", "--port", "0", "--db", f"sqlite:{tmp_path / 'r.db'}",
                  "--tls-cert", str(missing), "--tls-key", str(tmp_path / "missing.key"))
    assert done.returncode == 1 and str(missing) in done.stderr, done.stderr


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--trusted-proxy", "notanip", "not an IP address"),
    ("--max-connections", "-1", "must be more than 0"),
    ("--max-connections-per-address", "0", "must be more than 0"),
    ("--head-timeout", "-5", "must be more than 0"),
    ("--min-body-rate", "many", "not a number"),
])
def test_a_bad_serving_option_is_refused(tmp_path: Path, option: str, value: str, said: str) -> None:
    done = koikoi(tmp_path, "ratings", "serve", "--port", "0", "--db", f"sqlite:{tmp_path / 'r.db'}",
                  option, value)
    assert done.returncode == 2 and said in done.stderr, done.stderr


def test_an_sqlite_file_in_a_missing_folder_is_refused_and_the_folder_not_made(tmp_path: Path) -> None:
    folder = tmp_path / "no" / "such"
    done = koikoi(tmp_path, "--lang", "en", "ratings", "serve", "--port", "0",
                  "--db", f"sqlite://{folder / 'x.db'}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"the folder {folder} of the rating store does not exist" in done.stderr, done.stderr
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("slashes", ["//", "///"])
def test_the_startup_line_shows_the_sqlite_url_as_typed(tmp_path: Path, slashes: str) -> None:
    typed = f"sqlite:{slashes}{tmp_path / 'x.sqlite3'}"   # both: the absolute path
    process = subprocess.Popen([sys.executable, "-m", "koikoi_p2p", "ratings", "serve", "--port", "0",
                                "--db", typed, "--log-level", "warning"], cwd=ROOT, stdout=subprocess.PIPE,
                               text=True, env=env_for(tmp_path))
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
    finally:
        stop(process)
    # sqlite:///tmp/... as typed; the four-slash form names the same file, shown with three.
    assert line.rstrip().endswith(f"/ratings (sqlite://{tmp_path / 'x.sqlite3'})"), line
