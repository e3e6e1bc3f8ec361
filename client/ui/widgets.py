"""Small immediate-mode widgets: each frame a scene lays its widgets out, draws them and hands them
the events. Keeping no widget tree means a resize never leaves stale geometry behind."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import pygame

from client.names import tail
from client.ui import textfit, theme


def draw_text(surface: pygame.Surface, text: str, pos: tuple[int, int], px: int = 22,
              colour=theme.TEXT, bold: bool = False, anchor: str = "topleft") -> pygame.Rect:
    img = theme.font(px, bold).render(text, True, colour)
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    textfit.text(rect, text, theme.font_size(px))
    return rect


def wrap(text: str, px: int, width: int, bold: bool = False) -> list[str]:
    """Greedy word wrap for a font size and pixel width; a word wider than the line is cut to fit.
    Cached: scenes wrap the same log lines every frame."""
    return list(_wrap(text, px, width, bold))


@lru_cache(maxsize=4096)
def _wrap(text: str, px: int, width: int, bold: bool) -> tuple[str, ...]:
    f = theme.font(px, bold)
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}".strip()
            if f.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return tuple(fit(line, px, width, bold) for line in lines)


def wrap_lines(text: str, px: int, width: int, most: int, bold: bool = False) -> list[str]:
    """`wrap`, at most `most` lines: what does not fit goes into the last one, cut with an ellipsis, so
    that a text too long for its room shows that it was cut (and the layout tests see it) instead of
    losing its end without a sign."""
    lines = wrap(text, px, width, bold)
    if len(lines) <= most:
        return lines
    return [*lines[:most - 1], fit(" ".join(lines[most - 1:]), px, width, bold)]


def fit(text: str, px: int, width: int, bold: bool = False) -> str:
    """`text`, cut with an ellipsis so that it fits `width` pixels. A name's distinguishing suffix
    ("root@vm (a52e)", "smart bot 2": client.names) at the end stays whole and the cut falls before it:
    cut off, the two names would read the same again ("Red: root@vm (a…")."""
    f = theme.font(px, bold)
    if f.size(text)[0] <= width:
        return text
    end = tail(text)
    head = text[:len(text) - len(end)]
    if end and f.size("…" + end)[0] <= width:
        while head and f.size(head + "…" + end)[0] > width:
            head = head[:-1]
        return head.rstrip() + "…" + end
    while text and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"


def label_size(text: str, px: int, width: int, bold: bool = False) -> int:
    """The size from `px` down to the floor (`theme.min_size()`) at which `text` fits `width` pixels: a
    label a little too long for its button reads whole a size smaller rather than cut ("build a city
    improv…"); under the floor it is cut after all, and the layout tests say so."""
    size = px
    while size > theme.min_size() and theme.font(size, bold).size(text)[0] > width:
        size -= 1
    return size


def button_lines(label: str, px: int, width: int, height: int) -> tuple[list[str], int]:
    """A button's caption in lines, and their size: whole on one line, a size smaller if need be
    (`label_size`); where even the smallest size that reads is too wide, over two lines if the button
    is two lines high (the table's choices at 1024x600, issue 34); else cut."""
    size = label_size(label, px, width)
    if theme.font(size).size(label)[0] > width and height >= two_lines(size):
        return wrap_lines(label, size, width, 2), size
    return [fit(label, size, width)], size


def two_lines(px: int) -> int:
    """The height a button needs for two lines of text at `px`."""
    return 2 * theme.font(px).get_linesize() + 2


def panel(surface: pygame.Surface, rect: pygame.Rect, title: str | None = None, px: int = 20) -> pygame.Rect:
    """Draw a panel; returns the inner rect below its title."""
    pygame.draw.rect(surface, theme.PANEL, rect, border_radius=8)
    pygame.draw.rect(surface, theme.PANEL_EDGE, rect, width=1, border_radius=8)
    textfit.box(rect, "panel")
    inner = rect.inflate(-16, -12)
    if title:
        draw_text(surface, title, inner.topleft, px, theme.MUTED, bold=True)
        inner = pygame.Rect(inner.x, inner.y + px + 4, inner.w, inner.h - px - 4)
    return inner


#: a page's buttons at its top right keep this far from the window's edge (flush with the panels below them)
#: and at least `HEADER_GAP` above those panels, as the lobby's do
EDGE = 12
HEADER_GAP = 16


def header_buttons(w: int, px: int, specs: list[tuple[str, str, bool]]) -> list[Button]:
    """A page's buttons at its top right, the first one rightmost, placed as the lobby places its own: flush with
    the right edge of the panels below, `px + 8` high, 8 apart. The statistics page set its "back" 4 px inside
    the panels' edge on a title-high button, unlike every other page (issue 34); `header_bottom` is where the
    page's panels may start."""
    out: list[Button] = []
    x = w - EDGE
    for caption, key, enabled in specs:
        width = theme.font(px).size(caption)[0] + 24
        x -= width
        out.append(Button(pygame.Rect(x, EDGE, width, px + 8), caption, key, enabled=enabled))
        x -= 8
    return out


def header_bottom(px: int) -> int:
    """The least y of a panel under `header_buttons`."""
    return EDGE + px + 8 + HEADER_GAP


@dataclass(slots=True)
class Button:
    rect: pygame.Rect
    label: str
    key: str = ""  # what clicking it means to the scene
    enabled: bool = True
    selected: bool = False

    def draw(self, surface: pygame.Surface, mouse: tuple[int, int], px: int = 20) -> None:
        hover = self.enabled and self.rect.collidepoint(mouse)
        colour = theme.BUTTON_HOVER if hover else theme.BUTTON
        if self.selected:
            colour = theme.ACCENT
        if not self.enabled:
            colour = theme.BUTTON_DOWN
        pygame.draw.rect(surface, colour, self.rect, border_radius=6)
        textfit.box(self.rect, "button")
        text_colour = (20, 20, 20) if self.selected else (theme.TEXT if self.enabled else theme.MUTED)
        lines, size = button_lines(self.label, px, self.rect.w - 10, self.rect.h)
        pitch = theme.font(size).get_linesize()
        for k, line in enumerate(lines):
            draw_text(surface, line, (self.rect.centerx, self.rect.centery + (2 * k - len(lines) + 1) * pitch // 2),
                      size, text_colour, anchor="center")

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.enabled and self.rect.collidepoint(pos)


@dataclass(slots=True)
class TextInput:
    """A one-line text field: focused by a click, edited with keys, submitted with Enter."""

    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 10, 10))
    text: str = ""
    placeholder: str = ""
    focused: bool = False
    max_len: int = 200

    def draw(self, surface: pygame.Surface, px: int = 20) -> None:
        pygame.draw.rect(surface, (18, 24, 34), self.rect, border_radius=5)
        edge = theme.ACCENT if self.focused else theme.PANEL_EDGE
        pygame.draw.rect(surface, edge, self.rect, width=1, border_radius=5)
        textfit.box(self.rect, "text field")
        shown = self.text or self.placeholder
        colour = theme.TEXT if self.text else theme.MUTED
        f = theme.font(px)
        while f.size(shown)[0] > self.rect.w - 12 and shown:
            shown = shown[1:]
        draw_text(surface, shown + ("|" if self.focused else ""), (self.rect.x + 6, self.rect.centery), px,
                  colour, anchor="midleft")

    def handle(self, event: pygame.event.Event) -> str | None:
        """Returns the text when Enter submits it."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.focused = self.rect.collidepoint(event.pos)
        elif self.focused and event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                text, self.text = self.text, ""
                return text
            if event.key == pygame.K_BACKSPACE:
                self.text = self.text[:-1]
            elif event.key == pygame.K_ESCAPE:
                self.focused = False
        elif self.focused and event.type == pygame.TEXTINPUT and len(self.text) < self.max_len:
            self.text += event.text
        return None
