"""Fuzzing (hypothesis) of the session's state machines, past decoding: well-formed but hostile session
messages from a seated peer, fed to the host's machine (`HostMachine.receive`) and the joiner's
(`JoinMachine.receive`) mid-game; what they would send is only recorded. Every kind of `netplay.wire`
(offer, hello, ready, start, frame, ack, acked, reject, synced, chat, dispute, rematch, decline,
refused, header) with wrong types, wrong and absent seats,
huge and negative ints, unknown and surplus fields, oversized texts, garbage and replayed or forged
frames signed by the hostile peer's own key (claims and contests included).

What must hold: the handler never raises (its documented refusal is a logged drop; a bad frame is a
`reject` sent back, a bad dispute is logged and play goes on); the ledger never changes (the host
awaits its own move, so no peer frame is due and every claim is premature); the session does not
end; each message is handled within a bound on CPU time. `bye` is left out, and `refused` to the joiner: the
peer's leaving ends the session by design (a host can always walk away; that is the timeout's case).

Quick by default (well under 20 s); `NETPLAY_LONG=1` runs ten times as many. Inputs run are printed."""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.fuzzcounts import report_counts

from netplay import wire
from netplay.protocol import effects as fx
from replays.frames import KINDS, make_frame
from simulator.deciders import SimBot
from simulator.world import World

LONG = os.environ.get("NETPLAY_LONG") == "1"
RUNS: Counter[str] = Counter()
BOUND_S = 2.0   # one hostile message, handled


def examples(quick: int) -> settings:
    return settings(max_examples=quick * (10 if LONG else 1), deadline=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


class _Waits:
    """The host's decider: a person who never decides (so the game stops at the host's move)."""

    def prepare(self, game: Any) -> None:
        pass

    def decide(self, *args: Any) -> None:
        return None

    def rematch(self, games_done: int) -> bool:
        return False


class Table:
    """A Madagaskar game between a host machine and a joiner machine on the simulator's network (no sockets,
    no threads), stopped where the host (a person) is to move; the joiner is "mallory"."""

    def __init__(self) -> None:
        world = World(7, "madagaskar", 2, deciders=lambda index, w: _Waits() if index == 0 else SimBot(w, 7))
        world.start()

        def host_to_move() -> bool:
            book = world.peers[0].machine.book
            decision = None if book is None else book.ledger.decision()
            return decision is not None and decision[0] == 0

        world.run(lambda: host_to_move() and world.now > 5)
        assert host_to_move(), "the game did not reach the host's move"
        self.world = world
        self.host, self.join = world.peers[0].machine, world.peers[1].machine
        self.joiner_id = world.peers[1].identity
        self.sent: list[bytes] = []

    def snapshot(self) -> tuple:
        return tuple((len(m.book.frames), m.book.last_hash, m.outcome) for m in (self.host, self.join))


@pytest.fixture(scope="module")
def table() -> Iterator[Table]:
    yield Table()


@pytest.fixture(scope="module", autouse=True)
def report(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    report_counts(request, f"session-handler fuzz inputs run ({'NETPLAY_LONG' if LONG else 'quick'})", RUNS,
                  "fuzz-session-counts.txt")


# -- hostile values -------------------------------------------------------------------------------

HUGE = [2**63 - 1, -(2**63), 2**64 - 1, -1, 0, 1, 2, 3, 7, 10**12]
ints = st.one_of(st.sampled_from(HUGE), st.integers(-5, 300))
scalars = st.one_of(ints, st.booleans(), st.none(), st.text(max_size=40), st.binary(max_size=80),
                    st.sampled_from([b"", bytes(32), bytes(64), "x" * 600, b"\xff" * 300]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=10)

KIND_NAMES = sorted(set(wire.SHAPES) - {"bye"})


@st.composite
def frames(draw, table: Table) -> bytes:
    """A frame as the hostile joiner can sign it: its own key, any kind, seq, prev, seat and body."""
    ledger = table.host.book.ledger
    seq = draw(st.one_of(st.just(len(ledger.frames)), st.just(len(ledger.frames) - 1), ints.filter(lambda i: i >= 0)))
    # never chained to the last frame: a signed, well-placed frame that breaks a rule is evidence, and the
    # peer stops with a dispute naming the signer (by design; the attack suite covers it), ending this table
    prev = draw(st.sampled_from([bytes(32), ledger.frames[0].hash]))
    seat = draw(st.sampled_from([0, 1, 2, 255]))
    kind = draw(st.sampled_from(KINDS))
    body = draw(st.lists(st.one_of(st.integers(-3, 50), st.text(max_size=12), st.binary(max_size=40),
                                   st.sampled_from(["step 0 1", "resign", "offer draw"])), max_size=4))
    digest = draw(st.sampled_from([bytes(32), ledger.last_hash]))
    session = draw(st.sampled_from([table.host.book.header.session, bytes(16)]))
    try:
        frame = make_frame(table.joiner_id.private_key, session, seq, prev, seat, kind, body, digest)
    except Exception:  # the builder itself refuses (an int too large to encode): a replayed frame instead
        return ledger.frames[-1].encode()
    return frame.encode()


@st.composite
def messages(draw, table: Table, to: str = "host") -> bytes:
    tag = draw(st.sampled_from([k for k in KIND_NAMES if to == "host" or k != "refused"] + ["nonsense"]))
    shape = wire.SHAPES.get(tag, ())
    fields: list = []
    for kind in shape:
        if draw(st.integers(0, 3)) == 0:
            fields.append(draw(values))     # the wrong type: a dropped message
            continue
        kind = kind if isinstance(kind, type) else draw(st.sampled_from(kind))
        if kind is int:
            fields.append(draw(ints))
        elif kind is str:
            fields.append(draw(st.one_of(st.text(max_size=30), st.just("x" * 600))))
        elif kind is bytes:
            fields.append(draw(st.one_of(frames(table), st.binary(max_size=64), st.sampled_from([bytes(32), bytes(64)]),
                                         st.just(table.host.book.frames[-1].encode()))))
        elif kind is list:
            fields.append(draw(st.lists(values, max_size=3)))
        else:
            fields.append(None)
    if tag == "frame" and draw(st.booleans()):
        fields[:1] = [draw(frames(table))]
    extra = draw(st.integers(0, 2))
    fields += [draw(values) for _ in range(extra if draw(st.integers(0, 4)) == 0 else 0)]   # unknown fields
    return msgpack.packb([tag, *fields], use_bin_type=True)


def _hostile(table: Table, data: bytes, to: str) -> None:
    before = table.snapshot()
    start = time.process_time()
    machine, sender = (table.host, table.joiner_id.public_key) if to == "host" else (table.join, table.host.identity
                                                                                   .public_key)
    machine.receive(table.world.now, sender, data)
    machine.tick(table.world.now)            # then the tick every shell gives after an input
    table.sent += [e.data for e in machine.drain() if isinstance(e, fx.Send)]
    assert time.process_time() - start < BOUND_S, "a message took too long to handle"
    after = table.snapshot()
    assert after == before, f"a hostile message changed the ledger or ended the session: {before} -> {after}"
    RUNS[f"{to} handler"] += 1


@st.composite
def frame_messages(draw, table: Table) -> bytes:
    """A `frame` message of the right shape: a forged, foreign, replayed or out-of-turn frame."""
    return wire.pack("frame", draw(frames(table)), draw(st.sampled_from([b"", bytes(64)])))


@st.composite
def batches(draw, table: Table, to: str) -> list[bytes]:
    return draw(st.lists(st.one_of(messages(table, to), frame_messages(table)), min_size=1, max_size=4))


@pytest.mark.parametrize("to", ["host", "joiner"])
def test_each_handler_survives_hostile_messages(table: Table, to: str) -> None:
    @examples(150)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        for message in data.draw(batches(table, to)):
            _hostile(table, message, to)
    run()
    if to == "host":   # the joiner answers a bad frame by logging it; the host sends a reject
        tags = Counter(wire.unpack(data)[0] for data in table.sent)
        assert tags["reject"], f"no hostile frame was answered with a reject: {tags}"


def test_hostile_disputes_are_logged_and_play_goes_on(table: Table) -> None:
    """A dispute carrying no proof, or a valid frame that proves nothing, never stops a peer."""
    last = table.host.book.frames[-1].encode()
    for evidence in (b"", bytes(64), last, b"\x93" + last[:40]):
        for to in ("host", "joiner"):
            _hostile(table, wire.pack("dispute", evidence, "you cheated"), to)
    assert table.host.outcome is None and table.join.outcome is None

