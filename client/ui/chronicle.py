"""The side panel that tells the game: a "log" tab (the whole game in words, scrollable) and a "dice"
tab (history, histogram, proofs), with a "rules" button; the table and the replay viewer both show it.
The scene gives the chronicle (client/story/record.py) and reads back what a click asked for."""

from __future__ import annotations

import pygame

from client.dice import ROLLING, histograms, tile_text
from client.games import seat_style
from client.story.record import Chronicle
from client.story.words import name_seats
from client.ui import theme
from client.ui.dice import DicePanel
from client.ui.logview import Item, LogView
from client.ui.widgets import Button, draw_text, panel

KIND_COLOURS = {"move": theme.TEXT, "roll": (150, 190, 255), "gain": (150, 215, 160), "secret": theme.MUTED,
                "alarm": theme.BAD, "chance": theme.MUTED, "note": theme.ACCENT}
TABS = (("log", "log"), ("dice", "dice"), ("rules", "rules"))


class ChroniclePanel:
    def __init__(self, tab: str = "log") -> None:
        self.tab = tab
        self.log = LogView()
        self.dice = DicePanel()
        self.buttons: list[Button] = []
        self._items: tuple[tuple, list[Item], int | None] | None = None

    def handle(self, event: pygame.event.Event) -> tuple | None:
        """("seek", frame index) for a log line clicked, ("rules",) for the rules button, else None; a
        tab click switches tabs."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.buttons:
                if button.rect.collidepoint(event.pos):
                    if button.key == "rules":
                        return ("rules",)
                    self.tab = button.key
                    return ("tab", button.key)
        if self.tab == "log":
            key = self.log.handle(event)
            return None if key is None else ("seek", key)
        if self.tab == "dice":
            number = self.dice.handle(event)
            return None if number is None else ("roll", number)
        return None

    def contains(self, pos: tuple[int, int]) -> bool:
        return self.log.rect.collidepoint(pos) or any(b.rect.collidepoint(pos) for b in self.buttons)

    def draw(self, surface: pygame.Surface, box: pygame.Rect, chron: Chronicle | None, game_id: str | None,
             names: list[str], px: int, *, position: int | None = None, extra: list[Item] | None = None,
             first: list[Item] | None = None, among: list[tuple[int, Item]] | None = None) -> None:
        """`position`: the viewer's frame index (entries after it dimmed, rolls after it left out);
        `first`/`extra`: lines before and after the game's (a sandbox's origin); `among`: lines put among the
        game's, each after the number of entries it names (the chat, where each line was said)."""
        inner = panel(surface, box)
        small = max(10, px - 2)
        self.buttons = []
        bw = min(110, (inner.w - 12) // 3)
        for i, (key, caption) in enumerate(TABS):
            button = Button(pygame.Rect(inner.x + i * (bw + 6), inner.y, bw, px + 4), caption, key,
                            selected=key == self.tab)
            self.buttons.append(button)
            button.draw(surface, pygame.mouse.get_pos(), small)
        body = pygame.Rect(inner.x, inner.y + px + 12, inner.w, inner.h - px - 12)
        self.log.rect = body
        if chron is None:
            draw_text(surface, "waiting for the game to start...", body.topleft, small, theme.MUTED)
            return
        me = chron.me

        def colour(seat: int | None) -> tuple:
            return seat_style(game_id, seat)[0] if seat is not None else theme.MUTED

        if self.tab == "dice":
            rolls = [r for r in chron.rolls if position is None or r.position <= position]
            self.dice.draw(surface, body, rolls, histograms(game_id or "", rolls), small, chron.proof, colour,
                           lambda text: name_seats(text, names, me), lambda r: tile_text(game_id or "", r),
                           owner=id(chron), rolling=game_id in ROLLING)
            return
        items, current = self._log_items(chron, names, game_id, position, first or [], extra or [], among or [])
        self.log.draw(surface, body, items, small, current)

    def _log_items(self, chron: Chronicle, names, game_id, position, first, extra,
                   among) -> tuple[list[Item], int | None]:
        entries = chron.entries
        key = (id(chron), len(entries), position, len(first), len(extra), extra[-1] if extra else None, len(among),
               among[-1] if among else None)
        if self._items is None or self._items[0] != key:
            items = list(first)
            current = None
            waiting = sorted(among, key=lambda placed: placed[0])   # (stable: lines said together keep their order)
            for n, entry in enumerate(entries):
                while waiting and waiting[0][0] <= n:
                    items.append(waiting.pop(0)[1])
                later = position is not None and entry.position > position
                colour = theme.MUTED if later and entry.kind == "move" else KIND_COLOURS.get(entry.kind, theme.TEXT)
                if later:
                    colour = tuple(c * 2 // 3 for c in colour)
                dot = seat_style(game_id, entry.seat)[0] if entry.seat is not None else None
                if not later and position is not None:
                    current = len(items)
                items.append(Item(entry.text, colour, entry.position if position is not None else None, dot))
            if position is not None and position < 0:
                current = None
            items += [item for _, item in waiting]   # said after the last entry (or before a new game's first)
            items += extra
            self._items = (key, items, current)
        return self._items[1], self._items[2]
