"""How another thread cuts a transport's poll short: the UI has a person's decision, and the session
thread, waiting in the transport's poll, goes on at once instead of at the end of its interval."""

from __future__ import annotations

import contextlib
import socket


class Waker:
    """Lets another thread cut a `poll` short: a UI thread that has a person's decision calls `wake()`,
    and the session thread, blocked in its transport's poll, returns at once instead of at the end of
    its poll interval. The thread that polls calls `clear()` after each poll."""

    def __init__(self) -> None:
        self._read, self._write = socket.socketpair()
        self._read.setblocking(False)
        self._write.setblocking(False)
        self.woken = False

    def fileno(self) -> int:
        return self._read.fileno()

    def wake(self) -> None:
        self.woken = True
        with contextlib.suppress(OSError):   # full: it is awake already; closed: nobody polls any more
            self._write.send(b"\0")

    def clear(self) -> None:
        self.woken = False
        with contextlib.suppress(OSError):
            while self._read.recv(4096):
                pass

    def close(self) -> None:
        self._read.close()
        self._write.close()


def _note_wake(ready: list, wake: Waker | None) -> None:
    """A waker found readable counts as woken even if its flag was cleared meanwhile (a `wake()` racing
    the poller's `clear()` can leave a byte with the flag down): otherwise every later poll would
    return at once and spin until its deadline. The poller's `clear()` drains it."""
    if wake is not None and ready:
        fd = wake.fileno()
        if any(item[0] is wake or item[0] == fd for item in ready):   # pyzmq gives a plain object's fd back
            wake.woken = True
