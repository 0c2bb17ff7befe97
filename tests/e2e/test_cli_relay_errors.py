"""lobby lists public rooms (--json), and join/lobby turn relay refusals into exit codes."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import time
from pathlib import Path

import pytest

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.net.relay_client import RelayClient
from tests.e2e.test_cli_console import Console
from tests.e2e.test_cli_support import SCRIPT, env_for, relay_process


async def _koikoi(home: Path, *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        str(SCRIPT), *args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        env=env_for(home),
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def test_lobby_join_errors(tmp_path: Path) -> None:
    with relay_process(tmp_path) as url:

        async def body() -> None:
            public = await RelayClient.create(url, public=True, meta={"rules": "nintendo", "rounds": 3})
            private = await RelayClient.create(url, public=False, meta={})
            try:
                code, out, _ = await _koikoi(tmp_path, "lobby", "--relay", url, "--json")
                assert code == 0
                rooms = json.loads(out)
                codes = [room["code"] for room in rooms]
                assert public.code in codes and private.code not in codes
                code, out, _ = await _koikoi(tmp_path, "lobby", "--relay", url)
                assert code == 0 and public.code in out and "nintendo" in out

                # A full room: somebody already took the second seat.
                taker = await RelayClient.join(url, private.code)
                code, _, err = await _koikoi(tmp_path, "join", private.code, "--relay", url)
                assert code == exit_codes.ROOM_FULL, err
                assert "Room full" in err
                await taker.close()

                code, _, err = await _koikoi(tmp_path, "join", "ZZZZZZ", "--relay", url)
                assert code == exit_codes.ROOM_NOT_FOUND, err
                assert "Room not found" in err
            finally:
                await public.close()
                await private.close()

        asyncio.run(asyncio.wait_for(body(), 120))


def test_unreachable_relay(tmp_path: Path) -> None:
    async def body() -> None:
        # Port 9 (discard) on loopback: nothing listens there in a test environment.
        for args in (("lobby", "--relay", "ws://127.0.0.1:9"), ("join", "ABCDEF", "--relay", "ws://127.0.0.1:9")):
            code, _, err = await _koikoi(tmp_path, *args)
            assert code == exit_codes.RELAY_UNREACHABLE, err
            assert "No relay reachable" in err

    asyncio.run(body())


def test_wrong_password_on_both_sides(tmp_path: Path) -> None:
    """Both sides learn at once, in words (issue 16 bug 3: the joiner read "pake_failed
    (pake_failed)" and the host heard nothing until its deadline)."""
    (tmp_path / "a").write_text("plum blossom\n", encoding="utf-8")
    (tmp_path / "b").write_text("cherry blossom\n", encoding="utf-8")
    with relay_process(tmp_path) as url:
        host = subprocess.Popen(
            [str(SCRIPT), "host", "--relay", url, "--password-file", str(tmp_path / "a"), "--rounds", "1"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=env_for(tmp_path / "host"),
        )
        try:
            assert host.stdout is not None
            code = ""
            for line in host.stdout:
                if line.startswith("Room code: "):
                    code = line.split()[-1]
                if "Send this to your friend" in line:
                    assert "--password" in line
                    break
            joined = subprocess.run(
                [str(SCRIPT), "join", code, "--relay", url, "--password-file", str(tmp_path / "b")],
                stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env_for(tmp_path / "join"),
                timeout=120,
            )
            assert joined.returncode == exit_codes.WRONG_PASSWORD, joined.stdout + joined.stderr
            assert "Match stopped: the room passwords differ (pake_failed)." in joined.stdout
            assert "pake_failed (pake_failed)" not in joined.stdout
            left = time.monotonic()  # the joiner is gone: from here the host should know at once
            rest = host.stdout.read()
            assert host.wait(60) == exit_codes.WRONG_PASSWORD, rest
            waited = time.monotonic() - left
            assert "most likely the passwords differ" in rest
            # The host heard it from the relay when the joiner left, not at its handshake deadline
            # (30 s in koikoi host, counted from its last handshake frame, which the joiner answered
            # by leaving): well inside half of it, whatever the machine's load.
            assert waited < 15, waited
            # Nothing to resume: the handshake never finished, so no saved state is left behind.
            assert not any((tmp_path / "host" / "data" / "matches").glob("*/*.state"))
        finally:
            if host.poll() is None:
                host.kill()
                host.wait()


def _host_on_a_tty(home: Path, url: str) -> tuple[subprocess.Popen[bytes], Console, int]:
    """koikoi host --password on a pseudo-terminal that is its controlling terminal (getpass
    reads /dev/tty)."""
    import fcntl
    import os
    import pty
    import termios

    master, slave = pty.openpty()

    def controlling() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    # preexec_fn: a test's own child, started before any thread of this process needs it.
    proc = subprocess.Popen([str(SCRIPT), "host", "--relay", url, "--password", "--wait", "5"], stdin=slave,
                            stdout=slave, stderr=slave, env=env_for(home), close_fds=True,
                            start_new_session=True, preexec_fn=controlling)
    os.close(slave)
    return proc, Console(master, lambda line: os.write(master, (line + "\n").encode())), master


def test_the_host_is_asked_for_the_password_twice(tmp_path: Path) -> None:
    import os

    with relay_process(tmp_path) as url:
        proc, console, master = _host_on_a_tty(tmp_path / "a", url)
        try:
            console.expect("Room password: ", 30)
            console.type_line("plum blossom")
            console.expect("The same password again: ", 30)
            console.type_line("plum blosom")
            # A typo is the person's input, not a bad command line: exit 1, not 2.
            assert proc.wait(30) == exit_codes.ERROR
            console.pump(0.5)
            assert "the two passwords differ: nothing was started" in console.text
            assert "Room code" not in console.text
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            os.close(master)
        proc, console, master = _host_on_a_tty(tmp_path / "b", url)
        try:
            console.expect("Room password: ", 30)
            console.type_line("plum blossom")
            console.expect("The same password again: ", 30)
            console.type_line("plum blossom")
            line = console.expect(r"Send this to your friend: +(koikoi join [^\n]+)", 30).group(1)
            assert line.endswith(" --password")
            assert "plum" not in console.text  # never echoed
        finally:
            proc.kill()
            proc.wait()
            os.close(master)


def test_the_lobby_says_how_to_join_a_password_room(tmp_path: Path) -> None:
    with relay_process(tmp_path) as url:

        async def body() -> tuple[int, str, str]:
            locked = await RelayClient.create(url, public=True, meta={"rules": "nintendo", "rounds": 1,
                                                                      "password": True})
            open_room = await RelayClient.create(url, public=True, meta={"rules": "wikipedia", "rounds": 3})
            try:
                code, out, _ = await _koikoi(tmp_path, "lobby", "--relay", url)
                return code, out, f"{locked.code} {open_room.code}"
            finally:
                await locked.close()
                await open_room.close()

        code, out, codes = asyncio.run(body())
    locked, open_code = codes.split()
    assert code == exit_codes.OK
    assert f"koikoi join {locked} --relay {url} --password" in out
    assert f"koikoi join {open_code} --relay {url}\n" in out + "\n"
    assert "ask its host for the password" in out


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_online_screens_name_every_reason_in_words(tmp_path: Path, lang: str) -> None:
    """koikoi host and join with --lang ja: every line they print, errors included, is Japanese;
    with --lang en (issue 30) every reason is named in words, never by its id alone."""
    from tests.e2e.test_cli_practice_pty import english_left, raw_left

    def run(home: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(SCRIPT), *args, "--lang", lang], capture_output=True, text=True,
                              env=env_for(tmp_path / home), timeout=120)

    with relay_process(tmp_path, "--max-rooms-per-source", "1") as url:
        host = run("h", "host", "--relay", url, "--wait", "1")
        missing = run("j", "join", "ZZZZZZ", "--relay", url)
        bad = run("j", "join", "nope", "--relay", url)

        async def hold_a_room() -> subprocess.CompletedProcess[str]:
            held = await RelayClient.create(url, public=False, meta={})
            try:
                return await asyncio.to_thread(run, "h", "host", "--relay", url, "--wait", "1")
            finally:
                await held.close()

        refused = asyncio.run(hold_a_room())  # the relay's source_rooms: this address holds its one room
    assert host.returncode == exit_codes.NOBODY_JOINED and missing.returncode == exit_codes.ROOM_NOT_FOUND
    assert bad.returncode == exit_codes.USAGE, bad.stderr
    assert refused.returncode == exit_codes.RELAY_UNREACHABLE, refused.stderr
    text = "\n".join(p.stdout + p.stderr for p in (host, missing, bad, refused))
    # The relay's machine-readable reason stays in brackets after the words (for a bug report).
    plain = re.sub(r"\([a-z_]+\)", "", text)
    if lang == "ja":
        assert "部屋コード" in text and "誰も参加しませんでした" in text and "部屋が見つかりません" in text
        assert "あなたのアドレスから開かれた部屋が上限まで" in text
        assert english_left(plain) == [], text
    else:
        words = "holds as many open rooms from your address as it allows: close one you host"
        assert words in refused.stderr, refused.stderr
        assert "(source_rooms)" in refused.stderr and raw_left(plain.replace(url, " ")) == [], text


def test_host_public_publishes_its_listing_and_the_lobby_shows_it(tmp_path: Path) -> None:
    """spec/relay.md §4.2: `koikoi host --public` publishes the structured listing (its key's
    fingerprint prefix, rules, rounds, rated, password, deadline) and `koikoi lobby` shows it, with
    an older host's meta shown as before; a relay's invalid listing is not shown."""
    from koikoi_p2p.net.relay_client import list_rooms

    with relay_process(tmp_path) as url:

        async def body() -> None:
            host = await asyncio.create_subprocess_exec(
                str(SCRIPT), "host", "--public", "--relay", url, "--rules", "koikoi-online", "--rounds", "6",
                "--timeout", "120", "--wait", "60", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL, env=env_for(tmp_path / "host"))
            old = await RelayClient.create(url, public=True, meta={"rules": "nintendo", "rounds": 12})
            try:
                # Polled at the lobby rate of one address (spec/relay.md §7.1: one a second).
                for _ in range(60):
                    rooms = [r for r in await list_rooms(url) if r.get("listing")]
                    if rooms:
                        break
                    await asyncio.sleep(1.0)
                listing = rooms[0]["listing"]
                assert re.fullmatch(r"[a-z2-7]{4}-[a-z2-7]{4}", listing["fp"])
                keys = ("rules", "custom", "rounds", "rated", "password", "turn")
                assert {k: listing[k] for k in keys} == {
                    "rules": "koikoi-online", "custom": False, "rounds": 6, "rated": False, "password": False,
                    "turn": 120}
                code, out, _ = await _koikoi(tmp_path, "lobby", "--relay", url)
                assert code == 0
                assert f"host: {listing['fp']}" in out or f" {listing['fp']}" in out
                assert "rules: koikoi-online" in out and "rounds: 6" in out and "not rated" in out
                assert "rules: nintendo" in out and "rounds: 12" in out   # the older host's meta
                code, out, _ = await _koikoi(tmp_path, "lobby", "--relay", url, "--json")
                shown = {room["code"]: room["listing"] for room in json.loads(out)}
                assert shown[old.code] == {"rules": "nintendo", "rounds": 12}
                assert shown[rooms[0]["code"]]["fp"] == listing["fp"]
            finally:
                host.kill()
                await host.wait()
                await old.close()

        asyncio.run(asyncio.wait_for(body(), 120))
