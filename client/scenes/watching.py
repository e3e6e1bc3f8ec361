"""Watching a live LAN game from the lobby: the spectator's session (netplay/watcher.py) stepped in the UI's
own loop, and the replay viewer over the spectator's copy as it grows.

Why the viewer over the copy: a spectator sees exactly what its copy holds, the signed frames the host let go
(the delay behind the players) and checked as they came; the viewer already draws a replay in its public view
("spectator") with the game's own words, the timeline and the verdict, and a copy is a replay that
`netplay replay verify` audits. So the picture is the copy read back (at most once a second, when frames came),
and it stays at the newest position unless the person stepped back to look at an earlier one.

Beside the copy, what the host said of the table with the frames (netplay/protocol/watching.py, the `table`
message): each seat's clock, beside its name in the side panel, the seat to move lit and counted down, and the
players' chat (when the game's terms let spectators hear it), its newest lines under the seats. Both are as late
as the frames, and the host's unsigned word: shown, never in the copy.

Nothing here can act: the spectator's session sends the host nothing but `watch`, `want` and `bye`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pygame

from client.scenes.viewer import ViewerScene
from client.ui import theme
from client.ui.clocks import clock_text
from client.ui.widgets import Button, draw_text, fit, panel, wrap
from replays.stepping import Stepper

CHAT_SHOWN = 4      # the newest chat lines shown under the seats
REFRESH_S = 1.0     # the copy is read back at most this often while frames come (a Catan game: ~0.1 s a read)
POLLS = 32          # transport polls per UI update at most (each takes what has come, without waiting)


class WatchScene:
    """A spectator's table: "waiting for the game" until the header comes, then the viewer, following."""

    def __init__(self, session: Any, address: str, on_close: Any = None):
        self.session = session            # a netplay.watcher.WatchSession, connected
        self.address = address
        self.on_close = on_close          # told (path, outcome message) when the person leaves or it ends
        self.viewer: ViewerScene | None = None
        self.lines: list[str] = []        # what the session said (the host's moves in words, its refusals)
        self.frames = 0                   # frames in the viewer's copy as last read
        self.read_at = -1e9
        self.closed = False
        self.message = ""                 # the outcome, once the watch ended
        self.buttons: list[Button] = []

    # ------------------------------------------------------------------ the session
    def _step(self) -> None:
        session = self.session
        if self.closed or session.transport is None:
            return
        machine = session.machine
        for _ in range(POLLS):
            held = machine.held
            session.step(self.lines.append, timeout_ms=0)
            if machine.outcome is not None or machine.held == held:
                break
        del self.lines[:-200]
        if machine.outcome is not None:
            self.message = machine.outcome.message
            session.close()
            self.closed = True

    def _read(self, force: bool = False) -> None:
        """The copy read back into the viewer when frames came (at most once a `REFRESH_S`, or at the end)."""
        path, held = self.session.path, self.session.machine.held
        now = time.monotonic()
        if path is None or held == self.frames or not (force or now - self.read_at >= REFRESH_S):
            return
        self.read_at = now
        try:
            stepper = Stepper.load(path)
        except (OSError, ValueError) as exc:
            self.lines.append(f"the copy could not be read back: {exc}")
            return
        following = self.viewer is None or self.viewer.st.position >= self.viewer.st.count - 1
        title = f"Watching: {stepper.game.title}"     # the side panel names the seats; the status goes under it
        # the public view while the game runs ("revealed" only once the copy holds every seed: a set-up with no
        # secret yet would be called "every secret revealed"); a seat's view stays if the person chose one
        wanted = "spectator" if self.viewer is None else self.viewer.st.mode
        if wanted == "revealed" and not (stepper.revealed_known and stepper.final() is not None):
            wanted = "spectator"
        if wanted != stepper.mode:
            stepper.set_mode(wanted)
        if self.viewer is None:
            self.viewer = ViewerScene(stepper, title)
        else:
            old = self.viewer.st
            if not following:
                stepper.seek(min(old.position, stepper.count - 1))
            self.viewer.st, self.viewer._cache, self.viewer._chronicles = stepper, None, {}
        self.frames = stepper.count

    def leave(self, app) -> None:
        if not self.closed:
            self.session.close()
            self.closed = True
        if self.on_close is not None:
            self.on_close(self.session.path, self.message or "you stopped watching")
        app.pop()

    # ------------------------------------------------------------------ scene
    def handle(self, event: pygame.event.Event, app) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.leave(app)
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.buttons:
                if button.hit(event.pos):
                    self.leave(app)
                    return
        if self.viewer is not None:
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                hit = next((b for b in self.viewer.buttons if b.hit(event.pos)), None)
                if hit is not None and hit.key in ("close", "fork"):
                    if hit.key == "close":
                        self.leave(app)
                    return      # "play on from here" is for a finished replay, from the lobby's list
            self.viewer.handle(event, app)

    def update(self, app, dt_ms: int) -> None:
        self._step()
        self._read(force=self.closed)
        if self.viewer is not None:
            self._table(self.viewer)
            self.viewer.update(app, dt_ms)

    def _table(self, viewer: ViewerScene) -> None:
        """The status under the title, the clocks beside the seats and the chat under them, as the host said them
        (whole seconds: a picture a second while a clock runs)."""
        machine = self.session.machine
        outcome = machine.outcome
        colour = theme.ACCENT if not self.message else theme.GOOD if outcome and outcome.code == 0 else theme.BAD
        viewer.subtitle = (self.status(), colour)
        viewer.seat_notes = {c.seat: (clock_text(c.left_s), c.running)
                             for c in machine.seat_clocks(time.monotonic()) if c.left_s is not None}
        names = [name for _, name in machine.header.seats] if machine.header is not None else []
        viewer.side_lines = [f"{names[line.seat] if 0 <= line.seat < len(names) else 'someone'}: {line.text}"
                             for line in machine.chat[-CHAT_SHOWN:]]

    def frame_key(self, app) -> tuple:
        inner = self.viewer.frame_key(app) if self.viewer is not None else ()
        return inner, self.frames, self.closed, self.message, len(self.lines)

    def status(self) -> str:
        """One line: where the watch stands (the band over the viewer says it)."""
        machine = self.session.machine
        header = machine.header
        if self.message:
            return f"the watch ended: {self.message}"
        if header is None:
            return (f"connected to {self.address}: waiting for the game to start (the host sends it when every "
                    "seat is taken)")
        delay = header.spectating.delay if header.spectating is not None else 0
        return f"watching live: {machine.held} frames so far, shown {delay} frame(s) behind the players"

    def draw(self, surface: pygame.Surface, app) -> None:
        w, h = surface.get_size()
        px = app.px(20)
        self.buttons = []
        if self.viewer is None:
            surface.fill(theme.BG)
            box = pygame.Rect(40, 40, w - 80, h - 80)
            inner = panel(surface, box, f"watching {self.address}", px)
            y = inner.y
            for line in wrap(self.status(), px, inner.w):
                draw_text(surface, line, (inner.x, y), px, theme.TEXT)
                y += px + 4
            for line in self.lines[-8:]:
                draw_text(surface, fit(line, px - 2, inner.w), (inner.x, y), px - 2, theme.MUTED)
                y += px + 2
            self.buttons.append(Button(pygame.Rect(inner.right - 120, inner.bottom - px - 14, 120, px + 14),
                                       "stop", "stop"))
            mouse = pygame.mouse.get_pos()
            for button in self.buttons:
                button.draw(surface, mouse, px - 2)
            return
        self._table(self.viewer)     # (the viewer draws the status under its title: `_table`)
        self.viewer.draw(surface, app)


def copy_words(path: Path | None) -> str:
    """Where the copy is, as the lobby says it when the watch ends."""
    return f"the copy is {path.name} (replay list)" if path is not None else "no copy was written"
