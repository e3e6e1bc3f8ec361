"""A joiner knows its own frame when the host's sequenced copy of it comes back (issue 37).

A joiner sends its frame to the host and applies it only when it comes back sequenced (docs/protocol.md,
"Frame flow"). Its ledger built, signed and checked that frame a moment before, on the state it still holds;
the copy off the wire has no `Frame.checked`, so it used to be checked all over again (signature, engine
play, state digest). Now a copy with the hash and the signature of the frame in flight is accepted as
built. Anything else in that slot (another signature over the same bytes, other bytes signed by our seat's
key) is checked in full and refused or disputed as before; every other peer and the audit check every frame
in full whatever happens here."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engines.game import Game
from netplay import wire
from netplay.protocol import effects as fx
from netplay.protocol.core import EXIT_DISPUTE
from replays import frames as frames_module
from replays.certs import sign_cert
from replays.frames import Frame, make_frame
from simulator.deciders import SimBot
from simulator.world import World


class _Counts:
    """Signature checks of frames, engine plays and state digests, while counting."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.verify = self.play = self.digest = 0
        self.on = False
        verify, play, digest = frames_module.verify, Game.play, Game.digest

        def counted_verify(*args: Any) -> bool:
            self.verify += self.on
            return verify(*args)

        def counted_play(game: Game, *args: Any) -> Any:
            self.play += self.on
            return play(game, *args)

        def counted_digest(game: Game, state: Any) -> bytes:
            self.digest += self.on
            return digest(game, state)
        monkeypatch.setattr(frames_module, "verify", counted_verify)
        monkeypatch.setattr(Game, "play", counted_play)
        monkeypatch.setattr(Game, "digest", counted_digest)

    def total(self) -> tuple[int, int, int]:
        return self.verify, self.play, self.digest


def _in_flight(players: int, seed: int = 5) -> tuple[World, Any, Frame]:
    """A game stopped just after a joiner sent its own `act` frame, before the host's copy came back."""
    world = World(seed, "madagaskar", players, deciders=lambda index, w: SimBot(w, seed))
    world.start()
    joiner = world.peers[1]

    def sent_a_move() -> bool:
        machine = joiner.machine
        pending = machine.following.pending if machine is not None else None
        return pending is not None and pending.kind == "act" and pending.seq > 4
    world.run(sent_a_move)
    assert sent_a_move(), "the joiner never sent a move"
    return world, joiner, joiner.machine.following.pending


def _echo(world: World, frame: Frame) -> bytes:
    """The host's `frame` message with `frame`'s bytes (certified, with three seats)."""
    host = world.peers[0]
    cert = b"" if world.players <= 2 else sign_cert(host.identity.private_key, frame.session, frame.seq, frame.hash)
    return wire.pack("frame", frame.encode(), cert)


def _deliver(world: World, joiner: Any, message: bytes, counts: _Counts) -> list:
    """The message to the joiner's machine from the host (its handler alone: what the tick then does is not
    counted); what it asked to send."""
    machine = joiner.machine
    counts.on = True
    try:
        machine.receive(world.now, world.peers[0].key, message)
    finally:
        counts.on = False
    return [wire.unpack(e.data) for e in machine.drain() if isinstance(e, fx.Send)]


@pytest.mark.parametrize("players", [2, 3])
def test_a_joiner_takes_its_own_frame_back_without_checking_it_again(players: int,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    world, joiner, pending = _in_flight(players)
    book = joiner.machine.book
    counts = _Counts(monkeypatch)
    sent = _deliver(world, joiner, _echo(world, pending), counts)
    assert book.frames[-1].hash == pending.hash and book.frames[-1].checked is None   # kept bare, as always
    assert joiner.machine.following.pending is None
    assert ("ack", pending.seq) in [(tag, fields[0]) for tag, fields in sent]
    assert counts.total() == (0, 0, 0), f"own echo checked again: {counts.total()} (verify, play, digest)"


def test_a_frame_of_ours_seen_for_the_first_time_is_checked_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: the very same bytes, not the frame in flight (the joiner forgot it), cost the full check;
    so the zero counts above are the shortcut's."""
    world, joiner, pending = _in_flight(2)
    joiner.machine.following.pending = None
    counts = _Counts(monkeypatch)
    _deliver(world, joiner, _echo(world, pending), counts)
    assert joiner.machine.book.frames[-1].hash == pending.hash
    assert counts.verify == 1 and counts.play >= 1 and counts.digest >= 1, counts.total()


def test_our_frame_with_another_signature_is_checked_and_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same signed bytes (the same hash) under another signature: the signature is checked, fails, and the
    copy is dropped; the true copy then still comes back as ours."""
    world, joiner, pending = _in_flight(2)
    book = joiner.machine.book
    before = len(book.frames)
    forged = replace(pending.bare(), signature=bytes(reversed(pending.signature)))
    assert forged.hash == pending.hash and forged.encode() != pending.encode()
    counts = _Counts(monkeypatch)
    _deliver(world, joiner, _echo(world, forged), counts)
    assert counts.verify == 1, counts.total()
    assert len(book.frames) == before and joiner.machine.outcome is None
    assert joiner.machine.following.pending is pending
    counts.verify = counts.play = counts.digest = 0
    _deliver(world, joiner, _echo(world, pending), counts)
    assert book.frames[-1].hash == pending.hash and counts.total() == (0, 0, 0)


@pytest.mark.parametrize("players", [2, 3])
def test_other_bytes_of_our_seat_in_our_slot_are_checked_and_disputed(players: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Another frame for the slot of ours in flight, signed with our seat's key (an illegal move): checked in
    full, the engine refuses it, the joiner stops on the dispute as it would for any seat's frame."""
    world, joiner, pending = _in_flight(players)
    key = joiner.identity.private_key
    other = make_frame(key, pending.session, pending.seq, pending.prev, pending.seat, "act", ("no such move 99",),
                       pending.digest)
    counts = _Counts(monkeypatch)
    _deliver(world, joiner, _echo(world, other), counts)
    assert counts.verify == 1 and counts.play >= 1, counts.total()
    assert joiner.machine.book.ledger.status == "disputed"
    assert joiner.machine.outcome is not None and joiner.machine.outcome.code == EXIT_DISPUTE
