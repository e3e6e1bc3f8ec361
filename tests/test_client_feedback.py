"""Feedback the same in every game (issue 15): an illegal click on the board or an illegal choice at the
table says why in words (what was clicked by its name, never a bare id, and what may come instead), a
greyed button says why it is greyed, and the notice goes once a later legal action is made."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere

import random
import re

import pygame
import pytest
from support.clickplay import ARTIFACTS, _click, _play_one

import engines
from client.actions import ActionBuilder
from client.app import App
from client.controller import LocalController
from client.scenes.table import TableScene

VAGUE = {"", "not available", "the rules do not allow it at this point"}


def _open(gid: str) -> tuple[App, TableScene]:
    game = engines.get(gid)
    players = 1 if game.players == (1,) else game.players[0]
    ctl = LocalController(game, 0, ["random"], players=players, seed=1, bot_delay_ms=0)
    app = App((1280, 720))
    scene = TableScene(ctl)
    app.push(scene)
    _until(app, lambda: scene.builder.candidates())
    return app, scene


def _until(app: App, ready, frames: int = 2000) -> None:
    for _ in range(frames):
        app.step([], 16)
        if ready():
            return
    raise AssertionError("the table never got there")


def _fits(scene: TableScene, token: str) -> bool:
    trial = ActionBuilder(list(scene.builder.legal), list(scene.builder.tokens))
    return all(trial.push(part) for part in token.split(" "))


def _illegal_spot(app: App, scene: TableScene, rng: random.Random) -> tuple[tuple[int, int], str]:
    """A point of the board whose token no legal action takes now (an id such as a field's number
    preferred: that is where a bare id would show); played on until there is one (Ploc's reroll
    phase has none: every die and both tiles may be clicked)."""
    for _ in range(10):
        found = _spots(scene)
        if found:
            return found
        _play_one(app, scene, rng, {"board": 0, "button": 0})
        _until(app, lambda: scene.builder.candidates())
    raise AssertionError("no spot of the board gives a token that is not possible now")


def _spots(scene: TableScene) -> tuple[tuple[int, int], str] | None:
    view, rect = scene.ctl.view(), scene.board_rect
    found: list[tuple[tuple[int, int], str]] = []
    for x in range(rect.x + 4, rect.right, 12):
        for y in range(rect.y + 4, rect.bottom, 12):
            token = scene.renderer.hit(rect, view, (x, y))
            if token is not None and not _fits(scene, token):
                if any(ch.isdigit() for ch in token):
                    return (x, y), token
                found.append(((x, y), token))
    return found[0] if found else None


def _draw_button(scene: TableScene):
    return next(b for b in scene.buttons if b.key == "action:offer draw")


def _says_why(scene: TableScene, token: str) -> None:
    notice = scene.notice
    assert notice and scene.notice_bad, f"a click on {token!r} said nothing"
    head = notice.split(":")[0]
    assert head != token and not re.fullmatch(r"[a-z]?\d+[a-z]*\d*", head), f"a bare id: {notice!r}"
    assert "not possible" in notice.lower()
    choices = scene.builder.candidates()
    assert any(scene.token_label(c) in notice for c in choices[:4]), f"{notice!r} does not say what may come"


@pytest.mark.parametrize("gid", sorted(engines.GAMES))
def test_illegal_clicks_and_greyed_buttons_say_why_and_the_notice_clears(gid: str) -> None:
    app, scene = _open(gid)
    rng = random.Random(5)
    # an illegal click on the board: named in words, with what may come instead
    pos, token = _illegal_spot(app, scene, rng)
    before = list(scene.builder.tokens)
    _click(app, pos)
    _says_why(scene, token)
    assert scene.builder.tokens == before
    app.screenshot(ARTIFACTS / f"feedback-{gid}.png")
    # an illegal choice by key (a number beyond the choices), then a legal one clears the notice
    choices = scene.builder.candidates()
    if len(choices) < 9:
        app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_9, mod=0, unicode="9")], 16)
        assert scene.notice.startswith("key 9: no such choice now (choose with key"), scene.notice
    _click(app, next(b.rect for b in scene.buttons if b.key == f"token:{choices[0]}").center)
    assert scene.notice == "", "a legal choice left the refusal standing"
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")], 16)
    # a greyed "offer draw" says why: play on until it is greyed (the bot's turn, or a solo game)
    scene.ctl.bot_delay_ms = 10**9
    for _ in range(200):
        app.step([], 16)
        if not _draw_button(scene).enabled:
            break
        if scene.builder.candidates():
            _play_one(app, scene, rng, {"board": 0, "button": 0})
    button = _draw_button(scene)
    assert not button.enabled and scene.ctl.result() is None
    _click(app, button.rect.center)
    reason = scene._disabled_reason(button.key)
    assert scene.notice == f"offer draw: not possible now ({reason})" and reason not in VAGUE, scene.notice
    # the bots move on; the next legal action of this seat clears the notice
    scene.ctl.bot_delay_ms = 0
    scene.ctl._next_bot_ms = None
    _until(app, lambda: scene.builder.candidates() or scene.ctl.result() is not None, 400)
    if scene.ctl.result() is None:
        assert scene.notice, "the notice went before any action of this seat"
        _play_one(app, scene, rng, {"board": 0, "button": 0})
        assert scene.notice == "", scene.notice


@pytest.mark.parametrize("gid,reason", [("madagaskar", "offer draw is not allowed at this point of Madagaskar"),
                                         ("loyal-captain", "'offer draw' is not part of Loyal Captain")],
                         ids=["madagaskar", "loyal-captain"])
def test_on_its_own_turn_a_greyed_draw_offer_gives_the_engines_reason(gid: str, reason: str) -> None:
    """Madagaskar allows no draw offer during the opening placements, Loyal Captain none at all."""
    app, scene = _open(gid)
    assert scene.ctl.unavailable() == "" and scene.ctl.why_not("offer draw") != ""
    button = _draw_button(scene)
    assert not button.enabled
    _click(app, button.rect.center)
    assert scene.notice == f"offer draw: not possible now ({reason})", scene.notice
