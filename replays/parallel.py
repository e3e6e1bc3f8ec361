"""Work that releases the GIL (libsodium's signature checks and scalar multiplications), spread over
the cores this process may use.

`pmap(fn, items)` is `[fn(x) for x in items]`, computed in contiguous slices: the caller's thread takes
the first slice and pool threads the others, so the results come back in order and the caller never
sits idle. It pays where each item costs tens of microseconds in C (a shuffle proof's rounds, a
replay's signatures); for pure-Python work threads only add overhead, and with one usable core (or
under `taskset` to one) it runs the plain loop. The pool is made on first use, one per process (a
forked child makes its own), and a call from inside a pool thread runs the plain loop, so nested
calls cannot wait on each other.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from typing import TypeVar

__all__ = ["cores", "pmap"]

T = TypeVar("T")
R = TypeVar("R")

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_pid = 0
_inside = threading.local()


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _mark() -> None:
    _inside.pool = True


def _get_pool(workers: int) -> ThreadPoolExecutor:
    global _pool, _pool_pid
    with _lock:
        if _pool is None or _pool_pid != os.getpid() or _pool._max_workers < workers:
            _pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="netplay-parallel",
                                       initializer=_mark)
            _pool_pid = os.getpid()
        return _pool


def _run(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    return [fn(x) for x in items]


def pmap(fn: Callable[[T], R], items: Sequence[T], min_items: int = 2) -> list[R]:
    """`[fn(x) for x in items]` on all usable cores (for `fn` that spends its time in C with the GIL
    released); plain when there is one core, fewer than `min_items` items, or inside a pool thread.
    An exception in `fn` propagates (the first slice's first)."""
    n = min(cores(), len(items))
    if n < 2 or len(items) < min_items or getattr(_inside, "pool", False):
        return _run(fn, items)
    size = len(items)
    bounds = [size * i // n for i in range(n + 1)]
    pool = _get_pool(n - 1)
    futures = [pool.submit(_run, fn, items[bounds[i]:bounds[i + 1]]) for i in range(1, n)]
    try:
        out = _run(fn, items[:bounds[1]])
    finally:
        wait(futures)   # every slice is done before we return or raise
    for future in futures:
        out.extend(future.result())
    return out
