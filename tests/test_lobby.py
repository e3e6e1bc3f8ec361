"""The lobby's edges, on the host's state machine (netplay/protocol/lobby.py) with nothing but its inputs:
connections that say nothing hold no seat and are let go after a bounded time, a joiner cannot take another
player's key as its extra seat, names are checked at every entry, and keys are distinct at the table. Each
test is an attack of the second campaign that worked on protocol 2 (issue 25). Over real processes:
tests/test_session_lobby.py."""

from __future__ import annotations

import os

from bots.decider import BotDecider
from netplay import wire
from netplay.identity import Identity
from netplay.protocol import effects as fx
from netplay.protocol.addresses import sign_address
from netplay.protocol.lobby import HELLO_S, READY_S, START_S, seat_proof
from netplay.protocol.machines import HostMachine, JoinMachine
from replays.header import Header, Terms

TERMS = Terms.agreed(10_000, None, 60_000, 500, 5_000, 0)


def _host(players: int = 2) -> HostMachine:
    return HostMachine(Identity.generate("host"), BotDecider("random"), "madagaskar", players=players, terms=TERMS,
                       entropy=os.urandom, wall_clock=lambda: 1_700_000_000)


def _receive(machine, now: float, key: bytes, data: bytes) -> None:
    """A message, as a shell gives it: the handler, then a tick at the same time (netplay/protocol/core.py)."""
    machine.receive(now, key, data)
    machine.tick(now)


def _linked(machine, now: float, key: bytes, name: str, address: str = "") -> None:
    machine.linked(now, key, name, address)
    machine.tick(now)


def _sent(machine, to: bytes | None = None) -> list[tuple[str, list]]:
    return [wire.unpack(e.data) for e in machine.drain() if isinstance(e, fx.Send) and (to is None or e.to == to)]


def _ready(host: HostMachine, ident: Identity, more: list, port: int = 0) -> bytes:
    """`ready` with the joiner's signed statement of its port, for the lobby id of the host's offer."""
    statement = sign_address(ident.private_key, host.identity.public_key, host.lobby.lobby_id, ident.public_key, port)
    return wire.pack("ready", more, port, statement)


def _offered(host: HostMachine, ident: Identity, now: float) -> None:
    _linked(host, now, ident.public_key, ident.name, "127.0.0.1")
    _receive(host, now, ident.public_key, wire.pack("hello", wire.PROTO, "test", None, 0))


def test_silent_connections_hold_no_seat_and_are_let_go_after_a_bounded_time() -> None:
    """(Before: one authenticated connection per free seat that then said nothing held the lobby for as long as
    it stayed; every real joiner was told "the game is full".)"""
    host = _host(players=2)
    squatters = [Identity.generate(f"squatter{n}") for n in range(5)]
    for n, squatter in enumerate(squatters):
        assert host.admit(squatter.public_key, squatter.name) is None     # the transport lets them in ...
        _linked(host, float(n) / 10, squatter.public_key, squatter.name, "127.0.0.1")
    assert host.free_seats() == 1                                         # ... but none holds a seat
    real = Identity.generate("real")
    assert host.admit(real.public_key, real.name) is None
    _offered(host, real, 1.0)
    _receive(host, 1.0, real.public_key, _ready(host, real, []))
    assert [tag for tag, _ in _sent(host, real.public_key)] == ["offer", "header"]  # the seat went to it at once
    host.tick(1.0 + HELLO_S + 0.1)
    let_go = [e for e in host.drain() if isinstance(e, fx.Hangup)]
    assert {e.to for e in let_go} == {s.public_key for s in squatters}
    assert all(s.public_key not in host.links for s in squatters)


def test_a_joiner_that_stops_in_the_lobby_loses_its_seat() -> None:
    host = _host(players=3)
    slow, fast = Identity.generate("slow"), Identity.generate("fast")
    _offered(host, slow, 0.0)                    # offered, never ready
    host.tick(READY_S + 0.1)
    assert any(isinstance(e, fx.Hangup) and e.to == slow.public_key for e in host.drain())
    _offered(host, fast, 20.0)
    _receive(host, 20.0, fast.public_key, _ready(host, fast, []))
    other = Identity.generate("other")
    _offered(host, other, 20.0)
    _receive(host, 20.0, other.public_key, _ready(host, other, []))
    host.tick(20.0)
    assert host.header is not None
    _receive(host, 21.0, fast.public_key, wire.pack("start", host.header.hash, []))
    host.drain()
    host.tick(20.0 + START_S + 0.1)              # `other` never starts: it is let go, its seat comes free
    assert any(isinstance(e, fx.Hangup) and e.to == other.public_key for e in host.drain())
    assert host.header is None and host.free_seats() == 1


def test_another_players_key_cannot_be_taken_as_an_extra_seat() -> None:
    """(Before: a joiner registered another joiner's public key, public in every replay, as its own extra
    seat; the host accepted the duplicate and the victim, declining every header, was kept out.)"""
    host = _host(players=3)
    mallory, victim = Identity.generate("mallory"), Identity.generate("victim")
    _offered(host, mallory, 0.0)
    forged = seat_proof(mallory.private_key, host.identity.public_key, mallory.public_key, "victim")  # not its key
    _receive(host, 0.1, mallory.public_key, _ready(host, mallory, [["victim", victim.public_key, forged]]))
    refusal = _sent(host, mallory.public_key)[-1]
    assert refusal[0] == "refused" and refusal[1][0] == "key" and "no proof" in refusal[1][1]
    assert host.free_seats() == 2
    _offered(host, victim, 0.2)                  # the victim gets its seat
    _receive(host, 0.3, victim.public_key, _ready(host, victim, []))
    assert [tag for tag, _ in _sent(host, victim.public_key)][-1] == "offer"
    assert host.free_seats() == 1


def test_an_extra_seat_with_its_proof_is_taken_and_a_duplicate_key_is_refused() -> None:
    host = _host(players=3)
    anna = Identity.generate("anna")
    bot = anna.seat_key("anna-2")
    from replays.crypto import public_bytes
    _offered(host, anna, 0.0)
    proof = seat_proof(bot, host.identity.public_key, anna.public_key, "anna-2")
    _receive(host, 0.1, anna.public_key, _ready(host, anna, [["anna-2", public_bytes(bot), proof]]))
    assert host.free_seats() == 0
    host2 = _host(players=3)
    _offered(host2, anna, 0.0)
    own = seat_proof(anna.private_key, host2.identity.public_key, anna.public_key, "twice")
    _receive(host2, 0.1, anna.public_key, _ready(host2, anna, [["twice", anna.public_key, own]]))
    refusal = _sent(host2, anna.public_key)[-1]
    assert refusal[0] == "refused" and refusal[1][0] == "key"


def test_names_that_are_not_printable_are_refused_at_every_entry() -> None:
    host = _host(players=3)
    evil = Identity.generate("evil")
    assert "printable" in host.admit(evil.public_key, "\x1b]0;owned\x07")          # the connection's name
    assert "printable" in host.admit(evil.public_key, "a\u202eb")
    _offered(host, evil, 0.0)
    bot = evil.seat_key("x")
    from replays.crypto import public_bytes
    name = "\x1b[2Jx"
    proof = seat_proof(bot, host.identity.public_key, evil.public_key, name)
    _receive(host, 0.1, evil.public_key, _ready(host, evil, [[name, public_bytes(bot), proof]]))
    refusal = _sent(host, evil.public_key)[-1]
    assert refusal[0] == "refused" and refusal[1][0] == "name"
    # a header whose seat names carry escapes is declined by the joiner
    joiner = JoinMachine(Identity.generate("joiner"), BotDecider("random"), host_key=host.identity.public_key,
                         address="127.0.0.1:1", entropy=os.urandom, wall_clock=lambda: 0)
    game = host.game
    options = [[k, v] for k, v in sorted(host.options.items())]
    _receive(joiner, 0.0, host.identity.public_key, wire.pack("offer", wire.PROTO, game.id, game.rules_version, 2,
                                                            options, "t", wire.terms_message(TERMS), bytes(16)))
    header = Header.make(game.id, game.rules_version, 2, host.options,
                         [(host.identity.public_key, "\x1b[2Jhost"), (joiner.identity.public_key, "joiner")],
                         bytes(16), 0, TERMS)
    assert "name" in (joiner.lobby.check_header(header) or "")
