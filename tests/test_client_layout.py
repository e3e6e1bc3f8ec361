"""The layout scales (issue 6): at 1024x600, 1280x720 and 1920x1080 every scene (the lobby with and
without games on the LAN, the hosting screen, a rules page, the statistics, the viewer, an error) and a table of
every game (Catan, Cities & Knights, the three Kidd games, Ebbe & Flut for two and solo, Ploc, Turning
Tides, a timed table with its clocks, an end screen) is drawn once, and every text drawn is measured:

- none is cut with an ellipsis ("build a city improv…"), leaves its box or the window, or overlaps;
- none that is read is under 12 px (`theme.MIN_TEXT`, issue 34). The measure is the font's pixel height,
  `font.get_height()` (ascent plus descent): what "12 px text" means on the web and in every toolkit. It
  is not pygame's size: the default font draws at 0.6875 of the size asked, so pygame size 12 is 8 px
  high (capitals 7) and 12 px is size 18 (`theme.min_size()`). Symbols that are looked at, not read (a
  card's corner index, a level in its dot, a miniature card's name, a board's hex and cell ids:
  `paint.text(symbol=True)`), are not held to it.

A screenshot of each goes to tests/artifacts/layout-NAME-WIDTH.png."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import shutil

import pygame
import pytest
from support import layoutkit
from support.layoutkit import FLOOR, SCENES, SIZES

from client.app import App
from client.games import paint
from client.scenes.viewer import ViewerScene
from client.ui import textfit, theme
from client.ui.widgets import EDGE, HEADER_GAP, Button, label_size, wrap_lines

#: the Catan games end after this many rounds here (the replays test_client_textfit records too)
SHORT = {"max_rounds": "25"}


@pytest.fixture(scope="module")
def ctx(recorded, tmp_path_factory) -> dict:
    """The replays the lobby, the statistics and the viewer show: a Catan game and a Turning Tides one; and a
    Cities & Knights game of three seats for the viewer alone (the one test_client_textfit records)."""
    folder = tmp_path_factory.mktemp("layout-replays")
    tides = recorded("turning-tides", ("smart", "random"), 2)
    catan = recorded("catan", ("smart", "random"), 2, **SHORT)
    for path in (tides, catan):
        shutil.copy(path, folder / path.name)
    return {"replays": folder, "tides": folder / tides.name, "catan": folder / catan.name,
            "catan-ck": recorded("catan-ck", ("smart", "random"), 2, **SHORT)}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(SCENES))
def test_nothing_is_cut_and_no_text_is_under_12(name: str, size: tuple[int, int], ctx: dict) -> None:
    m = layoutkit.measure(name, size, ctx, shot=True)
    assert m.texts >= 5, f"{name} at {size}: hardly any text was drawn"
    assert not m.cut, f"{name} at {size}: cut with an ellipsis: {m.cut[:8]}"
    assert not m.problems, f"{name} at {size}: " + "\n".join(m.problems[:8])
    assert not m.small, f"{name} at {size}: under {FLOOR} px: {sorted(set(m.small))[:10]}"



@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_tides_cards_name_themselves_in_text_that_reads(size: tuple[int, int], ctx: dict) -> None:
    """Every card of both hands in the Turning Tides viewer says its name in 12 px text (issue 34: at 1024x600
    the viewer's low board made the cards 32 px wide and their names symbols too small to read), in the
    picture the test above measured."""
    stepper = layoutkit.loaded(ctx["tides"])
    stepper.seek(stepper.count // 2)
    view = stepper.merged_view(seat=0)
    hands = {name for seat in view["cards"] for name in seat.get("hand") or []}
    assert hands, "the replay's middle shows no hand"
    read = {words for px, words in layoutkit.measure("viewer-tides", size, ctx, shot=True).frame.sizes
            if px >= FLOOR}
    assert hands <= read, f"at {size} drawn as symbols, not read: {sorted(hands - read)}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_waiting_timed_table_names_every_chip_and_counts_down_beside_the_board(size: tuple[int, int],
                                                                                 ctx: dict) -> None:
    """A timed LAN table waiting for the others (issue 34): each clock chip names its seat whole (machine names
    like "host-303f8c1e2d" were cut to "host-303f8…" two chips a row), and the countdown's band lies under the
    board, not over the Kidd board's legend."""
    m = layoutkit.measure("timed-waiting", size, ctx, shot=True)
    texts = [words for kind, _, words in m.frame.items if kind == "text"]
    for name in ("host-303f8c1e2d", "joiner-9b2e4a70c4", "joiner-51d0c3aa97"):
        assert name in texts, f"{name} is not in a chip at {size}"
    bands = [r for kind, r, what in m.frame.items if kind == "box" and what == "banner"]
    assert len(bands) == 1 and m.board is not None and not bands[0].colliderect(m.board), (bands, m.board)


def _panel_of(frame: textfit.Frame, rect: pygame.Rect) -> pygame.Rect:
    return min((r for kind, r, what in frame.items if kind == "box" and what == "panel" and r.contains(rect)),
               key=lambda r: r.w * r.h)


def _layout_of(app) -> tuple[dict[str, pygame.Rect], textfit.Frame]:
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    return {b.key: pygame.Rect(b.rect) for b in app.scene.buttons}, frame


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_log_gets_the_room_the_move_panels_do_not_need_and_nothing_moves_under_the_mouse(
        size: tuple[int, int], ctx: dict) -> None:
    """The "your move" panel keeps the lines it shows and two for a refusal's notice, not three empty ones and a
    second head line; the choices pane holds no empty row (issue 34: a pane mostly empty over a log of four
    lines). Within the person's turn neither moves: a refusal's notice leaves every button where it was, and a
    choice that changes how many choices there are moves none above them."""
    app = App(size)
    SCENES["catan"](app, ctx)
    app.step([], 16)
    table = app.scene
    before, frame = _layout_of(app)
    resign = before["action:resign"]
    status = _panel_of(frame, resign)
    px = app.px(20)
    assert status.bottom - resign.bottom <= 2 * px + 24, f"{status.bottom - resign.bottom} px under the buttons"
    tokens = [rect for key, rect in before.items() if key.startswith("token:")]
    choices = _panel_of(frame, tokens[0])
    assert choices.bottom - max(r.bottom for r in tokens) <= 16, "an empty row in the choices pane"
    log = table.chronicle.log.rect
    assert log.y > choices.bottom and log.h >= 4 * px, f"the log is {log.h} px high"

    table.say("a refusal in words: this choice is not possible now because of a long enough reason")
    said, frame = _layout_of(app)
    assert said == before, "a notice moved a button"
    assert any("a refusal" in words for kind, _, words in frame.items if kind == "text")

    play = next(key for key in before if key == "token:play")
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=before[play].center, button=1)], 16)
    chosen, frame = _layout_of(app)
    assert table.builder.tokens == ["play"], table.builder.tokens
    assert all(chosen[key] == rect for key, rect in before.items() if key.startswith("action:")), "a button moved"
    assert _panel_of(frame, chosen["undo"]).y == choices.y, "the choices pane moved"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["lobby", "stats", "rules-catan"])
def test_a_pages_top_buttons_keep_their_margins(name: str, size: tuple[int, int], ctx: dict) -> None:
    """The buttons at a page's top right sit as the lobby's do: the rightmost flush with the panels' right edge,
    all at least 16 px (`HEADER_GAP`) above the panels (issue 34: the statistics page's "back" sat 4 px inside
    the panels' edge, the rules page's 10 px over its page). Measured on the pictures of the test above."""
    m = layoutkit.measure(name, size, ctx, shot=True)
    panels = [r for kind, r, what in m.frame.items if kind == "box" and what == "panel"]
    top = min(r.y for r in panels)
    header = [r for kind, r, what in m.frame.items if kind == "box" and what == "button" and r.bottom <= top]
    assert header, f"{name}: no button above the panels"
    assert max(r.right for r in header) == max(r.right for r in panels) == size[0] - EDGE, (header, panels)
    assert all(r.y >= EDGE and top - r.bottom >= HEADER_GAP for r in header), (header, top)


def test_the_viewers_caption_gives_a_long_account_the_lines_it_needs() -> None:
    """Above the viewer's board a position's account reads whole: in two lines a size smaller where one is not
    enough, in more at 12 px where even two are not (a barbarian attack's, issue 34), never cut."""
    pygame.display.init()
    pygame.font.init()
    attack = ("move 356: Random-1 rolls 3 (red 1, white 2); event die: ship; Nothing is produced on 3; The barbarians "
              "attack: 2 cities against 2 knight strength (smart-0 1 and smart-2 1); Catan is saved: smart-2 and "
              "smart-0 tie and each pick a progress card")
    for text, most in ((attack, 4), ("the end: Smart-2 won with 13 victory points (13 to win)", 2)):
        size, lines = ViewerScene._caption_lines(text, 18, 640)
        assert 1 <= len(lines) <= most and not any("…" in line for line in lines), lines
        assert " ".join(lines) == text and all(theme.font(size, True).size(line)[0] <= 640 for line in lines)


def test_the_viewers_board_keeps_its_place_as_the_replay_steps_on(ctx: dict) -> None:
    """The caption above the viewer's board is as high at every position (its longest account's lines), so
    the board never jumps while the replay steps on, at the start, a barbarian attack or the end."""
    app = App(SIZES[0])
    stepper = layoutkit.loaded(ctx["catan-ck"])
    app.push(ViewerScene(stepper))
    boards = set()
    for position in (-1, stepper.count // 3, stepper.count // 2, stepper.count - 1):
        stepper.seek(position)
        app.step([], 16)
        boards.add(tuple(app.scene.board_rect))
    assert len(boards) == 1, boards


def test_the_measures_can_fail() -> None:
    """A cut label and a text under 12 px are reported (the recorder itself is not a formality); a text
    asked of `theme.font` small is set at the floor, 12 px high in truth, and a symbol keeps its size."""
    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface((300, 100))
    with textfit.recording((300, 100)) as frame:
        Button(pygame.Rect(0, 0, 60, 20), "build a city improvement").draw(surface, (0, 0), 20)
        caption = paint.text(surface, "deck 0", (0, 40), 10)
        glyph = paint.text(surface, "3", (0, 60), 9, symbol=True)
        textfit.text(pygame.Rect(0, 80, 30, 8), "a text opened at size 12", 12)   # as a font path without the floor
    assert textfit.cut(frame) and textfit.cut(frame)[0].endswith("…")
    assert textfit.small(frame, FLOOR) == [(8, "a text opened at size 12")], "pygame size 12 is 8 px high"
    assert theme.min_size() == 18 and theme.height(theme.min_size()) >= FLOOR > theme.height(theme.min_size() - 1)
    assert caption.h >= FLOOR and glyph.h < FLOOR, "a text is lifted to 12 px, a symbol is not"


def test_a_label_a_little_too_long_is_set_a_size_smaller_not_cut() -> None:
    pygame.display.init()
    pygame.font.init()
    text = "build a city improvement"
    width = theme.font(24).size(text)[0] - 8
    size = label_size(text, 24, width)
    assert theme.min_size() <= size < 24 and theme.font(size).size(text)[0] <= width
    assert label_size(text, 24, 10) == theme.min_size(), "never under the floor"
    long = " ".join(["word"] * 60)
    lines = wrap_lines(long, 14, 200, 2)
    assert len(lines) == 2 and lines[-1].endswith("…"), "lines left out show that they were"
    assert wrap_lines("a few words", 14, 200, 2) == ["a few words"]
    pieces = paint.broken("constitution", 24, theme.font(24).size("constitu-")[0])
    assert len(pieces) == 2 and pieces[0].endswith("-") and "".join(pieces).replace("-", "") == "constitution"


#: the main scenes, and what of a 1920x1080 window each must use (issue 34): the share of the window under its
#: panels, texts and board; the board's height as a share of the window's (None: no board); the share of
#: the board's rect its picture paints (a picture that stays small leaves the bare panel around it)
FULL_HD = {"lobby": (0.8, None, None), "catan": (0.8, 0.85, 0.7), "catan-ck": (0.8, 0.85, 0.7),
           "madagaskar": (0.8, 0.85, 0.9), "viewer-catan": (0.85, 0.72, 0.65), "stats": (0.8, None, None)}


@pytest.mark.parametrize("name", list(FULL_HD))
def test_full_hd_uses_the_space(name: str, ctx: dict) -> None:
    """At 1920x1080 the space is used: the scene's panels, texts and board cover most of the window, the board
    takes most of its height and its picture fills it, and the text a reader meets most (the median height of
    the texts that are read) is at least 1.3 times as high as at 1280x720. Measured on the pictures the test
    above drew (layoutkit keeps them), so it costs little more."""
    cover, board_h, used = FULL_HD[name]
    hd, mid = layoutkit.measure(name, SIZES[-1], ctx, shot=True), layoutkit.measure(name, SIZES[1], ctx, shot=True)
    assert layoutkit.covered(hd) >= cover, f"{name}: {layoutkit.covered(hd):.0%} of 1920x1080 used"
    if board_h is not None:
        assert hd.board is not None and hd.board.h >= board_h * SIZES[-1][1], f"{name}: the board is {hd.board}"
        assert hd.board_used >= used, f"{name}: the board's picture paints {hd.board_used:.0%} of its rect"
    big, small = layoutkit.text_height(hd.frame), layoutkit.text_height(mid.frame)
    assert big >= 1.3 * small, f"{name}: the texts are {small} px high at 1280x720 and {big} at 1920x1080"
