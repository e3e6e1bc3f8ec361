"""Terminal Catan a person can play (issue 27 item 11): a map of the island read back from its text,
choices in the order of their numbers, offers typed (and summed up in a line instead of hundreds of
numbered ones), and the whole screen inside 80 and 120 columns (the transcripts are kept in
tests/artifacts/terminal-*.txt to be read)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from support.catanhelpers import position
from support.terminalhelpers import decisions, listing, table

import engines
from client.controller import LocalController
from client.terminal import Lines, TerminalTable
from client.textmap import island
from client.typed import CARD_NAMES, meant
from engines.catan.board import EDGES, HARBOUR_NODES, NODE_XY

ARTIFACTS = Path(__file__).parent / "artifacts"
CATAN = engines.get("catan")


def _view():
    state = position(players=4, s0=dict(settlements=[12], cities=[40], roads=[11, 19], hand="2brick+1wool+3ore"),
                     s1=dict(settlements=[5], roads=[7, 8], hand="2lumber+1grain"),
                     s3=dict(settlements=[44], roads=[56], hand="1wool"))
    return CATAN.view(state, 0)


def _find(lines: list[str], token: str) -> tuple[int, int]:
    """(row, column of the token's centre) of the one place `token` stands alone in the map."""
    places = [(r, m.start() + len(token) // 2) for r, line in enumerate(lines)
              for m in re.finditer(rf"(?<![\w\[(,:|/\\-]){re.escape(token)}(?![\w\]),:|/\\-])", line)]
    assert len(places) == 1, (token, places)
    return places[0]


def _under(lines: list[str], row: int, col: int) -> str:
    """The word of line `row` that covers column `col`."""
    for m in re.finditer(r"\S+", lines[row]):
        if m.start() - 1 <= col <= m.end():
            return m.group()
    return ""


def test_the_map_read_back_gives_the_island_its_pieces_and_harbours() -> None:
    view = _view()
    lines = island(view)
    assert all(len(line) <= 80 for line in lines), max(map(len, lines))
    lines = lines[:next(i for i, line in enumerate(lines) if line.startswith("corners:"))]   # the map, not its legend
    terrain = {"hills": "brick", "forest": "lumber", "pasture": "wool", "fields": "grain", "mountains": "ore",
               "desert": "desert"}
    for info in view["hexes"]:             # each hex: its resource over its name, its number beneath
        row, col = _find(lines, f"h{info['hex']}")
        assert _under(lines, row - 1, col) == terrain[info["terrain"]], info
        below = lines[row + 1][col - 4:col + 5]
        assert (f"({info['number']})" in below.split()) if info["number"] else "[R]" in below, (info, below)
    robber_row, robber_col = _find(lines, f"h{view['robber']}")
    assert "[R]" in lines[robber_row + 1][robber_col - 4:robber_col + 5] and "".join(lines).count("[R]") == 1
    owners = {int(n): f"{'C' if kind == 'city' else 's'}{seat}" for n, (seat, kind) in view["nodes"].items()}
    columns = {}
    for n in range(54):                    # each node: its number, or the piece on it, in the node's place
        token = owners.get(n, str(n))
        if n not in owners or list(owners.values()).count(token) == 1:
            columns[n] = _find(lines, token)
    assert len(columns) == 54
    x0 = {n: NODE_XY[n][0] for n in columns}
    ordered = sorted(columns, key=lambda n: (NODE_XY[n][1], NODE_XY[n][0]))
    assert [columns[n][0] for n in ordered] == sorted(columns[n][0] for n in ordered)   # rows follow Y
    for a in columns:
        for b in columns:
            if NODE_XY[a][1] == NODE_XY[b][1] and x0[a] < x0[b]:
                assert columns[a][1] < columns[b][1]                                    # columns follow X
    text = "\n".join(lines)
    for seat, roads in ((0, [11, 19]), (1, [7, 8]), (3, [56])):   # a road: its seat between strokes, between its nodes
        assert len(re.findall(rf"[/\\|]{seat}[/\\|]", text)) == len(roads), seat
        for e in roads:
            (ra, ca), (rb, cb) = (columns[n] if n in columns else _find(lines, owners[n]) for n in EDGES[e])
            assert abs(ra - rb) == 2, (e, ra, rb)
            middle = lines[(ra + rb) // 2][min(ca, cb) - 1:max(ca, cb) + 2]
            assert re.search(rf"[/\\|]{seat}[/\\|]", middle), (e, middle)
    for j, harbour in enumerate(view["harbours"]):
        a, b = HARBOUR_NODES[j]
        rate = harbour["type"] if harbour["type"] == "3:1" else f"{harbour['type']} 2:1"
        assert rate in text and f"at {a}-{b}" in text, harbour


def test_the_map_of_cities_and_knights_shows_knights_walls_and_the_merchant() -> None:
    from support.catan_ck import G, with_ext
    from support.catan_ck import position as ck_position

    state = ck_position(3, s0=dict(cities=[23, 31], walls=[31], knights={29: (2, True), 13: (1, False)}),
                        s1=dict(cities=[28], settlements=[40]))
    state = with_ext(state, metro=(0, -1, -1), metro_at=(23, -1, -1), merchant=4, merchant_owner=1)
    lines = island(G.view(state, 0))
    text = "\n".join(lines)
    for token in ("M0", "W0", "K0", "k0", "C1", "s1", "[$]"):
        assert token in text, token
    assert "k2/K2 a knight" in text and max(map(len, lines)) <= 80


def test_choices_come_in_the_order_of_their_numbers() -> None:
    state = position(players=3, s0=dict(settlements=[12, 40], roads=[11, 19, 50, 60], hand="3brick+3lumber"))
    ctl = LocalController(CATAN, 0, ["smart"], players=3, seed=1, bot_delay_ms=0, start=state)
    out = io.StringIO()
    TerminalTable(ctl, Lines(io.StringIO("")), out, width=200)._show_choices()
    shown = listing(out.getvalue())
    roads = [int(t.split()[1]) for n, t in sorted(shown.numbered.items()) if t.startswith("road ")]
    assert len(roads) > 3 and roads == sorted(roads), roads
    assert any(a < 10 <= b for a, b in zip(roads, roads[1:], strict=False)), roads    # "road 9" before "road 10"...
    assert sorted(shown.numbered) == list(range(1, len(shown.numbered) + 1))


def _main_table(width: int = 100):
    state = position(players=3, s0=dict(settlements=[12], roads=[11], hand="2brick+1wool+3ore"),
                     s1=dict(settlements=[40], hand="2lumber+1grain"), s2=dict(settlements=[44], hand="1lumber+1wool"))
    ctl = LocalController(CATAN, 0, ["smart"], players=3, seed=1, bot_delay_ms=0, start=state)
    out = io.StringIO()
    return ctl, TerminalTable(ctl, Lines(io.StringIO("")), out, width=width), out


def test_offers_are_summed_up_in_a_line_listed_on_request_and_typed_as_people_write_them() -> None:
    ctl, term, out = _main_table()
    offers = [a for a in ctl.legal() if a.startswith("offer ") and a != "offer draw"]
    assert len(offers) > 40
    term._show_choices()
    printed = out.getvalue()
    assert not re.search(r"^\s+\d+\. offer ", printed, re.M)           # none of them numbered
    summary = [line for line in printed.splitlines() if "offers:" in line]
    assert len(summary) == 1 and f"offers: {len(offers)} possible" in summary[0], summary
    start = len(out.getvalue())
    term._command("offers")
    listed = set(out.getvalue()[start:].split()) & {w for o in offers for w in o.split()}
    assert all(o in out.getvalue()[start:] for o in offers)
    start = len(out.getvalue())
    term._command("offers wood")                                        # the table's word for lumber
    lumber = out.getvalue()[start:]
    assert all(("lumber" in o) == (o in lumber) for o in offers) and listed
    assert term.resolve("offer 2 brick and a wool for 1 wood to seat 1") == ("offer 2brick+1wool for 1lumber to 1", "")
    assert term.resolve("offer ore for wheat") == ("offer 1ore for 1grain to all", "")
    action, why = term.resolve("offer 1 brick for 1 ore to 1")         # seat 1 holds no ore: the engine says so
    assert action is None and "seat 1 does not hold 1ore" in why and "`offers` lists" in why, why
    action, why = term.resolve("offer 4 ore for 1 grain")
    assert action is None and "at most 4 cards" in why, why
    term._action("offer 1 ore for 1 wheat to 1")
    assert ctl.view()["offer"] == {"give": "1ore", "get": "1grain", "to": 1, "accepted": [], "declined": []} \
        or ctl.view()["step"] != "main", ctl.view()["offer"]
    assert "offers 1 ore for 1 grain to seat 1" in "\n".join(ctl.log)   # in words, not "1ore" (item 9)


@pytest.mark.parametrize("typed,legal,expected", [
    ("offer 1brick for 1wool to 2", ["offer 1brick for 1wool to 2"], "offer 1brick for 1wool to 2"),
    ("offer brick for sheep to 2", ["offer 1brick for 1wool to 2"], "offer 1brick for 1wool to 2"),
    ("Offer 2 Wood + 1 Clay for one ore to everybody", ["offer 1brick+2lumber for 1ore to all"],
     "offer 1brick+2lumber for 1ore to all"),
    ("offer 1wool+1brick for 1ore", ["offer 1brick+1wool for 1ore to all"], "offer 1brick+1wool for 1ore to all"),
    ("discard 2 sheep, 1 ore, 1 wheat", ["discard 2wool+1grain+1ore"], "discard 2wool+1grain+1ore"),
    ("trade brick for wool", ["trade 3brick for 1wool", "trade 3brick for 1ore"], "trade 3brick for 1wool"),
    ("trade 2 ore for 1 wheat", ["trade 2ore for 1grain"], "trade 2ore for 1grain"),
    ("play monopoly wheat", ["play monopoly grain"], "play monopoly grain"),
    ("play yearofplenty ore and brick", ["play yearofplenty 1brick+1ore"], "play yearofplenty 1brick+1ore"),
    ("offer 0 brick for wool", ["offer 1brick for 1wool to all"], None),
    ("offer brick for wool to 3", ["offer 1brick for 1wool to 2"], None),
    ("settle 12", ["settle 12"], None),                                   # no cards: the caller's to match
])
def test_card_lists_typed_loosely_mean_one_legal_text(typed: str, legal: list[str], expected: str | None) -> None:
    assert meant(typed, legal, CARD_NAMES["catan"]) == expected


def test_cities_and_knights_commodities_are_typed_too() -> None:
    names = CARD_NAMES["catan-ck"]
    offer = "offer 2coin for 1paper to 1"
    assert meant("offer 2 coins for a paper to 1", [offer], names) == offer
    assert meant("give cloth", ["give 1cloth"], names) == "give 1cloth"


@pytest.mark.parametrize("gid,width", [("catan", 80), ("catan", 120), ("catan-ck", 80), ("catan-ck", 120)])
def test_a_game_at_the_terminal_fits_its_width(gid: str, width: int) -> None:
    """A whole stretch of play as the terminal prints it, kept for reading: every line inside the
    width, the map printed, no offer numbered, no listing longer than a screen or two."""
    ctl, term, out = table(gid, seed=7, players=4, width=width)
    listings = []
    for shown in decisions(ctl, term, out, 120, seed=7):
        listings.append(shown)
        legal = ctl.legal()
        pick = next((a for a in ("roll", "end") if a in legal), None)
        if pick and len(listings) % 3:
            term._action(pick)
    text = out.getvalue()
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"terminal-{gid}-{width}.txt").write_text(text)
    too_wide = [line for line in text.splitlines() if len(line) > width]
    assert not too_wide, too_wide[:5]
    assert "h18" in text and "[R]" in text and (len(listings) >= 100 or ctl.result() is not None)
    assert not re.search(r"^\s+\d+\. offer ", text, re.M)
    blocks = text.split("choose:")[1:]
    assert max(len(b.split("\n> ")[0].splitlines()) for b in blocks) <= 40


def test_a_stolen_card_is_said_as_a_random_card_of_the_hand_not_a_number():
    """Issue 34, item 9: the terminal printed "card stolen: 3", as if a card were named 3."""
    from client.textview import chance_words
    from engines.contract import Chance

    said = chance_words(Chance("pick", n=7, label="card stolen"), 3)
    assert said == "a card taken at random from the robbed hand (card 4 of 7)", said
    assert chance_words(Chance("pick", n=2, label="starting seat of match 1"), 1) == "starting seat of match 1: 1"
