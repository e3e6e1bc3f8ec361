"""A transport peer in its own process, driven by the transport and namespace tests.

    python tests/support/transport_peer.py join ADDRESS --home DIR [--name N] [--max-bytes B] [--heartbeat S]
                                           [--challenge-delay S]
    python tests/support/transport_peer.py host --home DIR [--bind IP] [--port P] [--heartbeat S]
                                           [--files SOFT[:HARD]]

It prints one JSON object per line on stdout (events, received data as hex) and reads commands, one
JSON object per line, on stdin: {"send": hex}, {"send_size": n} (n zero bytes), {"raw": [hex, ...]}
(a raw multipart message on the joiner's encrypted socket, to play a misbehaving peer), {"raw_size": n}
(a DATA message of n zero bytes that skips the joiner's own size checks),
{"broadcast": hex}, {"stats": true} (a host reports its connections and flood counters), {"quit": true}.
A host echoes every message that starts with b"echo:" back to
its sender. Logging goes to stderr. Everything ends after --lifetime seconds at the latest.
"""

from __future__ import annotations

import argparse
import json
import logging
import queue
import sys
import threading
import time
from pathlib import Path

# run by path: the repository root and tests/ (for `from support.x import ...`) go first on the path
TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

from netplay.identity import Identity, KeyChanged, KnownPeers  # noqa: E402
from netplay.transport import CHALLENGE, DATA, ConnectFailed, HostTransport, JoinTransport, Refused  # noqa: E402


def emit(**obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def read_commands(commands: queue.Queue) -> None:
    for line in sys.stdin:
        line = line.strip()
        if line:
            commands.put(json.loads(line))
    commands.put({"quit": True})


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=("host", "join"))
    parser.add_argument("address", nargs="?")
    parser.add_argument("--home", required=True)
    parser.add_argument("--name", default=None)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--max-bytes", type=int, default=1 << 20)
    parser.add_argument("--heartbeat", type=float, default=1.0)
    parser.add_argument("--liveness", type=int, default=4)
    parser.add_argument("--connect-timeout", type=float, default=10.0)
    parser.add_argument("--lifetime", type=float, default=60.0)
    parser.add_argument("--challenge-delay", type=float, default=0.0,
                        help="wait this long before answering a CHALLENGE: a slow network or joiner")
    parser.add_argument("--files", default="",
                        help="start with this limit of open files, SOFT or SOFT:HARD (as `ulimit -n` would)")
    args = parser.parse_args()
    if args.files:
        import resource
        soft, _, hard = args.files.partition(":")
        resource.setrlimit(resource.RLIMIT_NOFILE,
                           (int(soft), int(hard) if hard else resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s %(levelname)s %(message)s")
    home = Path(args.home)
    identity = Identity.load(home / "keys", name=args.name or args.role)
    known = KnownPeers(home / "known_peers.json")
    commands: queue.Queue = queue.Queue()
    threading.Thread(target=read_commands, args=(commands,), daemon=True).start()
    end = time.monotonic() + args.lifetime
    if args.role == "host":
        return run_host(args, identity, known, commands, end)
    return run_join(args, identity, known, commands, end)


def run_host(args: argparse.Namespace, identity: Identity, known: KnownPeers, commands: queue.Queue,
             end: float) -> int:
    with HostTransport(identity, bind=args.bind, port=args.port, max_bytes=args.max_bytes,
                       heartbeat_s=args.heartbeat, liveness=args.liveness, known_peers=known) as host:
        emit(event="ready", address=host.address, port=host.port, curve_port=host.curve_port,
             fingerprint=identity.fingerprint, curve_key=identity.curve_public.decode(),
             file_limit=getattr(host, "file_limit", None))
        while time.monotonic() < end:
            for ev in host.poll(20):
                emit(event=ev.kind, peer=ev.fingerprint, name=ev.name, data=ev.data.hex(), reason=ev.reason,
                     at=time.time())
                if ev.kind == "message" and ev.data.startswith(b"echo:"):
                    host.send(ev.peer, ev.data)
            while not commands.empty():
                cmd = commands.get()
                if cmd.get("quit"):
                    return 0
                if "broadcast" in cmd:
                    emit(event="broadcast", count=host.broadcast(bytes.fromhex(cmd["broadcast"])))
                if cmd.get("stats"):
                    emit(event="stats", **getattr(host, "connections", {}), **host.stats)
    return 0


def run_join(args: argparse.Namespace, identity: Identity, known: KnownPeers, commands: queue.Queue,
             end: float) -> int:
    if args.challenge_delay:
        answer = JoinTransport._on_message

        def slowly(self: JoinTransport, msg: bytes) -> None:
            if msg[:1] == bytes([CHALLENGE]):
                time.sleep(args.challenge_delay)
            answer(self, msg)

        JoinTransport._on_message = slowly  # type: ignore[method-assign]
    emit(event="starting", at=time.time())      # wall clock: tests compare it with the host's "joined"
    try:
        join = JoinTransport(identity, args.address, known, max_bytes=args.max_bytes,
                             connect_timeout_s=args.connect_timeout, heartbeat_s=args.heartbeat,
                             liveness=args.liveness)
    except (KeyChanged, Refused, ConnectFailed) as exc:
        emit(event="error", type=type(exc).__name__, message=str(exc))
        return 3
    generation = strangers = 0
    try:
        while time.monotonic() < end:
            try:
                received = join.poll(20)
            except (KeyChanged, Refused) as exc:
                emit(event="error", type=type(exc).__name__, message=str(exc))
                return 3
            if join.strangers != strangers:
                if not strangers:
                    emit(event="stranger", message=join.last_error)
                strangers = join.strangers
            if join.generation != generation:
                generation = join.generation
                emit(event="connected", generation=generation, host=join.host_fingerprint, name=join.host_name,
                     host_max_bytes=join.host_max_bytes, heartbeat_s=join.heartbeat_s, liveness=join.liveness)
            for data in received:
                emit(event="message", data=data.hex() if len(data) <= 4096 else f"{len(data)} bytes")
            while not commands.empty():
                cmd = commands.get()
                if cmd.get("quit"):
                    return 0
                if "send" in cmd:
                    emit(event="sent", ok=join.send(bytes.fromhex(cmd["send"])))
                elif "send_size" in cmd:
                    emit(event="sent", ok=join.send(bytes(cmd["send_size"])))
                elif "raw_size" in cmd:      # a DATA message of n zero bytes, past our own cap checks
                    join._sock.send(bytes([DATA]) + bytes(cmd["raw_size"]))
                    emit(event="sent", ok=True)
                elif "raw" in cmd:
                    join._sock.send_multipart([bytes.fromhex(part) for part in cmd["raw"]])
                    emit(event="sent", ok=True)
    finally:
        join.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
