"""``koikoi relay`` and ``python -m koikoi_relay`` refuse a bad flag with one line and exit status
2, before anything starts: no traceback, and no relay that every match then fails on (QA; spec/relay.md
§7, §13.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from koikoi_p2p.cli.main import main
from koikoi_relay import main as relay_main


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))   # English unless a test says --lang ja
    monkeypatch.delenv("KOIKOI_RELAY_REDIS", raising=False)

    async def started(*_: object) -> None:
        raise AssertionError("the relay started with a bad flag")

    monkeypatch.setattr(relay_main, "serve_until_signalled", started)


def _refused(capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    assert main(["relay", "--port", "0", *flags]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err.strip()


@pytest.mark.parametrize(("flags", "said"), [
    (("--max-frame-bytes", "-5"), "relay: --max-frame-bytes must not be negative, not -5"),
    (("--resume-grace", "-1"), "relay: --resume-grace must not be negative, not -1.0"),
    (("--burst-seconds", "nan"), "relay: --burst-seconds must be a finite number, not nan"),
    (("--resume-grace", "inf"), "relay: --resume-grace must be a finite number, not inf"),
    (("--redis", "http://127.0.0.1:6379"),
     "relay: --redis must be a redis://HOST:PORT/DB, rediss://... or unix://... URL, not 'http://127.0.0.1:6379'"),
    (("--redis", "redis://127.0.0.1:port"),
     "relay: --redis must be a redis://HOST:PORT/DB, rediss://... or unix://... URL, not 'redis://127.0.0.1:port'"),
    (("--redis", "redis://127.0.0.1:6379/0", "--node-id", "bad id!"),
     "relay: --node-id must be 1 to 64 letters, digits, dots, hyphens and underscores, not 'bad id!'"),
    (("--node-id", "bad id!"),
     "relay: --node-id must be 1 to 64 letters, digits, dots, hyphens and underscores, not 'bad id!'"),
    (("--node-id", "node1"),
     "relay: --node-id names a node of a cluster: it needs --redis (or $KOIKOI_RELAY_REDIS)"),
    (("--source-header", "X Forwarded"),
     "relay: --source-header must be an HTTP header name, not 'X Forwarded'"),
])
def test_a_bad_relay_flag_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], flags: tuple[str, ...],
                                                 said: str) -> None:
    assert _refused(capsys, *flags) == said


FRAME = "relay: --max-frame-bytes must be at least 9560, the largest frame a match sends (a shuffle, " \
        "spec/relay.md §7), not {}"
BUDGET = "relay: --max-buffered-bytes must be 0 (no budget) or at least 2195456: a room's two buffers and " \
         "its two connections, not 1000"
BURST = "relay: --max-bytes-per-second × --burst-seconds must be at least 65600 bytes, the largest " \
        "websocket message (--max-frame-bytes + 64), not 10485.8"


@pytest.mark.parametrize(("flags", "said"), [
    (("--max-frame-bytes", "0"), FRAME.format(0)),
    (("--max-frame-bytes", "9559"), FRAME.format(9559)),
    (("--buffer-frames", "0"), "relay: --buffer-frames must be above 0, not 0"),
    (("--buffer-bytes", "0"), "relay: --buffer-bytes must be above 0, not 0"),
    (("--max-connections", "0"), "relay: --max-connections must be above 0, not 0"),
    (("--max-control-bytes", "0"), "relay: --max-control-bytes must be above 0, not 0"),
    (("--sweep-interval", "0"), "relay: --sweep-interval must be above 0, not 0.0"),
    (("--burst-seconds", "0"), "relay: --burst-seconds must be above 0, not 0.0"),
    (("--max-buffered-bytes", "1000"), BUDGET),
    (("--burst-seconds", "0.01"), BURST),
])
def test_a_limit_that_leaves_the_relay_unusable_is_refused(capsys: pytest.CaptureFixture[str],
                                                           flags: tuple[str, ...], said: str) -> None:
    assert _refused(capsys, *flags) == said


NONE = {  # 0 turns these off (koikoi_relay/limits.py)
    "max-messages-per-second": "0", "max-bytes-per-second": "0", "burst-seconds": "0", "ping-interval": "0",
    "max-buffered-bytes": "0", "max-redis-bytes": "0", "setup-reads-per-turn": "0", "lobby-per-second": "0",
    "lobby-burst": "0", "handshakes-per-second": "0", "handshakes-at-once": "0",
    "max-connections-per-source": "0", "max-rooms-per-source": "0",
}


def test_zero_stays_none_where_limits_say_so() -> None:
    """0 turns a rate, the pings, the per-source caps, the budgets and the pace of setup reads off:
    those are no bad flags, nor is a burst while its rate is off; the least frame size is fine."""
    import argparse

    parser = argparse.ArgumentParser()
    relay_main.add_arguments(parser)
    flags = [item for name, value in NONE.items() for item in (f"--{name}", value)]
    args = parser.parse_args([*flags, "--max-frame-bytes", str(relay_main.MATCH_FRAME_BYTES)])
    assert relay_main.flag_problem(args) is None


def test_python_m_koikoi_relay_refuses_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    assert relay_main.main(["--max-frame-bytes", "-5"]) == 2
    assert capsys.readouterr().err == "relay: --max-frame-bytes must not be negative, not -5\n"


def test_the_refusal_is_in_the_command_s_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "ja", "relay", "--port", "0", "--max-frame-bytes", "-5"]) == 2
    err = capsys.readouterr().err
    assert "-5" in err and "must not" not in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_a_bad_flag_beside_ratings_is_refused_before_the_database_is_opened(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``koikoi relay --ratings DB`` with a bad flag: exit 2 and nothing created (review: the
    database was made and migrated first, then the flag refused)."""
    db = tmp_path / "ratings.sqlite3"
    said = _refused(capsys, "--ratings", f"sqlite:///{db}", "--max-frame-bytes", "100")
    assert said == FRAME.format(100)
    assert not db.exists()
