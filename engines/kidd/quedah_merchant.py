"""Quedah Merchant (Part 2): a 1-3 die says how far one of your pieces walks; land on an enemy
stone from behind to carry it off as a prisoner, or on an enemy holding one of yours to free it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core import Awaiting, Chance, IllegalAction, Result
from engines.kidd.base import AWAIT_MOVE, KiddGame, changed
from engines.kidd.board import START_FIELDS
from engines.kidd.notation import parse_action
from engines.kidd.repetition import History
from engines.kidd.walks import (
    EMPTY_BOARD,
    Board,
    exits,
    from_behind,
    piece_walks,
    set_cells,
    survey,
    walk_fault,
)

DIE = Chance(kind="dice", sides=(3,), label="die 1-3")
AWAIT_ROLL = Awaiting("chance", (), DIE)
SEVEN = 7

# how a walk may end (see landing); the other codes name why it may not
PLAIN, CAPTURE, FREEING = "plain", "capture", "freeing"
_LEGAL = (PLAIN, CAPTURE, FREEING)
_REFUSAL = {
    "own": "a piece never lands on a field topped by its own colour",
    "not-behind": "an enemy piece is taken only from behind (the walk must arrive from its back)",
    "stack": "a stone that holds a prisoner may not capture or free (D14); a stack ends only on an empty field",
    "no-exit": "the freed stone would have no usable exit field, so this freeing is forbidden (D16)",
}


@dataclass(frozen=True, slots=True)
class QuedahState:
    board: Board
    supply: tuple[int, ...]
    to_move: int
    phase: str = "place"  # place | roll | move | free | enter
    roll: int = 0  # the die this turn (0 before the roll)
    freed_at: int = 0  # phase free: the field the freed stone waits on
    entry: bool = False  # the moved piece's walk began on a start field (D17)
    history: History = History()
    outcome: Result | None = None
    moves: tuple[str, ...] = ()
    """Phase move: the legal walks for this roll, sorted. Derived from the board and the roll (so left
    out of the digest); found once at the roll, which must look for them anyway (D19)."""


def prisoners(board: Board) -> tuple[int, int]:
    """Prisoners held: the stacks each seat tops."""
    held = [0, 0]
    for cell in board:
        if cell is not None and len(cell) == 3:
            held[cell[-1]] += 1
    return held[0], held[1]


def usable(board: Board, here: int, exit_field: int, seat: int) -> bool:
    """Whether a stone of `seat` freed on `here` may go to `exit_field` (steps 3-5 of a freeing):
    empty, an enemy single stone facing away from `here`, or an enemy stack facing away whose own
    freeing is possible in turn. The board already shows `here` taken over by `seat`."""
    cell = board[exit_field]
    if cell is None:
        return True
    if cell[-1] == seat or not from_behind(cell, here):
        return False
    if len(cell) == 2:
        return True
    turned = set_cells(board, {exit_field: (here, cell[-1], seat)})
    return bool(usable_exits(turned, exit_field, seat))


def usable_exits(board: Board, here: int, seat: int) -> list[int]:
    """The exits of the stone freed on `here`: its neighbours other than the stack's back, usable."""
    stone = board[here]
    assert stone is not None, "the freed stone stands on `here`"
    return [e for e in exits(here, stone[0]) if usable(board, here, e, seat)]


def landing(board: Board, seat: int, origin: int, came: int, final: int) -> str:
    """How a walk of the piece on `origin` ends on `final`, arriving from `came`: PLAIN, CAPTURE or
    FREEING, or the code of the rule that forbids it."""
    target = None if final == origin else board[final]
    if target is None:
        return PLAIN
    if target[-1] == seat:
        return "own"
    if not from_behind(target, came):
        return "not-behind"
    mover = board[origin]
    assert mover is not None, "a walk starts from a piece"
    if len(mover) > 2:
        return "stack"
    if len(target) == 2:
        return CAPTURE
    turned = set_cells(board, {origin: None, final: (came, target[-1], seat)})
    return FREEING if usable_exits(turned, final, seat) else "no-exit"


def move_texts(board: Board, seat: int, steps: int) -> list[str]:
    found = []
    occupied, enemies, own = survey(board, seat)
    for f, cell in own:
        for came, final, text in piece_walks(occupied, enemies, f, cell[0], steps):
            if final == f or board[final] is None or landing(board, seat, f, came, final) in _LEGAL:
                found.append(text)
    return found


class QuedahMerchant(KiddGame):
    id = "quedah-merchant"
    title = "Quedah Merchant"
    score_label = "prisoners"
    players = (2,)
    common_actions = ("resign",)  # the spec offers a draw by agreement in Madagaskar only
    verbs = {"enter": (1, 1), "move": (2, -1), "free": (1, 1)}
    _phase_verb = {"place": "enter", "move": "move", "free": "free", "enter": "enter"}

    def start(self, players: int, options: dict[str, Any]) -> QuedahState:
        return QuedahState(EMPTY_BOARD, (7,) * players, 0)

    def _blank(self, players: int, board: Board, supply: tuple[int, ...], to_move: int) -> QuedahState:
        return QuedahState(board, supply, to_move, phase="roll")

    def _arranged(self, inner: QuedahState, roll: int | None = None, **extra: Any) -> QuedahState:
        if extra:
            raise ValueError(f"quedah-merchant positions take no {', '.join(sorted(extra))}")
        if roll is not None and inner.outcome is None:
            inner = self.chance(inner, (roll,))
        return inner

    # ----------------------------------------------------------------------------- contract hooks

    def awaiting(self, inner: QuedahState) -> Awaiting:
        return AWAIT_ROLL if inner.phase == "roll" else AWAIT_MOVE[inner.to_move]

    def legal(self, inner: QuedahState, seat: int) -> list[str]:
        if seat != inner.to_move:
            return []
        phase = inner.phase
        if phase == "move":
            return list(inner.moves)
        if phase == "free":
            actions = [f"free {e}" for e in usable_exits(inner.board, inner.freed_at, seat)]
        elif phase in ("place", "enter"):
            actions = self._enter_texts(inner, seat)
        else:
            return []
        actions.sort()
        return actions

    def chance(self, inner: QuedahState, value: Any) -> QuedahState:
        steps = value[0]
        seat = inner.to_move
        moves = move_texts(inner.board, seat, steps)
        if not moves:
            # D19: judged for this roll only; the player who completed the last turn wins
            return changed(inner, roll=steps, outcome=Result((1 - seat,), self._score(inner), "no-move"))
        moves.sort()
        return changed(inner, phase="move", roll=steps, moves=tuple(moves))

    def play(self, inner: QuedahState, seat: int, action: str) -> QuedahState:
        self._not_to_move(inner, seat)
        verb, fields = parse_action(action, self.verbs)
        wanted = self._phase_verb[inner.phase]
        if verb != wanted:
            raise IllegalAction(f"{action}: {self._phase_hint(inner)}")
        if verb == "move":
            return self._move(inner, seat, action, fields[0], fields[1:])
        if verb == "free":
            return self._free(inner, seat, action, fields[0])
        board, supply = self._enter(inner, seat, fields[0])
        if inner.phase == "place" and seat == 0:
            return changed(inner, board=board, supply=supply, to_move=1)
        return self._next_turn(inner, board=board, supply=supply)

    # ----------------------------------------------------------------------------- the turn

    def _phase_hint(self, inner: QuedahState) -> str:
        return {
            "place": "the game opens with each seat placing one stone (enter S)",
            "move": f"the die shows {inner.roll}: walk one of your pieces (move F P1 ... P{inner.roll})",
            "free": f"the stone freed on field {inner.freed_at} must be put on an exit first (free E)",
            "enter": "a piece left a start field: enter a new stone first (enter S, D17)",
        }[inner.phase]

    def _move(self, inner: QuedahState, seat: int, action: str, origin: int, path: tuple[int, ...]) -> QuedahState:
        board = inner.board
        if len(path) != inner.roll:
            raise IllegalAction(f"{action}: the die shows {inner.roll}, so the piece walks exactly "
                                f"{inner.roll} step(s) (D13), not {len(path)}")
        piece = board[origin]
        if piece is None or piece[-1] != seat:
            raise IllegalAction(f"{action}: seat {seat} tops no piece on field {origin}")
        fault = walk_fault(board, origin, piece[0], path)
        if fault:
            raise IllegalAction(f"{action}: {fault}")
        final = path[-1]
        came = path[-2] if len(path) > 1 else origin
        kind = landing(board, seat, origin, came, final)
        if kind not in _LEGAL:
            raise IllegalAction(f"{action}: {_REFUSAL[kind]}")
        target = board[final]
        # on a capture or freeing the mover stands on the enemy top (a freed stone comes off first)
        landed = (came, *piece[1:]) if kind == PLAIN else (came, target[-1], seat)  # type: ignore[index]  # (not PLAIN: a stone there)
        board = set_cells(board, {origin: None, final: landed})
        entry = origin in START_FIELDS
        if kind == FREEING:
            return changed(inner, board=board, entry=entry, phase="free", freed_at=final, moves=())
        return self._after_move(inner, board, entry)

    def _free(self, inner: QuedahState, seat: int, action: str, exit_field: int) -> QuedahState:
        here = inner.freed_at
        board = inner.board
        stone = board[here]
        assert stone is not None, "the freed stone stands on `here`"
        if exit_field not in exits(here, stone[0]):
            raise IllegalAction(f"{action}: field {exit_field} is not an exit of field {here} "
                                "(the freed stone leaves to a neighbour other than the stack's back)")
        if not usable(board, here, exit_field, seat):
            raise IllegalAction(f"{action}: exit {exit_field} is not usable (it must be empty, or an enemy "
                                f"piece with its back on {here} that can be taken in turn)")
        target = board[exit_field]
        if target is None:
            return self._after_move(inner, set_cells(board, {exit_field: (here, seat)}), inner.entry)
        board = set_cells(board, {exit_field: (here, target[-1], seat)})
        if len(target) == 3:  # chained freeing: the stone released there waits in turn
            return changed(inner, board=board, freed_at=exit_field)
        return self._after_move(inner, board, inner.entry)

    def _after_move(self, inner: QuedahState, board: Board, entry: bool) -> QuedahState:
        """The prisoner check (D18), then the entry a piece leaving a start field owes (D17)."""
        held = prisoners(board)
        if sum(held) >= SEVEN:
            best = max(held)
            winners = tuple(s for s in range(2) if held[s] == best)
            winners = winners if len(winners) == 1 else ()
            return changed(inner, board=board, phase="over", freed_at=0, moves=(),
                           outcome=Result(winners, held, "seven-captured"))
        if entry and inner.supply[inner.to_move] and self._free_starts(board):
            return changed(inner, board=board, entry=entry, phase="enter", freed_at=0, moves=())
        return self._next_turn(inner, board=board)

    def _next_turn(self, inner: QuedahState, **changes: Any) -> QuedahState:
        return self._begin_turn(inner, to_move=1 - inner.to_move, phase="roll", roll=0, freed_at=0, entry=False,
                                moves=(), **changes)

    # ----------------------------------------------------------------------------- scoring and views

    def _score(self, inner: QuedahState) -> tuple[int, ...]:
        return prisoners(inner.board)

    def _extra_public(self, inner: QuedahState) -> tuple[Any, ...]:
        return (inner.phase, inner.roll, inner.freed_at, inner.entry)

    def _extra_view(self, inner: QuedahState) -> dict[str, Any]:
        return {
            "phase": inner.phase,
            "die": inner.roll or None,
            "freed_at": inner.freed_at or None,
            "entry_owed": inner.phase == "enter",
            "prisoners": list(self._score(inner)),
        }
