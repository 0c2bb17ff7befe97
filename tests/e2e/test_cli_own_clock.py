"""The player's own deadline as the crash-safe driver enforces it (issue 11: the two sides' timeouts
agree). After a resume the driver counts the time since the question was saved, so its deadline
passes before the prompt's own clock would: the question on screen is taken back, the screen says
that time ran out and what the opponent may claim, and nothing says the opponent left."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import termios
import threading
import time
from pathlib import Path

from koikoi_p2p.cli import exit_codes
from tests.e2e.test_cli_console import Console
from tests.e2e.test_cli_play_relay import _spawn
from tests.e2e.test_cli_support import SCRIPT, env_for, relay_process

TIMEOUT = 20  # seconds for a decision: the driver stops asking at 18 s, the friend claims at 20 s


def _computer_friend(url: str, code: str, folder: Path, done: dict[str, object]) -> threading.Thread:
    """Seat 1 played by the library's computer (the driver koikoi join runs), in its own thread."""
    from koikoi_p2p.net.relay_client import RelayClient
    from koikoi_p2p.net.rendezvous import RelayRendezvous
    from koikoi_p2p.net.resumable import DriverOptions, PeerSetup, create_state, run_peer
    from koikoi_p2p.net.state_store import StateStore

    async def play() -> object:
        client = await RelayClient.join(url, code)
        store = StateStore(folder)
        create_state(store, PeerSetup.generate(seat=1, room=code, relay_url=url, rendezvous=code,
                                               accept_terms=True))
        connector = RelayRendezvous(url, 1, code, first=client, pair_timeout_s=30)
        try:
            playing = run_peer(store, connector, options=DriverOptions(linger_s=0.5))
            return await asyncio.wait_for(playing, 120)
        finally:
            await connector.close()

    def run() -> None:
        try:
            done["outcome"] = asyncio.run(play())
        except BaseException as exc:  # reported by the test
            done["outcome"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _spawn_pty(home: Path, *args: str) -> tuple[subprocess.Popen[bytes], Console]:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([str(SCRIPT), *args], stdin=slave, stdout=slave, stderr=slave,
                            env=env_for(home, TERM="xterm"), close_fds=True)
    os.close(slave)
    return proc, Console(master, lambda line: os.write(master, (line + "\n").encode()))


def test_the_drivers_deadline_takes_the_question_back_after_a_resume(tmp_path: Path) -> None:
    home = tmp_path / "host"
    with relay_process(tmp_path) as url:
        host, console = _spawn(home, "host", "--relay", url, "--rounds", "1", "--rules", "wikipedia",
                               "--timeout", str(TIMEOUT))
        procs = [host]
        friend_done: dict[str, object] = {}
        friend: threading.Thread | None = None
        try:
            code = console.expect(r"Room code: ([A-Z0-9]{6})", 60).group(1)
            friend = _computer_friend(url, code, tmp_path / "friend", friend_done)
            console.expect(r"Your turn: which card do you play\?", 90)
            console.expect(r"\n(?:\[\d+:\d\d\] )?> ", 10)
            host.send_signal(signal.SIGKILL)  # killed at its own prompt, the question saved
            host.wait()
            time.sleep(3)
            resumed, console = _spawn_pty(home, "resume")  # a terminal: the clock runs live
            procs.append(resumed)
            console.expect(r"Resuming the match saved in", 30)
            asked = console.expect(r"Your turn: which card do you play\?", 30)
            clock = console.expect(r"\n\[0:(\d\d)\] > ", 10)  # the question is on screen again...
            ends = time.monotonic() + TIMEOUT + 30
            while console.pump(0.3) and time.monotonic() < ends:  # until its terminal closes
                pass
            code_back = resumed.wait(TIMEOUT + 30)
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            if friend is not None:
                friend.join(60)
            with contextlib.suppress(OSError):
                os.close(console.fd)
    after = console.text[asked.end():]
    # ... its countdown counts from when the question was saved (the driver's clock), not from now:
    # a fresh question would show TIMEOUT - 2 s (the terms less the 2 s margin).
    assert int(clock.group(1)) <= TIMEOUT - 2 - 3, after
    assert code_back == exit_codes.ERROR, console.text[-2000:]
    # ... and taken back when the driver's deadline passes.
    assert "Your time for this decision ran out: no more input is taken." in after, after
    assert "may now sign a claim that you abandoned the match at message" in after, after
    for wrong in ("opponent left", "stopped answering", "continue it with", "Match stopped"):
        assert wrong not in after, after
    # The countdown ran live in front of the answer, a second at a time.
    ticks = set(re.findall(r"\r\[0:(\d\d)\]", console.raw.decode("utf-8", "replace")))
    assert len(ticks) >= 3, ticks
    outcome = friend_done.get("outcome")
    assert getattr(outcome, "status", None) == "abandoned", outcome  # the friend's claim, as announced
    assert getattr(outcome, "absent", None) == 0
    # The friend's claim names the message the host's screen named, and koikoi verify upholds it;
    # the host wrote no claim of its own (the two sides agree on who stopped).
    seq = re.search(r"at message (\d+)", after)
    assert seq is not None and getattr(outcome, "messages", None) == int(seq.group(1)), (after, outcome)
    claim = subprocess.run([str(SCRIPT), "verify", str(getattr(outcome, "file", ""))], capture_output=True,
                           text=True, timeout=120, env=env_for(tmp_path / "friend-verify"))
    assert claim.returncode == 0 and "the claim holds" in claim.stdout, claim.stdout + claim.stderr
    assert not list((home / "data").rglob("*abandon*")), list((home / "data").rglob("*"))
