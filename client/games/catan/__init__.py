"""Catan: the island of 19 hexes in its sea frame (terrain, number tokens with the 6 and 8 in red,
harbours with their piers), roads, settlements, cities and the robber in the players' colours; beside
it a card per seat (victory points, resource hand, development cards as backs with a count, knights,
road length, Longest Road and Largest Army), the bank and the development deck; above it the dice and
the step; below it the viewer's own hand with its development cards face up, the card composer and
the trade offer with its answers.

Clicks give the very tokens of the action texts (docs/rules/catan.md, "Actions and notation"): a node its
number (`settle 12`, `city 12`), an edge its number (`road 19`), a hex `h<k>` (`robber h5`), a seat
card the seat (`steal 2`, `confirm 2`, `... to 2`), the dice `roll`, the deck `buy`, an own
development card its name (`play knight`), a bank resource its name after `play monopoly`. Nodes and
edges share bare numbers, so a click names the verb too (`road 19`) unless the number alone can only
mean that place. Card multisets (discards, offers, year of plenty, maritime trades) are put together
in the composer (+/- per resource, then ok), or chosen whole from the table's list, where `label`
names them in words. What is lit is exactly what a prefix of a `legal()` text allows: the table
passes the legal texts in the view (`_legal`), and nothing here decides a rule.

The package is cut by job: `look` (colours and words), `geometry` (where everything lies), `pieces`
(the drawn things), `board` (the island), `panels` (around it), `strip` (below it) and `input`
(clicks and choices), `counters` (counter-offers, as table talk); `Renderer` here puts them together and
is, with the names below, the one import surface.
"""

from __future__ import annotations

import pygame

from client.games import paint
from client.games.catan.board import BoardPainter
from client.games.catan.counters import CounterTalk
from client.games.catan.geometry import HALF_H as HALF_H
from client.games.catan.geometry import HALF_W as HALF_W
from client.games.catan.geometry import SQRT3_2 as SQRT3_2
from client.games.catan.geometry import Layout as Layout
from client.games.catan.geometry import _hex_points as _hex_points
from client.games.catan.geometry import card_row as card_row
from client.games.catan.geometry import layout as layout
from client.games.catan.input import ClickInput
from client.games.catan.look import DEV_COLOURS as DEV_COLOURS
from client.games.catan.look import DEV_PLURAL as DEV_PLURAL
from client.games.catan.look import DEV_WORDS as DEV_WORDS
from client.games.catan.look import FRAME as FRAME
from client.games.catan.look import PIECE_NAMES as PIECE_NAMES
from client.games.catan.look import PIECES as PIECES
from client.games.catan.look import PIPS as PIPS
from client.games.catan.look import RED_NUMBER as RED_NUMBER
from client.games.catan.look import RESOURCE_COLOURS as RESOURCE_COLOURS
from client.games.catan.look import RESOURCE_INK as RESOURCE_INK
from client.games.catan.look import SAND as SAND
from client.games.catan.look import SEA as SEA
from client.games.catan.look import SEA_DEEP as SEA_DEEP
from client.games.catan.look import SEAT_COLOURS as SEAT_COLOURS
from client.games.catan.look import SEAT_NAMES as SEAT_NAMES
from client.games.catan.look import TERRAIN as TERRAIN
from client.games.catan.look import TERRAIN_OF as TERRAIN_OF
from client.games.catan.look import VERB_WORDS as VERB_WORDS
from client.games.catan.look import _hex_words as _hex_words
from client.games.catan.look import cards_words as cards_words
from client.games.catan.look import is_cards as is_cards
from client.games.catan.look import piece_colour as piece_colour
from client.games.catan.panels import Panels
from client.games.catan.pieces import _outline as _outline
from client.games.catan.pieces import card_back as card_back
from client.games.catan.pieces import city as city
from client.games.catan.pieces import city_points as city_points
from client.games.catan.pieces import dev_icon as dev_icon
from client.games.catan.pieces import glyph as glyph
from client.games.catan.pieces import road as road
from client.games.catan.pieces import robber as robber
from client.games.catan.pieces import settlement as settlement
from client.games.catan.strip import Strip
from engines.catan.cards import RESOURCES, parse_multiset


class Renderer(CounterTalk, ClickInput, Panels, Strip, BoardPainter):
    """The Catan table's board: drawn by its parts (`board`, `panels`, `strip`), clicked through
    `input`; one instance per table, holding what was chosen and what the legal texts allow."""

    #: tokens the table adds by itself when they are the only way on (`trade 4brick` *for* ...)
    fillers = frozenset({"for", "to"})
    #: verbs played for the person when they are the only action (`TableScene._play_forced`): robbing the one
    #: player next to the robber decides nothing
    forced = frozenset({"steal"})
    #: the card types of a hand in the notation's order (hand, composer, seat chips, bank), their colours
    kinds: tuple[str, ...] = RESOURCES
    colours: dict[str, paint.Colour] = RESOURCE_COLOURS
    inks: dict[str, paint.Colour] = RESOURCE_INK
    glyph = staticmethod(glyph)
    dice = 2

    def __init__(self) -> None:
        self.backdrop = paint.StaticLayer()
        self.px = 20
        self.chosen: list[str] = []
        self.highlights: set[str] = set()
        self.names: list[str] | None = None
        self.me: int | None = None
        self._legal_src: list[str] | None = None
        self._split: list[list[str]] = []
        self._prefixes: set[tuple[str, ...]] = set()
        self._verbs_memo: dict[tuple[str, ...], dict[str, set[str]]] = {}
        #: the header's hint for (view, legal list, chosen tokens, the layout's spots), the objects held: a
        #: picture asks for it up to four times (the layout's two passes, the words and their colour), and
        #: each asks every place of the board whether it is lit (a fifth of a C&K table's drawing time)
        self._hint_memo: tuple | None = None
        self.draft = [0] * len(self.kinds)
        self._draft_key: tuple | None = None
        self._counter_state()

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, highlights: set[str],
             chosen: list[str], px: int) -> None:
        self.px = px
        self.chosen = list(chosen)
        self.highlights = set(highlights)
        if "_names" in view:
            self.names, self.me = view.get("_names"), view.get("_me")
        self._take_legal(view.get("_legal"))
        self._take_said(view)
        lay = self._layout(rect, view)
        layout_key = (tuple((h["terrain"], h["number"]) for h in view["hexes"]),
                      tuple(h["type"] for h in view["harbours"]))
        backdrop = self.backdrop.get((rect.size, px, layout_key, tuple(lay.island)), rect.size,
                                     lambda s: self._paint_island(s, rect, lay, view))
        surface.blit(backdrop, rect.topleft)
        self._draw_pieces(surface, lay, view)
        self._draw_lit(surface, lay, view)
        self._draw_header(surface, lay, view)
        for seat in range(len(view["hands"])):
            self._draw_seat(surface, lay, view, seat)
        self._draw_bank(surface, lay, view)
        self._draw_hand(surface, lay, view)
        self._draw_cards(surface, lay, view)
        self._draw_over(surface, lay, view)

    def order(self, tokens: list[str]) -> list[str]:
        """Choices of card types (`brick`, ...) or of card multisets (`4brick`, `1grain+1ore`) in the order the
        hand, the bank and the composer show the types, not the legal list's alphabetical one: key 2 is the
        second card of the hand (issue 34, item 7: it gave grain where the hand showed lumber second). Any
        other list keeps its order."""
        kinds = self.kinds
        if tokens and all(t in kinds for t in tokens):
            return sorted(tokens, key=kinds.index)
        counts = [parse_multiset(t, kinds) if is_cards(t) else None for t in tokens]
        if not tokens or any(c is None for c in counts):
            return tokens
        # by the first type in the hand's order, then the next, ...; more of a type first
        keys = {t: tuple(-n for n in c) for t, c in zip(tokens, counts, strict=True) if c is not None}
        return sorted(tokens, key=keys.__getitem__)

    def _draw_over(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        """Drawn last, over everything else (nothing on the base table)."""
