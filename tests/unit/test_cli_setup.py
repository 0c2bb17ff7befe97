"""Folders, remembered language, identity on first run, passwords, relay URLs and exit codes."""

from __future__ import annotations

import argparse
import stat
from pathlib import Path

import pytest

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.identity_store import IdentityFileError, load_or_create_identity
from koikoi_p2p.cli.main import build_parser, main
from koikoi_p2p.cli.options import PasswordUnavailable, read_password, relay_url
from koikoi_p2p.cli.paths import folders
from koikoi_p2p.cli.play import failure_code
from koikoi_p2p.cli.settings import FIRST_LEVEL, LEVELS, load_settings, remember_lang

PLAY_COMMANDS = ("practice", "host", "join", "lobby")


def test_xdg_folders_and_koikoi_home(tmp_path: Path) -> None:
    xdg = folders({"HOME": "/home/u", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d"})
    assert xdg.config == Path("/c/koikoi") and xdg.data == Path("/d/koikoi")
    plain = folders({"HOME": "/home/u"})
    assert plain.config == Path("/home/u/.config/koikoi")
    assert plain.data == Path("/home/u/.local/share/koikoi")
    home = folders({"KOIKOI_HOME": str(tmp_path), "XDG_CONFIG_HOME": "/c"}).ensure()
    assert home.config == tmp_path / "config" and home.transcripts.is_dir()


def test_the_level_is_the_first_level_then_remembered(tmp_path: Path) -> None:
    from koikoi_p2p.cli.settings import remember

    path = tmp_path / "settings.json"
    assert remember(path).level == FIRST_LEVEL == ("medium" if "medium" in LEVELS else "easy")
    assert remember(path, level="strong").level == "strong"
    assert remember(path).level == "strong"


def test_language_is_remembered(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    assert remember_lang(path, None).lang == "en"
    assert remember_lang(path, "ja").lang == "ja"
    assert remember_lang(path, None).lang == "ja"
    path.write_text("{not json", encoding="utf-8")
    assert load_settings(path).lang == "en"


def test_identity_made_once_and_private(tmp_path: Path) -> None:
    path = tmp_path / "config" / "identity.key"
    first = load_or_create_identity(path)
    assert first.created and path.exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_or_create_identity(path)
    assert not again.created
    assert again.fingerprint == first.fingerprint
    assert again.identity.public_key == first.identity.public_key
    path.write_text("zz\n", encoding="ascii")
    with pytest.raises(IdentityFileError):
        load_or_create_identity(path)


def test_password_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KOIKOI_PASSWORD", raising=False)
    assert read_password(argparse.Namespace(password=False, password_file=None)) is None
    secret = tmp_path / "pw"
    secret.write_text("plum blossom\nignored\n", encoding="utf-8")
    assert read_password(argparse.Namespace(password=False, password_file=secret)) == "plum blossom"
    monkeypatch.setenv("KOIKOI_PASSWORD", "from env")
    assert read_password(argparse.Namespace(password=True, password_file=None)) == "from env"
    empty = tmp_path / "empty"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(PasswordUnavailable):
        read_password(argparse.Namespace(password=True, password_file=empty))
    with pytest.raises(PasswordUnavailable):
        read_password(argparse.Namespace(password=True, password_file=tmp_path / "missing"))


def test_relay_url_gets_the_protocol_path() -> None:
    assert relay_url("ws://127.0.0.1:8765") == "ws://127.0.0.1:8765/v1"
    assert relay_url("ws://127.0.0.1:8765/") == "ws://127.0.0.1:8765/v1"
    assert relay_url("wss://relay.example/v1") == "wss://relay.example/v1"


def test_failure_reasons_map_to_exit_codes() -> None:
    assert failure_code("wrong_password", None, 0, None) == exit_codes.WRONG_PASSWORD
    assert failure_code("key_confirmation_failed", 1, 0, None) == exit_codes.WRONG_PASSWORD
    assert failure_code("mode_mismatch", 1, 0, None) == exit_codes.WRONG_PASSWORD
    assert failure_code("peer_left", None, 0, None) == exit_codes.OPPONENT_LEFT
    assert failure_code("timeout", 1, 0, None) == exit_codes.OPPONENT_LEFT
    assert failure_code("bad_shuffle_proof", 1, 0, "/x/evidence") == exit_codes.OPPONENT_DEVIATED
    assert failure_code("internal", 0, 0, None) == exit_codes.ERROR


COMMAND_CODES = {"practice": exit_codes.PRACTICE, "host": exit_codes.HOST, "join": exit_codes.JOIN,
                 "lobby": exit_codes.LOBBY, "resume": exit_codes.RESUME}


@pytest.mark.parametrize("command", [*PLAY_COMMANDS, "resume"])
def test_help_of_each_play_command_lists_only_its_exit_codes(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert f"koikoi {command}" in text
    listed = {int(line.split()[0]) for line in text.split("exit codes:", 1)[1].splitlines() if line.strip()}
    assert listed == set(COMMAND_CODES[command])
    assert exit_codes.ROOM_NOT_FOUND not in COMMAND_CODES["practice"]  # no relay, no room: not listed
    # A resumed online match gives up with its relay down (gave_up / relay_unreachable): exit 3,
    # as the README's table says (QA: resume --help did not list it).
    assert exit_codes.RELAY_UNREACHABLE in COMMAND_CODES["resume"]
    # The lobby plays no match (issue 16: its help listed "the match finished").
    assert ("the match finished" in text) == (command != "lobby")
    assert ("your input ended" in text) == (command != "lobby")


def test_help_says_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    for command, flags in (("host", ("--timeout", "--wait", "--rules", "--relay")),
                           ("lobby", ("--timeout", "--relay")),
                           ("practice", ("--level", "--rules", "--lang"))):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        for flag in flags:
            help_of = text.split(flag + " ", 2)[-1].split(" --", 1)[0]
            assert "default" in help_of, (command, flag, help_of)
    with pytest.raises(SystemExit):
        main(["lobby", "--help"])
    assert "has not answered within SECONDS" in " ".join(capsys.readouterr().out.split())


def test_resume_help_shows_no_internal_flags(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["resume", "--help"])
    text = capsys.readouterr().out
    for internal in ("--new", "--seat", "--rendezvous", "--strategy-seed", "--password", "--dead-after"):
        assert internal not in text
    assert "--state" in text


def test_a_bad_argument_shows_the_commands_own_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["host", "--bogus"])
    assert exc.value.code == exit_codes.USAGE
    err = capsys.readouterr().err
    assert err.startswith("usage: koikoi host ") and "unrecognized arguments: --bogus" in err


def test_every_command_answers_help(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in sub.choices:
        with pytest.raises(SystemExit) as exc:
            main([name, "--help"])
        assert exc.value.code == 0, name
    assert capsys.readouterr().out


def test_lobby_has_json_flag() -> None:
    args = build_parser().parse_args(["lobby", "--json", "--relay", "ws://127.0.0.1:1"])
    assert args.json is True


def test_board_game_six_rounds_has_pools_of_fifty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from koikoi_p2p.cli.setup import prepare

    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    setup = prepare(argparse.Namespace(rules="board-game", rounds=6, lang="en"))
    assert setup is not None
    assert (setup.rounds, setup.profile.rounds, setup.profile.pool_start) == (6, 6, 50)


def test_the_rules_help_names_every_preset() -> None:
    """`--rules`'s help lists the presets from a list of its own (building the parser loads no
    rules): it must stay the rules engine's list."""
    from koikoi_p2p.cli.options import PRESET_NAMES
    from koikoi_p2p.rules.profile import PRESETS

    assert tuple(PRESETS) == PRESET_NAMES


def test_selfplay_takes_every_preset() -> None:
    """`koikoi selfplay --rules` had a list of its own, without the seventh preset."""
    from koikoi_p2p.cli.main import build_parser
    from koikoi_p2p.rules.profile import PRESETS

    parser = build_parser()
    for name in PRESETS:
        assert parser.parse_args(["selfplay", "--rules", name]).rules == name


def test_an_interruption_is_said_in_the_screens_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C in any command says so in the chosen language (it said "interrupted" in Japanese)."""
    from koikoi_p2p.cli import cmd_selfplay

    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    monkeypatch.setattr(cmd_selfplay, "_handle", interrupted)
    assert main(["--lang", "ja", "selfplay"]) == 130
    assert capsys.readouterr().err.strip() == "中断しました"
    assert main(["--lang", "en", "selfplay"]) == 130
    assert capsys.readouterr().err.strip() == "interrupted"
