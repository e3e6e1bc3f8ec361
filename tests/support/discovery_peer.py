"""A discovery peer in its own process (usually inside a test's network namespace).

    python tests/support/discovery_peer.py advertise --interface IP --port P --fingerprint FP --seats N
                                           --name NAME
    python tests/support/discovery_peer.py browse --interface IP [--snapshot SECONDS]

Prints JSON lines: {"event": "ready"} once advertised, {"event": "hosts", "hosts": [...]} on every change
a live browser sees (after an initial {"event": "snapshot", ...} from browse() when asked). Commands
on stdin: {"seats": n} updates the advertisement, {"quit": true} ends. Ends by itself after --lifetime.
"""

from __future__ import annotations

import argparse
import dataclasses
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

from netplay.discovery import Browser, HostInfo, advertise, browse  # noqa: E402


def emit(**obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def as_json(hosts: list[HostInfo]) -> list[dict]:
    return [dict(dataclasses.asdict(h), address=h.address) for h in hosts]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=("advertise", "browse"))
    parser.add_argument("--interface", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--fingerprint", default="")
    parser.add_argument("--seats", type=int, default=1)
    parser.add_argument("--name", default="someone")
    parser.add_argument("--game", default="toy")
    parser.add_argument("--snapshot", type=float, default=0.0)
    parser.add_argument("--lifetime", type=float, default=60.0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s %(levelname)s %(message)s")
    commands: queue.Queue = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            if line.strip():
                commands.put(json.loads(line))
        commands.put({"quit": True})

    threading.Thread(target=read, daemon=True).start()
    end = time.monotonic() + args.lifetime
    interfaces = [args.interface]
    if args.role == "advertise":
        with advertise(port=args.port, game=args.game, version="0.1.0", fingerprint=args.fingerprint,
                       free_seats=args.seats, host_name=args.name, interfaces=interfaces) as ad:
            emit(event="ready", name=ad.name)
            while time.monotonic() < end:
                try:
                    cmd = commands.get(timeout=0.1)
                except queue.Empty:
                    continue
                if cmd.get("quit"):
                    break
                if "seats" in cmd:
                    ad.update(free_seats=cmd["seats"])
                    emit(event="updated")
        return 0
    if args.snapshot:
        emit(event="snapshot", hosts=as_json(browse(args.snapshot, interfaces=interfaces)))
    with Browser(interfaces, on_change=lambda hosts: emit(event="hosts", hosts=as_json(hosts))):
        emit(event="browsing")
        while time.monotonic() < end:
            try:
                if commands.get(timeout=0.1).get("quit"):
                    break
            except queue.Empty:
                continue
    return 0


if __name__ == "__main__":
    sys.exit(main())
