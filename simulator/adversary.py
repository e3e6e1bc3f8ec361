"""Lying peers: strategies an adversary seat plays, around an otherwise honest state machine.

An adversary holds its seat's keys and knows what its machine knows, so it can sign anything: it hooks
its machine's outgoing effects (drop, delay, alter, duplicate messages), its incoming messages, its
decisions and its own frames, and may inject messages at any tick. Every strategy works for the host
and for a joiner unless its docstring says otherwise; `STRATEGIES` names them all. The same classes
drive a lying peer over real processes (tests/session_peer.py), so an attack found here can be played
against the real `netplay host` / `netplay join`.

The hooks take the peer's machine; `machine.now` is the peer's clock.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack

from netplay import wire
from netplay.deadlines import AUTOMATIC, DECISIONS
from netplay.protocol import effects as fx
from replays import codec
from replays.certs import sign_cert
from replays.frames import Frame, decode_frame, make_frame

__all__ = ["Adversary", "STRATEGIES", "make"]


def _unpack(data: bytes) -> tuple[str, list] | None:
    try:
        return wire.unpack(data)
    except wire.Malformed:
        return None


def _own_key(machine: Any, seat: int) -> Any:
    return machine.book.ledger_for(seat).me.key


def _resign(machine: Any, frame: Frame, body: Any = None, seq: int | None = None, prev: bytes | None = None,
            kind: str | None = None, digest: bytes | None = None) -> Frame:
    """`frame` with some fields changed, properly signed with its seat's key (a lie, not a forgery)."""
    return make_frame(_own_key(machine, frame.seat), frame.session, frame.seq if seq is None else seq,
                      frame.prev if prev is None else prev, frame.seat, kind or frame.kind,
                      frame.body if body is None else body, frame.digest if digest is None else digest)


class Adversary:
    """Honest by default: subclasses override what they lie about."""

    name = "honest"
    hosts_only = False
    joiners_only = False
    min_players = 1

    def __init__(self, rng: random.Random, nth: int = 1):
        self.rng = rng
        self.nth = nth
        self.counts: dict[str, int] = {}
        self.done = False

    def count(self, what: str) -> int:
        self.counts[what] = self.counts.get(what, 0) + 1
        return self.counts[what]

    def attach(self, machine: Any) -> None:
        pass

    def outgoing(self, machine: Any, effects: list) -> list:
        return effects

    def incoming(self, machine: Any, sender: bytes, data: bytes) -> bytes | None:
        return data

    def tick(self, machine: Any) -> None:
        pass

    @staticmethod
    def awaited(machine: Any) -> tuple[str, int] | None:
        book = machine.book
        if book is None or machine.phase != "play" or book.ledger.closed:
            return None
        return book.ledger.awaited()


class _Never:
    def prepare(self, game: Any) -> None:
        pass

    def decide(self, *args: Any) -> None:
        return None

    def rematch(self, games_done: int) -> bool:
        return False


class NeverDecide(Adversary):
    """A connected seat that never makes a decision (before: never claimable without a clock)."""

    name = "never-decide"

    def attach(self, machine: Any) -> None:
        never = _Never()
        machine.decider_for = lambda seat: never


class StallDecisions(Adversary):
    """Every decision made just before its limit runs out (by the liar's own clock)."""

    name = "stall-decisions"

    def attach(self, machine: Any) -> None:
        honest = machine.decider_for
        margin = self.rng.uniform(0.05, 0.6)

        def decider_for(seat: int) -> Any:
            inner = honest(seat)

            class Slow:
                def prepare(self, game: Any) -> None:
                    inner.prepare(game)

                def decide(self, game: Any, state: Any, seat: int, legal: list[str]) -> str | None:
                    nxt = Adversary.awaited(machine)
                    remaining = machine.deadlines.remaining(nxt[0], seat, machine.now) if nxt else None
                    if remaining is not None and remaining > margin:
                        return None
                    return inner.decide(game, state, seat, legal)

                def rematch(self, games_done: int) -> bool | None:
                    return inner.rematch(games_done)
            return Slow()
        machine.decider_for = decider_for


class StallAutomatic(Adversary):
    """Every frame that needs no decision sent just before its deadline (by the liar's own clock), so that
    nothing but a sum of lateness ever makes it claimable."""

    name = "stall-automatic"

    def attach(self, machine: Any) -> None:
        self.held: list[tuple[Frame, int]] = []
        self.margin = self.rng.uniform(0.02, 0.3)
        emit, blocked = machine.emit, machine.blocked
        self._emit = emit

        def hold(frame: Frame) -> None:
            if frame.kind in AUTOMATIC and not self.held:
                self.held.append((frame, len(machine.book.frames)))
            else:
                emit(frame)
        machine.emit = hold
        machine.blocked = lambda: bool(self.held) or blocked()

    def tick(self, machine: Any) -> None:
        if not getattr(self, "held", None):
            return
        frame, at = self.held[0]
        book = machine.book
        if book is None or len(book.frames) != at:
            self.held.clear()           # the ledger moved on (a claim): build it again
            return
        remaining = machine.deadlines.remaining(frame.kind, frame.seat, machine.now)
        if remaining is None or remaining <= self.margin:
            self.held.clear()
            self._emit(frame)
            machine.work()


class Withhold(Adversary):
    """Never send its `nth` own frame of `kind` (nor any answer for it): the others must claim."""

    name = "withhold"

    def __init__(self, rng: random.Random, nth: int = 1, kind: str = "chain", contest: bool = True):
        super().__init__(rng, nth)
        self.kind, self.contest = kind, contest

    def attach(self, machine: Any) -> None:
        emit, blocked = machine.emit, machine.blocked
        self.slot: int | None = None

        def withhold(frame: Frame) -> None:
            if frame.kind == self.kind and self.slot is None and self.count(frame.kind) == self.nth:
                self.slot = len(machine.book.frames)
            if self.slot is not None and frame.kind != "contest":
                if not self.contest or frame.kind not in ("timeout",):
                    return
            if frame.kind == "contest" and not self.contest:
                return
            emit(frame)
        machine.emit = withhold
        machine.blocked = lambda: self.slot is not None or blocked()


class Tamper(Adversary):
    """Its `nth` own frame of `kind` sent with a changed body, properly signed: an illegal action, a wrong
    value. Caught live by every peer as the liar's dispute."""

    name = "tamper"

    def __init__(self, rng: random.Random, nth: int = 1, kind: str = "act"):
        super().__init__(rng, nth)
        self.kind = kind

    def attach(self, machine: Any) -> None:
        emit = machine.emit

        def tamper(frame: Frame) -> None:
            if frame.kind == self.kind and self.count("seen") == self.nth:
                frame = _resign(machine, frame, body=_bent(frame.body, self.rng))
                if machine.role == "host":     # its own ledger would refuse it: send it past its ledger
                    machine.write(frame)
                    for link in machine.sequencer.joiners():
                        machine.send(link.key, "frame", frame.encode(), machine.sequencer.cert(frame))
                    machine.finish(4, "sent a tampered frame")
                    return
            emit(frame)
        machine.emit = tamper


def _bent(body: tuple, rng: random.Random) -> tuple:
    """A body of the same shape with one value changed."""
    items = list(body)
    if not items:
        return ("bent",)
    i = rng.randrange(len(items))
    value = items[i]
    if isinstance(value, str):
        items[i] = value + " zz" if value else "zz"
    elif isinstance(value, bytes):
        items[i] = bytes(b ^ 0x5A for b in value[:1]) + value[1:] if value else b"\x01"
    elif isinstance(value, bool):
        items[i] = not value
    elif isinstance(value, int):
        items[i] = value + 1
    elif isinstance(value, tuple):
        items[i] = _bent(value, rng) if value else ("x",)
    else:
        items[i] = 1
    return tuple(items)


class ClaimEarly(Adversary):
    """Claims at once (no deadline) that another seat withheld its awaited frame (of `kind`, if given)."""

    name = "claim-early"

    def __init__(self, rng: random.Random, nth: int = 1, kind: str = "", close: bool = False):
        super().__init__(rng, nth)
        self.kind, self.close = kind, close

    def tick(self, machine: Any) -> None:
        nxt = Adversary.awaited(machine)
        book = machine.book
        if nxt is None or book.holds(nxt[1]) or (self.kind and nxt[0] != self.kind) or machine.blocked():
            return
        if book.ledger.status != "play" or self.count("chances") != self.nth * 3:
            return
        frame = book.ledger.build_timeout()
        machine.emit(frame)
        if self.close and machine.role == "host":
            self.closing = True


class CloseEarly(ClaimEarly):
    """(host) Claims at once against another seat, drops its answers, and closes the claim at once: the
    attempt to make an honest seat's own copy show its forfeit."""

    name = "close-early"
    hosts_only = True

    def __init__(self, rng: random.Random, nth: int = 1, kind: str = ""):
        super().__init__(rng, nth, kind, close=True)
        self.victim: int | None = None

    def tick(self, machine: Any) -> None:
        book = machine.book
        if book is None or machine.phase != "play":
            return
        ledger = book.ledger
        if self.victim is None:
            before = len(ledger.frames)
            super().tick(machine)
            if len(ledger.frames) > before and ledger.claim is not None:
                self.victim = ledger.claim.blamed
        if ledger.status == "claimed" and ledger.claim.blamed == self.victim:
            frame = book.ledger.build_after_claim() if book.holds(ledger.expects()[1][1]) else None
            if frame is not None:
                machine.emit(frame)

    def incoming(self, machine: Any, sender: bytes, data: bytes) -> bytes | None:
        if self.victim is None or machine.book is None:
            return data
        msg = _unpack(data)
        if msg and msg[0] == "frame":
            try:
                frame = decode_frame(msg[1][0])
            except codec.FormatError:
                return data
            if frame.seat == self.victim and frame.kind != "contest":
                return None
        return data


class AheadThenClaim(Adversary):
    """(host) Sends a victim a frame numbered a few ahead, never says `synced` to it again and drops its
    `want`s, then claims against it and closes the claim as soon as it may: the resume trick of the
    second attack campaign."""

    name = "ahead-then-claim"
    hosts_only = True
    min_players = 2

    def __init__(self, rng: random.Random, nth: int = 1):
        super().__init__(rng, nth)
        self.victim_key: bytes | None = None
        self.claimed = False

    def tick(self, machine: Any) -> None:
        book = machine.book
        if book is None or machine.phase != "play" or book.ledger.closed:
            return
        ledger = book.ledger
        if self.victim_key is None:
            if len(ledger.frames) < 3 + 4 * self.nth:
                return
            links = sorted((link for link in machine.links.values() if link.seat is not None and link.up),
                           key=lambda link: link.seat)
            if not links:
                return
            victim = self.rng.choice(links)
            self.victim_key = victim.key
            seat = machine.host_seat_number
            ahead = make_frame(_own_key(machine, seat), book.header.session, len(ledger.frames) + 3, bytes(32), seat,
                               "chain", (bytes(32), None), bytes(32))
            machine.send(victim.key, "frame", ahead.encode(), machine.sequencer.cert(ahead))
            return
        nxt = ledger.claimable()
        victim_seats = next((link.seats for link in machine.links.values() if link.key == self.victim_key), [])
        if not self.claimed and nxt is not None and nxt[1] in victim_seats and not machine.blocked():
            self.claimed = True
            machine.emit(ledger.build_timeout())
        if ledger.status == "claimed" and ledger.claim.blamed in victim_seats and book.holds(ledger.expects()[1][1]):
            frame = ledger.build_after_claim()
            if frame is not None:
                machine.emit(frame)

    def outgoing(self, machine: Any, effects: list) -> list:
        if self.victim_key is None:
            return effects
        out = []
        for effect in effects:
            if isinstance(effect, fx.Send) and effect.to == self.victim_key:
                msg = _unpack(effect.data)
                if msg and msg[0] in ("synced",):
                    continue
            out.append(effect)
        return out

    def incoming(self, machine: Any, sender: bytes, data: bytes) -> bytes | None:
        if sender == self.victim_key:
            msg = _unpack(data)
            if msg and msg[0] in ("want", "hello", "frame"):
                return None
        return data


class VetoRoll(Adversary):
    """(host) Drops the joiner's chain frame that completes a roll once it has seen the roll, claims the
    timeout at once and drops the joiner's answers."""

    name = "veto-roll"
    hosts_only = True
    min_players = 2

    def __init__(self, rng: random.Random, nth: int = 1):
        super().__init__(rng, nth)
        self.vetoing: int | None = None

    def incoming(self, machine: Any, sender: bytes, data: bytes) -> bytes | None:
        book = machine.book
        msg = _unpack(data)
        if book is None or not msg or msg[0] != "frame":
            return data
        try:
            frame = decode_frame(msg[1][0])
        except codec.FormatError:
            return data
        ledger = book.ledger
        if self.vetoing is not None:
            return None if frame.seat == self.vetoing and frame.kind != "contest" else data
        if frame.kind != "chain" or frame.seq != len(ledger.frames) or ledger.status != "play":
            return data
        waiting = ledger.game.awaiting(ledger.state)
        if waiting.chance is None or len(ledger.contributions) + 1 != len(ledger.contributors(waiting.chance)):
            return data
        if self.count("rolls") != self.nth:
            return data
        self.vetoing = frame.seat
        self.claim_now = True
        return None

    def tick(self, machine: Any) -> None:
        if getattr(self, "claim_now", False) and not machine.blocked() and machine.book.ledger.claimable():
            self.claim_now = False
            machine.emit(machine.book.ledger.build_timeout())


class Equivocate(Adversary):
    """(host, three seats or more) Signs two different actions for its `nth` own move and sends one to some
    joiners and the other to the rest, each under its certificate."""

    name = "equivocate"
    hosts_only = True
    min_players = 3

    def attach(self, machine: Any) -> None:
        emit = machine.emit
        self.swap: dict[bytes, Frame] = {}

        def equivocate(frame: Frame) -> None:
            if frame.kind == "act" and not self.swap and self.count("act") == self.nth:
                ledger = machine.book.ledger_for(frame.seat)
                legal = [a for a in ledger.game.legal(ledger.state, frame.seat) if a != frame.body[0]]
                if legal:
                    try:
                        other = ledger.build_action(self.rng.choice(legal))
                    finally:
                        ledger._built = None
                    self.swap[frame.hash] = other
            emit(frame)
        machine.emit = equivocate

    def outgoing(self, machine: Any, effects: list) -> list:
        if not getattr(self, "swap", None):
            return effects
        joiners = sorted(link.key for link in machine.links.values() if link.seat is not None)
        victims = set(joiners[: max(1, len(joiners) // 2)])
        out = []
        for effect in effects:
            if isinstance(effect, fx.Send) and effect.to in victims:
                msg = _unpack(effect.data)
                if msg and msg[0] == "frame":
                    try:
                        frame = decode_frame(msg[1][0])
                    except codec.FormatError:
                        frame = None
                    other = self.swap.get(frame.hash) if frame is not None else None
                    if other is not None:
                        cert = sign_cert(machine.identity.private_key, other.session, other.seq, other.hash)
                        effect = fx.Send(effect.to, wire.pack("frame", other.encode(), cert))
            out.append(effect)
        return out


class WithholdFrom(Adversary):
    """(host) Passes no sequenced frame to one joiner (live or on request), then claims against it."""

    name = "withhold-from"
    hosts_only = True
    min_players = 2

    def __init__(self, rng: random.Random, nth: int = 1):
        super().__init__(rng, nth)
        self.victim: bytes | None = None

    def outgoing(self, machine: Any, effects: list) -> list:
        book = machine.book
        if self.victim is None and book is not None and len(book.frames) > 4 * self.nth:
            links = sorted(link.key for link in machine.links.values() if link.seat is not None)
            if links:
                self.victim = self.rng.choice(links)
        if self.victim is None:
            return effects
        out = []
        for effect in effects:
            if isinstance(effect, fx.Send) and effect.to == self.victim:
                msg = _unpack(effect.data)
                if msg and msg[0] in ("frame", "synced"):
                    continue
            out.append(effect)
        return out


class Double(Adversary):
    """(joiner) Sends a second, different frame for the slot of its `nth` decision."""

    name = "double"
    joiners_only = True

    def attach(self, machine: Any) -> None:
        emit = machine.emit

        def double(frame: Frame) -> None:
            emit(frame)
            if frame.kind in DECISIONS and self.count("decisions") == self.nth:
                ledger = machine.book.ledger_for(frame.seat)
                legal = ledger.game.legal(ledger.state, frame.seat)
                others = [a for a in legal if frame.kind != "act" or a != frame.body[0]]
                if others:
                    try:
                        other = ledger.build_action(self.rng.choice(others))
                    finally:
                        ledger._built = None
                    data = wire.pack("frame", other.encode(), b"")
                    machine.send_raw(machine.host_key, data)
                    for peer in machine.other_joiners():
                        machine.route(peer, data)
        machine.emit = double


class Mutate(Adversary):
    """Random mutation of its well-formed outgoing messages (a valid envelope, wrong content), and of the
    frames inside them (re-signed: valid signatures over wrong content)."""

    name = "mutate"

    def __init__(self, rng: random.Random, nth: int = 1, rate: float = 0.05):
        super().__init__(rng, nth)
        self.rate = rate

    def outgoing(self, machine: Any, effects: list) -> list:
        out = []
        for effect in effects:
            if isinstance(effect, fx.Send) and self.rng.random() < self.rate:
                effect = fx.Send(effect.to, self.mutate(machine, effect.data))
            out.append(effect)
        return out

    def mutate(self, machine: Any, data: bytes) -> bytes:
        msg = _unpack(data)
        if msg is None:
            return data
        tag, fields = msg
        if tag == "frame" and machine.book is not None and self.rng.random() < 0.5:
            try:
                frame = decode_frame(fields[0])
            except codec.FormatError:
                return data
            if machine.book.holds(frame.seat):
                bent = _resign(machine, frame, body=_bent(frame.body, self.rng))
                cert = sign_cert(machine.identity.private_key, bent.session, bent.seq, bent.hash) if fields[1] else b""
                return wire.pack("frame", bent.encode(), cert)
        if not fields:
            return data
        i = self.rng.randrange(len(fields))
        fields = list(fields)
        fields[i] = _garbage_like(fields[i], self.rng)
        return msgpack.packb([tag, *fields], use_bin_type=True)


def _garbage_like(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([-1, 0, 2**62, -(2**40), value + rng.randint(-3, 3), 10**6])
    if isinstance(value, bytes):
        return rng.choice([b"", bytes(rng.getrandbits(8) for _ in range(len(value))), value[:-1], value + b"\0"])
    if isinstance(value, str):
        return rng.choice(["", "\x1b[2J", "x" * 1900, value[::-1], "\u202e"])
    if isinstance(value, list):
        return rng.choice([[], value[:-1], [_garbage_like(v, rng) for v in value], [value], [None] * 3])
    return None


class Replay(Adversary):
    """Sends old messages again (frames, acknowledgements, hellos) and frames of another session."""

    name = "replay"

    def __init__(self, rng: random.Random, nth: int = 1):
        super().__init__(rng, nth)
        self.kept: list[tuple[bytes, bytes]] = []

    def outgoing(self, machine: Any, effects: list) -> list:
        out = list(effects)
        for effect in effects:
            if isinstance(effect, fx.Send) and len(self.kept) < 200 and self.rng.random() < 0.2:
                self.kept.append((effect.to, effect.data))
        if self.kept and effects and self.rng.random() < 0.1:
            to, data = self.rng.choice(self.kept)
            out.append(fx.Send(to, data))
            foreign = self.foreign(machine, data)
            if foreign is not None:
                out.append(fx.Send(to, foreign))
        return out

    def foreign(self, machine: Any, data: bytes) -> bytes | None:
        msg = _unpack(data)
        if not msg or msg[0] != "frame" or machine.book is None:
            return None
        try:
            frame = decode_frame(msg[1][0])
        except codec.FormatError:
            return None
        if not machine.book.holds(frame.seat):
            return None
        other = make_frame(_own_key(machine, frame.seat), bytes(16), frame.seq, frame.prev, frame.seat, frame.kind,
                           frame.body, frame.digest)
        return wire.pack("frame", other.encode(), msg[1][1])


class Garbage(Adversary):
    """Between its frames, sends garbage: undecodable bytes, unknown tags, wrong shapes, disputes without
    evidence, oversized texts, frames of no chain."""

    name = "garbage"

    def tick(self, machine: Any) -> None:
        if self.rng.random() > 0.3:
            return
        targets = [link.key for link in machine.links.values() if link.up]
        if not targets:
            return
        to = self.rng.choice(targets)
        choices = [b"\xc1\xc1", b"", msgpack.packb(["nope", 1]), msgpack.packb(["frame", b"x", b""]),
                   msgpack.packb(["ack", 5, bytes(32), bytes(64), bytes(64)]), wire.pack("want", 2**40),
                   wire.pack("dispute", b"\x00" * 40, "you cheated"), wire.pack("chat", 99, "\x1b]0;owned\x07"),
                   wire.pack("rematch", [7, 8]), wire.pack("reject", 3, "frame", "no"), wire.pack("synced", 10**9),
                   msgpack.packb(["frame", bytes(300_000), b""])]
        machine.outbox.append(fx.Send(to, self.rng.choice(choices)))


class Silent(Adversary):
    """Goes silent mid-game (sends nothing more) without closing its connections."""

    name = "silent"

    def outgoing(self, machine: Any, effects: list) -> list:
        book = machine.book
        if book is not None and len(book.frames) > 6 * self.nth:
            self.done = True
        if not self.done:
            return effects
        return [e for e in effects if not isinstance(e, fx.Send)]


class CoSignAtOnce(Adversary):
    """(joiner, in a coalition with a lying host) Closes or co-signs any claim against an honest seat at once,
    without waiting for its deadline and whatever answer it received."""

    name = "cosign-at-once"
    joiners_only = True

    def tick(self, machine: Any) -> None:
        book = machine.book
        if book is None or machine.phase != "play" or book.ledger.closed:
            return
        ledger = book.ledger
        claim = ledger.claim
        if claim is None or book.holds(claim.blamed) or machine.blocked():
            return
        for seat in book.seats:
            led = book.ledger_for(seat)
            frame = led.build_after_claim() if ledger.status == "claimed" else None
            if frame is None and not claim.open:
                nxt = ledger.expects()
                if nxt and nxt[0][1] == seat and nxt[0][0] in ("seed", "final"):
                    frame = led.build_next()
            if frame is not None:
                machine.emit(frame)
                return


class WrongSeed(Adversary):
    """(joiner) Killed, then resumed with a saved seed that is not its own (the simulator kills it)."""

    name = "wrong-seed"
    joiners_only = True


#: name -> (class, parameters); `make` builds one
STRATEGIES: dict[str, tuple[type[Adversary], dict]] = {
    "never-decide": (NeverDecide, {}),
    "stall-decisions": (StallDecisions, {}),
    "stall-automatic": (StallAutomatic, {}),
    "withhold-open": (Withhold, {"kind": "open"}),
    "withhold-chain": (Withhold, {"kind": "chain"}),
    "withhold-commit": (Withhold, {"kind": "commit"}),
    "withhold-reveal": (Withhold, {"kind": "reveal"}),
    "withhold-act": (Withhold, {"kind": "act"}),
    "withhold-seed": (Withhold, {"kind": "seed"}),
    "withhold-final": (Withhold, {"kind": "final"}),
    "withhold-shuffle": (Withhold, {"kind": "shuffle"}),
    "withhold-strip": (Withhold, {"kind": "strip"}),
    "withhold-silently": (Withhold, {"kind": "chain", "contest": False}),
    "tamper-act": (Tamper, {"kind": "act"}),
    "tamper-chain": (Tamper, {"kind": "chain"}),
    "tamper-seed": (Tamper, {"kind": "seed"}),
    "tamper-final": (Tamper, {"kind": "final"}),
    "claim-early": (ClaimEarly, {}),
    "claim-early-decision": (ClaimEarly, {"kind": "act"}),
    "close-early": (CloseEarly, {}),
    "ahead-then-claim": (AheadThenClaim, {}),
    "veto-roll": (VetoRoll, {}),
    "equivocate": (Equivocate, {}),
    "withhold-from": (WithholdFrom, {}),
    "double": (Double, {}),
    "mutate": (Mutate, {}),
    "replay": (Replay, {}),
    "garbage": (Garbage, {}),
    "silent": (Silent, {}),
    "cosign-at-once": (CoSignAtOnce, {}),
    "wrong-seed": (WrongSeed, {}),
}


def make(name: str, rng: random.Random, nth: int = 1) -> Adversary:
    cls, params = STRATEGIES[name]
    adversary = cls(rng, nth, **params)
    adversary.name = name
    return adversary

