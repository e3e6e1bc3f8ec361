"""What the three Kidd games share beyond walking: entering stones, turn-start repetition, the
digest's common part, the view of the board, and arranging a position for examples and tests.

Every game's inner state is a frozen dataclass with at least `board`, `supply`, `to_move`,
`history` and `outcome` (the Result once the game has ended), so this layer can work on any of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from engines.core import Awaiting, IllegalAction, Result, Rules, State
from engines.kidd.board import CANVAS, EDGES, FIELDS, NEIGHBOURS, OUT, POSITIONS, START_FIELDS, out_stub
from engines.kidd.notation import parse_position
from engines.kidd.repetition import REPEATS_FOR_DRAW
from engines.kidd.walks import EMPTY_BOARD, Board, set_cells

ENTER_TEXT = {s: f"enter {s}" for s in START_FIELDS}
AWAIT_MOVE = tuple(Awaiting("move", (seat,)) for seat in range(3))
_KEEP = object()
_MAKERS: dict[type, Callable[..., Any]] = {}


def changed(inner: Any, **changes: Any) -> Any:
    """`dataclasses.replace` for the games' frozen slot dataclasses, without its per-call
    introspection (it was the largest single cost of random play)."""
    make = _MAKERS.get(type(inner)) or _maker(type(inner))
    return make(inner, **changes)


def _maker(cls: type[Any]) -> Callable[..., Any]:
    """`changed` for one state class: the new value's slots are set through their descriptors, cheaper
    than the frozen `__init__` (one `object.__setattr__` per field); the descriptors are looked up once
    per class, not per call. (No code is generated: a plain loop over the fields.)"""
    fields = tuple((name, getattr(cls, name).__set__, getattr(cls, name).__get__) for name in cls.__slots__)
    known = frozenset(cls.__slots__)
    new = object.__new__

    def make(inner: Any, **changes: Any) -> Any:
        if not changes.keys() <= known:
            raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - known)}")
        value = new(cls)
        get = changes.get
        for name, put, read in fields:
            item = get(name, _KEEP)
            put(value, read(inner) if item is _KEEP else item)
        return value

    _MAKERS[cls] = make
    return make


def _field_static(f: int) -> dict[str, Any]:
    stub = out_stub(f) if f in START_FIELDS else None
    return {"field": f, "x": POSITIONS[f][0], "y": POSITIONS[f][1], "neighbours": list(NEIGHBOURS[f]),
            "start": f in START_FIELDS, "out_stub": None if stub is None else list(stub)}


class KiddGame(Rules[Any]):
    """Base of Loyal Captain, Quedah Merchant and Madagaskar."""

    title: ClassVar[str] = ""
    verbs: ClassVar[dict[str, tuple[int, int]]] = {}
    #: what `scores` counts in this game, in words (the view says it, so a front end need not guess)
    score_label: ClassVar[str] = "score"

    # ----------------------------------------------------------------------------- per-game hooks

    def stones_per_seat(self, players: int) -> int:
        return 7

    def _score(self, inner: Any) -> tuple[int, ...]:
        raise NotImplementedError

    def _extra_public(self, inner: Any) -> tuple[Any, ...]:
        return ()

    def _extra_view(self, inner: Any) -> dict[str, Any]:
        return {}

    def _arranged(self, inner: Any, **extra: Any) -> Any:
        """Finish an arranged position (the turn has begun) into the state a game would be in."""
        return inner

    def _blank(self, players: int, board: Board, supply: tuple[int, ...], to_move: int) -> Any:
        raise NotImplementedError

    # ----------------------------------------------------------------------------- shared rules

    def _begin_turn(self, inner: Any, **changes: Any) -> Any:
        """Apply `changes`, then record the position as a turn is about to begin; the third time is a
        draw (D4).

        The material (see repetition.py) is the supplies and the number of occupied fields: supplies
        only shrink, and with supplies unchanged the occupied fields only become fewer (a capture
        removes a stone in Loyal Captain and merges two pieces in the other games)."""
        board = changes.get("board", inner.board)
        supply = changes.get("supply", inner.supply)
        position = (board, supply, changes.get("to_move", inner.to_move))
        history = changes["history"] = inner.history.record(position, (supply, board.count(None)))
        inner = (_MAKERS.get(type(inner)) or _maker(type(inner)))(inner, **changes)  # changed(), inlined
        if history.repeats >= REPEATS_FOR_DRAW:  # history.drawn
            return changed(inner, outcome=Result((), self._score(inner), "repetition"))
        return inner

    @staticmethod
    def _free_starts(board: Board) -> list[int]:
        return [s for s in START_FIELDS if board[s] is None]

    def _enter_texts(self, inner: Any, seat: int) -> list[str]:
        if inner.supply[seat] < 1:
            return []
        board = inner.board
        return [ENTER_TEXT[s] for s in START_FIELDS if board[s] is None]

    def _enter(self, inner: Any, seat: int, field: int) -> tuple[Board, tuple[int, ...]]:
        """Board and supplies after `enter field`: a stone from supply onto an empty start field,
        its back OUT."""
        if field not in START_FIELDS:
            starts = ", ".join(str(s) for s in START_FIELDS)
            raise IllegalAction(f"enter {field}: stones enter only on a start field ({starts})")
        if inner.board[field] is not None:
            raise IllegalAction(f"enter {field}: start field {field} is occupied (a stone enters on an empty one)")
        if inner.supply[seat] < 1:
            raise IllegalAction(f"enter {field}: seat {seat} has no stone left in supply")
        supply = list(inner.supply)
        supply[seat] -= 1
        return set_cells(inner.board, {field: (OUT, seat)}), tuple(supply)

    def _not_to_move(self, inner: Any, seat: int) -> None:
        if seat != inner.to_move:
            raise IllegalAction(f"not seat {seat}'s turn (seat {inner.to_move} is to move)")

    # ----------------------------------------------------------------------------- contract hooks

    def awaiting(self, inner: Any) -> Awaiting:
        return AWAIT_MOVE[inner.to_move]

    def result(self, inner: Any) -> Result | None:
        return inner.outcome

    def scores(self, inner: Any, out: tuple[int, ...]) -> tuple[int, ...]:
        return self._score(inner)

    def public(self, inner: Any) -> Any:
        outcome = inner.outcome
        ended = None if outcome is None else (outcome.winners, outcome.scores, outcome.reason)
        return (inner.board, inner.supply, inner.to_move, inner.history.public(), ended, self._extra_public(inner))

    def view(self, inner: Any, seat: int | None) -> dict:
        board = inner.board
        fields = []
        for f in FIELDS:
            entry = _field_static(f)
            cell = board[f]
            if cell is None:
                entry.update(stones=[], back=None, owner=None, height=0)
            else:
                entry.update(stones=list(cell[1:]), back="OUT" if cell[0] == OUT else cell[0],
                             owner=cell[-1], height=len(cell) - 1)
            fields.append(entry)
        data = {
            "board": {"canvas": CANVAS, "edges": [list(e) for e in EDGES], "start_fields": list(START_FIELDS)},
            "fields": fields,
            "supply": list(inner.supply),
            "to_move": inner.to_move,
            "repetition": inner.history.repeats,
            "repetition_draw": REPEATS_FOR_DRAW,   # the count of one position that ends the game drawn (D4)
            "scores": list(self._score(inner)),
            "score_label": self.score_label,
        }
        data.update(self._extra_view(inner))
        return data

    def describe(self, inner: Any, seat: int, action: str) -> str:
        verb, _, rest = action.partition(" ")
        if verb in ("step", "move"):
            return f"seat {seat}: {verb} {rest.replace(' ', ' -> ')}"
        return f"seat {seat}: {action}"

    # ----------------------------------------------------------------------------- arranging

    def arrange(self, pieces: str, to_move: int = 0, supply: tuple[int, ...] | None = None,
                players: int = 2, **extra: Any) -> State:
        """The state at the start of `to_move`'s turn in a given position, written as in the spec
        (e.g. "S0: 1(OUT), 14(15). S1: 13(7)[1,0]"). Supplies default to the stones not on the board.
        Used by the worked examples, puzzles and tests; the position is recorded once, as in play."""
        if players not in self.players:
            raise ValueError(f"{self.id} is played by {self.players} players, not {players}")
        cells = parse_position(pieces)
        for f, cell in cells.items():
            if f not in FIELDS:
                raise ValueError(f"position: {f} is not a field")
            if cell[0] != OUT and cell[0] not in NEIGHBOURS[f]:
                raise ValueError(f"position: the back of {f} must be a neighbour of it or OUT, not {cell[0]}")
            if cell[0] == OUT and f not in START_FIELDS:
                raise ValueError(f"position: only a start field may hold a piece with back OUT, not {f}")
            if any(not 0 <= o < players for o in cell[1:]):
                raise ValueError(f"position: field {f} names a seat that is not in a {players}-player game")
        board = set_cells(EMPTY_BOARD, cells)
        if supply is None:
            per = self.stones_per_seat(players)
            used = [sum(cell[1:].count(s) for cell in cells.values()) for s in range(players)]
            supply = tuple(max(0, per - n) for n in used)
        inner = self._blank(players, board, tuple(supply), to_move)
        inner = self._arranged(self._begin_turn(inner), **extra)
        return State(inner=inner, players=players)
