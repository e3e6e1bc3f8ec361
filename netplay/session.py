"""A live game between peers: lockstep over the transport, every frame through the shared ledger.

The host is the sequencer. Its ledger's order is the game's order: a joiner sends its own frames to
the host and applies them only when the host sends them back (as it sends every accepted frame to
every joiner), so all peers apply the same frames in the same order even when a timeout claim and a
late frame cross on the wire. The host can delay a joiner's frame but not forge or alter it: every
frame is signed by its author and checked by every peer's ledger. Each peer appends every accepted
frame to its replay file before it acknowledges (joiner) or relays (host) it.

`HostSession` (netplay/host.py) and `JoinSession` (netplay/joiner.py) share this base: deciding and
building own frames, the timeout rule, the end of a game, rematch votes and the log a UI shows. A
session is single-threaded like the transport under it: call `step()` in a loop (`run()` does), or
let `client.netcontroller.NetController` do it in a background thread; `lock` guards the state a UI
reads from another thread. Protocol details: docs/protocol.md, section "Session".
"""

from __future__ import annotations

import logging
import queue
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

from engines.core import Game, IllegalAction, Result, State
from netplay import paths, resume
from netplay.deadlines import AUTOMATIC, DECISIONS, Deadlines
from netplay.identity import Identity
from netplay.transcript import Transcript
from netplay.transport import Waker
from replays.crypto import fingerprint
from replays.frames import Frame
from replays.header import Terms
from replays.ledger import Dispute
from replays.randomness import DealUnsupported

log = logging.getLogger("netplay.session")

EXIT_OK = 0          # the game ended normally (and any rematches too)
EXIT_FAILED = 1      # refused, lost the connection, bad input
EXIT_FORFEIT = 3     # the game ended by a timeout claim (someone withheld a frame)
EXIT_DISPUTE = 4     # a peer sent a frame the rules or the protocol forbid, or a desync
EXIT_CONTESTED = 5   # a timeout claim was contested: nobody can be proven at fault, nobody forfeits

DEFAULT_REVEAL_TIMEOUT = 120.0
JOINER_GRACE = 5.0   # a joiner claims this much later than the host would, and waits this long for the relay
ANSWER_WINDOW = 5.0  # how long a claim stays open for the blamed seat's answer (at most the reveal timeout)


def version() -> str:
    try:
        return metadata.version("netplay")
    except metadata.PackageNotFoundError:
        return "0"


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


class QueueDecider:
    """Decisions handed over from a UI thread: `submit(action)` and `vote(bool)`."""

    def __init__(self) -> None:
        self.actions: queue.Queue[str] = queue.Queue()
        self.vote_value: bool | None = None

    def prepare(self, game: Game) -> None:
        pass

    def submit(self, action: str) -> None:
        self.actions.put(action)

    def vote(self, rematch: bool) -> None:
        self.vote_value = rematch

    def decide(self, game: Game, state: State, seat: int, legal: list[str]) -> str | None:
        try:
            return self.actions.get_nowait()
        except queue.Empty:
            return None

    def rematch(self, games_done: int) -> bool | None:
        vote, self.vote_value = self.vote_value, None
        return vote

    @property
    def waiting(self) -> bool:
        return not self.actions.empty()


# ---------------------------------------------------------------------------------- for the client
# (added for the client's peer banner and end screen; only read the state above, change nothing)

@dataclass(frozen=True, slots=True)
class PeerState:
    """What this peer knows of another one, for a banner: connected or lost (and since when), and
    what the session will do about it and when (`deadline_s`: seconds from now, None: nothing is due)."""

    seat: int | None
    name: str
    connected: bool
    gone_s: float = 0.0
    next: str = ""
    deadline_s: float | None = None


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How the current game ended, for an end screen: `kind` is "result" (the engine's co-signed
    result), "forfeit" (a timeout claim: `blamed` withheld a frame), "abandoned" (the session stopped
    before the game ended: a peer left or was lost; the game stays unfinished), or "dispute".
    `reason` is in words; never a draw unless the engine's result is one."""

    kind: str
    winners: tuple[int, ...]
    reason: str
    result: Result | None = None
    blamed: int | None = None
    rematch_open: bool = False


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's time as this peer's clock counts it, for a table: `left_s`, what is left of its move
    clock (None: the game has no move clock); `running`, whether its decision is awaited now (the clock
    runs); `limit_s`, what is left of the limit on the decision awaited now (None: no such limit, or not
    this seat's decision). Figures are this peer's: another peer's clock may differ by the network delay."""

    seat: int
    left_s: float | None
    running: bool
    limit_s: float | None = None


# the frame a timeout claim names, as a player would say it
_FRAME_WORDS = {"act": "its move", "commit": "its choice", "reveal": "its revealed choice",
                "chain": "its share of a random draw", "shuffle": "its shuffle of the deck",
                "strip": "its part of a card's deal", "peek": "its part of a look at a hand",
                "show": "its part of a look at its hand", "seed": "its seed at the end", "final": "its signature on "
                "the result", "open": "its opening commitments"}


def result_text(result: Result | None, names: list[str] | None = None) -> str:
    return "no result" if result is None else result.describe(names)


class Session:
    """The part of a peer that HostSession and JoinSession share; see the module docstring."""

    role = "peer"

    def __init__(self, identity: Identity, decider: Decider, *, replay_dir: str | Path | None = None,
                 reveal_timeout: float = DEFAULT_REVEAL_TIMEOUT, clock: tuple[float, float] | None = None,
                 fsync: bool = True, on_line: Callable[[str], None] | None = None):
        if not 1 <= reveal_timeout <= 86400:
            raise ValueError("the reveal timeout must be 1 s to 24 h")
        if clock is not None and (not 1 <= clock[0] <= 86400 or not 0 <= clock[1] <= 86400):
            raise ValueError("a move clock is 1 s to 24 h, plus 0 s to 24 h per move")
        self.identity = identity
        self.decider = decider
        #: who decides for each seat this peer holds (filled in when the seats are known)
        self.deciders: dict[int, Decider] = {}
        self.replay_dir = replay_dir
        self.reveal_timeout = reveal_timeout
        #: the terms this peer proposes (a host) or was offered (a joiner); the header's are binding
        self.terms = Terms(2, int(reveal_timeout * 1000),
                           None if clock is None else (int(clock[0] * 1000), int(clock[1] * 1000)))
        self.deadlines: Deadlines | None = None
        self.fsync = fsync
        self.on_line = on_line
        #: test and benchmark hooks: on_frame(frame, own) after a frame is applied and written,
        #: on_ack(seat, seq) when a joiner confirms a frame (host only)
        self.on_frame: Callable[[Frame, bool], None] | None = None
        self.on_ack: Callable[[int, int], None] | None = None
        self.lock = threading.RLock()
        self.transcript: Transcript | None = None
        self.game: Game | None = None
        self.phase = "lobby"            # lobby | play | over | done
        self.outcome: Outcome | None = None
        self.last_game: Outcome | None = None
        self.games_done = 0
        self.replays: list[Path] = []
        self.log: list[str] = []
        self.chat_lines: list[str] = []
        self.names: list[str] = []
        self.players = 0
        self.rematch_asked = False
        self._seen = -1                 # frames in the ledger when the awaited frame became awaited
        self._since = time.monotonic()
        self._hold_seq: int | None = None   # an own frame we must not build again (withheld or refused)
        self._claim_seen = 0.0           # when the open claim was accepted (this peer's clock)
        self._evidence: Frame | None = None    # our own frame for a slot a claim names (sent, not passed on)
        self._contested = False
        self._over_since = 0.0
        self.game_log_start = 0          # where the current game's lines begin in `log` (after a rematch)
        self._calls: queue.Queue[Callable[[], None]] = queue.Queue()
        #: cuts the session thread's poll short when another thread posts a call or a decision (`wake`);
        #: made at the first poll, in the session's own thread, and closed with the session
        self._waker: Waker | None = None
        self._waker_closed = False
        self._closing = False           # set by close(): no more own frames are built

    # ------------------------------------------------------------------------------ the loop

    def step(self, timeout_ms: int = 100) -> None:
        raise NotImplementedError

    def run(self, max_seconds: float | None = None, step_ms: int = 100) -> Outcome:
        """Step until the session is over; then close it. Returns the outcome."""
        deadline = None if max_seconds is None else time.monotonic() + max_seconds
        problem = self.replay_dir_problem()
        if problem is not None:    # say so before anyone joins, not when the first frame is due
            self.finish(EXIT_FAILED, problem)
        try:
            while self.outcome is None:
                self.step(step_ms)
                if deadline is not None and time.monotonic() > deadline:
                    self.finish(EXIT_FAILED, f"gave up after {max_seconds:g} s")
        except DealUnsupported as exc:
            self.finish(EXIT_FAILED, str(exc))
        except OSError as exc:   # the replay cannot be written (disk full, permissions): stop, say why
            log.exception("the %s session stopped", self.role)
            self.finish(EXIT_FAILED, f"cannot go on: {exc}")
        finally:
            self.close()
        return self.outcome

    def close(self) -> None:
        raise NotImplementedError

    def replay_dir_problem(self) -> str | None:
        """Why this peer could not write its replay files (None: it can); checked when the session starts."""
        folder = Path(self.replay_dir) if self.replay_dir is not None else paths.replays_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=folder) as probe:
                probe.write(b"netplay")
                probe.flush()
        except OSError as exc:
            return f"cannot write replays to {folder}: {exc.strerror or exc}"
        return None

    def post(self, call: Callable[[], None]) -> None:
        """Run `call` in the session's own thread at its next step (the transport is not thread-safe)."""
        self._calls.put(call)
        self.wake()

    def wake(self) -> None:
        """From another thread: a decision was handed over (or a call posted); the session thread, if it
        waits in its poll, goes on at once rather than at the end of its poll interval."""
        waker = self._waker
        if waker is not None:
            waker.wake()

    def _poll_waker(self) -> Waker | None:
        """The waker for this poll; None once the session was closed (perhaps from another thread while
        this one was stepping: a new one would never be closed)."""
        if self._waker is None and not self._waker_closed:
            self._waker = Waker()
        return self._waker

    def _close_waker(self) -> None:
        self._waker_closed = True
        waker, self._waker = self._waker, None
        if waker is not None:
            waker.close()

    def _run_posted(self) -> None:
        while True:
            try:
                call = self._calls.get_nowait()
            except queue.Empty:
                return
            call()

    def chat(self, text: str) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------------------ reporting

    def say(self, line: str) -> None:
        self.log.append(line)
        if self.on_line is not None:
            self.on_line(line)

    def finish(self, code: int, message: str) -> None:
        if self.outcome is None:
            self.outcome = Outcome(code, message)
            self.phase = "done"
            log.info("%s session over: %s", self.role, message)

    def games_message(self) -> str:
        """The summary of a session whose games ended normally."""
        last = self.last_game.message if self.last_game else "no game was played"
        return last if self.games_done <= 1 else f"{self.games_done} games played; the last one: {last}"

    @property
    def seat(self) -> int | None:
        return None if self.transcript is None else self.transcript.seat

    def status(self) -> str:
        if self.outcome is not None:
            return self.outcome.message
        if self.phase == "lobby":
            return "waiting for the other players"
        if self.phase == "over":
            return "game over; rematch?" if not self.rematch_asked else "waiting for the others to agree to a rematch"
        ledger = self.transcript.ledger
        nxt = ledger.awaited()
        if nxt is None:
            return "game over"
        kind, seat = nxt
        if ledger.status == "claimed":
            claim = ledger.claim
            if self.transcript.holds(claim.blamed):
                return f"seat {claim.claimant} claims you withheld your {claim.kind}: answering"
            return f"seat {claim.claimant} claims seat {claim.blamed} withheld its {claim.kind}: waiting for its answer"
        if self.transcript.holds(seat) and seat != self.transcript.seat and kind not in AUTOMATIC:
            return f"seat {seat}'s move (on this machine)"
        if seat == self.transcript.seat:
            if kind in AUTOMATIC:
                return "sending"
            waiting = self.game.awaiting(ledger.state)
            if waiting.kind == "simultaneous":
                return "your choice (the others choose at the same time)"
            return "your move"
        who = self.names[seat] if seat < len(self.names) else f"seat {seat}"
        if kind in AUTOMATIC:
            return f"waiting for {who}'s {kind}"
        return f"waiting for {who} (seat {seat}) to choose"

    # ------------------------------------------------------------------------------ own frames

    def _wait_ms(self, timeout_ms: int) -> int:
        """How long the next poll may wait: briefly while this peer's own decision is due (a person
        may decide at any moment), else `timeout_ms`."""
        transcript = self.transcript
        if (self.phase == "play" and transcript is not None and not transcript.ledger.closed
                and not self.blocked()):
            nxt = transcript.ledger.awaited()
            if nxt is not None and transcript.holds(nxt[1]) and nxt[0] not in AUTOMATIC:
                due = getattr(self.decider_for(nxt[1]), "due_in", None)   # a delayed bot: wake when it is due
                wait = int(due() * 1000) + 1 if due is not None and due() > 0 else 20
                return min(timeout_ms, wait)
        return timeout_ms

    def blocked(self) -> bool:
        """True while this peer may not build its next frame (a joiner with a frame in flight)."""
        return False

    def decision_queued(self) -> bool:
        """A person at this machine (any seat it holds) has just chosen: do not wait on the network."""
        return any(getattr(d, "waiting", False) for d in (self.decider, *self.deciders.values()))

    def decider_for(self, seat: int) -> Decider:
        return self.deciders.get(seat, self.decider)

    def _emit(self, frame: Frame) -> None:
        """Make an own frame count: the host accepts and relays it, a joiner sends it to the host."""
        raise NotImplementedError

    def _work(self) -> None:
        """Build and emit every own frame that is due now (automatic ones, and decisions once made)."""
        transcript = self.transcript
        if transcript is None or self.phase != "play":
            return
        for _ in range(64):  # a bounded burst; the loop comes back
            if self.outcome is not None:
                return
            ledger = transcript.ledger
            if ledger.closed:
                self._game_closed()
                return
            if self.blocked():
                return
            try:
                nxt = ledger.expects()
            except DealUnsupported as exc:
                self.finish(EXIT_FAILED, str(exc))
                return
            kind, seat = nxt[0]
            seq = len(ledger.frames)
            spoiled = next((led for led in transcript.ledgers.values() if led.must_claim_spoiled()), None)
            if spoiled is not None and self._hold_seq != seq:
                self.say("the card dealt to you is no card of the deck: someone cheated; showing it")
                self._emit(spoiled.build_next())
                continue
            if not transcript.holds(seat) or self._hold_seq == seq:
                return
            ledger = transcript.ledger_for(seat)   # each seat builds with its own secrets and knowledge
            if kind in AUTOMATIC:
                frame = ledger.build_next()
            else:
                decision = ledger.decision()
                action = self.decider_for(seat).decide(transcript.game, ledger.state, seat, decision[1])
                if action is None:
                    return
                try:
                    frame = ledger.build_action(action)
                except IllegalAction as exc:
                    self.say(f"refused {action!r}: {exc.reason}")
                    continue
                except RuntimeError as exc:
                    self.say(f"refused {action!r}: {exc}")
                    return
            if frame is None:
                return
            self._emit(frame)

    def _strip_first(self, frame: Frame) -> None:
        """After another seat's strip was accepted (and written): if ours is due next, build and send it
        now, before acknowledging that strip (a signature, and on the host 40 us to check it) and before
        the messages still waiting. The seats after us in the deal wait for our strip; nobody waits for
        the rest. Not while the session closes (the host's close still takes the joiners' last frames)."""
        transcript = self.transcript
        if frame.kind != "strip" or transcript is None or transcript.holds(frame.seat) or self._closing:
            return
        nxt = transcript.ledger.awaited()
        if nxt is not None and nxt[0] == "strip" and transcript.holds(nxt[1]):
            self._work()

    # ------------------------------------------------------------------------------ timeouts

    def _claim_grace(self, kind: str) -> float:
        """How much later than its deadline this peer claims (a joiner lets an honest host's claim,
        which it would receive, come first)."""
        return 0.0

    def _timers(self) -> None:
        transcript = self.transcript
        if transcript is None or self.phase != "play" or self.outcome is not None:
            return
        ledger = transcript.ledger
        now = time.monotonic()
        count = len(ledger.frames)
        if count != self._seen:
            self._seen, self._since = count, now
            self._moved()
        if ledger.closed:
            return
        self.deadlines.moved(count, ledger.awaited(), now, ledger.frames)
        if ledger.status == "claimed":
            self._claimed(ledger, now)
            return
        nxt = ledger.claimable()
        if nxt is None or transcript.holds(nxt[1]):
            return
        remaining = self.deadlines.remaining(nxt[0], nxt[1], now)
        if remaining is not None and remaining + self._claim_grace(nxt[0]) <= 0:
            self._claim(nxt[0], nxt[1], now - self._since)

    def _claimed(self, ledger: Any, now: float) -> None:
        """An open claim: the blamed seat answers (its automatic frame, or a decision when made) or,
        when the claim came while it was here and its decision untimed, contests it; the seat that
        closes the window does so once the answer window has passed."""
        claim = ledger.claim
        if self.transcript.holds(claim.blamed):
            me = claim.blamed
            if claim.kind in DECISIONS and not self._contested:
                left = self.deadlines.allowance(me, now)
                if left is None or left > 0:
                    why = ("thinking is untimed and this seat is connected" if left is None
                           else f"this seat's move clock has {left:.0f} s left")
                    self._contest(f"claimed while deciding: {why}")
            return
        kind, closer = ledger.expects()[1]
        window = min(ANSWER_WINDOW, self.deadlines.timeout)
        if self.transcript.holds(closer) and now - self._claim_seen >= window and not self.blocked():
            self.say(f"seat {claim.blamed} did not answer the claim within {window:g} s: the claim stands")
            self._emit(self.transcript.ledger_for(closer).build_after_claim())

    def _contest(self, reason: str) -> None:
        """Contest the claim that blames us, with our own frame for the slot as evidence if we hold one."""
        ledger = self.transcript.ledger_for(self.transcript.ledger.claim.blamed)
        self._contested = True
        evidence = self._evidence
        self.say(f"contesting the claim against us: {reason}")
        self._emit(ledger.build_contest(reason, evidence))

    def _after_accept(self, frame: Frame) -> None:
        """Bookkeeping after any frame was accepted: note an open claim's time; contest a claim against
        us that became final although we had answered (our answer never reached the others)."""
        ledger = self.transcript.ledger
        claim = ledger.claim
        if frame.kind == "timeout" and claim is not None and claim.open:
            self._claim_seen = time.monotonic()
            if self.transcript.holds(claim.blamed):
                self.say(f"seat {claim.claimant} claims that you withheld your {claim.kind} frame: answering")
        if (claim is not None and not claim.open and self.transcript.holds(claim.blamed) and not self._contested
                and self._evidence is not None and ledger.status in ("reveal", "cosign", "unfinished")):
            self._contest("our frame for the claimed slot was sent in time and not passed on")

    def _clock_ran_out(self, kind: str, seat: int) -> bool:
        """Whether a claim against `seat`'s `kind` frame is one of its move clock having run out (by this
        peer's clock), rather than of a frame withheld past the reveal timeout or of a seat gone."""
        deadlines = self.deadlines
        if deadlines is None or kind not in DECISIONS or deadlines.terms.clock is None:
            return False
        left = deadlines.allowance(seat, time.monotonic())
        return left is not None and left <= 0

    def _late(self, kind: str, seat: int) -> str:
        """How late a claimed frame is, in words: past the move clock, or past the timeout."""
        if self._clock_ran_out(kind, seat):
            return f"past its move clock ({self.deadlines.terms.describe_clock()})"
        return "past the timeout"

    def _moved(self) -> None:
        """The ledger moved on (hook for claims in flight)."""

    def _claim(self, kind: str, seat: int, waited: float) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------------------ the end

    def _start_lines(self) -> None:
        transcript = self.transcript
        header = transcript.header
        self.names = [name for _, name in header.seats]
        self.players = header.players
        seats = ", ".join(str(s) for s in transcript.seats)
        self.say(f"{transcript.game.title or header.game}: session {header.session.hex()[:8]}, "
                 f"you are seat{'s' if len(transcript.seats) > 1 else ''} {seats}")
        for s, (key, name) in enumerate(header.seats):
            self.say(f"  seat {s}: {name} ({fingerprint(key)})")
        self.replays.append(transcript.path)
        if self.games_done:
            self.game_log_start = len(self.log) - 1 - len(header.seats)
        self._seen, self._since = -1, time.monotonic()
        self._hold_seq = None
        self._evidence, self._contested = None, False
        terms = header.terms if header.terms is not None else self.terms
        self.deadlines = Deadlines(terms, header.players)
        self.say(f"  terms: {terms.describe()}")

    def _game_closed(self) -> None:
        """The ledger closed: complete (then rematch votes), unfinished by a timeout claim, or disputed."""
        transcript = self.transcript
        ledger = transcript.ledger
        if self.phase != "play":
            return
        if ledger.status == "unfinished" and self._contested and self.blocked():
            return   # our contest is on its way to the host
        for seat in transcript.seats:
            resume.remove(transcript.header.session, seat)
        if ledger.status == "complete":
            self.games_done += 1
            text = f"game over: {result_text(ledger.result, self.names)}"
            self.say(text)
            self.last_game = Outcome(EXIT_OK, f"{text}; replay {transcript.path}")
            self.phase = "over"
            self.rematch_asked = False
            self._over_since = time.monotonic()
            return
        if ledger.status == "unfinished" and self._evidence is not None and not self._contested \
                and ledger.claim is not None and transcript.holds(ledger.claim.blamed):
            self._contest("our frame for the claimed slot was sent in time and not passed on")
            return   # the contest frame closes the game as contested
        if ledger.status == "unfinished":
            claim = ledger.claim
            late = self._late(claim.kind, claim.blamed)
            if transcript.holds(claim.blamed):
                text = (f"you forfeit: seat {claim.claimant} claimed in frame {claim.frame_no} that you withheld your "
                        f"{claim.kind} frame {late}")
            else:
                text = (f"seat {claim.blamed} forfeits: it withheld its {claim.kind} frame {late} "
                        f"(claimed by seat {claim.claimant} in frame {claim.frame_no})")
            self.say(text)
            self.finish(EXIT_FORFEIT, f"{text}; replay {transcript.path}")
            return
        if ledger.status == "contested":
            claim = ledger.claim
            _, seat, reason, evidence = ledger.contest
            text = (f"contested: seat {claim.claimant} claimed that seat {claim.blamed} withheld its {claim.kind} "
                    f"frame, and seat {seat} contests it ({reason}{'; with its frame as evidence' if evidence else ''})"
                    "; nobody can be proven at fault, so nobody forfeits")
            self.say(text)
            self.finish(EXIT_CONTESTED, f"{text}; replay {transcript.path}")
            return
        dispute = ledger.dispute
        self._report_dispute(dispute)

    def _report_dispute(self, dispute: Dispute | None) -> None:
        transcript = self.transcript
        if dispute is None:
            self.finish(EXIT_DISPUTE, f"the game stopped in a dispute; replay {transcript.path}")
            return
        lines = [f"DISPUTE at frame {dispute.frame_no}, seat {dispute.seat}: {dispute.reason}",
                 f"  claimed: {dispute.claimed}", f"  allowed: {dispute.allowed}", f"  rule: {dispute.rule}"]
        for line in lines:
            self.say(line)
        self.finish(EXIT_DISPUTE, f"{lines[0]}; replay {transcript.path}")

    # ------------------------------------------------------------------------------ for the UI

    def result(self) -> Result | None:
        """The engine's result once the game is co-signed; for a game that stopped otherwise, a result
        whose reason says why (so a UI that waits for a result ends)."""
        transcript = self.transcript
        if transcript is None:
            if self.outcome is not None:
                return Result((), (), self.outcome.message)
            return None
        ledger = transcript.ledger
        if ledger.status == "complete":
            return ledger.result
        if ledger.status == "unfinished" and ledger.claim is not None:
            claim = ledger.claim
            return Result(tuple(s for s in range(ledger.players) if s != claim.blamed and s not in ledger.state.out),
                          (), f"forfeit: seat {claim.blamed} withheld its {claim.kind} frame")
        if ledger.status == "contested":
            return Result((), (), "contested: a timeout claim and its contest conflict; nobody forfeits")
        if ledger.status == "disputed":
            return Result((), (), f"dispute: {ledger.dispute.reason if ledger.dispute else 'stopped'}")
        if self.outcome is not None:
            return Result((), (), self.outcome.message)
        return None

    # ------------------------------------------------------------------------------ for the client
    # (added for the client's peer banner and end screen; they read the state above and change nothing)

    def peers(self) -> list[PeerState]:
        """The other peers as this one sees them; the host and joiners say more."""
        return []

    def _name(self, seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return "the other player" if seat is None else f"seat {seat}"

    def _claim_in(self, seat: int) -> float | None:
        """Seconds until this peer claims that `seat` withheld the frame awaited now (None: no claim due)."""
        transcript = self.transcript
        if transcript is None or self.phase != "play" or transcript.ledger.closed or self.deadlines is None:
            return None
        nxt = transcript.ledger.claimable()
        if nxt is None or nxt[1] != seat:
            return None
        remaining = self.deadlines.remaining(nxt[0], nxt[1], time.monotonic())
        return None if remaining is None else max(0.0, remaining + self._claim_grace(nxt[0]))

    def clocks(self) -> list[SeatClock]:
        """Every seat's clock by this peer's clock ([] before the game, or when nothing is timed)."""
        transcript, deadlines = self.transcript, self.deadlines
        if transcript is None or deadlines is None or self.phase != "play":
            return []
        now = time.monotonic()
        ledger = transcript.ledger
        nxt = None if ledger.closed else ledger.awaited()
        out = []
        for seat in range(ledger.players):
            running = nxt is not None and nxt[1] == seat and nxt[0] in DECISIONS
            left = deadlines.allowance(seat, now)
            out.append(SeatClock(seat, None if left is None else max(0.0, left), running))
        return out

    def terms_text(self) -> str:
        """The agreed terms in words (the proposed ones before the header)."""
        header = self.transcript.header if self.transcript is not None else None
        terms = header.terms if header is not None and header.terms is not None else self.terms
        return terms.describe()

    def game_end(self) -> GameEnd | None:
        """The end of the current game in words (None while it goes on)."""
        transcript = self.transcript
        rematch_open = self.phase == "over" and self.outcome is None
        if transcript is not None:
            ledger = transcript.ledger
            if ledger.status == "complete" and ledger.result is not None:
                return GameEnd("result", tuple(ledger.result.winners), ledger.result.reason, ledger.result,
                               rematch_open=rematch_open)
            if ledger.status == "unfinished" and ledger.claim is not None:
                claim = ledger.claim
                blamed = claim.blamed
                winners = tuple(s for s in range(ledger.players) if s != blamed and s not in ledger.state.out)
                what = _FRAME_WORDS.get(claim.kind, f"its {claim.kind} frame")
                if self._clock_ran_out(claim.kind, blamed):
                    return GameEnd("forfeit", winners, f"{self._name(blamed)} did not send {what} before its move "
                                                       f"clock ({self.deadlines.terms.describe_clock()}) ran out and "
                                                       "forfeits", blamed=blamed)
                limit = self.deadlines.timeout if self.deadlines is not None else self.reveal_timeout
                return GameEnd("forfeit", winners, f"{self._name(blamed)} did not send {what} within "
                                                   f"{limit:g} s and forfeits", blamed=blamed)
            if ledger.status == "contested" and ledger.claim is not None:
                claim = ledger.claim
                return GameEnd("contested", (), f"{self._name(claim.claimant)} claimed that {self._name(claim.blamed)} "
                                                "withheld a frame, and it contests the claim: nobody can be proven at "
                                                "fault, so nobody wins or loses")
            if ledger.status == "disputed":
                reason = ledger.dispute.reason if ledger.dispute is not None else "a frame broke the rules"
                return GameEnd("dispute", (), f"the game stopped in a dispute: {reason}")
        if self.outcome is None:
            return None
        if self.outcome.code == EXIT_DISPUTE:
            return GameEnd("dispute", (), self.outcome.message)
        return GameEnd("abandoned", (), self.outcome.message)
