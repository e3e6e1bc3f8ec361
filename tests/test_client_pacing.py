"""Issue 15's pacing and titles: a bot at an in-process table waits its configured delay before moving
(driven by the controller's own clock, `poll(now_ms)`, no sleeping); a solo table is titled with the
game alone, never "you vs ..."; a joined table names the game, never the host's address."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import threading

import pytest

import engines
from client.controller import LocalController
from client.moves import split_actions
from client.netcontroller import NetController
from client.scenes.lobby import BOT_DELAYS, bot_table_title
from client.scenes.table import TableScene
from netplay.session import QueueDecider


def _bot_to_move(delay_ms: int | None) -> LocalController:
    game = engines.get("madagaskar")
    kw = {} if delay_ms is None else {"bot_delay_ms": delay_ms}
    ctl = LocalController(game, 0, ["random"], players=2, seed=4, **kw)
    ctl.poll(0)
    assert ctl.legal(), "seat 0 moves first in Madagaskar"
    ctl.submit(split_actions(ctl.legal())[0][0])
    assert not ctl.legal() and ctl.unavailable() == "the bot is thinking"
    return ctl


def test_the_default_bot_delay_is_the_lobbys_first_choice() -> None:
    assert LocalController.bot_delay_ms == 600 == round(BOT_DELAYS[0] * 1000)
    assert 0.0 in BOT_DELAYS   # "no delay" is one of the lobby's choices


@pytest.mark.parametrize("delay_ms", [None, 250, 0])
def test_a_bots_move_waits_for_its_delay(delay_ms: int | None) -> None:
    ctl = _bot_to_move(delay_ms)
    delay = 600 if delay_ms is None else delay_ms
    moves = len(ctl.log)
    t0 = 10_000
    ctl.poll(t0)                          # the bot's turn is seen now: its delay starts
    for now in (t0, t0 + delay // 2, t0 + delay - 1):
        if delay == 0:
            break
        ctl.poll(now)
        assert len(ctl.log) == moves and not ctl.legal(), f"the bot moved at +{now - t0} ms of {delay}"
        assert ctl.last_move()[0] == 0
    ctl.poll(t0 + delay)
    assert ctl.last_move()[0] == 1 and len(ctl.log) > moves, "the bot did not move once its delay was over"
    assert ctl.legal(), "the human's turn again"


def test_a_solo_table_is_titled_with_the_game_alone() -> None:
    game = engines.get("ebbe-flut-solo")
    assert bot_table_title(game, 1, "smart") == game.title
    assert bot_table_title(engines.get("ploc"), 2, "smart") == "Ploc - you vs the smart bot"
    ctl = LocalController(game, 0, ["smart"], players=1, bot_delay_ms=0)
    for title in (TableScene(ctl).title, TableScene(ctl, bot_table_title(game, 1, "smart")).title):
        assert title.startswith("Ebbe & Flut") and "vs" not in title and "bot" not in title, title


class _JoiningSession:
    """What a NetController reads of a joiner's session before and after the host's offer arrives."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.game = None
        self.address = "tcp://192.0.2.7:47000"


def test_a_joined_table_names_the_game_not_the_address() -> None:
    session = _JoiningSession()
    table = TableScene(NetController(session, QueueDecider(), thread=False), "")  # as the lobby opens it
    assert table.title == "connecting..."
    session.game = engines.get("turning-tides")
    assert table.title == "Turning Tides"
    assert "192.0.2.7" not in table.title and "47000" not in table.title
