"""Stones, backs, steps and walks (Part 0 of the spec), shared by all three games.

A board is a tuple indexed by field number (index OUT stays None). A field holds None or a *cell*:
the flat tuple `(back, owner_bottom, ..., owner_top)`. The top stone owns the cell and its back is
the cell's back; covered stones have no orientation, so only the owners are kept for them. One flat
tuple per field keeps copying a board cheap, which is what the random-play budget needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from engines.kidd.board import FORWARD, NEIGHBOURS, OUT, SIZE

Cell = tuple[int, ...]
Board = tuple[Cell | None, ...]

EMPTY_BOARD: Board = (None,) * SIZE


def set_cells(board: Board, changes: Mapping[int, Cell | None]) -> Board:
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
TABLE_STEPS = 8
"""Walks come from tables of the walks on the empty board, one per (field, back, steps) up to this
many steps (about 10,000 walks in all, built as needed); longer walks are joined from two or more.
Measured on random play (6 to 11 tried), 8 did best: a longer table's filtered lists are found
again less often (its walks reach nearly every field), a shorter one leaves more first parts to join."""
GROUP_STEPS = 3
"""A table of more steps than this groups its walks by their first fields (at most this many)."""

_TEXT_ORDER = tuple(sorted(range(SIZE), key=str))[1:]  # every index but OUT (0)
_PAIRS = tuple((f, b) for f in range(SIZE) if f != OUT for b in NEIGHBOURS[f])
_PAIR_BIT = [0] * (SIZE * SIZE)
for _i, (_f, _b) in enumerate(_PAIRS):
    _PAIR_BIT[_f * SIZE + _b] = 1 << _i
PAIR_BIT: tuple[int, ...] = tuple(_PAIR_BIT)
"""PAIR_BIT[f * SIZE + b]: one bit per (field, back) a walk can end on from behind (b a neighbour
of f), 0 for a back of OUT, which no walk approaches from behind. A set of enemy tops is one int."""
del _PAIR_BIT, _i, _f, _b

KEPT_LIMIT = 1 << 20
"""How many entries the tables' remembered lists (`_Table.kept`) may hold together: references to
texts the tables own, about 25 MB at most with the lists and dicts around them (measured over 1,800
random games, which reach the limit). Past it every remembered list is dropped and built again as
needed, so memory stays bounded however long a process plays."""

Walk = tuple[int, int, str]
"""(came, final, text): the field the last step came from, the last field, and the action text
`move F P1 ... PN`."""

# What a table's remembered list holds (an index into `_Table.kept`): whole texts, suffixes
# " P1 ... PN", whole `Walk`s, `Walk`s with suffixes for their text.
TEXTS, SUFFIXES, WALKS, SUFFIX_WALKS = range(4)


def occupancy(board: Board) -> int:
    """The occupied fields as a bit mask (bit f for field f)."""
    occ = 0
    for f, cell in enumerate(board):
        if cell is not None:
            occ |= BIT[f]
    return occ


def enemy_mask(board: Board, seat: int) -> int:
    """The (field, back) of every piece `seat` does not top, as PAIR_BIT bits: where a walk of `seat`
    may end from behind."""
    mask = 0
    for f, cell in enumerate(board):
        if cell is not None and cell[-1] != seat:
            mask |= PAIR_BIT[f * SIZE + cell[0]]
    return mask


class _Table:
    """The walks of one (field, back, steps) on the empty board, arranged for quick filtering.

    `walks` holds (through, last, final, text): `through` masks every field entered, the last one
    included, `last` is the field the last step came from, and text lists the fields entered
    (" P1 ... PN"). Every walk is kept in four forms, one per kind: TEXTS "move F P1 ... PN",
    SUFFIXES " P1 ... PN" (the second part of a long walk), WALKS (last, final, "move F ...") and
    SUFFIX_WALKS (last, final, " P1 ... PN"). `groups` holds the walks as (mask, members per kind),
    members being (through, form); `ends` holds, per PAIR_BIT of (final, last), the (entered, forms)
    of the walks ending that way, where `entered` masks the fields entered before the last step (the
    last field too if the walk crossed it before): the walks that may end on an occupied field.

    Which walks a board lets through depends only on the blocked fields inside `reach` (every field
    some walk enters) and on the enemy tops among `end_pairs`; so the lists found are remembered in
    `kept` under those bits (one dict per kind). Boards repeat those few bits far more often than
    they repeat as a whole: a tall tower's walks are joined from the same second halves again and
    again, and a short walk sees only the fields around it.
    """

    __slots__ = ("end_pairs", "ends", "groups", "kept", "reach", "walks")

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
        head = _MOVE[origin]

        def kinds(last: int, final: int, text: str) -> tuple[Any, Any, Any, Any]:
            return head + text, text, (last, final, head + text), (last, final, text)

        # Walks that share their first `shared` fields lie together (the table is sorted by text), so
        # a board that blocks one of those fields drops the whole group at one test.
        shared = min(max(steps - GROUP_STEPS, 0), GROUP_STEPS)
        groups: dict[tuple[int, ...], tuple[int, list[tuple[int, tuple[Any, ...]]]]] = {}
        for through, last, final, text in walks:
            first = tuple(int(x) for x in text.split()[:shared])
            mask = 0
            for f in first:
                mask |= BIT[f]
            groups.setdefault(first, (mask, []))[1].append((through, kinds(last, final, text)))
        self.groups = tuple((mask, tuple(tuple((through, values[kind]) for through, values in members)
                                         for kind in (TEXTS, SUFFIXES, WALKS, SUFFIX_WALKS)))
                            for mask, members in groups.values())
        self.ends = {PAIR_BIT[final * SIZE + last]: tuple((entered, kinds(last, final, text))
                                                          for entered, text in value)
                     for (final, last), value in ends.items()}
        reach = end_pairs = 0
        for through, _, _, _ in walks:
            reach |= through
        for bit in self.ends:
            end_pairs |= bit
        self.reach = reach
        self.end_pairs = end_pairs
        self.kept: tuple[dict[int, tuple[Any, ...]], ...] = ({}, {}, {}, {})

    def find(self, kind: int, blocked: int, enemies: int) -> list[Any]:
        """The walks `blocked` and `enemies` (a PAIR_BIT mask) let through, as `kind` says, in the
        order of their texts. Sorted once here (the list is remembered), every tower's walks come
        out as one sorted run, and even a long walk's, joined from sorted parts: "P" + " ..." sorts
        before "P1..." since a space sorts before a digit. A legal list then only merges runs."""
        found: list[Any] = []
        for mask, members in self.groups:
            if not mask & blocked:
                found += [value for through, value in members[kind] if not through & blocked]
        ending = enemies & self.end_pairs
        if ending:
            while ending:
                bit = ending & -ending
                ending ^= bit
                found += [values[kind] for entered, values in self.ends[bit] if not entered & blocked]
            if kind in (TEXTS, SUFFIXES):
                found.sort()
            else:
                found.sort(key=_text_of)
        return found


_text_of = itemgetter(2)


_TABLES: list[_Table | None] = [None] * (SIZE * SIZE * (TABLE_STEPS + 1))
_kept_size = 0
_keeping: list[dict[int, Any]] = []
"""Every `_Table.kept` dict that holds something, and how many entries they hold together."""


def _table(origin: int, back: int, steps: int) -> _Table:
    """The table of (origin, back, steps <= TABLE_STEPS), built on first use (at most one each)."""
    index = (origin * SIZE + back) * (TABLE_STEPS + 1) + steps
    table = _TABLES[index]
    if table is None:
        table = _TABLES[index] = _Table(origin, back, steps)
    return table


def _kept(table: _Table, kind: int, blocked: int, enemies: int) -> tuple[Any, ...]:
    """`table.find(kind, blocked, enemies)`, remembered within KEPT_LIMIT. A tuple: a tuple of texts
    soon leaves the garbage collector's watch, a list would be scanned at every full collection."""
    global _kept_size
    key = (blocked & table.reach) | (enemies & table.end_pairs) << SIZE
    kept = table.kept[kind]
    found = kept.get(key)
    if found is None:
        found = tuple(table.find(kind, blocked, enemies))
        if _kept_size + len(found) + 1 > KEPT_LIMIT:
            for full in _keeping:
                full.clear()
            _keeping.clear()
            _kept_size = 0
        if not kept:
            _keeping.append(kept)
        kept[key] = found
        _kept_size += len(found) + 1
    return found


def enemy_tops(board: Board, seat: int) -> list[tuple[int, int]]:
    """(field, back) of every piece `seat` does not top: where a walk of `seat` may end, from behind."""
    return [(f, cell[0]) for f, cell in enumerate(board) if cell is not None and cell[-1] != seat]


def walks(board: Board, occupied: int, origin: int, steps: int, texts: bool = False,
          targets: list[tuple[int, int]] | None = None, enemies: int | None = None) -> list[Any]:
    """Every walk of `steps` steps that the piece on `origin` may make up to its last field.

    Each step follows the step rule; every field entered before the last one must be empty, and the
    origin counts as empty once the piece has left it (D5). The last field must be empty (the origin
    included) or topped by an enemy approached from behind, as both walking games require; what else
    a landing on an enemy needs is for the game to judge. `occupied` is `occupancy(board)`; the
    enemies are `enemy_mask(board, owner)`, or the same given as `targets` (`enemy_tops`), or
    computed. The walks come as `Walk`s, or as their texts alone when `texts` is set. The list is
    the caller's own.
    """
    if steps < 1:
        return []
    piece = board[origin]
    assert piece is not None, "a walk starts from a piece"
    if enemies is None:
        if targets is None:
            enemies = enemy_mask(board, piece[-1])
        else:
            enemies = 0
            for f, b in targets:
                enemies |= PAIR_BIT[f * SIZE + b]
    found: list[Any] = []
    add_walks(found, texts, occupied, enemies, origin, piece[0], steps)
    return found


def add_walks(found: list[Any], texts: bool, occupied: int, enemies: int, origin: int, back: int,
              steps: int) -> None:
    """`walks` of the piece on `origin` (back `back`) added to `found`, for callers that collect the
    walks of several pieces and know `enemies` already (`steps` >= 1)."""
    blocked = occupied & ~BIT[origin]
    if steps > TABLE_STEPS:
        _long_walks(found, texts, blocked, enemies, origin, back, steps, _MOVE[origin])
        return
    # _table and _kept inlined: this runs for every piece of the seat to move at every turn
    table = _TABLES[(origin * SIZE + back) * (TABLE_STEPS + 1) + steps] or _table(origin, back, steps)
    kind = TEXTS if texts else WALKS
    kept = table.kept[kind].get((blocked & table.reach) | (enemies & table.end_pairs) << SIZE)
    found += _kept(table, kind, blocked, enemies) if kept is None else kept


def survey(board: Board, seat: int) -> tuple[int, int, list[tuple[int, Cell]]]:
    """The board read once for walking: `occupancy(board)`, `enemy_mask(board, seat)`, and the
    (field, cell) of every piece `seat` tops, in the order of the fields' texts ("1", "10", ...,
    "18", "2", ...), which is the order of their walks' texts: collected in it, walks come out sorted."""
    occupied = enemies = 0
    own = []
    for f in _TEXT_ORDER:
        cell = board[f]
        if cell is not None:
            occupied |= BIT[f]
            if cell[-1] == seat:
                own.append((f, cell))
            else:
                enemies |= PAIR_BIT[f * SIZE + cell[0]]
    return occupied, enemies, own


def piece_walks(occupied: int, enemies: int, origin: int, back: int, steps: int) -> Sequence[Walk]:
    """`walks` of the piece on `origin` (back `back`) for a caller that has surveyed the board,
    without copying a remembered list: the caller must not modify it."""
    if steps > TABLE_STEPS:
        found: list[Walk] = []
        _long_walks(found, False, occupied & ~BIT[origin], enemies, origin, back, steps, _MOVE[origin])
        return found
    if steps < 1:
        return ()
    return _kept(_table(origin, back, steps), WALKS, occupied & ~BIT[origin], enemies)


def tower_texts(board: Board, seat: int, found: list[str] | None = None) -> list[str]:
    """The texts of the walks of every piece `seat` tops, each walking as many steps as it holds
    stones (Madagaskar's towers, D22): `walks` for all of them at once, reading the board once. They
    are added to `found` when given (the caller's list, so they are not copied once more) and it is
    returned; otherwise the list is new and the caller's own."""
    if found is None:
        found = []
    occupied, enemies, own = survey(board, seat)
    tables = _TABLES
    for f, cell in own:
        back = cell[0]
        steps = len(cell) - 1
        blocked = occupied ^ BIT[f]
        if steps > TABLE_STEPS:
            _long_walks(found, True, blocked, enemies, f, back, steps, _MOVE[f])
            continue
        # _table and _kept inlined: this runs for every tower of the seat to move at every turn
        table = tables[(f * SIZE + back) * (TABLE_STEPS + 1) + steps] or _table(f, back, steps)
        kept = table.kept[TEXTS].get((blocked & table.reach) | (enemies & table.end_pairs) << SIZE)
        found += _kept(table, TEXTS, blocked, enemies) if kept is None else kept
    return found


def _long_walks(found: list[Any], texts: bool, blocked: int, enemies: int, field: int, came: int, steps: int,
                prefix: str) -> None:
    """Add the walks of more than TABLE_STEPS steps from `field` (back `came`) to `found`, each a
    walk of the first table joined to one of a second (or more); `prefix` is the text so far. The
    parts after the first are whole tables, so the first parts, which each cost a look-up, are as few
    as can be."""
    first = (steps - 1) % TABLE_STEPS + 1  # the rest a whole number of tables
    rest = steps - first
    kind = SUFFIXES if texts else SUFFIX_WALKS
    tables = _TABLES
    # the first part ends on an empty field, so no enemy counts for it
    for last, middle, text in _kept(_table(field, came, first), SUFFIX_WALKS, blocked, 0):
        head = prefix + text
        if rest > TABLE_STEPS:
            _long_walks(found, texts, blocked, enemies, middle, last, rest, head)
            continue
        # _table and _kept inlined: this runs once per first part of every tall tower's walk
        tail = tables[(middle * SIZE + last) * (TABLE_STEPS + 1) + rest] or _table(middle, last, rest)
        tails = tail.kept[kind].get((blocked & tail.reach) | (enemies & tail.end_pairs) << SIZE)
        if tails is None:
            tails = _kept(tail, kind, blocked, enemies)
        if texts:
            found += [head + suffix for suffix in tails]
        else:
            found += [(before, final, head + suffix) for before, final, suffix in tails]


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
