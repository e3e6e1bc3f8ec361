"""What a renderer needs to draw Ebbe & Flut, as plain JSON-friendly data.

Nothing is secret, so every seat and a spectator get the same view. Covered cards are shown face down
while the game is on (D10: the table etiquette hides the faces of blocked cards even though both
players saw them); once the game is over every pile is shown face up.
"""

from __future__ import annotations

from typing import Any

from engines.ebbeflut import cards as C
from engines.ebbeflut import field as F
from engines.ebbeflut.state import CHANCE, OPEN_DRAW, OVER, TURN, EbbeFlutState

_CELL_INFO = tuple(
    {"cell": F.NAMES[i], "row": i // F.SIZE + 1, "col": i % F.SIZE + 1,
     "start_of": next((C.COLOURS[c] for c in (0, 1) if i in F.START[c]), None),
     "goal_of": next((C.COLOURS[c] for c in (0, 1) if i in F.GOAL[c]), None)}
    for i in F.CELLS)


_FACE_UP = tuple({"colour": C.COLOURS[c // 25], "face": C.face(c), "name": C.name(c), "face_up": True} for c in C.ALL)
_FACE_DOWN = tuple({"colour": C.COLOURS[c // 25], "face": None, "name": None, "face_up": False} for c in C.ALL)


def _card(card: int, face_up: bool = True) -> dict:
    """A fresh dict per card shown, so a caller may change its view without touching the next one."""
    return (_FACE_UP if face_up else _FACE_DOWN)[card].copy()


def _colour(inner: EbbeFlutState, colour: int) -> dict:
    (lr, lc), (ur, uc) = F.STEP[colour]
    return {
        "colour": C.COLOURS[colour],
        "name": C.COLOUR_NAMES[colour],
        "seat": 0 if inner.solo else colour,
        "side": "bottom" if colour == 0 else "top",
        "up": [ur, uc],
        "left": [lr, lc],
        "start": [F.NAMES[i] for i in F.START[colour]],
        "goal": [F.NAMES[i] for i in F.GOAL[colour]],
        "home": [C.name(c) for c in inner.home[colour]],
        "lost": [C.name(c) for c in inner.lost[colour]],
        "score": len(inner.home[colour]),
        "conflicts": list(inner.conflicts[colour]),
    }


def build_view(inner: EbbeFlutState, seat: int | None) -> dict:
    reveal = inner.phase == OVER
    flags = [0] * len(F.CELLS)
    for texts in inner.conflicts:
        for text in texts:
            _, where, direction = text.split()
            flags[F.INDEX[where]] |= F.COLUMN_BIT if direction == "left" else F.ROW_BIT
    cells: list[dict[str, Any]] = []
    for i in F.CELLS:
        pile = inner.piles[i]
        last = len(pile) - 1
        cell: dict[str, Any] = dict(_CELL_INFO[i])
        cell["height"] = len(pile)
        cell["pile"] = [_card(c, reveal or k == last) for k, c in enumerate(pile)]
        cell["top"] = _card(pile[-1]) if pile else None
        cell["conflict"] = [d for d, bit in (("left", F.COLUMN_BIT), ("up", F.ROW_BIT)) if flags[i] & bit]
        cells.append(cell)
    held = [C.name(c) if c >= 0 else None for c in inner.held]
    to_move = inner.mover if inner.phase in (OPEN_DRAW, TURN) else None
    return {
        "title": "Ebbe & Flut (solo)" if inner.solo else "Ebbe & Flut",
        "solo": inner.solo,
        "phase": inner.phase,
        "to_move": to_move,
        "drawing": inner.mover if inner.phase == CHANCE else None,
        "first": inner.first if inner.first >= 0 else None,
        "drawn": inner.drawn,
        "size": F.SIZE,
        "border": {"left": F.SIZE, "right": F.SIZE},
        "cells": cells,
        "colours": [_colour(inner, 0), _colour(inner, 1)],
        "stacks": [list(s) for s in inner.stacks],
        "undrawn": [len(p) for p in inner.pools],
        "held": held,
        "scores": list(inner.scores()),
    }
