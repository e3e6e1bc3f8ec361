"""The idle and half-open connections of one listening port: learnt from a ZeroMQ socket monitor,
closed when they hold no peer for longer than the port's lifetime or when the host is over its budget
of open files, so that a thousand idle connections cannot lock real joiners out."""

from __future__ import annotations

import logging
import struct
from collections import Counter

import zmq

from netplay.transport.descriptors import _Conn, _inode, _inspect, _shutdown
from netplay.transport.limits import _Budget
from netplay.transport.settings import MONITOR_BATCH
from netplay.transport.sockets import _EVENTS, _NOBLOCK, _POLLIN

log = logging.getLogger("netplay.transport")


class _Connections:
    """The TCP connections of one listening ROUTER, learnt from a ZeroMQ socket monitor (accepted and
    disconnected, each with its file descriptor), and closed when they hold no peer for longer than the
    port's lifetime, or when the host's connections exceed its budget of file descriptors (the oldest
    connection of the source holding the most goes first: a newcomer from another source keeps its place).

    ZeroMQ cannot close one connection of a ROUTER, so a connection is closed by shutting down its
    socket through a duplicate of its descriptor (after checking, by the socket's inode, that the
    descriptor still names the connection the monitor reported); ZeroMQ then sees the end of the stream
    and forgets the connection itself. Half-open greetings end earlier, at ZMQ_HANDSHAKE_IVL."""

    def __init__(self, sock: zmq.Socket, port: str, number: int, lifetime_s: float, budget: _Budget):
        self.port, self.number, self.lifetime_s, self.budget = port, number, lifetime_s, budget
        self.monitor = sock.get_monitor_socket(zmq.EVENT_ACCEPTED | zmq.EVENT_DISCONNECTED)
        self.monitor.rcvhwm = 100_000
        self.conns: dict[int, _Conn] = {}
        self.closed = 0       # connections this host closed: for its age, or over the budget

    def __len__(self) -> int:
        return len(self.conns)

    def read(self, now: float) -> None:
        """Take in what the monitor reported (at most MONITOR_BATCH events)."""
        monitor = self.monitor
        for _ in range(MONITOR_BATCH):
            if not monitor.getsockopt(_EVENTS) & _POLLIN:
                return
            frames = monitor.recv_multipart(_NOBLOCK)
            if len(frames) != 2 or len(frames[0]) != 6:
                continue
            event, fd = struct.unpack("=HI", frames[0])
            if event == zmq.EVENT_ACCEPTED:
                self._learn(fd, now)
            elif event == zmq.EVENT_DISCONNECTED:
                conn = self.conns.get(fd)
                if conn is not None:
                    conn.doubt = now      # the sweeps look whether `fd` still names the recorded socket
                    self._forget_if_gone(fd, conn)

    def _forget_if_gone(self, fd: int, conn: _Conn) -> None:
        """Forget a connection reported disconnected once `fd` no longer names its socket. ZeroMQ reports
        before it closes the descriptor, and a report read late (under a flood) may be of an earlier
        connection on that number, whose successor a peer was already seated on: so the socket decides."""
        if _inode(fd) != conn.inode:
            del self.conns[fd]
            self.budget.count -= 1

    def _learn(self, fd: int, now: float) -> _Conn | None:
        """The connection on `fd` now: the one known already (a peer may have been seated on it before its
        ACCEPTED event was read, under a flood of them), or a new record."""
        conn = _inspect(fd, now, self.number)
        if conn is None:
            return None
        known = self.conns.get(fd)
        if known is not None and known.inode == conn.inode:
            return known
        if known is None:
            self.budget.count += 1
            self.budget.peak = max(self.budget.peak, self.budget.count)
        self.conns[fd] = conn
        return conn

    def hold(self, fd: int, now: float) -> int:
        """The connection on `fd` carries a joined peer now; returns its inode (-1: it is gone)."""
        conn = self._learn(fd, now) if fd >= 0 else None
        if conn is None:
            return -1
        conn.held = True
        return conn.inode

    def release(self, fd: int, inode: int, now: float) -> None:
        """Its peer left: the connection (if it is still that one) gets a lifetime again, from now."""
        conn = self.conns.get(fd)
        if conn is not None and conn.held and conn.inode == inode:
            conn.held, conn.since = False, now

    def sweep(self, now: float) -> None:
        """Forget the connections reported gone, close those past their lifetime, then, while the host is
        over its budget, the oldest of the source with the most."""
        for fd, conn in [(fd, conn) for fd, conn in self.conns.items() if conn.doubt]:
            self._forget_if_gone(fd, conn)
            if now - conn.doubt >= 1.0:
                conn.doubt = 0.0    # a second on, `fd` still names it: the report was of an earlier connection
        oldest = now - self.lifetime_s
        for fd, conn in [(fd, conn) for fd, conn in self.conns.items() if not conn.held and conn.since < oldest]:
            self._close(fd, conn, f"no peer for {now - conn.since:.0f} s")
        over = self.budget.count - self.budget.allowed
        if over > 0:
            idle = [(fd, conn) for fd, conn in self.conns.items() if not conn.held]
            per_source = Counter(conn.source for _, conn in idle)
            idle.sort(key=lambda item: (-per_source[item[1].source], item[1].since))
            for fd, conn in idle[:over]:
                self._close(fd, conn, "over the budget of open files")

    def _close(self, fd: int, conn: _Conn, why: str) -> None:
        if _shutdown(fd, conn.inode, self.number):
            self.closed += 1
            log.debug("closed a connection from %s on %s: %s", conn.source, self.port, why)
        # forgotten either way: the monitor reports DISCONNECTED (or it was gone already, and will)
        if self.conns.pop(fd, None) is not None:
            self.budget.count -= 1

    def close(self) -> None:
        self.monitor.close()
