"""The game table: the board on the left, and on the right the status, the actions to choose from
(the half-built action with undo), the move log and the chat. Clicks on the board become tokens
through the game's renderer; nothing here knows a rule."""

from __future__ import annotations

import pygame

from client.actions import ActionBuilder
from client.controller import Controller, obliged_to_rematch
from client.games import renderer_for
from client.ui import theme
from client.ui.widgets import Button, TextInput, draw_text, fit, panel, wrap
from engines.core import COMMON_ACTIONS


class TableScene:
    def __init__(self, controller: Controller, title: str = "", on_leave=None):
        self.ctl = controller
        self._title = title
        self._renderer = None
        self._renderer_game = None
        self.builder = ActionBuilder([])
        self.legal_key: tuple[str, ...] | None = ()
        self.buttons: list[Button] = []
        self.chat_input = TextInput(placeholder="chat: type and press Enter")
        self.board_rect = pygame.Rect(0, 0, 10, 10)
        self.flash_ms = 0
        self.log_seen = 0
        self.error = ""
        self.on_leave = on_leave
        self.rematch_asked = False
        self.now_ms = 0

    # ------------------------------------------------------------------ model
    @property
    def title(self) -> str:
        game = self.ctl.game
        return self._title or (game.title if game is not None else "connecting...")

    @property
    def renderer(self):
        """The game's renderer, made once the game is known (a joiner learns it from the host) and
        again if a rematch brings another game."""
        game = self.ctl.game
        if game is not None and game.id != self._renderer_game:
            self._renderer, self._renderer_game = renderer_for(game.id), game.id
        return self._renderer

    def _refresh_legal(self) -> None:
        legal = tuple(self.ctl.legal())
        if legal != self.legal_key:
            self.legal_key = legal
            self.builder = ActionBuilder([a for a in legal if a not in COMMON_ACTIONS])

    def _send(self, action: str) -> None:
        try:
            self.ctl.submit(action)
            self.error = ""
        except Exception as exc:  # a refused action is shown, never a traceback
            self.error = str(exc)
        self.builder.clear()
        self.legal_key = None  # forces a new builder even when nothing is legal now (not our turn)
        self._refresh_legal()

    def _after_token(self) -> None:
        done = self.builder.finished()
        if done is not None:
            self._send(done)

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event, app) -> None:
        said = self.chat_input.handle(event)
        if said:
            self.ctl.chat(said)
        if event.type in (pygame.KEYDOWN, pygame.TEXTINPUT) and self.chat_input.focused:
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._click(event.pos, app)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self.builder.undo()
        elif event.type == pygame.KEYDOWN:
            self._key(event, app)

    def _click(self, pos: tuple[int, int], app) -> None:
        for button in self.buttons:
            if button.hit(pos):
                self._button(button.key, app)
                return
        view = self.ctl.view()
        if self.board_rect.collidepoint(pos) and self.renderer is not None and view:
            token = self.renderer.hit(self.board_rect, view, pos)
            if token is not None:
                # one click may give several tokens (a cannon slot is its zone and its side: "5 in")
                saved = list(self.builder.tokens)
                if all(self.builder.push(part) for part in token.split(" ")):
                    self._after_token()
                else:
                    self.builder.tokens[:] = saved
                    self.error = f"{token}: not a legal choice now"

    def _button(self, key: str, app) -> None:
        kind, _, value = key.partition(":")
        if kind == "token":
            self.builder.push(value)
            self._after_token()
        elif kind == "action":
            self._send(value)
        elif kind == "undo":
            self.builder.undo()
        elif kind == "send":
            done = self.builder.complete()
            if done:
                self._send(done)
        elif kind == "rematch":
            self.rematch_asked = True
            self.ctl.rematch(True)
        elif kind == "leave":
            if self.on_leave:
                self.on_leave(app)
            else:
                app.pop()

    def _key(self, event: pygame.event.Event, app) -> None:
        if event.key == pygame.K_BACKSPACE:
            self.builder.undo()
        elif event.key == pygame.K_ESCAPE:
            self.builder.clear()
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            done = self.builder.complete()
            if done:
                self._send(done)
        elif pygame.K_1 <= event.key <= pygame.K_9:
            index = event.key - pygame.K_1
            choices = self.builder.candidates()
            if index < len(choices):
                self.builder.push(choices[index])
                self._after_token()

    # ------------------------------------------------------------------ frame
    def update(self, app, dt_ms: int) -> None:
        self.now_ms += dt_ms
        self.ctl.poll(self.now_ms)
        self._refresh_legal()
        if len(self.ctl.log) != self.log_seen:
            self.log_seen = len(self.ctl.log)
            self.flash_ms = 450
        self.flash_ms = max(0, self.flash_ms - dt_ms)
        if self.rematch_asked and self.ctl.result() is None:
            self.rematch_asked = False  # the rematch has begun
        elif (not self.rematch_asked and self.ctl.result() is not None and hasattr(self.ctl, "rematch")
              and obliged_to_rematch(self.ctl.view(), self.ctl.seat)):
            self.rematch_asked = True  # the winner of a surrendered game must accept (the view says so)
            self.ctl.rematch(True)

    def draw(self, surface: pygame.Surface, app) -> None:
        w, h = surface.get_size()
        px = app.px(20)
        side_w = max(330, int(w * 0.3))
        self.board_rect = pygame.Rect(12, 52, w - side_w - 36, h - 64)
        side = pygame.Rect(w - side_w - 12, 52, side_w, h - 64)
        self.buttons = []
        result = self.ctl.result()

        draw_text(surface, self.title, (16, 12), app.px(30), theme.ACCENT, bold=True)
        seat_txt = f"you are seat {self.ctl.seat} ({theme.SEAT_NAMES[self.ctl.seat % 4]})" \
            if self.ctl.seat is not None else "spectator"
        draw_text(surface, seat_txt, (w - 16, 18), px, theme.seat_colour(self.ctl.seat or 0), anchor="topright")

        pygame.draw.rect(surface, theme.PANEL, self.board_rect, border_radius=10)
        highlights = set(self.builder.clickable())
        renderer = self.renderer
        view = self.ctl.view()
        if renderer is None or not view:  # a joiner before the host's header, a host before the joiners
            draw_text(surface, "waiting for the game to start...", self.board_rect.center, app.px(28), theme.MUTED,
                      anchor="center")
        else:
            renderer.draw(surface, self.board_rect, view, highlights, list(self.builder.tokens), px)
        if self.flash_ms:
            width = 1 + 3 * self.flash_ms // 450  # a fading frame marks the move just made
            pygame.draw.rect(surface, theme.HILITE, self.board_rect, width=width, border_radius=10)

        y = self._draw_status(surface, side, px, result)
        y = self._draw_actions(surface, pygame.Rect(side.x, y, side.w, int(side.h * 0.42)), px)
        log_h = side.bottom - y - px * 2 - 24
        self._draw_log(surface, pygame.Rect(side.x, y + 6, side.w, log_h), px)
        self.chat_input.rect = pygame.Rect(side.x, side.bottom - px - 14, side.w, px + 14)
        self.chat_input.draw(surface, px)
        mouse = pygame.mouse.get_pos()
        for button in self.buttons:
            button.draw(surface, mouse, px)
        if result is not None:
            self._draw_end(surface, result, app)

    def _draw_status(self, surface, side: pygame.Rect, px: int, result) -> int:
        box = pygame.Rect(side.x, side.y, side.w, px * 3 + 20)
        inner = panel(surface, box)
        status = self.ctl.status()
        colour = theme.GOOD if status.startswith("your") else theme.MUTED
        draw_text(surface, fit(status, px + 2, inner.w, bold=True), inner.topleft, px + 2, colour, bold=True)
        if self.error:
            draw_text(surface, fit(self.error, px - 2, inner.w), (inner.x, inner.y + px + 6), px - 2, theme.BAD)
        bw = (inner.w - 12) // 3
        row = inner.y + 2 * px + 2
        legal = set(self.legal_key)
        for i, name in enumerate(("resign", "offer draw", "accept draw" if "accept draw" in legal else "decline draw")):
            self.buttons.append(Button(pygame.Rect(inner.x + i * (bw + 6), row, bw, px + 6), name, f"action:{name}",
                                       enabled=name in legal))
        return box.bottom + 8

    def _draw_actions(self, surface, box: pygame.Rect, px: int) -> int:
        inner = panel(surface, box, "your choices" if self.legal_key else "choices", px)
        tokens = self.builder.tokens
        if tokens:
            draw_text(surface, "building: " + " ".join(tokens), inner.topleft, px, theme.HILITE)
            bw = 80
            self.buttons.append(Button(pygame.Rect(inner.right - 2 * bw - 6, inner.y - 2, bw, px + 4), "undo", "undo"))
            self.buttons.append(Button(pygame.Rect(inner.right - bw, inner.y - 2, bw, px + 4), "send", "send",
                                       enabled=self.builder.complete() is not None))
            inner = pygame.Rect(inner.x, inner.y + px + 8, inner.w, inner.h - px - 8)
        choices = self.builder.candidates()
        rows = max(1, inner.h // (px + 8))
        cols = 1 if len(choices) <= rows else 2 if len(choices) <= 2 * rows else 3
        bw = (inner.w - (cols - 1) * 6) // cols
        for i, token in enumerate(choices[: rows * cols]):
            r, c = i % rows, i // rows
            rect = pygame.Rect(inner.x + c * (bw + 6), inner.y + r * (px + 8), bw, px + 4)
            label = f"{i + 1}. {token}" if i < 9 else token
            self.buttons.append(Button(rect, label, f"token:{token}"))
        if not choices and not self.legal_key:
            draw_text(surface, "nothing to choose now", inner.topleft, px, theme.MUTED)
        return box.bottom

    def _draw_log(self, surface, box: pygame.Rect, px: int) -> None:
        inner = panel(surface, box, "moves and chat", px)
        lines: list[tuple[str, tuple]] = []
        for entry in self.ctl.log[-200:]:
            for part in wrap(entry, px - 2, inner.w):
                lines.append((part, theme.TEXT))
        for entry in self.ctl.chat_lines[-50:]:
            for part in wrap(entry, px - 2, inner.w):
                lines.append((part, theme.ACCENT))
        fit = max(1, inner.h // (px + 1))
        y = inner.y
        for text, colour in lines[-fit:]:
            draw_text(surface, text, (inner.x, y), px - 2, colour)
            y += px + 1

    def _draw_end(self, surface, result, app) -> None:
        w, h = surface.get_size()
        box = pygame.Rect(0, 0, min(640, w - 80), 220)
        box.center = (self.board_rect.centerx, self.board_rect.centery)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((10, 14, 20, 230))
        surface.blit(shade, box)
        pygame.draw.rect(surface, theme.ACCENT, box, width=2, border_radius=10)
        if not result.winners:
            head = "Draw"
        elif self.ctl.seat in result.winners:
            head = "You won!"
        else:
            head = "You lost" if self.ctl.seat is not None else f"Seat {result.winners[0]} won"
        draw_text(surface, head, (box.centerx, box.y + 20), app.px(40), theme.ACCENT, bold=True, anchor="midtop")
        draw_text(surface, f"{result.reason}, scores {list(result.scores)}", (box.centerx, box.y + 80), app.px(22),
                  theme.TEXT, anchor="midtop")
        path = getattr(self.ctl, "replay_path", None)
        if path:
            y = box.y + 112
            for line in wrap(f"replay saved: {path}".replace("/", "/ "), app.px(17), box.w - 40)[:3]:
                draw_text(surface, line.replace("/ ", "/"), (box.centerx, y), app.px(17), theme.MUTED, anchor="midtop")
                y += app.px(17)
        row = [Button(pygame.Rect(box.centerx + 10, box.bottom - 50, 180, 36), "leave table", "leave")]
        if hasattr(self.ctl, "rematch"):
            label = "rematch asked..." if self.rematch_asked else "rematch"
            row.append(Button(pygame.Rect(box.centerx - 190, box.bottom - 50, 180, 36), label, "rematch",
                              enabled=not self.rematch_asked))
        for button in row:
            self.buttons.append(button)
            button.draw(surface, pygame.mouse.get_pos(), app.px(20))
