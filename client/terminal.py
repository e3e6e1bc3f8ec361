"""The terminal interface: a compact board, the game's actions numbered once per decision, an action
typed or chosen by number. It drives any `Controller` (local or networked), reading lines from a
stream in a thread of its own (`Lines`), so a chat line goes out at once, whoever's turn it is, and
a pipe works as well as a keyboard (tests, scripted matches).

Nothing irreversible by accident: the numbers name the game's own actions only, in the engine's
order, and an action keeps its number for the whole phase: while the same seat goes on choosing and
no one else has moved (Ploc's three actions of a turn, each using up a die), the actions still there
keep the numbers first printed, gaps and all, and an action new to the phase gets the next free one;
a list with nothing in common with the numbered one starts again at 1. Texts of one shape are listed in
the order of their numbers (`settle 2` before `settle 10`), a long run of them in columns. The common
actions (`resign`, `draw`, `accept`, `decline`) are words, never numbers, and `resign` asks to be
confirmed; a game's own action of the same text (Catan's `accept` and `decline`, answering a trade
offer) wins, and the draw's answers are then listed as `accept draw` and `decline draw`.

Card lists: Catan's hundreds of possible offers (and a long list of discards) are one line saying how
to type one (`offer 1brick for 1wool to 2`, or as people write it: `offer 2 wood and a brick for ore`,
client/typed.py), listed on request (`offers`, `offers wool`, `list discard`). Catan and Cities &
Knights draw their island as a map (client/textmap.py) whenever it changed since it was last shown,
and on `map`.

Hot seat: when several people play at this terminal (a controller with more than one `humans()`),
the prompts name the seat, and whenever the turn passes from one of them to another the screen is
cleared and covered with "pass to <name>" until that person presses Enter; only then are that seat's
board and choices shown.
"""

from __future__ import annotations

import queue
import shutil
import sys
import threading
import time
from typing import TextIO

from client.controller import Controller
from client.ending import line as ending_line
from client.moves import common_meant, common_words, in_order, readable, split_actions
from client.textmap import NODE_VERBS, note
from client.textview import board, board_map, fold, render
from client.typed import CARD_NAMES, card_words, meant, spellings

HELP = """commands:
  NUMBER or an action's text   play that action (e.g. 2, or: step 6 12)
  resign                       give up this game (asks to confirm)
  draw / accept / decline      offer a draw / accept or decline the one offered (when the game has
                               its own accept or decline, as Catan's trades: accept draw, decline draw)
  say TEXT                     chat (sent at once, whoever's turn it is)
  board                        the board again          actions   the choices again
  map                          the map (Catan)          state     the whole game state
  list VERB [WORD...]          every choice of a kind, e.g. list discard, list offer wool
  offers [WORD...]             the trade offers possible now (Catan), e.g. offers brick
  help                         this text
  quit                         leave the table (a game under way stays unfinished)
Catan cards may be typed as people write them: offer 2 wood and a brick for ore to 2, discard 2 sheep,
trade brick for wool (at your best rate), play monopoly wheat."""

EOF_LINE = None  # what Lines.get returns once the input has ended
ENTER = "\n"     # what Lines.get returns for an empty line (Enter alone): "" means no line came
CLEAR = "\033[H\033[2J\033[3J"  # clear the screen and its scrollback (a terminal, not a pipe)
#: verbs whose texts are card lists: past `SUMMARY_OVER` texts they are summed up in a line, not numbered
CARD_VERBS = ("offer", "discard", "give", "trade")
SUMMARY_OVER = 12
#: more than `PLACES_OVER` texts naming a node of the map (`settle 12`) are one line of the node numbers,
#: typed with the verb: a choice's number beside a node's number would be mistaken for it
PLACES_OVER = 12


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

    def __init__(self, ctl: Controller, lines: Lines, out: TextIO, width: int | None = None):
        self.ctl = ctl
        self.lines = lines
        self.out = out
        self.width = width or shutil.get_terminal_size((80, 24)).columns
        self.shown_map: list[str] = []         # the map as last printed (printed again when it changes)
        self.names = CARD_NAMES.get(ctl.game.id)  # the card vocabulary of a Catan game (typed card lists)
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
                self._show_map(self.ctl.view())
                self.say(board(self.ctl.view(), self.ctl.names, me=self.ctl.seat, width=self.width))
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
                self.say("\n".join(fold(f"  {entry}", self.width, hang="      ")))
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
        self._show_map(view)
        self.say(board(view, self.ctl.names, me=view.get("seat", self.ctl.seat), width=self.width))
        self._list_actions(legal, view)

    def _show_map(self, view: dict, again: bool = False) -> None:
        """The island, when the game has one and it changed since it was last printed (or `again`)."""
        lines = board_map(view)
        if lines and (again or lines != self.shown_map):
            self.shown_map = lines
            self.say("\n".join(lines))

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

    def _grouped(self, actions: list[str]) -> tuple[list[str], dict[str, list[str]]]:
        """(the actions to number, in order; the verbs summed up in a line: verb -> its texts, in order):
        long runs of card lists, and of places named by a bare number in a game with a map."""
        by_verb: dict[str, list[str]] = {}
        for action in actions:
            by_verb.setdefault(action.split(" ", 1)[0], []).append(action)
        summed = {verb: in_order(texts) for verb, texts in by_verb.items()
                  if (verb in CARD_VERBS and len(texts) > SUMMARY_OVER)
                  or (self.names and len(texts) > PLACES_OVER and all(_place(t) for t in texts))}
        numbered = [a for a in actions if a.split(" ", 1)[0] not in summed]
        return in_order(numbered), summed

    def _list_actions(self, legal: tuple[str, ...], view: dict) -> None:
        actions, common = split_actions(list(legal))
        numbered, summed = self._grouped(actions)
        numbers = self._number(numbered)
        seat = self.ctl.seat
        who = f"{self._name(seat)}, seat {seat}: " if len(self._humans()) > 1 and seat is not None else ""
        self.say(f"[{who}{self.ctl.status()}] choose:")
        for action in sorted(numbered, key=numbers.__getitem__):
            words = (note(view, action) if self.names else None) or self._note(action, seat)
            line = f"  {numbers[action]:3}. {action}" + (f"   ({words})" if words else "")
            self.say("\n".join(fold(line, self.width, hang=" " * 9)))
        for verb, texts in summed.items():
            self.say("\n".join(fold(_summary(verb, texts), self.width, hang="      ")))
        words = list(common_words(common, actions))
        if words:
            self.say("  or type: " + ", ".join(words))
        self.say("> ", end="")

    def _note(self, action: str, seat: int | None) -> str:
        """The engine's words for one's own action, without the seat in front and without saying the
        action's text again ("" then)."""
        words = readable(self.ctl.describe(action), action)
        if seat is not None and words.startswith(f"seat {seat} "):
            words = words[len(f"seat {seat} "):]
        return "" if action in words else words

    def _columns(self, cells: list[str], indent: int = 2) -> None:
        """Cells in as many columns as the width holds, read down each column."""
        wide = max(len(c) for c in cells) + 2
        per_row = max(1, (self.width - indent) // wide)
        rows = -(-len(cells) // per_row)
        for r in range(rows):
            row = [cells[k] for k in range(r, len(cells), rows)]
            self.say(" " * indent + "".join(c.ljust(wide) for c in row).rstrip())

    def _list(self, verb: str, filters: list[str]) -> None:
        """`list VERB [WORD...]` and `offers [WORD...]`: every legal text of that verb naming every word."""
        actions, _ = split_actions(self._legal())
        wanted = [self._card_word(w) for w in filters]
        texts = [a for a in in_order(actions) if a.split(" ", 1)[0] == verb and all(w in a for w in wanted)]
        if not texts:
            what = f"{verb} " + " ".join(filters) if filters else verb
            self.say(f"(no {what.strip()} possible now)")
            return
        self.say(f"{len(texts)} {verb} choice{'s' if len(texts) != 1 else ''} (type one as it is written):")
        self._columns(texts, indent=2)

    def _card_word(self, word: str) -> str:
        """A filter word as the notation writes it (`wood` -> `lumber`)."""
        word = word.lower()
        return (card_words(word, self.names) or word) if self.names else word

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
        elif word == "map":
            view = self.ctl.view()
            if not board_map(view):
                self.say("(this game has no map: board shows it)")
            elif len(self._humans()) > 1 and view.get("seat") != self.revealed_for:
                self.say("(the turn has just passed to another person here: the screen is handed over first)")
            else:
                self._show_map(view, again=True)
        elif word.split(" ", 1)[0] in ("list", "offers") and (word == "offers" or " " in word):
            parts = text.split()
            verb, filters = ("offer", parts[1:]) if parts[0].lower() == "offers" else (parts[1].lower(), parts[2:])
            self._list(verb, filters)
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
        action, why = self.resolve(text)
        if action is None:
            self.say(why)
            self._prompt()
            return
        if action == "resign":
            self.confirming = True
            self.say("resign: you lose this game at once. Sure? [y/N] ", end="")
            return
        self._submit(action)

    def resolve(self, text: str) -> tuple[str | None, str]:
        """The legal action a typed line means now, or (None, why not). In this order: a game action's
        own text; a common action's word; a number; cards written as people write them."""
        legal = self._legal()
        actions, common = split_actions(legal)
        word = " ".join(text.lower().split())
        for candidate in (text, word):
            if candidate in actions:
                return candidate, ""
        meaning = common_meant(word, actions)
        if meaning is not None:
            if meaning not in common:
                return None, f"{word}: not possible now"
            return meaning, ""
        if word.isdigit():
            by_number = {n: a for a, n in self._number(self._grouped(actions)[0]).items()}
            number = int(word)
            if not by_number:
                return None, f"{number}: nothing is numbered now; type the action (help says how)"
            if number not in by_number:
                valid = sorted(by_number)
                more = f" ... ({len(valid)} in all)" if len(valid) > 12 else ""
                shown = ", ".join(str(n) for n in valid[:12]) + more
                return None, f"{number}: choose one of {shown} (resign and draw are words, never numbers)"
            return by_number[number], ""
        found = meant(text, actions, self.names)
        if found is not None:
            return found, ""
        verb = word.split(" ", 1)[0]
        spelt = spellings(text, self.names)
        if spelt:
            why = self.ctl.why_not(spelt[0]) or "not possible now"
            why = why[len(spelt[0]) + 2:] if why.startswith(spelt[0] + ": ") else why
            listed = sum(1 for a in actions if a.startswith(verb + " "))
            hint = "offers" if verb == "offer" else f"list {verb}"
            return None, f"{spelt[0]}: {why}" + (f" (`{hint}` lists the {listed} possible now)" if listed else "")
        return None, f"not a legal action here: {text!r} (type a number, an action, or help)"

    def _submit(self, action: str) -> None:
        try:
            self.ctl.submit(action)  # the move log says it once it counts
        except Exception as exc:  # refused by the engine or the session: say why and go on
            self.say(f"refused: {exc}")
        self.shown_choices = None


def play(ctl: Controller, stdin: TextIO | Lines = sys.stdin, out: TextIO = sys.stdout,
         poll_s: float = 0.05, max_seconds: float = 24 * 3600, width: int | None = None) -> bool:
    """Run one table until the game is over (or the input ends / 'quit'); True if the player left.
    `width`: the terminal's columns (default: as the terminal says, else 80)."""
    lines = stdin if isinstance(stdin, Lines) else Lines(stdin)
    table = TerminalTable(ctl, lines, out, width)
    table.run(poll_s, max_seconds)
    return table.left


def _place(action: str) -> bool:
    """A verb and one node's number (`settle 12`, `knight 40`): a corner the map numbers."""
    words = action.split(" ")
    return len(words) == 2 and words[0] in NODE_VERBS and words[1].isdigit()


def _summary(verb: str, texts: list[str]) -> str:
    """One line for a long list: how many, how to type one, how to see them all (the places' numbers
    themselves, which the map shows)."""
    example = texts[0]
    if _place(example):
        return (f"  {verb}: type `{verb} <node>`, at nodes " + ", ".join(t.split(" ")[1] for t in texts)
                + f" ({len(texts)}, numbered on the map)")
    if verb == "offer":
        return (f"  offers: {len(texts)} possible; type one like `{example}` (or to all); `offers` lists them, "
                "`offers wool` those with wool")
    return f"  {verb}: {len(texts)} possible; type one like `{example}`; `list {verb}` lists them"
