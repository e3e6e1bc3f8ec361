"""Watching from the lobby (issue 35): a game under way that takes spectators is listed with "watch" instead of
a disabled "join"; a click opens the spectator's table, which waits for the game, then follows it in the
viewer's public view, a few frames behind the players, and ends with the copy in the replay list. The host and
the joiner are real `netplay` processes (bots) over loopback; the lobby is the real one, headless. The LAN list
is given the host's advert as discovery would read it (live mDNS: tests/test_spectators_netns.py)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pygame
import pytest
from support.clickplay import _click
from support.cpuclock import Budget
from support.quick import LONG
from support.sessionhelpers import cli_host, cli_join, processes, verdict

from client.app import App
from client.scenes.lobby import LobbyScene
from client.scenes.watching import WatchScene
from netplay.discovery import HostInfo

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def _line(proc, pattern: str, timeout: float = 20.0, app: App | None = None) -> re.Match:
    """A line the process prints, waited for in CPU seconds; the app goes on meanwhile (its scene steps the
    spectator's session)."""
    budget = Budget(timeout, (proc.proc.pid,), wall_cap=max(120.0, 6 * timeout))
    while not budget.over():
        found = re.search(pattern, proc.out)
        if found:
            return found
        assert proc.proc.poll() is None, proc.describe()
        if app is not None:
            app.step([], 16, lazy=True)
        time.sleep(0.02)
    raise AssertionError(f"{proc.tag} never printed {pattern!r}\n{proc.describe()}")


def _advert(address: str, free: int, watch: int) -> HostInfo:
    """The host's advert as netplay.discovery reads it: address:port/fingerprint, seats free, places to watch."""
    ip_port, fingerprint = address.split("/")
    ip, port = ip_port.rsplit(":", 1)
    return HostInfo(f"host {fingerprint[:9]}", "host", (ip,), int(port), "turning-tides", "0", fingerprint, free,
                    "", watch)


def _step_until(app: App, done, what: str, cpu: float = 40.0) -> None:
    budget = Budget(cpu, (), wall_cap=200.0)
    while not done():
        assert not budget.over(), f"never {what}"
        app.step([], 16, lazy=True)
        time.sleep(0.005)


@pytest.mark.skipif(not LONG, reason="NETPLAY_LONG=1 only: the lobby's watch is played through live discovery in "
                    "test_spectators_netns.py (this one runs where network namespaces cannot be made)")
def test_the_lobby_watches_a_game_under_way_and_keeps_the_copy(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "spectator"))
    ARTIFACTS.mkdir(exist_ok=True)
    with processes() as procs:
        host = cli_host(tmp_path, "turning-tides", "--bot", "random", "--spectators", "1", "--spectator-delay", "4",
                        "--bot-delay", "0.05")
        procs.append(host)
        address = _line(host, r"watch with: netplay watch (\S+)").group(1)
        app = App((1280, 720))
        lobby = LobbyScene(browse=False, replay_dir=tmp_path / "spectator" / "replays")
        app.push(lobby)
        lobby.hosts = [_advert(address, 1, 1)]          # seats still free: "join", no "watch"
        app.step([], 16)
        keys = {b.key: b.enabled for b in lobby.buttons}
        assert keys.get(f"join:{address}") is True and f"watch:{address}" not in keys, keys
        lobby.hosts = [_advert(address, 0, 1)]          # the seats taken, a place to watch
        app.step([], 16)
        app.screenshot(ARTIFACTS / "watch-lobby-list.png")
        watch = next(b for b in lobby.buttons if b.key == f"watch:{address}")
        assert f"join:{address}" not in {b.key for b in lobby.buttons}
        _click(app, watch.rect.center)
        _step_until(app, lambda: isinstance(app.scene, WatchScene), "opened the spectator's table")
        scene = app.scene
        _line(host, r"spectator \S+ \(\S+\) watches from frame 0", app=app)     # in before the game starts
        app.step([], 16)
        assert "waiting for the game to start" in scene.status()
        app.screenshot(ARTIFACTS / "watch-waiting.png")
        joiner = cli_join(tmp_path, host.address(), "--bot", "random", "-q")
        procs.append(joiner)
        _step_until(app, lambda: scene.viewer is not None and scene.frames > 10, "followed the game")
        viewer = scene.viewer
        assert viewer.st.mode == "spectator" and viewer.st.position == viewer.st.count - 1   # live, at the newest
        assert "4 frame(s) behind" in scene.status()
        app.step([], 16)
        assert set(viewer.seat_notes) == {0, 1}, viewer.seat_notes     # the clocks (the default terms' move clock)
        app.screenshot(ARTIFACTS / "watch-live.png")
        _step_until(app, lambda: scene.closed, "saw the game end")
        app.step([], 16)
        app.screenshot(ARTIFACTS / "watch-end.png")
        assert scene.session.machine.outcome.code == 0, scene.message
        path = scene.session.path
        assert scene.frames == len(scene.session.machine.ledger.frames)   # the viewer read the whole copy
        app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")], 16)
        assert app.scene is lobby and "the copy is" in lobby.message, lobby.message
    seen = verdict(path)
    assert seen.status == "valid" and "spectator's copy" in seen.reason, seen.reason
    assert path.parent == tmp_path / "spectator" / "replays"


def test_the_spectators_table_shows_the_clocks_beside_the_seats_and_the_players_chat(tmp_path: Path,
                                                                                      monkeypatch) -> None:
    """With the chat term a line a player says reaches the spectator's table (under the seats), with the frame it
    was said at; the clocks stand beside the seats' names, the seat to move lit."""
    from support.sessionhelpers import CLI, Proc

    from client.scenes.watching import WatchScene as Scene
    from netplay.identity import Identity
    from netplay.watcher import WatchSession

    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "spectator"))
    ARTIFACTS.mkdir(exist_ok=True)
    with processes() as procs:
        host = cli_host(tmp_path, "quedah-merchant", "--bot", "random", "--spectators", "1", "--spectator-delay", "0",
                        "--spectator-chat", "--reveal-timeout", "5")
        procs.append(host)
        address = _line(host, r"watch with: netplay watch (\S+)").group(1)
        app = App((1280, 720))
        session = WatchSession(Identity.generate("fan"), address, replay_dir=tmp_path / "spectator" / "replays",
                               fsync=False)
        scene = Scene(session, address)
        app.push(scene)
        _line(host, r"spectator fan \(\S+\) watches from frame 0", app=app)
        joiner = Proc([*CLI, "join", host.address(), "--no-fsync", "--name", "ann", "--replay-dir",
                       str(tmp_path / "join" / "replays")], tmp_path / "join", "join",
                      stdin="say fair winds, everyone\nresign\ny\nn\n")
        procs.append(joiner)
        _step_until(app, lambda: scene.viewer is not None and scene.viewer.seat_notes, "showed the clocks")
        notes = scene.viewer.seat_notes
        assert set(notes) == {0, 1} and all(re.fullmatch(r"\d+:\d\d", text) for text, _ in notes.values()), notes
        _step_until(app, lambda: scene.closed, "saw the game end")
        app.step([], 16)
        app.screenshot(ARTIFACTS / "watch-chat.png")
        assert scene.viewer.side_lines == ["ann: fair winds, everyone"], scene.viewer.side_lines
        assert scene.session.machine.outcome.code == 0, scene.message
