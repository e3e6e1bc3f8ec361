"""The Pygame application: one resizable window, a stack of scenes, a 60 fps loop that never blocks.

Scenes get events, a tick and a surface to draw on; anything slow (the network session) runs beside
the loop and is only polled. Tests drive `App.step` with synthetic events and take screenshots.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from typing import Protocol

import pygame

from client.ui import theme

log = logging.getLogger("netplay.client")


class Scene(Protocol):
    def handle(self, event: pygame.event.Event, app: App) -> None: ...

    def update(self, app: App, dt_ms: int) -> None: ...

    def draw(self, surface: pygame.Surface, app: App) -> None: ...


class App:
    def __init__(self, size: tuple[int, int] = (1280, 720), title: str = "netplay"):
        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat(350, 40)
        self.window = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(title)
        self.clock = pygame.time.Clock()
        self.scenes: list[Scene] = []
        self.running = True
        self.frames = 0
        self.fps_cap = 60

    @property
    def size(self) -> tuple[int, int]:
        return self.window.get_size()

    @property
    def scale(self) -> float:
        return theme.scale(self.size)

    def px(self, base: int) -> int:
        """A font size scaled to the window."""
        return round(base * self.scale)

    def push(self, scene: Scene) -> None:
        self.scenes.append(scene)

    def pop(self) -> None:
        if len(self.scenes) > 1:
            self.scenes.pop()
        else:
            self.running = False

    def replace(self, scene: Scene) -> None:
        if self.scenes:
            self.scenes.pop()
        self.scenes.append(scene)

    @property
    def scene(self) -> Scene:
        return self.scenes[-1]

    def step(self, events: list[pygame.event.Event] | None = None, dt_ms: int | None = None) -> None:
        """One frame: events (given, or from the queue), update, draw, flip."""
        if events is None:
            events = pygame.event.get()
        for event in events:
            if event.type == pygame.QUIT:
                self.running = False
                return
            if event.type == pygame.VIDEORESIZE:
                self.window = pygame.display.get_surface()
            scene = self.scene
            try:
                scene.handle(event, self)
            except Exception as exc:
                self.failed(scene, exc)
            if not self.running or not self.scenes:
                return
        dt = dt_ms if dt_ms is not None else self.clock.get_time()
        scene = self.scene
        try:
            scene.update(self, dt)
            self.window.fill(theme.BG)
            scene.draw(self.window, self)
        except Exception as exc:
            self.failed(scene, exc)
            self.window.fill(theme.BG)
            with contextlib.suppress(Exception):  # the error scene itself, drawn at once
                self.scene.draw(self.window, self)
        pygame.display.flip()
        self.frames += 1

    def failed(self, scene: Scene, exc: Exception) -> None:
        """A scene raised: never the end of the app. The error is logged with its traceback and shown
        in the failed scene's place; "back" leaves as the scene would (its `on_leave`), so the lobby
        and anything under it go on."""
        from client.scenes.error import ErrorScene

        if os.environ.get("NETPLAY_SCENE_ERRORS") == "raise":  # the tests: a scene's bug fails the test
            raise exc
        log.error("the %s failed", type(scene).__name__, exc_info=exc)
        where = {"TableScene": "the game table", "ViewerScene": "the replay viewer", "LobbyScene": "the lobby"}.get(
            type(scene).__name__, "this screen")
        error = ErrorScene(where, exc, getattr(scene, "on_leave", None))
        if isinstance(scene, ErrorScene) or scene not in self.scenes:
            return
        if len(self.scenes) > 1 and self.scenes[0] is not scene:
            self.scenes[self.scenes.index(scene):] = [error]
        else:
            self.scenes.append(error)  # the bottom scene stays under it: "back" returns to it

    def run(self, max_frames: int | None = None) -> None:
        while self.running and self.scenes and (max_frames is None or self.frames < max_frames):
            self.step()
            self.clock.tick(self.fps_cap)
        pygame.display.quit()

    def screenshot(self, path: str | os.PathLike) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.window, str(path))
        return path
