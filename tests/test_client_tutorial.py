"""The tutorials in the window, headless: the lobby's "tutorial" button opens the list and a tutorial's
table, and leaving goes back to the lobby; the Catan tutorial played by clicks and keys through its first
lessons, and each other family's to its first steps, with screenshots at 1024x600, 1280x720 and
1920x1080 (tests/artifacts/tutorial-*.png, every text checked against its box); the coach hidden and
shown again, the bots held while a note is open, and every page of every lesson whole in the coach's
box at the three sizes, even with the choices taking all the room they may."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere

import random

import pygame
import pytest
from support.clickplay import SIZES, _button, _click, _play_one, drawn_texts, fits, shots

from client.app import App
from client.scenes.lobby import LobbyScene
from client.scenes.tutorial import TutorialsScene, TutorialTable
from client.tutorial.catalogue import TUTORIALS, tutorial
from client.tutorial.lesson import Kind
from client.ui import theme
from client.ui.widgets import wrap

BOT_MS = 2000    # one step of the app this long lets a waiting bot move


def _key(app: App, key: int) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="")], 16)


def _press(app: App, table, key: str) -> None:
    rect = _button(table, key)
    assert rect is not None, f"no button {key!r}: {[b.key for b in table.buttons]}"
    _click(app, rect.center)


def _lesson(table) -> str | None:
    lesson = table.coach.lesson
    return lesson.key if lesson is not None else None


def _read(app: App, table) -> None:
    """Click "next" until the lesson shown is done."""
    key = _lesson(table)
    while key is not None and _lesson(table) == key:
        _press(app, table, "coach:next")


def _until_mine(app: App, table, steps: int = 60) -> None:
    """Let the bots play (each step as long as a bot's wait) until the person has a choice."""
    for _ in range(steps):
        if table.builder.candidates() and not table.coach.holding:
            return
        if table.coach.holding:
            _read(app, table)
        app.step([], BOT_MS)
    raise AssertionError(f"still not the person's turn: {table.ctl.status()}")


def _open(key: str, size=(1280, 720)) -> tuple[App, TutorialTable]:
    app = App(size)
    table = TutorialTable(tutorial(key))
    app.push(table)
    app.step([], 16)
    app.step([], 16)
    return app, table


def test_the_lobby_opens_the_tutorials_and_leaving_goes_back(home) -> None:
    app = App((1024, 600))
    lobby = LobbyScene(home / "replays", browse=False)
    app.push(lobby)
    app.step([], 16)
    shots(app, "tutorial-lobby")
    _press(app, lobby, "tutorial:")
    assert isinstance(app.scene, TutorialsScene)
    shots(app, "tutorial-list")
    assert any(t.title in " ".join(drawn_texts(app)) for t in TUTORIALS)
    _key(app, pygame.K_ESCAPE)                       # the list's Esc: the lobby again
    assert app.scene is lobby
    _press(app, lobby, "tutorial:")
    rect = next(r for r, t in app.scene.rows if t.key == "catan")
    _click(app, rect.center)
    table = app.scene
    assert isinstance(table, TutorialTable) and table.ctl.game.id == "catan" and _lesson(table) == "welcome"
    _key(app, pygame.K_ESCAPE)                       # the table's Esc asks first, and says what leaving means
    assert table.confirm == "leave" and "back to the lobby" in " ".join(drawn_texts(app))
    _key(app, pygame.K_y)
    assert app.scene is lobby and len(app.scenes) == 1


def test_the_catan_tutorial_by_clicks_through_its_first_lessons() -> None:
    app, table = _open("catan")
    rng = random.Random(2)
    stats = {"board": 0, "button": 0}
    assert _lesson(table) == "welcome" and table.coach.holding
    shots(app, "tutorial-catan-welcome")
    _read(app, table)
    assert _lesson(table) == "settle-first"
    shots(app, "tutorial-catan-settle")           # the board outlined; the coach under the choices
    _play_one(app, table, rng, stats)              # a lit corner, clicked
    assert _lesson(table) == "road-first" and table.ctl.view()["step"] == "setup-road"
    _play_one(app, table, rng, stats)
    assert "road-first" in table.coach.told and "road-first" not in [lesson.key for lesson in table.coach.queue]
    _until_mine(app, table)
    assert _lesson(table) == "numbers" and table.ctl.view()["step"] == "setup-settle"
    shots(app, "tutorial-catan-numbers")
    _play_one(app, table, rng, stats)
    _play_one(app, table, rng, stats)
    _until_mine(app, table)
    assert _lesson(table) == "roll"
    _key(app, pygame.K_RETURN)                     # Enter plays the one action: the roll
    assert table.ctl.view()["step"] == "main" and _lesson(table) == "collect"
    shots(app, "tutorial-catan-collect")
    _read(app, table)
    assert _lesson(table) == "build"
    shots(app, "tutorial-catan-build")             # the choices outlined
    assert stats["board"] >= 4                     # settlements and roads were clicked on the board


@pytest.mark.parametrize("key, lessons", [
    ("catan-ck", ["welcome", "setup-city"]),
    ("kidd", ["welcome", "enter", "step"]),
    ("ebbe-flut", ["welcome", "opening", "place"]),
    ("ploc", ["welcome", "reroll", "actions"]),
    ("turning-tides", ["welcome", "pick", "sailor"]),
])
def test_each_family_tutorial_reaches_its_first_lessons(key: str, lessons: list[str]) -> None:
    app, table = _open(key)
    rng = random.Random(4)
    stats = {"board": 0, "button": 0}
    met, shot = [_lesson(table)], False
    for _ in range(80):
        if met[:len(lessons)] == lessons and shot:
            break
        lesson = table.coach.lesson
        if lesson is not None and lesson.kind is Kind.NOTE:
            _read(app, table)
        elif table.builder.candidates():
            if lesson is not None and not shot:     # the family's first step lesson, at the three sizes
                shots(app, f"tutorial-{key}")
                shot = True
            _play_one(app, table, rng, stats)
        else:
            app.step([], BOT_MS)
        now = _lesson(table)
        if now is not None and now != met[-1]:
            met.append(now)
    assert shot
    assert met[:len(lessons)] == lessons, met


def test_the_coach_hides_and_shows_again() -> None:
    app, table = _open("catan")
    _press(app, table, "coach:hide")
    assert table.coach.lesson is None and not table.coach.holding
    assert "show coach (2 to read)" in drawn_texts(app)
    _press(app, table, "coach:show")
    assert _lesson(table) == "welcome"
    fits(app, "tutorial-catan-shown-again")


def test_the_bots_wait_while_a_note_is_open() -> None:
    app, table = _open("catan")
    rng = random.Random(2)
    stats = {"board": 0, "button": 0}
    _play_one(app, table, rng, stats)      # the settlement and the road, the welcome still open
    _play_one(app, table, rng, stats)
    assert _lesson(table) == "welcome" and not table.builder.candidates()
    moves = len(table.ctl.log)
    for _ in range(5):
        app.step([], BOT_MS)
    assert len(table.ctl.log) == moves and "(the bots wait until you have read this)" in drawn_texts(app)
    while table.coach.holding:     # the welcome, and what came after it (the settlement may be on a harbour)
        _read(app, table)
    for _ in range(3):
        app.step([], BOT_MS)
    assert len(table.ctl.log) > moves


@pytest.mark.parametrize("size", SIZES)
def test_every_page_is_whole_in_the_coach_at_each_size(size) -> None:
    """With the choices as tall as they may be (a third of the side), every page of every lesson shows all
    its lines uncut at a size near the table's own (not below it by more than 4 pixels)."""
    pygame.display.init()
    for t in TUTORIALS:
        app, table = _open(t.key, size)
        rooms: list[tuple[int, int, int]] = []
        plain = table.aside_height

        def measured(width, px, room, plain=plain, rooms=rooms):
            rooms.append((width, px, room))
            return plain(width, px, room)

        table.aside_height = measured
        table._actions_height = lambda side, px: int(side.h * 0.34)
        app.step([], 16)
        width, px, room = rooms[-1]
        for key in t.syllabus.keys:
            lesson = t.syllabus.lesson(key)
            for page in range(len(lesson.pages)):
                table.coach.queue, table.coach.page = [lesson], page
                laid = table._laid_out(width, px, room)
                assert laid is not None and laid.px >= px - 4, (t.key, key, page, laid)
                assert theme.height(theme.font_size(laid.px)) >= theme.MIN_TEXT, "12 px text (issue 34)"
                lines = list(laid.lines)
                for part in range(1, laid.parts):   # a page longer than the room: in parts, "more" turns them
                    table._part = (table._part[0], part)
                    lines += table._laid_out(width, px, room).lines
                assert lines == wrap(lesson.pages[page], laid.px, width - 24), (t.key, key, page)
                assert not any(line.endswith("…") for line in lines), (t.key, key, page)
