"""A record of where texts and boxes were drawn in one frame, so a test can measure every text's
extent against the box it sits in (issue 15: texts cut off, run together or hidden behind a card).

Drawing code calls `text(rect, words)` and `box(rect, kind)` (the widgets and the paint helpers do it
for every scene and board); nothing is kept unless a test opened a `recording()`. `problems()` names
each text that leaves the window or its box, overlaps another text, or lies under a box drawn later.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import pygame

from client.ui import theme

SLACK = 2  # pixels a glyph's box may stick out (antialiasing, descenders)


@dataclass
class Frame:
    size: tuple[int, int]
    items: list[tuple[str, pygame.Rect, str]] = field(default_factory=list)  # (kind, rect, text or box kind)
    sizes: list[tuple[int, str]] = field(default_factory=list)  # (pixel height, text) of every text that is read


_current: Frame | None = None


def text(rect: pygame.Rect, words: str, px: int | None = None) -> None:
    """A text drawn at `rect`; `px` is the pygame size it was opened at with `theme.font` (None: a symbol,
    looked at rather than read). Its font's pixel height is kept, the measure `theme.MIN_TEXT` is in, so
    a test holds every text to 12 px in truth and not to a pygame size that draws 8 (issue 34)."""
    if _current is not None and words.strip():
        _current.items.append(("text", pygame.Rect(rect), words))
        if px is not None:
            _current.sizes.append((theme.height(px), words))


def box(rect: pygame.Rect, kind: str = "panel") -> None:
    """A filled box: a panel, a button, a card. "modal" boxes cover what is under them on purpose."""
    if _current is not None and rect.w > 0 and rect.h > 0:
        _current.items.append(("box", pygame.Rect(rect), kind))


@contextlib.contextmanager
def recording(size: tuple[int, int]) -> Iterator[Frame]:
    global _current
    frame = Frame(size)
    _current = frame
    try:
        yield frame
    finally:
        _current = None


@contextlib.contextmanager
def paused() -> Iterator[None]:
    global _current
    saved, _current = _current, None
    try:
        yield
    finally:
        _current = saved


def cut(frame: Frame) -> list[str]:
    """Every text drawn cut short with an ellipsis (`widgets.fit`'s "…"): each one a label that did not
    get the room it needed."""
    return [words for kind, _, words in frame.items if kind == "text" and "…" in words]


def small(frame: Frame, floor: int) -> list[tuple[int, str]]:
    """Every text drawn with a font under `floor` pixels high, the smallest first."""
    return sorted((px, words) for px, words in frame.sizes if px < floor)


def _inside(inner: pygame.Rect, outer: pygame.Rect) -> bool:
    return (inner.left >= outer.left - SLACK and inner.top >= outer.top - SLACK
            and inner.right <= outer.right + SLACK and inner.bottom <= outer.bottom + SLACK)


def _overlap(a: pygame.Rect, b: pygame.Rect) -> bool:
    clip = a.clip(b)
    return clip.w > SLACK and clip.h > SLACK + 1


def _run_together(a: pygame.Rect, b: pygame.Rect) -> bool:
    """Two labels on one line with less than a space between them read as one word."""
    rows = min(a.bottom, b.bottom) - max(a.top, b.top)
    if rows < min(a.h, b.h) // 2:
        return False
    gap = max(a.left, b.left) - min(a.right, b.right)
    return -SLACK <= gap < 3


def problems(frame: Frame) -> list[str]:
    """Every text that is clipped by the window or its box, overlaps another text, or is covered."""
    window = pygame.Rect((0, 0), frame.size)
    out: list[str] = []
    items = frame.items
    modal = next((i for i, (kind, _, what) in enumerate(items) if kind == "box" and what == "modal"), len(items))
    texts = [(i, rect, words) for i, (kind, rect, words) in enumerate(items) if kind == "text"
             and not (i < modal and any(k == "box" and what == "modal" and _overlap(r, rect)
                                        for k, r, what in items[modal:]))]  # under a dialog on purpose
    for i, rect, words in texts:
        if not _inside(rect, window):
            out.append(f"{words!r} at {tuple(rect)} leaves the {frame.size[0]}x{frame.size[1]} window")
            continue
        # a text on a dialog sits in the dialog's boxes, not in those it covers
        floor = max((k for k, (kind, _, what) in enumerate(items[:i]) if kind == "box" and what == "modal"), default=0)
        holders = [r for kind, r, _ in items[floor:i] if kind == "box" and r.collidepoint(rect.center)]
        if holders:
            holder = min(holders, key=lambda r: r.w * r.h)
            if not _inside(rect, holder):
                out.append(f"{words!r} at {tuple(rect)} runs out of its box {tuple(holder)}")
        for kind, r, what in items[i + 1:]:
            if kind == "box" and what != "modal" and _overlap(r, rect) and not _inside(r, rect):
                holder_after = r.collidepoint(rect.center) and _inside(rect, r)
                if not holder_after:
                    out.append(f"{words!r} at {tuple(rect)} is partly covered by a {what} drawn later at {tuple(r)}")
                    break
                out.append(f"{words!r} at {tuple(rect)} is hidden under a {what} drawn later at {tuple(r)}")
                break
    for n, (_, a, wa) in enumerate(texts):
        for _, b, wb in texts[n + 1:]:
            if a != b and _overlap(a, b):
                out.append(f"{wa!r} at {tuple(a)} overlaps {wb!r} at {tuple(b)}")
            elif _run_together(a, b):
                out.append(f"{wa!r} at {tuple(a)} runs into {wb!r} at {tuple(b)} (no space between them)")
    return out
