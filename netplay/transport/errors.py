"""What the transport raises. Apart so that callers (the session shells, the CLI) and every part of
the transport name the same classes without importing the sockets that raise them."""

from __future__ import annotations


class TransportError(Exception):
    """The transport cannot do what was asked."""


class ConnectFailed(TransportError, ConnectionError):
    """No host answered (in time) at the given address, or its name does not resolve."""


class Refused(TransportError):
    """The host refused us, or the host's key is not the one we were told to expect, or the host
    asked for settings outside the documented ranges."""


class ListenFailed(TransportError):
    """The host cannot listen on one of its two ports; the message names which one, so the user
    frees (or changes) the right one."""

    def __init__(self, message: str, port: int, errno: int | None):
        super().__init__(message)
        self.port, self.errno = port, errno


class MessageError(Exception):
    """A bootstrap or handshake message that the protocol does not allow (what the `parse_*`
    functions raise). The transport drops such input with a logged reason; it never escapes `poll`."""
