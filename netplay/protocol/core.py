"""The session as a deterministic state machine: what host and joiners share.

A `Machine` takes three kinds of input, each with the current time of its peer's clock:
`linked`/`unlinked` (a connection to another peer, by its Ed25519 key, came up or went down),
`receive` (a session message's bytes from a peer) and `tick` (time passed; decisions may have been
made). It never reads a clock, a socket or a file: its outputs are `effects` appended to `outbox`
(messages to send, records to write, lines to show), and its end is `outcome`.

`linked`, `unlinked` and `receive` do only what that input asks (an acknowledgement, a relay, an
answer); the own frames it makes due, and the timers, are the next `tick`'s. A shell carries out what
such an input asked (`drain`) and then ticks the machine at the same time and carries out what the tick
asked: so what a message caused leaves before this peer builds, signs and checks its own
next frame (a joiner's ack of frame N before its frame N+1, the host's relay of a joiner's frame before
its own next frame), never behind it. Randomness (seeds, the
session id) comes from the `entropy` it is given. So a simulator can run any number of peers in one
process on a simulated clock and network, and a real peer (netplay/host.py, netplay/joiner.py) drives
the very same code over the transport.

The protocol is cut by feature, one module each, behind the small interface of this class:
`lobby` (admission, the offer, seats and the header), `sequencing` (the host: its order is the game's
order; certificates, relay, retransmission), `following` (a joiner: frames are applied only as the
host sequenced them; acknowledgements to every peer, gaps filled from any peer, equivocation named),
`claims` (deadlines, claims, answers, contests and co-signatures), `resume` (a peer that comes back),
`rematch`. Messages reach them through explicit dispatch tables (`Machine.handlers`, one per role)
beside `netplay.wire`'s shapes, once the role's table of what each phase takes (netplay/protocol/state.py)
let them through; only decoding may drop a message as malformed, and every handler is
total on well-formed input (the fuzz tests and the simulator's mutating adversary hold it to that).
Protocol: docs/protocol.md, section "Session".
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from engines.core import Game, IllegalAction, Result, State
from netplay import wire
from netplay.deadlines import AUTOMATIC, DECISIONS, Deadlines
from netplay.protocol import effects as fx
from netplay.protocol.book import Accepted, Book
from netplay.protocol.state import Event, LinkStage, Phase, SessionState, accepts
from replays.frames import Frame
from replays.header import Header, Terms
from replays.ledger import Dispute
from replays.randomness import DealUnsupported

log = logging.getLogger("netplay.session")

EXIT_OK = 0          # the game ended normally (and any rematches too)
EXIT_FAILED = 1      # refused, lost the connection, bad input, or the game stopped unfinished
EXIT_FORFEIT = 3     # the game ended by a timeout claim (someone withheld a frame)
EXIT_DISPUTE = 4     # a peer sent a frame the rules or the protocol forbid, a desync, or the host equivocated
EXIT_CONTESTED = 5   # a timeout claim was contested: nobody can be proven at fault, nobody forfeits

JOINER_GRACE = 5.0   # a joiner claims this much later than the host would, so an honest host's claim comes first
RESEND_S = 1.0       # an unanswered message is sent again after this (then twice as long, up to 4 s)
BURST = 64           # frames sent at once to a peer that misses some


@dataclass(frozen=True, slots=True)
class Outcome:
    code: int
    message: str


class Decider(Protocol):
    """Who makes this peer's decisions: a bot, or a person through a UI."""

    def prepare(self, game: Game) -> None:
        """Called when the game is known; raises ValueError if this decider cannot play it."""

    def decide(self, game: Game, state: State, seat: int, legal: list[str]) -> str | None:
        """The action to take now, or None while it is not decided yet (never blocks)."""

    def rematch(self, games_done: int) -> bool | None:
        """After a game: True for a rematch, False to leave, None while undecided."""


class MachineClaims(Protocol):
    """What this class calls of its claims (netplay/protocol/claims.py, which imports this module: named here
    rather than imported, so that no import goes in a circle, not even one for the checker)."""

    def after_accept(self, frame: Frame) -> None: ...
    def claim_in(self, seat: int, now: float) -> float | None: ...
    def closing_frame(self) -> Frame | None: ...
    def contest_frame(self) -> Frame | None: ...
    def late_words(self, kind: str, seat: int) -> str: ...
    def may_build(self, kind: str, seat: int) -> bool: ...
    def may_close(self) -> bool: ...
    def reset(self) -> None: ...


class MachineRematch(Protocol):
    """What this class and the waits use of the rematch vote (netplay/protocol/rematch.py): when it began."""

    over_since: float


@dataclass(slots=True)
class Link:
    """A connection to another peer, as this machine knows it (the host keeps one per joiner, with its
    lobby stage and seats; a joiner one to the host and one to every other joiner it reaches)."""

    key: bytes
    name: str
    up: bool = True
    changed: float = 0.0          # when it came up or went down
    address: str = ""             # where the peer connected from (host side), for the other joiners
    # the host's lobby
    stage: LinkStage = LinkStage.NEW
    stage_at: float = 0.0         # when it entered its stage (the lobby lets go of a peer that lingers)
    seat: int | None = None
    extra: list[tuple[int, bytes, str]] = field(default_factory=list)   # (seat, key, name) of its other seats
    started: bool = False
    reached: tuple[int, ...] = ()
    mesh_port: int = 0
    # both: what the peer is known to hold, and when we last sent it frames
    acked: int = -1
    sent_at: float = -1e9
    served_at: float = -1e9       # when we last answered its `want` (one burst per interval)
    resend_s: float = RESEND_S

    @property
    def seats(self) -> list[int]:
        return [] if self.seat is None else [self.seat, *(s for s, _, _ in self.extra)]

    @property
    def first_seat(self) -> int:
        """The seat of a seated joiner's link (the host lobby's `joiners()`): its peer's first seat."""
        assert self.seat is not None, "a seated link: the lobby's joiners() are those with a seat"
        return self.seat


class Machine:
    """See the module docstring. Subclasses: `HostMachine`, `JoinMachine` (netplay/protocol/machines.py)."""

    role = "peer"
    #: the features this class calls, made by each role's machine (netplay/protocol/machines.py)
    claims: MachineClaims
    rematch: MachineRematch

    def __init__(self, identity: Any, decider: Decider, *, entropy: Callable[[int], bytes], terms: Terms,
                 replay_dir: object = None):
        self.identity = identity
        self.decider = decider
        #: who decides for each seat this peer holds (filled in when the seats are known)
        self.deciders: dict[int, Decider] = {}
        self.entropy = entropy
        #: the terms this peer proposes (a host) or was offered (a joiner); the header's are binding
        self.terms = terms
        self.replay_dir = replay_dir
        self.outbox: list[fx.Effect] = []
        self.now = 0.0
        self.links: dict[bytes, Link] = {}
        self.book: Book | None = None
        self.game: Game | None = None
        self.header: Header | None = None
        self.players = 0
        #: the phase (and a joiner's stage): moved only through `move` (netplay/protocol/state.py)
        self.state = SessionState(self.role)
        self.outcome: Outcome | None = None
        self.last_game: Outcome | None = None
        self.games_done = 0
        self.log: list[str] = []
        self.chat_lines: list[str] = []
        #: the same lines with the seat that said each (-1: not known), this peer's own among them: `chat_lines`
        #: name the speaker only, and a counter-offer's line must come from the seat it names (docs/protocol.md)
        self.chat_from: list[tuple[int, str]] = []
        self.names: list[str] = []
        self.rematch_asked = False
        self.deadlines: Deadlines | None = None
        self.game_log_start = 0
        self.closing = False            # set when the shell closes: no more own frames are built
        #: test and benchmark hooks: on_frame(frame, own) after a frame is applied and written,
        #: on_ack(seat, seq) when a joiner confirms a frame (host only)
        self.on_frame: Callable[[Frame, bool], None] | None = None
        self.on_ack: Callable[[int, int], None] | None = None
        self.handlers: dict[str, Callable[..., None]] = {}

    # ------------------------------------------------------------------------------ inputs

    def linked(self, now: float, key: bytes, name: str, address: str = "") -> None:
        raise NotImplementedError

    def unlinked(self, now: float, key: bytes, reason: str) -> None:
        raise NotImplementedError

    def receive(self, now: float, key: bytes, data: bytes) -> None:
        """One session message from the peer with `key`: decoded (a malformed one is dropped with its
        reason), then handed to this role's handler for its tag. It does not tick: the shell carries out
        the handler's effects first, then ticks (see the module docstring)."""
        self.now = now
        if self.outcome is not None and not self.lingering():
            return
        try:
            tag, fields = wire.unpack(data)
        except wire.Malformed as exc:
            log.warning("%s: dropped a message from %s: %s", self.role, key.hex()[:8], exc.reason)
            return
        # which messages this phase takes, after the end included (what a lingering peer takes for the others'
        # sake, and a seat's resume): netplay/protocol/state.py's table for this role
        if not accepts(self.role, self.phase, tag, fields):
            if tag not in self.handlers and self.phase is not Phase.DONE:
                log.warning("%s: dropped a %s message from %s: %ss do not take it", self.role, tag, key.hex()[:8],
                            self.role)
            return
        self.handlers[tag](key, *fields)

    def tick(self, now: float) -> None:
        raise NotImplementedError

    def waiting(self) -> Any:
        """The wait under way outside a game (netplay.protocol.waits.Wait: what, until when, and why this peer
        then leaves), for a person to see its countdown; None when there is none."""
        return None

    def lingering(self) -> bool:
        """After the end: whether another peer may still lack frames this one holds (it still answers their
        `want`s and takes their acknowledgements, while the shell lingers)."""
        return False

    def drain(self) -> list[fx.Effect]:
        out, self.outbox = self.outbox, []
        return out

    # ------------------------------------------------------------------------------ the interface of the features

    # What is None outside a game but always there inside one: the features ask for it through these, so that
    # a caller that breaks the precondition fails naming it (the phases guarantee it, not the types).

    def require_book(self) -> Book:
        """This peer's copy of the game: there from the header's acceptance (or a resume's) on."""
        book = self.book
        assert book is not None, "no game under way: the book exists from the header on"
        return book

    def require_header(self) -> Header:
        """The game's header: there once the host made it (a host) or this peer accepted it (a joiner)."""
        header = self.header
        assert header is not None, "no header yet: the game is not set"
        return header

    def require_deadlines(self) -> Deadlines:
        """The seats' clocks: there from a game's start (`start_lines`) on."""
        deadlines = self.deadlines
        assert deadlines is not None, "no game started: the deadlines are set by start_lines"
        return deadlines

    def send(self, to: bytes, tag: str, *fields: Any) -> None:
        self.send_raw(to, wire.pack(tag, *fields))

    def send_raw(self, to: bytes, data: bytes) -> None:
        self.outbox.append(fx.Send(to, data))

    def say(self, line: str) -> None:
        self.log.append(line)
        self.outbox.append(fx.Say(line))

    def write(self, frame: Frame | bytes | None, *records: tuple) -> None:
        data = frame.encode() if isinstance(frame, Frame) else frame
        self.outbox.append(fx.Write(data, tuple(records)))

    @property
    def phase(self) -> Phase:
        return self.state.phase

    def move(self, event: Event) -> None:
        """The one way the phase (and a joiner's stage) changes: netplay/protocol/state.py's tables."""
        self.state.move(event)

    def finish(self, code: int, message: str) -> None:
        if self.outcome is None:
            self.outcome = Outcome(code, message)
            self.move(Event.FINISH)
            log.info("%s session over: %s", self.role, message)

    # ------------------------------------------------------------------------------ queries at a time (for a UI)

    def claim_in(self, seat: int, now: float) -> float | None:
        """Seconds from `now` until this peer claims that `seat` withheld the frame awaited (None: none is due);
        0 from the tick that claims on (netplay/protocol/claims.py)."""
        return self.claims.claim_in(seat, now)

    def holds(self, seat: int) -> bool:
        return self.book is not None and self.book.holds(seat)

    @property
    def host_seat(self) -> int | None:
        header = self.header
        return None if header is None or header.terms is None else header.terms.host_seat

    def seat_key(self, seat: int) -> bytes:
        return self.require_header().seats[seat][0]

    def peer_of(self, seat: int) -> bytes | None:
        """The key of the peer that plays `seat` (its connection's key), as far as this peer knows."""
        raise NotImplementedError

    def decider_for(self, seat: int) -> Decider:
        return self.deciders.get(seat, self.decider)

    def chat(self, text: str, seat: int | None = None) -> None:
        """Say `text` at the table, as `seat` of this peer (None: its first); each role's machine sends it its way."""
        raise NotImplementedError

    def heard(self, seat: int, text: str) -> None:
        """A chat line said at the table by `seat` (-1: not known), this peer's own included: kept with its seat,
        and told to each decider here that listens (a bot hears counter-offers: bots/counters.py), not to the
        speaker's own. Told, never obeyed: what a bot makes of it is its own choice of a legal action."""
        self.chat_from.append((seat, text))
        told: set[int] = set()
        for own, decider in sorted(self.deciders.items()):
            hear = getattr(decider, "hear", None)
            if own != seat and hear is not None and id(decider) not in told:
                told.add(id(decider))
                hear(seat, text)

    def emit(self, frame: Frame) -> None:
        """Make an own frame count: the host sequences it, a joiner sends it to the host (and to every peer)."""
        raise NotImplementedError

    def blocked(self) -> bool:
        """True while this peer may not build its next frame (a joiner with a frame in flight)."""
        return False

    # a joiner's, which claims.py calls only when it is one (the host's links and frames are all its own)

    def witness_key(self, seat: int) -> bytes | None:
        """The key of the direct link over which this peer could witness `seat`'s silence (None: none)."""
        raise NotImplementedError

    def send_frame(self, frame: Frame) -> None:
        """Send a frame of ours (or one its author sent us) to the host."""
        raise NotImplementedError

    def accept_alone(self, frame: Frame) -> None:
        """Accept `frame` into our own replay without the host's sequence (a claim against it, and after)."""
        raise NotImplementedError

    def record_contest_alone(self) -> None:
        """Record our contest, which the host did not pass on, in our own replay."""
        raise NotImplementedError

    def holding(self, seq: int) -> bool:
        """True while this peer must not build a frame for `seq` again (the host refused the one it sent)."""
        return False

    def applied(self, accepted: Accepted, own: bool) -> None:
        """After a frame was applied and written: words for the log, then what the features do about it."""
        frame = accepted.frame
        for line in self.require_book().lines(accepted):
            self.say(line)
        self.claims.after_accept(frame)
        if self.on_frame is not None:
            self.on_frame(frame, own)

    # ------------------------------------------------------------------------------ own frames

    def work(self) -> None:
        """Build and emit every own frame that is due now (automatic ones, and decisions once made)."""
        book = self.book
        if book is None or self.phase is not Phase.PLAY or self.closing:
            return
        for _ in range(BURST):  # a bounded burst; the next tick comes back
            if self.outcome is not None:
                return
            ledger = book.ledger
            if ledger.closed and self.claims.may_close():
                self.game_closed()
                return
            if self.blocked():
                return
            frame = self.claims.contest_frame() if ledger.closed else self._next_own()
            if frame is None:
                return
            self.emit(frame)

    def _next_own(self) -> Frame | None:
        """The next frame this peer owes (None: nothing now)."""
        book = self.require_book()
        ledger = book.ledger
        contest = self.claims.contest_frame()
        if contest is not None:
            return contest
        try:
            nxt = ledger.expects()
        except DealUnsupported as exc:
            self.finish(EXIT_FAILED, str(exc))
            return None
        spoiled = next((led for led in book.ledgers.values() if led.must_claim_spoiled()), None)
        if spoiled is not None and not self.holding(len(ledger.frames)):
            self.say("the card dealt to you is no card of the deck: someone cheated; showing it")
            return spoiled.build_next()
        if not nxt:
            return None
        kind, seat = nxt[0]
        if not book.holds(seat):
            return self.claims.closing_frame()
        if self.holding(len(ledger.frames)) or not self.claims.may_build(kind, seat):
            return None
        own = book.ledger_for(seat)   # each seat builds with its own secrets and knowledge
        if kind in AUTOMATIC:
            try:
                return own.build_next()
            except Dispute as exc:       # our own frame, refused by our own ledger: never a peer's fault
                self.finish(EXIT_FAILED, f"this peer's own {kind} frame was refused by its ledger: {exc}")
                return None
        decision = own.decision()
        if decision is None:
            return None
        decider = self.decider_for(seat)
        action = decider.decide(book.game, own.state, seat, decision[1])
        if action is None:
            return None
        said = getattr(decider, "said", None)   # a bot's table talk with its choice (a counter-offer)
        for text in said() if said is not None else ():
            self.chat(text, seat)
        try:
            return own.build_action(action)
        except IllegalAction as exc:
            self.say(f"refused {action!r}: {exc.reason}")
        except RuntimeError as exc:
            self.say(f"refused {action!r}: {exc}")
        return None

    def strip_first(self, frame: Frame) -> None:
        """After another seat's strip was accepted (and written): if ours is due next, build and send it
        now, before acknowledging that strip and before the messages still waiting: the seats after us
        in the deal wait for our strip, nobody waits for the rest."""
        book = self.book
        if frame.kind != "strip" or book is None or book.holds(frame.seat) or self.closing:
            return
        nxt = book.ledger.awaited()
        if nxt is not None and nxt[0] == "strip" and book.holds(nxt[1]):
            self.work()

    # ------------------------------------------------------------------------------ the start and the end

    def start_lines(self) -> None:
        book = self.require_book()
        header = book.header
        self.names = [name for _, name in header.seats]
        self.players = header.players
        seats = ", ".join(str(s) for s in book.seats)
        self.say(f"{book.game.title or header.game}: session {header.session.hex()[:8]}, "
                 f"you are seat{'s' if len(book.seats) > 1 else ''} {seats}")
        for s, (key, name) in enumerate(header.seats):
            from replays.crypto import fingerprint
            self.say(f"  seat {s}: {wire.clip(name, 64)} ({fingerprint(key)})")
        if self.games_done:
            self.game_log_start = len(self.log) - 1 - len(header.seats)
        terms = header.terms if header.terms is not None else self.terms
        self.deadlines = Deadlines(terms, header.players)
        self.claims.reset()
        self.say(f"  terms: {terms.describe()}")

    def game_closed(self) -> None:
        """The ledger closed: complete (then rematch votes), unfinished by a timeout claim, contested or
        disputed."""
        book = self.require_book()
        ledger = book.ledger
        if self.phase is not Phase.PLAY:
            return
        if not self.claims.may_close():
            return   # our contest is on its way
        for seat in book.seats:
            self.outbox.append(fx.ForgetSeat(book.header.session, seat))
        if ledger.status == "complete":
            self.games_done += 1
            text = f"game over: {result_text(ledger.result, self.names)}"
            self.say(text)
            self.last_game = Outcome(EXIT_OK, f"{text}; replay {book.path}")
            self.move(Event.COMPLETE)
            self.rematch_asked = False
            self.rematch.over_since = self.now
            return
        if ledger.status == "unfinished":
            claim = ledger.claim
            assert claim is not None, "an unfinished ledger ended by its timeout claim"
            late = self.claims.late_words(claim.kind, claim.blamed)
            if book.holds(claim.blamed):
                text = (f"you forfeit: seat {claim.claimant} claimed in frame {claim.frame_no} that you withheld your "
                        f"{claim.kind} frame {late}")
            else:
                text = (f"seat {claim.blamed} forfeits: it withheld its {claim.kind} frame {late} "
                        f"(claimed by seat {claim.claimant} in frame {claim.frame_no})")
            self.say(text)
            self.finish(EXIT_FORFEIT, f"{text}; replay {book.path}")
            return
        if ledger.status == "contested":
            claim, contest = ledger.claim, ledger.contest
            assert claim is not None and contest is not None, "a contested ledger holds the claim and the contest"
            _, seat, reason, evidence = contest
            text = (f"contested: seat {claim.claimant} claimed that seat {claim.blamed} withheld its {claim.kind} "
                    f"frame, and seat {seat} contests it ({wire.clip(reason)}"
                    f"{'; with its frame as evidence' if evidence else ''}); nobody can be proven at fault, so "
                    "nobody forfeits")
            self.say(text)
            self.finish(EXIT_CONTESTED, f"{text}; replay {book.path}")
            return
        self.report_dispute(ledger.dispute)

    def report_dispute(self, dispute: Dispute | None) -> None:
        if dispute is None:
            self.finish(EXIT_DISPUTE, f"the game stopped in a dispute; replay {self.require_book().path}")
            return
        lines = [f"DISPUTE at frame {dispute.frame_no}, seat {dispute.seat}: {wire.clip(dispute.reason)}",
                 f"  claimed: {wire.clip(str(dispute.claimed))}", f"  allowed: {wire.clip(str(dispute.allowed))}",
                 f"  rule: {dispute.rule}"]
        for line in lines:
            self.say(line)
        self.finish(EXIT_DISPUTE, f"{lines[0]}; replay {self.require_book().path}")

    def stop_unfinished(self, why: str) -> None:
        """The game cannot go on and nobody can be proven at fault: stop, keep the seat for a resume."""
        path = self.book.path if self.book is not None else None
        self.say(f"the game stops unfinished: {why}")
        self.finish(EXIT_FAILED, f"the game stops unfinished: {why} (replay {path}; it can be resumed)")

    def games_message(self) -> str:
        """The summary of a session whose games ended normally."""
        last = self.last_game.message if self.last_game else "no game was played"
        return last if self.games_done <= 1 else f"{self.games_done} games played; the last one: {last}"


def link_words(link: Link) -> str:
    """A peer in a line the session says, by its name and its seat ("root@vm (seat 1)"): two machines set up
    alike announce the same name, and a line that names one must say which."""
    name = wire.clip(link.name, 64)
    return name if link.seat is None else f"{name} (seat {link.seat})"


def result_text(result: Result | None, names: list[str] | None = None) -> str:
    return "no result" if result is None else result.describe(names)


__all__ = ["BURST", "DECISIONS", "AUTOMATIC", "EXIT_CONTESTED", "EXIT_DISPUTE", "EXIT_FAILED", "EXIT_FORFEIT",
           "EXIT_OK", "JOINER_GRACE", "Link", "link_words", "Machine", "Outcome", "RESEND_S", "Decider", "result_text"]
