"""The Cities & Knights table in the Pygame client, headless: knights, walls, improvements, decks and
progress cards give the tokens of the action texts where they are drawn; only what `legal()` allows
is lit; a click where several verbs fit opens a menu of them; the composer puts multisets of the 8
card types together; progress cards are face up for their holder and backs per deck for the others.
Screenshots of several stages of a game at 1024x600 and 1920x1080 go to tests/artifacts/catan-ck-*.png,
each checked by the text-fit recorder."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere

import random
from pathlib import Path

import pygame
import pytest
from support.catan_ck import EagerBot, G, ck_put, position, with_ext, with_inner
from support.clickplay import _button, _click, table_at
from support.clickplay import fits as _fits
from support.clickplay import sent as _sent

import bots
from client.app import App
from client.controller import LocalController
from client.games import renderer_for, seat_style
from client.games.catan_ck import Renderer, barbarian_strength, card_words
from client.scenes.table import TableScene
from client.textview import board
from client.ui import textfit
from engines.catan_ck.cards import NAMES
from engines.core import COMMON_ACTIONS

ARTIFACTS = Path(__file__).parent / "artifacts"
SIZES = [(1024, 600), (1920, 1080)]
BOARD = dict(s0=dict(settlements=[12], cities=[23, 40], roads=[19, 26, 57, 20], walls=[40], levels=(1, 2, 0),
                     hand="4brick+2lumber+2wool+3grain+2ore+2cloth+1coin+3paper",
                     knights={17: (1, False), 18: (2, True)}, progress=["spy", "merchant", "crane"]),
             s1=dict(settlements=[14], cities=[28], roads=[21, 40], hand="2lumber+1grain+1ore+1coin",
                     knights={22: (1, True)}, progress=["bishop"]),
             s2=dict(settlements=[31], cities=[35], roads=[46, 44], hand="1wool+2ore"),
             s3=dict(settlements=[10, 42], roads=[17, 53], hand="1brick"))


def _table(state, size=(1280, 720), seat: int = 0, delay: int = 10**9) -> tuple[App, TableScene]:
    return table_at(G, state, size, seat, delay)


def _texts(app: App) -> list[str]:
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    return [words for kind, _, words in frame.items if kind == "text"]


def _lit(table: TableScene, kind: str) -> set:
    renderer, view = table.renderer, table.ctl.view()
    lay = renderer._layout(table.board_rect, view)
    return {p[1] for p in renderer._places(lay, view) if p[0] == kind and renderer._lit(p, view)}


def test_the_table_uses_the_cities_and_knights_renderer_on_the_base_one() -> None:
    renderer = renderer_for("catan-ck")
    assert isinstance(renderer, Renderer) and type(renderer).__mro__[1].__module__ == "client.games.catan"
    assert renderer.kinds == NAMES  # the hand, the composer, the chips: the 8 card types of the notation
    assert seat_style("catan-ck", 3) == seat_style("catan", 3)


def test_only_what_legal_allows_is_lit() -> None:
    app, table = _table(position(players=4, **BOARD))
    legal = [a.split(" ") for a in table.ctl.legal() if a not in COMMON_ACTIONS]
    node_verbs = {"settle", "city", "wall", "knight", "activate", "promote", "knightmove", "displace", "chase"}
    assert _lit(table, "node") == {int(a[1]) for a in legal if a[0] in node_verbs}
    assert _lit(table, "edge") == {int(a[1]) for a in legal if a[0] == "road"}
    assert _lit(table, "track") == {a[1] for a in legal if a[0] == "improve"} == {"trade", "science"}
    assert _lit(table, "card") == {a[1] for a in legal if a[0] == "play"} == {"spy", "merchant", "crane"}
    assert not _lit(table, "hex") and not _lit(table, "deck") and not _lit(table, "bank")
    assert _lit(table, "seat") == set()  # `play spy 1` needs the card first
    # after the card, the seat it may name; after the merchant, the hexes it may stand on
    for token in ("play", "spy"):
        table.builder.push(token)
    app.step([], 16)
    assert _lit(table, "seat") == {1}
    table.builder.clear()
    for token in ("play", "merchant"):
        table.builder.push(token)
    app.step([], 16)
    assert _lit(table, "hex") == {int(a[2][1:]) for a in legal if a[:2] == ["play", "merchant"]}
    assert not _lit(table, "node")


def test_walls_knights_and_improvements_by_clicks() -> None:
    state = position(players=4, **BOARD)
    app, table = _table(state)
    assert "trade 4brick for 1ore" in table.ctl.legal()  # "trade" is a verb too: the track still improves
    lay = table.renderer._layout(table.board_rect, table.ctl.view())
    _click(app, lay.spots[("track", "trade")].center)
    assert _sent(table) == ["improve trade"]
    app, table = _table(state)
    lay = table.renderer._layout(table.board_rect, table.ctl.view())
    _click(app, lay.node(23))  # an own city without a wall
    assert _sent(table) == ["wall 23"]
    app, table = _table(state)
    lay = table.renderer._layout(table.board_rect, table.ctl.view())
    _click(app, lay.node(18))  # the active knight: only a move, so the click names the verb
    assert table.builder.tokens == ["knightmove", "18"]
    _click(app, lay.node(13))
    assert _sent(table) == ["knightmove 18 13"]
    # a click on a node where nothing may be done is refused in words, and nothing is sent
    app, table = _table(state)
    lay = table.renderer._layout(table.board_rect, table.ctl.view())
    _click(app, lay.node(0))
    assert not _sent(table) and "not possible now" in table.notice


def test_a_knight_that_may_be_activated_or_promoted_opens_a_menu() -> None:
    app, table = _table(position(players=4, **BOARD))
    renderer, view = table.renderer, table.ctl.view()
    lay = renderer._layout(table.board_rect, view)
    assert renderer.hit(table.board_rect, view, lay.node(17)) is None  # two verbs fit: no token yet
    assert renderer.token_pos(table.board_rect, view, "17") is None
    _click(app, lay.node(17))
    assert table.builder.tokens == [] and not _sent(table)
    items = renderer._menu_items(renderer._layout(table.board_rect, table.ctl.view()))
    assert [renderer._menu_label(r) for r in renderer.menu[1]] == ["activate", "promote"] and len(items) == 2
    _click(app, items[1].center)
    assert _sent(table) == ["promote 17"]
    # a click beside the menu closes it
    app, table = _table(position(players=4, **BOARD))
    lay = table.renderer._layout(table.board_rect, table.ctl.view())
    _click(app, lay.node(17))
    assert table.renderer.menu is not None
    _click(app, (table.board_rect.x + 3, table.board_rect.centery))
    assert table.renderer.menu is None and not _sent(table)


def test_progress_cards_own_face_up_others_as_backs_and_played_by_clicks() -> None:
    state = position(players=4, **BOARD)
    app, table = _table(state)
    texts = _texts(app)
    whole = " ".join(texts).replace("- ", "").split(" ")   # a name broken over two lines on a narrow card
    assert {"spy", "merchant", "crane"} <= set(whole)
    assert "1 progress card" in texts and "bishop" not in texts  # seat 1's card: a back, no name
    assert "cards" not in table.ctl.view()["progress"][1]
    view = table.ctl.view()
    _click(app, table.renderer.token_pos(table.board_rect, view, "merchant"))
    assert table.builder.tokens == ["play", "merchant"]
    _click(app, table.renderer._layout(table.board_rect, table.ctl.view()).hex(4))
    assert _sent(table) == ["play merchant h4"]
    app, table = _table(state)
    _click(app, table.renderer.token_pos(table.board_rect, table.ctl.view(), "crane"))
    lay = table.renderer._layout(table.board_rect, table.ctl.view())
    assert _lit(table, "track") == {"trade", "science"}
    _click(app, lay.spots[("track", "science")].center)
    assert _sent(table) == ["play crane science"]


def test_the_spy_takes_from_the_shown_cards() -> None:
    state = position(players=4, **BOARD)
    app, table = _table(state, delay=0)
    for token in ("play", "spy", "1"):
        assert table.builder.push(token)
    table._after_token()
    assert _sent(table) == ["play spy 1"]
    for _ in range(5):  # seat 1 shows its hand (a bot move), then this seat takes
        app.step([], 16)
    view = table.ctl.view()
    assert view["step"] == "take" and view["to_act"] == 0, view["step"]
    texts = _texts(app)
    assert "bishop" in texts and "take one of Blue's cards" in texts
    _click(app, table.renderer.token_pos(table.board_rect, view, "bishop"))
    assert _sent(table)[-1] == "take bishop"


def test_a_discard_of_commodities_in_the_composer_and_a_deck_picked() -> None:
    state = with_inner(position(players=4, **BOARD), step="discard", queue=(0,), dice=(3, 4))
    app, table = _table(state)
    legal = [a for a in table.ctl.legal() if a not in COMMON_ACTIONS]
    assert legal and all(a.startswith("discard ") for a in legal)
    choice = next(a for a in legal if "cloth" in a and "paper" in a).split(" ")[1]
    path = table.renderer.clicks(table.board_rect, table.ctl.view(), choice)
    assert path is not None
    lay = table.renderer._layout(table.board_rect, table.ctl.view())
    assert {("plus", "cloth"), ("minus", "paper"), ("ok", "")} <= set(lay.spots)
    for pos in path:
        _click(app, pos)
    assert _sent(table) == [f"discard {choice}"]
    # a defender's pick: the decks in the bank (not sent here: this position's decks are not the referee's)
    state = with_ext(with_inner(position(players=4, **BOARD), step="pick", queue=(0,)), attacked=True)
    app, table = _table(state)
    assert _lit(table, "deck") == {"trade", "politics", "science"}
    lay = table.renderer._layout(table.board_rect, table.ctl.view())
    token = table.renderer.hit(table.board_rect, table.ctl.view(), lay.spots[("deck", "politics")].center)
    assert token == "politics" and table.builder.push(token)  # the table puts `pick` before it
    assert table.builder.finished() == "pick politics"


def test_the_barbarians_the_dice_and_the_pieces_are_drawn_from_the_view() -> None:
    state = with_ext(position(players=4, active=1, **BOARD), ship=6, metro=(0, -1, -1), metro_at=(23, -1, -1),
                     merchant=4, merchant_owner=1)  # seat 1's turn: the header says what was rolled
    state = with_inner(ck_put(state, 0, defender=2), dice=(2, 5, 5))
    app, table = _table(state)
    view = table.ctl.view()
    assert barbarian_strength(view) == (4, 3)  # four cities; the strong knight and seat 1's basic one are active
    texts = _texts(app)
    assert "cities 4 vs knights 3 - robber locked" in texts
    assert any(t.startswith("last roll 7 (red 2), politics gate") for t in texts), texts
    assert {"trade metropolis", "defender 2"} <= set(texts)
    assert "merchant: Blue" in " ".join(texts)
    renderer = table.renderer
    assert renderer.label(view, ["improve"], "trade") == "trade: level 2, Merchant Guild (2 cloth)"
    assert renderer.label(view, ["activate"], "17") == "your inactive basic knight on node 17"
    assert renderer.label(view, ["play"], "merchantfleet") == "merchant fleet"
    assert renderer.label(view, ["pick"], "science") == "draw a science card"
    assert renderer.label(view, ["play", "merchant"], "h9") == "h9 desert"
    assert renderer.label(view, ["play", "alchemist", "2"], "5") == "white die 5 (total 7)"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_screenshots_of_a_game_from_set_up_to_the_end(size: tuple[int, int]) -> None:
    """A four-seat game, the person's seat played by the smart bot's choices: the set-up, knights and
    walls on the board, the ship near its attack, a metropolis, and the end, every text in its box."""
    ctl = LocalController(G, 0, ["smart"], players=4, seed=1, bot_delay_ms=0)
    app = App(size)
    table = TableScene(ctl)
    app.push(table)
    _fits(app, "catan-ck-setup")
    smart, rng = bots.make("catan-ck", ["smart"], 1)[0], random.Random(1)
    shots = {"knights-walls": False, "barbarians-near": False, "metropolis": False}
    for _ in range(6000):
        ctl.poll(10**9)
        if ctl.result() is not None:
            break
        view = ctl.view()
        if not shots["knights-walls"] and len(view["knights"]) >= 3 and view["walls"]:
            shots["knights-walls"] = True
            _fits(app, "catan-ck-knights-walls")
        if not shots["barbarians-near"] and view["ship"] >= 5:
            shots["barbarians-near"] = True
            _fits(app, "catan-ck-barbarians-near")
        if not shots["metropolis"] and any(view["metropolises"].values()):
            shots["metropolis"] = True
            _fits(app, "catan-ck-metropolis")
        if [a for a in ctl.legal() if a not in COMMON_ACTIONS]:
            state = ctl.referee.state_of(0)
            ctl.submit(smart.choose(G, state, 0, G.legal(state, 0), rng))
    assert ctl.result() is not None and all(shots.values()), shots
    _fits(app, "catan-ck-end")
    assert _button(table, "leave") is not None


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_screenshots_of_positions(size: tuple[int, int]) -> None:
    """Progress cards in hand with improvements and a metropolis, the ship one space from its attack,
    the verb menu open, the composer of a discard with commodities and the spy's take, every text in its
    box."""
    rich = with_ext(position(players=4, **BOARD), ship=6, metro=(0, -1, -1), metro_at=(23, -1, -1),
                    merchant=4, merchant_owner=1)
    rich = with_inner(ck_put(rich, 0, defender=2), dice=(2, 5, 5))
    app, table = _table(rich, size)
    _fits(app, "catan-ck-progress-cards")
    _click(app, table.renderer._layout(table.board_rect, table.ctl.view()).node(17))
    assert table.renderer.menu is not None
    _fits(app, "catan-ck-menu")
    app, table = _table(with_inner(rich, step="discard", queue=(0,), dice=(3, 4, 1)), size)
    assert table.renderer._tray_options() is not None
    _fits(app, "catan-ck-composer")
    app, table = _table(position(players=4, **BOARD), size, delay=0)
    for token in ("play", "spy", "1"):
        assert table.builder.push(token)
    table._after_token()
    for _ in range(5):
        app.step([], 16)
    assert table.ctl.view()["step"] == "take"
    _fits(app, "catan-ck-spy-take")


def test_the_viewer_names_progress_cards_only_in_the_revealed_view(tmp_path: Path) -> None:
    """A replay of bots that play cards eagerly (reproducible: the same game every run): in the revealed
    view another seat's progress cards are named; in seat 0's view they are backs with a count."""
    from client.scenes.viewer import ViewerScene
    from replays.local import record_match
    from replays.stepping import Stepper

    path = record_match("catan-ck", [EagerBot() for _ in range(3)], seed=4, players=3, directory=tmp_path,
                        options={"max_rounds": "10"}, reproducible=True).path
    stepper = Stepper.load(path)
    app = App((1920, 1080))
    app.push(ViewerScene(stepper))

    def holding(at: int) -> tuple[int, list[str]] | None:
        for seat in (1, 2):
            held = stepper.merged_view(at, "revealed")["progress"][seat].get("cards") or []
            if held and not {"printer", "constitution"} & set(held):
                return seat, held
        return None

    at = next((at for at in range(stepper.count - 1, -1, -1) if holding(at)), None)
    assert at is not None, "no other seat held a progress card"
    seat, held = holding(at)
    stepper.seek(at)
    stepper.set_mode("revealed")
    shown = " ".join(_texts(app))
    assert all(word in shown for c in held for word in card_words(c).split(" ")), (held, shown)
    app.screenshot(ARTIFACTS / "catan-ck-viewer-revealed.png")
    stepper.set_mode("seat 0")
    view = stepper.merged_view(at, "seat 0")
    assert "cards" not in view["progress"][seat]
    count = view["progress"][seat]["count"]
    texts = _texts(app)
    assert any(t.startswith(f"{count} progress card") for t in texts), texts
    assert not any(c in texts for c in held if c not in view["progress"][seat]["known"])
    app.screenshot(ARTIFACTS / "catan-ck-viewer-seat0.png")


def test_the_compact_board_names_commodities_knights_and_levels() -> None:
    view = G.view(position(players=4, **BOARD), 0)
    text = board(view, ["ann", "bob", "cy", "di"], me=0)
    lines = text.splitlines()
    assert len(lines) <= 16 and all(len(line) <= 110 for line in lines), text
    assert "seat 0 (ann) = you" in text and "2 lumber, 1 grain, 1 ore, 1 coin" in text
    assert "4br 2lu 2wo 3gr 2or 2cl 1co 3pa" in text  # a long line: the short names
    assert "strong* 18" in text and "basic 17" in text and "levels T1 P2 S0" in text
    assert "city 40 (wall)" in text and "progress: crane, merchant, spy" in text
    assert "progress: 1 politics" in text and "bishop" not in text  # seat 1's card, for seat 0
    assert "barbarian ship 0/7: 4 cities vs 3 active knights" in text


def test_a_pixel_changes_where_a_knight_is_activated() -> None:
    """The active state is drawn: a knight's disc differs between active and inactive."""
    pygame.display.init()
    pygame.font.init()
    surface, rect = pygame.Surface((1280, 720)), pygame.Rect(12, 52, 860, 656)
    pictures = []
    for on in (False, True):
        state = position(players=4, **{**BOARD, "s0": dict(BOARD["s0"], knights={17: (1, on)})})
        renderer = renderer_for("catan-ck")
        view = G.view(state, 0)
        renderer.draw(surface, rect, view, set(), [], 20)
        lay = renderer._layout(rect, view)
        x, y = lay.node(17)
        r = round(lay.radius * 0.26)
        pictures.append(pygame.image.tobytes(surface.subsurface((x - r, y - r, 2 * r, 2 * r)), "RGB"))
    assert pictures[0] != pictures[1]


def test_a_barbarian_attack_is_told_over_the_board_until_clicked_away():
    """Issue 34, item 10: the barbarians' attack was only a red line in the log; now its words stand in a box
    over the board for a while (and a click puts them away), raised by the attack as it happens."""
    import random

    import engines
    from client.app import App
    from client.controller import LocalController
    from client.scenes import table as table_module
    from client.scenes.table import TableScene

    ctl = LocalController(engines.get("catan-ck"), 0, ["smart"] * 3, players=4, seed=4, bot_delay_ms=0)
    app = App((1280, 720))
    table = TableScene(ctl)
    app.push(table)
    app.step([], 16)
    rng = random.Random(4)
    seen = 0
    for _ in range(6000):
        legal = [a for a in ctl.legal() if a not in ("resign", "draw", "offer draw")]
        if legal and table.alarm_ms == 0:
            ctl.submit(rng.choice(legal))
        app.step([], 50)
        chron = table.live.chronicle
        if chron is not None and any(e.kind == "alarm" for e in chron.entries):
            seen += 1
            break
        if ctl.result() is not None:
            break
    assert seen, "no barbarian attack in the seeded game"
    assert table.alarm_ms > 0 and table.alarm.startswith("The barbarians attack"), table.alarm
    app.step([], 16)
    assert table.alarm_rect is not None and table.board_rect.contains(table.alarm_rect)
    app.screenshot("tests/artifacts/ck-barbarian-attack.png")
    for _ in range(3):
        app.step([], 1000)
    assert table.alarm_ms > 0, "it stays a while"
    _click(app, table.alarm_rect.center)
    assert table.alarm_ms == 0
    app.step([], 16)
    assert table.alarm_rect is None, "clicked away"
    assert table_module.ALARM_MS >= 5000
