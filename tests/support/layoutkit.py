"""Every scene and every game's table built at a window size, for the layout checks of issue 6 (labels cut
at every size, text too small at 1024x600): `SCENES` names each one and builds it on an App; `measure`
draws one frame of it under `textfit.recording` and returns what the checks read (the font sizes, the
texts cut with an ellipsis, the texts out of their boxes)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pygame

import engines
from client.app import App
from client.controller import LocalController
from client.moves import split_actions
from client.scenes.error import ErrorScene
from client.scenes.hosting import HostingScene
from client.scenes.lobby import LobbyScene
from client.scenes.rules import RulesScene
from client.scenes.stats import StatsScene
from client.scenes.table import TableScene
from client.scenes.viewer import ViewerScene
from client.ui import textfit, theme
from engines.game import State
from netplay.discovery import HostInfo
from netplay.protocol.clocks import SeatClock
from replays.header import Terms
from replays.stepping import Stepper
from support import catan_ck as ck
from support import catanhelpers as base

ARTIFACTS = Path(__file__).parents[1] / "artifacts"   # tests/artifacts
SIZES = ((1024, 600), (1280, 720), (1920, 1080))
FLOOR = theme.MIN_TEXT   # the smallest pixel height (font.get_height()) a text that is read may have

#: the Catan positions of the table tests: four seats after the set-up, the person's turn with cards in hand
CATAN = dict(s0=dict(settlements=[12, 23], cities=[40], roads=[19, 26, 57], hand="3brick+2lumber+2wool+3grain+2ore",
                     dev="knight+yearofplenty+monopoly+victorypoint", new="victorypoint"),
             s1=dict(settlements=[14, 28], roads=[21, 40], hand="2lumber+1grain+1ore"),
             s2=dict(settlements=[31], cities=[35], roads=[46, 44], hand="1wool+2ore"),
             s3=dict(settlements=[10, 42], roads=[17, 53], hand="1brick"))
CK = dict(s0=dict(settlements=[12], cities=[23, 40], roads=[19, 26, 57, 20], walls=[40], levels=(1, 2, 0),
                  hand="4brick+2lumber+2wool+3grain+2ore+2cloth+1coin+3paper",
                  knights={17: (1, False), 18: (2, True)}, progress=["spy", "merchant", "crane"]),
          s1=dict(settlements=[14], cities=[28], roads=[21, 40], hand="2lumber+1grain+1ore+1coin",
                  knights={22: (1, True)}, progress=["bishop"]),
          s2=dict(settlements=[31], cities=[35], roads=[46, 44], hand="1wool+2ore"),
          s3=dict(settlements=[10, 42], roads=[17, 53], hand="1brick"))


@dataclass
class Measure:
    name: str
    size: tuple[int, int]
    smallest: int                   # the smallest pixel height of any text that is read
    small: list[tuple[int, str]]    # texts under FLOOR pixels high
    cut: list[str]                  # texts drawn cut with an ellipsis
    problems: list[str]             # textfit.problems: out of the window or box, overlapping, covered
    texts: int                      # how many texts were drawn
    frame: textfit.Frame            # what was drawn where
    board: pygame.Rect | None       # a table's or the viewer's board, as the scene laid it out
    board_used: float               # the share of the board's pixels painted over its bare panel


def covered(m: Measure) -> float:
    """The share of the window under the boxes and texts drawn (panels, buttons, cards, words) and the
    board: a panel fixed in pixels leaves most of a large window bare."""
    frame = m.frame
    w, h = frame.size
    grid = pygame.Surface((w // 8, h // 8))
    grid.fill((0, 0, 0))
    for rect in [r for _, r, _ in frame.items] + ([m.board] if m.board is not None else []):
        grid.fill((255, 255, 255), pygame.Rect(rect.x // 8, rect.y // 8, -(-rect.w // 8), -(-rect.h // 8)))
    return pygame.transform.average_color(grid)[0] / 255


def text_height(frame: textfit.Frame) -> float:
    """The median pixel height of the texts that are read: what a reader's eye meets most."""
    return statistics.median(px for px, _ in frame.sizes)


def _used(surface: pygame.Surface, rect: pygame.Rect | None) -> float:
    """The share of `rect`'s pixels that are not the bare board panel's colour: a board whose picture
    does not grow with its room leaves it bare around a small picture."""
    if rect is None or rect.w <= 0 or rect.h <= 0:
        return 0.0
    area = surface.subsurface(rect.clip(surface.get_rect()))
    bare = pygame.mask.from_threshold(area, theme.PANEL, (3, 3, 3, 255)).count()
    return 1 - bare / (area.get_width() * area.get_height())


def _table(ctl: LocalController, app: App) -> TableScene:
    table = TableScene(ctl)
    app.push(table)
    return table


def _played(gid: str, players: int, moves: int) -> Callable[[App, dict], None]:
    """A table of `gid` after `moves` random moves (0: the start), the person at seat 0."""
    def build(app: App, _: dict) -> None:
        ctl = LocalController(engines.get(gid), 0, ["random"], players=players, seed=3, bot_delay_ms=0)
        rng = random.Random(5)
        left = moves
        for _ in range(400):   # the bots play at once; the person plays `moves` random moves, then waits
            ctl.poll(10**9)
            actions, _unused = split_actions(ctl.legal())
            if ctl.result() is not None or (actions and left <= 0):
                break
            if actions:
                ctl.submit(rng.choice(actions))
                left -= 1
        ctl.bot_delay_ms = 10**9
        _table(ctl, app)
    return build


def _at(gid: str, state_of: Callable[[], State]) -> Callable[[App, dict], None]:
    def build(app: App, _: dict) -> None:
        state = state_of()
        ctl = LocalController(engines.get(gid), 0, ["smart"], players=state.inner.n, seed=1, bot_delay_ms=10**9,
                              start=state)
        _table(ctl, app)
    return build


@dataclass
class _Timed(LocalController):
    """A local table with a networked game's clocks and terms: every seat's chip, the person's clock
    running low (the warning line) and the terms line under them."""

    def clocks(self) -> list[SeatClock]:
        return [SeatClock(s, 14.0 if s == 0 else 1185.0 + s, s == 0, 9.0 if s == 0 else None)
                for s in range(self.players)]

    def terms(self) -> str:
        return Terms(clock=(1_200_000, 10_000), move_ms=600_000).describe()


def _timed(app: App, _: dict) -> None:
    ctl = _Timed(engines.get("madagaskar"), 0, ["random"], players=3, seed=3, bot_delay_ms=10**9)
    ctl.poll(0)
    _table(ctl, app)


@dataclass
class _TimedWaiting(_Timed):
    """A timed LAN table whose game has not begun: the others are still joining, so the table counts down
    the wait over the board (its start position drawn) and its chips name seats after their machines
    ("host-303f8…" was cut in its chip, and the Kidd board's legend showed behind the countdown)."""

    @property
    def names(self) -> list[str]:
        return ["host-303f8c1e2d", "joiner-9b2e4a70c4", "joiner-51d0c3aa97"]

    def clocks(self) -> list[SeatClock]:
        return [SeatClock(s, 1200.0, False, None) for s in range(self.players)]

    def waiting(self) -> tuple[str, float]:
        return "the other players", 87.0


def _timed_waiting(app: App, _: dict) -> None:
    ctl = _TimedWaiting(engines.get("madagaskar"), 0, ["random"], players=3, seed=3, bot_delay_ms=10**9)
    ctl.poll(0)
    _table(ctl, app)


def _lan(app: App, ctx: dict) -> None:
    """The lobby with games on the LAN, timed and untimed, one with its terms not announced, and a game
    this user left to resume (its "resume" button was cut to "resu…")."""
    lobby = LobbyScene(ctx["replays"], browse=False)
    app.push(lobby)
    listed = lobby.replay_list
    assert listed is not None
    listed.wait(60)
    real = listed.entries
    listed.entries = lambda game=None: [replace(e, resume="host") if i == 0 else e  # type: ignore[method-assign]
                                        for i, e in enumerate(real(game))]
    lobby.hosts = [
        HostInfo("a", "anna@workstation", ("192.0.2.20",), 47000, "catan-ck", "1.0", "abcd-ef01-2345-6789", 2,
                 Terms(clock=(2_700_000, 5_000), move_ms=600_000).describe()),
        HostInfo("b", "bert", ("192.0.2.21",), 47001, "ploc", "1.0", "abcd-ef01-2345-6780", 1,
                 "protocol 2, reveal timeout 120 s, untimed"),
        HostInfo("c", "carl", ("192.0.2.22",), 47002, "madagaskar", "1.0", "abcd-ef01-2345-6781", 1, ""),
    ]


class _Waiting:
    """The hosting screen's controller: a session with one seat of two taken."""

    started = False
    outcome = None
    log = ["seat 0: you (host)", "terms: 10 s a decision, 1800+3 clock"]

    def free_seats(self) -> int:
        return 1

    def terms(self) -> str:
        return "10 s per decision; a clock of 30 min + 3 s a move for each seat; 60 s away before a claim"


def _hosting(app: App, _: dict) -> None:
    app.push(LobbyScene(None, browse=False))
    app.push(HostingScene(_Waiting(), "Catan: Cities & Knights", ["192.168.178.21:41234/abcd-ef01-2345-6789"],
                          "root@workstation", "", lambda app: None, lambda app: None))


def _lobby(app: App, ctx: dict) -> None:
    lobby = LobbyScene(ctx["replays"], browse=False)
    app.push(lobby)
    lobby.replay_list.wait(60)


def _rules(gid: str) -> Callable[[App, dict], None]:
    def build(app: App, _: dict) -> None:
        app.push(LobbyScene(None, browse=False))
        app.push(RulesScene(gid))
    return build


def _stats(app: App, ctx: dict) -> None:
    page = StatsScene(ctx["replays"])
    app.push(page)
    page.work.wait(60)
    app.step([], 16)
    player = next((i for i, p in enumerate(page.stats.players) if p.rolls), None)
    if player is not None:
        page.select(player)


_LOADED: dict[Path, tuple[Stepper, str]] = {}


def loaded(path: Path) -> Stepper:
    """The replay at `path` loaded once for the run (its audit re-checks every frame: 1.3 CPU seconds for a
    Cities & Knights game, which each of the three sizes paid), in its first view again."""
    if path not in _LOADED:
        stepper = Stepper.load(path)
        _LOADED[path] = stepper, stepper.mode
    stepper, mode = _LOADED[path]
    if stepper.mode != mode:
        stepper.set_mode(mode)
    return stepper


def _viewer(key: str) -> Callable[[App, dict], None]:
    def build(app: App, ctx: dict) -> None:
        stepper = loaded(ctx[key])
        app.push(ViewerScene(stepper))
        stepper.seek(stepper.count // 2)
    return build


def _error(app: App, _: dict) -> None:
    """A scene that failed: the error in words, where, and the way back."""
    try:
        {}["the board renderer's layout for a window of this size"]
    except KeyError as exc:
        app.push(LobbyScene(None, browse=False))
        app.push(ErrorScene("the Catan table", exc))


SCENES: dict[str, Callable[[App, dict], None]] = {
    "lobby": _lobby,
    "lobby-lan": _lan,
    "hosting": _hosting,
    "rules-catan": _rules("catan"),
    "stats": _stats,
    "error": _error,
    "viewer-tides": _viewer("tides"),
    "viewer-catan": _viewer("catan"),
    "viewer-catan-ck": _viewer("catan-ck"),
    "catan": _at("catan", lambda: base.position(players=4, **CATAN)),
    "catan-setup": _played("catan", 4, 0),
    "catan-ck": _at("catan-ck", lambda: ck.position(players=4, **CK)),
    "madagaskar": _played("madagaskar", 3, 9),
    "loyal-captain": _played("loyal-captain", 2, 9),
    "quedah-merchant": _played("quedah-merchant", 2, 9),
    "ebbe-flut": _played("ebbe-flut", 2, 9),
    "ebbe-flut-solo": _played("ebbe-flut-solo", 1, 9),
    "ploc": _played("ploc", 2, 9),
    "turning-tides": _played("turning-tides", 2, 9),
    "timed-madagaskar": _timed,
    "timed-waiting": _timed_waiting,
    "ploc-end": _played("ploc", 2, 10**6),
}


_MEASURED: dict[tuple[str, tuple[int, int], str], Measure] = {}


def measure(name: str, size: tuple[int, int], ctx: dict, shot: bool = False) -> Measure:
    """Build scene `name` on a window of `size`, draw it and measure that frame. Kept for the run: the
    checks of one scene at one size share one build and one picture (the first one takes the screenshot)."""
    key = (name, size, str(ctx.get("replays")))
    if key not in _MEASURED:
        _MEASURED[key] = _measure(name, size, ctx, shot)
    return _MEASURED[key]


def _measure(name: str, size: tuple[int, int], ctx: dict, shot: bool) -> Measure:
    app = App(size)
    SCENES[name](app, ctx)
    app.step([], 16)
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    if shot:
        app.screenshot(ARTIFACTS / f"layout-{name}-{size[0]}.png")
    sizes = [px for px, _ in frame.sizes]
    board = getattr(app.scene, "board_rect", None)
    board = pygame.Rect(board) if board is not None else None
    return Measure(name, size, min(sizes, default=0), textfit.small(frame, FLOOR), textfit.cut(frame),
                   textfit.problems(frame), sum(kind == "text" for kind, _, _ in frame.items), frame,
                   board, _used(app.window, board))
