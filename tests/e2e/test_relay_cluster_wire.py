"""The cluster's hand-driven Redis connection (koikoi_relay/cluster.py ``Wire``), against a real
redis-server: replies in order, error replies in place, a cancelled caller that leaves the connection
in step, the watchdog that turns a silent Redis into a lost link, and redis-py's handshake kept."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator

import pytest
import redis as sync_redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from koikoi_relay.cluster import Wire


def _key() -> str:
    return f"wire-test:{secrets.token_hex(6)}"


@contextlib.asynccontextmanager
async def _opened(url: str, timeout: float) -> AsyncIterator[Wire]:
    """A connected Wire, closed afterwards whatever the test did."""
    wire = Wire(url, timeout)
    await wire.connect()
    try:
        yield wire
    finally:
        await wire.close()


def test_a_batch_gets_its_replies_in_order_none_and_errors_in_place(redis_url: str) -> None:
    async def main() -> None:
        async with _opened(redis_url, 2.0) as wire:
            key = _key()
            packed = b"".join((wire.pack("GET", key), wire.pack("SET", key, b"\x00" * 70_000),
                               wire.pack("NOSUCHCOMMAND"), wire.pack("EVALSHA", "0" * 40, 0),
                               wire.pack("GET", key), wire.pack("EXISTS", key, key)))
            missing, stored, unknown, no_script, value, count = await wire.run(packed, 6)
            assert missing is None   # a nil reply is a reply, not "not yet"
            assert stored == b"OK"
            assert isinstance(unknown, ResponseError)
            assert isinstance(no_script, NoScriptError)   # redis-py's mapping of the error codes
            assert value == b"\x00" * 70_000             # read across many chunks
            assert count == 2
            # Concurrent callers share the connection: each gets its own replies.
            results = await asyncio.gather(*(wire.run(wire.pack("ECHO", str(n)), 1) for n in range(200)))
            assert [reply for (reply,) in results] == [str(n).encode() for n in range(200)]

    asyncio.run(main())


def test_a_cancelled_caller_leaves_the_connection_in_step(redis_url: str) -> None:
    async def main() -> None:
        async with _opened(redis_url, 5.0) as wire:
            key = _key()
            slow = asyncio.create_task(wire.run(wire.pack("BLPOP", key, "1"), 1))
            await asyncio.sleep(0.05)
            slow.cancel()
            with pytest.raises(asyncio.CancelledError):
                await slow
            # The BLPOP's reply arrives later and is dropped; the next command gets its own reply.
            assert await wire.run(wire.pack("ECHO", "after"), 1) == [b"after"]

    asyncio.run(main())


def test_a_reply_later_than_the_timeout_fails_the_connection_as_a_lost_link(redis_url: str) -> None:
    async def main() -> None:
        async with _opened(redis_url, 0.4) as wire:
            key = _key()
            started = asyncio.get_running_loop().time()
            with pytest.raises(RedisTimeoutError):
                await wire.run(wire.pack("BLPOP", key, "3"), 1)
            assert asyncio.get_running_loop().time() - started < 2.5   # not the BLPOP's own 3 s
            # That connection was dropped (its late reply would answer the next command): the next
            # call opens a new one.
            assert await wire.run(wire.pack("PING"), 1) == [b"PONG"]

    asyncio.run(main())


def test_a_connection_closed_by_redis_fails_the_waiting_batch(redis_url: str) -> None:
    async def main() -> None:
        async with _opened(redis_url, 5.0) as wire:
            key = _key()
            name = f"wire{secrets.token_hex(4)}"
            await wire.run(wire.pack("CLIENT", "SETNAME", name), 1)
            waiting = asyncio.create_task(wire.run(wire.pack("BLPOP", key, "3"), 1))
            await asyncio.sleep(0.1)
            with sync_redis.Redis.from_url(redis_url) as admin:
                for client in admin.client_list():
                    if client["name"] == name:
                        admin.client_kill_filter(_id=client["id"])
            with pytest.raises(RedisConnectionError):
                await asyncio.wait_for(waiting, 2.0)
            # The next call opens the connection again (as redis-py does for a connection closed
            # while idle, by a Redis ``timeout`` for one), and gets its own reply.
            assert await wire.run(wire.pack("ECHO", "again"), 1) == [b"again"]
            # Reconnecting fails what still waits on the old connection: its replies will never come.
            waiting = asyncio.create_task(wire.run(wire.pack("BLPOP", key, "3"), 1))
            await asyncio.sleep(0.1)
            await wire.connect()
            with pytest.raises(RedisConnectionError):
                await asyncio.wait_for(waiting, 2.0)
            assert await wire.run(wire.pack("ECHO", "after"), 1) == [b"after"]

    asyncio.run(main())


def test_the_handshake_is_redis_py_s_credentials_included(redis_url: str) -> None:
    user, password = f"wire{secrets.token_hex(4)}", secrets.token_hex(12)
    with sync_redis.Redis.from_url(redis_url) as admin:
        admin.acl_setuser(user, enabled=True, passwords=[f"+{password}"], commands=["+@all"], keys=["*"])
    authed = redis_url.replace("redis://", f"redis://{user}:{password}@")

    async def main() -> None:
        async with _opened(authed, 2.0) as wire:
            assert await wire.run(wire.pack("ACL", "WHOAMI"), 1) == [user.encode()]
        wrong = Wire(redis_url.replace("redis://", f"redis://{user}:wrong@"), 2.0)
        try:
            with pytest.raises(sync_redis.exceptions.AuthenticationError):
                await wrong.connect()
        finally:
            await wrong.close()

    try:
        asyncio.run(main())
    finally:
        with sync_redis.Redis.from_url(redis_url) as admin:
            admin.acl_deluser(user)


def test_commands_are_packed_as_redis_py_packs_them() -> None:
    from redis.asyncio.connection import Connection

    reference = Connection()
    cases: list[tuple[str | int | bytes, ...]] = [
        ("XREAD", "COUNT", 512, "BLOCK", 1000, "STREAMS", "koikoi:i:ab12", "0-0"),
        ("EVALSHA", "f" * 40, 0, "koikoi:", "CODE", "épée", 1, b"\x00\xff" * 40_000), ("PING",)]
    for args in cases:
        assert Wire.pack(*args) == b"".join(reference.pack_command(*args))
    for wrong in (True, None, 1.5, bytearray(b"x")):
        with pytest.raises(TypeError):
            Wire.pack("SET", "k", wrong)  # type: ignore[arg-type]
