"""The Pygame application: one resizable window, a stack of scenes, a loop that never blocks and that
draws only when the picture changes.

Scenes get events, a tick and a surface to draw on; anything slow (the network session) runs beside
the loop and is only polled. Tests drive `App.step` with synthetic events and take screenshots.

Idle is idle: a window at rest (the lobby, a table waiting on another player, a replay at rest) must
not keep a core busy redrawing the same picture (a laptop's fan and battery). So `run` looks at the
input every `INPUT_POLL_MS`, lets the scene poll the world every `POLL_MS`, and draws only when input
arrived, when the scene's `frame_key` changed (what the picture depends on besides input: a move of
another seat, a replay's autoplay) or its `still_key` (a clock's second), or while the scene says something moves by
itself (`frame_ms`: a breathing highlight, a card turning over), at that scene's low rate. A picture
is also drawn for a second after any change of `frame_key`, so that a renderer's short animations (a
ship gliding) finish; a change of the scene's `still_key` (what changes on the picture without anything
on it moving: a clock's seconds, a countdown) draws one picture and starts no such second, or a clock
ticking at a waiting table would keep the window at the animation rate for ever; and once every
`REFRESH_MS` in any case, so a scene that forgot to say what it depends on is never stale for long.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Hashable
from pathlib import Path
from typing import Protocol

import pygame

from client.sounds import Sounds
from client.ui import theme

INPUT_POLL_MS = 10      # how often the loop looks at the input while it waits (keys and clicks answered at once)
POLL_MS = 50            # how often a scene at rest is updated (a network move is seen within this)
FRAME_MS = 16           # at most 60 pictures a second, however much input arrives
SETTLE_MS = 1000        # after a change, pictures go on at the animation rate so renderers' animations finish
ANIMATION_MS = 50       # ... at 20 pictures a second
REFRESH_MS = 5000       # and a picture at least every 5 s, whatever the scene says
log = logging.getLogger("netplay.client")


class Scene(Protocol):
    def handle(self, event: pygame.event.Event, app: App) -> None: ...

    def update(self, app: App, dt_ms: int) -> None: ...

    def draw(self, surface: pygame.Surface, app: App) -> None: ...

    # optional: what the picture depends on besides input (compared after each update; a change starts a
    # second at the animation rate), what changes on it without anything moving (a clock's seconds: one
    # picture per change), and how often to redraw while something on it moves by itself (None: nothing does)
    # def frame_key(self, app: App) -> Hashable: ...
    # def still_key(self, app: App) -> Hashable: ...
    # def frame_ms(self, app: App) -> int | None: ...


class App:
    def __init__(self, size: tuple[int, int] = (1280, 720), title: str = "netplay", sound: bool = True):
        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat(350, 40)
        self.window = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(title)
        self.clock = pygame.time.Clock()
        self.sounds = Sounds(enabled=sound)   # one for the window: every table plays its cues through it
        self.scenes: list[Scene] = []
        self.running = True
        self.frames = 0          # pictures drawn
        self.steps = 0           # loop iterations (updates)
        self._dirty = True       # a picture is due whatever the scene says (first frame, a new scene, a resize)
        self._key: Hashable = None
        self._still: Hashable = None     # the scene's `still_key` at the last step
        self._since_draw_ms = REFRESH_MS  # app time since the last picture (the first one is due at once)
        self._settle_ms = 0      # app time left of the animation rate after the last change
        self._last_step = time.monotonic()

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
        self._dirty = True

    def pop(self) -> None:
        if len(self.scenes) > 1:
            self.scenes.pop()
            self._dirty = True
        else:
            self.running = False

    def replace(self, scene: Scene) -> None:
        if self.scenes:
            self.scenes.pop()
        self.scenes.append(scene)
        self._dirty = True

    @property
    def scene(self) -> Scene:
        return self.scenes[-1]

    def step(self, events: list[pygame.event.Event] | None = None, dt_ms: int | None = None,
             lazy: bool = False) -> bool:
        """One iteration: events (given, or from the queue), update, and a picture: always (tests take
        screenshots after a step), or with `lazy` only when one is due (the loop of `run`). Returns
        whether a picture was drawn."""
        if events is None:
            events = pygame.event.get()
        for event in events:
            if event.type == pygame.QUIT:
                self.running = False
                return False
            if event.type == pygame.VIDEORESIZE:
                self.window = pygame.display.get_surface()
            scene = self.scene
            try:
                scene.handle(event, self)
            except Exception as exc:
                self.failed(scene, exc)
            if not self.running or not self.scenes:
                return False
        dt = dt_ms if dt_ms is not None else self.clock.get_time()
        self.steps += 1
        self._since_draw_ms += dt
        self._settle_ms = max(0, self._settle_ms - dt)
        scene = self.scene
        try:
            scene.update(self, dt)
            if events:
                self._dirty = True
            key_of = getattr(scene, "frame_key", None)
            if key_of is not None:
                key = (id(scene), key_of(self))
                if key != self._key:
                    self._key, self._dirty, self._settle_ms = key, True, SETTLE_MS
            still_of = getattr(scene, "still_key", None)
            if still_of is not None:
                still = (id(scene), still_of(self))
                if still != self._still:
                    self._still, self._dirty = still, True
        except Exception as exc:
            self.failed(scene, exc)
            self._dirty = True
        if lazy and not self._due():
            return False
        self._draw()
        return True

    def _moving_ms(self) -> int | None:
        """How often the picture must be drawn now though nothing was said to change (None: never)."""
        rates = [ANIMATION_MS] if self._settle_ms else []
        frame_ms = getattr(self.scene, "frame_ms", None)
        own = frame_ms(self) if frame_ms is not None else None
        if own:
            rates.append(max(FRAME_MS, own))
        return min(rates) if rates else None

    def _due(self) -> bool:
        if self._since_draw_ms < FRAME_MS:
            return False            # more input than a screen shows: the next picture takes it all in
        if self._dirty or self._since_draw_ms >= REFRESH_MS:
            return True
        moving = self._moving_ms()
        return moving is not None and self._since_draw_ms >= moving

    def _draw(self) -> None:
        scene = self.scene
        try:
            self.window.fill(theme.BG)
            scene.draw(self.window, self)
        except Exception as exc:
            self.failed(scene, exc)
            self.window.fill(theme.BG)
            with contextlib.suppress(Exception):  # the error scene itself, drawn at once
                self.scene.draw(self.window, self)
        pygame.display.flip()
        self.frames += 1
        self._dirty = False
        self._since_draw_ms = 0

    def wait_ms(self) -> int:
        """How long the loop may wait for input before the next iteration."""
        if self._dirty:
            return max(0, FRAME_MS - self._since_draw_ms)
        moving = self._moving_ms()
        if moving is None:
            return POLL_MS
        return max(0, min(POLL_MS, moving - self._since_draw_ms))

    def _wait(self, timeout_ms: int) -> list[pygame.event.Event]:
        """The input that arrives within `timeout_ms` (at once when some is there). Polled in short
        sleeps rather than `pygame.event.wait`, which spins a core at 1 kHz where the video driver
        cannot block (the dummy driver of tests and servers)."""
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            events = pygame.event.get()
            left = deadline - time.monotonic()
            if events or left <= 0:
                return events
            time.sleep(min(left, INPUT_POLL_MS / 1000))

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
        self._last_step = time.monotonic()
        while self.running and self.scenes and (max_frames is None or self.frames < max_frames):
            self.run_once()
        pygame.display.quit()

    def run_once(self) -> bool:
        """One iteration of `run`: wait for input (at most until the scene is due), then a lazy step.
        Returns whether a picture was drawn."""
        events = self._wait(self.wait_ms())
        now = time.monotonic()
        dt, self._last_step = round((now - self._last_step) * 1000), now
        return self.step(events, dt, lazy=True)

    def screenshot(self, path: str | os.PathLike) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.window, str(path))
        return path
