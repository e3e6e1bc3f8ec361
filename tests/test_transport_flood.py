"""Handshake exhaustion, for real: a flooder process (tests/support/flood_peer.py) opens 80 connections that
each send a HELLO (or a bootstrap request) every 20 ms, while a real joiner process connects, or a
seated joiner comes back. Protocol 1 kept 64 half-done handshakes and evicted the oldest, so such a
flood locked real joiners out; protocol 2 keeps no state before AUTH and bounds costly work per
source address. Everything runs on loopback (127.0.0.2 plays another machine), every flood stops by
itself (after a minute, if the test has not stopped it yet), and every wait is bounded: by the CPU the
host and the real joiner spend, not by the clock, which a busy machine stretches (tests/support/cpuclock.py).
"A few seconds" on an idle machine (the time from the joiner's start to "joined") is printed."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from support.nethelpers import FLOOD_SCRIPT, Peer
from support.transportkit import HB, LIVE, Run, has, joiner, key_of

from netplay import transport as tr
from netplay.identity import Identity
from netplay.transport import HostTransport

CONNECTIONS, INTERVAL = 80, 0.02
WITHIN_S = 5.0            # CPU seconds of the host and the joiner, from starting the joiner to "joined"
FLOOD_S = 60.0            # a flood's longest life: the tests stop it once the joiner is in
# A joiner on Wi-Fi answers a CHALLENGE some tens of milliseconds after the host sent it. Loopback
# answers in a fraction of a millisecond, which hid the lock-out: protocol 1 forgot a half-done
# handshake once 64 newer HELLOs had arrived, 16 ms into this flood. So the joiners here take 50 ms.
RTT = ("--challenge-delay", "0.05")


class Seats:
    """The session's admission rule, as HostSession applies it: anyone while seats are free (the
    lobby), only the seated keys once a game runs."""

    def __init__(self) -> None:
        self.playing = False
        self.seated: set[bytes] = set()
        self.asked = 0

    def __call__(self, key: bytes, name: str) -> str | None:
        self.asked += 1
        if not self.playing or key in self.seated:
            return None
        return "a game is in progress here and every seat is taken"


@pytest.fixture
def seats() -> Seats:
    return Seats()


@pytest.fixture
def host(seats: Seats):
    h = HostTransport(Identity.generate("the-host"), heartbeat_s=HB, liveness=LIVE, accept=seats)
    yield h
    h.close()


def flood(host: HostTransport, run: Run, mode: str, source: str = "", key: bytes | None = None,
          duration: float = FLOOD_S) -> Peer:
    port = host.port if mode == "card" else host.curve_port
    args = [mode, "127.0.0.1", str(port), f"--server-key={host.identity.curve_public.decode()}",
            "--connections", str(CONNECTIONS), "--interval", str(INTERVAL), "--duration", str(duration)]
    if source:
        args += ["--source", source]
    if key is not None:
        args += ["--key", key.hex()]
    peer = Peer(args, script=FLOOD_SCRIPT)
    peer.event("ready", during=run.turn, timeout=10)
    start = time.monotonic()
    while time.monotonic() - start < 1.0:       # let it reach full speed before anyone real arrives
        run.turn()
    return peer


def stop(peer: Peer, run: Run) -> dict:
    """End the flood early and return its report (what it sent and what it got back)."""
    peer.command(quit=True)
    done = peer.event("done", during=run.turn, timeout=15)
    assert done["blocked"] <= done["sent"] // 10, done       # the flood really was sent, not queued up
    assert done["seconds"] < FLOOD_S - 1, done               # and it was still on: stopped here, not ended
    return done


def join_within(run: Run, key: bytes, start: Callable[[], Peer]) -> Peer:
    """Start a joiner; it must be in within WITHIN_S CPU seconds of the host and itself (the flooder's
    CPU aside: it is the load)."""
    began = time.monotonic()
    peer = start()
    try:
        run.until(has("joined", key), timeout=WITHIN_S, pids=(peer.proc.pid,))
    except BaseException:
        peer.kill()
        raise
    print(f"joined {time.monotonic() - began:.2f} s after the joiner process started")
    return peer


def assert_flooded(done: dict) -> None:
    # thousands of messages (80 connections, one every 20 ms each, for as long as the flood lasted:
    # 4000 a second on an idle machine, fewer on a busy one; counted, not timed)
    assert done["sent"] >= 25 * CONNECTIONS, done


@pytest.mark.parametrize("source", ["127.0.0.2", "127.0.0.1"], ids=["other-address", "same-address"])
def test_a_real_joiner_gets_in_during_a_hello_flood(host: HostTransport, seats: Seats, tmp_path: Path,
                                                    source: str) -> None:
    run = Run(host)
    jkey = key_of(tmp_path / "jo", "jo")
    flooder = flood(host, run, "hello", source)
    began = time.monotonic()
    real = None
    try:
        real = join_within(run, jkey, lambda: joiner(host.address, tmp_path / "jo", "jo", *RTT))
        real.command(send=b"echo:through the flood".hex())
        real.event("message", during=run.turn, data=b"echo:through the flood".hex())
        done = stop(flooder, run)
    finally:
        flooder.kill()
        if real is not None:
            real.kill()
    seconds = time.monotonic() - began + 1.0
    assert_flooded(done)
    # what the flood cost the host: one free CHALLENGE per connection, then 20 a second for its address
    # (when the joiner shares that address, its own first HELLO and AUTH were free: that is why it got in)
    burst = tr.HELLO_RATE[1]
    assert host.stats["challenge"] <= 1 + CONNECTIONS + burst + tr.HELLO_RATE[0] * (seconds + 1)
    assert host.stats["hello_limited"] >= done["sent"] // 2
    assert host.stats["verify"] == 1 and host.stats["card"] == 1     # no signature for any flooded HELLO


def test_a_seated_joiner_restarts_during_a_flood_from_its_own_address(host: HostTransport, seats: Seats,
                                                                      tmp_path: Path) -> None:
    run = Run(host)
    jkey = key_of(tmp_path / "jo", "jo")
    first = joiner(host.address, tmp_path / "jo", "jo", *RTT)
    second = None
    try:
        run.until(has("joined", jkey))
        seats.seated.add(jkey)
        seats.playing = True
        flooder = flood(host, run, "hello", "127.0.0.1")   # random keys: none of them holds a seat
        began = time.monotonic()
        try:
            first.kill()
            second = join_within(run, jkey, lambda: joiner(host.address, tmp_path / "jo", "jo", *RTT))
            second.command(send=b"echo:back in the game".hex())
            second.event("message", during=run.turn, data=b"echo:back in the game".hex())
            done = stop(flooder, run)
        finally:
            flooder.kill()
        seconds = time.monotonic() - began + 1.0
        assert_flooded(done)
        # every flooded HELLO was turned away by the admission rule, before the host computed anything
        assert host.stats["challenge"] == 2 and host.stats["verify"] == 2 and host.stats["card"] == 2
        assert host.stats["refused"] >= done["sent"] // 2
        # and the refusals are rate limited too: one per connection, then 20 a second for the address
        assert done["received"].get("refused", 0) <= CONNECTIONS + tr.REPLY_RATE[1] + tr.REPLY_RATE[0] * (seconds + 1)
    finally:
        first.kill()
        if second is not None:
            second.kill()


@pytest.mark.parametrize("source", ["127.0.0.2", "127.0.0.1"], ids=["other-address", "same-address"])
def test_a_seated_joiner_comes_back_while_a_flood_claims_its_key(host: HostTransport, seats: Seats,
                                                                 tmp_path: Path, source: str) -> None:
    """The worst case: the flooder knows a seated key (keys are in every replay), so the admission rule
    lets its HELLOs and AUTHs through, and it answers every CHALLENGE with an AUTH that carries the
    real cookie and a junk signature. The seated joiner falls silent, is dropped, and comes back on its
    old connection (or a new one): it must get in within a few seconds, and the host must not have
    checked more signatures than the gates allow."""
    run = Run(host)
    jkey = key_of(tmp_path / "jo", "jo")
    peer = joiner(host.address, tmp_path / "jo", "jo", *RTT)
    try:
        run.until(has("joined", jkey))
        seats.seated.add(jkey)
        seats.playing = True
        flooder = flood(host, run, "auth", source, key=jkey)
        began = time.monotonic()
        try:
            peer.proc.send_signal(signal.SIGSTOP)
            run.until(has("left", jkey), timeout=HB * LIVE + 3, pids=(peer.proc.pid,))
            back = time.monotonic()
            peer.proc.send_signal(signal.SIGCONT)
            run.until(has("joined", jkey), timeout=WITHIN_S, pids=(peer.proc.pid,))
            print(f"back {time.monotonic() - back:.2f} s after SIGCONT")
            # the host seats the new connection a moment before the joiner reads its welcome: a send in
            # between is refused by the joiner itself ("sent", ok False), so wait for its own word first
            peer.expect(lambda e: e.get("event") == "connected" and e.get("generation", 1) > 1,
                        what="connected again", during=run.turn)
            peer.command(send=b"echo:resumed".hex())
            peer.event("message", during=run.turn, data=b"echo:resumed".hex())
            done = stop(flooder, run)
        finally:
            flooder.kill()
        seconds = time.monotonic() - began + 1.0
        assert_flooded(done)
        assert done["received"].get("welcome", 0) == 0
        # signatures checked: the joiner's two, one free AUTH per flooding connection, then the gate
        assert host.stats["bad_signature"] >= CONNECTIONS
        assert host.stats["verify"] <= 2 + 2 * CONNECTIONS + tr.AUTH_RATE[1] + tr.AUTH_RATE[0] * (seconds + 1)
    finally:
        peer.kill()


def test_a_real_joiner_gets_in_during_a_bootstrap_flood(host: HostTransport, tmp_path: Path) -> None:
    run = Run(host)
    jkey = key_of(tmp_path / "jo", "jo")
    flooder = flood(host, run, "card", "127.0.0.1")
    began = time.monotonic()
    real = None
    try:
        real = join_within(run, jkey, lambda: joiner(host.address, tmp_path / "jo", "jo", *RTT))
        done = stop(flooder, run)
    finally:
        flooder.kill()
        if real is not None:
            real.kill()
    seconds = time.monotonic() - began + 1.0
    assert_flooded(done)
    # each card costs the host a signature: one free per connection, then 10 a second for the address
    assert host.stats["card"] <= 1 + CONNECTIONS + tr.CARD_RATE[1] + tr.CARD_RATE[0] * (seconds + 1)
    assert host.stats["card_limited"] >= done["sent"] // 2
