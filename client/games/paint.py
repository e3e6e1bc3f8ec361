"""Drawing helpers the board renderers share: dice, pulsing highlight rings, shaded discs, labels and
a cache for the parts of a board that only change with the window size.

Everything here is pure drawing; no helper knows a game.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from client.ui import textfit, theme
from client.ui.widgets import fit as fit  # the renderers' paint.fit: one ellipsis rule for every text
from client.ui.widgets import wrap
from engines.memo import Memo

Colour = tuple[int, int, int]

INK = (28, 24, 20)
IVORY = (246, 240, 226)
SHADOW = (0, 0, 0, 70)

# pip layout of a die face on a 3x3 grid (column, row), the usual arrangement
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """`a` moved a fraction `t` of the way towards `b`."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def darker(c: Colour, t: float = 0.35) -> Colour:
    return mix(c, (0, 0, 0), t)


def lighter(c: Colour, t: float = 0.35) -> Colour:
    return mix(c, (255, 255, 255), t)


_held: float | None = None    # the pose of every breathing thing while a scene holds them still (`hold`)


def hold(pose: float | None) -> None:
    """Hold every breathing highlight at `pose` (0..1) for the pictures drawn until `hold(None)`: a scene
    that stopped breathing draws its highlights in one steady pose, not wherever the last breath was."""
    global _held
    _held = pose


def pulse(period_ms: int = 900) -> float:
    """0..1..0 over a period, so highlighted things breathe and draw the eye."""
    if _held is not None:
        return _held
    t = (pygame.time.get_ticks() % period_ms) / period_ms
    return 0.5 - 0.5 * math.cos(2 * math.pi * t)


def text(surface: pygame.Surface, words: str, pos: tuple[int, int], px: int, colour: Colour = theme.TEXT,
         bold: bool = False, anchor: str = "topleft", shadow: bool = False, symbol: bool = False) -> pygame.Rect:
    """A label on a board. `symbol`: a glyph that is looked at, not read (a number on a card's corner, a
    miniature card's name): it keeps the size its spot allows and is not held to `theme.min_size()`."""
    img = _rendered(words, px, bold, colour, symbol)
    rect = img.get_rect(**{anchor: pos})
    if shadow:
        surface.blit(_rendered(words, px, bold, (0, 0, 0), symbol), rect.move(1, 1))
    surface.blit(img, rect)
    textfit.text(rect, words, None if symbol else theme.font_size(px))
    return rect


def broken(word: str, px: int, width: int, bold: bool = False) -> list[str]:
    """`word` in pieces that each fit `width` pixels at `px`, every piece but the last ending in a
    hyphen ("consti-", "tution"): a card's name on a card too narrow for it reads whole over two lines
    rather than cut ("constit…") or set under the smallest size that reads (issue 6)."""
    f = theme.font(px, bold)
    pieces: list[str] = []
    rest = word
    while f.size(rest)[0] > width and len(rest) > 2:
        cut = len(rest) - 1
        while cut > 1 and f.size(rest[:cut] + "-")[0] > width:
            cut -= 1
        pieces.append(rest[:cut] + "-")
        rest = rest[cut:]
    return [*pieces, rest]


def label_lines(label: str, px: int, width: int, bold: bool = False) -> list[str]:
    """A seat's caption in at most two lines `width` wide: whole on one, else broken after the colour
    ("Silver:" over "random bot", not "Silver: random" over "bot"); cut only if two are not enough."""
    f = theme.font(px, bold)
    if f.size(label)[0] <= width:
        return [label]
    head, sep, rest = label.partition(": ")
    lines = [head + ":", rest] if sep else wrap(label, px, width, bold)
    if sep and f.size(lines[0])[0] > width:
        lines = wrap(label, px, width, bold)
    return lines if len(lines) <= 2 and all(f.size(x)[0] <= width for x in lines) else \
        [lines[0], fit(" ".join(lines[1:]), px, width, bold)]


def seat_label(view: dict, seat: int, base: str) -> str:
    """A seat's caption on a board: its colour or ship (`base`) and the player: "Yellow (you)" at the
    viewer's own seat, "Red: ann" where the front end passed the players' names (`_names`, and `_me`
    for the viewer's seat, None in a replay), else "(you)" by the view's seat as before."""
    names = view.get("_names")
    if names is None:
        return base + (" (you)" if seat == view.get("seat") else "")
    if view.get("_me") == seat:
        return f"{base} (you)"
    name = names[seat] if 0 <= seat < len(names) else ""
    return f"{base}: {name}" if name and name != "you" else base


_TEXT_CACHE: Memo[tuple[str, int, bool, Colour], pygame.Surface] = Memo(2000, "(words, size, bold, colour)")


def _rendered(words: str, px: int, bold: bool, colour: Colour, symbol: bool = False) -> pygame.Surface:
    """Rendered labels are cached: boards redraw the same few words every frame at 60 fps. The key holds
    the size the font is opened at, so a symbol and a text asked at the same `px` stay apart."""
    size = theme.glyph_size(px) if symbol else theme.font_size(px)
    key = (words, size, bold, tuple(colour))
    img = _TEXT_CACHE.get(key)
    if img is None:
        font = theme.glyph(px, bold) if symbol else theme.font(px, bold)
        img = _TEXT_CACHE.put(key, font.render(words, True, colour))
    return img


def ring(surface: pygame.Surface, centre: tuple[int, int], radius: int, colour: Colour = theme.HILITE,
         width: int = 3, breathe: bool = True) -> None:
    """A highlight ring; breathing ones grow and shrink a little."""
    grow = round(pulse() * max(2, radius // 7)) if breathe else 0
    pygame.draw.circle(surface, colour, centre, radius + grow, max(2, width))


def frame(surface: pygame.Surface, rect: pygame.Rect, colour: Colour = theme.HILITE, width: int = 3,
          breathe: bool = True) -> None:
    """A highlight frame around a rectangular thing (a die, a card); breathing ones pulse a little."""
    grow = 4 + (round(pulse() * max(2, rect.w // 12)) if breathe else 0)
    pygame.draw.rect(surface, colour, rect.inflate(2 * grow, 2 * grow), max(2, width), border_radius=rect.w // 5)


def disc(surface: pygame.Surface, centre: tuple[int, int], radius: int, colour: Colour,
         rim: Colour | None = None, rim_width: int = 2) -> None:
    """A filled disc with a soft lit top and a darker rim, so pieces read as objects, not dots."""
    x, y = centre
    pygame.draw.circle(surface, darker(colour, 0.25), (x, y + max(1, radius // 8)), radius)
    pygame.draw.circle(surface, colour, centre, radius)
    if radius > 6:
        pygame.draw.circle(surface, lighter(colour, 0.25), (x - radius // 4, y - radius // 4), max(2, radius // 3))
        pygame.draw.circle(surface, colour, (x - radius // 6, y - radius // 6), max(1, radius // 4))
    pygame.draw.circle(surface, rim or darker(colour, 0.5), centre, radius, max(1, rim_width))


def die(surface: pygame.Surface, rect: pygame.Rect, value: int | None, body: Colour = IVORY, pips: Colour = INK,
        faded: bool = False, edge: Colour | None = None) -> None:
    """A die face; `value` None draws a blank die (not rolled yet, or rolling)."""
    if faded:
        body = mix(body, (120, 120, 120), 0.55)
        pips = mix(pips, (150, 150, 150), 0.55)
    radius = max(3, rect.w // 6)
    pygame.draw.rect(surface, darker(body, 0.45), rect.move(0, max(2, rect.h // 14)), border_radius=radius)
    pygame.draw.rect(surface, body, rect, border_radius=radius)
    pygame.draw.rect(surface, edge or darker(body, 0.35), rect, width=max(1, rect.w // 28), border_radius=radius)
    if value is None:
        text(surface, "?", rect.center, max(12, rect.h * 2 // 3), darker(body, 0.5), bold=True, anchor="center")
        return
    step = rect.w / 4
    r = max(2, round(rect.w / 11))
    for col, row in PIPS.get(value, ()):
        cx = round(rect.x + step * (col + 1))
        cy = round(rect.y + step * (row + 1))
        pygame.draw.circle(surface, pips, (cx, cy), r)


def rounded_panel(surface: pygame.Surface, rect: pygame.Rect, fill: Colour, edge: Colour | None = None,
                  radius: int = 10, alpha: int = 255, width: int = 2) -> None:
    if alpha < 255:
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, (*fill, alpha), layer.get_rect(), border_radius=radius)
        surface.blit(layer, rect)
    else:
        pygame.draw.rect(surface, fill, rect, border_radius=radius)
    textfit.box(rect, "card" if alpha == 255 else "shade")
    if edge is not None:
        pygame.draw.rect(surface, edge, rect, width=width, border_radius=radius)


class StaticLayer:
    """A board's unchanging backdrop, painted once per size and blitted every frame."""

    def __init__(self) -> None:
        self._key: tuple | None = None
        self._surface: pygame.Surface | None = None

    def get(self, key: tuple, size: tuple[int, int], paint: Callable[[pygame.Surface], None]) -> pygame.Surface:
        if self._surface is None or self._key != key:
            surface = pygame.Surface(size, pygame.SRCALPHA)
            with textfit.paused():  # painted once, off-window: its labels are not where the window shows them
                paint(surface)
            self._surface = surface
            self._key = key
        return self._surface


def polar(centre: tuple[float, float], angle: float, distance: float) -> tuple[int, int]:
    return round(centre[0] + math.cos(angle) * distance), round(centre[1] + math.sin(angle) * distance)
