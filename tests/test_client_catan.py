"""The Catan table in the Pygame client, headless: every node, edge and hex gives the token of the
action texts where it is drawn; a click names the verb when a bare number could mean a node and an
edge; only what `legal()` allows is lit; the card composer puts discards and offers together; the
offer's answers, monopoly, development cards (own face up, others' as backs) and the hot-seat cover.
Screenshots of several stages of a game at 1024x600 and 1920x1080 go to tests/artifacts/catan-*.png,
each checked by the text-fit recorder."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere

import random
import time
from pathlib import Path

import pygame
import pytest
from support.catanhelpers import G, position, with_inner
from support.clickplay import _button, _click, table_at
from support.clickplay import fits as _fits
from support.clickplay import sent as _sent
from support.cpuclock import Budget

import bots
from client.actions import ActionBuilder
from client.app import App
from client.controller import LocalController
from client.games import renderer_for, seat_style
from client.games.catan import DEV_PLURAL, DEV_WORDS, RESOURCES, Renderer
from client.scenes.table import TableScene
from client.ui import textfit
from engines.catan.board import EDGES, NODE_XY
from engines.catan.state import Offer
from engines.core import COMMON_ACTIONS

ARTIFACTS = Path(__file__).parent / "artifacts"
SIZES = [(1024, 600), (1920, 1080)]
BOARD = dict(s0=dict(settlements=[12, 23], cities=[40], roads=[19, 26, 57], hand="3brick+2lumber+2wool+3grain+2ore",
                     dev="knight+yearofplenty+monopoly+victorypoint", new="victorypoint"),
             s1=dict(settlements=[14, 28], roads=[21, 40], hand="2lumber+1grain+1ore"),
             s2=dict(settlements=[31], cities=[35], roads=[46, 44], hand="1wool+2ore"),
             s3=dict(settlements=[10, 42], roads=[17, 53], hand="1brick"))


def _table(state, size=(1280, 720), seat: int = 0) -> tuple[App, TableScene]:
    return table_at(G, state, size, seat)


def _drawn(legal: list[str], chosen: list[str] = ()) -> tuple[Renderer, pygame.Rect, dict]:
    """The renderer after drawing a started view with `legal` as the table would pass it."""
    pygame.display.init()
    pygame.font.init()
    surface, rect = pygame.Surface((1280, 720)), pygame.Rect(12, 52, 860, 656)
    renderer = renderer_for("catan")
    view = G.view(position(players=4, **BOARD), 0)
    builder = ActionBuilder(list(legal))
    for token in chosen:
        assert builder.push(token), token
    renderer.draw(surface, rect, dict(view, _legal=builder.legal), set(builder.clickable()), list(builder.tokens), 20)
    return renderer, rect, view


def test_every_node_edge_and_hex_gives_its_token_where_it_is_drawn() -> None:
    for legal, tokens in ((["settle " + str(n) for n in range(54)], [str(n) for n in range(54)]),
                          (["road " + str(e) for e in range(72)], [str(e) for e in range(72)]),
                          ([f"robber h{h}" for h in range(19)], [f"h{h}" for h in range(19)])):
        renderer, rect, view = _drawn(legal)
        spots = set()
        for token in tokens:
            pos = renderer.token_pos(rect, view, token)
            assert pos is not None and rect.collidepoint(pos), token
            assert renderer.hit(rect, view, pos) == token, (token, renderer.hit(rect, view, pos))
            spots.add(pos)
        assert len(spots) == len(tokens)  # one place each
    # the places follow the spec's drawing coordinates: node 0 at the top, node 53 at the bottom
    renderer, rect, view = _drawn(["settle 0", "settle 53", "settle 21", "settle 32"])
    top, bottom = renderer.token_pos(rect, view, "0"), renderer.token_pos(rect, view, "53")
    left, right = renderer.token_pos(rect, view, "21"), renderer.token_pos(rect, view, "32")
    assert top[1] < bottom[1] and left[0] < right[0] and NODE_XY[21][0] < NODE_XY[32][0]
    assert renderer.hit(rect, view, (rect.x + 3, rect.y + rect.h // 2)) is None  # the sea beside the frame


def test_a_bare_number_that_could_be_a_node_or_an_edge_names_its_verb() -> None:
    legal = ["road 19", "road 26", "settle 19", "settle 26", "end"]
    renderer, rect, view = _drawn(legal)
    lay = renderer._layout(rect, view)
    node, (a, b) = lay.node(19), lay.edge(19)
    edge_mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    assert renderer.hit(rect, view, node) == "settle 19"
    assert renderer.hit(rect, view, edge_mid) == "road 19"
    assert renderer.token_pos(rect, view, "19") is None  # "19" alone would be ambiguous
    # once the verb is chosen, the number alone; a node then is another verb, which the table refuses
    renderer, rect, view = _drawn(legal, ["road"])
    assert renderer.hit(rect, view, edge_mid) == "19"
    assert renderer.hit(rect, view, node) == "settle 19"
    assert not ActionBuilder(legal, ["road"]).push("settle")
    # where only one reading exists, the bare number (the table inserts the verb)
    renderer, rect, view = _drawn(["road 19", "settle 26"])
    assert renderer.hit(rect, view, edge_mid) == "19"
    assert EDGES[19] == (12, 17)


def test_clicks_on_the_table_send_the_action_they_show() -> None:
    state = position(players=4, **BOARD)
    app, table = _table(state)
    legal = set(table.ctl.legal())
    roads = [a for a in legal if a.startswith("road ")]
    assert roads and "play knight" in legal and "buy" in legal
    lay = table.renderer._layout(table.board_rect, table.ctl.view())
    # a road: a click on its edge (the table inserts the verb, or the click names it)
    edge = int(roads[0].split()[1])
    a, b = lay.edge(edge)
    _click(app, ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2))
    assert _sent(table)[-1] == roads[0]
    # buying is a click on the deck (not sent here: this position's deck is not the referee's)
    view = table.ctl.view()
    deck = table.renderer.token_pos(table.board_rect, view, "buy")
    assert deck is not None and table.renderer.hit(table.board_rect, view, deck) == "buy"
    assert lay.bank.collidepoint(deck)
    # a click on a node where nothing may be built is refused in words, and nothing is sent
    before = len(_sent(table))
    _click(app, lay.node(0))
    assert len(_sent(table)) == before and "not possible now" in table.notice


def test_only_what_legal_allows_is_lit() -> None:
    state = position(players=4, **BOARD)
    app, table = _table(state)
    renderer, view = table.renderer, table.ctl.view()
    lay = renderer._layout(table.board_rect, view)
    places = renderer._places(lay, view)
    lit_edges = {p[1] for p in places if p[0] == "edge" and renderer._lit(p, view)}
    assert lit_edges == {int(a.split()[1]) for a in table.ctl.legal() if a.startswith("road ")}
    assert not any(p[0] == "hex" and renderer._lit(p, view) for p in places)
    # the robber step: every hex but the robber's own
    app, table = _table(with_inner(state, step="robber", dice=(3, 4)))
    renderer, view = table.renderer, table.ctl.view()
    lay = renderer._layout(table.board_rect, view)
    lit = {p[1] for p in renderer._places(lay, view) if p[0] == "hex" and renderer._lit(p, view)}
    assert lit == set(range(19)) - {view["robber"]}
    _click(app, lay.hex(5))
    assert _sent(table)[0] == "robber h5"   # (then `steal 1` by itself: one player to rob there)


def test_a_discard_is_put_together_in_the_composer() -> None:
    state = with_inner(position(players=4, **BOARD), step="discard", queue=(0,), dice=(3, 4))
    app, table = _table(state)
    assert all(a.startswith("discard ") for a in table.ctl.legal() if a not in COMMON_ACTIONS)
    renderer = table.renderer
    # no click on "discard" first: the composer is there at once, and + stops where no discard fits
    path = renderer.clicks(table.board_rect, table.ctl.view(), "3brick+2lumber+1ore")
    assert path is not None and len(path) == 6  # six cards; the sixth completes the discard
    lay = renderer._layout(table.board_rect, table.ctl.view())
    for _ in range(4):
        _click(app, lay.spots[("plus", "brick")].center)  # only 3 brick in hand: the 4th does nothing
    assert renderer.draft[0] == 3 and not _sent(table)
    _click(app, lay.spots[("minus", "brick")].center)
    assert renderer.draft[0] == 2
    _fits(app, "catan-composer")
    for pos in renderer.clicks(table.board_rect, table.ctl.view(), "3brick+2lumber+1ore"):
        _click(app, pos)
    assert _sent(table) == ["discard 3brick+2lumber+1ore"]


def test_an_offer_from_the_composer_to_a_player() -> None:
    app, table = _table(position(players=4, **BOARD))
    _click(app, _button(table, "token:offer").center)
    renderer = table.renderer
    for token in ("1brick", "1ore"):
        for pos in renderer.clicks(table.board_rect, table.ctl.view(), token):
            _click(app, pos)
    assert table.builder.tokens == ["offer", "1brick", "for", "1ore", "to"]  # `for` and `to` come by themselves
    assert table.builder.candidates() == ["1", "2", "all"]  # seat 3 holds no ore
    view = table.ctl.view()
    lay = renderer._layout(table.board_rect, view)
    assert not renderer._lit(("seat", 3, lay.seats[3]), view)
    _click(app, lay.seats[2].center)
    assert _sent(table) == ["offer 1brick for 1ore to 2"]


def test_answers_and_the_confirm_of_an_offer() -> None:
    state = position(players=4, **BOARD)
    respond = with_inner(state, step="respond", queue=(0, 3), active=1,
                         offer=Offer((0, 2, 0, 0, 0), (0, 0, 0, 0, 1), -1, (2,), ()))
    app, table = _table(respond)
    _fits(app, "catan-offer")
    view = table.ctl.view()
    _click(app, table.renderer.token_pos(table.board_rect, view, "accept"))
    assert _sent(table) == ["accept"]
    confirm = with_inner(state, step="confirm", active=0, queue=(), offers=1,
                         offer=Offer((1, 0, 0, 0, 0), (0, 0, 0, 0, 1), -1, (1, 2), (3,)))
    app, table = _table(confirm)
    view = table.ctl.view()
    lay = table.renderer._layout(table.board_rect, view)
    assert {s for s in range(4) if table.renderer._lit(("seat", s, lay.seats[s]), view)} == {1, 2}
    _click(app, lay.seats[2].center)
    assert _sent(table) == ["confirm 2"]


def test_development_cards_own_face_up_others_as_backs_and_monopoly_from_the_bank() -> None:
    state = position(players=4, **{**BOARD, "s1": dict(BOARD["s1"], dev="knight+knight")})
    app, table = _table(state)
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    texts = [words for kind, _, words in frame.items if kind == "text"]
    whole = " ".join(texts).replace("- ", "")   # a name broken over two lines on a narrow card ("monopo-", "ly")
    assert "monopoly" in whole and "knight" in texts and any(t.startswith("year") for t in texts)
    assert "2 development cards" in texts  # seat 1's cards: backs and a count, no names
    assert "knight" not in table.ctl.view()["dev"][1].get("cards", [])
    view = table.ctl.view()
    card = table.renderer.token_pos(table.board_rect, view, "monopoly")
    assert card is not None
    _click(app, card)
    assert table.builder.tokens == ["play", "monopoly"]
    _click(app, table.renderer.token_pos(table.board_rect, table.ctl.view(), "ore"))
    assert _sent(table) == ["play monopoly ore"]
    # the victory point card bought this turn is shown, and never lit
    view = table.ctl.view()
    assert table.renderer.token_pos(table.board_rect, view, "victorypoint") is None


def test_the_number_keys_pick_cards_in_the_order_the_hand_shows_them() -> None:
    """Issue 34, item 7: the choices after `play monopoly` came in the legal list's alphabetical order (brick,
    grain, lumber, ...) while the hand shows brick, lumber, wool, grain, ore: key 2 took grain where the hand's
    second card is lumber. The numbered choices, and so the keys, now follow the hand; so do the bank trade's."""
    state = position(players=4, **BOARD)
    app, table = _table(state)
    card = table.renderer.token_pos(table.board_rect, table.ctl.view(), "monopoly")
    _click(app, card)
    assert table.builder.tokens == ["play", "monopoly"]
    assert table.builder.candidates() == list(RESOURCES)
    app.step([], 16)
    numbered = [b.label for b in table.buttons if b.key.startswith("token:")]
    assert numbered == [f"{n}. all {r} of the others" for n, r in enumerate(RESOURCES, 1)], numbered
    app.screenshot(ARTIFACTS / "catan-monopoly-keys.png")
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, mod=0, unicode="2")], 16)
    assert _sent(table) == ["play monopoly lumber"], "key 2: the hand's second card"
    # a bank trade's sides too: what to give, then what to get, in the hand's order
    builder = ActionBuilder(["trade 4grain for 1brick", "trade 4brick for 1ore", "trade 4brick for 1grain",
                             "trade 4brick for 1lumber"], order=table.renderer.order)
    assert builder.candidates() == ["trade"] and builder.push("trade")
    assert builder.candidates() == ["4brick", "4grain"] and builder.push("4brick") and builder.push("for")
    assert builder.candidates() == ["1lumber", "1grain", "1ore"]
    # anything else keeps the legal list's order
    assert table.renderer.order(["road", "settle", "buy"]) == ["road", "settle", "buy"]


def test_undoing_a_bank_trade_takes_back_the_side_chosen_and_its_for() -> None:
    """Issue 34, item 2: undoing `trade 4brick for` left `trade 4brick` with a bare "1. for" to choose. Undo takes
    back the last choice with the words that came after it by themselves."""
    state = position(players=3, s0=dict(settlements=[12], roads=[11], hand="4brick+1ore"), s1=dict(settlements=[40]),
                     s2=dict(settlements=[44]))
    app, table = _table(state)
    _click(app, _button(table, "token:trade").center)
    _click(app, _button(table, "token:4brick").center)
    assert table.builder.tokens == ["trade", "4brick", "for"]
    app.step([], 16)
    _click(app, _button(table, "undo").center)
    app.step([], 16)
    assert table.builder.tokens == ["trade"]
    choices = [b.label for b in table.buttons if b.key.startswith("token:")]
    assert choices == ["1. 4 brick"], choices
    app.screenshot(ARTIFACTS / "catan-trade-undo.png")
    _click(app, _button(table, "token:4brick").center)
    _click(app, _button(table, "token:1wool").center)
    assert _sent(table) == ["trade 4brick for 1wool"]


def test_robbing_the_only_player_next_to_the_robber_is_played_for_the_person() -> None:
    """Issue 34, item 10: with one player to rob, the steal was still a step to click. The table plays it and
    says so; with two to choose from, it waits for the person."""
    from support.catanhelpers import play

    from engines.catan.state import ROBBER

    state = position(players=3, active=0, step=ROBBER, s0=dict(settlements=[12], roads=[11]),
                     s1=dict(settlements=[40], hand="2brick"), s2=dict(settlements=[44], hand="1ore"))
    one = play(state, 0, "robber h14")   # next to seat 1 only
    app, table = _table(one)
    app.step([], 16)
    assert _sent(table) == ["steal 1"]
    assert table.notice.startswith("the only choice, played for you: "), table.notice
    app.screenshot(ARTIFACTS / "catan-forced-steal.png")
    # offered the same list again (a networked table before the host sequenced the frame): not sent twice
    offered = ("steal 1", *COMMON_ACTIONS)
    table._forced_sent = offered   # what the table keeps while a networked game still offers that list
    table.builder = ActionBuilder(["steal 1"])
    table.notice = ""
    table._play_forced(offered)
    assert table.notice == "" and _sent(table) == ["steal 1"], table.notice   # (a second send would be refused)
    two = [m for m in G.legal(state, 0) if m.startswith("robber ")
           and [a for a in G.legal(play(state, 0, m), 0) if a.startswith("steal ")][1:]]
    if two:   # a hex beside both: the person chooses
        app, table = _table(play(state, 0, two[0]))
        app.step([], 16)
        assert _sent(table) == [] and len(table.builder.legal) == 2


def test_labels_name_the_choices_in_words() -> None:
    renderer, _, view = _drawn(["road 19"])
    assert renderer.label(view, [], "road") == "build a road"
    assert renderer.label(view, ["road"], "19") == "edge 19 (nodes 12-17)"
    assert renderer.label(view, ["settle"], "12") == "node 12 (h0 mountains 10, h3 fields 12, h4 hills 6)"
    assert renderer.label(view, ["robber"], "h9") == "h9 desert"
    assert renderer.label(view, ["discard"], "2brick+1ore") == "2 brick + 1 ore"
    assert renderer.label(view, ["offer", "1brick", "for", "1ore", "to"], "all") == "to everybody"
    assert seat_style("catan", 1) == (seat_style("catan", 1)[0], "blue")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_screenshots_of_a_game_from_set_up_to_the_end(size: tuple[int, int]) -> None:
    """A four-seat game, the person's seat played by the smart bot's choices: the set-up, a game under
    way with roads, cities and the robber moved, a trade offer, and the end, every text in its box."""
    ctl = LocalController(G, 0, ["smart"], players=4, seed=1, bot_delay_ms=0)
    app = App(size)
    table = TableScene(ctl)
    app.push(table)
    _fits(app, "catan-setup")
    smart, rng = bots.make("catan", ["smart"], 1)[0], random.Random(1)
    shots = {"midgame": False, "offer-on-table": False}
    for _ in range(4000):
        ctl.poll(10**9)
        if ctl.result() is not None:
            break
        view = ctl.view()
        cities = sum(1 for _, kind in view["nodes"].values() if kind == "city")
        if not shots["midgame"] and cities >= 2 and len(view["roads"]) >= 16 and view["robber"] != 9:
            shots["midgame"] = True
            _fits(app, "catan-midgame")
        if not shots["offer-on-table"] and view["offer"] is not None and view["step"] == "respond":
            shots["offer-on-table"] = True
            _fits(app, "catan-offer-on-table")
        legal = [a for a in ctl.legal() if a not in COMMON_ACTIONS]
        if legal:
            state = ctl.referee.state_of(0)
            ctl.submit(smart.choose(G, state, 0, G.legal(state, 0), rng))
    assert ctl.result() is not None and all(shots.values()), shots
    _fits(app, "catan-end")
    assert _button(table, "leave") is not None


def test_the_viewer_shows_a_seats_view_and_the_revealed_view(tmp_path: Path) -> None:
    """In a seat's view the others' development cards are backs with a count; in the revealed view
    every seat's cards are named."""
    from client.scenes.viewer import ViewerScene
    from replays.local import record_match
    from replays.stepping import Stepper

    # reproducible keys and seeds: the same game every run (random keys gave another game each time, and
    # one that ended just after seat 1 bought a card showed "4 development cards (1 new)")
    path = record_match("catan", bots.make("catan", ["smart"], 3), seed=4, players=3, directory=tmp_path,
                        reproducible=True).path
    stepper = Stepper.load(path)
    app = App((1920, 1080))
    viewer = ViewerScene(stepper)
    app.push(viewer)
    # a position where seat 1 holds development cards (the revealed view shows seat 0's side)
    for at in range(stepper.count - 1, -1, -1):
        if stepper.merged_view(at, "revealed")["dev"][1]["count"]:
            break
    else:
        pytest.fail("no development card was held in this game")
    stepper.seek(at)
    held = stepper.merged_view(at, "revealed")["dev"][1]["cards"]
    words = ", ".join(f"{held.count(c)} {(DEV_WORDS if held.count(c) == 1 else DEV_PLURAL)[c]}"
                      for c in dict.fromkeys(held))  # e.g. "2 victory points, 1 knight"

    def texts() -> list[str]:
        with textfit.recording(app.size) as frame:
            app.step([], 16)
        return [w for kind, _, w in frame.items if kind == "text"]

    stepper.set_mode("revealed")
    assert words in texts()
    app.screenshot(ARTIFACTS / "catan-viewer-revealed.png")
    stepper.set_mode("seat 0")
    shown = texts()
    count = len(held)
    backs = f"{count} development card{'s' * (count != 1)}"   # then " (1 new)" if one was bought this turn
    assert any(t == backs or t.startswith(backs + " (") for t in shown) and words not in shown, shown
    app.screenshot(ARTIFACTS / "catan-viewer-seat0.png")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_four_seat_replay_fits_the_viewer_in_every_view(size: tuple[int, int], tmp_path: Path) -> None:
    """The viewer's board is smaller than the table's: four seat cards there keep every text in its box."""
    from client.scenes.viewer import ViewerScene
    from replays.local import record_match
    from replays.stepping import Stepper

    path = record_match("catan", bots.make("catan", ["smart", "random"], 4), seed=5, players=4,
                        directory=tmp_path).path
    stepper = Stepper.load(path)
    app = App(size)
    app.push(ViewerScene(stepper))
    stepper.seek(stepper.count // 2)
    for mode in ("revealed", "spectator", "seat 3"):
        stepper.set_mode(mode)
        _fits(app, f"catan-viewer-4-{mode.replace(' ', '')}")


# ---------------------------------------------------------------------------------------------- hot seat


def test_the_hot_seat_cover_hides_every_card_until_the_next_person_is_there(tmp_path: Path) -> None:
    """Two people and a bot on one host: whenever the turn passes from one person to the other, the
    whole window is covered ("pass to Anna") and no view is drawn until Anna clicks; each sees only
    their own seat's view."""
    from bots.decider import BotDecider
    from client.netcontroller import NetController
    from netplay.host import HostSession
    from netplay.identity import Identity
    from netplay.session import QueueDecider

    bert, anna = QueueDecider(), QueueDecider()
    host = HostSession(Identity.generate("Bert"), bert, "catan", players=3, bind="127.0.0.1", fsync=False,
                       replay_dir=tmp_path, also={1: ("Anna", anna), 2: ("smart-bot", BotDecider("smart"))})
    ctl = NetController(host, bert)
    try:
        assert ctl.wait(lambda: ctl.started, 120)
        assert ctl.humans() == [0, 1]
        app = App((1024, 600))
        table = TableScene(ctl)
        app.push(table)
        covers: list[int] = []
        budget = Budget(60)   # CPU seconds of this process, not the clock
        while len(covers) < 4 and not budget.over():
            app.step([], 16)
            if table.cover is not None:
                seat = table.cover
                covers.append(seat)
                with textfit.recording(app.size) as frame:
                    app.step([], 16)
                texts = [w for kind, _, w in frame.items if kind == "text"]
                modal = next(i for i, (kind, _, what) in enumerate(frame.items) if what == "modal")
                shown = [w for kind, _, w in frame.items[modal:] if kind == "text"]
                assert shown[0] == f"pass to {['Bert', 'Anna'][seat]}", shown
                assert frame.items[modal][1].size == app.size  # the cover is the whole window
                assert not table.builder.legal and texts  # nothing can be chosen under it
                if len(covers) <= 2:
                    app.screenshot(ARTIFACTS / f"catan-hotseat-cover-{len(covers)}.png")
                board = table.board_rect
                corner = pygame.image.tobytes(app.window.subsurface((*board.topleft, board.w // 3, board.h // 3)),
                                              "RGB")
                assert len({corner[i:i + 3] for i in range(0, len(corner), 3)}) == 1, \
                    "something of the board shows through the cover"
                _click(app, (5, 5))  # a click beside the button does not uncover
                assert table.cover == seat
                _click(app, _button(table, "uncover").center)
                assert table.cover is None and ctl.seat == seat
                view = ctl.view()
                assert view["seat"] == seat and "cards" in view["dev"][seat]
                assert all("cards" not in view["dev"][s] for s in range(3) if s != seat)
                continue
            if table.builder.candidates():
                assert ctl.seat == table.revealed_for
                legal = table.builder.legal
                table._send(next((a for a in ("end", "roll") if a in legal), legal[0]))
            else:
                time.sleep(0.005)
        # snake order 0 1 2 2 1 0, then turns 0 1 2: each change between the two people is covered
        assert covers[:4] == [0, 1, 0, 1], covers
        # the session names the first local seat's secret draws; another person here must not read it
        host.log.append("you draw development card for seat 0 3 (secret)")
        assert ctl.log[-1] == "seat 0 (on this machine) draws in secret"
        app.step([], 16)
        app.screenshot(ARTIFACTS / "catan-hotseat-table.png")
    finally:
        ctl.leave()
        ctl.join(10)


def test_the_lobby_seat_form_hosts_hot_seat_and_bot_seats(tmp_path: Path, monkeypatch) -> None:
    from client.scenes.lobby import LobbyScene

    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "home"))
    app = App((1280, 720))
    lobby = LobbyScene(tmp_path / "replays", browse=False)
    app.push(lobby)
    lobby.game_index = next(i for i, g in enumerate(lobby.games) if g.id == "catan")
    lobby._reset_options()
    app.step([], 16)

    def click(key: str) -> None:
        _click(app, next(b.rect for b in lobby.buttons if b.key == key and b.enabled).center)

    click("role:1")  # open -> hot seat
    click("role:2")  # open -> hot seat -> the weakest bot level (easy)
    click("role:2")
    assert lobby.roles == ["me", "here", "bot:easy"]
    click("role:0")  # "me" moves on: the two seats swap
    assert lobby.roles == ["here", "me", "bot:easy"] and lobby.seat == 1
    click("role:1")
    click("role:2")  # and on, round the table
    assert lobby.roles == ["me", "bot:easy", "here"]
    assert any(b.label == "play, all seats here" for b in lobby.buttons)
    app.screenshot(ARTIFACTS / "lobby-seat-form.png")
    click("host:")
    table = app.scene
    assert isinstance(table, TableScene)
    try:
        assert table.ctl.wait(lambda: table.ctl.started, 120)
        for _ in range(50):
            app.step([], 16)
            if table.cover is not None:
                break
        assert table.cover == 0 and table.ctl.humans() == [0, 2]
        names = table.ctl.names
        assert names[2] == "player 2 (white)" and names[1] == "easy-bot-1"
    finally:
        table.on_leave(app)


def test_resource_names_follow_the_engine() -> None:
    from engines.catan.cards import RESOURCES as ENGINE

    assert RESOURCES == ENGINE


def test_every_step_of_the_game_has_words_on_the_status_line():
    """Issue 34, item 9: the viewer stopped on a development card's draw said "Red deal"; every step the
    engines name (base Catan and C&K) has a phrase, none is shown as its engine name."""
    import engines.catan.state as base_steps
    import engines.catan_ck.game as ck_steps
    from client.games import renderer_for

    base = {v for k, v in vars(base_steps).items() if k.isupper() and isinstance(v, str) and k != "OVER"}
    ck = base | {v for k, v in vars(ck_steps).items() if k.isupper() and isinstance(v, str) and v.islower()
                 and len(v) < 14 and k in ("SETUP_CITY", "EVENT", "COMMIT", "PILLAGE", "PICK", "DRAW", "DRAWN",
                                           "BURY", "AQUEDUCT", "METRO", "RETREAT", "DESERT", "RECRUIT", "REPLACE",
                                           "TAKE", "GIVE", "HARBOR", "LOOK", "SHOW")}
    for game, steps in (("catan", base), ("catan-ck", ck)):
        renderer = renderer_for(game)
        for step in sorted(steps):
            phrase = renderer._step_phrase({"free_roads": 2}, step)
            assert phrase != step and " " in phrase, (game, step, phrase)
    assert renderer_for("catan-ck")._step_phrase({}, "deal") == "draws a progress card"


def test_a_waiting_table_gives_the_log_and_the_dice_the_room_the_choices_do_not_need():
    """Issue 34, item 5: at 1280x720 the choices pane kept a third of the side while it said only "the bot
    is thinking", the log showed 4-5 lines and the dice tab had no room for its histogram. Now the pane is
    as tall as its choices need (at most the third), and the rest is the log's and the dice's."""
    import random

    from support.clickplay import SIZES, drawn_texts, fits

    import engines
    from client.app import App
    from client.controller import LocalController
    from client.scenes.table import TableScene

    ctl = LocalController(engines.get("catan"), 0, ["smart"] * 3, players=4, seed=4, bot_delay_ms=0)
    app = App((1280, 720))
    table = TableScene(ctl)
    app.push(table)
    rng = random.Random(1)
    for n in range(400):
        legal = [a for a in ctl.legal() if a not in ("resign", "draw", "offer draw")]
        if n >= 200 and not legal and ctl.result() is None:
            break   # well into the game, a bot to move (the bots' trades, counter-offers too, decide how long it lasts)
        if legal:
            ctl.submit(rng.choice(legal))
        app.step([], 50)
    assert not ctl.legal() and ctl.result() is None, "a bot is to move"
    for size in SIZES:
        app.window = pygame.display.set_mode(size, pygame.RESIZABLE)
        table.chronicle.tab = "log"
        fits(app, "catan-waiting-log")
        side_h = size[1] - (app.px(20) * 2 + 14) - 12
        assert table._actions_height(pygame.Rect(0, 0, 300, side_h), app.px(20)) < int(side_h * 0.34)
        table.chronicle.tab = "dice"
        fits(app, "catan-waiting-dice")
        texts = drawn_texts(app)
        assert any("fair dice" in t for t in texts), (size, "no histogram in the dice tab")
    app.window = pygame.display.set_mode((1280, 720), pygame.RESIZABLE)
