"""koikoi_relay/turns.py (spec/relay.md §7.3): the pace of reads of connections not in a match,
driven by hand with connections that record what they were handed and when."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_relay.turns import SetupPace


class Conn:
    def __init__(self, name: int, log: list[tuple[int, int, bytes]], turn: list[int],
                 fail: bool = False) -> None:
        self.name = name
        self.stash: bytearray | None = None
        self.held = False
        self.log = log
        self.turn = turn
        self.fail = fail

    def hold_setup(self) -> None:
        self.held = True

    def release_setup(self, data: bytes) -> None:
        self.held = False
        if self.fail:
            raise RuntimeError("boom")
        self.log.append((self.turn[0], self.name, data))

    def read(self, pace: SetupPace, data: bytes) -> None:
        """What MeteredConnection.data_received does with a read."""
        if pace.admit(self, data):
            self.log.append((self.turn[0], self.name, data))


async def _turns(count: int, turn: list[int]) -> None:
    for _ in range(count):
        turn[0] += 1
        await asyncio.sleep(0)


def test_reads_beyond_the_turns_count_wait_in_order_and_keep_their_bytes_in_order() -> None:
    async def body() -> None:
        pace, turn = SetupPace(2), [0]
        log: list[tuple[int, int, bytes]] = []
        conns = [Conn(i, log, turn) for i in range(7)]
        for conn in conns:
            conn.read(pace, b"a%d" % conn.name)
        conns[5].read(pace, b"b5")   # a later read of one already waiting joins its bytes
        assert [name for _, name, _ in log] == [0, 1]
        assert pace.waiting == 5 and pace.deferred == 5
        assert all(conn.held for conn in conns[2:])
        await _turns(6, turn)
        handed = [(name, data) for _, name, data in log]
        assert handed == [(0, b"a0"), (1, b"a1"), (2, b"a2"), (3, b"a3"), (4, b"a4"), (5, b"a5b5"),
                          (6, b"a6")]
        per_turn: dict[int, int] = {}
        for when, _, _ in log:
            per_turn[when] = per_turn.get(when, 0) + 1
        assert max(per_turn.values()) <= 2
        assert pace.waiting == 0 and not any(conn.held for conn in conns)

    asyncio.run(body())


def test_a_connection_forgotten_while_it_waits_is_skipped_and_a_failing_one_stops_nobody() -> None:
    async def body() -> None:
        pace, turn = SetupPace(1), [0]
        log: list[tuple[int, int, bytes]] = []
        conns = [Conn(i, log, turn, fail=i == 2) for i in range(5)]
        for conn in conns:
            conn.read(pace, b"x")
        conns[3].stash = None   # what MeteredConnection.connection_lost does
        pace.forget(conns[3])
        assert pace.waiting == 3
        await _turns(8, turn)
        assert [name for _, name, _ in log] == [0, 1, 4]
        assert pace.waiting == 0

    asyncio.run(body())


def test_closing_hands_back_every_read_kept_and_puts_nothing_off_afterwards() -> None:
    async def body() -> None:
        pace, turn = SetupPace(1), [0]
        log: list[tuple[int, int, bytes]] = []
        conns = [Conn(i, log, turn) for i in range(4)]
        for conn in conns:
            conn.read(pace, b"y")
        pace.close()
        assert [name for _, name, _ in log] == [0, 1, 2, 3] and pace.waiting == 0
        conns[0].read(pace, b"z")
        assert log[-1] == (0, 0, b"z")

    asyncio.run(body())


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.lists(st.tuples(st.integers(0, 9), st.integers(0, 3)), min_size=1, max_size=60))
def test_every_byte_is_handed_over_once_in_each_connections_order(per_turn: int,
                                                                  reads: list[tuple[int, int]]) -> None:
    """Reads of ten connections, some several in one turn, some turns apart: each connection gets
    its bytes whole and in order, never more than ``per_turn`` connections a turn."""
    async def body() -> None:
        pace, turn = SetupPace(per_turn), [0]
        log: list[tuple[int, int, bytes]] = []
        conns = [Conn(i, log, turn) for i in range(10)]
        sent: dict[int, bytes] = {i: b"" for i in range(10)}
        for index, (name, gap) in enumerate(reads):
            data = b"%d," % index
            sent[name] += data
            conns[name].read(pace, data)   # held, its bytes join the kept ones (as under TLS)
            await _turns(gap, turn)
        await _turns(len(reads) + 2, turn)
        got: dict[int, bytes] = {i: b"" for i in range(10)}
        per_turn_seen: dict[int, set[int]] = {}
        for when, name, data in log:
            got[name] += data
            per_turn_seen.setdefault(when, set()).add(name)
        assert got == sent
        assert pace.waiting == 0
        # Reads handled as they came count too: at most per_turn connections each turn.
        assert all(len(names) <= per_turn for names in per_turn_seen.values()), per_turn_seen

    asyncio.run(body())
