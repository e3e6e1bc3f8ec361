"""replays.parallel: the results of pmap are the plain loop's, in order, whatever the cores."""

from __future__ import annotations

import threading

import pytest

from replays import parallel
from replays.parallel import pmap


def test_pmap_is_the_plain_loop_in_order():
    for n in (0, 1, 2, 3, 7, 64, 101):
        items = list(range(n))
        assert pmap(lambda x: x * x, items) == [x * x for x in items]
    assert pmap(str, range(10)) == [str(x) for x in range(10)]


def test_pmap_uses_other_threads_when_there_are_cores(monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 4)
    seen = set()

    def where(x):
        seen.add(threading.current_thread().name)
        return x
    assert pmap(where, list(range(40))) == list(range(40))
    assert threading.current_thread().name in seen
    assert any(name.startswith("netplay-parallel") for name in seen)


def test_pmap_with_one_core_is_the_plain_loop(monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 1)
    seen = set()
    pmap(lambda x: seen.add(threading.current_thread().name), list(range(20)))
    assert seen == {threading.current_thread().name}


def test_pmap_nested_calls_do_not_wait_on_each_other(monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    assert pmap(lambda x: sum(pmap(lambda y: x * y, list(range(5)))), list(range(6))) == [10 * x for x in range(6)]


def test_pmap_raises_what_fn_raises_and_waits_for_every_slice(monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    done = []

    def fn(x):
        if x == 0:
            raise ValueError("first")
        done.append(x)
        return x
    with pytest.raises(ValueError, match="first"):
        pmap(fn, list(range(10)))
    assert sorted(done) == list(range(5, 10))   # the other slice ran to its end before pmap returned
