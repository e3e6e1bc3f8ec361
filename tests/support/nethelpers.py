"""Helpers for the network tests: a transport peer in a child process, and throw-away network
namespaces joined by a veth pair. Nothing here sends traffic anywhere but loopback and the
namespaces it made itself."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from support.cpuclock import Budget

PEER_SCRIPT = Path(__file__).with_name("transport_peer.py")
DISCOVERY_SCRIPT = Path(__file__).with_name("discovery_peer.py")
#: the other scripts a `Peer` runs (JSON lines out and in): attackers that flood or hold connections, a lobby
FLOOD_SCRIPT = Path(__file__).with_name("flood_peer.py")
IDLE_SCRIPT = Path(__file__).with_name("idle_peer.py")
LOBBY_SCRIPT = Path(__file__).with_name("lobby_peer.py")
ROOT = PEER_SCRIPT.resolve().parents[2]


class Peer:
    """A tests/support/transport_peer.py (or discovery_peer.py) child: JSON events out, JSON commands in."""

    def __init__(self, args: Sequence[str], prefix: Sequence[str] = (), script: Path = PEER_SCRIPT):
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([*prefix, sys.executable, str(script), *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.events: queue.Queue = queue.Queue()
        self.seen: list[dict] = []
        self.stderr_lines: list[str] = []
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self) -> None:
        for line in self.proc.stdout:
            with contextlib.suppress(ValueError):
                self.events.put(json.loads(line))

    def _read_stderr(self) -> None:
        for line in self.proc.stderr:
            self.stderr_lines.append(line.rstrip("\n"))

    @property
    def stderr(self) -> str:
        return "\n".join(self.stderr_lines)

    def command(self, **cmd: object) -> None:
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()

    def expect(self, predicate: Callable[[dict], bool], timeout: float = 10.0, what: str = "",
               during: Callable[[], object] | None = None) -> dict:
        """Wait for an event; `during` is called meanwhile (the test's own host must keep polling). The
        wait is bounded by `timeout` CPU seconds of this process and its children (tests/support/cpuclock.py:
        a busy machine stretches it on the clock, not in work), or by a hang's cap on the clock."""
        budget = Budget(timeout, wall_cap=max(60.0, 10 * timeout))
        while True:
            if budget.over():
                raise AssertionError(f"peer did not report {what or predicate} within {timeout} s of CPU "
                                     f"({budget.spent():.1f} s spent); saw {self.seen[-10:]}; "
                                     f"stderr:\n{self.stderr[-3000:]}")
            if during is not None:
                during()
            try:
                event = self.events.get(timeout=0.2 if during is None else 0.005)
            except queue.Empty:
                if self.proc.poll() is not None and self.events.empty():
                    time.sleep(0.1)   # let the reader threads catch the last lines
                    if self.events.empty():
                        raise AssertionError(f"peer exited ({self.proc.returncode}) before {what}; "
                                             f"saw {self.seen[-10:]}; stderr:\n{self.stderr[-3000:]}") from None
                continue
            self.seen.append(event)
            if predicate(event):
                return event

    def event(self, name: str, /, timeout: float = 10.0, during: Callable[[], object] | None = None,
              **fields: object) -> dict:
        return self.expect(lambda e: e.get("event") == name and all(e.get(k) == v for k, v in fields.items()),
                           timeout, what=f"{name} {fields}", during=during)

    def stop(self, timeout: float = 5.0) -> int:
        if self.proc.poll() is None:
            with contextlib.suppress(BrokenPipeError, OSError):
                self.command(quit=True)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout)
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)


def netns_unavailable() -> str | None:
    """Why network namespaces cannot be made here, or None if they can."""
    if not sys.platform.startswith("linux"):
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "network namespaces need root (ip netns add)"
    if shutil.which("ip") is None:
        return "iproute2 (the `ip` command) is not installed"
    name = f"np-probe-{secrets.token_hex(3)}"
    try:
        made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"ip netns add failed: {exc}"
    if made.returncode != 0:
        return f"ip netns add failed: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10)
    return None


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=10)


@contextlib.contextmanager
def namespaces(count: int = 2, multicast: bool = False) -> Iterator[list[tuple[str, str]]]:
    """`count` (1, 2 or 3) fresh namespaces; with two, a veth pair joins them as 10.199.N.1/30 and
    10.199.N.2/30; with three, one LAN: a bridge in the first namespace (10.199.N.1/24) with a veth to each
    other one (10.199.N.2, 10.199.N.3), so all three reach each other and share multicast. Yields
    [(namespace, address), ...]; always deletes the namespaces (which removes the links with them)."""
    tag = secrets.token_hex(3)
    subnet = 1 + secrets.randbelow(250)
    names = [f"np-test-{tag}-{i}" for i in range(count)]
    made: list[str] = []
    try:
        for name in names:
            _ip("netns", "add", name)
            made.append(name)
            _ip("-n", name, "link", "set", "lo", "up")
            if multicast:
                _ip("-n", name, "link", "set", "lo", "multicast", "on")
        result = [(names[0], "127.0.0.1")]
        if count == 2:
            va, vb = f"npv{tag}a", f"npv{tag}b"
            _ip("link", "add", va, "type", "veth", "peer", "name", vb)
            _ip("link", "set", va, "netns", names[0])
            _ip("link", "set", vb, "netns", names[1])
            result = []
            for name, dev, host in ((names[0], va, 1), (names[1], vb, 2)):
                _ip("-n", name, "addr", "add", f"10.199.{subnet}.{host}/30", "dev", dev)
                _ip("-n", name, "link", "set", dev, "up")
                if multicast:
                    _ip("-n", name, "link", "set", dev, "multicast", "on")
                    _ip("-n", name, "route", "add", "224.0.0.0/4", "dev", dev)
                result.append((name, f"10.199.{subnet}.{host}"))
        elif count == 3:
            bridge = "npbr0"
            _ip("-n", names[0], "link", "add", bridge, "type", "bridge")
            _ip("-n", names[0], "addr", "add", f"10.199.{subnet}.1/24", "dev", bridge)
            _ip("-n", names[0], "link", "set", bridge, "up")
            result = [(names[0], f"10.199.{subnet}.1")]
            for n, name in enumerate(names[1:], 2):
                hub, end = f"npv{tag}h{n}", f"npv{tag}e{n}"
                _ip("link", "add", hub, "type", "veth", "peer", "name", end)
                _ip("link", "set", hub, "netns", names[0])
                _ip("link", "set", end, "netns", name)
                _ip("-n", names[0], "link", "set", hub, "master", bridge)
                _ip("-n", names[0], "link", "set", hub, "up")
                _ip("-n", name, "addr", "add", f"10.199.{subnet}.{n}/24", "dev", end)
                _ip("-n", name, "link", "set", end, "up")
                if multicast:
                    _ip("-n", name, "link", "set", end, "multicast", "on")
                    _ip("-n", name, "route", "add", "224.0.0.0/4", "dev", end)
                result.append((name, f"10.199.{subnet}.{n}"))
            if multicast:
                _ip("-n", names[0], "link", "set", bridge, "multicast", "on")
                _ip("-n", names[0], "route", "add", "224.0.0.0/4", "dev", bridge)
        elif multicast:
            _ip("-n", names[0], "route", "add", "224.0.0.0/4", "dev", "lo")
        yield result
    finally:
        for name in made:
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10)


def in_netns(name: str) -> list[str]:
    return ["ip", "netns", "exec", name]
