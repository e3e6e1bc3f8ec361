"""The terminal interface: a compact board, the game's actions numbered once per decision, an action
typed or chosen by number. It drives any `Controller` (local or networked), reading lines from a
stream in a thread of its own (`Lines`), so a chat line goes out at once, whoever's turn it is, and
a pipe works as well as a keyboard (tests, scripted matches).

Nothing irreversible by accident: the numbers name the game's own actions only, in the engine's
order, and an action keeps its number for the whole phase: while the same seat goes on choosing and
no one else has moved (Ploc's three actions of a turn, each using up a die), the actions still there
keep the numbers first printed, gaps and all, and an action new to the phase gets the next free one;
a list with nothing in common with the numbered one starts again at 1. The common actions (`resign`, `draw`, `accept`,
`decline`) are words, never numbers, and `resign` asks to be confirmed.

Hot seat: when several people play at this terminal (a controller with more than one `humans()`),
the prompts name the seat, and whenever the turn passes from one of them to another the screen is
cleared and covered with "pass to <name>" until that person presses Enter; only then are that seat's
board and choices shown.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from typing import TextIO

from client.controller import Controller
from client.ending import line as ending_line
from client.moves import COMMON_WORDS, readable, split_actions
from client.textview import board, render

HELP = """commands:
  NUMBER or an action's text   play that action (e.g. 2, or: step 6 12)
  resign                       give up this game (asks to confirm)
  draw / accept / decline      offer a draw / accept or decline the one offered
  say TEXT                     chat (sent at once, whoever's turn it is)
  board                        the board again          actions   the choices again
  state                        the whole game state     help      this text
  quit                         leave the table (a game under way stays unfinished)"""

EOF_LINE = None  # what Lines.get returns once the input has ended
ENTER = "\n"     # what Lines.get returns for an empty line (Enter alone): "" means no line came
CLEAR = "\033[H\033[2J\033[3J"  # clear the screen and its scrollback (a terminal, not a pipe)


class Lines:
    """The lines of a text stream, read in a background thread so the UI loop never blocks on input."""

    def __init__(self, stream: TextIO):
        self._queue: queue.Queue[str | None] = queue.Queue()
        self.ended = False
        self._thread = threading.Thread(target=self._read, args=(stream,), name="terminal-input", daemon=True)
        self._thread.start()

    def _read(self, stream: TextIO) -> None:
        try:
            for line in iter(stream.readline, ""):
                self._queue.put(line.rstrip("\r\n") or ENTER)
        except (OSError, ValueError):  # the stream was closed under us
            pass
        self._queue.put(EOF_LINE)

    def get(self, timeout_s: float = 0.0) -> str | None:
        """The next line; "" when none came within the timeout; None once the input has ended."""
        if self.ended:
            return EOF_LINE
        try:
            item = self._queue.get(timeout=timeout_s) if timeout_s > 0 else self._queue.get_nowait()
        except queue.Empty:
            return ""
        if item is EOF_LINE:
            self.ended = True
        return item

    def unread(self, lines: list[str]) -> None:
        """Give lines back (a table that ends leaves the rest of a script to the prompts after it)."""
        if not lines:
            return
        rest: list[str | None] = list(lines)
        while True:
            try:
                rest.append(self._queue.get_nowait())
            except queue.Empty:
                break
        if self.ended:  # the end of the input was seen already: it comes again after the lines
            self.ended = False
            rest.append(EOF_LINE)
        for item in rest:
            self._queue.put(item)

    def wait_line(self, timeout_s: float = 24 * 3600) -> str | None:
        """Block (bounded) for the next line ("" for Enter alone); None if the input ended."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            item = self.get(0.1)
            if item != "":
                return "" if item == ENTER else item
        return ""


class TerminalTable:
    """One table in the terminal; `run` returns when the game is over, the input ends or on `quit`."""

    def __init__(self, ctl: Controller, lines: Lines, out: TextIO):
        self.ctl = ctl
        self.lines = lines
        self.out = out
        self.shown_log = 0
        self.shown_status = ""
        self.shown_choices: tuple[str, ...] | None = None
        self.pending: list[str] = []   # actions (and answers) typed, taken in order when this seat may act
        self.told = False              # the player was told that the first pending line waits
        self.confirming = False        # `resign` typed: waiting for yes/no
        self.left = False              # the player typed quit or the input ended
        self.shown_peers: tuple = ()   # the other players' connection as last told
        self.revealed_for: int | None = None   # hot seat: the person the screen was last handed to
        self.covering: int | None = None       # ... and the one it is covered for now
        self.numbers: dict[str, int] = {}      # the game actions' numbers in the current phase
        self.numbered_for: int | None = None   # ... the seat they were given to

    def say(self, text: str = "", end: str = "\n") -> None:
        print(text, end=end, file=self.out, flush=True)

    # ------------------------------------------------------------------ the loop
    def _humans(self) -> list[int]:
        humans = getattr(self.ctl, "humans", None)
        return humans() if humans is not None else []

    def _name(self, seat: int) -> str:
        names = self.ctl.names
        return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"

    def _legal(self) -> list[str]:
        """The legal actions of the person at the terminal: none while the seat to decide is another
        one than the person the screen was handed to (the cover comes first)."""
        if len(self._humans()) < 2:
            return self.ctl.legal()
        seat, legal = self.ctl.turn()
        return legal if seat == self.revealed_for else []

    def _cover(self, seat: int) -> None:
        """Hand the terminal over: clear it and name who comes next; nothing of that seat shows yet."""
        self.covering = seat
        isatty = getattr(self.out, "isatty", None)
        self.say(CLEAR if isatty is not None and isatty() else "\n" + "=" * 72)
        name = self._name(seat)
        self.say(f"pass to {name} (seat {seat}): the others look away; {name}, press Enter to see your cards")

    def run(self, poll_s: float = 0.05, max_seconds: float = 24 * 3600) -> None:
        humans = self._humans()
        if len(humans) > 1:
            self.say(f"{self.ctl.game.title}: seats {', '.join(str(s) for s in humans)} play at this terminal "
                     "(hot seat; the screen is covered between them). Type help for the commands.")
        else:
            self.say(f"{self.ctl.game.title}: you are seat {self.ctl.seat}. Type help for the commands.")
        deadline = time.monotonic() + max_seconds
        while time.monotonic() < deadline:
            self.ctl.poll(int(time.monotonic() * 1000))
            self._new_log_lines()
            ending = self.ctl.ending()
            if ending is not None:
                self.lines.unread(self.pending)
                self.pending = []
                self.say(board(self.ctl.view(), self.ctl.names, me=self.ctl.seat))
                self.say(f"game over: {ending_line(ending)}")
                path = getattr(self.ctl, "replay_path", None)
                if path:
                    self.say(f"replay saved: {path}")
                return
            self._show_peers()
            if len(humans) > 1:
                seat = self.ctl.seat
                if seat in humans and seat != self.revealed_for and seat != self.covering:
                    self._cover(seat)
            if self.covering is not None:
                if not self._read(poll_s):
                    return
                if self.pending:  # the next line typed (Enter) is the person saying they are here
                    self.pending.pop(0)
                    self.revealed_for, self.covering = self.covering, None
                    self.shown_choices = None
                continue
            self._show_choices()
            if not self._read(poll_s):
                return
            if self.pending and (self.confirming or self._legal()):
                self._action(self.pending.pop(0))
                self.told = False
            elif self.pending and not self.told and self.ctl.ending() is None and self.pending[0] != ENTER:
                self.told = True
                why = self.ctl.unavailable() or "nothing to choose now"
                self.say(f"({why}: {self.pending[0]!r} is kept for your turn)")

    def _read(self, poll_s: float) -> bool:
        """Take the lines typed so far: commands at once, actions (and answers) queued in order.
        False when the player leaves (quit, or the input ended with nothing left to do)."""
        timeout = poll_s
        while True:
            text = self.lines.get(timeout)
            timeout = 0.0
            if text is None:
                if self.pending and self.ctl.ending() is None:
                    time.sleep(poll_s)  # the script's last actions still wait for their turn
                    return True
                self.say("\ninput ended; leaving the table")
                self.left = True
                return False
            if not text:
                return True
            if self.covering is not None and text.strip().lower() not in ("quit", "exit"):
                self.pending.append(text)   # under the cover the next line is the answer to it: the rest
                return True                 # waits, to be read at the table it was typed for
            if text == ENTER:
                self.pending.append(ENTER)  # (kept in order: in a script it answers a cover to come)
                continue
            text = text.strip()
            if not text:
                continue
            if not self._command(text):
                return False

    def _new_log_lines(self) -> None:
        log = self.ctl.log
        for entry in log[self.shown_log:]:
            if not entry.startswith("game over: "):  # the table says how the game ended, in its own words
                self.say(f"  {entry}")
        self.shown_log = len(log)

    def _show_peers(self) -> None:
        """A line when a peer is lost (with what happens next and when) and when it is back."""
        peers = self.ctl.peers()
        state = tuple((p.name, p.connected) for p in peers)
        if state == self.shown_peers:
            return
        before = dict(self.shown_peers)
        self.shown_peers = state
        for peer in peers:
            if not peer.connected:
                self.say(f"[lost {peer.name}, reconnecting...{' ' + peer.next if peer.next else ''}]")
            elif before.get(peer.name) is False:
                self.say(f"[{peer.name} is back]")

    def _show_choices(self) -> None:
        """The board and the numbered actions once per new decision; the status once when it changes."""
        legal = tuple(self._legal())
        if legal == self.shown_choices:
            return
        self.shown_choices = legal
        if not legal:
            status = self.ctl.unavailable() or self.ctl.status()
            if status != self.shown_status and status != "sending your last move":
                self.shown_status = status
                self.say(f"[{status}]")
            return
        self.shown_status = ""
        view = self.ctl.view()
        if len(self._humans()) > 1 and view.get("seat") != self.revealed_for:
            self.shown_choices = None   # the turn has just passed on: the cover comes first
            return
        self.say(board(view, self.ctl.names, me=view.get("seat", self.ctl.seat)))
        self._list_actions(legal)

    def _number(self, actions: list[str]) -> dict[str, int]:
        """The numbers of `actions`, stable within a phase: the same seat choosing again with no other
        seat's move in between, and some action of the list already numbered (see the module docstring)."""
        seat = self.ctl.seat
        last = self.ctl.last_move()
        same_phase = (self.numbers and seat == self.numbered_for and last is not None and last[0] == seat
                      and any(a in self.numbers for a in actions))
        if not same_phase:
            self.numbers = {}
        self.numbered_for = seat
        kept = {a: self.numbers[a] for a in actions if a in self.numbers}
        following = max(self.numbers.values(), default=0)
        for action in actions:
            if action not in kept:
                following += 1
                kept[action] = following
        self.numbers = {**self.numbers, **kept}  # a number once given is never given to another action
        return kept

    def _list_actions(self, legal: tuple[str, ...]) -> None:
        actions, common = split_actions(list(legal))
        numbers = self._number(actions)
        seat = self.ctl.seat
        who = f"{self._name(seat)}, seat {seat}: " if len(self._humans()) > 1 and seat is not None else ""
        self.say(f"[{who}{self.ctl.status()}] choose:")
        for action in sorted(actions, key=numbers.__getitem__):
            i = numbers[action]
            words = readable(self.ctl.describe(action), action)
            self.say(f"  {i:3}. {action}" + (f"   ({words})" if words else ""))
        words = [w for w, a in COMMON_WORDS.items() if a in common]
        if words:
            self.say("  or type: " + ", ".join(words))
        self.say("> ", end="")

    # ------------------------------------------------------------------ one line
    def _command(self, text: str) -> bool:
        """A line as typed: commands run at once; actions and answers wait their turn. False to leave."""
        word = text.lower()
        if word in ("quit", "exit"):
            self.left = True
            return False
        if word in ("help", "?"):
            self.say(HELP)
        elif word in ("board", "state"):
            view = self.ctl.view()
            if len(self._humans()) > 1 and view.get("seat") != self.revealed_for:
                self.say("(the turn has just passed to another person here: the screen is handed over first)")
            elif word == "board":
                self.say(board(view, self.ctl.names, me=view.get("seat", self.ctl.seat)))
            else:
                self.say(render(view))
        elif word in ("actions", "moves"):
            self.shown_choices = None
            return True
        elif word == "say" or word.startswith("say "):
            said = text[4:].strip()
            if said:
                self.ctl.chat(said)
                self.say(f"  chat you: {said}")
            return True
        else:
            self.pending.append(text)
            return True
        self._prompt()
        return True

    def _prompt(self) -> None:
        if self._legal():
            self.say("> ", end="")

    def _action(self, text: str) -> None:
        """An action (or the answer to `resign`'s question) at a moment this seat may act."""
        if text == ENTER and not self.confirming:
            return  # Enter alone chooses nothing
        if self.confirming:
            self.confirming = False
            if text.lower() in ("y", "yes"):
                self._submit("resign")
            else:
                self.say("not resigned; the game goes on")
                self._prompt()
            return
        legal = self._legal()
        actions, common = split_actions(legal)
        word = text.lower()
        if word in COMMON_WORDS:
            action = COMMON_WORDS[word]
            if action not in common:
                self.say(f"{word}: not possible now")
                self._prompt()
                return
            if action == "resign":
                self.confirming = True
                self.say("resign: you lose this game at once. Sure? [y/N] ", end="")
                return
            self._submit(action)
            return
        if text.isdigit():
            number = int(text)
            by_number = {n: a for a, n in self._number(actions).items()}
            if number not in by_number:
                valid = sorted(by_number)
                more = f" ... ({len(valid)} in all)" if len(valid) > 12 else ""
                shown = ", ".join(str(n) for n in valid[:12]) + more
                self.say(f"{number}: choose one of {shown} (resign and draw are words, never numbers)")
                self._prompt()
                return
            self._submit(by_number[number])
            return
        if text in actions:
            self._submit(text)
            return
        self.say(f"not a legal action here: {text!r} (type a number, an action, or help)")
        self._prompt()

    def _submit(self, action: str) -> None:
        try:
            self.ctl.submit(action)  # the move log says it once it counts
        except Exception as exc:  # refused by the engine or the session: say why and go on
            self.say(f"refused: {exc}")
        self.shown_choices = None


def play(ctl: Controller, stdin: TextIO | Lines = sys.stdin, out: TextIO = sys.stdout,
         poll_s: float = 0.05, max_seconds: float = 24 * 3600) -> bool:
    """Run one table until the game is over (or the input ends / 'quit'); True if the player left."""
    lines = stdin if isinstance(stdin, Lines) else Lines(stdin)
    table = TerminalTable(ctl, lines, out)
    table.run(poll_s, max_seconds)
    return table.left
