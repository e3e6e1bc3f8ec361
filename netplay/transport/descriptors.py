"""A connection as its file descriptor shows it. ZeroMQ reports accepted and closed connections by
descriptor number, and a number is reused at once: so every look at one (its inode, its ports, a
shutdown) first proves that the number still names the TCP connection accepted on our port."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import socket
import stat
from collections.abc import Iterator
from dataclasses import dataclass

from netplay.transport.gates import source_key

log = logging.getLogger("netplay.transport")


@dataclass(slots=True)
class _Conn:
    inode: int            # the socket's identity: a file descriptor number is reused, a socket's inode is not
    source: str
    since: float          # accepted, or when its peer left
    held: bool = False    # carries a joined peer: never closed for its age
    doubt: float = 0.0    # when it was reported disconnected while its descriptor still named it (0: never)


def _inode(fd: int) -> int:
    """The inode of the socket on `fd` (-1: `fd` names no socket now, so no connection of ours)."""
    try:
        status = os.fstat(fd)
    except OSError:
        return -1
    return status.st_ino if stat.S_ISSOCK(status.st_mode) else -1


@contextlib.contextmanager
def _borrowed(fd: int) -> Iterator[socket.socket]:
    """A socket object for ZeroMQ's descriptor `fd`, without taking it from ZeroMQ: on a duplicate (which
    keeps naming the same socket whatever ZeroMQ does with `fd` meanwhile), or, when the process has no
    descriptor left for one (exactly when idle connections must go), on `fd` itself, detached afterwards
    so that it stays open for ZeroMQ to close. OSError when `fd` names no socket."""
    try:
        dup = os.dup(fd)
    except OSError as exc:
        if exc.errno not in (errno.EMFILE, errno.ENFILE):
            raise
        sock = socket.socket(fileno=fd)
        try:
            yield sock
        finally:
            sock.detach()
        return
    try:
        sock = socket.socket(fileno=dup)
    except OSError:
        os.close(dup)
        raise
    with sock:
        yield sock


#: what a descriptor borrowed from ZeroMQ may fail with once its number names something else (a pipe, a
#: file, an AF_UNIX socket whose peer name is an empty string, a socket of another family): never an error
#: of the host's, always "not the connection reported"
_FOREIGN = (OSError, ValueError, TypeError, IndexError, OverflowError)


def _accepted_on(sock: socket.socket, port: int) -> tuple[str, int] | None:
    """The peer address of `sock` if it is provably a TCP connection accepted on our listening `port`
    (family, type and local port checked together), else None. A descriptor number that ZeroMQ reported
    may name another socket by the time it is read: one of zeroconf's, ZeroMQ's own AF_UNIX signalers, a
    connection this process dialled. Only a stream socket of an IP family whose local port is the
    listener's can be one of its accepted connections (a dialled connection has an ephemeral port)."""
    if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.type != socket.SOCK_STREAM:
        return None
    local, peer = sock.getsockname(), sock.getpeername()
    if not (isinstance(local, tuple) and len(local) >= 2 and local[1] == port):
        return None
    if not (isinstance(peer, tuple) and len(peer) >= 2 and isinstance(peer[0], str) and peer[0]):
        return None
    return peer[0], peer[1]


def _inspect(fd: int, now: float, port: int) -> _Conn | None:
    """The connection a monitor reported as accepted on `fd` (of the listener on `port`), or None when
    `fd` no longer names such a connection (it is gone, and its number may name anything now)."""
    try:
        with _borrowed(fd) as sock:
            peer = _accepted_on(sock, port)
            if peer is None:
                return None
            return _Conn(os.fstat(sock.fileno()).st_ino, source_key(peer[0]), now)
    except _FOREIGN as exc:
        log.debug("descriptor %d is not a connection of port %d: %s", fd, port, exc)
        return None


def _shutdown(fd: int, inode: int, port: int) -> bool:
    """Shut down the socket on `fd` if it is still the connection with `inode` accepted on `port`; True
    if it was."""
    try:
        with _borrowed(fd) as sock:
            if os.fstat(sock.fileno()).st_ino != inode or _accepted_on(sock, port) is None:
                return False
            sock.shutdown(socket.SHUT_RDWR)
            return True
    except _FOREIGN:
        return False
