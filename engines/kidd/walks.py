"""Stones, backs, steps and walks (Part 0 of the spec), shared by all three games.

A board is a tuple indexed by field number (index OUT stays None). A field holds None or a *cell*:
the flat tuple `(back, owner_bottom, ..., owner_top)`. The top stone owns the cell and its back is
the cell's back; covered stones have no orientation, so only the owners are kept for them. One flat
tuple per field keeps copying a board cheap, which is what the random-play budget needs.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engines.kidd.board import FORWARD, NEIGHBOURS, OUT, SIZE

Cell = tuple[int, ...]
Board = tuple[Cell | None, ...]

EMPTY_BOARD: Board = (None,) * SIZE


def set_cells(board: Board, changes: dict[int, Cell | None]) -> Board:
    """A new board with some fields replaced (states are values: the old board stays as it was)."""
    cells = list(board)
    for field, cell in changes.items():
        cells[field] = cell
    return tuple(cells)


def from_behind(cell: Cell, came_from: int) -> bool:
    """Whether a piece stepping in from `came_from` approaches `cell` from behind. A top stone whose
    back is OUT can never be approached from behind, since no piece comes from OUT."""
    return cell[0] == came_from and came_from != OUT


def exits(field: int, back: int) -> tuple[int, ...]:
    """Neighbours of `field` other than `back` (OUT is never one): where a step from it may go."""
    return FORWARD[field].get(back) or tuple(g for g in NEIGHBOURS[field] if g != back)


BIT = tuple(1 << f for f in range(SIZE))
_TEXT = tuple(f" {f}" for f in range(SIZE))
_MOVE = tuple(f"move {f}" for f in range(SIZE))
TABLE_STEPS = 9
"""Walks come from tables of the walks on the empty board, one per (field, back, steps) up to this
many steps (about 18,000 walks in all, built as needed); longer walks are joined from two or more."""

Walk = tuple[int, int, str]
"""(came, final, text): the field the last step came from, the last field, and the action text
`move F P1 ... PN`."""


def occupancy(board: Board) -> int:
    """The occupied fields as a bit mask (bit f for field f)."""
    occ = 0
    for f, cell in enumerate(board):
        if cell is not None:
            occ |= BIT[f]
    return occ


class _Table:
    """The walks of one (field, back, steps) on the empty board, arranged for quick filtering.

    `walks` holds (through, last, final, text): `through` masks every field entered, the last one
    included, `last` is the field the last step came from, and text lists the fields entered
    (" P1 ... PN"). `ends` holds, for each (final, last), the (entered, text) of the walks ending
    that way, where `entered` masks the fields entered before the last step (the last field too if
    the walk crossed it before): the walks that may end on an occupied field. `texts` holds
    (through, "move F P1 ... PN") for the commonest case, a whole walk from one table, and
    `suffixes` (through, " P1 ... PN") for the second part of a long walk.
    """

    __slots__ = ("ends", "suffixes", "texts", "walks")

    def __init__(self, origin: int, back: int, steps: int):
        walks: list[tuple[int, int, int, str]] = []
        ends: dict[tuple[int, int], list[tuple[int, str]]] = {}

        def go(field: int, came: int, mask: int, text: str, left: int) -> None:
            for nxt in FORWARD[field][came]:
                if left == 1:
                    walks.append((mask | BIT[nxt], field, nxt, text + _TEXT[nxt]))
                    ends.setdefault((nxt, field), []).append((mask, text + _TEXT[nxt]))
                else:
                    go(nxt, field, mask | BIT[nxt], text + _TEXT[nxt], left - 1)

        go(origin, back, 0, "", steps)
        walks.sort(key=lambda walk: _MOVE[origin] + walk[3])  # so that legal lists come out nearly sorted
        self.walks = tuple(walks)
        self.ends = {key: tuple(value) for key, value in ends.items()}
        head = _MOVE[origin]
        self.texts = tuple((through, head + text) for through, _, _, text in walks)
        self.suffixes = tuple((through, text) for through, _, _, text in walks)


@cache  # at most one table per (field, back, steps <= TABLE_STEPS)
def _table(origin: int, back: int, steps: int) -> _Table:
    return _Table(origin, back, steps)


def enemy_tops(board: Board, seat: int) -> list[tuple[int, int]]:
    """(field, back) of every piece `seat` does not top: where a walk of `seat` may end, from behind."""
    return [(f, cell[0]) for f, cell in enumerate(board) if cell is not None and cell[-1] != seat]


def walks(board: Board, occupied: int, origin: int, steps: int, texts: bool = False,
          targets: list[tuple[int, int]] | None = None) -> list[Any]:
    """Every walk of `steps` steps that the piece on `origin` may make up to its last field.

    Each step follows the step rule; every field entered before the last one must be empty, and the
    origin counts as empty once the piece has left it (D5). The last field must be empty (the origin
    included) or topped by an enemy approached from behind, as both walking games require; what else
    a landing on an enemy needs is for the game to judge. `occupied` is `occupancy(board)`, `targets`
    is `enemy_tops(board, owner)` (computed if not given). The walks come as `Walk`s, or as their
    texts alone when `texts` is set.
    """
    found: list[Any] = []
    if steps >= 1:
        piece = board[origin]
        if targets is None:
            targets = enemy_tops(board, piece[-1])
        _walks_on(found, texts, occupied & ~BIT[origin], targets, origin, piece[0], steps, None)
    return found


def _walks_on(found: list[Any], texts: bool, blocked: int, targets: list[tuple[int, int]], field: int, came: int,
              steps: int, prefix: str | None) -> None:
    """Add the walks from `field` (back `came`) to `found`; `prefix` is the text of the walk so far,
    None while the walk starts on `field`."""
    if steps <= TABLE_STEPS:
        table = _table(field, came, steps)
        if prefix is None and texts:
            found += [text for through, text in table.texts if not through & blocked]
            prefix = _MOVE[field]
        else:
            prefix = _MOVE[field] if prefix is None else prefix
            if texts:
                found += [prefix + text for through, text in table.suffixes if not through & blocked]
            else:
                found += [(last, final, prefix + text) for through, last, final, text in table.walks
                          if not through & blocked]
        ends = table.ends
        for final, back in targets:
            for entered, text in ends.get((final, back), ()):
                if not entered & blocked:
                    found.append(prefix + text if texts else (back, final, prefix + text))
        return
    prefix = _MOVE[field] if prefix is None else prefix
    first = steps // 2 if steps <= 2 * TABLE_STEPS else TABLE_STEPS
    for through, last, middle, text in _table(field, came, first).walks:
        if not through & blocked:
            _walks_on(found, texts, blocked, targets, middle, last, steps - first, prefix + text)


def walk_fault(board: Board, origin: int, back: int, path: tuple[int, ...]) -> str | None:
    """Why `path` is not a walk of the piece on `origin` (None if it is one); the last field's
    content is left to the game."""
    here, came = origin, back
    for i, nxt in enumerate(path):
        if nxt not in NEIGHBOURS[here]:
            return f"field {nxt} is not a neighbour of field {here}"
        if nxt == came:
            return f"a piece never steps backwards: its back on field {here} is field {came}"
        if i < len(path) - 1 and nxt != origin and board[nxt] is not None:
            return f"field {nxt} is occupied (every field before the last one of a walk must be empty)"
        here, came = nxt, here
    return None
