"""Issue 11 at the terminal: koikoi join shows the proposed terms and asks before signing; a player
resigns at a prompt and the transcript says so."""

from __future__ import annotations

import asyncio
import re
import subprocess
from pathlib import Path

from koikoi_p2p.cli import exit_codes
from tests.e2e.test_cli_exit_codes import computer_host, koikoi, koikoi_async
from tests.e2e.test_cli_support import SCRIPT, relay_process

# A resignation needs a question: one round can end before the joiner is asked anything (the
# dealer's first turn may make a two-card yaku and stop), so the tests that resign play three.
RESIGN_ROUNDS = 3


def _join(tmp_path: Path, answers: bytes, *flags: str, rounds: int = 1) -> tuple[int, str]:
    home = tmp_path / "friend"
    with relay_process(tmp_path) as url:

        async def body() -> tuple[int, str]:
            async with computer_host(url, tmp_path, rounds) as (code, _task):
                return await koikoi_async(home, "join", code, "--relay", url, *flags, stdin=answers)

        return asyncio.run(body())


def test_join_shows_the_terms_and_signs_only_when_accepted(tmp_path: Path) -> None:
    code, out = _join(tmp_path, b"n\n")
    assert "The host proposes these terms (nothing is signed until you accept):" in out
    assert "Rules: wikipedia" in out and "Length: 1 round" in out
    assert "Time for each decision:" in out and "Unrated: no rating service" in out
    assert re.search(r"Host: key fingerprint [a-z2-7]{4}-", out)
    assert "Accept these terms?" in out
    assert code == exit_codes.ERROR, out
    assert "You refused the proposed terms: nothing was signed." in out
    assert "--- Round" not in out


def test_join_accept_flag_takes_the_terms_for_scripts(tmp_path: Path) -> None:
    _code, out = _join(tmp_path, b"", "--accept")
    assert "The host proposes these terms" in out and "Accepted (--accept)." in out
    assert "Accept these terms?" not in out
    assert "--- Round 1" in out  # then the match is played (and ends with the input)


def test_resign_at_a_prompt_ends_in_a_cosigned_result(tmp_path: Path) -> None:
    done = koikoi(tmp_path, "practice", "--rounds", str(RESIGN_ROUNDS), "--rules", "wikipedia",
                  stdin="r\ny\n")
    assert done.returncode == exit_codes.OK, done.stdout[-2000:]
    assert "[r] resign (the opponent wins the match)" in done.stdout
    assert "You resigned." in done.stdout and "Computer wins the match." in done.stdout
    transcript = re.search(r"Transcript:\s+(\S+)", done.stdout.split("=== Final score", 1)[1])
    assert transcript is not None
    verified = subprocess.run([str(SCRIPT), "verify", transcript.group(1)], capture_output=True, text=True,
                              timeout=120)
    assert verified.returncode == 0, verified.stdout
    assert "resigned by player 0" in verified.stdout


def test_the_joiner_resigns_online(tmp_path: Path) -> None:
    code, out = _join(tmp_path, b"r\ny\n", "--accept", rounds=RESIGN_ROUNDS)
    assert code == exit_codes.OK, out
    assert "You resigned." in out and "Opponent wins the match." in out


def test_the_joiner_in_japanese_reads_no_english(tmp_path: Path) -> None:
    """koikoi join --lang ja: the terms screen, the question, the board, the resignation and the final
    score are Japanese (issue 16: no English string on a Japanese screen)."""
    from tests.e2e.test_cli_practice_pty import english_left

    code, out = _join(tmp_path, b"y\nr\ny\n", "--lang", "ja", rounds=RESIGN_ROUNDS)
    assert code == exit_codes.OK, out
    assert "Accept these terms?" not in out and "--- Round" not in out
    assert "=== 最終得点" in out
    assert english_left(out) == [], out


def test_the_joiner_in_english_reads_no_raw_id(tmp_path: Path) -> None:
    """The test above in English (issue 30): the terms screen, the board, the resignation and the
    final score name no internal id and count with the right plural; and a refusal."""
    from tests.e2e.test_cli_practice_pty import raw_left

    code, out = _join(tmp_path / "played", b"y\nr\ny\n", "--lang", "en", rounds=RESIGN_ROUNDS)
    assert code == exit_codes.OK, out
    assert "Accept these terms?" in out, out
    assert "You resigned." in out and "=== Final score" in out, out
    refused_code, refused = _join(tmp_path / "refused", b"n\n", "--lang", "en")
    assert refused_code == exit_codes.ERROR and "You refused the proposed terms" in refused, refused
    for text in (out, refused):
        assert raw_left(re.sub(r"\([a-z_]+\)", "", text)) == [], text


def test_the_terms_answer_has_a_deadline(tmp_path: Path) -> None:
    """A person who keeps reading the terms (input open, nothing typed) is stopped by the deadline
    of `accept`, the terms' turn less the margin (spec/protocol.md §12.1 rule 3, §12.4): the screen
    says the time ran out and what the host may claim, nothing was signed, and the host, computer
    played, claims abandonment at that message."""
    from koikoi_p2p.net.relay_client import RelayClient
    from koikoi_p2p.net.rendezvous import RelayRendezvous
    from koikoi_p2p.net.resumable import DriverOptions, PeerSetup, create_state, run_peer
    from koikoi_p2p.net.state_store import StateStore
    from tests.e2e.test_cli_support import env_for

    with relay_process(tmp_path) as url:

        async def body() -> tuple[int, str, object]:
            client = await RelayClient.create(url, public=False, meta={})
            store = StateStore(tmp_path / "host-state")
            setup = PeerSetup.generate(seat=0, room=client.code, relay_url=url, rendezvous=client.code,
                                       profile="wikipedia", rounds=1, turn_deadline=6,
                                       out_dir=str(tmp_path / "host-out"))
            create_state(store, setup)

            async def host() -> object:
                await client.wait_for_peer(timeout=60)
                connector = RelayRendezvous(url, 0, client.code, first=client, pair_timeout_s=5)
                try:
                    return await run_peer(store, connector, options=DriverOptions(linger_s=1.0))
                finally:
                    await connector.close()

            hosting = asyncio.ensure_future(host())
            proc = await asyncio.create_subprocess_exec(
                str(SCRIPT), "join", client.code, "--relay", url, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env_for(tmp_path / "friend"))
            try:
                assert proc.stdout is not None
                out = await asyncio.wait_for(proc.stdout.read(), 90)   # stdin stays open, unanswered
                code = await proc.wait()
                return code, out.decode(), await asyncio.wait_for(hosting, 30)
            finally:
                if proc.returncode is None:
                    proc.kill()
                hosting.cancel()
                await client.close()

        code, out, host = asyncio.run(body())
    assert "Accept these terms?" in out
    # The countdown is the terms' turn (6 s) less the margin, not the 60 s step wait for the
    # host's keys that may still be under way when the question is asked.
    shown = re.findall(r"\[0:(\d\d)\] >", out)
    assert shown and max(int(s) for s in shown) <= 4, out
    assert "Your time for this decision ran out" in out, out
    assert code == exit_codes.ERROR, out
    assert "--- Round" not in out
    assert getattr(host, "status", None) == "abandoned" and getattr(host, "absent", None) == 1, host


def test_a_refusal_ends_the_hosts_wait_at_once(tmp_path: Path) -> None:
    """`koikoi host` learns that the friend refused the terms as soon as the friend leaves the room
    (the relay's `peer_left`), long before the terms' deadline; it writes no abandonment claim,
    which would prove nothing (the friend signed nothing), and exits as for an opponent who left."""
    from tests.e2e.test_cli_support import env_for

    with relay_process(tmp_path) as url:

        async def body() -> tuple[int, str, float]:
            host = await asyncio.create_subprocess_exec(
                str(SCRIPT), "host", "--relay", url, "--rounds", "1", "--timeout", "300",
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                env=env_for(tmp_path / "host"))
            assert host.stdout is not None
            seen = b""
            try:
                while (found := re.search(rb"koikoi join ([A-Z0-9]{6})", seen)) is None:
                    line = await asyncio.wait_for(host.stdout.readline(), 60)
                    assert line, seen.decode()
                    seen += line
                code, out = await koikoi_async(tmp_path / "friend", "join", found.group(1).decode(),
                                               "--relay", url, stdin=b"n\n")
                assert code == exit_codes.ERROR and "You refused the proposed terms" in out, out
                refused = asyncio.get_running_loop().time()
                rest, _ = await asyncio.wait_for(host.communicate(), 60)   # not the 300 s of the terms
                waited = asyncio.get_running_loop().time() - refused
            finally:
                if host.returncode is None:
                    host.kill()
                    await host.wait()
            assert host.returncode is not None
            return host.returncode, (seen + rest).decode(), waited

        code, out, waited = asyncio.run(body())
    assert code == exit_codes.OPPONENT_LEFT, out
    assert waited < 30, (waited, out)
    assert ".abandoned" not in out and "Evidence" not in out, out
    assert "the opponent left without accepting the terms" in out, out   # not just "left" (QA)
    assert not list((tmp_path / "host").rglob("*.abandoned"))
