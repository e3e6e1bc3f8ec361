"""Text that fits (issue 15): every scene of every game is drawn at 1024x600 and 1920x1080 and every
text's rendered extent is measured against the box it sits in (`client.ui.textfit`): none may leave
the window or its box, overlap another text, or lie under a card or panel drawn after it. A screenshot
of each scene goes to tests/artifacts/fit-*.png."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import random
import shutil
from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest

import engines
from client.app import App
from client.controller import LocalController
from client.moves import split_actions
from client.scenes.lobby import LobbyScene
from client.scenes.table import TableScene
from client.scenes.viewer import ViewerScene
from client.ui import textfit, theme
from netplay.session import PeerState
from replays.stepping import Stepper

ARTIFACTS = Path(__file__).parent / "artifacts"
SIZES = [(1024, 600), (1920, 1080)]
GAMES = sorted(engines.GAMES)


def _check(app: App, name: str, whole: bool = False) -> None:
    """Every text in its box; with `whole`, also none cut with an ellipsis and none that is read under 12 px,
    as test_client_layout holds the tables (the viewer of every game, issue 34: a C&K seat card's
    "intrigue, master mercha…")."""
    app.step([], 16)
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    app.screenshot(ARTIFACTS / f"fit-{name}-{app.size[0]}.png")
    texts = [words for kind, _, words in frame.items if kind == "text"]
    assert len(texts) > 5, f"{name}: hardly any text was recorded"
    found = textfit.problems(frame)
    assert not found, f"{name} at {app.size}: " + "\n".join(found[:12])
    if whole:
        assert not textfit.cut(frame), f"{name} at {app.size}: cut with an ellipsis: {textfit.cut(frame)[:8]}"
        small = textfit.small(frame, theme.MIN_TEXT)
        assert not small, f"{name} at {app.size}: under {theme.MIN_TEXT} px: {sorted(set(small))[:10]}"


def _advance(ctl: LocalController, rng: random.Random, moves: int) -> None:
    for _ in range(moves * 4):
        ctl.poll(10**9)
        if ctl.result() is not None or moves <= 0:
            return
        actions, _ = split_actions(ctl.legal())
        if actions:
            ctl.submit(rng.choice(actions))
            moves -= 1


def _to_the_end(ctl: LocalController, rng: random.Random) -> None:
    for _ in range(20000):
        ctl.poll(10**9)
        if ctl.result() is not None:
            return
        actions, _ = split_actions(ctl.legal())
        if actions:
            ctl.submit(rng.choice(actions))


def test_the_recorder_catches_clipped_and_overlapping_text() -> None:
    """The check itself can fail: a text out of its box, two texts on top of each other, a card over text."""
    frame = textfit.Frame((200, 100))
    frame.items = [("box", pygame.Rect(0, 0, 100, 50), "panel"), ("text", pygame.Rect(10, 10, 120, 20), "too long"),
                   ("text", pygame.Rect(150, 60, 40, 20), "a"), ("text", pygame.Rect(160, 62, 30, 20), "b"),
                   ("text", pygame.Rect(10, 70, 60, 16), "hold: captain"), ("box", pygame.Rect(50, 60, 40, 30), "card"),
                   ("text", pygame.Rect(100, 90, 40, 10), "exchange"),
                   ("text", pygame.Rect(141, 90, 50, 10), "choosing")]
    found = "\n".join(textfit.problems(frame))
    assert "runs out of its box" in found and "overlaps" in found and "covered by a card" in found
    assert "'exchange' at (100, 90, 40, 10) runs into 'choosing'" in found


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("gid", GAMES)
def test_every_table_fits(gid: str, size: tuple[int, int]) -> None:
    game = engines.get(gid)
    players = game.players[0]
    rng = random.Random(5)
    ctl = LocalController(game, 0, ["random"], players=players, seed=3, bot_delay_ms=0)
    app = App(size)
    table = TableScene(ctl)
    app.push(table)
    _check(app, f"{gid}-start")
    _advance(ctl, rng, 9)
    table.say("a refusal in words: this choice is not possible now because of a long enough reason")
    _check(app, f"{gid}-middle")
    _to_the_end(ctl, rng)
    _check(app, f"{gid}-end")


@dataclass
class _LostPeer(LocalController):
    """A local table whose opponent's connection is lost, to draw the banner."""

    def peers(self) -> list:
        return [PeerState(1, "Anna-with-a-rather-long-name@some-host", False, 12.0,
                          "if Anna-with-a-rather-long-name@some-host is not back in 108 s, you win by forfeit", 108.0)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_peer_banner_fits(size: tuple[int, int]) -> None:
    ctl = _LostPeer(engines.get("turning-tides"), 0, ["random"], seed=2, bot_delay_ms=0)
    app = App(size)
    app.push(TableScene(ctl))
    _check(app, "banner")


#: the Catan games end after this many rounds here: a whole game of smart bots is 5,000 actions of recording
#: for a picture of its middle and end, which 25 rounds show as well (every piece kind, cards, a robber)
SHORT = {"catan": {"max_rounds": "25"}, "catan-ck": {"max_rounds": "25"}}


@pytest.fixture(scope="module")
def replays(recorded) -> dict[str, Path]:
    return {gid: recorded(gid, ("smart", "random"), 2, **SHORT.get(gid, {})) for gid in GAMES}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("gid", GAMES)
def test_every_viewer_fits(gid: str, size: tuple[int, int], replays) -> None:
    stepper = Stepper.load(replays[gid])
    app = App(size)
    viewer = ViewerScene(stepper)
    app.push(viewer)
    stepper.seek(stepper.count // 2)
    _check(app, f"viewer-{gid}-middle", whole=True)
    stepper.seek(stepper.count - 1)
    _check(app, f"viewer-{gid}-end", whole=True)
    stepper.set_mode("seat 1" if stepper.header.players > 1 else "spectator")
    viewer.show_frames = True
    _check(app, f"viewer-{gid}-frames", whole=True)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_lobby_fits(size: tuple[int, int], replays, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "home"))
    folder = tmp_path / "replays"      # this module's replays only (the shared folder holds other tests' too)
    folder.mkdir()
    for path in replays.values():
        shutil.copy(path, folder / path.name)
    app = App(size)
    lobby = LobbyScene(folder, browse=False)
    app.push(lobby)
    lobby.replay_list.wait(60)
    lobby._say("could not join 192.0.2.1:7000: no netplay host answered within 10 s (last problem: bootstrap "
               "timed out); check the address and that the host is running", ok=False)
    _check(app, "lobby")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_lobby_settings_fit_for_every_game_and_player_count(size: tuple[int, int], tmp_path, monkeypatch) -> None:
    """The game list, the seats and the options of the chosen game and the start buttons share the "start
    a game" panel: no two buttons touch and none leaves the panel, for every game at every player count
    (Cities & Knights with four seats and five options is the longest), and with a game list twice as
    long (the games then go in two columns)."""
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "home"))
    app = App(size)
    lobby = LobbyScene(tmp_path / "replays", browse=False)
    app.push(lobby)
    checked = 0
    for games in (list(lobby.games), list(lobby.games) * 2):
        lobby.games = games
        for index, game in enumerate(games):
            lobby.game_index = index
            lobby._reset_options()
            for _ in game.players:
                with textfit.recording(app.size) as frame:
                    app.step([], 16)
                start = next(b.rect for b in lobby.buttons if b.key == "local:")
                box = min((r for kind, r, what in frame.items if kind == "box" and what == "panel"
                           and r.contains(start)), key=lambda r: r.w * r.h)
                rects = [(b.key, b.rect) for b in lobby.buttons if box.colliderect(b.rect)]
                assert any(key.startswith("option:") for key, _ in rects) or not game.options
                for n, (key, rect) in enumerate(rects):
                    assert box.contains(rect), f"{game.id}: {key} leaves the panel at {size}"
                    for other, second in rects[n + 1:]:
                        assert not rect.inflate(4, 4).colliderect(second), \
                            f"{game.id} with {lobby.players} players at {size}: {key} touches {other}"
                checked += 1
                lobby._button("players:", app)
    assert checked >= 2 * len(engines.GAMES)
