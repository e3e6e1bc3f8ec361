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
