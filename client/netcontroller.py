"""A networked game behind the `Controller` interface, for the terminal UI and the Pygame table.

The session runs in a background thread (the transport must be polled every heartbeat, and the UI
may block: the terminal waits on input, Pygame on its frame clock). The UI thread only reads state
under the session's lock and hands decisions over through queues, so nothing it does can stall the
network or touch a ZeroMQ socket from the wrong thread. `thread=False` instead steps the session in
`poll()`, for a UI loop that polls often enough (at least once a second).
"""

from __future__ import annotations

import logging
import threading
import time

from client.ending import Ending, from_game_end
from engines.core import HIDDEN, Game, Result
from netplay.session import EXIT_FAILED, Outcome, PeerState, QueueDecider, Session

log = logging.getLogger("netplay.session")


class NetController:
    def __init__(self, session: Session, decider: QueueDecider, *, thread: bool = True):
        self.session = session
        self.decider = decider
        self.threaded = thread
        self._thread: threading.Thread | None = None
        if thread:
            self._thread = threading.Thread(target=self._run, name="netplay-session", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            self.session.run()
        except Exception as exc:  # the UI must learn that the session died, whatever the cause
            log.exception("the session stopped")
            with self.session.lock:
                self.session.finish(EXIT_FAILED, f"the session stopped: {type(exc).__name__}: {exc}")

    # ------------------------------------------------------------------------------ Controller

    @property
    def game(self) -> Game | None:
        return self.session.game

    @property
    def seat(self) -> int | None:
        return self.session.seat

    @property
    def players(self) -> int:
        return self.session.players

    @property
    def log(self) -> list[str]:
        """The lines of the current game (lobby lines included for the first one)."""
        return self.session.log[self.session.game_log_start:]

    @property
    def chat_lines(self) -> list[str]:
        return self.session.chat_lines

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
            return transcript.game.view(transcript.ledger.state, transcript.seat)

    def legal(self) -> list[str]:
        session = self.session
        with session.lock:
            transcript = session.transcript
            if (transcript is None or session.phase != "play" or session.outcome is not None or self.decider.waiting
                    or session.blocked() or transcript.ledger.closed or self._cut_off()):
                return []
            decision = transcript.ledger.decision()
            if decision is None or decision[0] != transcript.seat:
                return []
            return decision[1]

    def submit(self, action: str) -> None:
        if self.session.outcome is not None:
            raise RuntimeError(f"the session is over: {self.session.outcome.message}")
        self.decider.submit(action)

    def status(self) -> str:
        with self.session.lock:
            lost = [p for p in self.session.peers() if not p.connected]
            if lost and self.session.outcome is None and self.session.phase in ("play", "over"):
                return f"lost {lost[0].name}, reconnecting... {lost[0].gone_s:.0f} s"
            return self.session.status()

    def result(self) -> Result | None:
        with self.session.lock:
            if self.session.phase == "lobby" and self.session.outcome is None:
                return None
            return self.session.result()

    def chat(self, text: str) -> None:
        self.session.post(lambda: self.session.chat(text))

    # ------------------------------------------------------------------------------ words for the front ends

    @property
    def names(self) -> list[str]:
        return list(self.session.names)

    def peers(self) -> list[PeerState]:
        with self.session.lock:
            return self.session.peers()

    def _cut_off(self) -> bool:
        """A joiner that lost the host cannot send anything: its frames reach the others only through it."""
        return self.session.role == "joiner" and any(not p.connected for p in self.session.peers())

    def ending(self) -> Ending | None:
        with self.session.lock:
            if self.session.phase == "lobby" and self.session.outcome is None:
                return None
            end = self.session.game_end()
            return None if end is None else from_game_end(end, self.session.seat, self.session.names)

    def describe(self, action: str) -> str:
        with self.session.lock:
            transcript = self.session.transcript
            if transcript is None:
                return action
            return transcript.game.describe(transcript.ledger.state, transcript.seat, action)

    def last_move(self) -> tuple[int, str, str] | None:
        """(seat, words, action text) of the latest play of any seat (a secret choice stays unnamed)."""
        with self.session.lock:
            transcript = self.session.transcript
            if transcript is None:
                return None
            for event in reversed(transcript.ledger.events):
                if event.kind != "play" or event.seat is None:
                    continue
                if event.value is HIDDEN:
                    return event.seat, f"seat {event.seat} has chosen in secret", ""
                try:
                    words = transcript.game.describe(transcript.ledger.state, event.seat, event.value)
                except Exception:  # a describe that trips over the later state: the action's own text
                    words = f"seat {event.seat}: {event.value}"
                return event.seat, words, str(event.value)
            return None

    def unavailable(self) -> str:
        """Why this seat cannot act now, in words ("" when it can)."""
        session = self.session
        with session.lock:
            if session.outcome is not None:
                return "the session is over"
            if session.transcript is None or session.phase == "lobby":
                return "the game has not started"
            if session.phase == "over":
                return "the game is over"
            lost = [p for p in session.peers() if not p.connected]
            if lost and session.role == "joiner":
                return f"{lost[0].name} is unreachable: nothing can be sent until it is back"
            if self.decider.waiting or session.blocked():
                return "sending your last move"
            decision = session.transcript.ledger.decision()
            if decision is None or decision[0] != session.transcript.seat:
                return "it is not your turn"
            return ""

    # ------------------------------------------------------------------------------ beyond the protocol

    def rematch(self, yes: bool = True) -> None:
        """Vote for (or against) a rematch once a game is over."""
        self.decider.vote(yes)

    def leave(self, reason: str = "the player left") -> None:
        """End the session from the UI (the game stays unfinished if it was under way)."""
        session = self.session

        def end() -> None:
            if session.phase == "over" and session.last_game is not None:
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
