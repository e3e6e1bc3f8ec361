"""An attacker in its own process: many unauthenticated connections flooding a host, on loopback only.

    python tests/support/flood_peer.py hello HOST CURVE_PORT --server-key Z85 [--source IP] [--connections 80]
                                       [--interval 0.02] [--duration 6] [--key HEX]
    python tests/support/flood_peer.py auth  ...   (as hello, and every CHALLENGE is answered with an AUTH
                                                    that carries the cookie and a junk signature)
    python tests/support/flood_peer.py card HOST BOOT_PORT [--source IP] ...   (bootstrap requests on port P)
    python tests/support/flood_peer.py garbage HOST CURVE_PORT --server-key Z85 ...   (random bytes of random kinds)

Each connection sends one message every --interval seconds until --duration is over or a line
arrives on stdin. `--source` binds the connections to another loopback address (127.0.0.2 stands
for another machine). `--key` makes every HELLO claim that Ed25519 key (hex), else each connection
claims a random one. Prints {"event": "ready"} once every connection sent its first message, then
{"event": "done", "sent": n, "blocked": n, "received": {kind: n}} at the end. Everything is bounded:
at most connections * duration / interval messages, and it stops by itself.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import sys
import time
from collections import Counter
from pathlib import Path

import msgpack
import zmq

# run by path: the repository root and tests/ (for `from support.x import ...`) go first on the path
TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

from netplay import transport as tr  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("hello", "auth", "card", "garbage"))
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--server-key", default="")
    parser.add_argument("--source", default="")
    parser.add_argument("--connections", type=int, default=80)
    parser.add_argument("--interval", type=float, default=0.02)
    parser.add_argument("--duration", type=float, default=6.0)
    parser.add_argument("--key", default="")
    args = parser.parse_args()
    if not args.host.startswith("127.") or (args.source and not args.source.startswith("127.")):
        raise SystemExit("flood_peer only floods loopback addresses")
    duration = min(args.duration, 60.0)
    ctx = zmq.Context()
    socks: list[tuple[zmq.Socket, bytes, bytes]] = []
    prefix = f"{args.source}:0;" if args.source else ""
    for _ in range(min(args.connections, 500)):
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        if args.mode != "card":
            public, secret = zmq.curve_keypair()
            sock.curve_serverkey, sock.curve_publickey, sock.curve_secretkey = (args.server_key.encode(), public,
                                                                                 secret)
        sock.connect(f"tcp://{prefix}{args.host}:{args.port}")
        # auth mode keeps one join nonce per connection, so that every cookie it gets fits its AUTH
        socks.append((sock, bytes.fromhex(args.key) if args.key else os.urandom(32), os.urandom(32)))
    sent = blocked = 0
    received: Counter[str] = Counter()
    start = time.monotonic()
    tick = 0
    ready = False
    while time.monotonic() - start < duration:
        for sock, key, nonce in socks:
            try:
                sock.send(message(args.mode, key, nonce), flags=zmq.NOBLOCK)
                sent += 1
            except zmq.Again:
                blocked += 1
        if not ready:
            ready = True
            print(json.dumps({"event": "ready", "connections": len(socks)}), flush=True)
        for sock, key, nonce in socks:
            for _ in range(100):
                try:
                    reply = sock.recv(flags=zmq.NOBLOCK)
                except zmq.Again:
                    break
                kind = reply[:1]
                if args.mode == "card":
                    received["card" if reply.startswith(b"\x97") else "other"] += 1
                    continue
                received[tr._KIND_NAMES.get(kind[0], "other") if kind else "empty"] += 1
                if args.mode == "auth" and kind == bytes([tr.CHALLENGE]):
                    answer_challenge(sock, key, nonce, reply[1:])
        tick += 1
        if select.select([sys.stdin], [], [], 0)[0]:
            break
        pause = start + tick * args.interval - time.monotonic()
        if pause > 0:
            time.sleep(pause)
    print(json.dumps({"event": "done", "sent": sent, "blocked": blocked, "received": dict(received),
                      "seconds": round(time.monotonic() - start, 2)}), flush=True)
    ctx.destroy(linger=0)
    return 0


def message(mode: str, key: bytes, nonce: bytes) -> bytes:
    if mode in ("hello", "auth"):
        nonce = nonce if mode == "auth" else os.urandom(32)
        return bytes([tr.HELLO]) + msgpack.packb([tr.PROTOCOL, "flood", key, nonce], use_bin_type=True)
    if mode == "card":
        return msgpack.packb([tr.BOOT_REQUEST, tr.PROTOCOL, os.urandom(32)], use_bin_type=True)
    size = int.from_bytes(os.urandom(1), "big")
    return os.urandom(1 + size)


def answer_challenge(sock: zmq.Socket, key: bytes, nonce: bytes, body: bytes) -> None:
    """An AUTH with the real cookie (so the host gets past its MAC) and a junk signature: the most a
    flooder without the claimed key's secret can make the host do."""
    try:
        host_nonce, cookie = msgpack.unpackb(body)
    except Exception:
        return
    auth = ["flood", key, nonce, host_nonce, cookie, os.urandom(64)]
    with contextlib.suppress(zmq.Again):
        sock.send(bytes([tr.AUTH]) + msgpack.packb(auth, use_bin_type=True), flags=zmq.NOBLOCK)


if __name__ == "__main__":
    sys.exit(main())
