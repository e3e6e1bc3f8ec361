"""`Game`: one game's `Rules` behind the contract the rest of netplay uses (docs/engine-contract.md).

It adds what every game has in common, implemented once: resigning and draw offers (the common
actions), checking options and chance values, and the digest over the public part. `State` carries
the rules' own value (`inner`) and that common layer. Everything here is pure.
"""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass, field, replace
from typing import Any, Generic

from engines.canonical import canonical_bytes
from engines.contract import COMMON_ACTIONS, HIDDEN, Awaiting, Chance, IllegalAction, Option, Result
from engines.memo import Memo
from engines.rules import Rules, S

__all__ = ["DRAW_ANSWERS", "Game", "State", "interrupts_step"]


@dataclass(frozen=True, slots=True)
class State(Generic[S]):
    """A game state as the contract sees it: the rules' own value plus the common-action layer.

    `inner` belongs to the rules. `out` are seats that resigned (in order). `offer` is the seat whose
    draw offer is pending and `accepted` the seats that accepted it so far. `offered_at` records, per
    seat, the `plies` value at that seat's last offer (one offer per seat per turn: a seat may offer
    again only after a game action has been played). `mid_step` are the seats that already played
    in the simultaneous step under way (common actions are not allowed between those plays).
    """

    inner: S
    players: int
    plies: int = 0
    out: tuple[int, ...] = ()
    offer: int | None = None
    accepted: tuple[int, ...] = ()
    offered_at: tuple[int, ...] = ()
    mid_step: tuple[int, ...] = ()
    ended: Result | None = field(default=None)


def interrupts_step(action: Any) -> bool:
    """Whether `action` may be played openly in the middle of a simultaneous step, instead of a
    committed choice: only the common actions may (they interrupt the step, which starts afresh)."""
    return isinstance(action, str) and action in COMMON_ACTIONS


class Game:
    """The contract every front end, driver, ledger and bot uses; `rules` is the game's own part."""

    __slots__ = ("_digests", "_last", "_remember", "rules")

    def __init__(self, rules: Rules[Any]):
        self.rules = rules
        #: rules that remember their last play (`Rules.echo`) have it given back for a twin state here
        #: before Game's own checks; `_last` is Game's last play that passed them (see `_echoed`)
        self._remember = getattr(type(rules), "echo", Rules.echo) is not Rules.echo  # rules may be duck-typed
        self._last: tuple[State, Any, Any, tuple[int, ...]] | None = None
        #: id(state) -> (state, its digest) for the last few states digested: a peer digests the state it
        #: just accepted again when it signs, decides or checks on it (about half of all digests). The
        #: state is held, so an id in here is still that state's; states are immutable.
        self._digests: Memo[int, tuple[State, bytes]] = Memo(_DIGESTS_KEPT, "id(state), the state held")

    def __repr__(self) -> str:
        return f"Game({type(self.rules).__name__}: {self.id})"

    # ----------------------------------------------------------------------------- the rules' facts

    @property
    def id(self) -> str:
        return self.rules.id

    @property
    def title(self) -> str:
        return self.rules.title

    @property
    def players(self) -> tuple[int, ...]:
        return self.rules.players

    @property
    def options(self) -> dict[str, Option]:
        return self.rules.options

    @property
    def rules_version(self) -> str:
        return self.rules.rules_version

    @property
    def common_actions(self) -> tuple[str, ...]:
        return self.rules.common_actions

    # ----------------------------------------------------------------------------- the contract

    def start(self, players: int = 2, options: dict[str, Any] | None = None) -> State:
        if players not in self.rules.players:
            allowed = ", ".join(str(p) for p in self.rules.players)
            raise ValueError(f"{self.id} is played by {allowed} players, not {players}")
        return State(inner=self.rules.start(players, self.check_options(options or {})), players=players)

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Options with defaults filled in and texts turned into their type; a ValueError names an
        unknown option or a bad value."""
        rules = self.rules
        resolved = {}
        for key in options:
            if key not in rules.options:
                known = ", ".join(sorted(rules.options)) or "none"
                raise ValueError(f"{self.id} has no option {key!r} (options: {known})")
        for key, opt in sorted(rules.options.items()):
            value = rules.parse_option(key, options[key]) if key in options else opt.default
            if value not in opt.choices or type(value) is not type(opt.default):
                allowed = ", ".join(_option_text(c) for c in opt.choices)
                raise ValueError(f"option {key}={_option_text(options.get(key, value))} is not allowed for "
                                 f"{self.id} (allowed: {allowed})")
            resolved[key] = value
        return resolved

    def awaiting(self, state: State) -> Awaiting:
        if state.ended is not None or self.rules.result(state.inner) is not None:  # result(), inlined
            return _OVER
        if state.offer is not None:
            # the seats answer one at a time, in seat order starting after the one who offered
            in_game = self._in_game(state)
            for k in range(1, state.players):
                seat = (state.offer + k) % state.players
                if seat in in_game and seat not in state.accepted:
                    return Awaiting("move", (seat,))
            return Awaiting("move", ())
        return self.rules.awaiting(state.inner)

    def legal(self, state: State, seat: int) -> list[str]:
        rules = self.rules
        # `result()` inlined: legal() runs on every step of every driver
        if state.ended is not None or rules.result(state.inner) is not None or seat in state.out:
            return []
        if state.offer is not None:
            return self._answers(state, seat)
        waiting = rules.awaiting(state.inner)
        if waiting.kind not in ("move", "simultaneous") or seat not in waiting.seats:
            return []
        actions = list(rules.legal(state.inner, seat))
        for action in self._common_here(state, seat):
            bisect.insort(actions, action)  # the game's list is sorted already: no full re-sort
        return actions

    def play(self, state: State, seat: int, action: Any) -> State:
        last = self._last
        if last is not None and last[1] is seat and last[2] is action:
            found = self._echoed(last, state, seat, action)
            if found is not None:
                return found
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
            raise IllegalAction(f"there is no seat {seat!r} in this game")
        rules = self.rules
        inner = state.inner
        # `result()` and `interrupts_step()` inlined: this runs for the referee and every knowledge state
        if state.ended is not None or rules.result(inner) is not None:
            raise IllegalAction("the game is over")
        if seat in state.out:
            raise IllegalAction(f"seat {seat} has resigned and is out of the game")
        if isinstance(action, str):
            if action in _COMMON:
                return self._play_common(state, seat, action)
        elif action is not HIDDEN:
            raise IllegalAction(f"an action is a text, not {type(action).__name__}")
        if state.offer is not None:
            raise IllegalAction(f"seat {state.offer}'s draw offer must be answered first (accept draw / decline draw)")
        waiting = rules.awaiting(inner)
        kind = waiting.kind
        if kind == "chance":
            raise IllegalAction("the game waits for a chance outcome, not an action")
        if kind not in ("move", "simultaneous") or seat not in waiting.seats:
            turn = ", ".join(str(s) for s in waiting.seats) or "nobody"
            raise IllegalAction(f"not seat {seat}'s turn (awaiting seat {turn})")
        if action is HIDDEN and not (kind == "simultaneous" and waiting.secret):
            raise IllegalAction("only a secret simultaneous choice may be played as HIDDEN")
        after = rules.play(inner, seat, action)
        mid: tuple[int, ...] = ()
        if kind == "simultaneous":
            next_waiting = rules.awaiting(after)
            if (next_waiting.kind == "simultaneous" and seat not in next_waiting.seats
                    and set(next_waiting.seats) < set(waiting.seats)):
                mid = (*state.mid_step, seat)
        if self._remember:
            self._last = (state, seat, action, mid)
        return _advance(state, after, mid)

    def chance(self, state: State, value: Any) -> State:
        last = self._last
        if last is not None and last[1] is _CHANCE_MARK and last[2] is value:
            found = self._echoed(last, state, _CHANCE, value)
            if found is not None:
                return found
        if self.result(state) is not None:
            raise IllegalAction("the game is over")
        waiting = self.rules.awaiting(state.inner)
        if state.offer is not None or waiting.kind != "chance" or waiting.chance is None:
            raise IllegalAction("the game does not wait for a chance outcome here")
        check_outcome(waiting.chance, value)
        after = self.rules.chance(state.inner, value)
        if self._remember:
            self._last = (state, _CHANCE_MARK, value, ())
        return _advance(state, after, ())

    def _echoed(self, last: tuple[State, Any, Any, tuple[int, ...]], state: State, seat: int,
                action: Any) -> State | None:
        """The state after `seat` plays `action` (`_CHANCE`: the chance outcome `action`) on `state`,
        when `last` is that same play on a state whose common layer reads the same to every check of
        `play` and `chance` (seats, resignations, no draw offer, the simultaneous step's progress, not
        ended) and the rules give their remembered result for `state.inner` (`Rules.echo`: then the
        rules' `awaiting`, `result` and `play` answer on it as they did on the last play's). Every check
        would pass again exactly as it did, so the result is the one a full play gives; None: play it in
        full. The referee's knowledge states are such twins of the full state on almost every step."""
        before = last[0]
        if (state.players != before.players or state.out != before.out or state.offer is not None
                or state.mid_step != before.mid_step or state.ended is not None):
            return None
        inner = self.rules.echo(before.inner, state.inner, seat, action)
        return None if inner is None else _advance(state, inner, last[3])

    def result(self, state: State) -> Result | None:
        if state.ended is not None:
            return state.ended
        return self.rules.result(state.inner)

    def digest(self, state: State) -> bytes:
        known = self._digests.get(id(state))
        if known is not None and known[0] is state:
            return known[1]
        common = (state.players, state.plies, state.out, state.offer, state.accepted, state.offered_at,
                  state.mid_step, _result_value(state.ended))
        body = canonical_bytes((self.id, self.rules_version, common, self.rules.public(state.inner)))
        digest = hashlib.sha256(body).digest()
        self._digests.put(id(state), (state, digest))
        return digest

    def view(self, state: State, seat: int | None) -> dict:
        data = dict(self.rules.view(state.inner, seat))
        waiting = self.awaiting(state)
        data["game"] = self.id
        data["seat"] = seat
        data["awaiting"] = {"kind": waiting.kind, "seats": list(waiting.seats)}
        data["out"] = list(state.out)
        data["draw_offer"] = state.offer
        result = self.result(state)
        data["result"] = None if result is None else {
            "winners": list(result.winners), "scores": list(result.scores), "reason": result.reason}
        data["rematch"] = None
        if result is not None and result.reason == "resign" and result.winners and state.out:
            options = self.rules.rematch_after_resign(state.inner)
            if options is not None:
                # the rules oblige the winner to accept the rematch the resigned seat asks for
                data["rematch"] = {"may_demand": state.out[0], "must_accept": result.winners[0], "options": options}
        return data

    def reveals(self, state: State, seat: int, action: str) -> tuple[tuple[str, int], ...]:
        """The dealt cards (deck, type) that `action` shows from `seat`'s hand (see Rules.reveals)."""
        if not isinstance(action, str) or action in COMMON_ACTIONS:
            return ()
        return tuple(self.rules.reveals(state.inner, seat, action))

    def disclose(self, state: State) -> Any:
        """The value of the pending "show" chance point, from a full-knowledge state (see Rules.disclose)."""
        return self.rules.disclose(state.inner)

    def shows(self, state: State, value: Any) -> tuple[tuple[str, int], ...]:
        """The dealt cards (deck, type) a "show" value shows from its source seat's hand (Rules.shows)."""
        return tuple(self.rules.shows(state.inner, value))

    def show_value(self, state: State, cards: tuple[tuple[str, int], ...]) -> Any:
        """The looker's value of the pending "show" chance point from the source's undisclosed dealt
        cards (see Rules.show_value)."""
        return self.rules.show_value(state.inner, tuple(cards))

    def describe(self, state: State, seat: int, action: str) -> str:
        """A plain-words line for the move log."""
        if action in COMMON_ACTIONS:
            return f"seat {seat}: {action}"
        return self.rules.describe(state.inner, seat, action)

    # ----------------------------------------------------------------------------- common actions

    def common_legal(self, state: State, seat: int) -> list[str]:
        """The common actions `legal()` would list for `seat`, without generating the game's moves
        (a Madagaskar tower can have thousands)."""
        if self.result(state) is not None or seat in state.out:
            return []
        if state.offer is not None:
            return self._answers(state, seat)
        waiting = self.rules.awaiting(state.inner)
        if waiting.kind not in ("move", "simultaneous") or seat not in waiting.seats:
            return []
        return self._common_here(state, seat)

    def _in_game(self, state: State) -> tuple[int, ...]:
        """Seats still in the game: not resigned, and not knocked out by the game's own rules."""
        in_play = self.rules.in_play(state.inner)
        return tuple(s for s in range(state.players) if s not in state.out and (in_play is None or s in in_play))

    def _answers(self, state: State, seat: int) -> list[str]:
        """What `seat` may do while a draw offer is pending: answer it when asked, or resign."""
        if seat not in self.awaiting(state).seats:
            return []
        return [a for a in DRAW_ANSWERS if a in self.common_actions]

    def _common_here(self, state: State, seat: int) -> list[str]:
        if state.mid_step:
            return []
        rules = self.rules
        common = rules.common_actions
        allowed = ["resign"] if "resign" in common else []
        if "offer draw" in common and self._may_offer(state, seat):
            allowed.append("offer draw")
        narrowed = rules.common(state.inner, seat)
        return allowed if narrowed is None else [a for a in allowed if a in narrowed]

    def _may_offer(self, state: State, seat: int) -> bool:
        # offered_at is flat (seat, plies, seat, plies, ...) with each seat at most once; it is read
        # first because it is cheaper than counting the seats in the game (this runs in every legal())
        offered_at = state.offered_at
        for i in range(0, len(offered_at), 2):
            if offered_at[i] == seat:
                if offered_at[i + 1] == state.plies:
                    return False
                break
        # `_in_game` inlined, asking the rules once: a game that knocks seats out (Madagaskar) answers
        # with a tuple, and this runs in every legal()
        in_play = self.rules.in_play(state.inner)
        out = state.out
        if in_play is None:
            if not out:
                return state.players >= 2  # every seat is in the game: no tuple of them needed
            return len([s for s in range(state.players) if s not in out]) >= 2
        return len([s for s in range(state.players) if s not in out and s in in_play]) >= 2

    def _play_common(self, state: State, seat: int, action: str) -> State:
        if action not in self.common_legal(state, seat):
            raise IllegalAction(self._why_not_common(state, seat, action))
        if action == "resign":
            return self._resign(state, seat)
        if action == "offer draw":
            last = dict(zip(state.offered_at[0::2], state.offered_at[1::2], strict=True))
            last[seat] = state.plies
            flat = tuple(x for s in sorted(last) for x in (s, last[s]))
            state = replace(state, offer=seat, accepted=(), offered_at=flat)
            return self._settle_offer(state)
        if action == "accept draw":
            return self._settle_offer(replace(state, accepted=(*state.accepted, seat)))
        return replace(state, offer=None, accepted=())  # decline draw

    def _why_not_common(self, state: State, seat: int, action: str) -> str:
        if action not in self.common_actions:
            return f"{action!r} is not part of {self.title or self.id}"
        if action in ("accept draw", "decline draw"):
            if state.offer is None:
                return "there is no draw offer to answer"
            return f"seat {seat} does not answer this draw offer"
        if state.offer is not None:
            return f"seat {state.offer}'s draw offer must be answered first"
        if state.mid_step:
            return "not between the plays of a revealed simultaneous step"
        if seat not in self.rules.awaiting(state.inner).seats:
            return f"{action} is only possible at one of seat {seat}'s own decision points"
        if action == "offer draw":
            if len(self._in_game(state)) < 2:
                return "offer draw: a draw by agreement needs another seat still in the game"
            if not self._may_offer(state, seat):
                return "one draw offer per seat per turn"
        return f"{action} is not allowed at this point of {self.title or self.id}"

    def _scores(self, state: State) -> tuple[int, ...]:
        scores = self.rules.scores(state.inner, state.out)
        return tuple(0 for _ in range(state.players)) if scores is None else tuple(scores)

    def _settle_offer(self, state: State) -> State:
        if self.awaiting(state).seats:
            return state
        result = Result(winners=(), scores=self._scores(state), reason=self.rules.draw_reason)
        return replace(state, offer=None, accepted=(), ended=result)

    def _resign(self, state: State, seat: int) -> State:
        out = (*state.out, seat)
        left = tuple(s for s in range(state.players) if s not in out)
        state = replace(state, out=out, offer=None, accepted=(), mid_step=())
        if len(left) <= 1:
            return replace(state, ended=Result(winners=left, scores=self._scores(state), reason="resign"))
        return replace(state, inner=self.rules.eliminate(state.inner, seat))


def check_outcome(chance: Chance, value: Any) -> None:
    """Raise IllegalAction unless `value` lies in the chance point's domain (or is HIDDEN for a
    private one)."""
    if value is HIDDEN:
        if chance.private_to is None:
            raise IllegalAction("a public chance point cannot be HIDDEN")
        return
    if chance.kind == "dice":
        ok = (isinstance(value, tuple) and len(value) == len(chance.sides)
              and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= s
                      for v, s in zip(value, chance.sides, strict=True)))
        if not ok:
            raise IllegalAction(f"dice outcome must be a tuple of {len(chance.sides)} values in 1..sides "
                                f"{chance.sides}, not {value!r}")
    elif chance.kind == "pick":
        if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < chance.n):
            raise IllegalAction(f"pick outcome must be an int in 0..{chance.n - 1}, not {value!r}")
    elif chance.kind == "show":
        if not (isinstance(value, tuple) and len(value) == chance.n
                and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):
            raise IllegalAction(f"show outcome must be a tuple of {chance.n} counts, not {value!r}")
    elif chance.kind == "deal":
        if not (isinstance(value, int) and not isinstance(value, bool) and value in chance.pool):
            raise IllegalAction(f"deal outcome must be a card type of deck {chance.deck!r} "
                                f"(one of {sorted(set(chance.pool))}), not {value!r}")
    else:
        raise IllegalAction(f"unknown chance kind {chance.kind!r}")


def _advance(state: State, inner: Any, mid_step: tuple[int, ...]) -> State:
    """The state after a game action or chance outcome. This is the hot path of every engine: the
    fields are set through their slot descriptors, about half the cost of the frozen dataclass's
    `__init__` (which goes through `object.__setattr__` per field) and a fraction of `replace`."""
    new = _new_state(State)
    _set_inner(new, inner)
    _set_players(new, state.players)
    _set_plies(new, state.plies + 1)
    _set_out(new, state.out)
    _set_offer(new, state.offer)
    _set_accepted(new, state.accepted)
    _set_offered_at(new, state.offered_at)
    _set_mid_step(new, mid_step)
    _set_ended(new, state.ended)
    return new


_new_state = object.__new__
_set_inner, _set_players, _set_plies, _set_out, _set_offer, _set_accepted, _set_offered_at, _set_mid_step, \
    _set_ended = (getattr(State, name).__set__ for name in ("inner", "players", "plies", "out", "offer", "accepted",
                                                            "offered_at", "mid_step", "ended"))
_COMMON = frozenset(COMMON_ACTIONS)
#: how many recent states' digests a Game keeps (see `Game._digests`)
_DIGESTS_KEPT = 16
#: the seat `Rules.echo` names a chance outcome with
_CHANCE = -1
#: what `Game._last` holds as the seat of a chance outcome: no caller can pass it to `play` as a seat (a
#: -1 would find the remembered outcome there before `play` refuses seat -1)
_CHANCE_MARK = object()
#: all `legal()` lists while a draw offer is pending, at most (bots.lib scans only lists this short for them)
DRAW_ANSWERS = ("accept draw", "decline draw", "resign")
_OVER = Awaiting("over")


def _result_value(result: Result | None) -> Any:
    if result is None:
        return None
    return (result.winners, result.scores, result.reason)


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
