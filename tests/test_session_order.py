"""What a message causes leaves before this peer builds its own next frame (issue 37).

The state machine's inputs (`receive`, `linked`, `unlinked`) do only what the input asks; the own frames it
makes due are the next `tick`'s, and every shell carries out the input's effects before it ticks
(netplay/protocol/core.py). So a joiner's acknowledgement of frame N is on its way before it decides,
builds, signs and checks its frame N+1, and the host's relay of a joiner's frame before it builds its own
next frame: neither waits behind that work (it was a 2.24x regression of the per-move latency).

These are ordering tests, not timing tests: what each peer's shell carried out and when each peer began
to build a frame are written into one log, in the order they happened."""

from __future__ import annotations

from typing import Any

import pytest

from netplay import wire
from netplay.identity import Identity
from netplay.protocol import effects as fx
from netplay.session import Session
from replays.frames import decode_frame
from simulator.deciders import SimBot
from simulator.world import World


class _Logged:
    """A simulated peer's decider that notes each time it is asked (a decision frame's build starts there)."""

    def __init__(self, inner: SimBot, note: Any):
        self.inner, self.note = inner, note

    def prepare(self, game: Any) -> None:
        self.inner.prepare(game)

    def decide(self, game: Any, state: Any, seat: int, legal: list[str]) -> str | None:
        self.note("build")
        return self.inner.decide(game, state, seat, legal)

    def rematch(self, games_done: int) -> bool | None:
        return self.inner.rematch(games_done)


def _played(players: int, seed: int) -> list[tuple]:
    """A whole game of honest peers on the simulator; the log of (peer, what, frame number, seat): "build"
    when a peer starts on its own frame of that number (asks its decider, or emits an automatic frame), "ack"
    and "frame" when its shell sends an acknowledgement or a frame."""
    log: list[tuple] = []
    world: World

    def decider(index: int, w: World) -> _Logged:
        def note(what: str) -> None:
            book = world.peers[index].machine.book
            log.append((index, what, len(book.frames), None))
        return _Logged(SimBot(w, seed), note)

    world = World(seed, "madagaskar", players, deciders=decider)
    for peer in world.peers:
        def carry_out(effects: list, peer: Any = peer, inner: Any = peer.carry_out) -> None:
            for effect in effects:
                if isinstance(effect, fx.Send):
                    tag, fields = wire.unpack(effect.data)
                    if tag == "ack":
                        log.append((peer.index, "ack", fields[0], None))
                    elif tag == "frame":
                        frame = decode_frame(fields[0])
                        log.append((peer.index, "frame", frame.seq, frame.seat))
                inner([effect])
        peer.carry_out = carry_out
    world.start()
    for peer in world.peers:
        machine = peer.machine

        def emit(frame: Any, peer: Any = peer, inner: Any = machine.emit) -> None:
            log.append((peer.index, "build", frame.seq, frame.seat))
            inner(frame)
        machine.emit = emit
    world.run(lambda: all(p.outcome is not None for p in world.peers))
    assert all(p.outcome is not None and p.outcome.code == 0 for p in world.peers), [p.outcome for p in world.peers]
    return log


def _first(log: list[tuple], match: Any) -> int | None:
    return next((n for n, entry in enumerate(log) if match(entry)), None)


@pytest.mark.parametrize("players", [2, 3])
def test_a_joiners_ack_leaves_before_it_builds_its_next_frame(players: int) -> None:
    log = _played(players, seed=3)
    checked = 0
    for n, (peer, what, seq, _) in enumerate(log):
        if peer == 0 or what != "ack":
            continue
        if _first(log, lambda e, p=peer, s=seq: e[0] == p and e[1] == "ack" and e[2] == s) != n:
            continue   # (a frame sent again is acknowledged again: the first ack is the one that counts)
        built = _first(log, lambda e, p=peer, s=seq: e[0] == p and e[1] == "build" and e[2] == s + 1)
        if built is None:
            continue   # the next frame is not this peer's
        checked += 1
        assert n < built, (f"peer {peer} began its frame {seq + 1} (log entry {built}) before its ack of frame "
                           f"{seq} left (entry {n})")
    assert checked >= 10, f"only {checked} acks followed by the same peer's own frame"


@pytest.mark.parametrize("players", [2, 3])
def test_the_hosts_relay_of_a_joiners_frame_leaves_before_it_builds_its_own_next_frame(players: int) -> None:
    log = _played(players, seed=4)
    checked = 0
    for n, (peer, what, seq, seat) in enumerate(log):
        if peer != 0 or what != "frame" or seat == 0:
            continue
        if _first(log, lambda e, s=seq: e[0] == 0 and e[1] == "frame" and e[2] == s) != n:
            continue   # the first relay of that frame
        built = _first(log, lambda e, s=seq: e[0] == 0 and e[1] == "build" and e[2] == s + 1)
        if built is None:
            continue
        checked += 1
        assert n < built, (f"the host began its frame {seq + 1} (log entry {built}) before its relay of seat "
                           f"{seat}'s frame {seq} left (entry {n})")
    assert checked >= 10, f"only {checked} relays followed by the host's own frame"


class _Machine:
    """A stand-in machine: a message's handler asks for one message; the tick then builds a frame."""

    def __init__(self, log: list[str]):
        self.log, self.outbox, self.book, self.outcome, self.phase = log, [], None, None, "play"

    def receive(self, now: float, key: bytes, data: bytes) -> None:
        self.log.append("handler")
        self.outbox.append(fx.Send(key, b"ack"))

    def linked(self, now: float, key: bytes, name: str, address: str = "") -> None:
        self.log.append("handler")
        self.outbox.append(fx.Send(key, b"hello"))

    def tick(self, now: float) -> None:
        self.log.append(f"tick {now}")
        self.outbox.append(fx.Send(b"k", b"frame"))

    def drain(self) -> list:
        out, self.outbox = self.outbox, []
        return out


def test_the_session_shell_carries_out_an_inputs_effects_before_it_ticks(monkeypatch: pytest.MonkeyPatch) -> None:
    log: list[str] = []
    session = Session(Identity.generate("shell"), SimBot(None, 0))
    session.machine = _Machine(log)
    session._send = lambda to, data: log.append(f"send {data.decode()}")
    monkeypatch.setattr("netplay.session.time.monotonic", lambda: 7.0)
    session._receive(b"k", b"message")
    assert log == ["handler", "send ack", "tick 7.0", "send frame"]
    log.clear()
    session._input(lambda m: m.linked(5.0, b"k", "peer"), 5.0)
    assert log == ["handler", "send hello", "tick 5.0", "send frame"]
