"""Loyal Captain (Part 1): surround enemy stones and groups so that every neighbouring field holds
one of your stones ready to step in; a player who cannot move or enter loses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core import IllegalAction, Result
from engines.kidd.base import KiddGame, changed
from engines.kidd.board import FIELDS, FORWARD, NEIGHBOURS, START_FIELDS
from engines.kidd.notation import parse_action
from engines.kidd.repetition import History
from engines.kidd.walks import EMPTY_BOARD, Board, set_cells, walk_fault

STEP_TEXT = {(f, g): f"step {f} {g}" for f in FIELDS for g in NEIGHBOURS[f]}


@dataclass(frozen=True, slots=True)
class LoyalState:
    board: Board
    supply: tuple[int, ...]
    to_move: int
    history: History = History()
    outcome: Result | None = None


def group_at(board: Board, field: int) -> frozenset[int]:
    """The maximal set of same-colour stones connected to the one on `field`."""
    stone = board[field]
    assert stone is not None, "a group is of stones"
    colour = stone[-1]
    group = {field}
    frontier = [field]
    while frontier:
        for n in NEIGHBOURS[frontier.pop()]:
            cell = board[n]
            if cell is not None and cell[-1] == colour and n not in group:
                group.add(n)
                frontier.append(n)
    return frozenset(group)


def enclosed(board: Board, group: frozenset[int]) -> bool:
    """Every field adjacent to the group holds an opposing stone whose back is not a group field
    (D8): one empty field, or one enemy with its back towards the group, keeps the group alive."""
    stone = board[next(iter(group))]
    assert stone is not None, "a group is of stones"
    colour = stone[-1]
    for f in group:
        for n in NEIGHBOURS[f]:
            if n in group:
                continue
            cell = board[n]
            if cell is None or cell[-1] == colour or cell[0] in group:
                return False
    return True


def resolve_captures(board: Board, mover: int, placed: int) -> Board:
    """Remove the opponent's enclosed groups, then the mover's (D7).

    After every turn no group on the board is enclosed, so only groups the stone on `placed` can
    have closed in need a look: the opponent's groups next to it, and the mover's own group through
    it (only an entry can enclose that one; a step leaves an empty field beside the stone).
    """
    doomed: dict[int, None] = {}
    looked: set[int] = set()
    for n in NEIGHBOURS[placed]:
        cell = board[n]
        if cell is not None and cell[-1] != mover and n not in looked:
            group = group_at(board, n)
            looked |= group
            if enclosed(board, group):
                doomed.update(dict.fromkeys(group))
    if doomed:
        board = set_cells(board, dict.fromkeys(doomed))
    own = group_at(board, placed)
    if enclosed(board, own):
        board = set_cells(board, dict.fromkeys(own))
    return board


class LoyalCaptain(KiddGame):
    id = "loyal-captain"
    title = "Loyal Captain"
    score_label = "stones in play"
    players = (2,)
    common_actions = ("resign",)  # the spec offers a draw by agreement in Madagaskar only
    verbs = {"enter": (1, 1), "step": (2, 2)}

    def start(self, players: int, options: dict[str, Any]) -> LoyalState:
        return self._begin_turn(LoyalState(EMPTY_BOARD, (7,) * players, 0))

    def _blank(self, players: int, board: Board, supply: tuple[int, ...], to_move: int) -> LoyalState:
        return LoyalState(board, supply, to_move)

    def _arranged(self, inner: LoyalState, **extra: Any) -> LoyalState:
        if extra:
            raise ValueError(f"loyal-captain positions take no {', '.join(sorted(extra))}")
        return self._check_stuck(inner)

    def legal(self, inner: LoyalState, seat: int) -> list[str]:
        if seat != inner.to_move:
            return []
        board = inner.board
        actions = self._enter_texts(inner, seat)
        for f in FIELDS:
            cell = board[f]
            if cell is not None and cell[1] == seat:
                for g in FORWARD[f][cell[0]]:
                    if board[g] is None:
                        actions.append(STEP_TEXT[f, g])
        actions.sort()
        return actions

    def play(self, inner: LoyalState, seat: int, action: str) -> LoyalState:
        self._not_to_move(inner, seat)
        verb, fields = parse_action(action, self.verbs)
        if verb == "enter":
            board, supply = self._enter(inner, seat, fields[0])
            placed = fields[0]
        else:
            f, g = fields
            board, supply = inner.board, inner.supply
            cell = board[f]
            if cell is None or cell[-1] != seat:
                raise IllegalAction(f"{action}: field {f} holds no stone of seat {seat}")
            fault = walk_fault(board, f, cell[0], (g,))
            if fault:
                raise IllegalAction(f"{action}: {fault}")
            if board[g] is not None:
                raise IllegalAction(f"{action}: field {g} is occupied (a stone steps only onto an empty field)")
            board = set_cells(board, {f: None, g: (f, seat)})
            placed = g
        board = resolve_captures(board, seat, placed)
        return self._check_stuck(self._begin_turn(inner, board=board, supply=supply, to_move=1 - seat, outcome=None))

    def _check_stuck(self, inner: LoyalState) -> LoyalState:
        """Start-of-turn check after the repetition check: no step and no entry loses (D10)."""
        if inner.outcome is None and not self._can_act(inner, inner.to_move):
            return changed(inner, outcome=Result((1 - inner.to_move,), self._score(inner), "no-moves"))
        return inner

    @staticmethod
    def _can_act(inner: LoyalState, seat: int) -> bool:
        board = inner.board
        if inner.supply[seat] and None in [board[s] for s in START_FIELDS]:
            return True
        for f in FIELDS:
            cell = board[f]
            if cell is not None and cell[1] == seat:
                for g in FORWARD[f][cell[0]]:
                    if board[g] is None:
                        return True
        return False

    @staticmethod
    def _on_board(board: Board) -> tuple[int, int]:
        counts = [0, 0]
        for cell in board:
            if cell is not None:
                counts[cell[-1]] += 1
        return counts[0], counts[1]

    def _score(self, inner: LoyalState) -> tuple[int, ...]:
        """Stones still in play: on the board plus in supply."""
        on_board = self._on_board(inner.board)
        return tuple(on_board[s] + inner.supply[s] for s in range(2))

    def _extra_view(self, inner: LoyalState) -> dict[str, Any]:
        return {"stones_in_play": list(self._score(inner))}
