"""The verification thread pool (mentalpoker.parallel): results in task order, the first failure
in task order raised after every task finished, and the same verdicts with one thread or several."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable

import pytest

from mentalpoker import parallel
from mentalpoker.deck import DeckObserver, DeckParty
from mentalpoker.errors import MentalPokerError
from tests.mp_support import seed_of


@pytest.fixture(autouse=True)
def two_workers() -> object:
    saved = parallel.workers()
    parallel.set_workers(2)
    yield None
    parallel.set_workers(saved)


def test_results_come_back_in_task_order() -> None:
    def task(i: int) -> int:
        time.sleep(0.001 * (5 - i))
        return i

    tasks = [functools.partial(task, i) for i in range(6)]
    assert parallel.run_all(tasks) == list(range(6))


def test_the_first_failure_in_task_order_is_raised_after_all_tasks_ran() -> None:
    ran: list[int] = []
    lock = threading.Lock()

    def task(i: int) -> int:
        time.sleep(0.002 if i == 1 else 0)
        with lock:
            ran.append(i)
        if i in (1, 3):
            raise ValueError(f"task {i}")
        return i

    with pytest.raises(ValueError, match="task 1"):
        parallel.run_all([functools.partial(task, i) for i in range(5)])
    assert sorted(ran) == [0, 1, 2, 3, 4]


def test_chunks_cover_the_range_in_order() -> None:
    for count in range(1, 20):
        for parts in range(1, 6):
            pieces = parallel.chunks(count, parts)
            assert [i for piece in pieces for i in piece] == list(range(count))
            assert all(len(piece) for piece in pieces)


def test_one_thread_and_two_give_the_same_verdicts() -> None:
    setup = {"n": 6, "version": 2, "session_id": b"parallel-session-00001", "round": 1, "first_shuffler": 0}
    a = DeckParty(me=0, seed=seed_of(b"pa"), **setup)  # type: ignore[arg-type]
    b = DeckParty(me=1, seed=seed_of(b"pb"), **setup)  # type: ignore[arg-type]
    keys = [a.key_message(b"0"), b.key_message(b"1")]
    a.receive_key(keys[1])
    b.receive_key(keys[0])
    s1 = a.shuffle_message(b"2")
    b.receive_shuffle(s1)
    s2 = b.shuffle_message(b"3")
    share = b.share_message([0, 2, 5], b"4")
    bad_share = share[:40] + bytes([share[40] ^ 1]) + share[41:]
    bad_shuffle = s2[:-7] + bytes([s2[-7] ^ 4]) + s2[-6:]

    def outcome(shuffle: bytes, shares: bytes) -> tuple[str, ...]:
        observer = DeckObserver(**setup)  # type: ignore[arg-type]
        got: list[str] = []
        steps: list[Callable[[], None]] = [
            lambda: observer.receive_key(0, keys[0]), lambda: observer.receive_key(1, keys[1]),
            lambda: observer.receive_shuffle(0, s1), lambda: observer.receive_shuffle(1, shuffle),
            lambda: observer.receive_shares(1, [0, 2, 5], shares)]
        for step in steps:
            try:
                step()
                got.append("ok")
            except MentalPokerError as exc:
                got.append(exc.reason)
        return tuple(got)

    cases = [(s2, share), (bad_shuffle, share), (s2, bad_share)]
    threaded = [outcome(*case) for case in cases]
    with parallel.serial():
        one = [outcome(*case) for case in cases]
    assert threaded == one
    assert threaded[0][-1] == "ok" and "bad_shuffle_proof" in threaded[1] and threaded[2][-1] != "ok"
