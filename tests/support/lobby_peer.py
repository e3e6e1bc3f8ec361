"""A person at the Pygame lobby, in a process of its own (tests/test_readme_commands.py runs two, usually
inside a network namespace): the real lobby (client.app.App + client.scenes.lobby.LobbyScene, LAN
discovery on) driven by synthetic events and clicks, headless (SDL's dummy drivers).

    python tests/support/lobby_peer.py host GAME      # picks GAME, clicks "host on the LAN", plays its seat
    python tests/support/lobby_peer.py join GAME [--screenshot OUT.png]
                                                      # waits until GAME is in the LAN list, clicks its "join"
    python tests/support/lobby_peer.py watch GAME [--screenshot OUT.png]
                                                      # waits until GAME is under way in the list, clicks "watch"

Both then play their seat by clicks (tests/support/clickplay.py) to the end of the game, and leave the
table.
The configuration directory is $NETPLAY_HOME, as for `netplay`; the replay goes where the lobby puts it.

Prints JSON lines: {"event": "lobby"} once drawn; the host {"event": "hosting", "addresses": [...]};
the joiner {"event": "found", "hosts": [...]} when the game is listed, {"event": "screenshot", "path": P};
both {"event": "table"}, {"event": "over", "result": ..., "moves": N}, {"event": "left", "replay": P}; a spectator
{"event": "found"}, {"event": "watching"} once its table follows the game, {"event": "watched", "copy": P,
"code": N, "message": ...} when the watch ended;
and {"event": "error", "message": ...} (then exit status 1). Every wait is bounded by --cpu seconds of
this process's CPU, or --wall seconds on the clock (a hang). {"quit": true} on stdin ends it early.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("NETPLAY_SCENE_ERRORS", "raise")   # a scene's bug ends this peer with its traceback

# run by path: the repository root and tests/ (for `from support.x import ...`) go first on the path
TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

import pygame  # noqa: E402

from client.app import App  # noqa: E402
from client.scenes.hosting import HostingScene  # noqa: E402
from client.scenes.lobby import LobbyScene  # noqa: E402
from client.scenes.table import TableScene  # noqa: E402
from client.scenes.watching import WatchScene  # noqa: E402
from support.clickplay import _button, _click, _play_one  # noqa: E402


def emit(**obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


class Stop(Exception):
    """Out of CPU or time, or told to quit."""


class Clock:
    """This peer's bounds: `cpu` seconds of its own CPU, `wall` seconds on the clock, a quit command."""

    def __init__(self, cpu: float, wall: float):
        self.cpu_end = time.process_time() + cpu
        self.wall_end = time.monotonic() + wall
        self.commands: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in sys.stdin:
            if line.strip():
                self.commands.put(json.loads(line))

    def check(self, what: str) -> None:
        if time.process_time() > self.cpu_end:
            raise Stop(f"out of CPU while {what}")
        if time.monotonic() > self.wall_end:
            raise Stop(f"out of time on the clock while {what}")
        try:
            if self.commands.get_nowait().get("quit"):
                raise Stop(f"told to quit while {what}")
        except queue.Empty:
            pass


def wait_for(app: App, clock: Clock, what: str, done: Callable[[], bool]) -> None:
    """Step the app (drawing only when a picture is due, as the real loop does) until `done()`."""
    while not done():
        clock.check(what)
        app.step([], 16, lazy=True)
        time.sleep(0.01)


def lobby_button(lobby: LobbyScene, key: str) -> pygame.Rect:
    rect = next((b.rect for b in lobby.buttons if b.key == key and b.enabled), None)
    if rect is None:
        raise AssertionError(f"no enabled lobby button {key!r}; there are {[b.key for b in lobby.buttons]}")
    return rect


def host(app: App, lobby: LobbyScene, clock: Clock, game_id: str) -> None:
    index = next(i for i, g in enumerate(lobby.games) if g.id == game_id)
    _click(app, lobby_button(lobby, f"game:{index}").center)
    if lobby.game.id != game_id or lobby.roles != ["me", "open"]:
        raise AssertionError(f"the lobby set up {lobby.game.id} with seats {lobby.roles}")
    _click(app, lobby_button(lobby, "host:").center)
    hosting = app.scene
    if not isinstance(hosting, HostingScene):
        raise AssertionError(f"no hosting screen after the click: {lobby.message}")
    emit(event="hosting", addresses=hosting.addresses, note=hosting.note)


def join(app: App, lobby: LobbyScene, clock: Clock, game_id: str, screenshot: str | None) -> None:
    def listed() -> list:
        with lobby._lock:
            return [h for h in lobby.hosts if h.game == game_id and h.free_seats > 0]

    wait_for(app, clock, f"waiting for {game_id} in the LAN list", lambda: bool(listed()))
    found = listed()
    app.step([], 16)          # drawn now: the row and its join button
    emit(event="found", hosts=[{"name": h.host_name, "address": h.address, "words": h.words, "terms": h.terms}
                               for h in found])
    if screenshot:
        emit(event="screenshot", path=str(app.screenshot(screenshot)))
    _click(app, lobby_button(lobby, f"join:{found[0].address}").center)
    if lobby.joining is None and not isinstance(app.scene, TableScene):
        raise AssertionError(f"the join did not start: {lobby.message}")


def watch(app: App, lobby: LobbyScene, clock: Clock, game_id: str, screenshot: str | None) -> None:
    """Wait until GAME is under way in the LAN list (no seat free, places to watch), click its "watch", follow it
    to the end, then leave the spectator's table."""
    def listed() -> list:
        with lobby._lock:
            return [h for h in lobby.hosts if h.game == game_id and h.watch > 0 and h.free_seats == 0]

    wait_for(app, clock, f"waiting for {game_id} under way in the LAN list", lambda: bool(listed()))
    found = listed()
    app.step([], 16)
    emit(event="found", hosts=[{"name": h.host_name, "address": h.address, "watch": h.watch} for h in found])
    _click(app, lobby_button(lobby, f"watch:{found[0].address}").center)
    wait_for(app, clock, "waiting for the spectator's table", lambda: isinstance(app.scene, WatchScene)
             or (lobby.joining is None and bool(lobby.message) and not lobby.message_ok))
    scene = app.scene
    if not isinstance(scene, WatchScene):
        raise AssertionError(f"no spectator's table: {lobby.message}")
    wait_for(app, clock, f"waiting for the game's frames ({scene.status()})",
             lambda: scene.viewer is not None or scene.closed)
    emit(event="watching", frames=scene.frames, status=scene.status())
    if screenshot:
        app.step([], 16)
        emit(event="screenshot", path=str(app.screenshot(screenshot)))
    wait_for(app, clock, "watching the game to its end", lambda: scene.closed)
    app.step([], 16)
    outcome = scene.session.machine.outcome
    emit(event="watched", copy=str(scene.session.path), code=outcome.code if outcome else None,
         message=scene.message, frames=scene.frames)
    scene.leave(app)


def play(app: App, lobby: LobbyScene, clock: Clock, seed: int) -> None:
    wait_for(app, clock, "waiting for the table", lambda: isinstance(app.scene, TableScene)
             or (lobby.joining is None and bool(lobby.message) and not lobby.message_ok))
    table = app.scene
    if not isinstance(table, TableScene):
        raise AssertionError(f"no table: {lobby.message}")
    emit(event="table", seat=table.ctl.seat)
    rng = random.Random(seed)
    stats = {"board": 0, "button": 0}
    moves = 0
    while table.ctl.result() is None:
        clock.check(f"playing ({moves} moves so far; {table.ctl.status()})")
        app.step([], 16, lazy=True)
        if table.builder.candidates():
            _play_one(app, table, rng, stats)
            moves += 1
        else:
            time.sleep(0.005)
    session = table.ctl.session
    # the game's last frames (the result every seat signs) may still be on their way: the ledger closes
    # complete before anyone leaves, as a person would see the end screen before leaving it
    wait_for(app, clock, "waiting for the game to close",
             lambda: session.phase == "over" or session.outcome is not None)
    result = table.ctl.result()
    emit(event="over", result=str(result), moves=moves, clicks=stats, phase=session.phase)
    app.step([], 16)
    path = table.ctl.replay_path
    leave = _button(table, "leave")
    if leave is None:
        raise AssertionError(f"no leave button at the end: {[b.key for b in table.buttons]}")
    _click(app, leave.center)
    wait_for(app, clock, "leaving the table", lambda: app.scene is lobby)
    emit(event="left", replay=path)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=("host", "join", "watch"))
    parser.add_argument("game")
    parser.add_argument("--screenshot", default=None)
    parser.add_argument("--cpu", type=float, default=90.0, help="CPU seconds this peer may spend")
    parser.add_argument("--wall", type=float, default=400.0, help="seconds on the clock (a hang's cap)")
    args = parser.parse_args()
    clock = Clock(args.cpu, args.wall)
    app = App((1280, 720))
    lobby = LobbyScene(browse=True)      # the replays go to $NETPLAY_HOME/replays; LAN discovery on
    try:
        app.push(lobby)
        app.step([], 16)
        emit(event="lobby", discovery=lobby.browser is not None, message=lobby.message)
        if args.role == "watch":
            watch(app, lobby, clock, args.game, args.screenshot)
            return 0
        if args.role == "host":
            host(app, lobby, clock, args.game)
        else:
            join(app, lobby, clock, args.game, args.screenshot)
        play(app, lobby, clock, seed=0 if args.role == "host" else 1)
        return 0
    except Exception as exc:
        emit(event="error", message=f"{type(exc).__name__}: {exc}", traceback=traceback.format_exc())
        return 1
    finally:
        while len(app.scenes) > 1:       # a table or the hosting screen left open: close its session
            scene = app.scene
            on_leave = getattr(scene, "on_leave", None) or getattr(scene, "on_cancel", None)
            if on_leave is None:
                break
            try:
                on_leave(app)
            except Exception:
                break
        lobby.close()
        pygame.display.quit()


if __name__ == "__main__":
    sys.exit(main())
