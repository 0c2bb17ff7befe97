"""Messages a person acts on: bad room codes and relay addresses, one-sided passwords, forced choices."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.main import main
from koikoi_p2p.cli.online import relay_failure
from koikoi_p2p.cli.play import Screen, failure, interchangeable
from koikoi_p2p.cli.style import Style
from koikoi_p2p.net.relay_client import RelayError
from koikoi_p2p.protocol.events import Failure
from koikoi_p2p.rules.actions import Capture
from koikoi_p2p.rules.cards import card


def test_a_malformed_room_code_is_refused_before_any_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    # Port 1 refuses connections: a code check that tried the relay would say "no relay" (3).
    assert main(["join", "KP5PRD0", "--relay", "ws://127.0.0.1:1"]) == exit_codes.USAGE
    assert "'KP5PRD0' is not a room code: a code is six letters and digits" in capsys.readouterr().err
    assert main(["join", "kp5prd", "--relay", "ws://127.0.0.1:1"]) == exit_codes.RELAY_UNREACHABLE
    # Look-alikes no code has are refused here too, not by the relay (QA); a dash is forgiven.
    assert main(["join", "O0IL1Z", "--relay", "ws://127.0.0.1:1"]) == exit_codes.USAGE
    assert "'O0IL1Z' is not a room code" in capsys.readouterr().err
    assert main(["join", "kp5-prd", "--relay", "ws://127.0.0.1:1"]) == exit_codes.RELAY_UNREACHABLE


def test_a_bad_relay_address_says_how_to_write_one(capsys: pytest.CaptureFixture[str]) -> None:
    code = relay_failure(RelayError("bad_url", "scheme isn't ws or wss"), "http://example:1/v1")
    assert code == exit_codes.USAGE  # a malformed address is a bad command line, not an absent relay
    assert "http://example:1/v1 is not a relay address: use ws://HOST:PORT" in capsys.readouterr().err


def test_password_on_one_side_only_says_so() -> None:
    out = io.StringIO()
    screen = Screen(out=out, lang="en", style=Style(False), live=False)
    event = Failure(reason="mode_mismatch", message="one side has a password", who=None)
    assert failure(event, screen, 0) == exit_codes.WRONG_PASSWORD
    assert "Both of you give --password (or neither)" in out.getvalue()
    out = io.StringIO()
    screen = Screen(out=out, lang="en", style=Style(False), live=False)
    wrong = Failure(reason="pake_failed", message="pake_failed", who=None)
    assert failure(wrong, screen, 0) == exit_codes.WRONG_PASSWORD
    # Words, not "pake_failed (pake_failed)":
    assert "Match stopped: the room passwords differ (pake_failed)." in out.getvalue()
    assert "The passwords differ" in out.getvalue()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_stopped_match_and_a_relay_refusal_name_their_reason_in_words(
        lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30: in English too, never the reason's id alone (it stays in brackets, for a bug report)."""
    from tests.e2e.test_cli_practice_pty import english_left, raw_left

    def left(text: str) -> list[str]:
        text = re.sub(r"\([a-z_]+\)", " ", text)
        return raw_left(text) if lang == "en" else english_left(text.replace("ws://127.0.0.1:9/v1", " "))

    said = []
    for reason, who in (("bad_share", 1), ("equivocation", 1), ("peer_timeout", None), ("frame_gap", None)):
        out = io.StringIO()
        failure(Failure(reason=reason, message=f"{reason}: the detail", who=who),
                Screen(out=out, lang=lang, style=Style(False), live=False), 0)
        said.append(out.getvalue())
    for reason in ("relay_full", "source_handshakes", "bad_listing", "too_many_rooms"):
        relay_failure(RelayError(reason, "the relay's own words"), "ws://127.0.0.1:9/v1", lang)
        said.append(capsys.readouterr().err)
    assert all(left(text) == [] for text in said), said
    if lang == "en":
        assert "Match stopped: a decryption share that is not valid (bad_share)." in said[0]
        assert "The relay at ws://127.0.0.1:9/v1 is full" in said[4]
        assert ("takes no more new connections from your address for now (too many came from it): try again "
                "in a minute. (source_handshakes)") in said[5]
        assert "The relay refused: a room listing the relay does not take. (bad_listing)" in said[6]


@pytest.mark.parametrize("reason", ["relay_full", "relay_busy", "source_handshakes", "source_connections",
                                    "source_rooms", "dropped", "handshakes_busy"])
def test_a_relay_that_takes_no_one_new_for_now_exits_3_and_says_what_to_do(
        reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A refusal for now (the relay full or busy, or too much from one address, with or without a
    proxy's 429: spec/relay.md §7.1, §8.7) exits as an unreachable relay does, so a script retries
    them alike, and says what to do rather than only what happened."""
    code = relay_failure(RelayError(reason, "the relay's own words"), "ws://127.0.0.1:9/v1")
    said = capsys.readouterr().err
    assert code == exit_codes.RELAY_UNREACHABLE, said
    assert not said.startswith("koikoi: The relay refused:"), said
    assert re.search(r"try again|close (another|one)", said), said


def test_only_two_plains_of_one_month_are_chosen_for_the_player() -> None:
    plains = (Capture(card("12-plain1").index), Capture(card("12-plain2").index))
    assert interchangeable(plains)
    assert not interchangeable((Capture(card("09-blue").index), Capture(card("09-plain1").index)))
    assert not interchangeable((Capture(card("11-swallow").index), Capture(card("11-lightning").index)))


def test_host_wait_takes_one_second_to_a_day(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """`host --wait 0` opened a room and closed it at once (exit 9): now a bad command line."""
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    for bad in ("0", "-5", "nan", "100000"):
        with pytest.raises(SystemExit) as exc:
            main(["host", "--wait", bad, "--relay", "ws://127.0.0.1:1"])
        assert exc.value.code == exit_codes.USAGE, bad
    assert "--wait" in capsys.readouterr().err
