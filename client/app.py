"""The Pygame application: one resizable window, a stack of scenes, a 60 fps loop that never blocks.

Scenes get events, a tick and a surface to draw on; anything slow (the network session) runs beside
the loop and is only polled. Tests drive `App.step` with synthetic events and take screenshots.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

import pygame

from client.ui import theme


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
            self.scene.handle(event, self)
            if not self.running or not self.scenes:
                return
        dt = dt_ms if dt_ms is not None else self.clock.get_time()
        self.scene.update(self, dt)
        self.window.fill(theme.BG)
        self.scene.draw(self.window, self)
        pygame.display.flip()
        self.frames += 1

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
