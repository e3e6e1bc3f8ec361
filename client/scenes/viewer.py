"""The replay viewer: the game's own board renderer in read-only mode over the stepping API of
`replays.stepping.Stepper`, with a timeline (turn ticks; rolls, reveals and disputes marked), VCR
buttons and keys, autoplay, a view switch (revealed / spectator / each seat) and the audit verdict
on top. Nothing here re-implements the audit: the verdict and the positions come from the Stepper.

As on lichess: the move list is the game's own words (protocol frames on a toggle), a click on a
line jumps there, the current move is outlined and named on the board, the last position says who
won and why, the players are named as in the replay's header, and from any position of a replay
whose secrets are all revealed, "play on from here" opens a sandbox table against bots.
"""

from __future__ import annotations

import pygame

from client.ending import line as ending_line
from client.games import renderer_for, seat_style
from client.names import seat_names
from client.replaytext import replay_ending
from client.story.record import Chronicle, from_stepper
from client.ui import textfit, theme
from client.ui.chronicle import ChroniclePanel
from client.ui.logview import Item
from client.ui.widgets import Button, draw_text, fit, label_size, panel, two_lines, wrap, wrap_lines
from replays import sandbox
from replays.stepping import Stepper

SPEEDS = (250, 500, 1000, 2000)  # autoplay: milliseconds per step
KEYS = ("left/right: move   shift: frame   up/down: turn   [ ]: round   Home/End   j: next roll/reveal/dispute   "
        "space: autoplay   +/-: speed   v: view   f: frames/moves   Esc: close")


def _key_lines(px: int, width: int) -> list[str]:
    """The keys in lines `width` wide, each key and what it does kept together on one line."""
    lines: list[str] = []
    for group in KEYS.split("   "):
        trial = f"{lines[-1]}   {group}" if lines else group
        if lines and theme.font(px).size(trial)[0] <= width:
            lines[-1] = trial
        else:
            lines.append(group)
    return lines


class ViewerScene:
    def __init__(self, stepper: Stepper, title: str = "", sandbox_bot: str = "smart", bot_delay_ms: int = 600):
        self.st = stepper
        self.names = names = seat_names(stepper.header.seats)   # told apart when two look alike (client.names)
        self.title = title or f"Replay: {stepper.game.title} - {' vs '.join(names)}"
        self.renderer = renderer_for(stepper.game.id)
        self.buttons: list[Button] = []
        self.rows: list[tuple[pygame.Rect, int]] = []  # clickable lines of the move list: (rect, position)
        self.timeline = pygame.Rect(0, 0, 10, 10)
        self.board_rect = pygame.Rect(0, 0, 10, 10)  # where the board was drawn last
        self.playing = False
        self.speed = 1
        self.clock_ms = 0
        self.dragging = False
        self.show_frames = False
        self.perspective = 0  # the seat whose side of the board is in front in the revealed view
        self.sandbox_bot = sandbox_bot
        self.bot_delay_ms = bot_delay_ms
        self.notice = ""
        #: what a live table (client/scenes/watching.py) adds: a line under the title in place of the players
        #: (text, colour), beside each seat's name a note (a clock: text, lit), and lines under the seats (chat)
        self.subtitle: tuple[str, tuple[int, int, int]] | None = None
        self.seat_notes: dict[int, tuple[str, bool]] = {}
        self.side_lines: list[str] = []
        self._cache: tuple[int, str, int, dict] | None = None
        self.chronicle = ChroniclePanel()          # the log in words and the dice (client/ui/chronicle.py)
        self._chronicles: dict[str, Chronicle] = {}
        self._rooms: dict[tuple[str, int, int], int] = {}   # the caption's height by view and width

    # ------------------------------------------------------------------ helpers
    def _view(self) -> dict:
        key = (self.st.position, self.st.mode, self.perspective)
        if self._cache is None or self._cache[:3] != key:
            view = self.st.merged_view(seat=self.perspective)
            view = dict(view, _names=self.names, _me=None)
            self._cache = (*key, view)
        return self._cache[3]

    def chronicle_of(self, mode: str | None = None) -> Chronicle:
        """The whole replay in words and dice, as `mode` (default: the current view) knew it."""
        mode = mode or self.st.mode
        if mode not in self._chronicles:
            self._chronicles[mode] = from_stepper(self.st, mode)
        return self._chronicles[mode]

    def _seek_x(self, x: int) -> None:
        if self.st.count == 0:
            return
        frac = (x - self.timeline.x) / max(1, self.timeline.w)
        self.st.seek_number(round(frac * self.st.count))

    def _x_of(self, position: int) -> int:
        return self.timeline.x + int(self.timeline.w * (position + 1) / max(1, self.st.count))

    def can_fork(self) -> tuple[bool, str]:
        """Whether "play on from here" is possible, and why not."""
        reason = sandbox.why_not(self.st, self.st.position)
        return not reason, reason

    def fork(self, app) -> None:
        """A sandbox table from this position: you at the seat to move (or the perspective seat), bots
        at the others, each seat knowing what it knew there and the decks as the replay left them."""
        from client.controller import LocalController
        from client.scenes.table import TableScene

        try:
            fork = sandbox.fork_at(self.st, self.st.position, seat=self.perspective)
        except ValueError as exc:
            self.notice = str(exc)
            return
        ctl = LocalController.from_fork(fork, fork.seat, [self.sandbox_bot], seed=fork.number + 1,
                                        bot_delay_ms=self.bot_delay_ms)
        app.push(TableScene(ctl, f"Sandbox: {fork.game.title} from frame {fork.number}"))

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event, app) -> None:
        if event.type == pygame.KEYDOWN:
            shift = event.mod & pygame.KMOD_SHIFT
            moves = {pygame.K_RIGHT: "next" if shift else "next-move", pygame.K_LEFT: "prev" if shift else "prev-move",
                     pygame.K_DOWN: "next-turn", pygame.K_UP: "prev-turn",
                     pygame.K_RIGHTBRACKET: "next-round", pygame.K_LEFTBRACKET: "prev-round",
                     pygame.K_HOME: "first", pygame.K_END: "last", pygame.K_j: "next-mark"}
            if event.key in moves:
                self.st.jump(moves[event.key])
            elif event.key == pygame.K_SPACE:
                self.playing = not self.playing
            elif event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                self.speed = max(0, self.speed - 1)
            elif event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                self.speed = min(len(SPEEDS) - 1, self.speed + 1)
            elif event.key == pygame.K_v:
                self.st.next_mode()
            elif event.key == pygame.K_f:
                self.show_frames = not self.show_frames
            elif event.key == pygame.K_ESCAPE:
                app.pop()
        if not self.show_frames:
            asked = self.chronicle.handle(event)
            if asked is not None:
                if asked[0] == "seek":
                    self.st.seek(asked[1])
                elif asked[0] == "rules":
                    from client.scenes.rules import open_rules

                    open_rules(app, self.st.game.id)
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.buttons:
                if button.hit(event.pos):
                    self._button(button.key, app)
                    return
            for rect, position in self.rows:
                if rect.collidepoint(event.pos):
                    self.st.seek(position)
                    return
            if self.timeline.inflate(0, 16).collidepoint(event.pos):
                self.dragging = True
                self._seek_x(event.pos[0])
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.dragging = False
        elif event.type == pygame.MOUSEMOTION and self.dragging:
            self._seek_x(event.pos[0])

    def _button(self, key: str, app) -> None:
        self.notice = ""
        if key == "play":
            self.playing = not self.playing
        elif key == "view":
            self.st.next_mode()
        elif key == "side":
            self.perspective = (self.perspective + 1) % self.st.header.players
        elif key == "frames":
            self.show_frames = not self.show_frames
        elif key == "fork":
            self.fork(app)
        elif key == "close":
            app.pop()
        else:
            self.st.jump(key)

    def update(self, app, dt_ms: int) -> None:
        if not self.playing:
            return
        self.clock_ms += dt_ms
        while self.clock_ms >= SPEEDS[self.speed]:
            self.clock_ms -= SPEEDS[self.speed]
            before = self.st.position
            self.st.jump("next" if self.show_frames else "next-move")
            if self.st.position == before:
                self.playing = False
                break

    def frame_key(self, app) -> tuple:
        """What changes the picture besides input (client.app draws only then): autoplay moving on."""
        return (self.st.position, self.st.mode, self.playing, self.notice, self.subtitle,
                tuple(sorted(self.seat_notes.items())), tuple(self.side_lines))

    # ------------------------------------------------------------------ frame
    def draw(self, surface: pygame.Surface, app) -> None:
        w, h = surface.get_size()
        px = app.px(20)
        self.buttons = []
        self.rows = []
        verdict = self.st.verdict
        colour = {"valid": theme.GOOD, "unfinished": theme.ACCENT}.get(verdict.status, theme.BAD)
        badge_px = px - 2
        # the verdict whole, in two lines where one is not enough (issue 6: "…result co-signed …")
        badge = wrap(f"{verdict.status.upper()}: {verdict.reason}", badge_px, w // 2 - 20, bold=True)
        if len(badge) > 2:
            badge = [badge[0], fit(" ".join(badge[1:]), badge_px, w // 2 - 20, bold=True)]
        step = theme.font(badge_px, True).get_linesize()
        top_y = 14 if len(badge) == 1 else max(4, 14 - step // 2)
        rects = [draw_text(surface, line, (w - 16, top_y + n * step), badge_px, colour, bold=True, anchor="topright")
                 for n, line in enumerate(badge)]
        badge_rect = rects[0].unionall(rects[1:])
        title_px = app.px(28)
        top = title_px + 18
        self._draw_title(surface, title_px, badge_rect.x - 36, top)

        side_w = max(300, int(w * 0.28))
        keys_px = max(theme.min_size(), px - 5)   # the keys under the timeline, in as many lines as they need
        foot = 2 * px + 64 + (len(_key_lines(keys_px, w - 48)) - 1) * (keys_px + 2)
        caption_w = w - side_w - 36
        caption = pygame.Rect(12, top, caption_w, self._caption_room(px, caption_w - 24) + 10)
        board = self.board_rect = pygame.Rect(12, caption.bottom + 6, caption.w, h - caption.bottom - 6 - foot - 10)
        side = pygame.Rect(w - side_w - 12, top, side_w, board.bottom - top)
        pygame.draw.rect(surface, theme.PANEL, board, border_radius=10)
        view = self._view()
        self.renderer.draw(surface, board, view, set(), [], px)
        moves, done = self.st.moves(), self.st.moves_done()
        last = moves[done - 1] if done else None
        if last is not None and last.kind == "play" and not last.hidden and hasattr(self.renderer, "mark"):
            self.renderer.mark(surface, board, view, str(last.action), last.seat)  # the move that led here
        self._draw_caption(surface, caption, px)
        self._draw_side(surface, side, px)
        self._draw_timeline(surface, pygame.Rect(12, board.bottom + 10, w - 24, foot), px)
        mouse = pygame.mouse.get_pos()
        for button in self.buttons:
            button.draw(surface, mouse, px - 2)

    def _draw_title(self, surface, title_px: int, width: int, bottom: int) -> None:
        """The title whole: on one line where it fits, else the game on the first line and the players under it,
        a size smaller where need be; where not even that fits, the game alone (the side panel names every
        seat): three or four names cut it to "… vs rand…" (issue 34). With a `subtitle` (a live table's "watching
        live: ..."), the title on the first line and the subtitle under it, never over each other."""
        if self.subtitle is not None:
            text, colour = self.subtitle
            size = label_size(self.title, title_px, width, bold=True)
            head = draw_text(surface, fit(self.title, size, width, bold=True), (16, 4), size, theme.ACCENT, bold=True)
            small = max(theme.min_size(), min(title_px * 2 // 3, bottom - 2 - head.bottom))
            draw_text(surface, fit(text, small, width), (16, head.bottom), small, colour)
            return
        if theme.font(title_px, True).size(self.title)[0] <= width:
            draw_text(surface, self.title, (16, 10), title_px, theme.ACCENT, bold=True)
            return
        game = f"Replay: {self.st.game.title}"
        players = " vs ".join(self.names)
        size = label_size(game, title_px, width, bold=True)
        head = draw_text(surface, fit(game, size, width, bold=True), (16, 4), size, theme.ACCENT, bold=True)
        small = label_size(players, max(theme.min_size(), title_px * 2 // 3), width)
        if theme.font(small).size(players)[0] <= width and head.bottom + theme.height(small) <= bottom - 2:
            draw_text(surface, players, (16, head.bottom), small, theme.ACCENT)

    def _caption_words(self) -> tuple[str, tuple[int, int, int]]:
        """Above the board: what led here, in the log's words, or at the last position who won and why."""
        done = self.st.moves_done()
        ending = replay_ending(self.st) if self.st.position == self.st.count - 1 else None
        position = self.st.position
        entries = [e for e in self.chronicle_of().entries if e.position <= position]
        here = [e.text for e in entries if e.position == position] or [e.text for e in entries[-1:]]
        if ending is not None:
            return f"the end: {ending_line(ending)}", theme.ACCENT
        if done and here:
            return f"move {done}: " + "; ".join(here), theme.HILITE if entries[-1].position == position else theme.MUTED
        return "the start: the game is set up", theme.MUTED

    def _caption_room(self, px: int, width: int) -> int:
        """The caption's height, the same at every position of the replay in this view, so that the board does
        not jump as the replay steps on: two lines (the last position's "who won, with the score" needs them at
        1024x600, issue 34: "…random-1 3, s…"), or what its longest account needs even at 12 px (a barbarian
        attack's). Worked out once for a view and a width, from the few longest accounts."""
        key = (self.st.mode, px, width)
        if key not in self._rooms:
            groups: dict[int, list[str]] = {}
            for entry in self.chronicle_of().entries:
                groups.setdefault(entry.position, []).append(entry.text)
            prefix = f"move {len(self.st.moves())}: "
            texts = [prefix + "; ".join(here) for here in groups.values()]
            ending = replay_ending(self.st)
            if ending is not None:
                texts.append(f"the end: {ending_line(ending)}")
            font = theme.font(theme.min_size(), True)
            longest = sorted(texts, key=lambda t: font.size(t)[0], reverse=True)[:3]
            heights = [len(lines) * theme.font(size, True).get_linesize()
                       for size, lines in (self._caption_lines(t, px, width) for t in longest)]
            self._rooms[key] = max([2 * theme.font(px, True).get_linesize(), *heights])
        return self._rooms[key]

    @staticmethod
    def _caption_lines(text: str, px: int, width: int) -> tuple[int, list[str]]:
        """The caption whole in two lines, a size smaller where need be; in more where even the smallest size
        that reads needs them (a barbarian attack's whole account, four at most)."""
        size = px
        while size > theme.min_size() and len(wrap(text, size, width, bold=True)) > 2:
            size -= 1    # two lines a size smaller rather than a cut
        return size, wrap_lines(text, size, width, 4, bold=True)

    def _draw_caption(self, surface, band: pygame.Rect, px: int) -> None:
        text, colour = self._caption_words()
        pygame.draw.rect(surface, (14, 20, 28), band, border_radius=8)
        textfit.box(band, "caption")
        pygame.draw.rect(surface, colour, band, width=2, border_radius=8)
        size, lines = self._caption_lines(text, px, band.w - 24)
        pitch = theme.font(size, True).get_linesize()
        for k, line in enumerate(lines):
            draw_text(surface, line, (band.x + 12, band.centery + (2 * k - len(lines) + 1) * pitch // 2), size,
                      colour, bold=True, anchor="midleft")

    def _draw_side(self, surface, box: pygame.Rect, px: int) -> None:
        small = px - 3
        mode = self.st.mode
        what = {"revealed": "every secret revealed", "spectator": "public knowledge only"}.get(
            mode, f"as {self.names[int(mode[5:])]} saw it" if mode.startswith("seat ") else mode)
        inner = panel(surface, box, fit(f"view: {mode} - {what}", px, box.w - 16), px)
        y = inner.y
        for s, name in enumerate(self.names):
            room = inner.w
            note = self.seat_notes.get(s)
            if note is not None and note[0]:
                lit = note[1]
                mark = draw_text(surface, note[0], (inner.right, y), small, theme.ACCENT if lit else theme.MUTED,
                                 bold=lit, anchor="topright")
                room = max(small, mark.x - inner.x - 8)
            draw_text(surface, fit(f"seat {s}: {name}", small, room), (inner.x, y), small,
                      seat_style(self.st.game.id, s)[0])
            y += small + 2
        for line in self.side_lines:
            draw_text(surface, fit(line, small, inner.w), (inner.x, y), small, theme.TEXT)
            y += small + 2
        if self.notice:
            for line in wrap_lines(self.notice, small, inner.w, 2):
                draw_text(surface, line, (inner.x, y), small, theme.BAD)
                y += small + 2
        y += 4
        bw = (inner.w - 12) // 3
        ok, _ = self.can_fork()
        specs = [("moves" if self.show_frames else "frames", "frames", True),
                 ("switch side", "side", mode == "revealed"),
                 ("play from here", "fork", ok)]
        # two lines high where a caption is too long for a third of the side at 12 px ("play from h…" at 1024x600)
        floor = theme.font(theme.min_size())
        bh = px + 4 if all(floor.size(c)[0] <= bw - 10 for c, _, _ in specs) else max(px + 4, two_lines(px - 2))
        for i, (caption, key, enabled) in enumerate(specs):
            self.buttons.append(Button(pygame.Rect(inner.x + i * (bw + 6), y, bw, bh), caption, key,
                                       enabled=enabled))
        y += bh + 8
        list_box = pygame.Rect(inner.x, y, inner.w, inner.bottom - y)
        if self.show_frames:
            self._frame_list(surface, list_box, small)
        else:
            ending = replay_ending(self.st)
            close = [Item(ending_line(ending), theme.ACCENT, self.st.count - 1)] if ending is not None else []
            self.chronicle.draw(surface, list_box.inflate(16, 8), self.chronicle_of(), self.st.game.id,
                                self.names, px, position=self.st.position, extra=close)

    def _frame_list(self, surface, box: pygame.Rect, px: int) -> None:
        """The protocol frames (the toggle), numbered as everywhere: #k moved the game to frame k. Each frame
        whole, in as many lines as it needs (two or three at 1024x600: "#603 seat 2 shares its next random
        value; …" was cut, issue 34), the current one in the middle where the list allows."""
        pitch = px + 3
        pos = self.st.position
        cache: dict[int, list[str]] = {}

        def lines(n: int) -> list[str]:
            if n not in cache:
                cache[n] = wrap_lines(self.st.describe(n), px, box.w - 20, 4)   # (12 px for the indent)
            return cache[n]

        first, last, used = pos, pos, len(lines(pos)) * pitch   # the frames shown: first..last
        above = True
        while True:   # outwards from the current frame: one above, one below, while they fit
            grown = False
            for side in ((True, False) if above else (False, True)):
                n = first - 1 if side else last + 1
                if -1 <= n < self.st.count and used + len(lines(n)) * pitch <= box.h:
                    used += len(lines(n)) * pitch
                    first, last = (n, last) if side else (first, n)
                    grown = True
            if not grown:
                break
        y = box.y
        for n in range(first, last + 1):
            current = n == pos
            rect = pygame.Rect(box.x, y, box.w, len(lines(n)) * pitch)
            if current:
                pygame.draw.rect(surface, theme.BUTTON, rect, border_radius=4)
            colour = theme.BAD if n in self.st.disputes else (theme.HILITE if current else theme.TEXT)
            for k, line in enumerate(lines(n)):
                draw_text(surface, line, (box.x + 4 + (12 if k else 0), y + 1 + k * pitch), px, colour)
            self.rows.append((rect, n))
            y += rect.h

    def _draw_timeline(self, surface, box: pygame.Rect, px: int) -> None:
        inner = panel(surface, box)
        self.timeline = pygame.Rect(inner.x + 4, inner.y + 8, inner.w - 8, 10)
        pygame.draw.rect(surface, theme.BUTTON_DOWN, self.timeline, border_radius=4)
        for frame in self.st.turns:
            x = self._x_of(frame)
            pygame.draw.line(surface, theme.PANEL_EDGE, (x, self.timeline.y - 3), (x, self.timeline.bottom + 3))
        for marks, colour, dy in ((self.st.rolls, (90, 150, 230), -8), (self.st.reveals, theme.GOOD, -8),
                                  (self.st.disputes, theme.BAD, -12)):
            for frame in marks:
                x = self._x_of(frame)
                pygame.draw.circle(surface, colour, (x, self.timeline.y + dy + 4), 3 if dy == -8 else 6)
        x = self._x_of(self.st.position)
        done = pygame.Rect(self.timeline.x, self.timeline.y, x - self.timeline.x, self.timeline.h)
        pygame.draw.rect(surface, theme.ACCENT, done, border_radius=4)
        pygame.draw.circle(surface, theme.HILITE, (x, self.timeline.centery), 8)

        row = self.timeline.bottom + 12
        small = px - 2
        font = theme.font(small)
        # each button as wide as its caption at this size (fixed widths cut "switch view" at full HD)
        specs = [(label, key, max(font.size(label)[0], font.size(wide)[0]) + small + 12)
                 for label, key, wide in (("|<", "first", "|<"), ("<", "prev-move", "<"),
                                          ("pause" if self.playing else "play", "play", "pause"),
                                          (">", "next-move", ">"), (">|", "last", ">|"),
                                          ("next mark", "next-mark", "next mark"),
                                          ("switch view", "view", "switch view"), ("close", "close", "close"))]
        total = sum(width for _, _, width in specs) + 6 * len(specs)
        x = inner.right - total
        for label, key, width in specs:
            self.buttons.append(Button(pygame.Rect(x, row, width, px + 6), label, key))
            x += width + 6
        status = (f"frame {self.st.number()}/{self.st.count}   move {self.st.moves_done()}/{len(self.st.moves())}   "
                  f"{'playing' if self.playing else 'paused'}, {SPEEDS[self.speed]} ms a step")
        draw_text(surface, fit(status, small, inner.right - total - inner.x - 12), (inner.x, row + 4), small,
                  theme.TEXT)
        keys_px = max(theme.min_size(), px - 5)
        for n, line in enumerate(_key_lines(keys_px, inner.w)):
            draw_text(surface, line, (inner.x, row + px + 14 + n * (keys_px + 2)), keys_px, theme.MUTED)
