"""The replay viewer: the game's own board renderer in read-only mode over the stepping API of
`replays.stepping.Stepper`, with a timeline (turn ticks; rolls, reveals and disputes marked), VCR
buttons and keys, autoplay, a view switch (revealed / spectator / each seat) and the audit verdict
on top. Nothing here re-implements the audit: the verdict and the positions come from the Stepper."""

from __future__ import annotations

import pygame

from client.games import renderer_for
from client.ui import theme
from client.ui.widgets import Button, draw_text, panel, wrap
from replays.stepping import Stepper

SPEEDS = (250, 500, 1000, 2000)  # autoplay: milliseconds per frame
KEYS = ("left/right: frame   shift: turn   [ ]: round   Home/End   j: next roll/reveal/dispute   "
        "space: autoplay   +/-: speed   v: switch view   Esc: close")


class ViewerScene:
    def __init__(self, stepper: Stepper, title: str = ""):
        self.st = stepper
        self.title = title or f"Replay: {stepper.game.title}"
        self.renderer = renderer_for(stepper.game.id)
        self.buttons: list[Button] = []
        self.timeline = pygame.Rect(0, 0, 10, 10)
        self.playing = False
        self.speed = 1
        self.clock_ms = 0
        self.dragging = False
        self._cache: tuple[int, str, dict] | None = None

    # ------------------------------------------------------------------ helpers
    def _view(self) -> dict:
        key = (self.st.position, self.st.mode)
        if self._cache is None or self._cache[:2] != key:
            view = self.st.view()
            if self.st.mode == "revealed":
                # the board as seat 0 sees it with every secret known; other seats' hands are listed
                state = self.st.state_at(self.st.position, "revealed")
                view = self.st.game.view(state, 0)
            self._cache = (*key, view)
        return self._cache[2]

    def _seek_x(self, x: int) -> None:
        if self.st.count == 0:
            return
        frac = (x - self.timeline.x) / max(1, self.timeline.w)
        self.st.seek(round(frac * self.st.count) - 1)

    def _x_of(self, frame: int) -> int:
        return self.timeline.x + int(self.timeline.w * (frame + 1) / max(1, self.st.count))

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event, app) -> None:
        if event.type == pygame.KEYDOWN:
            shift = event.mod & pygame.KMOD_SHIFT
            moves = {pygame.K_RIGHT: "next-turn" if shift else "next", pygame.K_LEFT: "prev-turn" if shift else "prev",
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
            elif event.key == pygame.K_ESCAPE:
                app.pop()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.buttons:
                if button.hit(event.pos):
                    self._button(button.key, app)
                    return
            if self.timeline.inflate(0, 16).collidepoint(event.pos):
                self.dragging = True
                self._seek_x(event.pos[0])
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.dragging = False
        elif event.type == pygame.MOUSEMOTION and self.dragging:
            self._seek_x(event.pos[0])

    def _button(self, key: str, app) -> None:
        if key == "play":
            self.playing = not self.playing
        elif key == "view":
            self.st.next_mode()
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
            if self.st.position >= self.st.count - 1:
                self.playing = False
                break
            self.st.jump("next")

    # ------------------------------------------------------------------ frame
    def draw(self, surface: pygame.Surface, app) -> None:
        w, h = surface.get_size()
        px = app.px(20)
        self.buttons = []
        verdict = self.st.verdict
        draw_text(surface, self.title, (16, 10), app.px(28), theme.ACCENT, bold=True)
        colour = {"valid": theme.GOOD, "unfinished": theme.ACCENT}.get(verdict.status, theme.BAD)
        badge = f"{verdict.status.upper()}: {verdict.reason}"
        draw_text(surface, badge[:110], (w - 16, 14), px, colour, bold=True, anchor="topright")

        side_w = max(320, int(w * 0.28))
        board = pygame.Rect(12, 48, w - side_w - 36, h - 48 - 110)
        side = pygame.Rect(w - side_w - 12, 48, side_w, board.h)
        pygame.draw.rect(surface, theme.PANEL, board, border_radius=10)
        self.renderer.draw(surface, board, self._view(), set(), [], px)
        self._draw_side(surface, side, px)
        self._draw_timeline(surface, pygame.Rect(12, board.bottom + 10, w - 24, 92), px)
        mouse = pygame.mouse.get_pos()
        for button in self.buttons:
            button.draw(surface, mouse, px)

    def _draw_side(self, surface, box: pygame.Rect, px: int) -> None:
        inner = panel(surface, box, f"view: {self.st.mode}", px)
        y = inner.y
        for line in self.st.seats_text():
            draw_text(surface, line[:60], (inner.x, y), px - 3, theme.MUTED)
            y += px
        if self.st.mode == "revealed":
            draw_text(surface, "every secret revealed; board as seat 0", (inner.x, y), px - 3, theme.MUTED)
            y += px
        y += 6
        lines: list[tuple[str, tuple]] = []
        start = max(-1, self.st.position - 40)
        for n in range(start, self.st.position + 1):
            text = self.st.describe(n)
            colour = theme.BAD if n in self.st.disputes else (theme.HILITE if n == self.st.position else theme.TEXT)
            lines += [(part, colour) for part in wrap(text, px - 3, inner.w)]
        fit = max(1, (inner.bottom - y) // (px - 1))
        for text, colour in lines[-fit:]:
            draw_text(surface, text, (inner.x, y), px - 3, colour)
            y += px - 1

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
        turn = self.st.turn_index(self.st.position)
        status = (f"frame {self.st.position + 1}/{self.st.count}   turn {turn}/{len(self.st.turns)}   "
                  f"{'playing' if self.playing else 'paused'} at {SPEEDS[self.speed]} ms/frame")
        draw_text(surface, status, (inner.x, row + 4), px - 2, theme.TEXT)
        specs = [("|<", "first"), ("<<", "prev-turn"), ("<", "prev"), ("pause" if self.playing else "play", "play"),
                 (">", "next"), (">>", "next-turn"), (">|", "last"), ("next mark", "next-mark"),
                 ("switch view", "view"), ("close", "close")]
        bw = [44, 44, 44, 70, 44, 44, 44, 100, 110, 70]
        x = inner.right - sum(bw) - 6 * len(bw)
        for (label, key), width in zip(specs, bw, strict=True):
            self.buttons.append(Button(pygame.Rect(x, row, width, px + 8), label, key))
            x += width + 6
        draw_text(surface, KEYS, (inner.x, row + px + 14), px - 5, theme.MUTED)
