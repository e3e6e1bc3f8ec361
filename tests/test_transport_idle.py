"""Idle and half-open connections (issue 25): about 1,000 idle connections to the unauthenticated
bootstrap port, or as many half-open greetings, used to exhaust a host under the usual `ulimit -n 1024`
(with 990 a joiner got in, with 1,010 it could not get in at all). Now the host raises its own soft
limit of open files toward the hard limit, closes every connection that holds no peer after a bounded
time (ZMQ_HANDSHAKE_IVL for unfinished greetings, its own lifetimes after that: 3 s on P, 8 s on C),
and, where the system does not allow enough files, closes the oldest idle connections of the source
holding the most once its budget is used.

The host runs in its own process started with a soft limit of 1024 (`transport_peer.py --files`), the
attacker in another (`tests/support/idle_peer.py`: plain sockets that send nothing or the first 10 bytes of a
ZMTP greeting, or ZeroMQ connections that finish their handshake and then say nothing), a real joiner
in a third. Everything is on loopback, every wait is bounded, and the attacker ends by itself."""

from __future__ import annotations

import dataclasses
import resource
import threading
import time
from pathlib import Path

import pytest
from support.cpuclock import Budget
from support.nethelpers import IDLE_SCRIPT, Peer
from support.quick import LONG
from support.transportkit import Run

from netplay import transport as tr
from netplay.identity import Identity
from netplay.transport import HostTransport, JoinTransport, Refused

SEAT_WITHIN_S = 3.0      # the aim: a real joiner gets in within 3 s whatever else is connected
MANY = 10_000


def hard_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[1]


needs_files = pytest.mark.skipif(
    hard_limit() != resource.RLIM_INFINITY and hard_limit() < MANY + 2000,
    reason=f"the hard limit of open files ({hard_limit()}) leaves no room for {MANY} connections and a host")


@dataclasses.dataclass
class Scene:
    host: Peer
    ready: dict
    home: Path

    def stats(self) -> dict:
        self.host.command(stats=True)
        return self.host.event("stats", timeout=10)

    def port(self, which: str) -> int:
        return self.ready["port"] if which == "P" else self.ready["curve_port"]


def start_host(tmp_path: Path, files: str = "1024") -> Scene:
    host = Peer(["host", "--home", str(tmp_path / "host"), "--lifetime", "120", "--files", files])
    return Scene(host, host.event("ready", timeout=20), tmp_path)


def attack(scene: Scene, mode: str, which: str, connections: int, *extra: str) -> Peer:
    args = [mode, "127.0.0.1", str(scene.port(which)), "--connections", str(connections), "--duration", "60", *extra]
    if mode == "silent" and which == "C":
        args += [f"--server-key={scene.ready['curve_key']}"]   # a z85 key may begin with "-"
    peer = Peer(args, script=IDLE_SCRIPT)
    peer.ready = peer.event("ready", timeout=90)          # type: ignore[attr-defined]
    return peer


def were_there(attacker: Peer, connections: int) -> None:
    """The attack really made its connections (checked after the joiner tried: a host that cannot take
    them is the lock-out being tested). Made, not open at once: on a busy machine the host may close the
    first ones after their lifetime before the last are made, which is what it is meant to do."""
    assert attacker.ready["made"] >= connections * 0.95, attacker.ready


def time_to_a_seat(scene: Scene, name: str = "jo") -> float:
    """From the joiner's transport starting (its interpreter is up) to the host's "joined", by the two
    processes' own clocks (one machine)."""
    joiner = Peer(["join", scene.ready["address"], "--home", str(scene.home / name), "--name", name,
                   "--lifetime", "30", "--connect-timeout", "20"])
    try:
        started = joiner.event("starting", timeout=30)["at"]
        return scene.host.event("joined", timeout=20, name=name)["at"] - started
    finally:
        joiner.kill()


def count(attacker: Peer) -> dict:
    attacker.command(count=True)
    return attacker.event("count", timeout=10)


def closed_within(attacker: Peer, connections: int, seconds: float) -> float:
    """Wait until the host has closed (nearly) all the attacker's connections; how long it took (for the
    report). The host closes them on its own timers (`seconds`: their lifetimes and more), but on a busy
    machine a timer is late by as much as the others' work takes: the wait is bounded by the CPU the host,
    the attacker and this test spend (closing 10,000 connections costs a few seconds of it), and by three
    times `seconds` and a minute on the clock (a host that never closes them)."""
    began = time.monotonic()
    budget = Budget(seconds + 20, wall_cap=3 * seconds + 60)
    while True:
        seen = count(attacker)
        if seen["closed"] >= connections * 0.99:
            return time.monotonic() - began
        assert not budget.over(), (f"the host closed {seen['closed']} of {connections} "
                                   f"in {time.monotonic() - began:.1f} s ({budget.spent():.1f} CPU-s)")
        time.sleep(0.5)


@needs_files
@pytest.mark.parametrize(("mode", "which"), [
    pytest.param("idle", "P", id="idle-bootstrap-port"),
    pytest.param("greeting", "C", id="half-open-encrypted-port", marks=pytest.mark.skipif(
        not LONG, reason="NETPLAY_LONG=1 only: the encrypted port's silent connections: test_silent_connections_"
                         "that_finished_their_handshake_are_closed_after_their_lifetime"))])
def test_a_joiner_gets_a_seat_among_ten_thousand_idle_connections(tmp_path: Path, mode: str, which: str) -> None:
    scene = start_host(tmp_path)
    attacker = None
    try:
        attacker = attack(scene, mode, which, MANY)
        held = scene.stats()
        took = time_to_a_seat(scene)
        assert took < SEAT_WITHIN_S, f"the joiner took {took:.1f} s"
        were_there(attacker, MANY)
        assert scene.ready["file_limit"] >= min(hard_limit(), tr.FILE_LIMIT) > 1024   # it raised its own limit
        gone = closed_within(attacker, MANY, tr.HANDSHAKE_IVL_MS / 1000 + tr.UNAUTH_LIFETIME_S + 10)
        print(f"{MANY} {mode} connections on {which}: the host held {held['peak']} at most, a joiner was seated "
              f"{took:.2f} s after it started, every attack connection was closed {gone:.1f} s later")
        # the host forgets what ZeroMQ reported closed at its next sweep (CPU s, tests/support/cpuclock.py)
        budget = Budget(3)
        while (after := scene.stats())["bootstrap"] + after["encrypted"] > 1:
            assert not budget.over(), after                # the joiner's, and nothing of the attack
            time.sleep(0.3)
    finally:
        if attacker is not None:
            attacker.kill()
        scene.host.kill()


@needs_files
def test_silent_connections_that_finished_their_handshake_are_closed_after_their_lifetime(tmp_path: Path) -> None:
    """ZeroMQ keeps a connection whose peer answers its heartbeats for ever: ZeroMQ attackers do, and
    connect again as soon as one is closed. The host closes each after its lifetime, again and again."""
    scene = start_host(tmp_path)
    attackers: list[Peer] = []
    try:
        attackers.append(attack(scene, "silent", "P", 2000))
        attackers.append(attack(scene, "silent", "C", 500))
        took = time_to_a_seat(scene)
        assert took < SEAT_WITHIN_S, f"the joiner took {took:.1f} s"
        were_there(attackers[0], 2000)
        were_there(attackers[1], 500)
        gone = [closed_within(attacker, n, tr.UNAUTH_LIFETIME_S + 15) for attacker, n in zip(attackers, (2000, 500),
                                                                                             strict=True)]
        # ZeroMQ connects again whenever the host closes one: the host closes those too, after their lifetime
        # (how many are open at one moment is no evidence: on a busy machine it may be none)
        again = Budget(20, wall_cap=tr.UNAUTH_LIFETIME_S + 60)
        while (stats := scene.stats())["closed"] <= 2500 + 100 and not again.over():
            time.sleep(0.5)
        print(f"2000 silent connections on P and 500 on C: a joiner was seated {took:.2f} s after it started; "
              f"the host closed {stats['closed']} connections that held no peer (all of P's within {gone[0]:.1f} s, "
              f"then C's within {gone[1]:.1f} s more)")
        assert stats["closed"] > 2500 + 100, stats
    finally:
        for attacker in attackers:
            attacker.kill()
        scene.host.kill()


def test_where_the_file_limit_cannot_be_raised_the_oldest_idle_connections_go_first(tmp_path: Path) -> None:
    """A hard limit of 1024: the host cannot raise it, so it keeps its connections within its budget
    (the limit less a reserve) by closing the oldest idle ones of the source holding the most."""
    scene = start_host(tmp_path, files="1024:1024")
    attackers: list[Peer] = []
    try:
        attackers.append(attack(scene, "idle", "P", 1500, "--sources", "16"))
        attackers.append(attack(scene, "greeting", "C", 1500, "--sources", "16"))
        took = time_to_a_seat(scene)
        assert took < SEAT_WITHIN_S, f"the joiner took {took:.1f} s"
        for attacker in attackers:
            were_there(attacker, 1500)
        stats = scene.stats()
        print(f"3000 idle and half-open connections under a hard limit of 1024: a joiner was seated {took:.2f} s "
              f"after it started; the host held {stats['peak']} at most (budget {stats['budget']}) and closed "
              f"{stats['closed']}")
        assert scene.ready["file_limit"] == 1024
        assert stats["budget"] == 1024 - tr.FILE_RESERVE and stats["peak"] < 1024 and stats["closed"] > 0
    finally:
        for attacker in attackers:
            attacker.kill()
        scene.host.kill()


def test_the_host_raises_its_soft_file_limit_toward_the_hard_limit(tmp_path: Path) -> None:
    scene = start_host(tmp_path, files="256")
    try:
        hard = hard_limit()
        want = tr.FILE_LIMIT if hard == resource.RLIM_INFINITY else min(hard, tr.FILE_LIMIT)
        assert scene.ready["file_limit"] == want
    finally:
        scene.host.kill()


def test_a_name_that_is_not_printable_is_refused_with_the_reason() -> None:
    """Issue 25: the HELLO of a joiner whose name is not printable was dropped without an answer, so
    that joiner only timed out. (netplay's own joiner cannot have such a name: this plays another
    implementation, with an identity made around the name check.)"""
    host = HostTransport(Identity.generate("the-host"), heartbeat_s=0.2, liveness=3)
    run = Run(host)
    outcome: list[BaseException | JoinTransport] = []
    for name in ("bad\x1b]0;pwned\x07", "tab\there", "\u202eevil", "x" * 65):
        ident = dataclasses.replace(Identity.generate("jo"), name=name)

        def connect(ident: Identity = ident) -> None:
            try:
                outcome.append(JoinTransport(ident, host.address, connect_timeout_s=8))
            except BaseException as exc:   # noqa: BLE001  (reported to the test thread)
                outcome.append(exc)

        outcome.clear()
        thread = threading.Thread(target=connect, daemon=True)
        thread.start()
        budget = Budget(10)   # CPU seconds (tests/support/cpuclock.py)
        while thread.is_alive() and not budget.over():
            run.turn(20)
        thread.join(1)
        (result,) = outcome
        assert isinstance(result, Refused), result
        assert "a peer name must be 1..64 printable characters" in str(result), result
        assert str(result).isprintable()
    assert host.stats["refused"] == 4 and not host.peers
    host.close()
