"""Independent group computations of one proof verification, on a small thread pool.

libsodium's calls through PyNaCl's cffi binding release the GIL, so the sums of products of a
shuffle or share verification (spec/crypto.md §6.3, §7) run on several cores at once. Each task
is a pure function of its inputs: the results, and so every verdict, are the same as one thread
computing them in order; :func:`run_all` returns them in the order given and re-raises the
exception of the first task (in that order) that failed, as a sequential loop would have.

``KOIKOI_THREADS`` (or :func:`set_workers`) sets the number of worker threads; 1 computes every
task on the calling thread. The default is the machine's cores, at most 4.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

_T = TypeVar("_T")

MAX_DEFAULT_WORKERS = 4


def _default_workers() -> int:
    configured = os.environ.get("KOIKOI_THREADS", "")
    if configured.isdigit() and int(configured) >= 1:
        return int(configured)
    return max(1, min(MAX_DEFAULT_WORKERS, os.cpu_count() or 1))


_lock = threading.Lock()
_workers = _default_workers()
_pool: ThreadPoolExecutor | None = None
_local = threading.local()        # ``inside``: this thread is one of the pool's workers


def workers() -> int:
    """The number of threads verification work is spread over (1: the calling thread only)."""
    return _workers


def set_workers(count: int) -> None:
    """Use ``count`` worker threads from now on (1: none); the old pool finishes its tasks."""
    global _workers, _pool
    if count < 1:
        raise ValueError("at least one worker")
    with _lock:
        old, _pool, _workers = _pool, None, count
    if old is not None:
        old.shutdown(wait=True)


@contextmanager
def serial() -> Iterator[None]:
    """Run the block with every task on the calling thread (for counting operations, which
    rebinds the primitives and counts without locks)."""
    saved = _workers
    set_workers(1)
    try:
        yield
    finally:
        set_workers(saved)


def _mark_worker() -> None:
    _local.inside = True


def _executor() -> ThreadPoolExecutor | None:
    global _pool
    if _workers <= 1 or getattr(_local, "inside", False):
        return None                  # one worker, or a task that itself splits its work
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=_workers - 1, thread_name_prefix="mentalpoker",
                                       initializer=_mark_worker)
        return _pool


def run_all(tasks: Sequence[Callable[[], _T]]) -> list[_T]:
    """Every task's result, in order. The calling thread and ``workers() - 1`` pool threads take
    the tasks in turn; the first failing task's exception (in the order given) is raised once
    every task has finished (none is left running behind the caller's back)."""
    pool = _executor() if len(tasks) > 1 else None
    if pool is None:
        return [task() for task in tasks]
    results: list[object] = [None] * len(tasks)
    errors: list[BaseException | None] = [None] * len(tasks)
    taken = iter(range(len(tasks)))          # next() on it is atomic under the GIL
    take = threading.Lock()

    def runner() -> None:
        while True:
            with take:
                index = next(taken, None)
            if index is None:
                return
            try:
                results[index] = tasks[index]()
            except BaseException as exc:     # re-raised by the caller, in task order
                errors[index] = exc

    helpers: list[Future[None]] = [pool.submit(runner) for _ in range(min(_workers - 1, len(tasks) - 1))]
    runner()
    for helper in helpers:
        helper.result()
    for error in errors:
        if error is not None:
            raise error
    return results  # type: ignore[return-value]


def chunks(count: int, parts: int) -> list[range]:
    """``range(count)`` cut into at most ``parts`` contiguous, nearly equal, non-empty pieces."""
    parts = max(1, min(parts, count))
    size, extra = divmod(count, parts)
    out: list[range] = []
    start = 0
    for k in range(parts):
        stop = start + size + (1 if k < extra else 0)
        out.append(range(start, stop))
        start = stop
    return out


__all__ = ["chunks", "run_all", "serial", "set_workers", "workers"]
