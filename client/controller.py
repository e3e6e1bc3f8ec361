"""What the table scene talks to: a game in progress, local or networked, behind one small interface.

The scene asks for the view, the legal actions of its seat and a status line, and submits actions;
it never touches engine state or the network itself, so the same table serves a local game against
bots, a networked game and (read-only) the replay viewer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

import bots
from client.ending import Ending, from_result
from client.names import distinct
from client.textview import chance_words
from engines.core import HIDDEN, Game, IllegalAction, Result, State
from engines.referee import Referee


def with_own_chat(log: list[str], own: list[tuple[int, str]], start: int = 0) -> list[str]:
    """The lines of a game from `start`, with this screen's own chat lines ("chat you: ...") put back
    where they were said: `own` holds (the log's length when each was said, its text). A session keeps
    them apart from its log (the others' chat is in it), and a terminal prints them as they are sent."""
    mine = [(at, text) for at, text in own if at >= start]
    if not mine:
        return log[start:]
    out: list[str] = []
    at = start
    for where, text in mine:
        out += log[at:where]
        out.append(f"chat you: {text}")
        at = max(at, where)
    return out + log[at:]


def obliged_to_rematch(view: dict, seat: int | None) -> bool:
    """Whether the game's own rules (its view says so, e.g. Turning Tides after a surrender) oblige
    this seat to accept a rematch; the client only follows what the engine published."""
    rematch = view.get("rematch")
    return isinstance(rematch, dict) and seat is not None and rematch.get("must_accept") == seat


class Controller(Protocol):
    game: Game
    seat: int | None
    players: int
    log: list[str]
    chat_lines: list[str]
    #: every chat line of the table with the seat that said it (-1: unknown), this screen's own among them:
    #: what a counter-offer's line is read from (client/talk.py), where a name alone would not say the seat
    said: list[tuple[int, str]]

    def poll(self, now_ms: int) -> None: ...

    def view(self) -> dict: ...

    def legal(self) -> list[str]: ...

    def submit(self, action: str) -> None: ...

    def status(self) -> str: ...

    def result(self) -> Result | None: ...

    def chat(self, text: str) -> None: ...

    @property
    def names(self) -> list[str]: ...

    def ending(self) -> Ending | None: ...

    def peers(self) -> list: ...

    def describe(self, action: str) -> str: ...

    def last_move(self) -> tuple[int, str, str] | None: ...

    def unavailable(self) -> str: ...

    def why_not(self, action: str) -> str: ...


@dataclass
class LocalController:
    """A game in this process: the human at `seat`, bots at the others, chance from a seed, no
    protocol and no replay. The lobby plays against bot peer processes instead (recorded, signed);
    this one serves where a whole game must run in one process: the renderer tests drive every
    board through it. Bots wait `bot_delay_ms` before acting so a person can follow their moves."""

    game: Game
    seat: int
    bot_names: list[str]
    players: int = 2
    options: dict = field(default_factory=dict)
    seed: int = 1
    bot_delay_ms: int = 600
    log: list[str] = field(default_factory=list)
    chat_lines: list[str] = field(default_factory=list)
    own_chat: list[tuple[int, str]] = field(default_factory=list)   # (len(log) when said, text)
    said: list[tuple[int, str]] = field(default_factory=list)       # (seat, text) of every chat line
    start: State | None = None  # a position to play on from (the replay viewer's sandbox), every secret known
    dealt: dict | None = None   # ... with the cards its decks dealt before it: (deck, epoch) -> card types
    knowing: tuple | None = None  # ... and each seat's own knowledge there (None: every seat knows all)
    intro: str = ""               # a line the table's log starts with (where a sandbox comes from)

    @classmethod
    def from_fork(cls, fork, seat: int, bot_names: list[str], seed: int = 1,
                  bot_delay_ms: int = 600) -> LocalController:
        """A sandbox from a replay position (`replays.sandbox.Fork`): the person at `seat`, bots at the
        others, each seat knowing what it knew there, the decks as the replay left them."""
        ctl = cls(fork.game, seat, bot_names, players=fork.players, options=dict(fork.options), seed=seed,
                  bot_delay_ms=bot_delay_ms, start=fork.state, dealt=dict(fork.dealt), knowing=fork.knowing)
        ctl.intro = (f"Sandbox from frame {fork.number} of the replay: you play seat {seat}, bots the others; "
                     "nothing is recorded")
        ctl.log.append(ctl.intro)
        return ctl

    def __post_init__(self) -> None:
        self.referee = (Referee(self.game, self.players, self.options, self.seed) if self.start is None
                        else Referee.from_state(self.game, self.start, self.players, self.seed,
                                                dealt=self.dealt, knowing=self.knowing))
        self.origin = self.referee.state_of(self.seat)  # where the person's story starts (client/story)
        self.bots: list[Any] = bots.make(self.game.id, self.bot_names, self.players)
        self.rngs = [random.Random(f"{self.seed}/{s}") for s in range(self.players)]
        self._next_bot_ms: int | None = None
        self._last_move: tuple[int, str, str] | None = None

    def poll(self, now_ms: int) -> None:
        for _ in range(64):  # chance points resolve at once; bots one move per delay
            waiting = self.referee.awaiting()
            if waiting.kind == "chance":
                step = self.referee.feed_chance()
                chance = waiting.chance  # in the words `netplay watch` prints; a private outcome stays unnamed
                self.log.append(chance_words(chance, step.value) if chance.private_to is None
                                else f"seat {chance.private_to} looks at seat {chance.source}'s hand"
                                if chance.kind == "show" else chance_words(chance, HIDDEN))
                continue
            bots_due = [s for s in self.referee.awaited_seats() if s != self.seat]
            if not bots_due:
                self._next_bot_ms = None
                return
            if self._next_bot_ms is None:
                self._next_bot_ms = now_ms + self.bot_delay_ms
                return
            if now_ms < self._next_bot_ms:
                return
            self._next_bot_ms = None
            bot_seat = bots_due[0]
            state = self.referee.state_of(bot_seat)
            bot = self.bots[bot_seat]
            action = bot.choose(self.game, state, bot_seat, self.game.legal(state, bot_seat), self.rngs[bot_seat])
            before = self.referee.state
            self._applied(self.referee.submit(bot_seat, action), bot_seat, before)
            for text in getattr(bot, "said", list)():   # a bot's table talk (a counter-offer: bots/counters.py)
                self._talk(bot_seat, text)

    def _talk(self, seat: int, text: str) -> None:
        """A chat line of a bot: shown, and heard by the other bots."""
        self.chat_lines.append(f"{self.names[seat]}: {text}")
        self.said.append((seat, text))
        self._tell(seat, text)

    def _tell(self, seat: int, text: str) -> None:
        """Every bot but the speaker hears a chat line (as a bot peer does over the network)."""
        for other, bot in enumerate(self.bots):
            hear = getattr(bot, "hear", None)
            if other != seat and other != self.seat and hear is not None:
                hear(seat, text)

    def _applied(self, steps: list, chooser: int, before) -> None:
        """Log the steps in words; `describe` reads the state before each step (the dice, the column)."""
        if not steps and chooser != self.seat:
            self.log.append(f"seat {chooser} has chosen")
        state = before
        secret = self.game.awaiting(before).secret  # another seat's secret choice stays unnamed
        for step in steps:
            hidden = secret and step.seat != self.seat
            text = (f"seat {step.seat} has chosen in secret" if hidden
                    else self.game.describe(state, step.seat, step.value))
            self.log.append(text)
            self._last_move = (step.seat, text, "" if hidden else step.value)
            state = self.game.play(state, step.seat, step.value)

    def view(self) -> dict:
        return self.game.view(self.referee.state_of(self.seat), self.seat)

    def legal(self) -> list[str]:
        if self.seat not in self.referee.awaited_seats():
            return []
        return self.game.legal(self.referee.state_of(self.seat), self.seat)

    def submit(self, action: str) -> None:
        before = self.referee.state
        self._applied(self.referee.submit(self.seat, action), self.seat, before)

    def status(self) -> str:
        result = self.result()
        if result is not None:
            return "game over"
        waiting = self.referee.awaiting()
        mine = self.seat in self.referee.awaited_seats()
        if waiting.kind == "simultaneous":
            return "your choice (the opponent chooses at the same time)" if mine else "opponent is choosing"
        return "your move" if mine else "waiting for opponent"

    def result(self) -> Result | None:
        return self.game.result(self.referee.state)

    def chat(self, text: str) -> None:
        self.chat_lines.append(f"you: {text}")
        self.own_chat.append((len(self.log), text))
        self.said.append((self.seat, text))
        self._tell(self.seat, text)

    @property
    def lines_with_chat(self) -> list[str]:
        """The log with this screen's chat lines where they were said, for a table's log."""
        return with_own_chat(self.log, self.own_chat)

    def leave_words(self) -> str:
        """What leaving means here, for the table's confirmation."""
        return "This game is played in this window only and is not recorded: leaving ends it."

    def rematch(self, yes: bool = True) -> None:
        """A new game with the same seats, bots and options (the bots always agree)."""
        if yes and self.result() is not None:
            self.seed += 1
            self.start = self.dealt = self.knowing = None
            self.log.append("rematch: a new game begins")
            self.__post_init__()

    # ------------------------------------------------------------------ words for the front ends

    @property
    def names(self) -> list[str]:
        """`you` at the human's seat, the bot's name at the others, numbered when several bots share one
        ("medium bot 1", "medium bot 2": client.names)."""
        return distinct([("you" if s == self.seat else f"{self.bot_names[s % len(self.bot_names)]} bot")
                         for s in range(self.players)])

    def ending(self) -> Ending | None:
        result = self.result()
        return None if result is None else from_result(result, self.seat, self.names, rematch_open=True)

    def peers(self) -> list:
        return []  # the bots are in this process: never lost

    def describe(self, action: str) -> str:
        return self.game.describe(self.referee.state_of(self.seat), self.seat, action)

    def why_not(self, action: str) -> str:
        """The engine's words for why `action` is not possible for this seat now ("" when it is)."""
        try:
            self.game.play(self.referee.state_of(self.seat), self.seat, action)
        except IllegalAction as exc:
            return str(exc)
        except Exception:   # a question about a text the engine cannot even parse: no reason to give
            return ""
        return ""

    def last_move(self) -> tuple[int, str, str] | None:
        """(seat, words, action text) of the latest play of any seat ("" for a secret one)."""
        return self._last_move

    def unavailable(self) -> str:
        """Why the human cannot act now, in words ("" when it can)."""
        if self.result() is not None:
            return "the game is over"
        if self.seat in self.referee.awaited_seats():
            return ""
        return "the bot is thinking" if self.players > 1 else "the game is resolving"
