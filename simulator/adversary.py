"""Lying peers: strategies an adversary seat plays, around an otherwise honest state machine.

An adversary holds its seat's keys and knows what its machine knows, so it can sign anything: it hooks
its machine's outgoing effects (drop, delay, alter, duplicate messages), its incoming messages, its
decisions and its own frames, and may inject messages at any tick. The same classes drive a lying peer
over real processes (tests/support/session_peer.py hooks one into a real `HostSession` / `JoinSession`), so an
attack the simulator explores can be played against the real `netplay host` / `netplay join`.

A strategy is named by a spec, `name[:arg[:arg]]` (`parse`): e.g. `withhold:chain:3` (its third chain
frame), `claim-early:act:2` (at once, against seat 2's move), `withhold-from:seed:2:1` (the host never
passes seat 1's seed to seat 2). `STRATEGIES` lists the specs the simulator draws from. The hooks take
the peer's machine; `machine.now` is the peer's clock.
"""

from __future__ import annotations

import os
import random
from typing import Any

import msgpack

from netplay import wire
from netplay.deadlines import AUTOMATIC, DECISIONS
from netplay.protocol import effects as fx
from netplay.protocol.claims import CLAIM_SKEW
from netplay.protocol.state import Phase
from replays import codec
from replays.certs import sign_cert
from replays.crypto import generate_key
from replays.frames import Frame, decode_frame, make_frame

__all__ = ["Adversary", "STRATEGIES", "parse"]


def _unpack(data: bytes) -> tuple[str, list] | None:
    try:
        return wire.unpack(data)
    except wire.Malformed:
        return None


def _frame_of(data: bytes) -> Frame | None:
    msg = _unpack(data)
    if not msg or msg[0] != "frame":
        return None
    try:
        return decode_frame(msg[1][0])
    except codec.FormatError:
        return None


def _own_key(machine: Any, seat: int) -> Any:
    return machine.book.ledger_for(seat).me.key


def _resign(machine: Any, frame: Frame, body: Any = None, seq: int | None = None, prev: bytes | None = None,
            session: bytes | None = None, key: Any = None) -> Frame:
    """`frame` with some fields changed, properly signed with its seat's key (a lie, not a forgery)."""
    return make_frame(key or _own_key(machine, frame.seat), session or frame.session,
                      frame.seq if seq is None else seq, frame.prev if prev is None else prev, frame.seat, frame.kind,
                      frame.body if body is None else body, frame.digest)


def _certified(machine: Any, frame: Frame) -> bytes:
    """A `frame` message as this peer would send it: a host certifies whatever it sends (its own key)."""
    cert = b""
    if machine.role == "host" and machine.players > 2:
        cert = sign_cert(machine.identity.private_key, frame.session, frame.seq, frame.hash)
    return wire.pack("frame", frame.encode(), cert)


def _to_all(machine: Any, data: bytes) -> list:
    keys = [link.key for link in machine.links.values() if link.up]
    return [fx.Send(key, data) for key in keys]


class Adversary:
    """Honest by default: subclasses override what they lie about."""

    name = "honest"
    hosts_only = False
    joiners_only = False
    min_players = 1

    def __init__(self, rng: random.Random, *args: str):
        self.rng = rng
        self.args = args
        self.counts: dict[str, int] = {}

    def count(self, what: str) -> int:
        self.counts[what] = self.counts.get(what, 0) + 1
        return self.counts[what]

    def arg(self, index: int, default: str = "") -> str:
        return self.args[index] if len(self.args) > index and self.args[index] != "" else default

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
        if book is None or machine.phase is not Phase.PLAY or book.ledger.closed:
            return None
        return book.ledger.awaited()

    def say(self, line: str) -> None:
        """What the liar does, for a person reading a run (tests/support/session_peer.py prints it)."""
        self.lines = getattr(self, "lines", [])
        self.lines.append(f"cheat: {line}")


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


class _Held:
    """An honest decider whose decisions wait while `hold(seat)` says so (the timing liars)."""

    def __init__(self, inner: Any, hold: Any):
        self.inner, self.hold = inner, hold

    def prepare(self, game: Any) -> None:
        self.inner.prepare(game)

    def decide(self, game: Any, state: Any, seat: int, legal: list[str]) -> str | None:
        return None if self.hold(seat) else self.inner.decide(game, state, seat, legal)

    def rematch(self, games_done: int) -> bool | None:
        return self.inner.rematch(games_done)


class StallDecisions(Adversary):
    """Every decision made just before its limit runs out (by the liar's own clock)."""

    name = "stall-decisions"

    def attach(self, machine: Any) -> None:
        honest = machine.decider_for
        margin = self.rng.uniform(0.05, 0.6)

        def hold(seat: int) -> bool:
            nxt = Adversary.awaited(machine)
            remaining = machine.deadlines.remaining(nxt[0], seat, machine.now) if nxt else None
            return remaining is not None and remaining > margin
        machine.decider_for = lambda seat: _Held(honest(seat), hold)


class OverTime(Adversary):
    """`over-time`: makes every decision only after its limit (move clock, limit per move) has run out by its
    own clock, and answers every claim against it at once, as if a spent clock could go on for ever."""

    name = "over-time"

    def attach(self, machine: Any) -> None:
        honest = machine.decider_for
        machine.claims.may_build = lambda kind, seat: True

        def hold(seat: int) -> bool:
            nxt = Adversary.awaited(machine)
            claim = machine.book.ledger.claim
            remaining = machine.deadlines.remaining(nxt[0], seat, machine.now) if nxt else None
            # past the claims' skew too (within it, a late decision is still sequenced: the tolerance
            # every peer gives the others' clocks), then it answers each claim at once
            return remaining is not None and remaining > -(CLAIM_SKEW + 0.5) and (claim is None or not claim.open)
        machine.decider_for = lambda seat: _Held(honest(seat), hold)


class StallAutomatic(Adversary):
    """Every frame that needs no decision sent just before its deadline (by the liar's own clock): only the
    sum of lateness ever makes it claimable."""

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
    """`withhold:KIND[:N]`: never sends its N-th own frame of KIND; it answers the claim that follows, late.
    `vanish:KIND[:N]`: from that frame on it sends nothing at all (it stays connected). `withhold-contest`:
    withholds the frame and its answer, and contests the claim without evidence (the liar's escape)."""

    name = "withhold"

    def __init__(self, rng: random.Random, *args: str, mode: str = "answer"):
        super().__init__(rng, *args)
        self.kind, self.nth, self.mode = self.arg(0, "chain"), int(self.arg(1, "1")), mode
        self.slot: int | None = None
        self.silent = False
        self.cut: int | None = None

    def attach(self, machine: Any) -> None:
        emit, blocked = machine.emit, machine.blocked

        def withhold(frame: Frame) -> None:
            if self.silent:
                return
            if frame.kind == self.kind and self.slot is None and self.count(frame.kind) == self.nth:
                self.slot = len(machine.book.frames)
                self.say(f"withholding our {frame.kind} frame {frame.seq}")
                if self.mode == "vanish":
                    self.silent = True
                    self.cut = len(machine.outbox)   # what this step sent before it stays sent
                return
            if self.slot is not None and self.mode == "contest" and frame.kind not in ("contest", "timeout"):
                return          # no answer: only its contest goes out
            emit(frame)
        machine.emit = withhold
        machine.blocked = lambda: (self.silent or (self.slot is not None and machine.book is not None
                                                   and len(machine.book.frames) == self.slot) or blocked())

    def outgoing(self, machine: Any, effects: list) -> list:
        if self.silent:
            cut, self.cut = self.cut or 0, None
            return [e for n, e in enumerate(effects) if n < cut or not isinstance(e, fx.Send)]
        return effects


class Tamper(Adversary):
    """`tamper:KIND[:N]`: its N-th own frame of KIND sent with a changed body, properly signed (an illegal
    action, a reveal that opens nothing, a changed chain value). Caught live as the liar's dispute."""

    name = "tamper"

    def attach(self, machine: Any) -> None:
        emit = machine.emit
        kind, nth = self.arg(0, "act"), int(self.arg(1, "1"))

        def tamper(frame: Frame) -> None:
            if frame.kind == kind and self.count(kind) == nth:
                bent = _resign(machine, frame, body=_bent(machine, frame))
                self.say(f"sending a changed {kind} frame {frame.seq}")
                if machine.role == "host":     # its own ledger would refuse it: past its ledger, to everyone
                    machine.write(bent)
                    machine.outbox.extend(fx.Send(link.key, _certified(machine, bent))
                                          for link in machine.sequencer.joiners())
                    machine.finish(4, f"sent a changed {kind} frame")
                    return
                frame = bent
            emit(frame)
        machine.emit = tamper


def _bent(machine: Any, frame: Frame) -> tuple:
    body = list(frame.body)
    if frame.kind == "act":
        body[0] = "no such move 99"
    elif frame.kind == "reveal":
        ledger = machine.book.ledger_for(frame.seat)
        legal = [a for a in ledger.game.legal(ledger.state, frame.seat) if a != body[0]]
        body[0] = legal[0] if legal else body[0] + "x"
    elif body and isinstance(body[0], bytes):
        body[0] = bytes(b ^ 0x5A for b in body[0])
    elif body and isinstance(body[0], str):
        body[0] = body[0] + " zz"
    elif body and isinstance(body[0], int):
        body[0] = body[0] + 1
    return tuple(body)


class ClaimEarly(Adversary):
    """`claim-early[:KIND[:SEAT]]`: claims at once (no deadline) that another seat (SEAT only, if given)
    withheld its awaited frame (of KIND, if given)."""

    name = "claim-early"

    def tick(self, machine: Any) -> None:
        kind, target = self.arg(0), self.arg(1)
        nxt = Adversary.awaited(machine)
        book = machine.book
        if nxt is None or book.holds(nxt[1]) or (kind and nxt[0] != kind) or (target and nxt[1] != int(target)):
            return
        if book.ledger.status != "play" or machine.blocked() or self.counts.get("claims"):
            return
        self.count("claims")
        self.say(f"claiming at once that seat {nxt[1]} withheld its {nxt[0]} frame {len(book.frames)}")
        frame = book.ledger.build_timeout()
        if machine.role == "host":
            machine.emit(frame)
        else:
            machine.outbox.append(fx.Send(machine.host_key, wire.pack("frame", frame.encode(), b"")))


class CloseEarly(Adversary):
    """`close-early[:KIND]` (host): claims at once against another seat, drops its answers, and closes the claim
    at once: the attempt to make an honest seat's own copy show its forfeit."""

    name = "close-early"
    hosts_only = True
    min_players = 2

    def __init__(self, rng: random.Random, *args: str):
        super().__init__(rng, *args)
        self.victim: int | None = None

    def tick(self, machine: Any) -> None:
        book = machine.book
        if book is None or machine.phase is not Phase.PLAY or book.ledger.closed:
            return
        ledger = book.ledger
        if self.victim is None:
            kind = self.arg(0)
            nxt = ledger.claimable()
            if (nxt is None or book.holds(nxt[1]) or (kind and nxt[0] != kind) or machine.blocked()
                    or len(ledger.frames) < 4):
                return
            self.victim = nxt[1]
            self.say(f"claiming at once against seat {nxt[1]}'s {nxt[0]} and closing the claim at once")
            machine.emit(ledger.build_timeout())
        if ledger.status == "claimed" and ledger.claim.blamed == self.victim and book.holds(ledger.expects()[1][1]):
            frame = ledger.build_after_claim()
            if frame is not None:
                machine.emit(frame)

    def incoming(self, machine: Any, sender: bytes, data: bytes) -> bytes | None:
        frame = _frame_of(data)
        if self.victim is not None and frame is not None and frame.seat == self.victim and frame.kind != "contest":
            return None
        return data


class AheadThenClaim(Adversary):
    """`ahead-then-claim` (host): sends a victim a frame numbered a few ahead, never says `synced` to it again and
    drops its `want`s, then claims against it and closes the claim as soon as it may: the resume trick of the
    second attack campaign."""

    name = "ahead-then-claim"
    hosts_only = True
    min_players = 2

    def __init__(self, rng: random.Random, *args: str):
        super().__init__(rng, *args)
        self.victim_key: bytes | None = None
        self.claimed = False

    def tick(self, machine: Any) -> None:
        book = machine.book
        if book is None or machine.phase is not Phase.PLAY or book.ledger.closed:
            return
        ledger = book.ledger
        if self.victim_key is None:
            if len(ledger.frames) < 3 + 4 * int(self.arg(0, "1")):
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
            self.say(f"sending seat {victim.seat} a frame numbered {ahead.seq}, ahead of the game")
            machine.outbox.append(fx.Send(victim.key, _certified(machine, ahead)))
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
        return [e for e in effects if not (isinstance(e, fx.Send) and e.to == self.victim_key
                                           and (_unpack(e.data) or ("",))[0] == "synced")]

    def incoming(self, machine: Any, sender: bytes, data: bytes) -> bytes | None:
        if sender == self.victim_key and (_unpack(data) or ("",))[0] in ("want", "hello", "frame"):
            return None
        return data


class VetoRoll(Adversary):
    """`veto-roll[:N]` (host): drops the joiner's chain frame that completes its N-th roll once it has seen the
    roll, claims the timeout at once and drops the joiner's answers."""

    name = "veto-roll"
    hosts_only = True
    min_players = 2

    def __init__(self, rng: random.Random, *args: str):
        super().__init__(rng, *args)
        self.vetoing: int | None = None
        self.claim_now = False

    def incoming(self, machine: Any, sender: bytes, data: bytes) -> bytes | None:
        book = machine.book
        frame = _frame_of(data)
        if book is None or frame is None:
            return data
        ledger = book.ledger
        if self.vetoing is not None:
            return None if frame.seat == self.vetoing and frame.kind != "contest" else data
        if frame.kind != "chain" or frame.seq != len(ledger.frames) or ledger.status != "play":
            return data
        waiting = ledger.game.awaiting(ledger.state)
        if waiting.chance is None or len(ledger.contributions) + 1 != len(ledger.contributors(waiting.chance)):
            return data
        if self.count("rolls") != int(self.arg(0, "1")):
            return data
        self.say(f"seat {frame.seat}'s chain frame {frame.seq} would complete a roll: vetoing it")
        self.vetoing, self.claim_now = frame.seat, True
        return None

    def tick(self, machine: Any) -> None:
        if self.claim_now and not machine.blocked() and machine.book is not None and machine.book.ledger.claimable():
            self.claim_now = False
            machine.emit(machine.book.ledger.build_timeout())


class Equivocate(Adversary):
    """`equivocate[:N]` (host, three seats or more): signs two different actions for its N-th own move and sends
    one to the lowest joiner and the other to the rest, each under its certificate."""

    name = "equivocate"
    hosts_only = True
    min_players = 3

    def attach(self, machine: Any) -> None:
        emit = machine.emit
        self.swap: dict[bytes, Frame] = {}

        def equivocate(frame: Frame) -> None:
            if frame.kind == "act" and not self.swap and self.count("act") == int(self.arg(0, "1")):
                ledger = machine.book.ledger_for(frame.seat)
                legal = [a for a in ledger.game.legal(ledger.state, frame.seat)
                         if a != frame.body[0] and a not in ("resign", "offer draw")]
                if legal:
                    other = ledger.build_action(self.rng.choice(legal)).bare()
                    self.swap[frame.hash] = other
                    self.say(f"frame {frame.seq}: {frame.body[0]!r} to one joiner, {other.body[0]!r} to the others")
            emit(frame)
        machine.emit = equivocate

    def outgoing(self, machine: Any, effects: list) -> list:
        if not getattr(self, "swap", None):
            return effects
        joiners = sorted((link.seat, link.key) for link in machine.links.values() if link.seat is not None)
        victims = {key for _, key in joiners[1:]}
        out = []
        for effect in effects:
            if isinstance(effect, fx.Send) and effect.to in victims:
                frame = _frame_of(effect.data)
                other = self.swap.get(frame.hash) if frame is not None else None
                if other is not None:
                    effect = fx.Send(effect.to, _certified(machine, other))
            out.append(effect)
        return out


class WithholdFrom(Adversary):
    """`withhold-from[:KIND[:TO[:FROM]]]` (host): never passes a joiner (seat TO, else one drawn) seat FROM's
    KIND frames (every frame, by default), live or on request."""

    name = "withhold-from"
    hosts_only = True
    min_players = 2

    def __init__(self, rng: random.Random, *args: str):
        super().__init__(rng, *args)
        self.victim: bytes | None = None

    def outgoing(self, machine: Any, effects: list) -> list:
        kind, to, source = self.arg(0), self.arg(1), self.arg(2)
        book = machine.book
        if self.victim is None and book is not None and len(book.frames) > 4:
            links = sorted((link.seat, link.key) for link in machine.links.values() if link.seat is not None)
            chosen = [key for seat, key in links if not to or seat == int(to)]
            if chosen:
                self.victim = self.rng.choice(chosen)
        if self.victim is None:
            return effects
        out = []
        for effect in effects:
            if isinstance(effect, fx.Send) and effect.to == self.victim:
                msg = _unpack(effect.data)
                frame = _frame_of(effect.data)
                if msg and msg[0] == "synced" and not kind:
                    continue
                if frame is not None and (not kind or frame.kind == kind) and (not source or frame.seat == int(source)):
                    self.count("withheld")
                    continue
            out.append(effect)
        return out


class Double(Adversary):
    """`double[:N]` (joiner): sends a second, different frame for the slot of its N-th decision."""

    name = "double"
    joiners_only = True

    def attach(self, machine: Any) -> None:
        emit = machine.emit

        def double(frame: Frame) -> None:
            emit(frame)
            if frame.kind in DECISIONS and self.count("decisions") == int(self.arg(0, "1")):
                ledger = machine.book.ledger_for(frame.seat)
                legal = ledger.game.legal(ledger.state, frame.seat)
                others = [a for a in legal if (frame.kind != "act" or a != frame.body[0])
                          and a not in ("resign", "offer draw")]
                if others:
                    other = ledger.build_action(self.rng.choice(others)).bare()
                    self.say(f"a second frame {other.seq} for the same slot")
                    data = wire.pack("frame", other.encode(), b"")
                    machine.outbox.append(fx.Send(machine.host_key, data))
        machine.emit = double


class Inject(Adversary):
    """`inject[:N]`: before each of its first N decisions, sends garbage, forged, unsigned, foreign,
    out-of-order, replayed and oversized frames (and a message with trailing bytes)."""

    name = "inject"

    def attach(self, machine: Any) -> None:
        emit = machine.emit

        def inject(frame: Frame) -> None:
            if frame.kind in DECISIONS and self.count("decisions") <= int(self.arg(0, "3")):
                self.say("sending garbage, forged, unsigned, foreign, out-of-order, replayed and oversized frames")
                for data in self.junk(machine, frame):
                    machine.outbox.extend(_to_all(machine, data))
            emit(frame)
        machine.emit = inject

    def junk(self, machine: Any, frame: Frame) -> list[bytes]:
        def msg(data: bytes) -> bytes:
            return wire.pack("frame", data, b"")
        ledger = machine.book.ledger
        junk = [b"\x00\xffthis is not msgpack at all", msg(b"\x93not a frame"),
                msg(_resign(machine, frame, key=generate_key()).encode()),            # forged: no seat's key
                msg(frame.encode()[:-64] + bytes(64)),                                # unsigned
                msg(_resign(machine, frame, session=os.urandom(16)).encode()),        # another session
                msg(_resign(machine, frame, seq=frame.seq + 5).encode()),             # out of order
                wire.pack("frame", bytes(wire.MAX_FRAME + 1), b""),                  # oversized
                wire.pack("chat", -1, "x" * 100) + b"trailing", b"\x92\xa3zap\xc0"]
        if ledger.frames:
            junk += [msg(ledger.frames[-1].encode()), msg(ledger.frames[0].encode())]   # replayed
        return junk


class BareDispute(Adversary):
    """`bare-dispute[:N]`: before each of its first N decisions, reports disputes with no evidence, garbage, an
    unsigned frame and an accepted frame as "evidence"."""

    name = "bare-dispute"

    def attach(self, machine: Any) -> None:
        emit = machine.emit

        def report(frame: Frame) -> None:
            if frame.kind in DECISIONS and self.count("decisions") <= int(self.arg(0, "3")):
                ledger = machine.book.ledger
                reports = [b"", b"\x93not a frame", frame.encode()[:-64] + bytes(64)]
                if ledger.frames:
                    reports.append(ledger.frames[-1].encode())
                self.say(f"{len(reports)} dispute reports without proof")
                for evidence in reports:
                    machine.outbox.extend(_to_all(machine, wire.pack("dispute", evidence, "they cheated, believe me")))
            emit(frame)
        machine.emit = report


class Mutate(Adversary):
    """`mutate`: random mutation of its well-formed outgoing messages (a valid envelope, wrong content), and of
    the frames inside them (re-signed: valid signatures over wrong content)."""

    name = "mutate"

    def outgoing(self, machine: Any, effects: list) -> list:
        out = []
        for effect in effects:
            if isinstance(effect, fx.Send) and self.rng.random() < 0.05:
                effect = fx.Send(effect.to, self.mutate(machine, effect.data))
            out.append(effect)
        return out

    def mutate(self, machine: Any, data: bytes) -> bytes:
        msg = _unpack(data)
        if msg is None:
            return data
        tag, fields = msg
        frame = _frame_of(data)
        if frame is not None and machine.book is not None and machine.book.holds(frame.seat) and self.rng.random() < .5:
            bent = _resign(machine, frame, body=_garbage_like(list(frame.body), self.rng))
            return wire.pack("frame", bent.encode(), fields[1] and sign_cert(
                machine.identity.private_key, bent.session, bent.seq, bent.hash))
        if not fields:
            return data
        fields = list(fields)
        i = self.rng.randrange(len(fields))
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
    if isinstance(value, list | tuple):
        return rng.choice([[], list(value[:-1]), [_garbage_like(v, rng) for v in value], [list(value)], [None] * 3])
    return None


class Replay(Adversary):
    """`replay`: sends its old messages again (frames, acknowledgements, hellos) and its frames re-signed for
    another session."""

    name = "replay"

    def __init__(self, rng: random.Random, *args: str):
        super().__init__(rng, *args)
        self.kept: list[tuple[bytes, bytes]] = []

    def outgoing(self, machine: Any, effects: list) -> list:
        out = list(effects)
        for effect in effects:
            if isinstance(effect, fx.Send) and len(self.kept) < 200 and self.rng.random() < 0.2:
                self.kept.append((effect.to, effect.data))
        if self.kept and effects and self.rng.random() < 0.1:
            to, data = self.rng.choice(self.kept)
            out.append(fx.Send(to, data))
            frame = _frame_of(data)
            if frame is not None and machine.book is not None and machine.book.holds(frame.seat):
                out.append(fx.Send(to, wire.pack("frame", _resign(machine, frame, session=bytes(16)).encode(), b"")))
        return out


class Garbage(Adversary):
    """`garbage`: between its frames, sends undecodable bytes, unknown tags, wrong shapes, out-of-range fields,
    disputes without evidence, escapes in chat, frames of no chain."""

    name = "garbage"

    def tick(self, machine: Any) -> None:
        if self.rng.random() > 0.3:
            return
        targets = [link.key for link in machine.links.values() if link.up]
        if not targets:
            return
        choices = [b"\xc1\xc1", b"", msgpack.packb(["nope", 1]), msgpack.packb(["frame", b"x", b""]),
                   msgpack.packb(["ack", 5, bytes(32), bytes(64), bytes(64)]), msgpack.packb(["want", 2**40]),
                   wire.pack("dispute", b"\x00" * 40, "you cheated"), wire.pack("chat", 63, "\x1b]0;owned\x07"),
                   wire.pack("rematch", [7, 8]), wire.pack("reject", 3, "frame", "no"), wire.pack("synced", 10**9),
                   msgpack.packb(["frame", bytes(300_000), b""]), wire.pack("relay", bytes(32), b"\x90")]
        machine.outbox.append(fx.Send(self.rng.choice(targets), self.rng.choice(choices)))


class Silent(Adversary):
    """`silent[:N]`: goes silent after 6N frames (sends nothing more) without closing its connections."""

    name = "silent"

    def outgoing(self, machine: Any, effects: list) -> list:
        book = machine.book
        if book is not None and len(book.frames) > 6 * int(self.arg(0, "1")):
            self.counts["silent"] = 1
        if not self.counts.get("silent"):
            return effects
        return [e for e in effects if not isinstance(e, fx.Send)]


class CoSignAtOnce(Adversary):
    """`cosign-at-once` (joiner, in a coalition with a lying host): closes or co-signs any claim against another
    seat at once, without waiting for its deadline and whatever answer it received."""

    name = "cosign-at-once"
    joiners_only = True

    def tick(self, machine: Any) -> None:
        book = machine.book
        if book is None or machine.phase is not Phase.PLAY or book.ledger.closed:
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
    """`wrong-seed` (joiner): killed, then resumed with a saved seed that is not its own (the simulator kills it
    and changes its saved game)."""

    name = "wrong-seed"
    joiners_only = True


_CLASSES: dict[str, tuple[type[Adversary], dict]] = {
    "never-decide": (NeverDecide, {}), "stall-decisions": (StallDecisions, {}), "over-time": (OverTime, {}),
    "stall-automatic": (StallAutomatic, {}), "withhold": (Withhold, {"mode": "answer"}),
    "vanish": (Withhold, {"mode": "vanish"}), "withhold-contest": (Withhold, {"mode": "contest"}),
    "tamper": (Tamper, {}), "claim-early": (ClaimEarly, {}), "close-early": (CloseEarly, {}),
    "ahead-then-claim": (AheadThenClaim, {}), "veto-roll": (VetoRoll, {}), "equivocate": (Equivocate, {}),
    "withhold-from": (WithholdFrom, {}), "double": (Double, {}), "inject": (Inject, {}),
    "bare-dispute": (BareDispute, {}), "mutate": (Mutate, {}), "replay": (Replay, {}), "garbage": (Garbage, {}),
    "silent": (Silent, {}), "cosign-at-once": (CoSignAtOnce, {}), "wrong-seed": (WrongSeed, {}),
}


def parse(spec: str, rng: random.Random) -> Adversary:
    """The strategy a spec names (`name[:arg...]`); ValueError for an unknown name."""
    name, *args = spec.split(":")
    if name not in _CLASSES:
        raise ValueError(f"no adversary strategy {name!r} (known: {', '.join(sorted(_CLASSES))})")
    cls, params = _CLASSES[name]
    adversary = cls(rng, *args, **params)
    adversary.name = spec
    return adversary


def kind_of(spec: str) -> type[Adversary]:
    return _CLASSES[spec.split(":")[0]][0]


#: the specs the simulator draws from: every strategy, with its variants (`N` is drawn per run)
STRATEGIES: tuple[str, ...] = (
    "never-decide", "stall-decisions", "stall-automatic", "over-time",
    *(f"withhold:{k}" for k in ("open", "chain", "commit", "reveal", "act", "seed", "final", "shuffle", "strip")),
    *(f"vanish:{k}" for k in ("chain", "act", "reveal", "seed", "final", "strip")),
    *(f"withhold-contest:{k}" for k in ("chain", "act", "seed")),
    *(f"tamper:{k}" for k in ("act", "chain", "reveal", "seed", "final", "commit")),
    "claim-early", "claim-early:act", "close-early", "close-early:act", "ahead-then-claim", "veto-roll",
    "equivocate", "withhold-from", "withhold-from:seed", "withhold-from:act", "double", "inject", "bare-dispute",
    "mutate", "replay", "garbage", "silent", "cosign-at-once", "wrong-seed",
)


class RelayEquivocate(Adversary):
    """`relay-equivocate[:N]` (host, three seats or more; issue 32, N1): blanks every address in `peers`, so
    the joiners can talk only through its relay; signs two versions of its N-th own move, the honest one for
    every joiner but the highest seat (the starved one), which gets the other, each under its certificate;
    drops every relayed acknowledgement, and after the fork everything else between the starved joiner and
    the rest (its relayed messages, and every message of ours to it). Its honest machine then claims the
    starved joiner's timeout on the other branch, which the fed joiners must not co-sign."""

    name = "relay-equivocate"
    hosts_only = True
    min_players = 3

    def attach(self, machine: Any) -> None:
        emit = machine.emit
        self.swap: dict[bytes, Frame] = {}
        self.forked_at: int | None = None

        def equivocate(frame: Frame) -> None:
            if frame.kind == "act" and not self.swap and self.count("act") >= int(self.arg(0, "1")):
                ledger = machine.book.ledger_for(frame.seat)
                legal = [a for a in ledger.game.legal(ledger.state, frame.seat)
                         if a != frame.body[0] and a not in ("resign", "offer draw")]
                if legal:
                    other = ledger.build_action(self.rng.choice(legal)).bare()
                    self.swap[frame.hash] = other
                    self.forked_at = frame.seq
                    self.say(f"frame {frame.seq}: {frame.body[0]!r} to the fed joiners, {other.body[0]!r} to the "
                             "starved one; every address blanked, relayed acknowledgements dropped")
            emit(frame)
        machine.emit = equivocate

    @staticmethod
    def _starved(machine: Any) -> bytes | None:
        joiners = sorted((link.seat, link.key) for link in machine.links.values() if link.seat is not None)
        return joiners[-1][1] if len(joiners) >= 2 else None

    def outgoing(self, machine: Any, effects: list) -> list:
        starved = self._starved(machine)
        out = []
        for effect in effects:
            if not isinstance(effect, fx.Send):
                out.append(effect)
                continue
            msg = _unpack(effect.data)
            if msg is None:
                out.append(effect)
                continue
            tag, fields = msg
            if tag == "peers":
                entries = [[seat, key, "", port, statement] for seat, key, _, port, statement in fields[0]]
                effect = fx.Send(effect.to, wire.pack("peers", entries))
            elif tag == "relayed":
                inner = _unpack(fields[1])
                if inner is None or inner[0] == "ack":
                    continue
                if self.forked_at is not None and starved in (effect.to, fields[0]):
                    continue
            elif self.forked_at is not None and effect.to == starved:
                frame = _frame_of(effect.data)
                other = self.swap.get(frame.hash) if frame is not None else None
                if other is None:
                    continue
                effect = fx.Send(effect.to, _certified(machine, other))
            out.append(effect)
        return out


# ---------------------------------------------------------------------------------- the lobby's liars (issue 32)

class NeverStart(Adversary):
    """`never-start` (host): takes every `ready` and never sends the header, nor lets anyone go: its joiners
    are held in the lobby by a host that looks as if it waited for players (break N2)."""

    name = "never-start"
    hosts_only = True
    min_players = 2

    def attach(self, machine: Any) -> None:
        def never(seated: Any) -> None:
            if not self.counts.get("held"):
                self.count("held")
                self.say("every seat is taken: not sending the header")
        machine.lobby.send_header = never


class HoldAfterHeader(Adversary):
    """`hold-after-header` (host): sends the header (and the peers), takes every `start`, and never starts the
    game: no `synced`, no frame, nobody let go (break N3)."""

    name = "hold-after-header"
    hosts_only = True
    min_players = 2

    def attach(self, machine: Any) -> None:
        def never() -> None:
            if not self.counts.get("held"):
                self.count("held")
                self.say("every seat started: not starting the game")
        machine.start_game = never
        machine.lobby.let_go = lambda link, reason: None


class RematchHold(Adversary):
    """`rematch-hold` (joiner): votes for a rematch after the first game, takes its header and never sends
    `start` for it, staying connected (break N4: the host sat in its rematch lobby for ever)."""

    name = "rematch-hold"
    joiners_only = True
    min_players = 2

    def attach(self, machine: Any) -> None:
        machine.decider = _Voting(machine.decider)

    def outgoing(self, machine: Any, effects: list) -> list:
        if not machine.games_done:
            return effects
        out = []
        for effect in effects:
            msg = _unpack(effect.data) if isinstance(effect, fx.Send) else None
            if msg is not None and msg[0] in ("start", "decline", "bye"):
                if not self.counts.get("held"):
                    self.count("held")
                    self.say("voted for the rematch: not starting it")
                continue
            out.append(effect)
        return out


class _Voting:
    """A decider that plays as `inner` and always votes for one rematch."""

    def __init__(self, inner: Any):
        self.inner = inner

    def prepare(self, game: Any) -> None:
        self.inner.prepare(game)

    def decide(self, game: Any, state: Any, seat: int, legal: list[str]) -> str | None:
        return self.inner.decide(game, state, seat, legal)

    def rematch(self, games_done: int) -> bool:
        return games_done == 1


_CLASSES.update({"never-start": (NeverStart, {}), "hold-after-header": (HoldAfterHeader, {}),
                 "rematch-hold": (RematchHold, {})})

#: the lobby's liars, drawn by the campaign on their own (simulator/run.py `lobby_liar`): they hold honest peers
#: outside any game, where only the bounds of netplay/protocol/waits.py end the wait
LOBBY_STRATEGIES: tuple[str, ...] = ("never-start", "hold-after-header", "rematch-hold")

_CLASSES["relay-equivocate"] = (RelayEquivocate, {})
STRATEGIES += ("relay-equivocate",)
