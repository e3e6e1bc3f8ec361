"""A decision handed over from another thread (a UI's) ends the session thread's wait in its poll at
once, instead of at the end of the poll interval: the transports' `wake`, and the session's."""

from __future__ import annotations

import threading
import time

from netplay.host import HostSession
from netplay.identity import Identity, KnownPeers
from netplay.session import QueueDecider
from netplay.transport import HostTransport, JoinTransport, Waker


def _later(seconds: float, call) -> threading.Thread:
    thread = threading.Thread(target=lambda: (time.sleep(seconds), call()), daemon=True)
    thread.start()
    return thread


def test_a_wake_ends_a_transport_poll_at_once():
    host = HostTransport(Identity.generate("host"))
    stop = threading.Event()

    def serve() -> None:   # the host answers the handshake while the joiner connects
        while not stop.is_set():
            host.poll(20)
    server = threading.Thread(target=serve, daemon=True)
    server.start()
    join = JoinTransport(Identity.generate("join"), host.address, KnownPeers())
    stop.set()
    server.join(5)
    waker = Waker()
    try:
        for which, poll in (("host", lambda ms: host.poll(ms, waker)), ("joiner", lambda ms: join.poll(ms, waker))):
            waker.clear()
            _later(0.05, waker.wake)
            started = time.monotonic()
            assert poll(5000) == []
            assert time.monotonic() - started < 2.0, which      # not the 5 s of the poll
            waker.clear()
            started = time.monotonic()
            poll(150)
            assert time.monotonic() - started >= 0.1, which     # a cleared waker no longer cuts a poll short
    finally:
        join.close()
        host.close()
        waker.close()


def test_a_posted_call_runs_before_the_session_poll_interval_ends(tmp_path, monkeypatch):
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path))
    session = HostSession(Identity.generate("host"), QueueDecider(), "ploc", replay_dir=tmp_path / "replays")
    ran = threading.Event()
    try:
        session.step(0)   # the session's first poll makes its waker
        stepping = threading.Thread(target=lambda: session.step(5000), daemon=True)   # the lobby waits 5 s
        stepping.start()
        time.sleep(0.05)
        started = time.monotonic()
        session.post(ran.set)
        stepping.join(5)
        assert ran.is_set() and time.monotonic() - started < 2.0
    finally:
        session.close()


def test_a_wake_that_races_the_clear_does_not_make_the_next_poll_spin():
    """wake() sets the flag then writes a byte; clear() lowers the flag then drains. Interleaved as
    flag up, flag down, drain, byte, a byte is left with the flag down: the poll must count the readable
    waker as woken (return at once, once) rather than return from zmq_poll at once on every pass."""
    host = HostTransport(Identity.generate("host"))
    waker = Waker()
    try:
        waker.woken = True
        waker.clear()
        waker._write.send(b"\0")          # the racing wake()'s byte, after the drain
        assert not waker.woken
        started = time.monotonic()
        host.poll(300, waker)
        assert time.monotonic() - started < 0.2 and waker.woken   # one wake-up, seen as one
        waker.clear()
        started = time.monotonic()
        host.poll(150, waker)                                      # drained: a normal wait again
        assert time.monotonic() - started >= 0.14 and not waker.woken
    finally:
        waker.close()
        host.close()
