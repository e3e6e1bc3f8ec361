"""The layout scales (issue 6): at 1024x600, 1280x720 and 1920x1080 every scene (the lobby with and
without games on the LAN, the hosting screen, a rules page, the statistics, the viewer, an error) and a table of
every game (Catan, Cities & Knights, the three Kidd games, Ebbe & Flut for two and solo, Ploc, Turning
Tides, a timed table with its clocks, an end screen) is drawn once, and every text drawn is measured:

- none is cut with an ellipsis ("build a city improv…"), leaves its box or the window, or overlaps;
- none that is read is set under `theme.MIN_TEXT` (12), the pygame font size `theme.font` opens it at
  (the default font draws a size-12 text with capitals 7 px high). Symbols that are looked at, not read
  (a card's corner index, a level in its dot, a miniature card's name: `paint.text(symbol=True)`), and
  the labels painted into a board's static backdrop (hex and cell ids) are not held to it.

A screenshot of each goes to tests/artifacts/layout-NAME-WIDTH.png."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import shutil

import pygame
import pytest
from support import layoutkit
from support.layoutkit import FLOOR, SCENES, SIZES

from client.games import paint
from client.ui import textfit, theme
from client.ui.widgets import Button, label_size, wrap_lines

#: the Catan games end after this many rounds here (the replays test_client_textfit records too)
SHORT = {"max_rounds": "25"}


@pytest.fixture(scope="module")
def ctx(recorded, tmp_path_factory) -> dict:
    """The replays the lobby, the statistics and the viewer show: a Catan game and a Turning Tides one."""
    folder = tmp_path_factory.mktemp("layout-replays")
    tides = recorded("turning-tides", ("smart", "random"), 2)
    catan = recorded("catan", ("smart", "random"), 2, **SHORT)
    for path in (tides, catan):
        shutil.copy(path, folder / path.name)
    return {"replays": folder, "tides": folder / tides.name, "catan": folder / catan.name}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(SCENES))
def test_nothing_is_cut_and_no_text_is_under_12(name: str, size: tuple[int, int], ctx: dict) -> None:
    m = layoutkit.measure(name, size, ctx, shot=True)
    assert m.texts >= 5, f"{name} at {size}: hardly any text was drawn"
    assert not m.cut, f"{name} at {size}: cut with an ellipsis: {m.cut[:8]}"
    assert not m.problems, f"{name} at {size}: " + "\n".join(m.problems[:8])
    assert not m.small, f"{name} at {size}: under {FLOOR} px: {sorted(set(m.small))[:10]}"


@pytest.mark.parametrize("name", ["lobby", "catan-ck", "turning-tides"])
def test_text_grows_with_the_window(name: str, ctx: dict) -> None:
    """At full HD the space is used: the smallest text there is half as large again as at 1024x600."""
    small, big = (layoutkit.measure(name, size, ctx).smallest for size in (SIZES[0], SIZES[-1]))
    assert big >= small * 1.5, f"{name}: the smallest text is {small} at 1024x600 and {big} at 1920x1080"


def test_the_measures_can_fail() -> None:
    """A cut label and a text under the floor are reported (the recorder itself is not a formality)."""
    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface((300, 100))
    with textfit.recording((300, 100)) as frame:
        Button(pygame.Rect(0, 0, 60, 20), "build a city improvement").draw(surface, (0, 0), 20)
        paint.text(surface, "deck 0", (0, 40), 10)
        paint.text(surface, "3", (0, 60), 9, symbol=True)
    assert textfit.cut(frame) and textfit.cut(frame)[0].endswith("…")
    assert textfit.small(frame, FLOOR) == [(10, "deck 0")], "a symbol is not held to the floor, a text is"


def test_a_label_a_little_too_long_is_set_a_size_smaller_not_cut() -> None:
    pygame.display.init()
    pygame.font.init()
    text = "build a city improvement"
    width = theme.font(16).size(text)[0] - 8
    size = label_size(text, 16, width)
    assert theme.MIN_TEXT <= size < 16 and theme.font(size).size(text)[0] <= width
    assert label_size(text, 16, 10) == theme.MIN_TEXT, "never under the floor"
    long = " ".join(["word"] * 60)
    lines = wrap_lines(long, 14, 200, 2)
    assert len(lines) == 2 and lines[-1].endswith("…"), "lines left out show that they were"
    assert wrap_lines("a few words", 14, 200, 2) == ["a few words"]
    pieces = paint.broken("constitution", 12, theme.font(12).size("constitution")[0] // 2 + 4)
    assert len(pieces) == 2 and pieces[0].endswith("-") and "".join(pieces).replace("-", "") == "constitution"
