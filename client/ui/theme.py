"""Colours, fonts and sizes in one place, scaled to the window so 1280x720 and full HD both read well."""

from __future__ import annotations

from functools import lru_cache

import pygame

BG = (24, 32, 44)
PANEL = (34, 45, 60)
PANEL_EDGE = (70, 88, 110)
TEXT = (232, 236, 240)
MUTED = (150, 162, 176)
ACCENT = (242, 178, 52)
GOOD = (96, 196, 120)
BAD = (230, 90, 80)
HILITE = (255, 226, 120)
LAST_MOVE = (120, 200, 255)  # another seat's last move, outlined on the board
BUTTON = (56, 74, 98)
BUTTON_HOVER = (78, 102, 134)
BUTTON_DOWN = (44, 58, 78)
SEA = (38, 84, 120)
WOOD = (150, 110, 70)
PAPER = (236, 226, 200)
SEAT_COLOURS = [(236, 200, 60), (214, 70, 60), (70, 140, 220), (90, 180, 100)]
SEAT_NAMES = ["yellow", "red", "blue", "green"]


#: The smallest text that is read, in pixels: a text is "12 px" when its font's pixel height
#: (`font.get_height()`, ascent plus descent, the em of the web and of every toolkit) is at least 12
#: (issue 34). It is not a pygame size: the default font (`pygame.font.Font(None, n)`) draws at 0.6875
#: of the size asked, so size 12 is 8 px high with capitals of 7, and 12 px is size 18 (`min_size`).
MIN_TEXT = 12


@lru_cache(maxsize=256)   # every size from the glyphs' floor to full HD's titles, plain and bold
def _opened(size: int, bold: bool) -> pygame.font.Font:
    f = pygame.font.Font(None, size)
    f.set_bold(bold)
    return f


def height(size: int) -> int:
    """The pixel height of the default font opened at pygame size `size`: what `MIN_TEXT` is in."""
    return _opened(size, False).get_height()


@lru_cache(maxsize=1)
def min_size() -> int:
    """The smallest pygame size whose text is `MIN_TEXT` pixels high (18 with the default font).
    Measured from the font rather than written down, so that the promise holds in pixels whatever
    font pygame ships."""
    return next(n for n in range(MIN_TEXT, 4 * MIN_TEXT) if height(n) >= MIN_TEXT)


def scale(size: tuple[int, int]) -> float:
    """1.0 at 1280x720; grows with the window so text stays readable at full HD. Never under 0.9, so
    that the body text (`App.px(20)`) is 18 at 1024x600, the smallest size that is 12 px high."""
    return max(0.9, min(size[0] / 1280, size[1] / 720))


def font_size(px: int) -> int:
    """The pygame size `font(px)` is opened at: `px`, but never under `min_size()`. The floor is here,
    in the one place every text that is read gets its font, so that a caption set at "the body size
    less 5" cannot fall under 12 px at 1024x600 however its scene computed it (issue 34); a layout that
    cannot give a text that much room is what the layout tests report, not a smaller text."""
    return max(min_size(), px)


def font(px: int, bold: bool = False) -> pygame.font.Font:
    """The font of a text that is read, at `px` or the floor (`font_size`)."""
    return _opened(font_size(px), bold)


def glyph_size(px: int) -> int:
    """The pygame size `glyph(px)` is opened at: no floor but 10, the smallest that still draws."""
    return max(10, px)


def glyph(px: int, bold: bool = False) -> pygame.font.Font:
    """The font of a symbol that is looked at, not read (a card's corner index, a level in its dot,
    a board's cell ids): it keeps the size its spot allows (`paint.text(symbol=True)`)."""
    return _opened(glyph_size(px), bold)


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]
