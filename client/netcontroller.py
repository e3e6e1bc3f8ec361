"""A networked game behind the `Controller` interface, for the terminal UI and the Pygame table.

The session runs in a background thread (the transport must be polled every heartbeat, and the UI
may block: the terminal waits on input, Pygame on its frame clock). The UI thread only reads state
under the session's lock and hands decisions over through queues, so nothing it does can stall the
network or touch a ZeroMQ socket from the wrong thread. `thread=False` instead steps the session in
`poll()`, for a UI loop that polls often enough (at least once a second).

Several seats on this peer (docs/protocol.md, "Several seats on one peer"): every seat whose decider is a
`QueueDecider` is a person at this screen (hot seat); bots decide by themselves. The controller shows
one human seat at a time, `seat`: the one whose decision is due, and the last one that decided while
none is. Its view, legal actions, words and log come from that seat's own ledger (its knowledge
state), never from another seat's, and `submit` goes to that seat's decider. A front end hands the
screen over with a cover ("pass to Anna") whenever `seat` changes from one human to another.
"""

from __future__ import annotations

import dataclasses as dc
import logging
import re
import threading
import time

from client.controller import with_own_chat
from client.ending import Ending, RematchState, expired_words, from_game_end
from client.names import distinct
from engines.core import HIDDEN, Game, IllegalAction, Result
from netplay.deadlines import DECISIONS
from netplay.session import EXIT_FAILED, Outcome, PeerState, QueueDecider, SeatClock, Session
from netplay.wire import clip

log = logging.getLogger("netplay.session")

_OWN_DRAW = re.compile(r"^you draw (.*) \(secret\)$")  # the session's line for the first local seat's draw
# the session's lines for another seat's rematch vote: the host's ("NAME (seat 1) wants a rematch") and a
# joiner's (the host's list of the seats that voted: "rematch wanted by seat(s) 0, 1")
_WANTS_REMATCH = re.compile(r"\(seat (\d+)\) wants a rematch$")
_REMATCH_SEATS = re.compile(r"^rematch wanted by seat\(s\) ([\d, ]+)$")


class NetController:
    def __init__(self, session: Session, decider: QueueDecider, *, thread: bool = True):
        self.session = session
        self.decider = decider
        self.threaded = thread
        self._current: int | None = None   # the human seat shown now (see the module docstring)
        #: this screen's own chat lines, each with the length of the session's log when it was sent: the
        #: session keeps them apart from its log, and a table shows them where they were said
        self._own_chat: list[tuple[int, str]] = []
        self._thread: threading.Thread | None = None
        if thread:
            self._thread = threading.Thread(target=self._run, name="netplay-session", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            self.session.run()
        except Exception as exc:  # the UI must learn that the session died, whatever the cause
            self.session.crashed(exc)

    # ------------------------------------------------------------------------------ Controller

    @property
    def game(self) -> Game | None:
        return self.session.game

    @property
    def seat(self) -> int | None:
        """The local human seat whose screen this is now: the one to decide, else the last one shown."""
        with self.session.lock:
            return self._follow()

    def humans(self) -> list[int]:
        """The seats this peer holds that a person at this screen plays (their decider is a queue)."""
        with self.session.lock:
            return self._humans()

    def _humans(self) -> list[int]:
        transcript = self.session.transcript
        if transcript is None:
            return []
        return [s for s in transcript.seats if self._human(s)]

    def _human(self, seat: int) -> bool:
        decider = self.session.decider_for(seat)
        return decider is self.decider or isinstance(decider, QueueDecider)

    def _deciding(self) -> int | None:
        """The local human seat whose decision the game waits for now (None: nobody's here)."""
        session = self.session
        transcript = session.transcript
        if transcript is None or session.phase != "play" or transcript.ledger.closed:
            return None
        nxt = transcript.ledger.awaited()
        if nxt is None or nxt[0] not in DECISIONS or not transcript.holds(nxt[1]):
            return None
        return nxt[1] if self._human(nxt[1]) else None

    def _follow(self) -> int | None:
        """Move `seat` to the human seat that must decide now (call under the session's lock)."""
        transcript = self.session.transcript
        if transcript is None:
            self._current = None
            return None
        deciding = self._deciding()
        if deciding is not None:
            self._current = deciding
        elif self._current is None or not transcript.holds(self._current):
            humans = self._humans()
            self._current = transcript.seat if not humans or transcript.seat in humans else humans[0]
        return self._current

    def _ledger(self):
        """The shown seat's own ledger (its own secrets and knowledge); None before the game."""
        transcript = self.session.transcript
        if transcript is None:
            return None
        seat = self._follow()
        return transcript.ledger_for(seat) if seat is not None and transcript.holds(seat) else transcript.ledger

    def _decider(self):
        seat = self._follow()
        return self.session.decider_for(seat) if seat is not None and self._human(seat) else self.decider

    def _waiting(self) -> bool:
        """A decision of a person here is handed over and not yet taken by the session."""
        deciders = {id(d): d for d in self.session.deciders.values()} or {id(self.decider): self.decider}
        return any(getattr(d, "waiting", False) for d in deciders.values())

    @property
    def players(self) -> int:
        return self.session.players

    @property
    def log(self) -> list[str]:
        """The lines of the current game (lobby lines included for the first one). With several
        people at this screen, the first local seat's secret draw is not named: another one reads it."""
        return self._lines(self.session.log[self.session.game_log_start:])

    @property
    def lines_with_chat(self) -> list[str]:
        """`log` with this screen's own chat lines ("chat you: ...") where they were said, among the
        others' ("chat Anna: ..."), for a table's log."""
        return self._lines(with_own_chat(self.session.log, self._own_chat, self.session.game_log_start))

    def _lines(self, lines: list[str]) -> list[str]:
        with self.session.lock:
            transcript = self.session.transcript
            if transcript is None or len(self._humans()) < 2:
                return lines
            first = transcript.seat
        return [f"seat {first} (on this machine) draws in secret" if _OWN_DRAW.match(line) else line
                for line in lines]

    @property
    def chat_lines(self) -> list[str]:
        return self.session.chat_lines

    @property
    def said(self) -> list[tuple[int, str]]:
        """The chat lines with the seat that said each, this screen's own among them (a counter-offer's line
        is believed to come only from the seat the session saw send it)."""
        return getattr(self.session, "chat_from", [])

    @property
    def replay_path(self) -> str | None:
        transcript = self.session.transcript
        return str(transcript.path) if transcript is not None else None

    def poll(self, now_ms: int) -> None:
        if not self.threaded and self.session.outcome is None:
            self.session.step(0)

    def view(self) -> dict:
        with self.session.lock:
            transcript = self.session.transcript
            if transcript is None:
                return {}
            seat = self._follow()
            return transcript.game.view(self._ledger().state, seat)

    def legal(self) -> list[str]:
        session = self.session
        with session.lock:
            transcript = session.transcript
            if (transcript is None or session.phase != "play" or session.outcome is not None or self._waiting()
                    or session.blocked() or transcript.ledger.closed or self._cut_off()):
                return []
            seat = self._follow()
            if self._deciding() != seat:
                return []
            decision = transcript.ledger_for(seat).decision()
            if decision is None or decision[0] != seat:
                return []
            return decision[1]

    def turn(self) -> tuple[int | None, list[str]]:
        """(`seat`, `legal()`) read together: a front end with several people here acts only while the
        seat is the one it handed the screen to (the session may move on in between two calls)."""
        with self.session.lock:
            return self._follow(), self.legal()

    def submit(self, action: str) -> None:
        if self.session.outcome is not None:
            raise RuntimeError(f"the session is over: {self.session.outcome.message}")
        with self.session.lock:
            decider = self._decider()
        decider.submit(action)
        self.session.wake()   # the session thread builds the frame now, not at the end of its poll interval

    def status(self) -> str:
        with self.session.lock:
            lost = [p for p in self.peers() if not p.connected]
            if lost and self.session.outcome is None and self.session.phase in ("play", "over"):
                return f"lost {lost[0].name}, reconnecting... {lost[0].gone_s:.0f} s"
            seat = self._follow()
            if self.session.outcome is None and seat is not None and self._deciding() == seat \
                    and seat != self.session.transcript.seat:
                waiting = self.session.game.awaiting(self._ledger().state)
                return "your choice (the others choose at the same time)" if waiting.kind == "simultaneous" \
                    else "your move"
            return self.session.status()

    def result(self) -> Result | None:
        with self.session.lock:
            if self.session.phase == "lobby" and self.session.outcome is None:
                return None
            return self.session.result()

    def chat(self, text: str) -> None:
        self._own_chat.append((len(self.session.log), clip(text)))
        seat = self.seat
        self.session.post(lambda: self.session.chat(text, seat))

    def progress(self) -> tuple:
        """Changes whenever anything of the game does (a frame, the phase, a game's end): a table
        redraws when it does, and not in between."""
        session = self.session
        with session.lock:
            transcript = session.transcript
            return (session.phase, session.games_done, -2 if transcript is None else transcript.seq,
                    len(session.log), session.outcome is not None)

    def clocks(self) -> list[SeatClock]:
        """Every seat's move clock and any limit on the decision awaited now, by this peer's clock
        ([] when the game is untimed or not under way)."""
        with self.session.lock:
            return list(self.session.clocks())

    def free_seats(self) -> int:
        """Seats nobody has taken yet (a host before the start; 0 for a joiner)."""
        free = getattr(self.session, "free_seats", None)
        with self.session.lock:
            return free() if free is not None else 0

    def terms(self) -> str:
        """The terms of the game in words (the agreed ones once the game has begun)."""
        with self.session.lock:
            return self.session.terms_text()

    # ------------------------------------------------------------------------------ words for the front ends

    @property
    def names(self) -> list[str]:
        """The seats' names from the game's header, told apart by their keys when two look alike
        ("root@vm (a52e)", "root@vm (07c1)": client.names)."""
        with self.session.lock:
            names = list(self.session.names)
            transcript = self.session.transcript
            seats = transcript.header.seats if transcript is not None else []
        return distinct(names, [key for key, _ in seats] if len(seats) == len(names) else None)

    def peers(self) -> list[PeerState]:
        """The other peers, each by its seat's name as the table shows it (told apart like `names`)."""
        with self.session.lock:
            peers = self.session.peers()
        names = self.names
        return [dc.replace(p, name=names[p.seat]) if p.seat is not None and 0 <= p.seat < len(names) else p
                for p in peers]

    def _cut_off(self) -> bool:
        """A joiner that lost the host cannot send anything: its frames reach the others only through it."""
        return self.session.role == "joiner" and any(not p.connected for p in self.session.peers())

    def ending(self) -> Ending | None:
        with self.session.lock:
            if self.session.phase == "lobby" and self.session.outcome is None:
                return None
            end = self.session.game_end()
            # with several people here the end names the winners instead of saying "you"
            me = self.session.seat if len(self._humans()) < 2 else None
            return None if end is None else from_game_end(end, me, self.names)

    def describe(self, action: str) -> str:
        with self.session.lock:
            transcript = self.session.transcript
            if transcript is None:
                return action
            return transcript.game.describe(self._ledger().state, self._follow(), action)

    def why_not(self, action: str) -> str:
        """The engine's words for why `action` is not possible for the shown seat now ("" when it is)."""
        with self.session.lock:
            transcript = self.session.transcript
            if transcript is None:
                return "the game has not started"
            try:
                transcript.game.play(self._ledger().state, self._follow(), action)
            except IllegalAction as exc:
                return str(exc)
            except Exception:  # a knowledge state the engine cannot play on: no words to give
                return ""
            return ""

    def last_move(self) -> tuple[int, str, str] | None:
        """(seat, words, action text) of the latest play of any seat (a secret choice stays unnamed)."""
        with self.session.lock:
            transcript = self.session.transcript
            if transcript is None:
                return None
            ledger = self._ledger()   # the shown seat's knowledge: another local seat's secret stays secret
            for event in reversed(ledger.events):
                if event.kind != "play" or event.seat is None:
                    continue
                if event.value is HIDDEN:
                    return event.seat, f"seat {event.seat} has chosen in secret", ""
                try:
                    words = transcript.game.describe(ledger.state, event.seat, event.value)
                except Exception:  # a describe that trips over the later state: the action's own text
                    words = f"seat {event.seat}: {event.value}"
                return event.seat, words, str(event.value)
            return None

    def _unstarted(self) -> bool:
        """A joiner that took the host's header for a game that has not begun (netplay/protocol/waits.py)."""
        waits = getattr(self.session.machine, "waits", None)
        return waits is not None and self.session.phase == "play" and waits.unstarted()

    def waiting(self) -> tuple[str, float] | None:
        """The wait under way outside a game, for its countdown: (what for, seconds left); None: none."""
        with self.session.lock:
            return self.session.waiting()

    def _stage(self) -> str:
        """Where the session is, for the words a front end shows (under the lock): done (the session
        is over), lobby (no game yet), over (a game ended, a rematch may come) or play."""
        session = self.session
        if session.outcome is not None:
            return "done"
        if session.transcript is None or session.phase == "lobby" or self._unstarted():
            return "lobby"
        return "over" if session.phase == "over" else "play"

    def record_since(self, frames: int, events: int, peek: bool = False) -> tuple | None:
        """What the table's log and dice read (client/story/record.py): the game's header, the shown
        seat, and the frames and that seat's ledger events after the first `frames` and `events`
        (copied under the lock; none with `peek`). None before the game."""
        with self.session.lock:
            transcript = self.session.transcript
            if transcript is None:
                return None
            ledger = self._ledger()
            if peek:
                return ledger.header, self._follow(), [], []
            return ledger.header, self._follow(), ledger.frames[frames:], ledger.events[events:]

    def unavailable(self) -> str:
        """Why this seat cannot act now, in words ("" when it can)."""
        session = self.session
        with session.lock:
            stage = self._stage()
            if stage != "play":
                return {"done": "the session is over", "lobby": "the game has not started",
                        "over": "the game is over"}[stage]
            lost = [p for p in session.peers() if not p.connected]
            if lost and session.role == "joiner":
                return f"{lost[0].name} is unreachable: nothing can be sent until it is back"
            if self._waiting() or session.blocked():
                return "sending your last move"
            seat = self._follow()
            if self._deciding() != seat:
                return "it is not your turn"
            decision = session.transcript.ledger_for(seat).decision()
            if decision is None or decision[0] != seat:
                return "it is not your turn"
            return ""

    # ------------------------------------------------------------------------------ beyond the protocol

    def rematch(self, yes: bool = True) -> None:
        """Vote for (or against) a rematch once a game is over."""
        self.decider.vote(yes)
        self.session.wake()

    def rematch_state(self) -> RematchState:
        """The rematch as the session has it, for the end screen: open or not (and why not, in the
        session's own words), this screen's vote, and who of the others wants one (as the log says)."""
        session = self.session
        with session.lock:
            end = session.game_end()
            open_ = end is not None and end.rematch_open
            lines = session.log[session.game_log_start:]
            over = max((i for i, line in enumerate(lines) if line.startswith("game over")), default=None)
            mine = set(session.transcript.seats) if session.transcript is not None else set()
            seats: set[int] = set()
            for line in lines[over:] if over is not None else []:
                wants, listed = _WANTS_REMATCH.search(line), _REMATCH_SEATS.match(line)
                if wants:
                    seats.add(int(wants.group(1)))
                elif listed:
                    seats.update(int(s) for s in listed.group(1).replace(" ", "").split(",") if s)
            names = self.names
            wanted = tuple(names[s] if s < len(names) else f"seat {s}" for s in sorted(seats - mine))
            closed = "" if open_ else _no_rematch_words(end, session.outcome)
            wait = session.waiting() if open_ else None     # the session's own bound on the vote
            return RematchState(open_, session.rematch_asked, wanted, closed, None if wait is None else wait[1])

    def leave_words(self) -> str:
        """What leaving the table now means, in words, for the confirmation a player reads first."""
        session = self.session
        with session.lock:
            stage = self._stage()
            if stage != "play":
                return {"done": "The session is over; its replay is saved.",
                        "lobby": "The game has not started: leaving cancels it, and nobody is waiting for you.",
                        "over": "The game is over and its replay is saved: leaving says no to a rematch."}[stage]
            if session.role == "host":
                return ("The game stops for every player and stays unfinished: nobody wins or loses. "
                        "The replay of the moves so far is kept.")
            return ("The others keep your seat. When it is your turn and you are not back in time "
                    f"({session.terms_text()}), they claim the game and you lose by forfeit. "
                    "`netplay join --resume` takes you back to it before then.")

    def leave(self, reason: str = "the player left") -> None:
        """End the session from the UI (the game stays unfinished if it was under way)."""
        session = self.session

        def end() -> None:
            if self._unstarted():      # a header, no game yet: leaving leaves no file of it (waits.py)
                session.machine.waits.leave("you left before the game started")
            elif session.phase == "over" and session.last_game is not None:
                session.finish(session.last_game.code, session.games_message())
            else:
                session.finish(EXIT_FAILED, reason)
        session.post(end)

    @property
    def outcome(self) -> Outcome | None:
        return self.session.outcome

    @property
    def started(self) -> bool:
        """A game is under way (or over): there is a table to show."""
        return self.session.transcript is not None and self.session.phase in ("play", "over")

    def wait(self, until, timeout_s: float, step_s: float = 0.05) -> bool:
        """Wait (bounded) until `until()` is true or the session is over; True if `until()` held."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if until():
                return True
            if self.session.outcome is not None:
                return bool(until())
            if not self.threaded:
                self.session.step(int(step_s * 1000))
            else:
                time.sleep(step_s)
        return bool(until())

    def join(self, timeout_s: float = 10.0) -> None:
        """Wait for the session thread to end (it closes the transport on its way out)."""
        if self._thread is not None:
            self._thread.join(timeout_s)
        elif self.session.outcome is not None:
            self.session.close()


def _no_rematch_words(end, outcome: Outcome | None) -> str:
    """Why no rematch can come, from the session's own words: only a game that ended with a result
    may be played again, and the session says why it stopped ("Anna left: no rematch", "Anna declined
    the rematch: ...", or that the offer expired: "the rematch offer expired after 120 s")."""
    if end is None or end.kind != "result":
        return "the session ends with this game"
    if outcome is None:
        return "the session is ending"
    message = outcome.message
    expired = expired_words(message)    # nobody agreed in time (the host's bound, or this joiner's own)
    if expired is not None:
        return expired
    if message.startswith("game over") or "games played;" in message:
        return "the host left" if "(the host left" in message else "the session is over"
    first = message.split(". ", 1)[0]
    return first.removesuffix(": no rematch")
