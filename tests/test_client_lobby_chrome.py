"""Issue 27 in the lobby: the terms of each LAN game before joining and a clock to host with (item 2);
the settings remembered in a small file of the config dir, written safely and read leniently, named
hot-seat players, and a hosting screen with the address to give a friend that can be cancelled
(item 13). Driven by events, headless; screenshots at 1024x600, 1280x720 and 1920x1080."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import contextlib
import json
import stat
import time

import pygame
import pytest
from support.clickplay import _click, drawn_texts, shots
from support.cpuclock import Budget

from client import settings
from client.app import App
from client.scenes.hosting import HostingScene
from client.scenes.lobby import CLOCKS, SETTINGS, LobbyScene
from client.scenes.table import TableScene
from netplay import discovery
from netplay.discovery import HostInfo


def _lobby(home, size=(1280, 720)) -> tuple[App, LobbyScene]:
    app = App(size)
    lobby = LobbyScene(home / "replays", browse=False)
    app.push(lobby)
    app.step([], 16)
    return app, lobby


def _press(app: App, lobby, key: str) -> None:
    rect = next((b.rect for b in lobby.buttons if b.key == key and b.enabled), None)
    assert rect is not None, f"no enabled button {key!r}"
    _click(app, rect.center)


def _type(app: App, field, text: str) -> None:
    _click(app, field.rect.center)
    assert field.focused
    app.step([pygame.event.Event(pygame.TEXTINPUT, text=text)], 16)
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")], 16)


# ---------------------------------------------------------------------------------------------- terms (item 2)

def test_the_lan_list_says_which_games_are_timed_before_joining(home):
    app, lobby = _lobby(home)
    lobby.hosts = [
        HostInfo("a", "anna", ("192.0.2.20",), 47000, "catan", "1.0", "abcd-ef01-2345-6789", 2,
                 "protocol 2, reveal timeout 120 s, clock 60 s + 2 s per move"),
        HostInfo("b", "bert", ("192.0.2.21",), 47001, "ploc", "1.0", "abcd-ef01-2345-6780", 1,
                 "protocol 2, reveal timeout 120 s, untimed"),
        HostInfo("c", "carl", ("192.0.2.22",), 47002, "madagaskar", "1.0", "abcd-ef01-2345-6781", 1, ""),
        HostInfo("d", "dora", ("192.0.2.23",), 47003, "ploc", "1.0", "abcd-ef01-2345-6782", 1,
                 "clock 30 s + 0 s per move\x1b[31m, protocol 2"),
    ]
    texts = drawn_texts(app)
    assert any(t.startswith("TIMED: clock 60 s + 2 s per move") for t in texts), texts
    assert "untimed, protocol 2, reveal timeout 120 s" in texts
    assert "terms not announced: you see them once you join" in texts
    assert not any("\x1b" in t for t in texts), "text from the LAN is shown raw"
    shots(app, "lobby-lan-terms")


def test_a_game_hosted_with_a_clock_advertises_its_terms(home, monkeypatch):
    adverts = []

    @contextlib.contextmanager
    def advertise(**kw):
        adverts.append(kw)
        yield None

    monkeypatch.setattr(discovery, "advertise", advertise)
    app, lobby = _lobby(home)
    ids = [g.id for g in lobby.games]
    _press(app, lobby, f"game:{ids.index('ploc')}")
    while CLOCKS[lobby.clock_index] != (60, 2):
        _press(app, lobby, "clock:")
    assert any(b.label == "clock: 1 min + 2 s" for b in lobby.buttons)
    _press(app, lobby, "host:")
    hosting = app.scene
    assert isinstance(hosting, HostingScene)
    try:
        assert adverts and "clock 60 s + 2 s per move" in adverts[0]["terms"], adverts
        assert "clock 60 s + 2 s per move" in hosting.ctl.terms()
    finally:
        app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")], 16)
    assert app.scene is lobby


# ---------------------------------------------------------------------------------------------- settings (item 13)

def test_the_lobby_remembers_its_settings(home):
    app, lobby = _lobby(home)
    ids = [g.id for g in lobby.games]
    _press(app, lobby, f"game:{ids.index('catan')}")
    _press(app, lobby, "players:")                      # 3 -> 4 players
    _press(app, lobby, "role:1")                        # open -> hot seat
    _press(app, lobby, "role:3")                        # open -> hot seat
    _press(app, lobby, "role:3")                        # hot seat -> the first bot Catan offers
    _press(app, lobby, "option:board")
    _press(app, lobby, "clock:")
    _press(app, lobby, "bot:")
    _press(app, lobby, "delay:")
    _type(app, lobby.name_inputs[1], "Anna")
    _type(app, lobby.address, "127.0.0.1:9")            # joined (and refused: nobody is there)
    budget = Budget(30)   # CPU seconds (tests/support/cpuclock.py)
    while lobby.joining is not None and not budget.over():
        app.step([], 16)
        time.sleep(0.02)
    assert lobby.message.startswith("could not join 127.0.0.1:9")
    chosen = {"game": lobby.game.id, "players": lobby.players, "roles": list(lobby.roles),
              "options": dict(lobby.options), "clock": lobby.clock_index, "bot": lobby.bot_index,
              "delay": lobby.bot_delay_index, "name": lobby.hot_seat_name(1), "address": "127.0.0.1:9"}
    first_bot = f"bot:{lobby.offered_bots()[0]}"    # easy, once Catan has levels (else medium)
    assert chosen["roles"] == ["me", "here", "open", first_bot] and chosen["name"] == "Anna"
    path = settings.settings_file(SETTINGS)
    assert path.exists() and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == [], "a temporary file is left"
    _press(app, lobby, f"game:{ids.index('ploc')}")     # another game, then a new lobby (the app started again)
    lobby.close()
    app, again = _lobby(home)
    assert again.game.id == "ploc"
    _press(app, again, f"game:{ids.index('catan')}")
    restored = {"game": again.game.id, "players": again.players, "roles": list(again.roles),
                "options": dict(again.options), "clock": again.clock_index, "bot": again.bot_index,
                "delay": again.bot_delay_index, "name": again.hot_seat_name(1), "address": again.address.text}
    assert restored == chosen


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b"\xff\xfe", b" " * (settings.MAX_BYTES + 10),
                                     json.dumps({"game": "chess", "setups": {"catan": {"players": 9, "roles": 7,
                                                 "options": {"board": "nonsense"}}}, "bot": 3, "bot_delay": True,
                                                 "clock": [7, 7], "names": {"1": "\x1b[2J", "x": "y"},
                                                 "address": 5}).encode()])
def test_a_damaged_or_foreign_settings_file_means_the_defaults(home, content):
    path = settings.settings_file(SETTINGS)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    app, lobby = _lobby(home)
    fresh = LobbyScene(home / "replays", browse=False)
    assert lobby.game.id == lobby.games[0].id and lobby.clock_index == 0 and lobby.bot_delay_index == 0
    assert lobby.roles == fresh.roles and lobby.options == fresh.options and lobby.address.text == ""
    assert all(not f.text for f in lobby.name_inputs.values())
    drawn_texts(app)   # and it draws


def test_settings_that_cannot_be_written_stop_nothing(home, monkeypatch):
    path = settings.settings_file(SETTINGS)
    path.parent.mkdir(parents=True)
    path.mkdir()   # a directory where the file should be: the rename fails
    app, lobby = _lobby(home)
    _press(app, lobby, "clock:")
    app.step([], 16)
    assert lobby.clock_index == 1 and path.is_dir()
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


# ---------------------------------------------------------------------------------------------- hot seat names (13)

def test_hot_seat_players_are_named(home):
    app, lobby = _lobby(home)
    ids = [g.id for g in lobby.games]
    _press(app, lobby, f"game:{ids.index('loyal-captain')}")
    _press(app, lobby, "role:1")   # open -> hot seat
    assert lobby.roles == ["me", "here"]
    field = lobby.name_inputs[1]
    _type(app, field, "Anna")
    assert not field.focused and lobby.hot_seat_name(1) == "Anna"
    shots(app, "lobby-hot-seat-name")
    from netplay.identity import Identity
    own = Identity.load().name
    field.text = own   # the same name as this machine's own player: refused, said why
    _press(app, lobby, "host:")
    assert app.scene is lobby and "same name" in lobby.message and not lobby.message_ok
    field.text = "Anna"
    _press(app, lobby, "host:")   # every seat here: straight to the table
    table = app.scene
    assert isinstance(table, TableScene)
    try:
        budget = Budget(30)   # CPU seconds (tests/support/cpuclock.py)
        while not budget.over() and not table.ctl.started:
            app.step([], 16)
            time.sleep(0.02)
        assert table.ctl.names[1] == "Anna", table.ctl.names
    finally:
        table.on_leave(app)
    assert app.scene is lobby


# ---------------------------------------------------------------------------------------------- hosting (13)

def test_hosting_shows_the_address_to_give_and_can_be_cancelled_or_joined(home, monkeypatch):
    from netplay.botpeers import bot_peers

    @contextlib.contextmanager
    def advertise(**kw):   # no multicast in a test: the advert is the discovery tests' business
        yield None

    monkeypatch.setattr(discovery, "advertise", advertise)
    app, lobby = _lobby(home)
    ids = [g.id for g in lobby.games]
    _press(app, lobby, f"game:{ids.index('madagaskar')}")
    _press(app, lobby, "host:")
    hosting = app.scene
    assert isinstance(hosting, HostingScene)
    session = hosting.ctl.session
    texts = drawn_texts(app)
    shown = [t for t in texts if t.endswith(f":{session.port}/{session.identity.fingerprint}")]
    assert shown, f"no address to give: {texts}"
    assert "Waiting for 1 more player." in texts and "cancel hosting (Esc)" in texts
    shots(app, "lobby-hosting")
    _click(app, next(b for b in hosting.buttons if b.key == "cancel").rect.center)
    assert app.scene is lobby and lobby.message == "hosting cancelled"
    assert session.outcome is not None, "the session was left open"
    # host again; a player joins: the table replaces the hosting screen
    _press(app, lobby, "host:")
    hosting = app.scene
    assert isinstance(hosting, HostingScene)
    with bot_peers(hosting.ctl.session, "random", None, delay_s=0):
        budget = Budget(30)   # CPU seconds (tests/support/cpuclock.py)
        while not budget.over() and isinstance(app.scene, HostingScene):
            app.step([], 16)
            time.sleep(0.02)
        table = app.scene
        assert isinstance(table, TableScene), hosting.ctl.status()
        assert app.scenes == [lobby, table], "the hosting screen stays under the table"
        table.on_leave(app)
    assert app.scene is lobby


def test_the_spectators_setting_cycles_to_spectators_who_hear_the_chat_and_is_remembered(home):
    """The lobby's "spectators" cell: none, up to 4, up to 8, then the same with the chat term (`+ chat`): the
    terms the game is hosted with, and what the lobby remembers."""
    from replays.header import Spectating

    app, lobby = _lobby(home)
    ids = [g.id for g in lobby.games]
    _press(app, lobby, f"game:{ids.index('ploc')}")
    labels = []
    for _ in range(4):
        _press(app, lobby, "spectators:")
        app.step([], 16)
        labels.append(next(t for t in drawn_texts(app) if t.startswith("spectators:")))
    assert labels == ["spectators: up to 4", "spectators: up to 8", "spectators: up to 4 + chat",
                      "spectators: up to 8 + chat"], labels
    assert lobby.spectating == Spectating(8, 8, True)
    lobby.close()
    app, again = _lobby(home)
    assert again.spectating == Spectating(8, 8, True)
    _press(app, again, "spectators:")
    assert again.spectating is None                   # round to none
