"""The Catan island as text (base game and Cities & Knights): what a player at a terminal reads to
choose where to build, as colonist.io's board is read at a glance.

Each hex shows the resource it yields, its name `h<k>` (what `robber h<k>` names) and its number
token in brackets (`(8)`: a bare number is a node), with `[R]` where the robber stands (and, in
Cities & Knights, `[$]` for the merchant). Every corner shows its node number (what `settle <node>`
names) until something stands there, then the piece and its owner's seat (`s2` a settlement of seat
2, `C2` a city, in C&K `M2` a metropolis, `W2` a city with a wall, `k2`/`K2` an inactive/active
knight); a road is its owner's seat number between the edge's strokes (`/2/`, `|2|`); a harbour is
named in the sea beside its two nodes.

Only `view()` is read (and the public board geometry): nothing here decides a rule.
"""

from __future__ import annotations

import textwrap

from engines.catan.board import EDGES, HARBOUR_SEA, HEX_NODES, HEXES, NODE_HEXES, NODE_XY, hex_centre

__all__ = ["LEGEND", "NODE_VERBS", "island", "note"]

#: columns per unit of the geometry's X (half a hex): a hex is 10 characters wide
_SX = 5
#: the node rows that a diagonal edge leaves downwards (a row of slashes follows each)
_DIAGONAL_FROM = frozenset(y for y in range(-9, 10) if y % 3 == 1)
#: terrain -> the resource it yields, as players name a hex ("the wheat 8")
_YIELD = {"hills": "brick", "forest": "lumber", "pasture": "wool", "fields": "grain", "mountains": "ore",
          "desert": "desert", None: "?"}
_MARGIN = 9   # columns left of the westmost node: room for a harbour's name in the sea

LEGEND = ("corners: node numbers (settle 12); hexes h0-h18 (robber h5) with their number (8) and [R] the "
          "robber; s2 a settlement of seat 2, C2 a city, /2/ or |2| a road; a harbour: its rate at its two nodes")
_CK_LEGEND = "; M2 a metropolis, W2 a city with a wall, k2/K2 a knight (K: active), [$] the merchant"


def _row_of() -> dict[int, int]:
    """Text row per geometry Y (-9..9): one row per Y, and a row of slashes under each Y a diagonal
    edge leaves downwards."""
    rows, at = {}, 0
    for y in range(-9, 10):
        rows[y] = at
        at += 2 if y in _DIAGONAL_FROM else 1
    return rows


_ROW = _row_of()
_HEIGHT = max(_ROW.values()) + 1


def _col(x: int) -> int:
    return _MARGIN + (x + 5) * _SX


class _Canvas:
    def __init__(self, width: int, height: int):
        self.rows = [[" "] * width for _ in range(height)]

    def put(self, row: int, col: int, text: str) -> None:
        line = self.rows[row]
        for i, ch in enumerate(text):
            if 0 <= col + i < len(line):
                line[col + i] = ch

    def centre(self, row: int, col: int, text: str) -> None:
        self.put(row, col - len(text) // 2, text)

    def lines(self) -> list[str]:
        return ["".join(r).rstrip() for r in self.rows]


def _node_labels(view: dict) -> dict[int, str]:
    """What stands on each node, as two characters (the node number where nothing does)."""
    labels = {n: f"{n:>2}" for n in range(len(NODE_XY))}
    walls = view.get("walls") or {}
    metros = {int(m[1]) for m in (view.get("metropolises") or {}).values() if m}
    for key, (seat, kind) in (view.get("nodes") or {}).items():
        n = int(key)
        mark = "s"
        if kind == "city":
            mark = "M" if n in metros else "W" if key in walls else "C"
        labels[n] = f"{mark}{seat}"
    for key, knight in (view.get("knights") or {}).items():
        labels[int(key)] = f"{'K' if knight[2] else 'k'}{knight[0]}"
    return labels


def island(view: dict) -> list[str]:
    """The island with its pieces as text lines (66 columns, 25 rows), then the legend."""
    canvas = _Canvas(_col(6) + 10, _HEIGHT)
    hexes = view.get("hexes") or []
    robber = view.get("robber")
    merchant = (view.get("merchant") or [None])[0]
    for h, (x, y) in enumerate(hex_centre(k) for k in range(len(HEXES))):
        info = hexes[h] if h < len(hexes) else {}
        col = _col(x)
        canvas.centre(_ROW[y - 1], col, _YIELD.get(info.get("terrain"), "?"))
        canvas.centre(_ROW[y], col, f"h{h}")   # the centre row, between the sides (a road there is 3 wide)
        number = info.get("number")
        pieces = "".join(p for p, here in (("[R]", robber == h), ("[$]", merchant == h)) if here)
        canvas.centre(_ROW[y + 1], col, " ".join(t for t in (f"({number})" if number else "", pieces) if t))
    roads = {int(e): seat for e, seat in (view.get("roads") or {}).items()}
    for e, (a, b) in enumerate(EDGES):
        (xa, ya), (xb, yb) = NODE_XY[a], NODE_XY[b]
        seat = roads.get(e)
        if xa == xb:  # a vertical side, through the centre row of its hex
            row = _ROW[(ya + yb) // 2]
            if seat is None:
                canvas.put(row, _col(xa), "|")
            else:
                canvas.put(row, _col(xa) - 1, f"|{seat}|")
            continue
        (xt, yt), (xl, _) = sorted(((xa, ya), (xb, yb)), key=lambda p: p[1])  # top node, then lower node
        slash = "/" if xl < xt else "\\"
        mid = (_col(xt) + _col(xl)) // 2
        at = mid + (1 if xl < xt else 0)   # the stroke's column: a road puts its seat there, between two strokes
        canvas.put(_ROW[yt] + 1, at - (0 if seat is None else 1), slash if seat is None else f"{slash}{seat}{slash}")
    for n, label in _node_labels(view).items():
        x, y = NODE_XY[n]
        canvas.put(_ROW[y], _col(x) - 1, label)
    for j, harbour in enumerate(view.get("harbours") or []):
        kind = harbour.get("type")
        if kind is None or j >= len(HARBOUR_SEA):
            continue
        q, r = HARBOUR_SEA[j]
        x, y = 2 * q + r, 3 * r
        rate = kind if kind == "3:1" else f"{kind} 2:1"
        at = "at {}-{}".format(*harbour.get("nodes", ("?", "?")))
        if x <= -5:    # west: right-aligned against the coast, on two rows
            for i, text in enumerate((rate, at)):
                canvas.put(_ROW[y] + i, _col(-4) - 3 - len(text), text)
        elif abs(y) < 9:   # east: left-aligned beside the coast
            for i, text in enumerate((rate, at)):
                canvas.put(_ROW[y] + i, _col(x - 1) + 3, text)
        else:          # north and south: one line in the sea
            canvas.centre(_ROW[y], _col(x), f"{rate} {at}")
    lines = canvas.lines()
    while lines and not lines[-1]:
        lines.pop()
    legend = LEGEND + (_CK_LEGEND if "knights" in view else "")
    return lines + textwrap.wrap(legend, 78)


#: the verbs whose one argument is a node (base game and Cities & Knights)
NODE_VERBS = frozenset(("settle", "city", "wall", "knight", "activate", "promote", "chase", "metropolis", "retreat",
                         "pillage", "desert", "recruit"))


def _hex_words(view: dict, h: int) -> str:
    info = (view.get("hexes") or [{}] * 19)[h]
    number = info.get("number")
    return _YIELD.get(info.get("terrain"), "?") + (f" {number}" if number else "")


def _corner(view: dict, n: int) -> str:
    """A node as players name it: the hexes it touches (`ore 10, wool 2, brick 6`) and its harbour."""
    text = ", ".join(_hex_words(view, h) for h in NODE_HEXES[n])
    for harbour in view.get("harbours") or []:
        if n in harbour.get("nodes", ()) and harbour.get("type"):
            kind = harbour["type"]
            text += f"; harbour {kind if kind == '3:1' else kind + ' 2:1'}"
    return text


def note(view: dict, action: str) -> str | None:
    """A short note beside a choice that names a place (where it is, as the map shows it), or None."""
    words = action.split(" ")
    try:
        if words[0] in NODE_VERBS and len(words) == 2:
            return _corner(view, int(words[1]))
        if words[0] == "road" and len(words) == 2:
            a, b = EDGES[int(words[1])]
            return f"nodes {a}-{b}"
        if words[0] in ("knightmove", "displace") and len(words) == 3:
            return f"node {words[1]} to node {words[2]} ({_corner(view, int(words[2]))})"
        offer = view.get("offer")
        if words[0] in ("accept", "decline") and len(words) == 1 and offer:
            if words[0] == "decline":
                return f"keep your {offer['get']}"
            return f"you give {offer['get']} and get {offer['give']} from seat {view.get('active')}"
        if words[0] == "steal" and len(words) == 2:
            hand = (view.get("hands") or [])[int(words[1])]
            return f"seat {words[1]} holds {sum(hand) if isinstance(hand, list) else hand} cards"
        if words[0] == "trade" and len(words) == 4:
            return f"with the bank, {words[1].rstrip('abcdefghijklmnopqrstuvwxyz')}:1"
        if words[0] == "robber" and len(words) == 2 and words[1][:1] == "h":
            h = int(words[1][1:])
            owners = sorted({seat for key, (seat, _) in (view.get("nodes") or {}).items() if int(key) in HEX_NODES[h]})
            return _hex_words(view, h) + (f"; seats {', '.join(map(str, owners))} there" if owners else "")
    except (ValueError, IndexError, KeyError, TypeError):
        return None
    return None
