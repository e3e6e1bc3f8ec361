"""The ZeroMQ sockets as both ends set them up: size caps, binding with a failure that names the
port, the metadata of a received frame (its descriptor and source address), and the base that closes
an end's sockets once. The plain ints of pyzmq's flags live here because every message pays for them."""

from __future__ import annotations

from typing import Self

import zmq

from netplay.transport.errors import ListenFailed, TransportError
from netplay.transport.gates import source_key

# Plain ints for the calls on every message: pyzmq's enum flags cost a microsecond per bitwise operation.
_EVENTS, _POLLIN, _RCVMORE, _NOBLOCK = int(zmq.EVENTS), int(zmq.POLLIN), int(zmq.RCVMORE), int(zmq.NOBLOCK)
_SNDMORE = int(zmq.SNDMORE)


def _fd_of(frame: zmq.Frame) -> int:
    """The file descriptor of the connection a message came on (ZMQ_SRCFD), or -1."""
    try:
        return int(frame.get(zmq.SRCFD))
    except (zmq.ZMQError, TypeError, ValueError):
        return -1


def _source_of(frame: zmq.Frame) -> str:
    """The source address of a received message, as the key of its rate limits (`source_key`)."""
    try:
        address = frame.get("Peer-Address")
    except zmq.ZMQError:          # not TCP, or no metadata: all such messages share one source
        return "?"
    return source_key(address)


def _socket(ctx: zmq.Context, kind: int, hard_cap: int) -> zmq.Socket:
    sock = ctx.socket(kind)
    sock.linger = 0
    sock.maxmsgsize = hard_cap    # beyond this ZeroMQ cuts the connection before buffering it
    return sock


def _hard_cap(max_bytes: int) -> int:
    # Between max_bytes and this, a message is received and dropped with a logged reason; beyond it
    # ZeroMQ refuses to buffer it at all and drops the connection (which then re-handshakes).
    return 2 * max_bytes + 65536


def _bind(sock: zmq.Socket, host: str, port: int, role: str) -> int:
    """Bind and return the port; a failure names the port and its role, since the user gave only P
    and C is derived from it (an "address already in use" about C used to be reported as P)."""
    try:
        sock.bind(f"tcp://{host}:{port or '*'}")
    except zmq.ZMQError as exc:
        if exc.errno == zmq.EADDRINUSE:
            why = "the port is already in use (by another program, or another netplay host)"
        else:
            why = exc.strerror[:1].lower() + exc.strerror[1:]
        raise ListenFailed(f"cannot listen on {host}:{port or 'any port'} ({role}): {why}", port, exc.errno) from None
    return _bound_port(sock)


def _bound_port(sock: zmq.Socket) -> int:
    endpoint = sock.getsockopt_string(zmq.LAST_ENDPOINT)
    return int(endpoint.rsplit(":", 1)[1])


class _Endpoint:
    """What host and joiner share as resources: `with` closes them, and a closed one refuses use."""

    _closed: bool

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()  # type: ignore[attr-defined]  # each subclass closes its own sockets

    def _check_open(self) -> None:
        if self._closed:
            raise TransportError("transport is closed")
