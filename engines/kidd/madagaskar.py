"""Madagaskar (Part 3): catch enemy stones and towers from behind to build ever taller towers; a
tower always walks exactly as many fields as it has stones. For 2 or 3 players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core import IllegalAction, Result
from engines.kidd.base import KiddGame, changed
from engines.kidd.board import FIELDS, OUT
from engines.kidd.notation import parse_action
from engines.kidd.repetition import REPEATS_FOR_DRAW, History
from engines.kidd.walks import EMPTY_BOARD, Board, from_behind, set_cells, tower_texts, walk_fault


@dataclass(frozen=True, slots=True)
class MadagaskarState:
    board: Board
    supply: tuple[int, ...]
    to_move: int
    players: int
    opening: bool = True
    passes: int = 0  # consecutive passes (D26)
    gone: tuple[int, ...] = ()  # seats that resigned from a game of three
    history: History = History()
    outcome: Result | None = None


_new = object.__new__
(_set_board, _set_supply, _set_to_move, _set_players, _set_opening, _set_passes, _set_gone, _set_history,
 _set_outcome) = (getattr(MadagaskarState, name).__set__ for name in (
    "board", "supply", "to_move", "players", "opening", "passes", "gone", "history", "outcome"))


def _state(board: Board, supply: tuple[int, ...], to_move: int, players: int, opening: bool, passes: int,
           gone: tuple[int, ...], history: History, outcome: Result | None) -> MadagaskarState:
    """`MadagaskarState(...)` with every field given, its slots set through their descriptors: a
    fraction of the frozen `__init__`, and a state is made at every turn."""
    state = _new(MadagaskarState)
    _set_board(state, board)
    _set_supply(state, supply)
    _set_to_move(state, to_move)
    _set_players(state, players)
    _set_opening(state, opening)
    _set_passes(state, passes)
    _set_gone(state, gone)
    _set_history(state, history)
    _set_outcome(state, outcome)
    return state


def tower_walks(board: Board, seat: int) -> list[str]:
    """Every legal `move` of `seat`: each tower it tops walks exactly its height (D22) and ends on
    an empty field (its own origin included, D5) or on an enemy top approached from behind. Towers
    of any height may capture."""
    return tower_texts(board, seat)


def controlled(board: Board, players: int) -> tuple[int, ...]:
    """Stones under each seat's control: the heights of the towers it tops (0 when out)."""
    held = [0] * players
    for cell in board:
        if cell is not None:
            held[cell[-1]] += len(cell) - 1
    return tuple(held)


def tops(board: Board) -> set[int]:
    """The seats that top at least one tower."""
    return {cell[-1] for cell in board if cell is not None}


class Madagaskar(KiddGame):
    id = "madagaskar"
    title = "Madagaskar"
    score_label = "stones controlled"
    players = (2, 3)
    verbs = {"enter": (1, 1), "move": (2, -1), "pass": (0, 0)}

    def stones_per_seat(self, players: int) -> int:
        return 7 if players == 2 else 6  # D20

    def start(self, players: int, options: dict[str, Any]) -> MadagaskarState:
        return MadagaskarState(EMPTY_BOARD, (self.stones_per_seat(players),) * players, 0, players)

    def _blank(self, players: int, board: Board, supply: tuple[int, ...], to_move: int) -> MadagaskarState:
        return MadagaskarState(board, supply, to_move, players, opening=False)

    def _arranged(self, inner: MadagaskarState, **extra: Any) -> MadagaskarState:
        if extra:
            raise ValueError(f"madagaskar positions take no {', '.join(sorted(extra))}")
        return inner

    # ----------------------------------------------------------------------------- who is in play

    @staticmethod
    def seats_in_play(inner: MadagaskarState, board: Board | None = None,
                      supply: tuple[int, ...] | None = None) -> list[int]:
        """A seat that tops no tower and has no supply is out and can never act again (D25); so is
        one that resigned. `board` and `supply` replace the state's while a turn is being settled."""
        supply = inner.supply if supply is None else supply
        gone = inner.gone
        if not gone and 0 not in supply:  # every seat can still enter a stone: no need to look at the board
            return list(range(inner.players))
        topping = tops(inner.board if board is None else board)
        return [s for s in range(inner.players) if s not in gone and (supply[s] or s in topping)]

    @staticmethod
    def _next_seat(in_play: list[int], seat: int, players: int) -> int:
        for k in range(1, players + 1):
            nxt = (seat + k) % players
            if nxt in in_play:
                return nxt
        return seat

    # ----------------------------------------------------------------------------- contract hooks

    def common(self, inner: MadagaskarState, seat: int) -> tuple[str, ...] | None:
        return ("resign",) if inner.opening else None  # no draw offer during the opening placements

    def legal(self, inner: MadagaskarState, seat: int) -> list[str]:
        """Built sorted, so not sorted again (it cost 2% of random play, a pass over thousands of texts
        for a tall tower): the entries are "enter S" for the start fields 1 to 6 in order, then the
        walks, which all sort after them ("e" < "m"). `tower_texts` takes the towers in the order of
        their fields' texts and gives each tower's walks as one sorted run ("move 1 ..." sorts before
        "move 10 ..." since a space sorts before a digit); see walks.py. The tests check the order."""
        if seat != inner.to_move:
            return []
        actions = self._enter_texts(inner, seat)
        if not inner.opening:
            tower_texts(inner.board, seat, actions)  # added in place: the walks are not copied again
            if not actions:
                return ["pass"]
        return actions

    def play(self, inner: MadagaskarState, seat: int, action: str) -> MadagaskarState:
        if seat != inner.to_move:
            self._not_to_move(inner, seat)
        verb, fields = parse_action(action, self.verbs)
        if inner.opening:
            if verb != "enter":
                raise IllegalAction(f"{action}: the opening is played by placing stones on empty start "
                                    "fields (enter S) until all are occupied")
            board, supply = self._enter(inner, seat, fields[0])
            inner = changed(inner, board=board, supply=supply)
            nxt = self._next_seat(self.seats_in_play(inner), seat, inner.players)
            if self._free_starts(board):
                return changed(inner, to_move=nxt)
            return self._begin_turn(inner, opening=False, to_move=nxt)  # D21
        if verb == "pass":
            if self._enter_texts(inner, seat) or tower_walks(inner.board, seat):
                raise IllegalAction("pass: a player may pass only when no move and no entry is possible")
            return self._end_of_turn(inner, seat, inner.board, inner.supply, inner.passes + 1)
        if verb == "enter":
            board, supply = self._enter(inner, seat, fields[0])
            return self._end_of_turn(inner, seat, board, supply, 0)
        board = self._walk(inner.board, seat, action, fields[0], fields[1:])
        return self._end_of_turn(inner, seat, board, inner.supply, 0)

    def _walk(self, board: Board, seat: int, action: str, origin: int, path: tuple[int, ...]) -> Board:
        tower = board[origin]
        if tower is None or tower[-1] != seat:
            raise IllegalAction(f"{action}: seat {seat} tops no tower on field {origin}")
        height = len(tower) - 1
        if len(path) != height:
            raise IllegalAction(f"{action}: a tower of {height} stone(s) walks exactly {height} step(s) (D22), "
                                f"not {len(path)}")
        fault = walk_fault(board, origin, tower[0], path)
        if fault:
            raise IllegalAction(f"{action}: {fault}")
        final = path[-1]
        came = path[-2] if len(path) > 1 else origin
        target = None if final == origin else board[final]
        if target is None:
            landed = (came, *tower[1:])
        elif target[-1] == seat:
            raise IllegalAction(f"{action}: a tower never lands on a tower of its own colour")
        elif not from_behind(target, came):
            raise IllegalAction(f"{action}: an enemy tower is captured only from behind (the walk must arrive "
                                f"from its back, field {target[0]})" if target[0] != OUT else
                                f"{action}: a stone entered from OUT cannot be approached from behind")
        else:  # capture: the whole moving tower goes on top
            landed = (came, *target[1:], *tower[1:])
        cells = list(board)
        cells[origin] = None
        cells[final] = landed
        return tuple(cells)

    def _end_of_turn(self, inner: MadagaskarState, seat: int, board: Board, supply: tuple[int, ...],
                     passes: int) -> MadagaskarState:
        """End checks: the win (every opponent out), then the all-pass draw; then the next seat."""
        in_play = self.seats_in_play(inner, board, supply)
        if in_play == [seat]:
            outcome = Result((seat,), controlled(board, inner.players), "all-captured")
            return changed(inner, board=board, supply=supply, passes=passes, outcome=outcome)
        if passes and passes >= len(in_play):
            outcome = Result((), controlled(board, inner.players), "all-pass")
            return changed(inner, board=board, supply=supply, passes=passes, outcome=outcome)
        # `_begin_turn`, for the one state class, without its keyword arguments: this runs at every turn
        to_move = self._next_seat(in_play, seat, inner.players)
        history = inner.history.record((board, supply, to_move), (supply, board.count(None)))
        after = _state(board, supply, to_move, inner.players, inner.opening, passes, inner.gone, history,
                       inner.outcome)
        if history.repeats >= REPEATS_FOR_DRAW:  # history.drawn
            after = changed(after, outcome=Result((), self._score(after), "repetition"))
        self._in_play_memo = (after, tuple(in_play))  # the same board, supply and seats gone
        return after

    def eliminate(self, inner: MadagaskarState, seat: int) -> MadagaskarState:
        """A seat resigned from a game of three: its towers leave the board with every stone in
        them, its supply is gone, and its turns are skipped; the last one standing wins."""
        board = set_cells(inner.board, {f: None for f in FIELDS
                                        if (tower := inner.board[f]) is not None and tower[-1] == seat})
        supply = tuple(0 if s == seat else n for s, n in enumerate(inner.supply))
        inner = changed(inner, board=board, supply=supply, gone=(*inner.gone, seat))
        in_play = self.seats_in_play(inner)
        if len(in_play) == 1:
            return changed(inner, outcome=Result(tuple(in_play), self._score(inner), "resign"))
        if inner.to_move != seat:
            return inner
        nxt = self._next_seat(in_play, seat, inner.players)
        return changed(inner, to_move=nxt) if inner.opening else self._begin_turn(inner, to_move=nxt)

    # ----------------------------------------------------------------------------- draw offers

    draw_reason = "agreement"  # the spec's name for a draw by agreement

    _in_play_memo: tuple[MadagaskarState | None, tuple[int, ...]] = (None, ())
    """The state the last turn ended in and its seats in play, found while ending it: the contract
    asks for them again at once (draw offers are checked whenever the legal actions are listed).
    The memo holds the state itself, so `is` cannot match another state that reuses its id."""

    def in_play(self, inner: MadagaskarState) -> tuple[int, ...]:
        """Seats knocked out (D25) are not asked to agree to a draw."""
        state, seats = self._in_play_memo
        if state is inner:
            return seats
        return tuple(self.seats_in_play(inner))

    # ----------------------------------------------------------------------------- scoring and views

    def _score(self, inner: MadagaskarState) -> tuple[int, ...]:
        return controlled(inner.board, inner.players)

    def scores(self, inner: MadagaskarState, out: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(0 if s in out else n for s, n in enumerate(self._score(inner)))

    def _extra_public(self, inner: MadagaskarState) -> tuple[Any, ...]:
        return (inner.players, inner.opening, inner.passes, inner.gone)

    def _extra_view(self, inner: MadagaskarState) -> dict[str, Any]:
        return {
            "phase": "opening" if inner.opening else "play",
            "players": inner.players,
            "passes": inner.passes,
            "out_of_play": [s for s in range(inner.players) if s not in self.seats_in_play(inner)],
            "stones_controlled": list(self._score(inner)),
        }
