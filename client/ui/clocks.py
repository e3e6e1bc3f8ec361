"""Every seat's move clock on a table, as a chess player expects it: one chip per seat with the time
left, the running one lit, any limit on the decision awaited now beside it, and a warning in red, in
words, before a clock runs out (a game with a move clock is lost by forfeit at 0).

The figures are the table's peer's own (netplay.session.SeatClock): another peer's clock may differ by
the network delay. Whole seconds only: a picture a second is enough for a clock at rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from client.ui import textfit, theme
from client.ui.widgets import draw_text, fit, wrap
from netplay.wire import clip

LOW_CLOCK_S = 20      # a running move clock below this is drawn in red, and its seat is warned
LOW_LIMIT_S = 10      # the same for a limit on one decision


@dataclass(frozen=True, slots=True)
class Chip:
    """One seat's clock as shown: the texts are what a frame key compares (a picture a second)."""

    seat: int
    name: str
    left: str             # "4:05", "" without a move clock
    limit: str            # "0:25" for the decision awaited now, "" without one
    running: bool
    low: str              # when the running clock (or limit) runs low: the time left of the nearer one


def terms_words(terms: str) -> tuple[str, bool]:
    """A line of a game's terms (the lobby's list of LAN games, a timed table), the clock first, and
    whether they say the game is timed (a move clock: a player who runs out of time loses by
    forfeit). The text may come from the LAN: clipped, control characters replaced, never shown raw."""
    if not terms:
        return "terms not announced: you see them once you join", False
    parts = clip(terms, 200).split(", ")
    # a move clock, or a limit on each decision: a player who runs out of time loses
    timed = not any(p.startswith("untimed") for p in parts) and any(
        p.startswith("clock ") or " per move at most" in p or p.startswith("limit") for p in parts)
    # what decides a game's pace first (the clock, a limit per decision), the protocol's details after
    parts.sort(key=lambda p: 0 if p.startswith(("clock", "limit", "untimed")) or "per move" in p else 1)
    text = ", ".join(parts)
    return (f"TIMED: {text}" if timed else text), timed


def clock_text(seconds: float) -> str:
    """m:ss (h:mm:ss past an hour), whole seconds left rounded down: 0:00 is the last second."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def chips(clocks: Sequence, names: Sequence[str]) -> tuple[Chip, ...]:
    """The chips of a table's clocks (SeatClock-like: seat, left_s, running, limit_s), one per seat
    as soon as anything is timed (a move clock, or a limit on the decision awaited now: the others'
    chips then show their names alone); empty when nothing is."""
    if all(c.left_s is None and getattr(c, "limit_s", None) is None for c in clocks):
        return ()
    out = []
    for clock in clocks:
        left, limit = clock.left_s, getattr(clock, "limit_s", None)
        name = clip(names[clock.seat], 64) if clock.seat < len(names) and names[clock.seat] else f"seat {clock.seat}"
        low = ""
        if clock.running:
            near = [t for t, bound in ((left, LOW_CLOCK_S), (limit, LOW_LIMIT_S)) if t is not None and t < bound]
            low = clock_text(min(near)) if near else ""
        out.append(Chip(clock.seat, name, "" if left is None else clock_text(left),
                        "" if limit is None else clock_text(limit), clock.running, low))
    return tuple(out)


def warning(shown: Sequence[Chip], me: int | None) -> str:
    """The words for the seat at this screen when its own clock runs low ("" otherwise)."""
    for chip in shown:
        if chip.seat == me and chip.low:
            return f"hurry: {chip.low} left to decide, or you lose by forfeit"
    return ""


def _terms_lines(terms: str, px: int, width: int) -> tuple[int, list[str]]:
    """The terms under the chips, whole, in as many lines as the box's width needs (issue 6: cut on
    one line they lost the limit per move and the rest), and their size (never under the floor)."""
    size = max(theme.min_size(), px - 5)
    return size, wrap(terms_words(terms)[0], size, max(1, width - 12)) if terms else []


def _warning_lines(shown: Sequence[Chip], px: int, me: int | None, width: int) -> list[str]:
    words = warning(shown, me)
    return wrap(words, px - 2, max(1, width - 12), bold=True) if words else []


def _times(chip: Chip) -> str:
    return " / ".join(t for t in (chip.left, f"move {chip.limit}" if chip.limit else "") if t)


def _name_room(chip: Chip, px: int, width: int) -> int:
    """The pixels a chip `width` wide leaves its name beside its mark and its times."""
    return width - 6 - theme.font(px - 1, chip.running).size(_times(chip))[0] - 13 - 12


@dataclass(frozen=True, slots=True)
class Arrangement:
    """How the chips lie in a box: `per_row` chips a row, each `height` high, the name beside the times or,
    where even a whole row is too narrow for it (`stacked`), above them."""

    per_row: int
    height: int
    stacked: bool

    @property
    def pitch(self) -> int:
        return self.height + 4


def arrange(shown: Sequence[Chip], px: int, width: int) -> Arrangement:
    """Two chips a row where every name reads whole beside its times; else one a row; else each name on
    its own line above its times. A seat named after its machine ("host-303f8c1e2d") was cut to "host-303f8…"
    in half a row at 1024x600 (issue 34): the name is what tells the chips apart."""
    inner = max(1, width - 12)
    font = theme.font(px - 3)
    for per_row in (2, 1):
        chip_w = (inner - 6) // 2 if per_row == 2 else inner
        if all(font.size(c.name)[0] <= _name_room(c, px, chip_w) for c in shown):
            return Arrangement(per_row, px + 6, False)
    return Arrangement(1, 2 * font.get_linesize() + 8, True)


def height(shown: Sequence[Chip], px: int, me: int | None, terms: str = "", width: int = 10**6) -> int:
    """The room `draw` takes for these chips in a box `width` wide (0 when there are none)."""
    if not shown:
        return 0
    lay = arrange(shown, px, width)
    rows = -(-len(shown) // lay.per_row)
    size, lines = _terms_lines(terms, px, width)
    return (12 + rows * lay.pitch + len(_warning_lines(shown, px, me, width)) * (px + 2)
            + len(lines) * (size + 3))


def draw(surface: pygame.Surface, box: pygame.Rect, shown: Sequence[Chip], px: int, me: int | None,
         colour_of: Callable[[int], tuple[int, int, int]], terms: str = "") -> None:
    """The chips as `arrange` lays them: a seat-coloured mark, the name, the time left (and this decision's
    limit); then the warning for this screen's seat, and the terms (the clock first)."""
    pygame.draw.rect(surface, theme.PANEL, box, border_radius=8)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, width=1, border_radius=8)
    textfit.box(box, "panel")
    inner = box.inflate(-12, -12)
    lay = arrange(shown, px, box.w)
    width = (inner.w - 6) // 2 if lay.per_row == 2 else inner.w
    small = px - 3
    for i, chip in enumerate(shown):
        col, row = i % lay.per_row, i // lay.per_row
        rect = pygame.Rect(inner.x + col * (width + 6), inner.y + row * lay.pitch, width, lay.height)
        edge = theme.BAD if chip.low else theme.ACCENT if chip.running else theme.PANEL_EDGE
        pygame.draw.rect(surface, (60, 24, 24) if chip.low else theme.BUTTON if chip.running else theme.BUTTON_DOWN,
                         rect, border_radius=5)
        pygame.draw.rect(surface, edge, rect, width=2 if chip.running else 1, border_radius=5)
        textfit.box(rect, "clock")
        colour = theme.BAD if chip.low else theme.TEXT if chip.running else theme.MUTED
        line = theme.font(small).get_linesize()
        name_y = rect.y + 4 + line // 2 if lay.stacked else rect.centery
        mark = pygame.Rect(rect.x + 5, name_y - 4, 8, 8)
        pygame.draw.rect(surface, colour_of(chip.seat), mark)
        times_y = rect.bottom - 4 - line // 2 if lay.stacked else rect.centery
        time_rect = draw_text(surface, _times(chip), (rect.right - 6, times_y), px - 1, colour, bold=chip.running,
                              anchor="midright")
        room = (rect.right - 6 if lay.stacked else time_rect.x) - mark.right - 12
        if room > small:
            draw_text(surface, fit(chip.name, small, room), (mark.right + 5, name_y), small, colour,
                      anchor="midleft")
    y = inner.y + -(-len(shown) // lay.per_row) * lay.pitch
    for line in _warning_lines(shown, px, me, box.w):
        draw_text(surface, line, (inner.x, y), px - 2, theme.BAD, bold=True)
        y += px + 2
    size, lines = _terms_lines(terms, px, box.w)
    for line in lines:
        draw_text(surface, line, (inner.x, y), size, theme.MUTED)
        y += size + 3
