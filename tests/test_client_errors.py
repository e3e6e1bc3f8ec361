"""A scene's exception never takes the app down (issue 27, item 1): it is shown in the failed scene's
place, logged with its traceback, and "back" returns to what was under it (the lobby survives)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import logging

import pygame
import pytest

from client.app import App
from client.scenes.error import ErrorScene
from client.scenes.lobby import LobbyScene
from client.ui import textfit


class Broken:
    """A scene that fails where told: in handle, update or draw."""

    def __init__(self, where: str):
        self.where = where
        self.left = False

    def handle(self, event, app):
        if self.where == "handle":
            raise KeyError("a token the renderer does not know")

    def update(self, app, dt_ms):
        if self.where == "update":
            raise ValueError("deck 'development' epoch 0: the engine says 19 cards are left, the driver holds 25")

    def draw(self, surface, app):
        if self.where == "draw":
            raise ZeroDivisionError("division by zero")


@pytest.fixture
def shown(monkeypatch):
    monkeypatch.delenv("NETPLAY_SCENE_ERRORS", raising=False)


def _key(key):
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="")


@pytest.mark.parametrize("where", ["handle", "update", "draw"])
def test_a_failing_scene_is_replaced_by_its_error_and_the_lobby_survives(where, shown, tmp_path, caplog):
    app = App((1024, 600))
    lobby = LobbyScene(tmp_path, browse=False)
    app.push(lobby)
    broken = Broken(where)
    app.push(broken)
    with caplog.at_level(logging.ERROR, logger="netplay.client"):
        app.step([_key(pygame.K_a)], 16)
    assert app.running and app.scenes[0] is lobby and broken not in app.scenes
    assert isinstance(app.scene, ErrorScene)
    assert any(r.exc_info for r in caplog.records), "the traceback is logged"
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    texts = " ".join(words for kind, _, words in frame.items if kind == "text")
    assert "Something went wrong" in texts and {"handle": "KeyError", "update": "ValueError",
                                                 "draw": "ZeroDivisionError"}[where] in texts
    assert not textfit.problems(frame)
    app.screenshot(tmp_path / f"error-{where}.png")
    app.step([_key(pygame.K_ESCAPE)], 16)
    assert app.scene is lobby and app.running


def test_back_leaves_as_the_failed_scene_would(shown, tmp_path):
    app = App((1280, 720))
    lobby = LobbyScene(tmp_path, browse=False)
    app.push(lobby)
    broken = Broken("update")
    closed = []

    def leave(app):
        closed.append(True)   # a networked table closes its session here
        app.pop()

    broken.on_leave = leave
    app.push(broken)
    app.step([], 16)
    error = app.scene
    assert isinstance(error, ErrorScene)
    button = error.buttons[0]
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=button.rect.center)], 16)
    assert closed == [True] and app.scene is lobby


def test_the_bottom_scene_failing_keeps_the_app_open(shown):
    app = App((1280, 720))
    broken = Broken("handle")
    app.push(broken)
    app.step([_key(pygame.K_a)], 16)
    assert app.running and app.scenes[0] is broken and isinstance(app.scene, ErrorScene)
    app.step([_key(pygame.K_RETURN)], 16)
    assert app.scene is broken and app.running


def test_in_the_tests_a_scene_error_is_raised():
    app = App((640, 480))
    app.push(Broken("draw"))
    with pytest.raises(ZeroDivisionError):
        app.step([], 16)
