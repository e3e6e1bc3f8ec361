"""The game table: the board on the left, and on the right the status, the actions to choose from
(the half-built action with undo), the move log and the chat. Clicks on the board become tokens
through the game's renderer; nothing here knows a rule.

What a player must always know is on screen: whose turn it is, the other players' connection (a
banner within seconds of losing one, with what happens next and when), why a button is greyed or a
click did nothing (one notice line, the same in every game, cleared by the next action), the other
seats' last move (named and outlined for a moment), every seat's move clock when the game is timed
(red, with a warning in words, before one runs out), and at the end who won and why, in words, and
whether a rematch can still come (never contradicting the log).
Nothing irreversible by accident: resigning takes a second click on a button that says so (it stays
armed while the player reads it), and leaving mid-game (the top bar's button, or Esc) first says what
leaving means for this game. A step with one possible action is one keypress (Enter or Space).

Hot seat: when several people play seats of this peer, the controller shows one of them at a time
(`ctl.seat`); whenever that changes from one person to another, a cover over the whole window says
whom to pass the screen to ("pass to Anna"), and nothing of the board shows until that person
clicks (or presses Enter), so that nobody sees another one's hidden cards.
"""

from __future__ import annotations

import dataclasses as dc

import pygame

from client.actions import ActionBuilder
from client.controller import Controller, obliged_to_rematch
from client.cues import CueWatcher, Observer
from client.ending import EXPIRED, RematchState, rematch_words
from client.games import paint, renderer_for, seat_style
from client.moves import label, words
from client.story.record import LiveChronicle
from client.ui import clocks, dialog, textfit, theme
from client.ui.chronicle import ChroniclePanel
from client.ui.logview import Item
from client.ui.widgets import Button, TextInput, draw_text, fit, label_size, panel, two_lines, wrap, wrap_lines
from engines.core import COMMON_ACTIONS
from engines.memo import Memo

NOTICE_MS = 6000        # how long a notice stays when nothing else happens
LAST_MOVE_MS = 2500     # how long another seat's move stays outlined and named on the board
BREATHE_MS = 66         # highlights on the board breathe: a picture this often while there are any
#: ... for so long after the choices changed or the person last touched the window; then they hold still (one
#: picture) until the next input: a table left with its moves lit no longer draws 15 pictures a second for
#: an absent player (issue 34, item 11: 17.9 pictures/s and 10.8 % of a core measured)
BREATHE_FOR_MS = 10_000
ALARM_MS = 9000         # an attack (C&K's barbarians) is told over the board this long, or until clicked away


class TableScene:
    def __init__(self, controller: Controller, title: str = "", on_leave=None):
        self.ctl = controller
        self._title = title
        self._renderer = None
        self._renderer_game = None
        self.builder = ActionBuilder([])
        self.page: tuple[tuple, int] = ((), 0)   # the choices' page shown, for the tokens chosen so far
        self.legal_key: tuple[str, ...] | None = ()
        self.buttons: list[Button] = []
        self.chat_input = TextInput(placeholder="chat: click, type, Enter")
        self.board_rect = pygame.Rect(0, 0, 10, 10)
        self.flash_ms = 0
        self.alarm, self.alarm_ms = "", 0    # the last attack's words over the board, and for how long still
        self.alarm_rect: pygame.Rect | None = None
        self._alarm_seen: tuple[int, int] = (0, 0)   # (id of the chronicle, entries of it looked at)
        self.log_seen = 0
        self.notice = ""              # the one feedback line: why something did not happen
        self._status_lines: tuple[tuple[bool, bool], int, int] | None = None   # `_status_room`
        self.notice_bad = True
        self.notice_ms = 0
        self.resign_armed = False     # the resign button waits for its confirming click (no time limit)
        self.confirm: str | None = None       # a question over the table ("leave"), until it is answered
        self.confirm_buttons: list[Button] = []
        self.last_move = ""           # another seat's latest move, in words
        self.last_action = ""         # ... and as its action text, for the board's outline
        self.last_seat: int | None = None  # ... and the seat that made it
        self.last_move_ms = 0
        self.on_leave = on_leave
        self.rematch_asked = False
        self.now_ms = 0
        self.stirred_ms = 0     # when the choices last changed or the person last gave input (now_ms)
        # choice labels for one legal list (describe is not free)
        self._labels: Memo[tuple, str] = Memo(500, "(legal list, tokens chosen, token)")
        self.revealed_for: int | None = None  # hot seat: the person the screen was last handed to
        self.cover: int | None = None         # ... and the one it must be handed to now (covered until then)
        self.chronicle = ChroniclePanel()     # the log in words and the dice, in tabs (client/ui/chronicle.py)
        self.live = LiveChronicle()
        #: for each chat line seen, how many entries the game's log had when it came: the line stays there, among
        #: the moves that follow it (issue 34, item 1: a chat line was pinned under every later move)
        self._chat_at: list[int] = []
        self._forced_sent: tuple[str, ...] | None = None   # the legal list whose forced action was played
        self.cues, self._observe = CueWatcher(), Observer()   # what deserves a sound (client/cues.py)

    # ------------------------------------------------------------------ model
    @property
    def title(self) -> str:
        game = self.ctl.game
        return self._title or (game.title if game is not None else "connecting...")

    @property
    def error(self) -> str:
        """The notice line when it reports a refusal (kept for callers that read `error`)."""
        return self.notice if self.notice_bad else ""

    @property
    def renderer(self):
        """The game's renderer, made once the game is known (a joiner learns it from the host) and
        again if a rematch brings another game."""
        game = self.ctl.game
        if game is not None and game.id != self._renderer_game:
            self._renderer, self._renderer_game = renderer_for(game.id), game.id
        return self._renderer

    def say(self, text: str, bad: bool = True) -> None:
        self.notice, self.notice_bad, self.notice_ms = text, bad, NOTICE_MS

    def _refresh_legal(self) -> None:
        if len(self._humans()) > 1:   # hot seat: nothing to choose until the screen is handed over
            seat, legal_now = self.ctl.turn()
            legal = tuple(legal_now) if seat == self.revealed_for and self.cover is None else ()
        else:
            legal = tuple(self.ctl.legal())
        if legal != self.legal_key:
            self.legal_key = legal
            self.stirred_ms = self.now_ms   # new choices: the board breathes again
            # in the order the board shows its cards, where it has one (Catan's hand: keys 1-9 follow it)
            self.builder = ActionBuilder([a for a in legal if a not in COMMON_ACTIONS] + self._talk_choices(legal),
                                         order=getattr(self.renderer, "order", None))
            self._play_forced(legal)

    def _talk_choices(self, legal: tuple[str, ...]) -> list[str]:
        """Texts the board offers beside the legal ones that are table talk, not actions (Catan's
        counter-offer: `counter <cards> for <cards>` declines and says what would be traded instead;
        client/games/catan/counters.py). Played through `_send`, which asks the board what each means."""
        choices = getattr(self.renderer, "talk_choices", None)
        if choices is None or not legal:
            return []
        view = self.ctl.view()
        return [t for t in choices(view, list(legal)) if t not in legal] if view else []

    def _play_forced(self, legal: tuple[str, ...]) -> None:
        """A step with one possible action of a kind the board names as forced (Catan's `steal` when one
        player can be robbed) is played for the person, and said, instead of waiting for a click that
        decides nothing (issue 34, item 10). Once per legal list: a networked table may offer the same list
        again until the host has sequenced the frame."""
        actions = self.builder.legal
        forced = getattr(self.renderer, "forced", frozenset())
        if len(actions) != 1 or actions[0].split(" ")[0] not in forced:
            self._forced_sent = None   # another step: the same forced list later (a later robbery) is played again
            return
        if legal == self._forced_sent:
            return
        self._forced_sent = legal
        action = actions[0]
        parts, renderer = action.split(" "), self.renderer
        named = renderer.label(self.ctl.view(), parts[:-1], parts[-1]) if len(parts) > 1 and hasattr(
            renderer, "label") else None
        words = named or label(self.ctl.describe(action), action)   # ("rob Blue"; else the engine's words)
        self._send(action)
        self.say(f"the only choice, played for you: {words}", bad=False)

    def _send(self, action: str) -> None:
        self.notice = ""
        talk = getattr(self.renderer, "talk", None)
        meant = talk(self.ctl.view(), action) if talk is not None and action not in (self.legal_key or ()) else None
        if meant is not None:   # table talk: its line is said first (it must not come after the turn moved on)
            action, line = meant
            self.ctl.chat(line)
        try:
            self.ctl.submit(action)
        except Exception as exc:  # a refused action is shown, never a traceback
            self.say(f"{action}: refused: {exc}")
        self.builder.clear()
        self.legal_key = None  # forces a new builder even when nothing is legal now (not our turn)
        self._refresh_legal()

    def _after_token(self) -> None:
        # a word that is the only way on (Catan's `for` and `to` between two card lists) comes by itself
        fillers = getattr(self.renderer, "fillers", frozenset())
        while fillers and self.builder.complete() is None:
            following = self.builder.candidates()
            if len(following) != 1 or following[0] not in fillers:
                break
            self.builder.push(following[0])
        done = self.builder.finished()
        if done is not None:
            self._send(done)

    def _undo(self) -> None:
        """Take back the last token chosen, with the words that came after it by themselves: undoing `trade
        4brick for` leaves `trade`, never a bare `for` to choose (issue 34, item 2). A filler before the last
        choice came with an earlier one and stays (`offer 1brick for 1ore` -> `offer 1brick for`)."""
        fillers = getattr(self.renderer, "fillers", frozenset())
        while self.builder.tokens and self.builder.tokens[-1] in fillers:
            self.builder.undo()
        self.builder.undo()

    def _why_not(self) -> str:
        """Why nothing can be chosen now, in words."""
        return self.ctl.unavailable() or "nothing to choose now"

    def _ways_on(self, tokens: list[str]) -> list[str]:
        """The legal actions that begin with `tokens`."""
        n = len(tokens)
        return [a for a in self.builder.legal if a.split(" ")[:n] == tokens]

    def _only_action(self) -> str | None:
        """The one action the tokens chosen so far can still become (None: none, or several)."""
        ways = self._ways_on(list(self.builder.tokens))
        return ways[0] if len(ways) == 1 else None

    def _take(self, token: str) -> None:
        """A choice from the list (a key or its button): a token that leads to one action only is that
        whole action at once, so a step with a single possible action takes one keypress."""
        self.notice = ""
        self.builder.push(token)
        only = self._only_action()
        if only is not None:
            self.builder.choose(only)
        self._after_token()

    def token_label(self, token: str) -> str:
        """A choice's text: the renderer's name for it, else the engine's words for the action it
        completes (or for the one action it leads to), else the token itself."""
        key = (self.legal_key, tuple(self.builder.tokens), token)
        cached = self._labels.get(key)
        if cached is not None:
            return cached
        view = self.ctl.view()
        renderer = self.renderer
        named = renderer.label(view, list(self.builder.tokens), token) if hasattr(renderer, "label") else None
        whole = " ".join([*self.builder.tokens, token])
        ways = self._ways_on(whole.split(" "))
        if named:
            text = named
        elif whole in self.builder.legal:
            text = label(self.ctl.describe(whole), whole)
        elif len(ways) == 1:
            text = label(self.ctl.describe(ways[0]), ways[0])
        else:
            text = token
        return self._labels.put(key, text)

    # ------------------------------------------------------------------ events
    def _humans(self) -> list[int]:
        humans = getattr(self.ctl, "humans", None)
        return humans() if humans is not None else []

    def _check_cover(self, seat: int | None) -> None:
        """Cover the screen when `seat` (shown now) is another person here than the one it was handed to."""
        humans = self._humans()
        if len(humans) > 1 and seat in humans and seat != self.revealed_for and seat != self.cover:
            self.cover = seat   # another person's turn at this screen: cover it until they are there

    def _uncover(self) -> None:
        self.revealed_for, self.cover = self.cover, None
        self.builder.clear()

    def handle(self, event: pygame.event.Event, app) -> None:
        self.stirred_ms = self.now_ms     # the person is here: the highlights breathe again
        if self.confirm is not None:  # a question over the table takes every event until it is answered
            self._answer(event, app)
            return
        if self.cover is not None:  # nothing reaches the table under the cover but the hand-over itself
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                if any(b.key == "uncover" and b.rect.collidepoint(event.pos) for b in self.buttons):
                    self._uncover()
            elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self._uncover()
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.confirm = "leave"
            return
        if (self.alarm_ms and self.alarm_rect is not None and event.type == pygame.MOUSEBUTTONDOWN
                and self.alarm_rect.collidepoint(event.pos)):
            self.alarm_ms = 0     # read: clicked away (the log keeps it)
            return
        typing = self.chat_input.focused
        said = self.chat_input.handle(event)
        if said is not None:
            if said.strip():
                self.ctl.chat(said)
            self.chat_input.focused = False  # sent: the keys are the table's again (1-9 choose, not type)
        if typing and event.type in (pygame.KEYDOWN, pygame.TEXTINPUT):
            return
        asked = self.chronicle.handle(event)
        if asked is not None:
            if asked[0] == "rules" and self.ctl.game is not None:
                from client.scenes.rules import open_rules

                open_rules(app, self.ctl.game.id)
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._click(event.pos, app)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self._undo()
        elif event.type == pygame.KEYDOWN:
            self._key(event, app)

    def _click(self, pos: tuple[int, int], app) -> None:
        for button in self.buttons:
            if button.rect.collidepoint(pos):
                if button.enabled:
                    if button.key != "action:resign":
                        self._disarm()
                    self._button(button.key, app)
                else:
                    self.say(f"{button.label}: not possible now ({self._disabled_reason(button.key)})")
                return
        self._disarm()
        view = self.ctl.view()
        if not (self.board_rect.collidepoint(pos) and self.renderer is not None and view):
            return
        token = self.renderer.hit(self.board_rect, view, pos)
        if token is None:
            press = getattr(self.renderer, "press", None)  # a widget on the board keeps the click (a + or -)
            if press is not None and self.builder.legal:
                press(self.board_rect, view, pos)
            return
        if not self.builder.legal:
            self.say(f"not now: {self._why_not()}")
            return
        # one click may give several tokens (a cannon slot is its zone and its side: "5 in")
        saved = list(self.builder.tokens)
        if all(self.builder.push(part) for part in token.split(" ")):
            self.notice = ""
            self._after_token()
        else:
            self.builder.tokens[:] = saved
            self.say(self._refusal(view, token))

    def _refusal(self, view: dict, token: str) -> str:
        """Why a click's token does not fit, in words: what was clicked (by its name on the board, never
        a bare id) and what may come instead."""
        renderer = self.renderer
        *before, last = token.split(" ")  # a click may give several tokens ("road 33"): the last one names it
        named = (renderer.label(view, [*self.builder.tokens, *before], last) if hasattr(renderer, "label")
                 else None)
        if not named and token.replace(" ", "").isalpha():
            named = token
        head = f"{named}: not possible now" if named else "Not possible there now"
        choices = self.builder.candidates()
        if not choices:
            return head
        options = ", ".join(self.token_label(t) for t in choices[:4]) + (", ..." if len(choices) > 4 else "")
        return f"{head}; choose {options}" if len(choices) == 1 else f"{head}; choose one of {options}"

    def _disabled_reason(self, key: str) -> str:
        kind, _, value = key.partition(":")
        if kind == "action":
            why = self.ctl.unavailable()
            if why:
                return why
            if value == "offer draw" and self.ctl.players == 1:
                return "a solo game has no opponent to agree"
            ask = getattr(self.ctl, "why_not", None)  # the engine's own words
            engine = ask(value) if ask is not None else ""
            if engine:
                return engine.removeprefix(f"{value}: ")
            if value in ("accept draw", "decline draw"):
                return "no draw is offered"
            return "the rules do not allow it at this point"
        if kind == "send":
            return "the action is not complete yet"
        if kind == "rematch":
            state = self._rematch()
            return state.closed if state is not None and state.closed else "already asked"
        return "not available"

    def _button(self, key: str, app) -> None:
        kind, _, value = key.partition(":")
        if kind in ("token", "undo", "send", "action"):
            self.notice = ""  # a choice made: an earlier refusal no longer applies
        if kind == "token":
            self._take(value)
        elif kind == "action" and value == "resign" and not self.resign_armed:
            self.resign_armed = True
            self.say("click \u201cconfirm resign\u201d again to give up this game (Esc: keep playing)", bad=False)
        elif kind == "action":
            self.resign_armed = False
            self._send(value)
        elif kind == "undo":
            self._undo()
        elif kind == "more":
            self.page = (self._page_tokens(), self._choice_page() + 1)
        elif kind == "send":
            done = self.builder.complete()
            if done:
                self._send(done)
        elif kind == "rematch":
            self.rematch_asked = True
            self.ctl.rematch(True)
        elif kind == "ask-leave":
            self._ask_leave(app)
        elif kind == "leave":
            self._leave(app)

    def _leave(self, app) -> None:
        self.confirm = None
        if self.on_leave:
            self.on_leave(app)
        else:
            app.pop()

    def _ask_leave(self, app) -> None:
        """Leave at once when nothing is lost by it (the game is over), else ask first, saying what
        leaving means for this game."""
        if self.ctl.ending() is not None:
            self._leave(app)
        else:
            self.confirm = "leave"

    def leave_words(self) -> str:
        words = getattr(self.ctl, "leave_words", None)
        return words() if words is not None else "This game is not recorded: leaving ends it."

    def _answer(self, event: pygame.event.Event, app) -> None:
        """The leave question: its buttons, Y to leave, Esc or N to stay."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.confirm_buttons:
                if button.rect.collidepoint(event.pos):
                    if button.key == "leave":
                        self._leave(app)
                    else:
                        self.confirm = None
                    return
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_y:
                self._leave(app)
            elif event.key in (pygame.K_ESCAPE, pygame.K_n):
                self.confirm = None

    def _disarm(self) -> None:
        if self.resign_armed:
            self.resign_armed = False
            if not self.notice_bad:
                self.notice = ""

    def _escape(self, app) -> None:
        """Esc takes back the latest thing first: an armed resign, the tokens chosen; then leaving."""
        if self.resign_armed:
            self._disarm()
        elif self.builder.tokens:
            self.builder.clear()
        else:
            self._ask_leave(app)

    def _key(self, event: pygame.event.Event, app) -> None:
        if event.key == pygame.K_BACKSPACE:
            self._undo()
        elif event.key == pygame.K_ESCAPE:
            self._escape(app)
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            done = self.builder.complete() or self._only_action()
            if done:
                self._disarm()
                self._send(done)
            elif self.builder.legal:
                self.say("Enter plays the action once it is complete: choose with keys 1-9 or on the board")
            else:
                self.say(f"not now: {self._why_not()}")
        elif pygame.K_1 <= event.key <= pygame.K_9:
            index = event.key - pygame.K_1
            choices = self.builder.candidates()
            if index < len(choices):
                self._disarm()
                self._take(choices[index])
            elif not self.builder.legal:
                self.say(f"key {index + 1}: not now: {self._why_not()}")
            else:
                keys = "key 1" if len(choices) == 1 else f"keys 1-{min(9, len(choices))}"
                self.say(f"key {index + 1}: no such choice now (choose with {keys})")

    # ------------------------------------------------------------------ frame
    def update(self, app, dt_ms: int) -> None:
        self.now_ms += dt_ms
        self.ctl.poll(self.now_ms)
        self._check_cover(self.ctl.seat)
        self._refresh_legal()
        log = self.ctl.log
        if len(log) != self.log_seen:
            self.log_seen = len(log)
            last = self.ctl.last_move()
            if last is not None and last[0] != self.ctl.seat and last[1] != self.last_move:
                self.last_move, self.last_action, self.last_move_ms = last[1], last[2], LAST_MOVE_MS
                self.last_seat = last[0]
                self.flash_ms = 450  # a fading frame marks another seat's move
        self.flash_ms = max(0, self.flash_ms - dt_ms)
        self.alarm_ms = max(0, self.alarm_ms - dt_ms)
        self.last_move_ms = max(0, self.last_move_ms - dt_ms)
        if self.resign_armed and "resign" not in (self.legal_key or ()):
            self._disarm()   # the game moved on (it ended, or it is no longer this seat's to resign)
        if self.notice_ms and not self.resign_armed:   # the resign question stays while it is open
            self.notice_ms = max(0, self.notice_ms - dt_ms)
            if not self.notice_ms:
                self.notice = ""
        if self.rematch_asked and self.ctl.result() is None:
            self.rematch_asked = False  # the rematch has begun
        elif (not self.rematch_asked and self.ctl.result() is not None and hasattr(self.ctl, "rematch")
              and self._rematch_open() and obliged_to_rematch(self.ctl.view(), self.ctl.seat)):
            self.rematch_asked = True  # the winner of a surrendered game must accept (the view says so)
            self.ctl.rematch(True)
        self._sound(app)

    def _sound(self, app) -> None:
        """The sounds of what this update brought (issue 34): decided by client/cues.py, played by the app's
        `sounds` (client/sounds.py, which also rate-limits them by this table's clock). Nothing is even
        looked at when the sounds are off."""
        sounds = getattr(app, "sounds", None)
        if sounds is None or not sounds.enabled:
            return
        chron = self.live.update(self.ctl) if self.ctl.game is not None else None
        mine = bool(self.legal_key) or self.cover is not None   # (hot seat: the cover asks for the next person)
        for cue in self.cues.update(self._observe(self.ctl, chron, mine)):
            sounds.play(cue, self.now_ms)

    def frame_key(self, app) -> tuple:
        """What the picture shows besides input (client.app draws when it changes, and goes on at the
        animation rate for a second so that a move's animation finishes): the game's progress, the
        status, the choices, the notices, the other players' connection, the end and the rematch."""
        ctl = self.ctl
        progress = ctl.progress() if hasattr(ctl, "progress") else len(ctl.log)
        peers = tuple((p.name, p.connected, p.next) for p in ctl.peers())
        return (progress, len(ctl.chat_lines), ctl.status(), self.legal_key, tuple(self.builder.tokens), self.page,
                self.notice, self.resign_armed, self.confirm, self.cover, self.revealed_for, self.rematch_asked,
                self.last_move_ms > 0, self.flash_ms > 0, self.alarm_ms > 0, peers, ctl.ending(),
                self._rematch(counting=False))

    def still_key(self, app) -> tuple:
        """What changes on the picture by the second without anything moving: the seats' clocks and how
        long another player has been gone (client.app draws one picture when it changes, no animation)."""
        state = self._rematch()
        left = None if state is None or state.left_s is None else int(state.left_s)  # the rematch offer's
        return self._chips(), tuple(int(p.gone_s) for p in self.ctl.peers()), self.breathing(), left

    def breathing(self) -> bool:
        """Whether the board's highlights breathe now: there are some to click, and the choices changed or
        the person touched the window within `BREATHE_FOR_MS` (after that one still picture holds them)."""
        return (self.cover is None and self.confirm is None and bool(self.builder.legal)
                and self.ctl.ending() is None and self.now_ms - self.stirred_ms < BREATHE_FOR_MS)

    def frame_ms(self, app) -> int | None:
        """While the board breathes a picture every BREATHE_MS, else none."""
        return BREATHE_MS if self.breathing() else None

    def _chips(self) -> tuple:
        """The seats' clocks as shown (whole seconds), empty for an untimed game or a local one."""
        read = getattr(self.ctl, "clocks", None)
        return clocks.chips(read(), self.ctl.names) if read is not None else ()

    def _rematch(self, counting: bool = True) -> RematchState | None:
        """The rematch as the controller has it (None before the end); a controller that cannot say
        more has one open whenever its ending says so. Without `counting` the seconds the offer is still
        open are left out: they change the picture once a second (`still_key`), nothing more."""
        ending = self.ctl.ending() if hasattr(self.ctl, "ending") else None
        if ending is None:
            return None
        state = getattr(self.ctl, "rematch_state", None)
        if state is not None:
            return dc.replace(state(), left_s=None) if not counting else state()
        return RematchState(ending.rematch_open, self.rematch_asked, (),
                            "" if ending.rematch_open else "the game cannot be played again")

    def _named(self, text: str) -> str:
        """A log line with the seat number turned into the player's name."""
        names = self.ctl.names
        out = words(text) if text.startswith("seat ") else text
        for seat, name in enumerate(names):
            if name and f"seat {seat}" in text and seat != self.ctl.seat:
                return f"{name}: {out}" if text.startswith("seat ") else out
        return out

    def _last_words(self) -> str:
        """Another seat's last move in the log's words (the player named once), else the engine's."""
        chron = self.live.chronicle
        if chron is not None and self.last_seat is not None:
            for entry in reversed(chron.entries[-12:]):
                if entry.seat == self.last_seat and entry.kind in ("move", "secret"):
                    return entry.text
        return self._named(self.last_move)

    def _rematch_open(self) -> bool:
        state = self._rematch()
        return state is not None and state.open

    def draw(self, surface: pygame.Surface, app) -> None:
        paint.hold(None if self.breathing() else 1.0)   # at rest the highlights show at full size, still
        try:
            self._draw(surface, app)
        finally:
            paint.hold(None)

    def _draw(self, surface: pygame.Surface, app) -> None:
        w, h = surface.get_size()
        px = app.px(20)
        side_w = max(300, int(w * 0.3))
        top = px * 2 + 14
        ending = self.ctl.ending()
        if self.ctl.game is not None:
            self.live.update(self.ctl)    # before the side panel: its last move is in the chronicle's words
            self._catch_alarm()
        banner = self._peer_lines(px, w - side_w - 60) if ending is None else []
        board_top = top + (len(banner) * (px + 2) + 22 if banner else 0)
        self.board_rect = pygame.Rect(12, board_top, w - side_w - 36, h - board_top - 12)
        countdown = self._countdown_lines(app)
        if countdown is not None:   # the countdown's band below the board, never over its legend or pieces
            self.board_rect.h -= countdown[2] + 6
        side = pygame.Rect(w - side_w - 12, top, side_w, h - top - 12)
        self.buttons = []

        seat = self.ctl.seat
        names = self.ctl.names
        if seat is None:
            seat_txt = "spectator"
        else:
            name = names[seat] if seat < len(names) and names[seat] and names[seat] != "you" else ""
            seat_txt = f"you: seat {seat}" + (f", {name}" if name else "")
        colour = seat_style(self.ctl.game.id if self.ctl.game is not None else None, seat or 0)[0]
        leave_w = theme.font(px - 2).size("leave (Esc)")[0] + 20
        leave = Button(pygame.Rect(w - 12 - leave_w, 10, leave_w, px + 8), "leave (Esc)", "ask-leave")
        self.buttons.append(leave)
        seat_rect = draw_text(surface, fit(seat_txt, px, side_w - leave_w - 16), (leave.rect.x - 12, 14), px, colour,
                              anchor="topright")
        title_px = app.px(30)
        draw_text(surface, fit(self.title, title_px, seat_rect.x - 40, bold=True), (16, 10), title_px, theme.ACCENT,
                  bold=True)

        pygame.draw.rect(surface, theme.PANEL, self.board_rect, border_radius=10)
        highlights = set(self.builder.clickable())
        renderer = self.renderer
        view = self.ctl.view()
        if view and view.get("seat") is not None:
            self._check_cover(view["seat"])   # the session may have moved on since the update
        if self.cover is not None:
            view = {}   # nothing of any seat's view is drawn under the cover
        if view:
            # seats named on the board; the legal texts, for a board that lights what they allow
            view = dict(view, _names=self.ctl.names, _me=self.ctl.seat, _legal=self.builder.legal,
                        _said=getattr(self.ctl, "said", None), _why=getattr(self.ctl, "why_not", None))
        if renderer is None or not view:  # a joiner before the host's header, a host before the joiners
            draw_text(surface, "waiting for the game to start...", self.board_rect.center, app.px(28), theme.MUTED,
                      anchor="center")
        else:
            renderer.draw(surface, self.board_rect, view, highlights, list(self.builder.tokens), px)
            if self.last_move_ms and self.last_action and hasattr(renderer, "mark"):
                renderer.mark(surface, self.board_rect, view, self.last_action, self.last_seat)
        if countdown is not None:
            self._draw_countdown(surface, countdown)
        self._draw_alarm(surface, px)
        if self.flash_ms:
            width = 1 + 3 * self.flash_ms // 450  # a fading frame marks the move just made
            pygame.draw.rect(surface, theme.HILITE, self.board_rect, width=width, border_radius=10)
        if banner:
            self._draw_banner(surface, banner, pygame.Rect(12, top, self.board_rect.w, board_top - top - 6), px)

        shown = self._chips()
        if shown:   # every seat's clock above the status (a timed game)
            terms = self.ctl.terms() if hasattr(self.ctl, "terms") else ""
            chip_h = clocks.height(shown, px, self.ctl.seat, terms, side.w)
            game_id = self.ctl.game.id if self.ctl.game is not None else None
            clocks.draw(surface, pygame.Rect(side.x, side.y, side.w, chip_h), shown, px, self.ctl.seat,
                        lambda s: seat_style(game_id, s)[0], terms)
            side = pygame.Rect(side.x, side.y + chip_h + 6, side.w, side.h - chip_h - 6)
        y = self._draw_status(surface, side, px)
        y = self._draw_actions(surface, pygame.Rect(side.x, y, side.w, self._actions_height(side, px)), px)
        # the rest: log, dice
        log_h = side.bottom - y - px * 2 - 24
        aside = self.aside_height(side.w, px, log_h)
        if aside:   # a box of a scene built on the table (the tutorial's coach) takes the log's top, or all of it
            self.draw_aside(surface, pygame.Rect(side.x, y + 6, side.w, aside), px)
            y, log_h = y + aside + 6, log_h - aside - 6
        if not aside or log_h >= 2 * px + 24:
            self._draw_log(surface, pygame.Rect(side.x, y + 6, side.w, log_h), px)
        else:   # (no log drawn: its tabs of an earlier picture must not take a click)
            self.chronicle.buttons, self.chronicle.log.rect = [], pygame.Rect(0, 0, 0, 0)
        self.chat_input.rect = pygame.Rect(side.x, side.bottom - px - 14, side.w, px + 14)
        self.chat_input.draw(surface, px)
        mouse = pygame.mouse.get_pos()
        for button in self.buttons:
            button.draw(surface, mouse, px - 2 if button.key == "ask-leave" else px)
        if ending is not None:
            self._draw_end(surface, ending, app)
        if self.cover is not None:
            self._draw_cover(surface, app, self.cover)
        self.confirm_buttons = []
        if self.confirm == "leave":
            self.confirm_buttons = dialog.draw(surface, pygame.Rect(0, 0, w, h), "Leave this table?",
                                               self.leave_words(), [("leave the game", "leave"), ("stay", "stay")],
                                               app.px(22), "Y: leave    Esc: stay", theme.BAD)

    def aside_height(self, width: int, px: int, room: int) -> int:
        """The height a scene built on the table keeps under the choices for its own box, at most `room` (the
        log's): none here. The tutorial's coach (client/scenes/tutorial.py) says its words there, beside the
        board it explains and never over what it asks the person to click."""
        return 0

    def draw_aside(self, surface: pygame.Surface, rect: pygame.Rect, px: int) -> None:
        """Draw that box (its buttons go into `self.buttons`, whose clicks reach `_button`)."""

    def _catch_alarm(self) -> None:
        """An attack that just happened (a chronicle entry of kind "alarm": C&K's barbarians) is told over
        the board, not only as a red line in the log (issue 34, item 10). Only what happens while the table
        is open: a chronicle seen for the first time (a resumed game, a rematch) raises none of its past."""
        chron = self.live.chronicle
        if chron is None:
            return
        entries = chron.entries
        known, seen = self._alarm_seen
        if known != id(chron):
            self._alarm_seen = (id(chron), len(entries))
            return
        fresh = [e for e in entries[seen:] if e.kind == "alarm"]
        self._alarm_seen = (known, len(entries))
        if fresh:
            self.alarm, self.alarm_ms = fresh[-1].text, ALARM_MS

    def _draw_alarm(self, surface: pygame.Surface, px: int) -> None:
        """The attack's words in a box across the top of the board (a click on it puts it away)."""
        self.alarm_rect = None
        if not self.alarm_ms or not self.alarm:
            return
        board = self.board_rect
        width = max(200, int(board.w * 0.84))
        lines = wrap(self.alarm, px, width - 32)
        rect = pygame.Rect(0, 0, width, len(lines) * (px + 4) + px + 28)
        rect.midtop = (board.centerx, board.y + max(8, board.h // 12))
        pygame.draw.rect(surface, theme.BG, rect, border_radius=10)
        pygame.draw.rect(surface, theme.BAD, rect, width=3, border_radius=10)
        textfit.box(rect, "modal")   # over the board on purpose
        y = rect.y + 12
        for line in lines:
            draw_text(surface, line, (rect.centerx, y), px, theme.TEXT, anchor="midtop")
            y += px + 4
        draw_text(surface, "click to close", (rect.centerx, y + 4), max(12, px - 6), theme.MUTED, anchor="midtop")
        self.alarm_rect = rect

    def _draw_cover(self, surface, app, seat: int) -> None:
        """The hand-over between two people at one screen: an opaque cover over everything."""
        w, h = surface.get_size()
        whole = pygame.Rect(0, 0, w, h)
        pygame.draw.rect(surface, theme.BG, whole)
        textfit.box(whole, "modal")
        names = self.ctl.names
        name = names[seat] if seat < len(names) and names[seat] else f"seat {seat}"
        game = self.ctl.game
        colour, colour_name = seat_style(game.id if game is not None else None, seat)
        big, body = app.px(44), app.px(22)
        width = w - 80
        y = h // 2 - big - body * 3
        draw_text(surface, fit(f"pass to {name}", big, width, bold=True), (w // 2, y), big, colour, bold=True,
                  anchor="midtop")
        y += big + body
        lines = wrap(f"seat {seat} ({colour_name}) plays next on this screen. The others look away: "
                     f"{name}'s cards show once {name} is here.", body, min(width, body * 36))
        for line in lines[:3]:
            draw_text(surface, line, (w // 2, y), body, theme.TEXT, anchor="midtop")
            y += body + 4
        y += body
        bw = min(width, max(body * 14, theme.font(body).size(f"I am {name}: show my cards")[0] + 40))
        button = Button(pygame.Rect(w // 2 - bw // 2, y, bw, body + 18), f"I am {name}: show my cards", "uncover")
        self.buttons = [button]  # under the cover no other button can be hit
        button.draw(surface, pygame.mouse.get_pos(), body)
        draw_text(surface, "(or press Enter)", (w // 2, button.rect.bottom + 8), body - 4, theme.MUTED, anchor="midtop")

    def _peer_lines(self, px: int, width: int) -> list[str]:
        """The other players' connection in words, wrapped: empty while every one is connected."""
        lost = [p for p in self.ctl.peers() if not p.connected]
        lines: list[str] = []
        for peer in lost:
            text = f"lost {peer.name}, reconnecting... {peer.gone_s:.0f} s"
            if peer.next:
                text += f" - {peer.next}"
            lines += wrap(text, px, width)
        return lines[:3]

    def _draw_banner(self, surface, lines: list[str], band: pygame.Rect, px: int) -> None:
        """A red band above the board, within seconds of losing a peer: who, how long, what comes next."""
        pygame.draw.rect(surface, (60, 18, 18), band, border_radius=8)
        textfit.box(band, "banner")
        pygame.draw.rect(surface, theme.BAD, band, width=2, border_radius=8)
        y = band.y + 6
        for line in lines:
            draw_text(surface, line, (band.x + 12, y), px, (255, 200, 190))
            y += px + 2

    def _wait(self) -> tuple[str, float] | None:
        waiting = getattr(self.ctl, "waiting", None)
        return waiting() if waiting is not None else None

    def _countdown_lines(self, app) -> tuple[int, list[str], int] | None:
        """Under "waiting for the game to start": what the session waits for, how long it still waits before it
        leaves by itself (netplay/protocol/waits.py), and the way to leave now; as (size, lines, the band's
        height), None while nothing is waited for. The band takes its own room under the board: drawn over
        the board's foot it hid the Kidd boards' legend and notes (issue 34)."""
        wait = self._wait()
        ending = getattr(self.ctl, "ending", None)
        if wait is None or (ending is not None and ending() is not None):
            return None     # (after a game, the end screen's rematch line counts down)
        what, left = wait
        px = app.px(22)
        width = self.board_rect.w - 40
        text = f"waiting for {what}: {left:.0f} s left, then it is given up (Esc leaves now)"
        size = label_size(text, px, width, bold=True)
        lines = wrap_lines(text, size, width, 2, bold=True)   # (two lines at 12 px, 1024x600)
        pitch = theme.font(size, True).get_linesize()
        return size, lines, max(px * 2, len(lines) * pitch + 12)

    def _draw_countdown(self, surface, countdown: tuple[int, list[str], int]) -> None:
        size, lines, band_h = countdown
        board = self.board_rect
        band = pygame.Rect(board.x, board.bottom + 6, board.w, band_h)
        pygame.draw.rect(surface, theme.PANEL, band, border_radius=8)
        textfit.box(band, "banner")
        pitch = theme.font(size, True).get_linesize()
        for k, line in enumerate(lines):
            draw_text(surface, line, (band.centerx, band.centery + (2 * k - len(lines) + 1) * pitch // 2), size,
                      theme.ACCENT, bold=True, anchor="center")

    def _draw_status(self, surface, side: pygame.Rect, px: int) -> int:
        status = self.ctl.status()
        ending = self.ctl.ending()
        if ending is not None:
            state = self._rematch()
            expired = state is not None and not state.open and state.closed.startswith(EXPIRED)
            status = ending.headline + (" - rematch?" if ending.rematch_open
                                        else " - the rematch offer expired" if expired else "")
        elif not self.legal_key:
            why = self.ctl.unavailable()
            status = why[:1].upper() + why[1:] if why and why != "it is not your turn" else status
        head = wrap_lines(status, px + 2, side.w - 16, 2, bold=True)
        notice = wrap(self.notice, px - 2, side.w - 16) if self.notice else []
        if len(notice) > 2:  # two lines at most: the second one says that more was cut
            notice = [notice[0], fit(" ".join(notice[1:]), px - 2, side.w - 16)]
        # the last move in up to three lines: cut on one line it lost the end of what happened ("walks from
        # field 5 to field 11 (1 s…")
        last = wrap(f"last move: {self._last_words()}", px - 2, side.w - 16) if self.last_move else []
        if len(last) > 3:
            last = [*last[:2], fit(" ".join(last[2:]), px - 2, side.w - 16)]
        heads, lines = self._status_room(ending is None, len(head), len(notice) + len(last))
        if len(notice) + len(last) > lines:
            last = []   # (the notice first: it says why a click did nothing; the log keeps the last move)
        # as high as its lines, which change only between turns: the buttons below never move under the mouse
        box = pygame.Rect(side.x, side.y, side.w, 12 + heads * (px + 4) + px + 12 + lines * px + 4)
        inner = panel(surface, box)
        colour = theme.GOOD if self.legal_key else theme.MUTED
        y = inner.y
        for line in head:
            draw_text(surface, line, (inner.x, y), px + 2, colour, bold=True)
            y += px + 4
        y = inner.y + heads * (px + 4)
        bw = (inner.w - 12) // 3
        legal = set(self.legal_key or ())
        answer = "accept draw" if "accept draw" in legal else "decline draw"
        # (none once the game is over: nothing is left to resign or to offer, and the end screen says what next)
        for i, name in enumerate(("resign", "offer draw", answer) if ending is None else ()):
            caption = name
            if name == "resign" and self.resign_armed:
                caption = "confirm resign"
            button = Button(pygame.Rect(inner.x + i * (bw + 6), y, bw, px + 6), caption, f"action:{name}",
                            enabled=name in legal, selected=name == "resign" and self.resign_armed)
            self.buttons.append(button)
        y += px + 12
        for line in last:
            draw_text(surface, line, (inner.x, y), px - 2, theme.HILITE if self.last_move_ms else theme.MUTED)
            y += px
        for line in notice:
            draw_text(surface, line, (inner.x, y), px - 2, theme.BAD if self.notice_bad else theme.HILITE)
            y += px
        return box.bottom + 8

    def _mine(self) -> bool:
        """Whether the person has a move of the game to choose now (not only resign or a draw)."""
        return any(a not in COMMON_ACTIONS for a in self.legal_key or ())

    def _status_room(self, playing: bool, heads: int, lines: int) -> tuple[int, int]:
        """The lines the status panel keeps for its head and for the last move and the notice: what they need,
        fixed for a turn. Set afresh when the person's turn begins or ends (or the game), then only grown (the
        log below gives way; the choices and buttons it holds stay put), so that a refusal's notice in the
        person's turn never moves a choice under the mouse: two lines are kept for it then (the last move gives
        its lines up to it). It was three lines for them at all times, and two for the head: a pane mostly
        empty above a log of four lines (issue 34)."""
        period = (self._mine(), playing)
        floor = 2 if period[0] else 0
        lines = min(3, max(lines, floor))
        held = self._status_lines
        if held is None or held[0] != period:
            self._status_lines = (period, max(1, heads), lines)
        else:
            self._status_lines = (period, max(held[1], heads), max(held[2], lines))
        return self._status_lines[1], self._status_lines[2]

    def _page_tokens(self) -> tuple:
        return (self.legal_key, tuple(self.builder.tokens))

    def _choice_page(self) -> int:
        """The page of choices shown: back to the first whenever the choices change."""
        tokens, page = self.page
        return page if tokens == self._page_tokens() else 0

    def _actions_height(self, side: pygame.Rect, px: int) -> int:
        """The choices pane's height: what its choices need (one column of them, the chosen tokens' row, or
        the three lines of why there is nothing to choose), at most a third of the side, so that the log and
        the dice below get the rest (issue 34, item 5: at 1280x720 a mostly empty pane left the log 4-5 lines
        and the dice tab no room for the histogram)."""
        most = int(side.h * 0.34)
        choices = self.builder.candidates() if self.legal_key else []
        rows = len(choices) if self.legal_key else 3
        head = 12 + px + 4 + (px + 8 if self.builder.tokens else 0)
        # as high as the choices there are (one row for one: the log gets the rest), the same for the same
        # number of them; the three lines of why there is nothing to choose, at their own pitch
        need = head + max(1, rows) * (px + 8) + 6 if self.legal_key else head + 3 * px + 6
        height = min(most, need)
        if rows > 2 * ((height - head) // (px + 8)):
            # three columns would cut the choices' words ("3. build a city impr…", issue 6): up to two
            # rows more for two columns, where the side has them
            height = max(height, min(int(side.h * 0.42), head + -(-rows // 2) * (px + 8) + 6))
        fits = max(1, (height - head) // (px + 8))   # the rows of one line the pane holds
        cols = 1 if rows <= fits else 2
        captions = [self._caption(i, token) for i, token in enumerate(choices)]
        if rows > 1 and rows <= 2 * fits and not self._fit_in(captions, -(-rows // cols), cols, side.w - 16, px):
            # one line cuts them even at the smallest size that reads (C&K's twelve choices at 1024x600, issue
            # 34): rows two lines high, in two columns, for as many as the side can spare
            height = max(height, min(int(side.h * 0.46), head + -(-rows // 2) * self._tall(px) + 6))
        return height

    def _caption(self, i: int, token: str) -> str:
        """The caption of the `i`th choice shown: its number (a key plays it) and its words."""
        return f"{i + 1}. {self.token_label(token)}" if i < 9 else self.token_label(token)

    @staticmethod
    def _tall(px: int) -> int:
        """The pitch of the choices' rows that are two lines high."""
        return two_lines(theme.min_size()) + 4

    def _fit_in(self, captions: list[str], rows: int, cols: int, width: int, px: int) -> bool:
        """Whether every caption reads whole on one line in `cols` columns of `rows`, `width` wide."""
        _, widths = self._columns(captions, rows, cols, pygame.Rect(0, 0, width, 0), px)
        floor = theme.font(theme.min_size())
        return all(floor.size(t)[0] <= widths[i // rows] - 10 for i, t in enumerate(captions))

    def _draw_actions(self, surface, box: pygame.Rect, px: int) -> int:
        title = "choices"
        if self.legal_key:
            title = "your choice (Enter plays it)" if self._only_action() is not None else "your choices"
        inner = panel(surface, box, title, px)
        tokens = self.builder.tokens
        if tokens:
            bw = max(60, min(90, inner.w // 5))
            draw_text(surface, fit("chosen: " + " ".join(tokens), px, inner.w - 2 * bw - 16), inner.topleft, px,
                      theme.HILITE)
            self.buttons.append(Button(pygame.Rect(inner.right - 2 * bw - 6, inner.y - 2, bw, px + 4), "undo", "undo"))
            self.buttons.append(Button(pygame.Rect(inner.right - bw, inner.y - 2, bw, px + 4), "send", "send",
                                       enabled=self.builder.complete() is not None))
            inner = pygame.Rect(inner.x, inner.y + px + 8, inner.w, inner.h - px - 8)
        choices = self.builder.candidates()
        pitch = px + 8
        rows = max(1, inner.h // pitch)
        cols = 1 if len(choices) <= rows else 2 if len(choices) <= 2 * rows else 3
        if cols < 3 and len(choices) > 1:
            captions = [self._caption(i, token) for i, token in enumerate(choices)]
            tall = self._tall(px)
            tall_rows = max(1, inner.h // tall)
            if not self._fit_in(captions, rows, cols, inner.w, px) and len(choices) <= 2 * tall_rows:
                # a caption that one line cuts gets two (`button_lines`): rows as high as two lines
                pitch, rows = tall, tall_rows
                cols = 1 if len(choices) <= rows else 2
        room = rows * cols
        first, shown = 0, choices
        if len(choices) > room:          # more than fit: pages, the last place turns them
            per = max(1, room - 1)
            pages = -(-len(choices) // per)
            page = self._choice_page() % pages
            first, shown = page * per, choices[page * per:(page + 1) * per]
        places = [*shown, None] if len(choices) > room else shown
        captions = [f"more ({page + 1} of {pages})" if token is None else self._caption(first + i, token)
                    for i, token in enumerate(places)]
        xs, widths = self._columns(captions, rows, cols, inner, px)
        for i, (token, caption) in enumerate(zip(places, captions, strict=True)):
            r, c = i % rows, i // rows
            rect = pygame.Rect(xs[c], inner.y + r * pitch, widths[c], pitch - 4)
            self.buttons.append(Button(rect, caption, "more" if token is None else f"token:{token}"))
        if not choices and not self.legal_key:
            for n, line in enumerate(wrap_lines(self._why_not(), px - 2, inner.w, 3)):
                draw_text(surface, line, (inner.x, inner.y + n * px), px - 2, theme.MUTED)
        return box.bottom

    @staticmethod
    def _columns(captions: list[str], rows: int, cols: int, inner: pygame.Rect, px: int) -> tuple[list[int], list[int]]:
        """The choices' columns (x, width), each as wide as its longest caption needs and the spare room
        shared out: a column of short captions gives room to one of long ones ("build a city improvement"
        beside "build a road"), which equal columns cut (issue 6)."""
        gap = 6
        room = inner.w - (cols - 1) * gap
        need = [max((theme.font(px).size(t)[0] + 14 for t in captions[c * rows:(c + 1) * rows]), default=0)
                for c in range(cols)]
        total = sum(need) or 1
        # too little room even so: in proportion (Button then sets a long caption a size smaller)
        widths = [n + (room - total) // cols for n in need] if total <= room else [room * n // total for n in need]
        xs = [inner.x + sum(widths[:c]) + c * gap for c in range(cols)]
        return xs, widths

    def _draw_log(self, surface, box: pygame.Rect, px: int) -> None:
        """The game in words and its dice (tabs), each chat line among the game's where it came."""
        game = self.ctl.game
        chron = self.live.update(self.ctl) if game is not None else None
        intro = getattr(self.ctl, "intro", "")
        lines = self._chat_words(self.ctl.chat_lines)
        if len(lines) < len(self._chat_at):   # (a controller that started its chat afresh)
            self._chat_at = []
        while len(self._chat_at) < len(lines):
            self._chat_at.append(len(chron.entries) if chron is not None else 0)
        chat = [(at, Item(entry, theme.ACCENT)) for at, entry in zip(self._chat_at, lines, strict=True)]
        self.chronicle.draw(surface, box, chron, game.id if game is not None else None, self.ctl.names, px,
                            first=[Item(intro, theme.ACCENT)] if intro else [], among=chat)

    def _chat_words(self, lines: list[str]) -> list[str]:
        """The chat lines as shown: a line the board reads as table talk (Catan's counter-offer) in its words,
        where the controller keeps each line's seat beside it (`said`, in the same order); else as said."""
        said = getattr(self.ctl, "said", None)
        words = getattr(self.renderer, "talk_words", None)
        if words is None or said is None or len(said) != len(lines):
            return lines
        names = self.ctl.names
        return [words(seat, text, names) or line for line, (seat, text) in zip(lines, said, strict=True)]

    def _draw_end(self, surface, ending, app) -> None:
        big, body, small = app.px(40), app.px(22), app.px(17)
        width = min(640, self.board_rect.w - 40)
        detail = wrap_lines(ending.detail, body, width - 40, 4)
        path = getattr(self.ctl, "replay_path", None)
        saved = wrap(f"replay saved: {path}".replace("/", "/ "), small, width - 40)[:3] if path else []
        state = self._rematch() if hasattr(self.ctl, "rematch") else None
        # (with the seconds the offer is still open, or that it expired: the session's own bound)
        said, caption = rematch_words(state, self.rematch_asked) if state is not None else ("", "")
        again = wrap_lines(said, small + 2, width - 40, 2)
        height = (20 + big + 16 + len(detail) * (body + 4) + len(saved) * small + 16 + len(again) * (small + 4)
                  + (8 if again else 0) + 44)
        box = pygame.Rect(0, 0, width, height)
        box.center = self.board_rect.center
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((10, 14, 20, 235))
        surface.blit(shade, box)
        textfit.box(box, "modal")
        colour = {"good": theme.GOOD, "bad": theme.BAD}.get(ending.mood, theme.ACCENT)
        pygame.draw.rect(surface, colour, box, width=2, border_radius=10)
        y = box.y + 20
        draw_text(surface, fit(ending.headline, big, box.w - 40, bold=True), (box.centerx, y), big, colour, bold=True,
                  anchor="midtop")
        y += big + 16
        for line in detail:
            draw_text(surface, line, (box.centerx, y), body, theme.TEXT, anchor="midtop")
            y += body + 4
        for line in saved:
            draw_text(surface, line.replace("/ ", "/"), (box.centerx, y), small, theme.MUTED, anchor="midtop")
            y += small
        y += 8
        for line in again:   # the rematch as the session has it: who wants one, or why none can come
            draw_text(surface, line, (box.centerx, y), small + 2, theme.HILITE if state.open else theme.MUTED,
                      anchor="midtop")
            y += small + 4
        bw = min(180, (box.w - 60) // 2)
        row = [Button(pygame.Rect(box.centerx + 10, box.bottom - 50, bw, 36), "leave table", "leave")]
        if state is not None:
            row.append(Button(pygame.Rect(box.centerx - 10 - bw, box.bottom - 50, bw, 36), caption, "rematch",
                              enabled=state.open and not (state.asked or self.rematch_asked)))
        for button in row:
            self.buttons.append(button)
            button.draw(surface, pygame.mouse.get_pos(), app.px(20))
