"""The bot levels in the lobby (issue 36): the bots' setting cycles through easy, medium, hard and random
(medium first: the old smart bot), a seat can be given any level, an older settings file's "smart" comes
back as medium, and the labels fit at 1024x600. Driven by events, headless."""

from __future__ import annotations

import json
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from support.clickplay import _click, shots

from client import settings
from client.app import App
from client.scenes.lobby import SETTINGS, LobbyScene, _resumed_decider


def _lobby(home, size=(1024, 600)) -> tuple[App, LobbyScene]:
    app = App(size)
    lobby = LobbyScene(home / "replays", browse=False)
    app.push(lobby)
    app.step([], 16)
    return app, lobby


def _press(app: App, lobby: LobbyScene, key: str) -> None:
    rect = next((b.rect for b in lobby.buttons if b.key == key and b.enabled), None)
    assert rect is not None, f"no enabled button {key!r}"
    _click(app, rect.center)


def _label(lobby: LobbyScene, key: str) -> str:
    return next(b.label for b in lobby.buttons if b.key == key)


def test_the_lobby_offers_the_levels(home):
    app, lobby = _lobby(home)
    ids = [g.id for g in lobby.games]
    _press(app, lobby, f"game:{ids.index('quedah-merchant')}")
    seen = [_label(lobby, "bot:")]
    for _ in range(4):
        _press(app, lobby, "bot:")
        seen.append(_label(lobby, "bot:"))
    assert seen == ["bots: medium", "bots: hard", "bots: random", "bots: easy", "bots: medium"]
    roles = []
    for _ in range(6):
        _press(app, lobby, "role:1")
        roles.append(lobby.roles[1])
    assert roles == ["here", "bot:easy", "bot:medium", "bot:hard", "bot:random", "open"]
    _press(app, lobby, "role:1")
    _press(app, lobby, "role:1")
    _press(app, lobby, "role:1")        # seat 1: the medium bot
    assert _label(lobby, "role:1").endswith("bot medium")
    shots(app, "lobby-levels")          # tests/artifacts/: the labels as drawn, at each size
    saved = lobby._settings()      # what the settings file gets
    lobby.close()
    assert saved["bot"] == "medium" and saved["setups"]["quedah-merchant"]["roles"] == ["me", "bot:medium"]


def test_an_older_settings_file_s_smart_bot_is_medium(home):
    path = settings.settings_file(SETTINGS)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"game": "ploc", "bot": "smart",
                                "setups": {"ploc": {"players": 2, "roles": ["me", "bot:smart"], "options": {}}}}))
    app, lobby = _lobby(home)
    assert lobby.game.id == "ploc" and lobby.chosen_bot() == "medium" and lobby.roles == ["me", "bot:medium"]
    assert _label(lobby, "bot:") == "bots: medium"
    assert _resumed_decider("smart-bot-1", 0).name == "smart"      # a seat resumed from an older game
    assert _resumed_decider("hard-bot-1", 0).name == "hard"
