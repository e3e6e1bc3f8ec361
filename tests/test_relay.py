"""The relay is no authority (issue 32): what a joiner believes of another joiner rests on that joiner's own
signatures or on a direct link, never on the host's relay or its silence. In one process, on the simulator's
world (each test well under 2 s of CPU; the live N1 game over real processes is `test_attacks.py`'s row
`relay-equivocate`)."""

from __future__ import annotations

import logging

import pytest

from replays.certs import sign_ack, sign_cert
from simulator.run import Plan, simulate
from simulator.world import Faults


@pytest.fixture(autouse=True)
def quiet():
    logging.disable(logging.CRITICAL)
    yield
    logging.disable(logging.NOTSET)


def _run(seed: int, game: str, players: int, liars: dict[int, str], options: dict | None = None):
    world, report = simulate(Plan(seed, game, players, dict(options or {}), liars, Faults()))
    assert report.ok, "\n".join(report.violations)
    return world


def _seat(peer) -> int:
    return peer.machine.book.seat


def test_an_acknowledgement_is_checked_before_it_says_what_a_peer_holds() -> None:
    """`Following.on_ack` recorded the acknowledged number first: an unsigned (or altered) acknowledgement made
    a joiner believe another one held frames it never acknowledged, ask it for them and linger for it."""
    world = _run(3, "madagaskar", 3, {})
    me, other, host = world.peers[1], world.peers[2], world.peers[0]
    following, book = me.machine.following, me.machine.book
    key = other.identity.public_key
    before = following.holders.get(key, -1)
    seq, digest = len(book.frames) + 3, bytes(range(32))
    following.on_ack(key, seq, digest, bytes(64), bytes(64))          # signed by nobody
    cert = sign_cert(host.identity.private_key, book.header.session, seq, digest)
    following.on_ack(key, seq, digest, cert, bytes(64))               # the host's certificate, not the joiner's ack
    assert following.holders.get(key, -1) == before and (key, seq) not in following.acks
    following.on_ack(key, seq, digest, cert, sign_ack(other.identity.private_key, book.header.session, seq, digest))
    assert following.holders[key] == seq and (key, seq) in following.acks


@pytest.mark.parametrize(("seed", "game", "players", "liars", "options"), [
    (1, "madagaskar", 3, {0: "relay-equivocate:2"}, {}),
    (0, "catan", 4, {0: "relay-equivocate:3"}, {"max_rounds": "1"}),
    (3, "catan", 4, {0: "relay-equivocate:1", 1: "cosign-at-once"}, {"max_rounds": "1"}),
])
def test_a_host_that_keeps_the_joiners_apart_and_forks_them_frames_nobody(seed, game, players, liars, options) -> None:
    """N1: addresses blanked, the host's own move signed twice (one version per joiner), relayed acknowledgements
    dropped, then the host claims against the starved joiner. No fed joiner closes or co-signs that claim (the
    blamed seat reaches it only through the relay), so no honest copy shows an honest seat's forfeit, and none
    says one in its ending (the simulator's invariants hold too: `_run`)."""
    world = _run(seed, game, players, liars, options)
    honest = [p for p in world.peers if p.adversary is None]
    refused = [p for p in honest if any("reaches this peer only through the host's relay" in line for line in p.lines)]
    assert refused, [p.lines[-3:] for p in honest]
    for p in honest:
        ledger = p.machine.book.ledger
        claim = ledger.claim
        if claim is not None and claim.blamed != 0:
            assert ledger.status != "unfinished", (p.index, ledger.status)        # never a co-signed forfeit
            assert not p.machine.book.holds(claim.blamed) or ledger.status in ("claimed", "contested")
        assert p.outcome.code in (1, 3, 5), p.outcome
        if p.outcome.code == 3:
            assert "seat 0 forfeits" in p.outcome.message, p.outcome      # only the liar's forfeit is ever said


def test_a_seat_silent_on_a_direct_link_still_forfeits() -> None:
    """The other side of the rule: a joiner that stops sending but stays connected, with every direct link up,
    forfeits as before (the other joiner saw its silence itself)."""
    world = _run(4, "madagaskar", 3, {2: "vanish:act:1"})
    blamed = _seat(world.peers[2])
    for p in (world.peers[0], world.peers[1]):
        ledger = p.machine.book.ledger
        assert ledger.claim is not None and ledger.claim.blamed == blamed and ledger.status == "unfinished", \
            (p.index, ledger.status, p.lines[-3:])


def test_two_seats_still_end_in_the_silent_joiners_forfeit() -> None:
    """Two seats: the host's claim against the only joiner needs nobody else's co-signature."""
    world = _run(2, "quedah-merchant", 2, {1: "vanish:chain:1"})
    ledger = world.peers[0].machine.book.ledger
    assert ledger.claim is not None and ledger.claim.blamed == 1 and ledger.status == "unfinished"
