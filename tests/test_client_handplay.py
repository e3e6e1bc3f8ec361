"""Issue 34's closing walk-through, as a person plays it (NETPLAY_LONG=1 only: a whole Catan game with
three bot peer processes costs about half a minute of CPU; the quick run covers each part on its own in
test_client_lobby, test_client_counters, test_client_sounds and test_client_stats).

From the lobby: Catan, four players, the smart bots, "play here vs bots". Every move of the person is
entered by clicks on the board and the choice buttons (`support.clickplay`); what to play is the medium
bot's advice on the person's own knowledge state, except that the first offer a bot makes to the person
is answered by a counter-offer put together by clicks, which the bot then makes. Sounds are on (recorded
under SDL's dummy driver). After the end screen, "leave" and "statistics": the page counts the game for
every player from the signed file. Screenshots: tests/artifacts/hand-*.png."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import random
import time
from pathlib import Path

import pytest
from support.clickplay import ARTIFACTS, _button, _click, _play_one, drawn_texts
from support.cpuclock import Budget
from support.quick import LONG

from bots.catan import SmartBot
from client.app import App
from client.scenes.lobby import BOT_DELAYS, LobbyScene
from client.scenes.stats import StatsScene
from client.scenes.table import TableScene
from client.sounds import Cue
from engines.core import COMMON_ACTIONS

pytestmark = pytest.mark.skipif(not LONG, reason="NETPLAY_LONG=1 only: a whole game against bot processes")


class _Advice:
    """`_play_one` enters `rng.choice(legal)`: this one chooses what the person decided."""

    def __init__(self, action: str):
        self.action = action

    def choice(self, legal: list[str]) -> str:
        assert self.action in legal, self.action
        return self.action


def _lobby_button(lobby: LobbyScene, key: str):
    return next(b.rect for b in lobby.buttons if b.key == key and b.enabled)


def _counter(app: App, table: TableScene) -> None:
    """Answer the offer on the table with a counter-offer: the first cards offered, for the first asked."""
    _click(app, table.renderer.token_pos(table.board_rect, table.ctl.view(), "counter"))
    for _ in range(2):
        token = next(c for c in table.builder.candidates() if c != "send")
        for pos in table.renderer.clicks(table.board_rect, table.ctl.view(), token):
            _click(app, pos)
    assert table.builder.tokens == [], table.builder.tokens


def test_a_catan_game_against_three_bots_by_clicks_with_a_counter_offer_sounds_and_statistics(home) -> None:
    app = App((1280, 720))
    assert app.sounds.enabled
    lobby = LobbyScene(home / "replays", browse=False)
    app.push(lobby)
    app.step([], 16)
    _click(app, _lobby_button(lobby, f"game:{next(i for i, g in enumerate(lobby.games) if g.id == 'catan')}").center)
    while lobby.players != 4:
        _click(app, _lobby_button(lobby, "players:").center)
    assert lobby.bot_names[lobby.bot_index] in ("smart", "medium")
    lobby.bot_delay_index = BOT_DELAYS.index(0.0)
    app.step([], 16)
    app.screenshot(ARTIFACTS / "hand-lobby.png")
    _click(app, _lobby_button(lobby, "local:").center)
    table = app.scene
    assert isinstance(table, TableScene) and table.ctl.game.id == "catan"
    ctl, advisor, rng = table.ctl, SmartBot(), random.Random(5)
    clicks = {"board": 0, "button": 0}
    countered: str | None = None
    asked_at = 0
    budget = Budget(240, wall_cap=600)
    while ctl.result() is None and not budget.over():
        app.step([], 16)
        if not table.builder.candidates():
            time.sleep(0.003)
            continue
        if countered is None and "counter" in table.builder.candidates():
            offer = ctl.view()["offer"]
            app.screenshot(ARTIFACTS / "hand-offered.png")
            _counter(app, table)
            countered, asked_at = ctl.said[-1][1], len(ctl.log)
            assert ctl.said[-1][0] == ctl.seat and countered.startswith("counter-offer turn "), ctl.said[-1:]
            assert (offer["give"], offer["get"]) != tuple(countered.split(" offer ")[1].split(" to ")[0].split(" for "))
            continue
        legal = ctl.legal()
        action = advisor.choose(ctl.game, ctl._ledger().state, ctl.seat, legal, rng)
        if action in COMMON_ACTIONS:
            action = next(a for a in legal if a not in COMMON_ACTIONS)
        _play_one(app, table, _Advice(action), clicks)
    result = ctl.result()
    assert result is not None, f"no end in time: {ctl.status()}"
    for _ in range(3):
        app.step([], 16)
    app.screenshot(ARTIFACTS / "hand-end.png")
    # the counter-offer was answered: its bot made the offer it proposed, to the person
    assert countered is not None, "no bot offered the person a trade in a whole game"
    assert any(" offers " in line and line.endswith(f"to seat {ctl.seat}") for line in ctl.log[asked_at:]), \
        ctl.log[asked_at:asked_at + 8]
    heard = {cue for cue, _ in app.sounds.played}
    assert {Cue.ROLL, Cue.YOUR_TURN, Cue.OFFER, Cue.END} <= heard, heard
    assert clicks["board"] > 20 and clicks["button"] > 5, clicks
    path = Path(ctl.replay_path)
    _click(app, _button(table, "leave").center)
    assert app.scene is lobby
    _click(app, _lobby_button(lobby, "stats:").center)
    stats = app.scene
    assert isinstance(stats, StatsScene)
    budget = Budget(60, wall_cap=120)
    while not any("1 game from 1 replay file" in t for t in drawn_texts(app)) and not budget.over():
        time.sleep(0.02)
    texts = drawn_texts(app)
    app.screenshot(ARTIFACTS / "hand-stats.png")
    assert "1 game from 1 replay file" in texts, texts[:20]
    won = "Catan: 1 game, 1 win"
    assert texts.count(won) == 1 and texts.count("Catan: 1 game, 1 loss") == 3, texts
    assert any(t.endswith("(you)") for t in texts) and path.exists()
