"""One renderer per game, drawing `game.view(...)` as a board, plus the click-to-token mapping.

A renderer never decides a rule: it draws the view, marks the tokens the table says may come next
(`highlights`), and says which token lies under the mouse (`hit`). The table builds the action text
from those tokens with `client.actions.ActionBuilder`.
"""

from __future__ import annotations

from importlib import import_module
from typing import Protocol

import pygame

# game id -> module under client.games; a game without an entry gets the text renderer
_MODULES: dict[str, str] = {
    "catan": "catan",
    "catan-ck": "catan_ck",
    "ebbe-flut": "ebbeflut",
    "ebbe-flut-solo": "ebbeflut",
    "loyal-captain": "kidd",
    "madagaskar": "kidd",
    "ploc": "ploc",
    "quedah-merchant": "kidd",
    "turning-tides": "tides",
}


class Renderer(Protocol):
    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, highlights: set[str],
             chosen: list[str], px: int) -> None: ...

    def hit(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> str | None: ...

    # optional: `label(view, chosen, token)` names a choice for the table's list,
    # `mark(surface, rect, view, action, seat)` outlines where a move happened (another seat's last move;
    # `seat` made it, None when not known),
    # `press(rect, view, pos)` keeps a click for a widget of the board's own (a card composer's + or -),
    # `fillers`: words the table adds by itself when they are the only way on, and
    # `clicks(rect, view, token)`: the clicks that put a composed token together (for tests)


def renderer_for(game_id: str) -> Renderer:
    name = _MODULES.get(game_id)
    if name is None:
        from client.games.text import TextRenderer

        return TextRenderer()
    return import_module(f"client.games.{name}").Renderer()


def seat_style(game_id: str | None, seat: int) -> tuple[tuple[int, int, int], str]:
    """A seat's colour and its name on the game's board: the renderer module's own (`SEAT_COLOURS`,
    `SEAT_NAMES`: Catan's red, blue, white, orange), else the theme's, so that the table's and the
    viewer's seat lines match the pieces."""
    from client.ui import theme

    name = _MODULES.get(game_id or "")
    module = import_module(f"client.games.{name}") if name else None
    colours = getattr(module, "SEAT_COLOURS", theme.SEAT_COLOURS)
    names = getattr(module, "SEAT_NAMES", theme.SEAT_NAMES)
    return colours[seat % len(colours)], names[seat % len(names)]


def has_renderer(game_id: str) -> bool:
    return game_id in _MODULES
