"""Issue 27, item 14: idle is idle. The window draws when its picture changes (input, another seat's
move, a clock's second, autoplay) or at a low rate while something on it moves by itself, never 60
times a second at rest. Counted, not timed: pictures drawn and loop iterations over a simulated
interval (the app's own clock, `dt_ms`), and once through the real loop, pictures and the process's
CPU time under a generous bound. The figure itself is measured by `scripts/bench idle`."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import random
import time

import pygame

import engines
from bots.lib import RandomBot
from client import app as app_module
from client.app import App
from client.controller import LocalController
from client.moves import split_actions
from client.scenes.lobby import LobbyScene
from client.scenes.table import BREATHE_FOR_MS, BREATHE_MS, TableScene
from client.scenes.viewer import ViewerScene
from client.ui import textfit
from netplay.session import SeatClock
from replays.local import record_match
from replays.stepping import Stepper

STEP_MS = 50   # the simulated time of one loop iteration (the real loop's POLL_MS at rest)


def _lazy(app: App, seconds: float, events=None) -> int:
    """Run the app lazily for `seconds` of simulated time; the pictures it drew."""
    drawn = 0
    for _ in range(round(seconds * 1000 / STEP_MS)):
        drawn += app.step(list(events or []), STEP_MS, lazy=True)
    return drawn


def _at_rest_bound(seconds: float) -> int:
    return int(seconds * 1000 / app_module.REFRESH_MS) + 1


def test_a_lobby_at_rest_draws_only_when_something_changes(home):
    app = App((1280, 720))
    lobby = LobbyScene(home / "replays", browse=False)
    app.push(lobby)
    app.step([], 16)
    _lazy(app, 2)                          # the first second's pictures (animations may settle)
    assert _lazy(app, 30) <= _at_rest_bound(30), "the lobby redraws an unchanged picture"
    assert app.wait_ms() == app_module.POLL_MS   # at rest the loop wakes 20 times a second, no more
    lobby._say("connecting to 192.0.2.1:9...")
    assert app.step([], STEP_MS, lazy=True), "a new message is drawn at once"
    moved = pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 300), rel=(1, 1), buttons=(0, 0, 0))
    assert app.step([moved], STEP_MS, lazy=True), "input is answered with a picture"
    _lazy(app, 2)
    record_match("ploc", RandomBot(), seed=1, directory=home / "replays")
    lobby._refresh_replays()
    lobby.replay_list.wait(30)
    assert app.step([], STEP_MS, lazy=True), "a new replay (and its verdict) is drawn when it comes"


def _bot_to_move(delay_ms: int) -> LocalController:
    ctl = LocalController(engines.get("madagaskar"), 0, ["random"], players=2, seed=4, bot_delay_ms=delay_ms)
    ctl.poll(0)
    ctl.submit(split_actions(ctl.legal())[0][0])
    assert not ctl.legal(), "the bot is to move"
    return ctl


def test_a_table_waiting_on_the_other_player_is_idle_and_draws_its_move_at_once():
    ctl = _bot_to_move(delay_ms=20_000)
    app = App((1280, 720))
    table = TableScene(ctl)
    app.push(table)
    app.step([], 16)
    _lazy(app, 2)
    log = len(ctl.log)
    assert _lazy(app, 15) <= _at_rest_bound(15), "a table waiting on the other player redraws"
    assert len(ctl.log) == log and app.wait_ms() == app_module.POLL_MS
    drawn_at = None
    for step in range(round(10_000 / STEP_MS)):   # the bot moves once its 20 s are over
        if app.step([], STEP_MS, lazy=True) and len(ctl.log) > log:
            drawn_at = step
            break
    assert drawn_at is not None, "the other player's move was not drawn"
    assert ctl.legal(), "the person's turn again"
    assert table.frame_ms(app) == BREATHE_MS   # now the board's highlights breathe: a low rate, not 60 fps
    _lazy(app, 3)                              # the move's outline and the renderer's animations are over
    drawn = _lazy(app, 3)
    assert 3000 // (2 * BREATHE_MS) <= drawn <= 3000 // BREATHE_MS + 1, drawn
    # issue 34, item 11: nobody touches the window: the highlights hold still after BREATHE_FOR_MS
    _lazy(app, BREATHE_FOR_MS / 1000 - 6 + 0.5)
    assert table.frame_ms(app) is None and not table.breathing()
    assert _lazy(app, 20) <= _at_rest_bound(20) + 1, "a table with its moves lit and nobody there redraws"
    assert ctl.legal(), "still the person's turn"
    moved = pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 300), rel=(1, 1), buttons=(0, 0, 0))
    assert app.step([moved], STEP_MS, lazy=True) and table.frame_ms(app) == BREATHE_MS, "input: they breathe again"


class _TimedController(LocalController):
    """A table whose other seat's move clock runs down by the app's simulated time (the session's clock,
    netplay.session.SeatClock, as a network table has it)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.elapsed_ms = 0

    def poll(self, now_ms: int) -> None:
        self.elapsed_ms = now_ms
        super().poll(now_ms)

    def clocks(self) -> list[SeatClock]:
        return [SeatClock(0, 1200 - self.elapsed_ms / 1000, True, 600 - self.elapsed_ms / 1000),
                SeatClock(1, 1200.0, False)]


def test_a_table_whose_clock_runs_draws_a_picture_a_second_not_an_animation():
    """The running clock changes its seconds: one picture each, not the animation rate a move starts (the
    clock's second kept a waiting table at 17 pictures a second, 13 % of a core)."""
    ctl = _TimedController(engines.get("madagaskar"), 0, ["random"], players=2, seed=4, bot_delay_ms=60_000)
    ctl.poll(0)
    ctl.submit(split_actions(ctl.legal())[0][0])
    assert not ctl.legal(), "the bot is to move"
    app = App((1280, 720))
    table = TableScene(ctl)
    app.push(table)
    app.step([], 16)
    _lazy(app, 2)
    shown = table._chips()
    assert shown and shown[0].running, "the other seat's clock is shown running"
    drawn = _lazy(app, 20)
    assert 19 <= drawn <= 21, f"{drawn} pictures in 20 s of a running clock: one a second is what it shows"
    assert table._chips()[0].left != shown[0].left, "the clock ran"


def test_the_viewer_at_rest_is_idle_and_autoplay_draws_every_step(home):
    record = record_match("ploc", RandomBot(), seed=4, directory=home / "replays")
    app = App((1280, 720))
    stepper = Stepper.load(record.path)
    stepper.jump("first")
    viewer = ViewerScene(stepper)
    app.push(viewer)
    app.step([], 16)
    _lazy(app, 2)
    assert _lazy(app, 30) <= _at_rest_bound(30), "a replay at rest redraws"
    space = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ")
    app.step([space], STEP_MS, lazy=True)
    assert viewer.playing
    positions = set()
    for _ in range(round(3000 / STEP_MS)):
        if app.step([], STEP_MS, lazy=True):
            positions.add(viewer.st.position)
    assert len(positions) >= 3000 // 500 - 1, "autoplay's steps were not all drawn"


def _texts(frame) -> list[str]:
    return [words for kind, _, words in frame.items if kind == "text"]


def test_a_lazy_picture_is_never_stale():
    """Through a whole game against a bot, played by keys: after every lazy iteration, the picture on
    the screen (the last one drawn) says what a picture drawn now would say."""
    ctl = LocalController(engines.get("madagaskar"), 0, ["random"], players=2, seed=2, bot_delay_ms=120)
    app = App((1280, 720))
    table = TableScene(ctl)
    app.push(table)
    app.step([], 16)
    rng = random.Random(7)
    shown: list[str] = []
    drawn = 0
    for i in range(1500):
        events = []
        choices = table.builder.candidates()
        if choices and rng.random() < 0.4:
            key = pygame.K_1 + rng.randrange(min(9, len(choices) + 1))   # now and then a key with no choice
            events = [pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="")]
        with textfit.recording(app.size) as lazy:
            if app.step(events, STEP_MS, lazy=True):
                drawn += 1
                shown = _texts(lazy)
        with textfit.recording(app.size) as fresh:
            app.step([], 0)
        assert _texts(fresh) == shown, f"iteration {i}: the screen was stale"
        if ctl.result() is not None:
            break
    assert ctl.result() is not None, "the game did not end"
    assert 0 < drawn < i, (drawn, i)


def test_the_real_loop_at_rest_draws_little_and_costs_little_cpu(home):
    app = App((1280, 720))
    app.push(LobbyScene(home / "replays", browse=False))
    app.step([], 16)
    seconds = 2.5
    frames, steps = app.frames, app.steps
    cpu, wall = time.process_time(), time.monotonic()
    pygame.time.set_timer(pygame.QUIT, int(seconds * 1000), loops=1)
    while app.running and time.monotonic() - wall < seconds + 10:
        app.run_once()
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    drawn, looped = app.frames - frames, app.steps - steps
    # the first second may draw at the animation rate (a renderer's animation settles), then nothing
    assert drawn <= app_module.SETTLE_MS // app_module.ANIMATION_MS + 4, f"{drawn} pictures in {wall:.1f} s"
    assert looped <= wall * 1000 / app_module.POLL_MS * 1.5 + 5, f"{looped} iterations in {wall:.1f} s"
    assert cpu < 0.5 * wall, f"{cpu:.2f} s of CPU in {wall:.1f} s at rest"
