"""Ploc: a two-match dice tug-of-war (docs/rules/ploc.md).

The inner state is one frozen value. Per-turn bookkeeping (rolled dice, which dice and column
positions are used, rerolls) lives in the same value and is cleared when the turn passes, because the
free dice are rolled fresh by the next mover (D12) and so carry nothing between turns.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engines.core import Awaiting, Chance, IllegalAction, Result, Rules

__all__ = ["Ploc", "PlocState"]

COLOURS = ("yellow", "red")

# phases; "team0"/"team1"/"coin"/"roll"/"rerolling" wait for chance, "reroll"/"act" for the mover
TEAM0, TEAM1, COIN, ROLL, REROLL, REROLLING, ACT, OVER = (
    "team0", "team1", "coin", "roll", "reroll", "rerolling", "act", "over")

_TEAM_DICE = (Chance("dice", sides=(6, 6, 6), label="team dice of seat 0 (yellow)"),
              Chance("dice", sides=(6, 6, 6), label="team dice of seat 1 (red)"))
_COIN = Chance("pick", n=2, label="starting seat of match 1")
_ROLL = Chance("dice", sides=(6, 6, 6), label="roll of the three free dice")
_REROLL = tuple(Chance("dice", sides=(6,), label=f"reroll of die {i}") for i in (1, 2, 3))
_BITS = (1, 2, 4)
_MOVE = (Awaiting("move", (0,)), Awaiting("move", (1,)))
_AWAIT = {TEAM0: Awaiting("chance", (), _TEAM_DICE[0]), TEAM1: Awaiting("chance", (), _TEAM_DICE[1]),
          COIN: Awaiting("chance", (), _COIN), ROLL: Awaiting("chance", (), _ROLL), OVER: Awaiting("over")}
_AWAIT_REROLL = tuple(Awaiting("chance", (), c) for c in _REROLL)

# every well-formed action text -> (verb, die index 0..2, column index 0..2); -1 where unused
_PAIR_VERBS = ("elim", "elimw", "swap", "weaken")
_PARSE: dict[str, tuple[str, int, int]] = {"allornothing": ("allornothing", -1, -1), "done": ("done", -1, -1)}
for _i in range(3):
    _PARSE[f"reroll {_i + 1}"] = ("reroll", _i, -1)
    for _j in range(3):
        for _verb in _PAIR_VERBS:
            _PARSE[f"{_verb} {_i + 1} {_j + 1}"] = (_verb, _i, _j)
_PHASE_NAMES = {TEAM0: "team dice", TEAM1: "team dice", COIN: "coin", ROLL: "roll", REROLL: "reroll",
                REROLLING: "reroll", ACT: "action", OVER: "over"}
_REROLL_TEXT = ("reroll 1", "reroll 2", "reroll 3")
_PAIR_TEXT = {verb: tuple(tuple(f"{verb} {i + 1} {j + 1}" for j in range(3)) for i in range(3))
              for verb in _PAIR_VERBS}


@dataclass(frozen=True, slots=True)
class PlocState:
    """The whole game. Per seat: column, healthy and weakened athletes, matches won.

    `first` is the seat that started match 1 (match 2 is started by the other one), `winners` the
    winner of each finished match. For the turn under way: `rolled` (empty between turns), the used
    dice and column positions as bit masks, `sixes` = k read when the dice were rolled (D3), the
    rerolls made and which dice they hit, and `pending` = the die (0..2) whose reroll awaits chance.
    """

    phase: str = TEAM0
    match: int = 1
    columns: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    healthy: tuple[int, int] = (0, 0)
    weak: tuple[int, int] = (0, 0)
    won: tuple[int, int] = (0, 0)
    winners: tuple[int, ...] = ()
    first: int = -1
    mover: int = -1
    rolled: tuple[int, ...] = ()
    used_dice: int = 0
    used_cols: int = 0
    sixes: int = 0
    rerolls: int = 0
    rerolled: int = 0
    pending: int = -1

    @property
    def starter(self) -> int:
        """The seat that starts the current match (-1 before match 1's coin)."""
        if self.first < 0:
            return -1
        return self.first if self.match == 1 else 1 - self.first


def _pair(values: tuple[int, int], seat: int, value: int) -> tuple[int, int]:
    return (value, values[1]) if seat == 0 else (values[0], value)


class Ploc(Rules[PlocState]):
    id = "ploc"
    title = "Ploc"
    players = (2,)

    # ----------------------------------------------------------------------------- hooks

    def start(self, players: int, options: dict[str, Any]) -> PlocState:
        return PlocState()

    def awaiting(self, inner: PlocState) -> Awaiting:
        phase = inner.phase
        if phase in (ACT, REROLL):
            return _MOVE[inner.mover]
        if phase == REROLLING:
            return _AWAIT_REROLL[inner.pending]
        return _AWAIT[phase]

    def legal(self, inner: PlocState, seat: int) -> list[str]:
        if seat != inner.mover:
            return []
        phase = inner.phase
        if phase == REROLL:
            rerolled = inner.rerolled
            return ["done", *(_REROLL_TEXT[i] for i in range(3) if not rerolled & _BITS[i])]
        if phase != ACT:
            return []
        rolled = inner.rolled
        column = inner.columns[seat]
        opp = 1 - seat
        opp_h = inner.healthy[opp] > 0
        opp_w = inner.weak[opp] > 0
        dice = [i for i in range(3) if not inner.used_dice & _BITS[i]]
        cols = [j for j in range(3) if not inner.used_cols & _BITS[j]]
        out: list[str] = []
        if (not inner.used_dice and rolled[0] == rolled[1] == rolled[2]
                and rolled[0] >= min(column)):
            out.append("allornothing")
        if opp_h:
            for i in dice:
                texts = _PAIR_TEXT["elim"][i]
                out.extend(texts[j] for j in cols if rolled[i] >= column[j])
        if opp_w:
            for i in dice:
                texts = _PAIR_TEXT["elimw"][i]
                out.extend(texts[j] for j in cols if rolled[i] >= column[j] - 2)
        for i in dice:
            texts = _PAIR_TEXT["swap"][i]
            out.extend(texts[j] for j in cols)
        if opp_h:
            for i in dice:
                texts = _PAIR_TEXT["weaken"][i]
                out.extend(texts[j] for j in cols)
        return out

    def play(self, inner: PlocState, seat: int, action: Any) -> PlocState:
        parsed = _PARSE.get(action)
        if parsed is None:
            raise IllegalAction(
                f"{action!r} is not a Ploc action (expected reroll i, done, elim i j, elimw i j, swap i j, "
                "weaken i j or allornothing, with die i and column position j in 1..3)")
        verb, i, j = parsed
        if verb in ("reroll", "done"):
            return self._reroll_phase(inner, action, verb, i)
        if inner.phase == REROLL:
            raise IllegalAction(f"{action}: the reroll phase comes first (play reroll i or done; D3 rerolls come "
                                "before any action)")
        if verb == "allornothing":
            return self._all_or_nothing(inner, seat)
        if inner.used_dice & _BITS[i]:
            raise IllegalAction(f"{action}: rolled die {i + 1} was already used this turn (each die pairs once, D4)")
        if inner.used_cols & _BITS[j]:
            raise IllegalAction(f"{action}: column position {j + 1} was already used this turn "
                                "(each position pairs once, D4)")
        r = inner.rolled[i]
        c = inner.columns[seat][j]
        opp = 1 - seat
        if verb == "swap":
            return self._swap(inner, seat, i, j, r, c)
        healthy, weak = inner.healthy, inner.weak
        if verb == "elimw":
            if r < c - 2:
                raise IllegalAction(f"{action}: rolled {r} is more than 2 below column {c} "
                                    "(elimw needs ri >= cj - 2)")
            if weak[opp] < 1:
                raise IllegalAction(f"{action}: the opponent has no weakened athlete to remove")
            weak = _pair(weak, opp, weak[opp] - 1)
        else:
            if verb == "elim" and r < c:
                raise IllegalAction(f"{action}: rolled {r} is below column {c} (elim needs ri >= cj; a die up "
                                    "to 2 lower may only remove a weakened athlete with elimw)")
            if healthy[opp] < 1:
                raise IllegalAction(f"{action}: the opponent has no healthy athlete to "
                                    f"{'remove' if verb == 'elim' else 'lay down (D6)'}")
            healthy = _pair(healthy, opp, healthy[opp] - 1)
            if verb == "weaken":
                weak = _pair(weak, opp, weak[opp] + 1)
        return self._after_action(inner, seat, inner.columns, healthy, weak,
                                  inner.used_dice | _BITS[i], inner.used_cols | _BITS[j])

    def chance(self, inner: PlocState, value: Any) -> PlocState:
        phase = inner.phase
        if phase == ROLL:
            k = inner.columns[inner.mover].count(6)
            return PlocState(phase=REROLL if k else ACT, match=inner.match, columns=inner.columns,
                             healthy=inner.healthy, weak=inner.weak, won=inner.won, winners=inner.winners,
                             first=inner.first, mover=inner.mover, rolled=value, sixes=k)
        if phase == REROLLING:
            i = inner.pending
            rolled = inner.rolled[:i] + value + inner.rolled[i + 1:]
            rerolls = inner.rerolls + 1
            return replace(inner, phase=ACT if rerolls >= inner.sixes else REROLL, rolled=rolled,
                           rerolls=rerolls, pending=-1)
        if phase == TEAM0:
            bonus = 1 if inner.winners and inner.winners[0] == 0 else 0
            return replace(inner, phase=TEAM1, columns=(value, inner.columns[1]),
                           healthy=(sum(value) + bonus, inner.healthy[1]), weak=(0, inner.weak[1]))
        if phase == TEAM1:
            bonus = 1 if inner.winners and inner.winners[0] == 1 else 0
            inner = replace(inner, columns=(inner.columns[0], value),
                            healthy=(inner.healthy[0], sum(value) + bonus), weak=(inner.weak[0], 0))
            if inner.match == 1:
                return replace(inner, phase=COIN)
            return replace(inner, phase=ROLL, mover=1 - inner.first)
        if phase == COIN:
            return replace(inner, phase=ROLL, first=value, mover=value)
        raise IllegalAction("Ploc waits for no chance outcome here")

    def result(self, inner: PlocState) -> Result | None:
        if inner.phase != OVER:
            return None
        return Result(winners=(inner.winners[1],), scores=inner.won, reason="match-2")

    def public(self, inner: PlocState) -> Any:
        return (inner.phase, inner.match, inner.columns, inner.healthy, inner.weak, inner.won, inner.winners,
                inner.first, inner.mover, inner.rolled, inner.used_dice, inner.used_cols, inner.sixes,
                inner.rerolls, inner.rerolled, inner.pending)

    def scores(self, inner: PlocState, out: tuple[int, ...]) -> tuple[int, ...]:
        return inner.won

    def view(self, inner: PlocState, seat: int | None) -> dict:
        phase = _PHASE_NAMES[inner.phase]
        in_turn = bool(inner.rolled)
        rolled = [{"die": i + 1, "value": v, "used": bool(inner.used_dice & _BITS[i]),
                   "rerolled": bool(inner.rerolled & _BITS[i]), "rolling": inner.pending == i}
                  for i, v in enumerate(inner.rolled)]
        columns = []
        for s in (0, 1):
            used = in_turn and s == inner.mover
            columns.append([{"position": j + 1, "value": v, "used": used and bool(inner.used_cols & _BITS[j])}
                            for j, v in enumerate(inner.columns[s])])
        return {
            "match": inner.match,
            "phase": phase,
            "setup_seat": 0 if inner.phase == TEAM0 else 1 if inner.phase == TEAM1 else None,
            "to_move": inner.mover if inner.phase in (REROLL, ACT) else None,
            "turn_of": inner.mover if inner.mover >= 0 and inner.phase != OVER else None,
            "starter": inner.starter if inner.starter >= 0 else None,
            "colours": list(COLOURS),
            "columns": columns,
            "healthy": list(inner.healthy),
            "weakened": list(inner.weak),
            "athletes": [inner.healthy[s] + inner.weak[s] for s in (0, 1)],
            "matches_won": list(inner.won),
            "match_winners": list(inner.winners),
            "rolled": rolled,
            "actions_taken": bin(inner.used_dice).count("1"),
            "rerolls_allowed": inner.sixes if in_turn else 0,
            "rerolls_used": inner.rerolls,
            "rerolls_left": inner.sixes - inner.rerolls if inner.phase in (REROLL, REROLLING) else 0,
        }

    def describe(self, inner: PlocState, seat: int, action: str) -> str:
        """A move-log line in words; `inner` is the state before the action."""
        who = COLOURS[seat] if seat in (0, 1) else f"seat {seat}"
        parsed = _PARSE.get(action)
        if parsed is None or not isinstance(inner, PlocState) or not inner.rolled:
            return f"{who}: {action}"
        verb, i, j = parsed
        opp = COLOURS[1 - seat]
        if verb == "reroll":
            return f"{who} rerolls die {i + 1} (showing {inner.rolled[i]})"
        if verb == "done":
            return f"{who} keeps the dice"
        if verb == "allornothing":
            return f"{who} goes all or nothing with three {inner.rolled[0]}s: 4 {opp} athletes out"
        r, c = inner.rolled[i], inner.columns[seat][j]
        if verb == "elim":
            return f"{who} pairs {r} with {c}: a healthy {opp} athlete out"
        if verb == "elimw":
            return f"{who} pairs {r} with {c}: a weakened {opp} athlete out"
        if verb == "weaken":
            return f"{who} pairs {r} with {c}: a {opp} athlete is laid down"
        return f"{who} swaps {r} into the column for {c} ({1 + r - c:+d} athletes)"

    # ----------------------------------------------------------------------------- helpers

    def _reroll_phase(self, inner: PlocState, action: str, verb: str, i: int) -> PlocState:
        if inner.phase != REROLL:
            if inner.phase == ACT and inner.sixes and not inner.used_dice:
                raise IllegalAction(f"{action}: the reroll phase is over (done was played or all "
                                    f"{inner.sixes} rerolls are used)")
            if inner.phase == ACT and inner.used_dice:
                raise IllegalAction(f"{action}: rerolls come before any action (D3)")
            raise IllegalAction(f"{action}: there is no reroll phase this turn (the column shows no 6; "
                                "one reroll per 6 in the column, D3)")
        if verb == "done":
            return replace(inner, phase=ACT)
        if inner.rerolled & _BITS[i]:
            raise IllegalAction(f"{action}: die {i + 1} was already rerolled this turn (the second result "
                                "stands, D3)")
        return replace(inner, phase=REROLLING, pending=i, rerolled=inner.rerolled | _BITS[i])

    def _all_or_nothing(self, inner: PlocState, seat: int) -> PlocState:
        r = inner.rolled
        if inner.used_dice:
            raise IllegalAction("allornothing: only as the first and only action of the turn (D8)")
        if not r[0] == r[1] == r[2]:
            raise IllegalAction(f"allornothing: the three rolled dice {r[0]}, {r[1]}, {r[2]} are not equal")
        low = min(inner.columns[seat])
        if r[0] < low:
            raise IllegalAction(f"allornothing: the triple {r[0]} is below the lowest column die {low}")
        opp = 1 - seat
        h, w = inner.healthy[opp], inner.weak[opp]
        take = min(4, h)
        h -= take
        w -= min(4 - take, w)
        return self._after_action(inner, seat, inner.columns, _pair(inner.healthy, opp, h),
                                  _pair(inner.weak, opp, w), 7, 7)

    def _swap(self, inner: PlocState, seat: int, i: int, j: int, r: int, c: int) -> PlocState:
        d = 1 + r - c
        h, w = inner.healthy[seat], inner.weak[seat]
        if d >= 0:
            h += d
        else:
            loss = -d
            from_weak = min(loss, w)
            w -= from_weak
            h = max(0, h - (loss - from_weak))
        column = inner.columns[seat]
        column = column[:j] + (r,) + column[j + 1:]
        columns = (column, inner.columns[1]) if seat == 0 else (inner.columns[0], column)
        return self._after_action(inner, seat, columns, _pair(inner.healthy, seat, h), _pair(inner.weak, seat, w),
                                  inner.used_dice | _BITS[i], inner.used_cols | _BITS[j])

    def _after_action(self, inner: PlocState, seat: int, columns: tuple[tuple[int, ...], tuple[int, ...]],
                      healthy: tuple[int, int], weak: tuple[int, int], used_dice: int, used_cols: int) -> PlocState:
        """The state after one action: the match-end check (after every action, D10), else the end of the
        turn after the third pair, else the same turn with the pair marked used. Built in one go, since
        this is the hot path of self-play."""
        for s in (seat, 1 - seat):
            if healthy[s] + weak[s] == 0:
                won = _pair(inner.won, 1 - s, inner.won[1 - s] + 1)
                return PlocState(phase=OVER if inner.match == 2 else TEAM0, match=2, columns=columns,
                                 healthy=healthy, weak=weak, won=won, winners=(*inner.winners, 1 - s),
                                 first=inner.first)
        if used_dice == 7:
            return PlocState(phase=ROLL, match=inner.match, columns=columns, healthy=healthy, weak=weak,
                             won=inner.won, winners=inner.winners, first=inner.first, mover=1 - seat)
        return PlocState(phase=ACT, match=inner.match, columns=columns, healthy=healthy, weak=weak, won=inner.won,
                         winners=inner.winners, first=inner.first, mover=seat, rolled=inner.rolled,
                         used_dice=used_dice, used_cols=used_cols, sixes=inner.sixes, rerolls=inner.rerolls,
                         rerolled=inner.rerolled)
