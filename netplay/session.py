"""A live game between peers: the session's state machine (netplay/protocol) driven over the real
transport, in one thread, with the clock, the files and the decisions of a person or a bot.

All protocol logic lives in the machine (`netplay.protocol.machines`): it takes a peer's message, a link
going up or down, and the time, and answers with effects. This shell feeds it from the transport's poll
and `time.monotonic()`, and carries its effects out in order: messages onto the transport, records into
the replay file (flushed, fsync'd unless asked not to, before anything that relies on them is sent),
resume files, log lines. `HostSession` (netplay/host.py) and `JoinSession` (netplay/joiner.py) add their
transports. A session is single-threaded like the transport under it: call `step()` in a loop (`run()`
does), or let `client.netcontroller.NetController` do it in a background thread; `lock` guards the
state a UI reads from another thread. Protocol details: docs/protocol.md, section "Session".
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from engines.core import Game, Result, State
from netplay import paths, resume, wire
from netplay.deadlines import AUTOMATIC, DECISIONS
from netplay.gameclock import GAME_CLOCK, UNTIMED, Choice, default_clock
from netplay.identity import Identity
from netplay.protocol import effects as fx
from netplay.protocol.clocks import SeatClock, seat_clocks
from netplay.protocol.core import (
    EXIT_CONTESTED,
    EXIT_DISPUTE,
    EXIT_FAILED,
    EXIT_FORFEIT,
    EXIT_OK,
    JOINER_GRACE,
    Decider,
    Machine,
    Outcome,
    result_text,
)
from netplay.protocol.state import Phase
from netplay.protocol.status import countdown, status_line
from netplay.transport import Waker
from replays.header import Terms
from replays.randomness import DealUnsupported
from replays.writer import ReplayWriter

log = logging.getLogger("netplay.session")

__all__ = ["EXIT_OK", "EXIT_FAILED", "EXIT_FORFEIT", "EXIT_DISPUTE", "EXIT_CONTESTED", "DEFAULT_REVEAL_TIMEOUT",
           "DEFAULT_MOVE_LIMIT", "DEFAULT_LATENESS", "DEFAULT_FRAME_TIME", "JOINER_GRACE", "Decider", "QueueDecider",
           "Outcome", "PeerState", "GameEnd", "SeatClock", "Session", "result_text", "version"]

DEFAULT_REVEAL_TIMEOUT = 120.0   # how long a seat may be away (its connection lost) before it can be claimed
DEFAULT_MOVE_LIMIT = 600.0       # one decision: 10 minutes at most, within the game's clock (None, by name: untimed)
DEFAULT_LATENESS = 60.0          # each seat's allowance, per game, for automatic frames later than the frame time
DEFAULT_FRAME_TIME = 0.5         # an automatic frame's own deadline (it is built at once)


def version() -> str:
    try:
        return metadata.version("netplay")
    except metadata.PackageNotFoundError:
        return "0"


def terms_for(reveal_timeout: float, clock: tuple[float, float] | None | Choice, move_limit: float | None,
              lateness: float, frame_time: float, host_seat: int = 0, game: str | None = None) -> Terms:
    """The terms a host proposes, from a person's seconds (whole milliseconds on the wire), range-checked.
    `clock` GAME_CLOCK: the game's own default (netplay/gameclock.py; no clock when no game is named, as
    for a joiner, who takes the host's terms); None: no clock, only the limit per decision."""
    if clock is GAME_CLOCK:
        clock = None if game is None else default_clock(game)
    if not 1 <= reveal_timeout <= 86400:
        raise ValueError("the reveal timeout must be 1 s to 24 h")
    if clock is not None and (not 1 <= clock[0] <= 86400 or not 0 <= clock[1] <= 86400):
        raise ValueError("a move clock is 1 s to 24 h, plus 0 s to 24 h per move")
    if move_limit is not None and not 1 <= move_limit <= 86400:
        raise ValueError("the limit per move is 1 s to 24 h (or untimed)")
    if not 0 <= lateness <= 86400:
        raise ValueError("the lateness allowance is 0 s to 24 h")
    if not 0.1 <= frame_time <= 86400:
        raise ValueError("the frame time is 0.1 s to 24 h")
    return Terms.agreed(int(reveal_timeout * 1000), None if clock is None else (int(clock[0] * 1000),
                                                                                 int(clock[1] * 1000)),
                        None if move_limit is None else int(move_limit * 1000), int(frame_time * 1000),
                        int(lateness * 1000), host_seat)


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


EndKind = Literal["result", "forfeit", "contested", "abandoned", "dispute"]


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How the current game ended, for an end screen: `kind` is "result" (the engine's co-signed
    result), "forfeit" (a timeout claim: `blamed` withheld a frame), "contested" (a claim and its contest:
    nobody at fault), "abandoned" (the session stopped before the game ended: a peer left or was lost; the
    game stays unfinished), or "dispute". `reason` is in words; never a draw unless the engine's result is one."""

    kind: EndKind
    winners: tuple[int, ...]
    reason: str
    result: Result | None = None
    blamed: int | None = None
    rematch_open: bool = False


# the frame a timeout claim names, as a player would say it
_FRAME_WORDS = {"act": "its move", "commit": "its choice", "reveal": "its revealed choice",
                "chain": "its share of a random draw", "shuffle": "its shuffle of the deck",
                "strip": "its part of a card's deal", "peek": "its part of a look at a hand",
                "show": "its part of a look at its hand", "seed": "its seed at the end", "final": "its signature on "
                "the result", "open": "its opening commitments"}


class Session:
    """The shell HostSession and JoinSession share; see the module docstring."""

    role = "peer"

    def __init__(self, identity: Identity, decider: Decider, *, replay_dir: str | Path | None = None,
                 reveal_timeout: float = DEFAULT_REVEAL_TIMEOUT,
                 clock: tuple[float, float] | None | Choice = GAME_CLOCK,
                 move_limit: float | None = DEFAULT_MOVE_LIMIT, lateness: float = DEFAULT_LATENESS,
                 frame_time: float = DEFAULT_FRAME_TIME, fsync: bool = True,
                 on_line: Callable[[str], None] | None = None, game: str | None = None):
        self.identity = identity
        self.decider = decider
        self.replay_dir = replay_dir
        self.reveal_timeout = reveal_timeout
        #: the terms this peer proposes (a host); a joiner takes the host's
        if clock is UNTIMED:
            clock, move_limit = None, None
        self.terms = terms_for(reveal_timeout, clock, move_limit, lateness, frame_time, game=game)
        self.fsync = fsync
        self.on_line = on_line
        self.lock = threading.RLock()
        self.machine: Machine | None = None
        self.writer: ReplayWriter | None = None
        self.replays: list[Path] = []
        self._calls: queue.Queue[Callable[[], None]] = queue.Queue()
        #: cuts the session thread's poll short when another thread posts a call or a decision (`wake`);
        #: made at the first poll, in the session's own thread, and closed with the session
        self._waker: Waker | None = None
        self._waker_closed = False
        self._closing = False
        self._early: Outcome | None = None
        #: a test hook: a lying peer of the tests (simulator/adversary.py) sees this peer's effects, incoming
        #: messages and ticks here (None: an honest peer)
        self.tap: Any = None

    # ------------------------------------------------------------------------------ what the machine holds

    @property
    def transcript(self) -> Any:
        """This peer's copy of the game under way (netplay.protocol.book.Book; `path` is its replay file)."""
        return self.machine.book if self.machine is not None else None

    @property
    def outcome(self) -> Outcome | None:
        return self.machine.outcome if self.machine is not None else self._early

    @property
    def phase(self) -> Phase:
        return self.machine.phase if self.machine is not None else Phase.LOBBY

    @property
    def game(self) -> Game | None:
        return self.machine.game if self.machine is not None else None

    @property
    def deadlines(self) -> Any:
        return self.machine.deadlines if self.machine is not None else None

    @property
    def deciders(self) -> dict[int, Decider]:
        return self.machine.deciders if self.machine is not None else {}

    def decider_for(self, seat: int) -> Decider:
        return self.machine.decider_for(seat) if self.machine is not None else self.decider

    # what a UI reads of the machine's state (read-only)
    @property
    def names(self) -> list[str]:
        return self.machine.names if self.machine is not None else []

    @property
    def players(self) -> int:
        return self.machine.players if self.machine is not None else 0

    @property
    def log(self) -> list[str]:
        return self.machine.log if self.machine is not None else []

    @property
    def chat_lines(self) -> list[str]:
        return self.machine.chat_lines if self.machine is not None else []

    @property
    def chat_from(self) -> list[tuple[int, str]]:
        """The chat lines with the seat that said each (netplay.protocol.core.Machine.heard)."""
        return self.machine.chat_from if self.machine is not None else []

    @property
    def games_done(self) -> int:
        return self.machine.games_done if self.machine is not None else 0

    @property
    def last_game(self) -> Outcome | None:
        return self.machine.last_game if self.machine is not None else None

    @property
    def rematch_asked(self) -> bool:
        return self.machine.rematch_asked if self.machine is not None else False

    @property
    def game_log_start(self) -> int:
        return self.machine.game_log_start if self.machine is not None else 0

    @property
    def seat(self) -> int | None:
        return None if self.transcript is None else self.transcript.seat

    @property
    def on_frame(self) -> Callable | None:
        return self.machine.on_frame

    @on_frame.setter
    def on_frame(self, hook: Callable | None) -> None:
        self.machine.on_frame = hook

    @property
    def on_ack(self) -> Callable | None:
        return self.machine.on_ack

    @on_ack.setter
    def on_ack(self, hook: Callable | None) -> None:
        self.machine.on_ack = hook

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
        except Exception as exc:   # a bug of ours: said in words, the replay closed, the others told (close)
            self.crashed(exc)
        finally:
            self.close()
        return self.outcome

    def crashed(self, exc: BaseException) -> None:
        """The session thread met an error it has no answer for (a bug): the traceback goes to the log, the
        outcome says so in words, and `close` then tells the other peers why (their `bye`) and closes the
        replay as it stands (every frame in it was fsync'd when written: an unfinished game, resumable)."""
        log.error("the %s session stopped on an internal error", self.role, exc_info=exc)
        with self.lock:
            self.finish(EXIT_FAILED, f"the {self.role} stopped on an internal error "
                                     f"({type(exc).__name__}: {wire.clip(str(exc), 200)})")

    def _input(self, call: Callable[[Machine], None], now: float | None = None) -> None:
        """Give the machine one input (under the lock), then carry out what it asks. With `now` (an input from
        a peer: a message, a link that came up or went down), then tick the machine at that time and carry out
        what the tick asks: what the input caused (an ack, a relay) is on its way before this peer builds its
        own next frame (netplay/protocol/core.py)."""
        machine = self.machine
        if machine is None:
            return
        call(machine)
        self._flush(machine)
        if now is not None:
            machine.tick(now)
            self._flush(machine)

    def _flush(self, machine: Machine) -> None:
        effects = machine.drain()
        if self.tap is not None:
            effects = self.tap.outgoing(machine, effects)
        self._carry_out(effects)

    def _receive(self, key: bytes, data: bytes) -> None:
        now = time.monotonic()
        if self.tap is not None and self.machine is not None:
            data = self.tap.incoming(self.machine, key, data)
            if data is None:
                return
        self._input(lambda m: m.receive(now, key, data), now)

    def _tick(self) -> None:
        tap = self.tap
        self._input(lambda m: (m.tick(time.monotonic()), tap is not None and tap.tick(m)))

    def _carry_out(self, effects: list[fx.Effect]) -> None:
        for effect in effects:
            try:
                self._effect(effect)
            except OSError as exc:   # the replay or a resume file cannot be written (disk full, permissions)
                log.exception("the %s session stopped", self.role)
                self.finish(EXIT_FAILED, f"cannot go on: {exc}")
                return

    def _effect(self, effect: fx.Effect) -> None:
        if isinstance(effect, fx.Send):
            self._send(effect.to, effect.data)
        elif isinstance(effect, fx.Write):
            if self.writer is None:
                return
            if effect.frame is not None:
                self.writer.append(effect.frame, *effect.records)
            else:
                for record in effect.records:
                    self.writer.append_record(record)
        elif isinstance(effect, fx.Say):
            if self.on_line is not None:
                self.on_line(effect.line)
        elif isinstance(effect, fx.OpenReplay):
            self._close_writer()
            folder = self.replay_dir if self.replay_dir is not None else paths.replays_dir()
            self.writer = ReplayWriter.in_dir(folder, effect.header, sync=self.fsync)
            self.replays.append(self.writer.path)
            if self.machine.book is not None:
                self.machine.book.path = self.writer.path
        elif isinstance(effect, fx.CloseReplay):
            self._close_writer()
        elif isinstance(effect, fx.DiscardReplay):
            writer, self.writer = self.writer, None
            if writer is not None:
                writer.close()
                if writer.path in self.replays:
                    self.replays.remove(writer.path)
                writer.path.unlink(missing_ok=True)
        elif isinstance(effect, fx.SaveSeat):
            record = effect.record
            if self.writer is not None and not record.replay:
                record = dataclasses.replace(record, replay=str(self.writer.path))
            resume.save(record)
        elif isinstance(effect, fx.ForgetSeat):
            resume.remove(effect.session, effect.seat)
        elif isinstance(effect, fx.Dial):
            self._dial(effect.to, effect.address)
        elif isinstance(effect, fx.Hangup):
            self._hangup(effect.to)

    def _send(self, to: bytes, data: bytes) -> None:
        raise NotImplementedError

    def _dial(self, to: bytes, address: str) -> None:
        pass

    def _hangup(self, to: bytes) -> None:
        pass

    def _close_writer(self) -> None:
        writer, self.writer = self.writer, None
        if writer is not None:
            writer.close()

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

    def chat(self, text: str, seat: int | None = None) -> None:
        """Say `text` at the table, as this peer's `seat` (None: its first; a hot seat passes the one shown)."""
        self._input(lambda m: m.chat(text, seat))

    def finish(self, code: int, message: str) -> None:
        if self.machine is None:
            if self._early is None:
                self._early = Outcome(code, message)
            return
        self.machine.finish(code, message)

    def games_message(self) -> str:
        return self.machine.games_message() if self.machine is not None else "no game was played"

    # ------------------------------------------------------------------------------ polling

    def _wait_ms(self, timeout_ms: int) -> int:
        """How long the next poll may wait: briefly while this peer's own decision is due (a person
        may decide at any moment), else `timeout_ms` (at most a quarter of a second: deadlines)."""
        transcript = self.transcript
        timeout_ms = min(timeout_ms, 250)
        if (self.phase is Phase.PLAY and transcript is not None and not transcript.ledger.closed
                and not self.blocked()):
            nxt = transcript.ledger.awaited()
            if nxt is not None and transcript.holds(nxt[1]) and nxt[0] not in AUTOMATIC:
                due = getattr(self.decider_for(nxt[1]), "due_in", None)   # a delayed bot: wake when it is due
                wait = int(due() * 1000) + 1 if due is not None and due() > 0 else 20
                return min(timeout_ms, wait)
        return timeout_ms

    def blocked(self) -> bool:
        return self.machine is not None and self.machine.blocked()

    def decision_queued(self) -> bool:
        """A person at this machine (any seat it holds) has just chosen: do not wait on the network."""
        return any(getattr(d, "waiting", False) for d in (self.decider, *self.deciders.values()))

    # ------------------------------------------------------------------------------ for the UI

    def waiting(self) -> tuple[str, float] | None:
        """The wait under way outside a game, for a countdown: (what this peer waits for, the seconds left
        before it leaves); None when there is none (netplay/protocol/waits.py)."""
        return countdown(self.machine, time.monotonic()) if self.machine is not None else None

    def status(self) -> str:
        """The status line, asked of the machine now (netplay/protocol/status.py)."""
        if self.machine is None:
            return self._early.message if self._early is not None else "waiting for the other players"
        return status_line(self.machine, time.monotonic())

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

    def peers(self) -> list[PeerState]:
        """The other peers as this one sees them; the host and joiners say more."""
        return []

    def _name(self, seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(self.names):
            return wire.clip(self.names[seat], 64)
        return "the other player" if seat is None else f"seat {seat}"

    def _claim_in(self, seat: int) -> float | None:
        """Seconds until this peer claims that `seat` withheld the frame awaited now (None: no claim due): the
        machine's own answer at this clock's time, so the countdown ends when the claim is made."""
        return self.machine.claim_in(seat, time.monotonic()) if self.machine is not None else None

    def game_end(self) -> GameEnd | None:
        """The end of the current game in words (None while it goes on)."""
        transcript = self.transcript
        rematch_open = self.phase is Phase.OVER and self.outcome is None
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
                terms = self.deadlines.terms if self.deadlines is not None else self.terms
                if claim.kind in DECISIONS and terms.clock is not None:
                    left = self.deadlines.allowance(blamed, time.monotonic()) if self.deadlines else None
                    if left is not None and left <= 0:
                        return GameEnd("forfeit", winners, f"{self._name(blamed)} did not send {what} before its "
                                                           f"move clock ({terms.describe_clock()}) ran out and "
                                                           "forfeits", blamed=blamed)
                return GameEnd("forfeit", winners, f"{self._name(blamed)} did not send {what} within the agreed time "
                                                   "and forfeits", blamed=blamed)
            if ledger.status == "contested" and ledger.claim is not None:
                claim = ledger.claim
                return GameEnd("contested", (), f"{self._name(claim.claimant)} claimed that {self._name(claim.blamed)} "
                                                "withheld a frame, and it contests the claim: nobody can be proven at "
                                                "fault, so nobody wins or loses")
            if ledger.status == "disputed":
                reason = ledger.dispute.reason if ledger.dispute is not None else "a frame broke the rules"
                return GameEnd("dispute", (), f"the game stopped in a dispute: {wire.clip(reason)}")
        if self.outcome is None:
            return None
        if self.outcome.code == EXIT_DISPUTE:
            return GameEnd("dispute", (), self.outcome.message)
        return GameEnd("abandoned", (), self.outcome.message)

    def clocks(self) -> list[SeatClock]:
        """Every seat's clock by this peer's clock ([] before the game)."""
        return [] if self.machine is None else seat_clocks(self.machine, time.monotonic())

    def terms_text(self) -> str:
        """The agreed terms in words (the proposed ones before the header)."""
        header = self.transcript.header if self.transcript is not None else None
        terms = header.terms if header is not None and header.terms is not None else self.terms
        return terms.describe()
