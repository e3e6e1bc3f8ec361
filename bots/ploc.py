"""Ploc bots: `random`, and the levels `easy` (no rerolls, one pair at a time), `medium` (also called
`smart`) and `hard` (Monte Carlo over medium's best, one answer further).

The smart (medium) bot plays its turn by search. Actions: every sequence of the remaining pair actions (or
all-or-nothing) is tried through `legal`/`play`, in a canonical order that loses no outcome (see
`_ActionSearch`). Rerolls: expectimax over the six faces of each die that may be rerolled, where the
worth of a roll is the best end of turn it allows, found by a quick model of the turn (`turn_value`)
because an expectimax over up to three rerolls needs dozens of whole-turn searches per decision.

Ends of turns are scored as a race (`score`): how many opposing turns my athletes last against how many
of my turns the opponent's athletes last, where a column's attack rate is the damage it is expected
to deal per turn (dice paired with it at best, rerolls on sixes included).
"""

from __future__ import annotations

from functools import cache
from itertools import permutations, product
from typing import Any

from bots.lib import RandomBot, forced, game_actions
from bots.search import Budget, MonteCarlo
from engines.core import Game, State
from engines.memo import Memo

__all__ = ["BOTS", "EasyBot", "HardBot", "RandomBot", "SmartBot", "attack_rate", "score", "turn_value"]

WIN = 10_000.0
#: a weakened athlete against a healthy one: it dies to a die up to 2 below its partner
WEAK = 0.7
# damage of one pair in the attack-rate estimate: a full elimination, an elimination of a weakened
# athlete (which first needs a weaken), a weaken
_HIT, _HIT_WEAK, _LAY = 1.0, 0.65, 1.0 - WEAK
_PERMS = tuple(permutations(range(3)))


# ----------------------------------------------------------------------------- evaluation


def _roll_damage(roll: tuple[int, ...], column: tuple[int, ...]) -> float:
    best = 0.0
    for perm in _PERMS:
        total = 0.0
        for i, j in enumerate(perm):
            r, c = roll[i], column[j]
            total += _HIT if r >= c else _HIT_WEAK if r >= c - 2 else _LAY
        best = max(best, total)
    if roll[0] == roll[1] == roll[2] and roll[0] >= column[0]:
        best = max(best, 4.0)
    return best


@cache
def _damage_with_rerolls(roll: tuple[int, ...], column: tuple[int, ...], left: int) -> float:
    """Damage of a sorted roll when `left` rerolls remain (a die may be picked again: close enough)."""
    best = _roll_damage(roll, column)
    if left:
        for i in range(3):
            total = 0.0
            for face in range(1, 7):
                total += _damage_with_rerolls(tuple(sorted((*roll[:i], face, *roll[i + 1:]))), column, left - 1)
            best = max(best, total / 6)
    return best


@cache
def attack_rate(column: tuple[int, ...]) -> float:
    """Expected damage per turn of a column (given sorted), one reroll per six."""
    k = column.count(6)
    total = 0.0
    for roll in product(range(1, 7), repeat=3):
        total += _damage_with_rerolls(tuple(sorted(roll)), column, k)
    return total / 216


def score(mine: tuple[int, int], my_column: tuple[int, ...], theirs: tuple[int, int],
          their_column: tuple[int, ...]) -> float:
    """End-of-turn value for the mover: turns its team survives minus turns the opponent's survives.

    `mine`/`theirs` are (healthy, weakened); columns are sorted. The opponent moves next.
    """
    my_rate = attack_rate(my_column)
    their_rate = attack_rate(their_column)
    return (mine[0] + WEAK * mine[1]) / their_rate - (theirs[0] + WEAK * theirs[1]) / my_rate


# ----------------------------------------------------------------------------- quick model of a turn

_ELIM, _WEAKEN, _ELIMW, _SWAP = range(4)


def turn_value(mine: tuple[int, int], column: tuple[int, ...], open_cols: tuple[int, ...], dice: tuple[int, ...],
               theirs: tuple[int, int], their_column: tuple[int, ...], first: bool) -> float:
    """The best `score` (or +-WIN) the mover can reach with `dice` against the column positions
    `open_cols` (indices into `column`); `first`: no action taken yet (all-or-nothing possible).

    Pair actions are applied in the canonical order of `_ActionSearch`: eliminations, weakens,
    eliminations of weakened athletes, then swaps by falling gain.
    """
    their_sorted = tuple(sorted(their_column))
    best = -2 * WIN
    if first and dice[0] == dice[1] == dice[2] and dice[0] >= min(column):
        h, w = theirs
        take = min(4, h)
        h, w = h - take, w - min(4 - take, w)
        best = WIN if h + w == 0 else score(mine, tuple(sorted(column)), (h, w), their_sorted)
    # A turn's value splits in two: the swaps depend only on which pairs swap (`_swaps`), the attacks only on
    # how many of the other pairs take each kind (`_attack`). So for each pairing and each set of swapping
    # pairs the swaps are worked out once, and each distinct count of attacks once per call; an end is scored
    # once. (A pair-by-pair replay of every combination did the same work up to 162 times.)
    attacks: dict[tuple[int, int, int], tuple[int, int] | float] = {}
    scores: dict[tuple, float] = {}
    n = len(dice)
    for perm in permutations(open_cols):
        # each pair's attack: its first kind (0: eliminate, 1: weaken) and whether it may eliminate a weakened one
        kind = [0 if dice[i] >= column[perm[i]] else 1 for i in range(n)]
        alt = [dice[i] >= column[perm[i]] - 2 for i in range(n)]
        for mask in _MASKS[n]:
            counts_seen = {(0, 0, 0)}
            for i in range(n):
                if mask[i]:
                    continue
                grown = set()
                for e, w, x in counts_seen:
                    grown.add((e + 1, w, x) if kind[i] == 0 else (e, w + 1, x))
                    if alt[i]:
                        grown.add((e, w, x + 1))
                counts_seen = grown
            end_: tuple[int, int, tuple[int, ...]] | None | bool = False   # (worked out when an attack needs it)
            for counts in counts_seen:
                after = attacks.get(counts)
                if after is None:
                    after = attacks[counts] = _attack(theirs, counts)
                if after == WIN:
                    return WIN
                if not isinstance(after, tuple):
                    continue      # not playable: no better than the start of `best`
                if end_ is False:
                    end_ = _swaps(mine, column, dice, perm, mask)
                if end_ is None:
                    value = -WIN
                else:
                    key = (end_, after)
                    value = scores.get(key)
                    if value is None:
                        value = scores[key] = score((end_[0], end_[1]), end_[2], after, their_sorted)
                if value > best:
                    best = value
    return best


#: for n pairs, every choice of which of them swap
_MASKS = {n: tuple(product((False, True), repeat=n)) for n in range(4)}


def _attack(theirs: tuple[int, int], counts: tuple[int, int, int]) -> tuple[int, int] | float:
    """The opponent's (healthy, weakened) after `counts` eliminations, weakens and eliminations of weakened
    athletes in that order; WIN when none is left, -2 * WIN when one of them has no target."""
    oh, ow = theirs
    elims, weakens, elimws = counts
    for _ in range(elims):
        if oh == 0:
            return -2 * WIN
        oh -= 1
        if oh + ow == 0:
            return WIN
    for _ in range(weakens):
        if oh == 0:
            return -2 * WIN
        oh, ow = oh - 1, ow + 1
    for _ in range(elimws):
        if ow == 0:
            return -2 * WIN
        ow -= 1
        if oh + ow == 0:
            return WIN
    return oh, ow


def _swaps(mine: tuple[int, int], column: tuple[int, ...], dice: tuple[int, ...], perm: tuple[int, ...],
           mask: tuple[bool, ...]) -> tuple[int, int, tuple[int, ...]] | None:
    """The mover's (healthy, weakened, sorted column) after the swaps `mask` marks, by falling gain; None when
    they cost the mover its last athlete."""
    if not any(mask):
        return mine[0], mine[1], tuple(sorted(column))
    mh, mw = mine
    col = list(column)
    swaps = sorted(((1 + dice[n] - column[perm[n]], n) for n in range(len(dice)) if mask[n]), reverse=True)
    for d, n in swaps:
        if d >= 0:
            mh += d
        else:
            loss = min(-d, mw)
            mw -= loss
            mh = max(0, mh - (-d - loss))
            if mh + mw == 0:
                return None
        col[perm[n]] = dice[n]
    return mh, mw, tuple(sorted(col))


# ----------------------------------------------------------------------------- the bot


class SmartBot:
    """Rerolls by expectimax over the quick turn model, actions by exact search through the engine."""

    name = "smart"

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        obvious = forced(legal)
        if obvious is not None:
            return obvious
        actions = game_actions(legal)
        view = game.view(state, seat)
        if view["phase"] == "reroll":
            return _RerollSearch(view, seat).choose(actions)
        return _ActionSearch(game, seat, len(view["match_winners"])).choose(state, actions)


#: (mine, column, sorted dice, theirs, their column) -> `turn_value` of a turn's roll before any action: the
#: reroll search asks it for every face of every die at each reroll decision, and the next decision of the same
#: turn (after one die is rerolled) asks most of the same rolls again
_ROLLS: Memo[tuple, float] = Memo(1 << 16, "(mine, column, sorted dice, theirs, their column)")


class _RerollSearch:
    """Expectimax over rerolls; a roll is worth the best end of turn `turn_value` finds for it."""

    def __init__(self, view: dict, seat: int):
        opp = 1 - seat
        self.mine = (view["healthy"][seat], view["weakened"][seat])
        self.theirs = (view["healthy"][opp], view["weakened"][opp])
        self.column = tuple(d["value"] for d in view["columns"][seat])
        self.their_column = tuple(d["value"] for d in view["columns"][opp])
        self.dice = tuple(d["value"] for d in view["rolled"])
        self.rerolled = tuple(d["rerolled"] for d in view["rolled"])
        self.left = view["rerolls_left"]
        self.rolls: dict[tuple[int, ...], float] = {}
        self.memo: dict[tuple, float] = {}

    def choose(self, actions: list[str]) -> str:
        best_value, best = None, actions[0]
        for action in actions:
            if action == "done":
                value = self.roll(self.dice)
            elif action.startswith("reroll "):
                value = self.reroll(self.dice, self.rerolled, self.left, int(action[7:]) - 1)
            else:
                continue
            if best_value is None or value > best_value:
                best_value, best = value, action
        return best

    def roll(self, dice: tuple[int, ...]) -> float:
        key = tuple(sorted(dice))
        value = self.rolls.get(key)
        if value is None:
            known = (self.mine, self.column, key, self.theirs, self.their_column)
            value = _ROLLS.get(known)
            if value is None:
                value = _ROLLS.put(known, turn_value(self.mine, self.column, (0, 1, 2), key, self.theirs,
                                                     self.their_column, True))
            self.rolls[key] = value
        return value

    def reroll(self, dice: tuple[int, ...], rerolled: tuple[bool, ...], left: int, i: int) -> float:
        total = 0.0
        marks = (*rerolled[:i], True, *rerolled[i + 1:])
        for face in range(1, 7):
            total += self.phase((*dice[:i], face, *dice[i + 1:]), marks, left - 1)
        return total / 6

    def phase(self, dice: tuple[int, ...], rerolled: tuple[bool, ...], left: int) -> float:
        """Value of the reroll phase with `left` rerolls to go (0: the action phase starts)."""
        if left == 0:
            return self.roll(dice)
        key = (tuple(sorted(zip(dice, rerolled, strict=True))), left)
        value = self.memo.get(key)
        if value is None:
            value = self.roll(dice)
            for i in range(3):
                if not rerolled[i]:
                    value = max(value, self.reroll(dice, rerolled, left, i))
            self.memo[key] = value
        return value


_RANK = {"allornothing": 0, "elim": 1, "weaken": 2, "elimw": 3, "swap": 4}


class _ActionSearch:
    """Exact search of the rest of the own turn, through the engine.

    Only canonical orders are searched: eliminations, then weakens, then eliminations of weakened
    athletes, then swaps; within a kind other than swap, by rising die. Nothing is lost: attacks touch
    only the opponent's athletes, swaps only the mover's and a position no other pair compares with;
    eliminating first can only end the match sooner, weakening before `elimw` only gives it more targets,
    and swaps last can only let an attack win before a costly swap. A weaken is skipped where an
    elimination fits the same pair, which always leaves the opponent weaker.
    """

    def __init__(self, game: Game, seat: int, matches_before: int):
        self.game = game
        self.seat = seat
        self.matches_before = matches_before

    def choose(self, state: State, actions: list[str]) -> str:
        best_value, best = None, actions[0]
        for action in actions:
            value = self.after(state, action)
            if best_value is None or value > best_value:
                best_value, best = value, action
        return best

    def after(self, state: State, action: str) -> float:
        verb, _, rest = action.partition(" ")
        nxt = self.game.play(state, self.seat, action)
        return self.value(nxt, _RANK.get(verb, 0), int(rest[0]) if rest else 0)

    def value(self, state: State, rank: int, die: int) -> float:
        game, seat = self.game, self.seat
        if game.awaiting(state).seats != (seat,):
            return self.outcome(game.view(state, seat))
        actions = game_actions(game.legal(state, seat))
        elims = {a[5:] for a in actions if a.startswith("elim ")}
        best = -2 * WIN
        for action in actions:
            verb, _, rest = action.partition(" ")
            r = _RANK.get(verb)
            if r is None or r < rank or (r == rank and r != 4 and int(rest[0]) < die):
                continue
            if verb == "weaken" and rest in elims:
                continue
            value = self.value(game.play(state, seat, action), r, int(rest[0]))
            if value > best:
                best = value
                if best >= WIN:
                    break
        return best

    def outcome(self, view: dict) -> float:
        seat, opp = self.seat, 1 - self.seat
        winners = view["match_winners"]
        if len(winners) > self.matches_before:
            return WIN if winners[-1] == seat else -WIN
        return score((view["healthy"][seat], view["weakened"][seat]),
                     tuple(sorted(d["value"] for d in view["columns"][seat])),
                     (view["healthy"][opp], view["weakened"][opp]),
                     tuple(sorted(d["value"] for d in view["columns"][opp])))


class EasyBot:
    """A beginner's Ploc: it never rerolls, and plays one pair at a time, whichever leaves the best race
    right after it (the smart bot's score), without searching the order of the whole turn."""

    name = "easy"

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        obvious = forced(legal)
        if obvious is not None:
            return obvious
        actions = game_actions(legal)
        view = game.view(state, seat)
        if view["phase"] == "reroll":
            return "done" if "done" in actions else actions[0]
        search = _ActionSearch(game, seat, len(view["match_winners"]))
        return max(actions, key=lambda a: search.outcome(game.view(game.play(state, seat, a), seat)))


class HardBot(MonteCarlo):
    """The smart bot's best few actions and rerolls, each judged by short futures (the rest of the turn,
    the opponent's roll and answer) played by the easy bot for both seats, since the smart bot in them
    costs ten times as much, and scored by the same race. The smart bot stops at the end of its own
    turn; this looks one answer further."""

    policy = EasyBot
    budget = Budget(candidates=3, rollouts=6, horizon=6)

    def __init__(self) -> None:
        super().__init__()
        self._matches = 0

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        self._matches = len(game.view(state, seat)["match_winners"])
        return super().choose(game, state, seat, legal, rng)

    def rank(self, game: Game, state: State, seat: int, actions: list[str], rng: Any) -> list[str]:
        view = game.view(state, seat)
        if view["phase"] == "reroll":
            search = _RerollSearch(view, seat)
            values = [search.roll(search.dice) if a == "done" else
                      search.reroll(search.dice, search.rerolled, search.left, int(a[7:]) - 1) for a in actions]
        else:
            act = _ActionSearch(game, seat, self._matches)
            values = [act.after(state, a) for a in actions]
        order = sorted(range(len(actions)), key=lambda i: -values[i])
        return [actions[i] for i in order]

    def value(self, game: Game, state: State, seat: int) -> float:
        result = game.result(state)
        if result is not None:
            return 0.0 if not result.winners else (10 * WIN if result.winners == (seat,) else -10 * WIN)
        return _ActionSearch(game, seat, self._matches).outcome(game.view(state, seat))


BOTS = {"random": RandomBot, "easy": EasyBot, "medium": SmartBot, "smart": SmartBot, "hard": HardBot}
