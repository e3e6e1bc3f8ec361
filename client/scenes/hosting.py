"""The screen between hosting a game and its start: the address to give a friend (as they type it in
their lobby or terminal), the game's terms, who has taken a seat so far, and a way back (cancel, or
Esc) that closes the session and the LAN advert. Once every seat is taken the table replaces it."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from client.ui import textfit, theme
from client.ui.widgets import Button, draw_text, fit, panel, wrap_lines


class HostingScene:
    def __init__(self, controller, title: str, addresses: list[str], host_name: str, note: str,
                 on_start: Callable, on_cancel: Callable):
        self.ctl = controller
        self.title = title
        self.addresses = addresses      # "192.168.1.10:41234/abcd-ef01-2345-6789", this machine's own
        self.host_name = host_name
        self.note = note                # why the LAN advert failed ("" when it did not)
        self.on_start = on_start
        self.on_cancel = on_cancel
        self.buttons: list[Button] = []
        self.started = False

    def handle(self, event: pygame.event.Event, app) -> None:
        escape = event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
        clicked = event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and any(
            b.key == "cancel" and b.hit(event.pos) for b in self.buttons)
        if escape or clicked:
            self.on_cancel(app)

    def update(self, app, dt_ms: int) -> None:
        if not self.started and self.ctl.started:
            self.started = True
            self.on_start(app)

    def frame_key(self, app) -> tuple:
        """Seats taken, lines said, the session's end: what this screen shows besides input."""
        return self.ctl.free_seats(), len(self.ctl.log), self.ctl.outcome

    def _lines(self) -> list[str]:
        """The session's lines so far (who took which seat), with the terms line left to the terms row."""
        return [line for line in self.ctl.log if not line.strip().startswith("terms:")]

    def draw(self, surface: pygame.Surface, app) -> None:
        w, h = surface.get_size()
        px = app.px(22)
        self.buttons = []
        width = min(w - 40, max(px * 36, w * 2 // 3))
        box = pygame.Rect((w - width) // 2, 30, width, h - 60)
        inner = panel(surface, box)
        y = inner.y + 6
        draw_text(surface, fit(f"Hosting {self.title}", app.px(36), inner.w, bold=True), (inner.x + 8, y),
                  app.px(36), theme.ACCENT, bold=True)
        y += app.px(36) + 10
        outcome = self.ctl.outcome
        free = self.ctl.free_seats()
        if outcome is not None:
            head, colour = f"Hosting stopped: {outcome.message}", theme.BAD
        else:
            head = f"Waiting for {free} more player{'s' if free != 1 else ''}." if free else "Every seat is taken."
            colour = theme.GOOD
        for line in wrap_lines(head, px, inner.w - 16, 2):
            draw_text(surface, line, (inner.x + 8, y), px, colour, bold=True)
            y += px + 4
        y += 8
        draw_text(surface, "Give a friend this address:", (inner.x + 8, y), px, theme.TEXT)
        y += px + 8
        big = app.px(30)
        for address in self.addresses[:3]:
            field = pygame.Rect(inner.x + 8, y, inner.w - 16, big + 14)
            pygame.draw.rect(surface, (18, 24, 34), field, border_radius=6)
            pygame.draw.rect(surface, theme.HILITE, field, width=1, border_radius=6)
            textfit.box(field, "text field")
            draw_text(surface, fit(address, big, field.w - 20, bold=True), (field.x + 10, field.centery), big,
                      theme.HILITE, bold=True, anchor="midleft")
            y += big + 22
        small = px - 4
        first = self.addresses[0] if self.addresses else "HOST:PORT"
        words = [f"In their netplay lobby they type it under \u201cjoin by address\u201d, or pick "
                 f"\u201c{self.title} - {self.host_name}\u201d under games on the LAN. In a terminal: "
                 f"netplay join {first}"]
        if self.note:
            words.append(self.note)
        terms = self.ctl.terms()
        words.append(f"Terms: {terms}")
        for text in words:
            for line in wrap_lines(text, small, inner.w - 16, 3):
                draw_text(surface, line, (inner.x + 8, y), small, theme.MUTED)
                y += small + 4
            y += 6
        button_y = inner.bottom - px - 22
        draw_text(surface, "So far:", (inner.x + 8, y), small, theme.TEXT, bold=True)
        y += small + 6
        lines = self._lines() or ["nobody has joined yet"]
        room = max(0, (button_y - 8 - y) // (small + 4))
        for line in lines[-room:] if room else []:
            draw_text(surface, fit(line, small, inner.w - 24), (inner.x + 16, y), small, theme.TEXT)
            y += small + 4
        label = "back to the lobby (Esc)" if outcome is not None else "cancel hosting (Esc)"
        bw = min(inner.w - 16, theme.font(px).size(label)[0] + 40)
        button = Button(pygame.Rect(inner.centerx - bw // 2, button_y, bw, px + 14), label, "cancel")
        self.buttons.append(button)
        button.draw(surface, pygame.mouse.get_pos(), px)
