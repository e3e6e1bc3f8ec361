"""An attacker in its own process that holds many connections to a host and says nothing, on loopback only.

    python tests/support/idle_peer.py idle     HOST PORT [--connections N] [--sources K] [--duration S]
    python tests/support/idle_peer.py greeting HOST PORT ...   (each sends the first 10 bytes of a ZMTP
                                                                greeting: half-open)
    python tests/support/idle_peer.py silent   HOST PORT [--server-key Z85] ...
                                               (each completes the ZMTP handshake, NULL or with --server-key
                                                CURVE, then says nothing: ZeroMQ answers the host's heartbeats
                                                and connects again whenever the host closes one, as a
                                                persistent attacker would)

`idle` and `greeting` use plain sockets; `silent` one ZeroMQ DEALER connected N times (from N loopback
source addresses, since ZeroMQ connects only once to one endpoint). `--sources K` spreads the
connections over K source addresses 127.1.x.y (default 1: all from 127.0.0.1 for idle and greeting).
Raises its own limit of open files to the hard limit. Prints {"event": "ready", "open": n} once the
connections are up, {"event": "count", "open": n, "closed": n} when asked ({"count": true} on stdin),
and {"event": "done", ...} at the end (after --duration, at most 120 s, or {"quit": true}). `closed`
counts the connections the host closed (end of stream or reset); for `silent`, ZeroMQ's disconnections.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import selectors
import socket
import sys
import threading
import time

GREETING_START = b"\xff" + b"\x00" * 8 + b"\x7f"      # the signature of a ZMTP 3 greeting, and no more


def emit(**obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def source(i: int, sources: int) -> str:
    if sources <= 1:
        return "127.0.0.1"
    k = i % sources
    return f"127.1.{k // 250}.{k % 250 + 1}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("idle", "greeting", "silent"))
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--server-key", default="")
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--sources", type=int, default=1)
    parser.add_argument("--duration", type=float, default=30.0)
    args = parser.parse_args()
    if not args.host.startswith("127."):
        raise SystemExit("idle_peer connects to loopback addresses only")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    commands: list[dict] = []
    lock = threading.Lock()

    def read() -> None:
        for line in sys.stdin:
            if line.strip():
                with lock:
                    commands.append(json.loads(line))
        with lock:
            commands.append({"quit": True})

    threading.Thread(target=read, daemon=True).start()
    n = min(args.connections, hard - 64, 20_000)
    end = time.monotonic() + min(args.duration, 120.0)
    holder = Silent(args, n) if args.mode == "silent" else Raw(args, n)
    emit(event="ready", open=holder.open, made=holder.made, wanted=n)
    while time.monotonic() < end:
        holder.wait(0.05)
        with lock:
            todo, commands[:] = list(commands), []
        if any(c.get("quit") for c in todo):
            break
        if any(c.get("count") for c in todo):
            emit(event="count", open=holder.open, closed=holder.closed)
    emit(event="done", open=holder.open, closed=holder.closed)
    holder.close()
    return 0


class Raw:
    """Plain TCP connections: idle ones send nothing, greeting ones the first bytes of a greeting."""

    @property
    def made(self) -> int:
        """Connections made so far (the host may have closed some already)."""
        return self.open + self.closed

    def __init__(self, args: argparse.Namespace, n: int):
        self.selector = selectors.DefaultSelector()
        self.socks: list[socket.socket] = []
        self.open = self.closed = 0
        pending = 0
        for i in range(n):
            sock = socket.socket()
            sock.setblocking(False)
            sock.bind((source(i, args.sources), 0))
            try:
                sock.connect((args.host, args.port))
            except BlockingIOError:
                pass
            except OSError:
                sock.close()
                continue
            self.socks.append(sock)
            self.selector.register(sock, selectors.EVENT_WRITE, "connecting")
            pending += 1
        self.greeting = args.mode == "greeting"
        # Up to 8 s for the connections to be established: a host that cannot take them all leaves the rest
        # waiting in the kernel, and waiting longer would give its handshake timer time to clear the first ones
        deadline = time.monotonic() + 8
        while pending and time.monotonic() < deadline:
            for key, _ in self.selector.select(0.1):
                sock = key.fileobj
                if key.data != "connecting":      # an open one the host wrote to or closed: later
                    continue
                pending -= 1
                error = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                self.selector.unregister(sock)
                if error:
                    sock.close()
                    continue
                self.open += 1
                if self.greeting:
                    with contextlib.suppress(OSError):
                        sock.send(GREETING_START)
                self.selector.register(sock, selectors.EVENT_READ, "open")

    def wait(self, timeout: float) -> None:
        for key, _ in self.selector.select(timeout):
            sock = key.fileobj
            try:
                data = sock.recv(4096)           # the host's greeting: read and ignored
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:                         # the host closed it
                self.selector.unregister(sock)
                sock.close()
                self.open -= 1
                self.closed += 1

    def close(self) -> None:
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()
        self.selector.close()


class Silent:
    """One ZeroMQ DEALER connected n times (from n source addresses), which never sends a message.
    `open` is approximate (handshakes done minus disconnections seen): ZeroMQ reconnects by itself."""

    def __init__(self, args: argparse.Namespace, n: int):
        import zmq

        self.zmq = zmq
        self.ctx = zmq.Context()
        self.sock = self.ctx.socket(zmq.DEALER)
        self.sock.linger = 0
        if args.server_key:
            public, secret = zmq.curve_keypair()
            self.sock.curve_serverkey = args.server_key.encode()
            self.sock.curve_publickey, self.sock.curve_secretkey = public, secret
        self.monitor = self.sock.get_monitor_socket(zmq.EVENT_HANDSHAKE_SUCCEEDED | zmq.EVENT_DISCONNECTED)
        self.handshakes = self.closed = 0
        for i in range(n):
            self.sock.connect(f"tcp://{source(i, max(n, args.sources))}:0;{args.host}:{args.port}")
        deadline = time.monotonic() + 30
        while self.handshakes < n and time.monotonic() < deadline:
            self.wait(0.1)

    @property
    def open(self) -> int:
        return max(0, self.handshakes - self.closed)

    @property
    def made(self) -> int:
        """Connections that completed their handshake so far (the host may have closed some already)."""
        return self.handshakes

    def wait(self, timeout: float) -> None:
        zmq = self.zmq
        if not self.monitor.poll(int(timeout * 1000)):
            return
        for _ in range(100_000):
            try:
                frames = self.monitor.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return
            event = int.from_bytes(frames[0][:2], "little")
            if event == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                self.handshakes += 1
            elif event == zmq.EVENT_DISCONNECTED:
                self.closed += 1

    def close(self) -> None:
        self.monitor.close()
        self.sock.close()
        self.ctx.term()


if __name__ == "__main__":
    sys.exit(main())
