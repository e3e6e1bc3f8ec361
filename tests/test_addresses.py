"""A joiner's own signed address (netplay/protocol/addresses.py; issue 32): the statement is the joiner's
signature, bound to the host's key, the lobby id of the host's offer and its port, and refused when any of
them is altered or it is replayed to another host or lobby; a joiner receiving `peers` names the host's fault
for a missing, invalid, blanked or bent address, and never for a joiner that listens on no port. Cost: the
unit tests are milliseconds; the two simulated 3-seat Madagaskar games ~1.5 s of CPU each."""

from __future__ import annotations

import logging

import pytest

from netplay import wire
from netplay.identity import Identity
from netplay.protocol.addresses import check_entry, sign_address, statement_bytes, valid
from replays.crypto import fingerprint
from simulator.run import Plan, simulate

HOST, OTHER_HOST = Identity.generate("host"), Identity.generate("other-host")
JOINER = Identity.generate("joiner")
LOBBY, OTHER_LOBBY = bytes(range(16)), bytes(range(1, 17))


def _statement(port: int, host: Identity = HOST, lobby: bytes = LOBBY) -> bytes:
    return sign_address(JOINER.private_key, host.public_key, lobby, JOINER.public_key, port)


def _address(port: int) -> str:
    return f"192.0.2.8:{port}/{fingerprint(JOINER.public_key)}"


def test_the_statement_is_the_joiners_signature_bound_to_host_lobby_and_port() -> None:
    statement = _statement(7003)
    assert statement_bytes(HOST.public_key, LOBBY, JOINER.public_key, 7003)[-2:] == (7003).to_bytes(2, "big")
    assert valid(JOINER.public_key, HOST.public_key, LOBBY, 7003, statement)
    assert not valid(JOINER.public_key, HOST.public_key, LOBBY, 7004, statement)          # another port
    assert not valid(JOINER.public_key, OTHER_HOST.public_key, LOBBY, 7003, statement)    # replayed to another host
    assert not valid(JOINER.public_key, HOST.public_key, OTHER_LOBBY, 7003, statement)    # ... or another lobby
    assert not valid(HOST.public_key, HOST.public_key, LOBBY, 7003, statement)            # not the host's own
    assert not valid(JOINER.public_key, HOST.public_key, LOBBY, 7003, bytes(64))


def test_a_faithful_entry_is_nobodys_fault_and_every_bent_one_is_the_hosts() -> None:
    key, host = JOINER.public_key, HOST.public_key
    assert check_entry(2, key, host, LOBBY, _address(7003), 7003, _statement(7003)).fault is None
    assert check_entry(2, key, host, LOBBY, "", 0, _statement(0)).fault is None      # listens on none: no fault
    faults = [check_entry(2, key, host, LOBBY, "", 7003, _statement(7003)),              # blanked
              check_entry(2, key, host, LOBBY, _address(9999), 7003, _statement(7003)),  # another port
              check_entry(2, key, host, LOBBY, "", 0, b""),                               # no statement
              check_entry(2, key, host, LOBBY, "", 0, _statement(7003)),                  # the port rewritten
              check_entry(2, key, host, LOBBY, _address(7003), 7003, _statement(7003, OTHER_HOST)),  # replayed
              check_entry(2, key, host, OTHER_LOBBY, _address(7003), 7003, _statement(7003)),
              check_entry(2, key, host, LOBBY, f"192.0.2.8:7003/{fingerprint(host)}", 7003, _statement(7003))]
    assert all(c.fault and c.fault.startswith("the host withheld seat 2's own address") for c in faults), faults


@pytest.mark.parametrize("raw", [
    ["peers", [[1, bytes(32), "a"]]],                           # protocol 3's entry
    ["peers", [[1, bytes(32), "a", 70_000, bytes(64)]]],
    ["peers", [[1, bytes(32), "a", 1, bytes(63)]]],
    ["ready", [], 0, bytes(63)],
    ["offer", 4, "g", "1", 2, [], "v", [1, None, None, 1, 1], bytes(15)],
])
def test_malformed_statements_are_refused_on_the_wire(raw: list) -> None:
    import msgpack
    with pytest.raises(wire.Malformed):
        wire.unpack(msgpack.packb(raw, use_bin_type=True))


@pytest.fixture
def quiet():
    logging.disable(logging.CRITICAL)
    yield
    logging.disable(logging.NOTSET)


def test_a_host_that_blanks_the_addresses_is_named_by_its_joiners(quiet) -> None:
    """The simulator's `relay-equivocate` host blanks every address of `peers` (passing the statements on):
    each joiner says the host withheld the other joiner's own signed address, and every promise holds."""
    world, report = simulate(Plan(16, "madagaskar", 3, {}, {0: "relay-equivocate:2"}))
    assert report.ok, "\n".join(report.violations)
    _, *joiners = world.peers
    for joiner in joiners:
        other = 3 - joiner.machine.book.seat
        assert any(f"the host withheld seat {other}'s own address: seat {other} signed that it listens on port"
                   in line and "the host's fault" in line for line in joiner.lines), joiner.lines[:12]


def test_an_honest_host_is_never_said_to_withhold_an_address(quiet) -> None:
    """Honest host, the joiners' direct link cut (they play through the relay): nobody names the host."""
    from simulator.world import Faults
    world, report = simulate(Plan(11, "madagaskar", 3, {}, {}, Faults(partition=(1, 2))))
    assert report.ok, "\n".join(report.violations)
    assert not any("withheld" in line for p in world.peers for line in p.lines)


class _Table:
    """A host and its joiners in one process: each Send delivered at once, the joiners' direct links never up
    (every pair relays), so what a joiner concludes of `peers` is all that is looked at."""

    def __init__(self, host_also: dict[int, str], joiners: list[list[str]], players: int = 4) -> None:
        from bots.decider import BotDecider
        from netplay.protocol.machines import HostMachine, JoinMachine
        from replays.header import Terms
        terms = Terms.agreed(10_000, None, 60_000, 500, 5_000, 0)
        self.host = HostMachine(Identity.generate("host"), BotDecider("random"), "catan", players=players,
                                terms=terms, also={s: (n, BotDecider("random")) for s, n in host_also.items()},
                                entropy=__import__("os").urandom, wall_clock=lambda: 1_700_000_000)
        self.joiners = [JoinMachine(Identity.generate(f"joiner{i}"), BotDecider("random"),
                                    host_key=self.host.identity.public_key, address="10.0.0.1:1",
                                    also=[(n, BotDecider("random")) for n in more],
                                    entropy=__import__("os").urandom, wall_clock=lambda: 1_700_000_000,
                                    mesh_port=8000 + i, listen=lambda i=i: 8000 + i)
                        for i, more in enumerate(joiners)]
        self.by_key = {m.identity.public_key: m for m in (self.host, *self.joiners)}
        self.lines: dict[bytes, list[str]] = {k: [] for k in self.by_key}
        self.bend = lambda tag, fields: fields     # the host's `peers`, as a test rewrites it
        self.now: float | None = None              # the machines' clock: None before the links are made

    def run(self, until: float) -> None:
        """Deliver everything, a quarter second at a time, until `until` (a second call goes on from there)."""
        from netplay.protocol import effects as fx
        host_key = self.host.identity.public_key
        if self.now is None:
            for i, joiner in enumerate(self.joiners):
                self.host.linked(0.0, joiner.identity.public_key, joiner.identity.name, f"10.0.0.{i + 2}")
                joiner.linked(0.0, host_key, "host")
            self.now = 0.0
        now = self.now
        while now < until:
            for key, machine in self.by_key.items():
                machine.tick(now)
                for effect in machine.drain():
                    if isinstance(effect, fx.Say):
                        self.lines[key].append(effect.line)
                    elif isinstance(effect, fx.Send) and effect.to in self.by_key:
                        data = effect.data
                        if key == host_key:
                            tag, fields = wire.unpack(data)
                            if tag == "peers":
                                data = wire.pack("peers", self.bend(tag, fields[0]))
                        self.by_key[effect.to].receive(now, key, data)
            now += 0.25
        self.now = now

    def faults(self) -> list[str]:
        return [line for m in self.joiners for line in self.lines[m.identity.public_key] if "the host's fault" in line]


@pytest.mark.parametrize("host_also, joiners", [
    ({1: "host-2"}, [[], []]),            # the host's extra seat: listed with the host's key and that seat's proof
    ({}, [["anna-2"], []]),                # a joiner's extra seat: listed with that joiner's key and the proof
    ({}, [[], [], []]),                    # three joiners, no extra seat
])
def test_an_honest_host_lists_every_seat_and_nobody_names_it(quiet, host_also, joiners) -> None:
    table = _Table(host_also, joiners)
    table.run(until=3.0)
    assert all(j.header is not None for j in table.joiners)
    assert table.faults() == []


def test_a_host_that_leaves_a_joiners_entry_out_is_named(quiet) -> None:
    """(Before, protocol 4: a joiner could not tell a joiner's seat left out of `peers` from an extra seat of
    the host's, so the pair relayed and the host was named by nobody.)"""
    table = _Table({}, [[], [], []])
    table.bend = lambda tag, entries: [e for e in entries if e[0] != 3]
    table.run(until=3.0)
    seats = {j.book.seat for j in table.joiners}
    assert seats == {1, 2, 3}
    named = [line for j in table.joiners for line in table.lines[j.identity.public_key]
             if "the host left seat 3 out of `peers`" in line and "the host's fault" in line]
    assert len(named) == 2           # every joiner but the one at seat 3


def test_a_host_that_passes_a_joiners_seat_off_as_its_own_extra_seat_is_named(quiet) -> None:
    """The host gives seat 3 (an honest joiner's) to its own key with a proof it cannot make, or none."""
    for proof in (b"", bytes(64)):
        table = _Table({}, [[], [], []])
        host_key = table.host.identity.public_key
        table.bend = lambda tag, entries, p=proof, k=host_key: [[e[0], k, "", 0, p] if e[0] == 3 else e
                                                               for e in entries]
        table.run(until=3.0)
        named = [line for j in table.joiners for line in table.lines[j.identity.public_key]
                 if "the host gives seat 3 to another peer" in line and "the host's fault" in line]
        assert len(named) == 2, table.faults()


def test_an_extra_seat_given_to_a_key_that_holds_no_seat_is_named(quiet) -> None:
    stranger = Identity.generate("stranger").public_key
    table = _Table({1: "host-2"}, [[], []])
    table.bend = lambda tag, entries: [[e[0], stranger, *e[2:]] if e[0] == 1 else e for e in entries]
    table.run(until=3.0)
    assert len([f for f in table.faults() if "a key that holds no seat of the header" in f]) == 2, table.faults()


def test_a_lone_joiner_starts_at_once_and_waits_for_links_only_when_peers_is_bent(quiet) -> None:
    """The only joiner of a 3-seat game (the host plays the third seat) has no direct link to wait for: it
    says `start` as soon as the host's `peers` says so. (Before: it waited MESH_S, 5 s, at every game.) A
    `peers` judged bent still gets the full wait: a host gains no earlier start by lying."""
    from netplay.protocol.lobby import MESH_S
    table = _Table({2: "host-2"}, [[]], players=3)
    table.run(until=1.0)
    (joiner,) = table.joiners
    assert joiner.lobby.start_sent and table.faults() == []
    bent = _Table({2: "host-2"}, [[]], players=3)
    bent.bend = lambda tag, entries: [e for e in entries if e[0] != 2]      # the host's own extra seat left out
    bent.run(until=1.0)
    (joiner,) = bent.joiners
    assert not joiner.lobby.start_sent and bent.faults(), bent.faults()
    bent.run(until=MESH_S + 1.0)
    assert joiner.lobby.start_sent
