"""Odd or Even (docs/rules/odd-even.md), the example of docs/architecture.md's "How to add a game": the worked
examples of its rules, then the stack taking a game that is its engine package alone (a signed match that the
audit verifies, the random bot under both names, the text renderer)."""

from __future__ import annotations

import pygame
import pytest

import bots
import engines
from bots.lib import RandomBot
from client.games import renderer_for
from client.games.text import TextRenderer
from engines.core import IllegalAction
from replays.audit import audit_replay
from replays.local import record_match, replay_bytes
from replays.reader import parse_replay

GAME = engines.get("odd-even")


def _play(*hands: tuple[str, str]):
    state = GAME.start(2)
    for first, second in hands:
        assert GAME.awaiting(state).kind == "simultaneous" and GAME.awaiting(state).seats == (0, 1)
        state = GAME.play(GAME.play(state, 0, first), 1, second)
    return state


def test_an_odd_total_scores_for_odd_and_an_even_one_for_even() -> None:
    state = _play(("show 1", "show 2"))
    assert GAME.view(state, None)["points"] == [1, 0] and GAME.view(state, 0)["last"] == [1, 2]
    state = _play(("show 1", "show 2"), ("show 2", "show 2"), ("show 1", "show 1"))
    assert GAME.view(state, None)["points"] == [1, 2]


def test_the_first_to_three_points_wins() -> None:
    state = _play(*[("show 2", "show 1")] * 3)
    result = GAME.result(state)
    assert result is not None and result.winners == (0,) and result.scores == (3, 0) and result.reason == "3 points"
    assert GAME.legal(state, 0) == [] and GAME.awaiting(state).kind == "over"


def test_a_seat_shows_one_or_two_fingers_once_a_step() -> None:
    state = GAME.start(2)
    assert GAME.legal(state, 0) == ["offer draw", "resign", "show 1", "show 2"]
    with pytest.raises(IllegalAction, match="show 1 or show 2"):
        GAME.play(state, 0, "show 3")
    half = GAME.play(state, 0, "show 2")
    assert GAME.awaiting(half).seats == (1,) and GAME.legal(half, 0) == []
    with pytest.raises(IllegalAction):
        GAME.play(half, 0, "show 1")
    assert GAME.describe(state, 1, "show 2") == "even shows 2"


def test_the_stack_takes_a_game_that_is_its_engine_alone() -> None:
    assert engines.describe("odd-even").family == "oddeven"
    assert bots.for_game("odd-even") == {"random": RandomBot, "smart": RandomBot}
    record = record_match("odd-even", RandomBot(), seed=3, players=2, write=False, reproducible=True)
    kinds = {f.kind for f in record.frames}
    assert {"commit", "reveal"} <= kinds and "chain" not in kinds
    verdict = audit_replay(parse_replay(replay_bytes(record)))
    assert verdict.status == "valid", verdict.reason
    renderer = renderer_for("odd-even")
    assert isinstance(renderer, TextRenderer)
    pygame.font.init()
    surface = pygame.Surface((640, 480))
    renderer.draw(surface, surface.get_rect(), GAME.view(GAME.start(2), 0), {"show 1", "show 2"}, [], 16)
