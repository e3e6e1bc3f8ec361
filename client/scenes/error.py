"""What a player sees when a scene fails: the error in words, where it happened, and a way back.

A bug in one scene (a board renderer, the sandbox, the viewer) must never close the whole app with
the lobby and every open game behind it, nor vanish without a word: `App` catches it, logs the
traceback, puts this scene in place of the failed one and, on "back", leaves the way the failed
scene would have left (a networked table closes its session), so the lobby underneath goes on.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from pathlib import Path

import pygame

from client.ui import textfit, theme
from client.ui.widgets import Button, draw_text, fit, wrap, wrap_lines


class ErrorScene:
    def __init__(self, where: str, exc: BaseException, leave: Callable | None = None):
        self.where = where
        self.headline = f"{type(exc).__name__}: {exc}"
        frames = traceback.extract_tb(exc.__traceback__)[-4:]
        self.trace = [f"{Path(f.filename).name}:{f.lineno} in {f.name}" for f in frames]
        self._leave = leave
        self.buttons: list[Button] = []

    def leave(self, app) -> None:
        if self._leave is not None:
            self._leave(app)   # the failed scene's own way out (it pops this scene in its place)
        else:
            app.pop()

    def handle(self, event: pygame.event.Event, app) -> None:
        key = event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER)
        click = (event.type == pygame.MOUSEBUTTONDOWN and event.button == 1
                 and any(b.hit(event.pos) for b in self.buttons))
        if key or click:
            self.leave(app)

    def update(self, app, dt_ms: int) -> None:
        pass

    def draw(self, surface: pygame.Surface, app) -> None:
        w, h = surface.get_size()
        big, body, small = app.px(34), app.px(21), app.px(17)
        width = min(w - 60, body * 44)
        inner = width - 48
        head = wrap_lines(self.headline, body, inner, 5)
        note = wrap("The rest of netplay goes on. The details below and the full traceback in the log "
                    "(stderr) help a bug report.", small, inner)[:3]
        height = 20 + big + 14 + len(head) * (body + 4) + 8 + (len(note) + len(self.trace)) * (small + 2) + body + 60
        box = pygame.Rect(0, 0, width, min(h - 20, height))
        box.center = (w // 2, h // 2)
        pygame.draw.rect(surface, (40, 22, 24), box, border_radius=10)
        textfit.box(box, "modal")
        pygame.draw.rect(surface, theme.BAD, box, width=2, border_radius=10)
        x, y = box.x + 24, box.y + 20
        draw_text(surface, fit(f"Something went wrong in {self.where}", big, inner, bold=True), (x, y), big,
                  theme.BAD, bold=True)
        y += big + 14
        for line in head:
            draw_text(surface, line, (x, y), body, theme.TEXT)
            y += body + 4
        y += 8
        for line in note + self.trace:
            draw_text(surface, fit(line, small, inner), (x, y), small, theme.MUTED)
            y += small + 2
        button = Button(pygame.Rect(box.centerx - 90, box.bottom - body - 34, 180, body + 16), "back", "back")
        self.buttons = [button]
        button.draw(surface, pygame.mouse.get_pos(), body)
