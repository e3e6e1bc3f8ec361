"""The engine contract shared by every game (see ../shared/DESIGN.md, "Engine contract").

A game is a `Game` subclass that implements a handful of underscore hooks over its own state value
(the *inner* state). `Game` wraps that value in a `State` that also carries what every game has in
common: resignations and draw offers. Those common actions are implemented here once, so a game
never sees `resign` or `offer draw`; it only learns, through `_eliminate`, that a seat has left a game
of three or more.

Hidden information. An inner state is a public part plus one private part per seat. A peer that does
not own a secret feeds `HIDDEN` instead of the value (`chance(state, HIDDEN)`, `play(state, seat,
HIDDEN)`), and the engine must then update the public part exactly as the owner's engine does while it
keeps that private part unknown. Only the public part reaches `digest`, so every peer agrees on it.
An engine may read a seat's private part only while applying that seat's own action or chance outcome.

Everything here is pure: integers, strings, bytes and tuples; no clock, no `random`, no floats, no
set iteration order in anything that reaches the digest.
"""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

__all__ = [
    "HIDDEN",
    "Awaiting",
    "Chance",
    "Game",
    "IllegalAction",
    "Option",
    "Result",
    "State",
    "UnknownGame",
    "canonical_bytes",
    "outcome_from_bytes",
    "uniform",
]

COMMON_ACTIONS = ("resign", "offer draw", "accept draw", "decline draw")


class _Hidden:
    """The single stand-in for a secret this peer does not know (a private draw, a hidden choice)."""

    __slots__ = ()
    _instance: ClassVar[_Hidden | None] = None

    def __new__(cls) -> _Hidden:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "HIDDEN"

    def __reduce__(self) -> str:
        return "HIDDEN"


HIDDEN = _Hidden()


class IllegalAction(ValueError):
    """An action text the rules do not allow here; `reason` names the rule that forbids it."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class UnknownGame(KeyError):
    """`engines.get` was asked for a game id that `engines.GAMES` does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


@dataclass(frozen=True, slots=True)
class Chance:
    """The domain of a chance point, so that any driver can produce a value without knowing the game.

    kind "dice": value is a tuple of ints, one per entry of `sides`, each in 1..sides[i].
    kind "pick": value is an int in 0..n-1.
    kind "deal": value is the drawn card's type index in 0..n-1 (n = number of card types of `deck`).
    `private_to` names the only seat that learns the value; every other peer feeds `HIDDEN`.
    """

    kind: str
    sides: tuple[int, ...] = ()
    n: int = 0
    private_to: int | None = None
    deck: str = ""
    label: str = ""


@dataclass(frozen=True, slots=True)
class Awaiting:
    """What the game waits for. kind: "move" | "simultaneous" | "chance" | "over".

    `seats` are the seats whose action is still awaited. For a simultaneous step `secret` says the
    choices stay committed until the end of the game (other peers apply them as `HIDDEN`).
    """

    kind: str
    seats: tuple[int, ...] = ()
    chance: Chance | None = None
    secret: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str

    def describe(self, names: list[str] | None = None) -> str:
        """The result in words, the same in every front end ("seat 1 (ann) won (resign), scores [0, 1]")."""
        if not self.winners:
            return f"a draw ({self.reason}), scores {list(self.scores)}"

        def who(seat: int) -> str:
            return f"seat {seat} ({names[seat]})" if names and seat < len(names) else f"seat {seat}"

        return f"{', '.join(who(w) for w in self.winners)} won ({self.reason}), scores {list(self.scores)}"


@dataclass(frozen=True, slots=True)
class Option:
    """A game option: its default and the allowed values (all strings or all ints)."""

    default: Any
    choices: tuple[Any, ...]
    help: str = ""


@dataclass(frozen=True, slots=True)
class State:
    """A game state as the contract sees it: the game's own value plus the common-action layer.

    `inner` belongs to the game. `out` are seats that resigned (in order). `offer` is the seat whose
    draw offer is pending and `accepted` the seats that accepted it so far. `offered_at` records, per
    seat, the `plies` value at that seat's last offer (one offer per seat per turn: a seat may offer
    again only after a game action has been played). `mid_step` are the seats that already played
    in the simultaneous step under way (common actions are not allowed between those plays).
    """

    inner: Any
    players: int
    plies: int = 0
    out: tuple[int, ...] = ()
    offer: int | None = None
    accepted: tuple[int, ...] = ()
    offered_at: tuple[int, ...] = ()
    mid_step: tuple[int, ...] = ()
    ended: Result | None = field(default=None)


def canonical_bytes(value: Any) -> bytes:
    """A canonical, type-tagged encoding of nested ints, strs, bytes, bools, None, tuples/lists and
    dicts (keys sorted by their encoding). Used for digests, so equal values give equal bytes."""
    out = bytearray()
    _encode(value, out)
    return bytes(out)


def _encode(value: Any, out: bytearray) -> None:
    # Exact-type checks first: this runs for every digest, i.e. for every frame a peer or the audit
    # accepts; subclasses (NamedTuple states, IntEnum) take the isinstance path below.
    t = type(value)
    if t is int:
        text = b"%d" % value
        out += b"i" + len(text).to_bytes(2, "big") + text
    elif t is tuple or t is list:
        out += b"l" + len(value).to_bytes(4, "big")
        for item in value:
            _encode(item, out)
    elif t is str:
        data = value.encode()
        out += b"s" + len(data).to_bytes(4, "big") + data
    elif value is None:
        out += b"N"
    elif value is True:
        out += b"T"
    elif value is False:
        out += b"F"
    elif isinstance(value, int):
        _encode(int(value), out)
    elif isinstance(value, str):
        _encode(str(value), out)
    elif isinstance(value, bytes):
        out += b"b" + len(value).to_bytes(4, "big") + bytes(value)
    elif isinstance(value, (tuple, list)):
        _encode(tuple(value), out)
    elif isinstance(value, dict):
        items = sorted((canonical_bytes(k), v) for k, v in value.items())
        out += b"d" + len(items).to_bytes(4, "big")
        for key, item in items:
            out += key
            _encode(item, out)
    elif value is HIDDEN:
        out += b"H"
    else:
        raise TypeError(f"cannot encode {type(value).__name__} canonically")


def uniform(data: bytes, n: int) -> int:
    """An unbiased integer in 0..n-1 from protocol bytes, by rejection sampling.

    The bytes are read as a stream of big-endian words just wide enough for n; a word at or above the
    largest multiple of n is rejected. When the stream runs dry it is extended with
    SHA-256(data || counter), so every input gives an answer and equal inputs give equal answers.
    """
    if n < 1:
        raise ValueError("uniform() needs n >= 1")
    if n == 1:
        return 0
    width = max(1, ((n - 1).bit_length() + 7) // 8 + 1)
    span = 1 << (8 * width)
    limit = span - span % n
    stream = bytes(data)
    counter = 0
    pos = 0
    while True:
        while pos + width > len(stream):
            stream += hashlib.sha256(bytes(data) + counter.to_bytes(4, "big")).digest()
            counter += 1
        word = int.from_bytes(stream[pos : pos + width], "big")
        pos += width
        if word < limit:
            return word % n


def outcome_from_bytes(chance: Chance, data: bytes) -> Any:
    """The value of a dice or pick chance point, drawn from `data` with `uniform` (one label per die,
    so that the dice are independent)."""
    if chance.kind == "dice":
        return tuple(
            1 + uniform(hashlib.sha256(b"die" + bytes([i]) + data).digest(), sides)
            for i, sides in enumerate(chance.sides)
        )
    if chance.kind in ("pick", "deal"):
        return uniform(data, chance.n)
    raise ValueError(f"no outcome for chance kind {chance.kind!r}")


class Game:
    """Base class of every game. Public methods implement the contract; games fill in the hooks.

    Hooks a game implements (all pure; `inner` is the game's own state value):
      _start(players, options) -> inner
      _awaiting(inner) -> Awaiting                (never "over": that comes from _result)
      _legal(inner, seat) -> list[str]            (sorted; game actions only)
      _play(inner, seat, action) -> inner         (action is a text, or HIDDEN for a secret choice)
      _chance(inner, value) -> inner              (value already checked against the domain)
      _result(inner) -> Result | None
      _public(inner) -> canonical value           (what the digest covers)
      _view(inner, seat) -> dict                  (JSON-friendly; seat None = spectator)
    Optional: _eliminate(inner, seat) for games of three or more seats, _scores(inner) for the
    scores shown after a resignation or an agreed draw, _common(inner, seat) to narrow which common
    actions the spec allows at this point.
    """

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    players: ClassVar[tuple[int, ...]] = (2,)
    options: ClassVar[dict[str, Option]] = {}
    rules_version: ClassVar[str] = "1"
    #: which common actions the spec allows at all (a spec may narrow the default)
    common_actions: ClassVar[tuple[str, ...]] = COMMON_ACTIONS
    #: the result reason of a draw by agreement (a spec may name it)
    draw_reason: ClassVar[str] = "draw-agreed"

    # ----------------------------------------------------------------------------- the contract

    def start(self, players: int = 2, options: dict[str, Any] | None = None) -> State:
        if players not in self.players:
            allowed = ", ".join(str(p) for p in self.players)
            raise ValueError(f"{self.id} is played by {allowed} players, not {players}")
        return State(inner=self._start(players, self.check_options(options or {})), players=players)

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Options with defaults filled in; a ValueError names an unknown option or a bad value."""
        resolved = {}
        for key in options:
            if key not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise ValueError(f"{self.id} has no option {key!r} (options: {known})")
        for key, opt in sorted(self.options.items()):
            value = options.get(key, opt.default)
            if isinstance(opt.default, int) and isinstance(value, str) and value.lstrip("-").isdigit():
                value = int(value)
            if value not in opt.choices:
                allowed = ", ".join(str(c) for c in opt.choices)
                raise ValueError(f"option {key}={value} is not allowed for {self.id} (allowed: {allowed})")
            resolved[key] = value
        return resolved

    def awaiting(self, state: State) -> Awaiting:
        if self.result(state) is not None:
            return Awaiting("over")
        if state.offer is not None:
            # the seats answer one at a time, in seat order starting after the one who offered
            in_game = self._in_game(state)
            for k in range(1, state.players):
                seat = (state.offer + k) % state.players
                if seat in in_game and seat not in state.accepted:
                    return Awaiting("move", (seat,))
            return Awaiting("move", ())
        return self._awaiting(state.inner)

    def legal(self, state: State, seat: int) -> list[str]:
        if self.result(state) is not None or seat in state.out:
            return []
        if state.offer is not None:
            return self._answers(state, seat)
        waiting = self._awaiting(state.inner)
        if waiting.kind not in ("move", "simultaneous") or seat not in waiting.seats:
            return []
        actions = list(self._legal(state.inner, seat))
        for action in self._common_here(state, seat):
            bisect.insort(actions, action)  # the game's list is sorted already: no full re-sort
        return actions

    def play(self, state: State, seat: int, action: Any) -> State:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
            raise IllegalAction(f"there is no seat {seat!r} in this game")
        if self.result(state) is not None:
            raise IllegalAction("the game is over")
        if seat in state.out:
            raise IllegalAction(f"seat {seat} has resigned and is out of the game")
        if isinstance(action, str) and action in COMMON_ACTIONS:
            return self._play_common(state, seat, action)
        if action is not HIDDEN and not isinstance(action, str):
            raise IllegalAction(f"an action is a text, not {type(action).__name__}")
        if state.offer is not None:
            raise IllegalAction(f"seat {state.offer}'s draw offer must be answered first (accept draw / decline draw)")
        waiting = self._awaiting(state.inner)
        if waiting.kind == "chance":
            raise IllegalAction("the game waits for a chance outcome, not an action")
        if waiting.kind not in ("move", "simultaneous") or seat not in waiting.seats:
            turn = ", ".join(str(s) for s in waiting.seats) or "nobody"
            raise IllegalAction(f"not seat {seat}'s turn (awaiting seat {turn})")
        if action is HIDDEN and not (waiting.kind == "simultaneous" and waiting.secret):
            raise IllegalAction("only a secret simultaneous choice may be played as HIDDEN")
        inner = self._play(state.inner, seat, action)
        mid = ()
        if waiting.kind == "simultaneous":
            after = self._awaiting(inner)
            if after.kind == "simultaneous" and seat not in after.seats and set(after.seats) < set(waiting.seats):
                mid = (*state.mid_step, seat)
        return _advance(state, inner, mid)

    def chance(self, state: State, value: Any) -> State:
        if self.result(state) is not None:
            raise IllegalAction("the game is over")
        waiting = self._awaiting(state.inner)
        if state.offer is not None or waiting.kind != "chance" or waiting.chance is None:
            raise IllegalAction("the game does not wait for a chance outcome here")
        self._check_outcome(waiting.chance, value)
        return _advance(state, self._chance(state.inner, value), ())

    def result(self, state: State) -> Result | None:
        if state.ended is not None:
            return state.ended
        return self._result(state.inner)

    def digest(self, state: State) -> bytes:
        common = (state.players, state.plies, state.out, state.offer, state.accepted, state.offered_at,
                  state.mid_step, _result_value(state.ended))
        body = canonical_bytes((self.id, self.rules_version, common, self._public(state.inner)))
        return hashlib.sha256(body).digest()

    def view(self, state: State, seat: int | None) -> dict:
        data = dict(self._view(state.inner, seat))
        waiting = self.awaiting(state)
        data["game"] = self.id
        data["seat"] = seat
        data["awaiting"] = {"kind": waiting.kind, "seats": list(waiting.seats)}
        data["out"] = list(state.out)
        data["draw_offer"] = state.offer
        result = self.result(state)
        data["result"] = None if result is None else {
            "winners": list(result.winners), "scores": list(result.scores), "reason": result.reason}
        return data

    def describe(self, state: State, seat: int, action: str) -> str:
        """A plain-words line for the move log; games may override for nicer wording."""
        return f"seat {seat}: {action}"

    # ----------------------------------------------------------------------------- common actions

    def _in_game(self, state: State) -> tuple[int, ...]:
        """Seats still in the game: not resigned, and not knocked out by the game's own rules."""
        in_play = self._in_play(state.inner)
        return tuple(s for s in range(state.players) if s not in state.out and (in_play is None or s in in_play))

    def _common_legal(self, state: State, seat: int) -> list[str]:
        """The common actions `legal()` would list for `seat`, without generating the game's moves
        (a Madagaskar tower can have thousands)."""
        if self.result(state) is not None or seat in state.out:
            return []
        if state.offer is not None:
            return self._answers(state, seat)
        waiting = self._awaiting(state.inner)
        if waiting.kind not in ("move", "simultaneous") or seat not in waiting.seats:
            return []
        return self._common_here(state, seat)

    def _answers(self, state: State, seat: int) -> list[str]:
        """What `seat` may do while a draw offer is pending: answer it when asked, or resign."""
        if seat not in self.awaiting(state).seats:
            return []
        return [a for a in ("accept draw", "decline draw", "resign") if a in self.common_actions]

    def _common_here(self, state: State, seat: int) -> list[str]:
        if state.mid_step:
            return []
        allowed = [a for a in ("resign", "offer draw") if a in self.common_actions]
        if "offer draw" in allowed and not self._may_offer(state, seat):
            allowed.remove("offer draw")
        narrowed = self._common(state.inner, seat)
        return [a for a in allowed if narrowed is None or a in narrowed]

    def _may_offer(self, state: State, seat: int) -> bool:
        if len(self._in_game(state)) < 2:
            return False
        last = dict(zip(state.offered_at[0::2], state.offered_at[1::2], strict=True))
        return last.get(seat) != state.plies

    def _play_common(self, state: State, seat: int, action: str) -> State:
        if action not in self._common_legal(state, seat):
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
        if seat not in self._awaiting(state.inner).seats:
            return f"{action} is only possible at one of seat {seat}'s own decision points"
        if action == "offer draw":
            if len(self._in_game(state)) < 2:
                return "offer draw: a draw by agreement needs another seat still in the game"
            return "one draw offer per seat per turn"
        return f"{action} is not allowed at this point of {self.title or self.id}"

    def _settle_offer(self, state: State) -> State:
        if self.awaiting(state).seats:
            return state
        result = Result(winners=(), scores=self._scores(state.inner, state), reason=self.draw_reason)
        return replace(state, offer=None, accepted=(), ended=result)

    def _resign(self, state: State, seat: int) -> State:
        out = (*state.out, seat)
        left = tuple(s for s in range(state.players) if s not in out)
        state = replace(state, out=out, offer=None, accepted=(), mid_step=())
        if len(left) <= 1:
            result = Result(winners=left, scores=self._scores(state.inner, state), reason="resign")
            return replace(state, ended=result)
        return replace(state, inner=self._eliminate(state.inner, seat))

    def _check_outcome(self, chance: Chance, value: Any) -> None:
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
        elif chance.kind in ("pick", "deal"):
            if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < chance.n):
                raise IllegalAction(f"{chance.kind} outcome must be an int in 0..{chance.n - 1}, not {value!r}")
        else:
            raise IllegalAction(f"unknown chance kind {chance.kind!r}")

    # ----------------------------------------------------------------------------- hooks

    def _start(self, players: int, options: dict[str, Any]) -> Any:
        raise NotImplementedError

    def _awaiting(self, inner: Any) -> Awaiting:
        raise NotImplementedError

    def _legal(self, inner: Any, seat: int) -> list[str]:
        raise NotImplementedError

    def _play(self, inner: Any, seat: int, action: Any) -> Any:
        raise NotImplementedError

    def _chance(self, inner: Any, value: Any) -> Any:
        raise IllegalAction(f"{self.id} has no chance points")

    def _result(self, inner: Any) -> Result | None:
        raise NotImplementedError

    def _public(self, inner: Any) -> Any:
        raise NotImplementedError

    def _view(self, inner: Any, seat: int | None) -> dict:
        raise NotImplementedError

    def _eliminate(self, inner: Any, seat: int) -> Any:
        """A seat resigned in a game of three or more: remove it from play (its pieces, its turns)."""
        raise NotImplementedError(f"{self.id} must define how a seat leaves a game of 3+")

    def _scores(self, inner: Any, state: State) -> tuple[int, ...]:
        return tuple(0 for _ in range(state.players))

    def _in_play(self, inner: Any) -> tuple[int, ...] | None:
        """Seats the game itself has knocked out are left out of draw agreements; None: nobody is."""
        return None

    def _common(self, inner: Any, seat: int) -> tuple[str, ...] | None:
        """None: the default (resign and offer draw at every own decision point)."""
        return None


def _advance(state: State, inner: Any, mid_step: tuple[int, ...]) -> State:
    """The state after a game action or chance outcome. Built positionally: this is the hot path of
    every engine, and `dataclasses.replace` costs several times more."""
    return State(inner, state.players, state.plies + 1, state.out, state.offer, state.accepted,
                 state.offered_at, mid_step, state.ended)


def _result_value(result: Result | None) -> Any:
    if result is None:
        return None
    return (result.winners, result.scores, result.reason)
