"""Stepping through a replay: any frame, as any seat saw it or with every secret revealed.

`Stepper` runs the audit once (the same Ledger), keeps the list of engine applications it made
(`Ledger.events`, each with the value the spectator knew and the value revealed at the end), and
builds a snapshot of the state every K applications for each view mode on first use, so a seek
costs at most K engine steps. Modes: "revealed" (every secret as revealed at the end), "spectator"
(public knowledge only) and one per seat (its own secrets known, the others' HIDDEN, as that
seat's peer held it). The terminal commands and the Pygame viewer both drive this API.

Turns and rounds are derived from the frames: a turn is a run of decisions (act/commit frames) by
one seat, or one simultaneous round; a round starts when the turns wrap around to a lower seat.

One numbering for people everywhere (`number`): position k is the game after its first k frames, 0 the
start and `count` the end, and frame #k (1-based) is what moved it from k-1 to k. Internally a
position is the index of its last frame (-1 for the start). The game's own turn count is the view's;
the moves (`moves`) are the engine's applications in the game's own words, protocol frames apart.
"""

from __future__ import annotations

import bisect
import os
from dataclasses import dataclass
from typing import Any

from engines.core import HIDDEN, Game, Result, State
from replays.audit import Verdict, run_ledger
from replays.crypto import fingerprint
from replays.frames import Frame
from replays.ledger import Event, Ledger
from replays.reader import Replay, read_replay
from replays.safetext import shown

__all__ = ["Stepper", "Move", "Position", "DEFAULT_K"]

DEFAULT_K = 32


@dataclass(frozen=True, slots=True)
class Move:
    """One engine application in the game's words: a seat's play or a chance outcome. `position` is
    where the stepper shows it applied; `text` is the engine's `describe` (or the chance's words)."""

    position: int
    kind: str  # "play" | "chance"
    seat: int | None
    action: Any
    text: str
    hidden: bool = False


@dataclass(slots=True)
class Position:
    frame: int  # -1: before the first frame
    mode: str
    state: State
    line: str  # what happened in this frame


class Stepper:
    def __init__(self, replay: Replay, games: dict[str, Game] | None = None, k: int = DEFAULT_K):
        self.replay = replay
        self.header = replay.header
        ledger, verdict = run_ledger(replay, games)
        if ledger is None:
            raise ValueError(verdict.reason)
        self.ledger: Ledger = ledger
        self.verdict: Verdict = verdict
        self.game: Game = ledger.game
        self.frames: list[Frame] = list(ledger.frames)
        self.count = len(self.frames)
        self.events: list[Event] = list(ledger.events)
        self.k = max(1, k)
        # events applied once frames 0..n are in: _ends[n]
        ats = [e.at for e in self.events]
        self._ends = [bisect.bisect_right(ats, n) for n in range(self.count)]
        self._snapshots: dict[str, list[State]] = {}
        self.revealed_known = ledger.resimulated or ledger.hidden_events == 0
        self.modes = ["revealed", "spectator", *[f"seat {s}" for s in range(self.header.players)]]
        self.mode = "revealed" if self.revealed_known else "spectator"
        self.position = self.count - 1
        self._moves: dict[str, list[Move]] = {}
        self._markers()
        self._build(self.mode)

    @classmethod
    def load(cls, path: str | os.PathLike, games: dict[str, Game] | None = None, k: int = DEFAULT_K) -> Stepper:
        return cls(read_replay(path), games, k)

    # ------------------------------------------------------------------------------ states

    def _value(self, event: Event, mode: str) -> Any:
        private = (event.kind == "chance" and event.seat is not None) or event.secret
        if not private:
            return event.value
        if mode == "revealed" or (mode.startswith("seat ") and int(mode[5:]) == event.seat):
            return event.full if event.full is not None else HIDDEN
        return HIDDEN

    def _apply(self, state: State, event: Event, mode: str) -> State:
        value = self._value(event, mode)
        if event.kind == "chance":
            return self.game.chance(state, value)
        assert event.seat is not None, "a play has its seat"
        return self.game.play(state, event.seat, value)

    def _build(self, mode: str) -> list[State]:
        snaps = self._snapshots.get(mode)
        if snaps is None:
            state = self.game.start(self.header.players, self.header.option_dict)
            snaps = [state]
            for i, event in enumerate(self.events, start=1):
                state = self._apply(state, event, mode)
                if i % self.k == 0:
                    snaps.append(state)
            self._snapshots[mode] = snaps
        return snaps

    def state_at(self, frame: int, mode: str | None = None) -> State:
        """The state after frame `frame` (-1: the start) in `mode` (default: the current mode)."""
        mode = mode or self.mode
        if mode not in self.modes:
            raise ValueError(f"unknown view {mode!r} (views: {', '.join(self.modes)})")
        n = 0 if frame < 0 else self._ends[min(frame, self.count - 1)]
        snaps = self._build(mode)
        base = n // self.k
        state = snaps[base]
        for event in self.events[base * self.k:n]:
            state = self._apply(state, event, mode)
        return state

    def seek(self, frame: int) -> Position:
        self.position = max(-1, min(frame, self.count - 1))
        return Position(self.position, self.mode, self.state_at(self.position), self.describe(self.position))

    def set_mode(self, mode: str) -> None:
        if mode not in self.modes:
            raise ValueError(f"unknown view {mode!r} (views: {', '.join(self.modes)})")
        self.mode = mode
        self._build(mode)

    def next_mode(self) -> str:
        self.set_mode(self.modes[(self.modes.index(self.mode) + 1) % len(self.modes)])
        return self.mode

    def view(self, frame: int | None = None, mode: str | None = None) -> dict[str, Any]:
        """What the mode's viewer sees after `frame`: view(state, seat), or for "revealed" the public
        view plus every seat's own view of the full state."""
        frame = self.position if frame is None else frame
        mode = mode or self.mode
        state = self.state_at(frame, mode)
        if mode.startswith("seat "):
            return self.game.view(state, int(mode[5:]))
        public = self.game.view(state, None)
        if mode == "revealed":
            public["seats"] = [self.game.view(state, s) for s in range(self.header.players)]
        return public

    # ------------------------------------------------------------------------------ navigation

    def _markers(self) -> None:
        self.rolls = sorted({e.at for e in self.events if e.kind == "chance"})
        self.reveals = [n for n, f in enumerate(self.frames) if f.kind in ("reveal", "seed")]
        self.disputes = [] if self.ledger.dispute is None else [self.ledger.dispute.frame_no]
        if self.verdict.status == "invalid" and self.verdict.dispute is None and self.count:
            self.disputes.append(min(self.verdict.checked, self.count - 1))
        turns: list[int] = []
        rounds: list[int] = []
        turn_seat: int | None = None  # seat of the turn under way; None during a simultaneous round
        previous = ""
        for n, frame in enumerate(self.frames):
            if frame.kind == "commit":
                if previous != "commit":  # a new simultaneous round: one turn, one round
                    turns.append(n)
                    rounds.append(n)
                    turn_seat = None
            elif frame.kind == "act" and frame.seat != turn_seat:
                if turn_seat is None or frame.seat < turn_seat:
                    rounds.append(n)
                turns.append(n)
                turn_seat = frame.seat
            previous = frame.kind
        self.turns, self.rounds = turns, rounds

    @staticmethod
    def _after(marks: list[int], frame: int) -> int | None:
        i = bisect.bisect_right(marks, frame)
        return marks[i] if i < len(marks) else None

    @staticmethod
    def _before(marks: list[int], frame: int) -> int | None:
        i = bisect.bisect_left(marks, frame)
        return marks[i - 1] if i > 0 else None

    def turn_index(self, frame: int) -> int:
        """1-based number of the turn under way at `frame` (0 before the first decision)."""
        return bisect.bisect_right(self.turns, frame)

    def frame_of_turn(self, turn: int) -> int:
        if not self.turns:
            raise ValueError("this replay has no turns")
        if not 1 <= turn <= len(self.turns):
            raise ValueError(f"turn {turn} does not exist (1..{len(self.turns)})")
        return self.turns[turn - 1]

    def jump(self, command: str) -> int:
        """Move by one of: next, prev, next-move, prev-move, next-turn, prev-turn, next-round, prev-round,
        first, last, next-mark (roll, reveal or dispute); returns the new position (unchanged when there is
        nowhere to go)."""
        pos = self.position
        targets = {
            "next": pos + 1 if pos + 1 < self.count else None,
            "prev": pos - 1 if pos >= 0 else None,
            "first": -1,
            "last": self.count - 1,
        }
        if command in targets:
            target = targets[command]
        elif command in ("next-turn", "prev-turn", "next-round", "prev-round"):
            marks = self.turns if "turn" in command else self.rounds
            target = self._after(marks, pos) if command.startswith("next") else self._before(marks, pos)
        elif command in ("next-move", "prev-move"):
            marks = sorted({m.position for m in self.moves()})
            target = self._after(marks, pos) if command == "next-move" else self._before(marks, pos)
            if target is None and command == "prev-move" and pos >= 0:
                target = -1
        elif command == "next-mark":
            nexts = [m for m in (self._after(x, pos) for x in (self.rolls, self.reveals, self.disputes))
                     if m is not None]
            target = min(nexts) if nexts else None
        else:
            raise ValueError(f"unknown move {command!r}")
        if target is not None:
            self.seek(target)
        return self.position

    # ------------------------------------------------------------------------------ text

    def describe(self, n: int) -> str:
        if n < 0:
            return "start: the game is set up"
        frame = self.frames[n]
        body = frame.body
        who = f"seat {frame.seat}"
        if frame.kind == "open":
            text = f"{who} joins: commits its random chain and seed"
        elif frame.kind == "act":
            text = f"{who}: {body[0] if body else '?'}"
        elif frame.kind == "commit":
            text = f"{who} commits a choice"
            played = [e for e in self.events if e.frame_no == n and e.kind == "play"]
            if played and self.mode == "revealed" and played[0].full is not None:
                text += f" ({played[0].full})"
        elif frame.kind == "reveal":
            text = f"{who} reveals: {body[0] if body else '?'}"
        elif frame.kind == "chain":
            text = f"{who} shares its next random value"
            for e in self.events:
                if e.at == n and e.kind == "chance":
                    value = self._value(e, self.mode)
                    label = f" ({e.chance.label})" if e.chance and e.chance.label else ""
                    if e.seat is None:
                        text += f"; chance{label}: {value}"
                    else:
                        text += f"; private draw{label} for seat {e.seat}: {value}"
        elif frame.kind == "seed":
            text = f"{who} reveals its seed and secret choices"
        elif frame.kind == "final":
            text = f"{who} co-signs the {'forfeit' if body and str(body[-1]).startswith('forfeit') else 'result'}"
        elif frame.kind == "contest":
            text = f"{who} contests the timeout claim: {body[0] if body else '?'}"
        else:
            blamed, kind = (body + ("?", "?"))[:2]
            text = f"{who} claims that seat {blamed} withheld its {kind} frame"
        if n in self.disputes:
            dispute = self.verdict.dispute
            text += f"  <-- DISPUTE: {dispute['reason'] if dispute else self.verdict.reason}"
        return shown(f"#{n + 1} {text}")     # a contest's or a result's reason is the frame author's text

    def log(self, upto: int | None = None) -> list[str]:
        upto = self.position if upto is None else upto
        return [self.describe(n) for n in range(0, upto + 1)]

    # ------------------------------------------------------------------------------ for people

    def number(self, position: int | None = None) -> int:
        """The position as people count it: 0 the start, k after frame #k, `count` the end."""
        return (self.position if position is None else position) + 1

    def seek_number(self, number: int) -> Position:
        return self.seek(number - 1)

    @property
    def names(self) -> list[str]:
        return [name for _, name in self.header.seats]

    def moves(self, mode: str | None = None) -> list[Move]:
        """Every engine application of the replay in the game's words, as `mode` knew it (a secret
        another seat chose reads "chose in secret" outside the revealed and that seat's view)."""
        mode = mode or self.mode
        cached = self._moves.get(mode)
        if cached is not None:
            return cached
        state = self.game.start(self.header.players, self.header.option_dict)
        out: list[Move] = []
        for event in self.events:
            value = self._value(event, mode)
            hidden = value is HIDDEN
            if event.kind == "chance":
                text = _chance_text(event, value)
            elif hidden:
                text = f"seat {event.seat}: chose in secret"
            else:
                assert event.seat is not None, "a play has its seat"
                text = self.game.describe(state, event.seat, value)
            out.append(Move(event.at, event.kind, event.seat, value, text, hidden))
            state = self._apply(state, event, mode)
        self._moves[mode] = out
        return out

    def moves_done(self, position: int | None = None) -> int:
        """How many moves are applied at `position` (the current one by default)."""
        position = self.position if position is None else position
        return 0 if position < 0 else self._ends[min(position, self.count - 1)]

    def merged_view(self, position: int | None = None, mode: str | None = None, seat: int = 0) -> dict[str, Any]:
        """A renderer-ready view: a seat's or the spectator's own; for "revealed", `seat`'s view with every
        other seat's secrets filled in from that seat's own view (per-seat lists such as hands), so the
        revealed board hides nothing the replay knows."""
        position = self.position if position is None else position
        mode = mode or self.mode
        state = self.state_at(position, mode)
        if mode.startswith("seat "):
            return self.game.view(state, int(mode[5:]))
        if mode != "revealed":
            return self.game.view(state, None)
        players = self.header.players
        views = [self.game.view(state, s) for s in range(players)]
        merged = dict(views[seat])
        for key, value in merged.items():
            if key in ("seat", "awaiting") or not isinstance(value, list) or len(value) != players:
                continue
            merged[key] = [views[s][key][s] if isinstance(views[s].get(key), list) and len(views[s][key]) == players
                           else value[s] for s in range(players)]
        return merged

    def final(self) -> tuple[str, tuple[int, ...], str, Result | None] | None:
        """How the replay ends, as far as its verdict supports it: ("result", winners, reason, result) for
        a result every seat co-signed, ("forfeit", winners, the blamed seat's words, None) for a forfeit
        every seat that must co-sign it co-signed, ("contested", (), reason, None) for a contested claim,
        ("dispute", (), reason, None); None when it stops before an end (a cut copy proves no result)."""
        verdict, ledger = self.verdict, self.ledger
        if verdict.status == "valid" and verdict.result is not None and ledger.result is not None:
            return "result", tuple(ledger.result.winners), ledger.result.reason, ledger.result
        if verdict.status == "unfinished" and verdict.claim is not None and verdict.result is not None:
            claim = verdict.claim
            words = f"seat {claim['blamed']} withheld its {claim['kind']} frame and forfeits"
            return "forfeit", tuple(verdict.result["winners"]), words, None
        if verdict.status == "contested":
            return "contested", (), verdict.reason, None
        if self.disputes:
            return "dispute", (), verdict.reason, None
        return None

    def seats_text(self) -> list[str]:
        return [f"seat {s}: {name} ({fingerprint(key)})" for s, (key, name) in enumerate(self.header.seats)]


def _chance_text(event: Event, value: Any) -> str:
    chance = event.chance
    name = (chance.label if chance is not None and chance.label else "chance")
    if value is HIDDEN:
        outcome = "hidden"
    elif isinstance(value, (tuple, list)):
        outcome = ", ".join(str(v) for v in value)
    else:
        outcome = str(value)
    if event.seat is not None and f"seat {event.seat}" not in name:
        name += f" for seat {event.seat}"
    return f"{name}: {outcome}"
