"""One renderer per game, drawing `game.view(...)` as a board, plus the click-to-token mapping.

A renderer never decides a rule: it draws the view, marks the tokens the table says may come next
(`highlights`), and says which token lies under the mouse (`hit`). The table builds the action text
from those tokens with `client.actions.ActionBuilder`.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType
from typing import Protocol

import pygame

import engines


@cache
def _module(game_id: str) -> ModuleType | None:
    """The renderer module of a game, found by its engine package's name (`client/games/<family>.py`, which
    defines `Renderer`); None for an unknown game or one that ships no renderer (it gets the text renderer)."""
    try:
        family = engines.describe(game_id).family
    except engines.UnknownGame:
        return None
    if not family or find_spec(f"{__name__}.{family}") is None:
        return None
    module = import_module(f"{__name__}.{family}")
    return module if hasattr(module, "Renderer") else None


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
    module = _module(game_id)
    if module is None:
        from client.games.text import TextRenderer

        return TextRenderer()
    return module.Renderer()


def seat_style(game_id: str | None, seat: int) -> tuple[tuple[int, int, int], str]:
    """A seat's colour and its name on the game's board: the renderer module's own (`SEAT_COLOURS`,
    `SEAT_NAMES`: Catan's red, blue, white, orange), else the theme's, so that the table's and the
    viewer's seat lines match the pieces."""
    from client.ui import theme

    module = _module(game_id or "")
    colours = getattr(module, "SEAT_COLOURS", theme.SEAT_COLOURS)
    names = getattr(module, "SEAT_NAMES", theme.SEAT_NAMES)
    return colours[seat % len(colours)], names[seat % len(names)]


def has_renderer(game_id: str) -> bool:
    return _module(game_id) is not None
