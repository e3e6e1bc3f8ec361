"""Rules at hand (issue 27, item 10): a rules page per game in the client, rendered from the
repository's own pages (headings, paragraphs, lists, tables, code spans), scrollable, readable at
1024x600, 1280x720 and 1920x1080; reached from the lobby, the table and the replay viewer."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest
from support.clickplay import _click

import engines
from client.app import App
from client.controller import LocalController
from client.scenes.lobby import LobbyScene
from client.scenes.rules import RulesScene, rules_path
from client.scenes.table import TableScene
from client.ui import markdown, textfit

ARTIFACTS = Path(__file__).parent / "artifacts"
SIZES = [(1024, 600), (1280, 720), (1920, 1080)]


def _key(key):
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="")


def test_every_game_has_a_rules_page_in_the_repository():
    for gid in engines.GAMES:   # found by the descriptor's page, the game's id unless it shares one
        path = rules_path(gid)
        assert path.exists(), path
        blocks = markdown.parse(path.read_text())
        assert any(b.kind == "h1" for b in blocks) and any(b.kind == "p" for b in blocks), gid


def test_markdown_blocks_and_inline_styles():
    text = ("# Title\n\nA **bold** word, a `code` span and [a link](x.md).\n\n## Part\n\n- one\n  more\n"
            "  - nested\n1. first\n\n| a | b |\n| --- | --- |\n| 1 | `x` |\n\n```\nroll\n```\n---\n"
            "bad\x07char")
    blocks = markdown.parse(text)
    kinds = [b.kind for b in blocks]
    assert kinds == ["h1", "p", "h2", "li", "li", "li", "table", "code", "rule", "p"], kinds
    assert blocks[3].text == "one more" and blocks[4].depth == 1 and blocks[5].bullet == "1."
    assert blocks[6].rows == [["a", "b"], ["1", "`x`"]] and blocks[-1].text == "badchar"
    assert markdown.runs("a *word* and 2*3") == [("a ", ""), ("word", ""), (" and 2*3", "")]
    assert markdown.parse("x \u2192 y")[0].text == "x -> y"   # a glyph the font lacks, as text
    assert markdown.runs(blocks[1].text) == [("A ", ""), ("bold", "b"), (" word, a ", ""), ("code", "c"),
                                             (" span and ", ""), ("a link", ""), (".", "")]
    pygame.font.init()
    rows = markdown.layout(blocks, 300, 18)
    assert all(x + 2 >= 0 for r in rows for _, _, x, _ in r.words)
    assert markdown.height(rows) > 0


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("gid", ["catan", "madagaskar"])
def test_the_rules_read_at_every_size_and_scroll(gid, size):
    app = App(size)
    app.push(LobbyScene(None, browse=False))
    scene = RulesScene(gid)
    app.push(scene)
    app.step([], 16)
    for scroll in (0, 900):
        scene.scroll = scroll
        with textfit.recording(app.size) as frame:
            app.step([], 16)
        assert not textfit.problems(frame), textfit.problems(frame)[:3]
        texts = [w for kind, _, w in frame.items if kind == "text"]
        assert texts and all(len(t) < 400 for t in texts)
        app.screenshot(ARTIFACTS / f"rules-{gid}-{size[0]}-{scroll}.png")
    scene.scroll = 0
    app.step([_key(pygame.K_PAGEDOWN)], 16)
    assert scene.scroll > 0
    app.step([_key(pygame.K_END)], 16)
    end = scene.scroll
    assert end == scene._limit() > 0
    app.step([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=3)], 16)
    assert scene.scroll < end
    app.step([_key(pygame.K_HOME)], 16)
    assert scene.scroll == 0
    if scene.toc:   # the contents beside the page (wide windows): a click jumps to a section
        rect, y = scene.toc[-1]
        _click(app, rect.center)
        assert scene.scroll == min(scene._limit(), max(0, y - 4))
    app.step([_key(pygame.K_ESCAPE)], 16)
    assert isinstance(app.scene, LobbyScene)


def test_a_missing_page_says_so():
    app = App((1024, 600))
    scene = RulesScene("ploc", path=Path("/nonexistent/ploc.md"))
    app.push(scene)
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    assert any("cannot be read" in w for kind, _, w in frame.items if kind == "text")


def test_rules_from_the_lobby_and_the_table(tmp_path):
    app = App((1280, 720))
    lobby = LobbyScene(tmp_path, browse=False)
    app.push(lobby)
    app.step([], 16)
    _click(app, next(b for b in lobby.buttons if b.key == "rules:").rect.center)
    assert isinstance(app.scene, RulesScene) and app.scene.game_id == lobby.game.id
    app.step([_key(pygame.K_ESCAPE)], 16)
    game = engines.get("ploc")
    table = TableScene(LocalController(game, 0, ["random"], players=2, seed=1, bot_delay_ms=10**9))
    app.push(table)
    app.step([], 16)
    _click(app, next(b for b in table.chronicle.buttons if b.key == "rules").rect.center)
    assert isinstance(app.scene, RulesScene) and app.scene.game_id == "ploc"
    app.step([_key(pygame.K_ESCAPE)], 16)
    assert app.scene is table
