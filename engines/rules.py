'''The base a game implements: `Rules`, the rules of one game over a state value of its own.

A new game is a `Rules` subclass with a handful of public, typed methods over its own frozen state
value `S` (its "inner" state). `engines.game.Game` wraps it for the rest of netplay: it adds what
every game has in common (resigning, draw offers, checking options and chance values, the digest),
so a game never sees `resign` or `offer draw`. A minimal, complete game (Nim: take one or two stones,
whoever takes the last one wins) looks like this:

>>> from dataclasses import dataclass
>>> from engines.core import Awaiting, Game, IllegalAction, Result, Rules
>>> @dataclass(frozen=True, slots=True)
... class Pile:
...     left: int
...     to_move: int = 0
...     winner: int | None = None
>>> class Nim(Rules[Pile]):
...     id, title, players = "nim", "Nim", (2,)
...     def start(self, players, options):
...         return Pile(5)
...     def awaiting(self, pile):
...         return Awaiting("move", (pile.to_move,))
...     def legal(self, pile, seat):
...         return [f"take {k}" for k in (1, 2) if k <= pile.left]
...     def play(self, pile, seat, action):
...         if action not in self.legal(pile, seat):
...             raise IllegalAction(f"{action!r}: take 1 or 2 stones, at most as many as are left")
...         left = pile.left - int(action.split()[1])
...         return Pile(left, 1 - seat, seat if left == 0 else None)
...     def result(self, pile):
...         if pile.winner is None:
...             return None
...         return Result((pile.winner,), tuple(int(s == pile.winner) for s in (0, 1)), "last stone")
...     def public(self, pile):
...         return (pile.left, pile.to_move, pile.winner)
...     def view(self, pile, seat):
...         return {"left": pile.left, "to_move": pile.to_move}
>>> game = Game(Nim())
>>> state = game.start(2)
>>> game.legal(state, 0)
['offer draw', 'resign', 'take 1', 'take 2']
>>> for seat, action in [(0, "take 2"), (1, "take 2"), (0, "take 1")]:
...     state = game.play(state, seat, action)
>>> game.result(state)
Result(winners=(0,), scores=(1, 0), reason='last stone')
>>> game.play(game.start(2), 1, "take 1")
Traceback (most recent call last):
...
engines.contract.IllegalAction: not seat 1's turn (awaiting seat 0)

To add it to netplay, declare it in its own package, `engines/<family>/__init__.py`:
`DESCRIPTORS = [Descriptor(Game(Nim()))]` (`engines.core.Descriptor`: its capabilities, rules page and share of
the simulator's mix); `engines` finds the package by itself. Bots in `bots/<family>.py`, a board renderer in
`client/games/<family>.py` and words in `client/story/<family>.py` are optional: without them the random bot, the
text renderer and the generic words play and tell it (docs/architecture.md, "How to add a game").

The rules of the contract (docs/engine-contract.md):
- Pure and deterministic: the state is a value, never mutated (copy what a step changes); integers,
  strings, bytes and tuples only; no clock, no `random`, no floats, no set order in what is digested.
- Hidden information: a state is a public part plus one private part per seat. A peer that does not
  own a secret feeds `HIDDEN` (`chance(s, HIDDEN)`, `play(s, seat, HIDDEN)` for a secret choice) and
  the rules must update the public part exactly as the owner's peer does, keeping the private part
  unknown. `public()` is what the digest covers, so every peer must compute the same value. A method
  may read a seat's private part only while applying that seat's own action or chance outcome; for a
  seat whose private part is unknown, `legal()` returns what is possible from public knowledge.
- `legal()` is sorted and lists only the game's own actions; `play()` raises `IllegalAction` with the
  rule in words for anything else, and nothing else for any text.
'''

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from engines.contract import COMMON_ACTIONS, Awaiting, IllegalAction, Option, Result

__all__ = ["Rules", "S"]

S = TypeVar("S")

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


class Rules(Generic[S]):
    """The rules of one game over its own state type `S`; see the module docstring for an example."""

    #: the game id used everywhere (command line, header, file names)
    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: the player counts the game allows
    players: ClassVar[tuple[int, ...]] = (2,)
    options: ClassVar[dict[str, Option]] = {}
    #: part of every replay header and digest: change it when a rule change alters any digest
    rules_version: ClassVar[str] = "1"
    #: which common actions the spec allows at all (a spec may narrow the default)
    common_actions: ClassVar[tuple[str, ...]] = COMMON_ACTIONS
    #: the result reason of a draw by agreement (a spec may name it)
    draw_reason: ClassVar[str] = "draw-agreed"

    # ------------------------------------------------------------------------------ required

    def start(self, players: int, options: dict[str, Any]) -> S:
        """The state before the first step (options are complete and checked)."""
        raise NotImplementedError

    def awaiting(self, inner: S) -> Awaiting:
        """What the game waits for: "move", "simultaneous" or "chance" (never "over": that is `result`)."""
        raise NotImplementedError

    def legal(self, inner: S, seat: int) -> list[str]:
        """The game's actions `seat` may take now, sorted (the common actions are added by `Game`)."""
        raise NotImplementedError

    def play(self, inner: S, seat: int, action: Any) -> S:
        """The state after `seat` plays `action` (a text, or HIDDEN for another peer's secret choice)."""
        raise NotImplementedError

    def result(self, inner: S) -> Result | None:
        """None while the game runs."""
        raise NotImplementedError

    def public(self, inner: S) -> Any:
        """The public part, as nested ints, strs, bytes, bools, None and tuples: what the digest covers."""
        raise NotImplementedError

    def view(self, inner: S, seat: int | None) -> dict:
        """A JSON-friendly dict of what `seat` may see (None: a spectator, who sees the public part)."""
        raise NotImplementedError

    # ------------------------------------------------------------------------------ optional

    def chance(self, inner: S, value: Any) -> S:
        """The state after the chance point `awaiting()` announced (the value is checked against its
        domain already; HIDDEN for a private outcome this peer does not know)."""
        raise IllegalAction(f"{self.id} has no chance points")

    def eliminate(self, inner: S, seat: int) -> S:
        """A seat resigned from a game of three or more: remove it from play (its pieces, its turns)."""
        raise NotImplementedError(f"{self.id} must define how a seat leaves a game of 3+")

    def scores(self, inner: S, out: tuple[int, ...]) -> tuple[int, ...] | None:
        """The scores shown after a resignation or an agreed draw (`out`: the seats that resigned);
        None: every seat scores 0."""
        return None

    def in_play(self, inner: S) -> tuple[int, ...] | None:
        """The seats the game's own rules have not knocked out (they are left out of draw
        agreements); None: nobody is knocked out."""
        return None

    def common(self, inner: S, seat: int) -> tuple[str, ...] | None:
        """Which of "resign" and "offer draw" the spec allows at this point; None: both."""
        return None

    def rematch_after_resign(self, inner: S) -> dict[str, Any] | None:
        """Where the rules oblige the winner to accept a rematch the resigned seat asks for (Turning
        Tides), the options of that rematch; None: no such obligation."""
        return None

    def reveals(self, inner: S, seat: int, action: str) -> tuple[tuple[str, int], ...]:
        """The cards dealt from shared secret decks that `action` shows from `seat`'s hand, as (deck,
        card type) pairs (a played development card, a victory point shown): the protocol proves each
        was dealt to that seat and not shown before. Called before the action is played."""
        return ()

    def disclose(self, inner: S) -> Any:
        """The value of the pending "show" chance point (one seat's hidden cards shown to another),
        computed from a state that knows the source seat's private part (the referee, the audit).
        Games without such a chance point never call it."""
        raise NotImplementedError(f"{self.id} has no show chance points")

    def shows(self, inner: S, value: Any) -> tuple[tuple[str, int], ...]:
        """The cards dealt from shared secret decks that the pending "show" value shows from its source
        seat's hand, as (deck, card type) pairs: the protocol proves to the looker that each was dealt
        to the source and not shown before. Called before the value is fed."""
        return ()

    def show_value(self, inner: S, cards: tuple[tuple[str, int], ...]) -> Any:
        """The value of the pending "show" chance point for the looker, made of what is public of the
        source seat's hand and `cards`, its undisclosed dealt cards as (deck, card type) pairs (the
        protocol decrypts exactly those for the looker): the inverse of `shows`. Games without such a
        chance point never call it."""
        raise NotImplementedError(f"{self.id} has no show chance points")

    def echo(self, before: S, inner: S, seat: int, action: Any) -> S | None:
        """The result of `seat` playing `action` (seat -1: of the chance outcome `action`) on `inner`,
        without playing it, when the rules remember that same play on `before` (by identity) and `inner`
        differs from `before` only in parts that play neither reads nor writes (a peer's copy, with
        other seats' secrets unknown), so that `awaiting()`, `result()` and the play itself would give
        the same answers on both; None otherwise (the default: nothing is remembered). `Game` asks this
        before its own checks when its last play, which passed them, was that play on `before`: the
        referee's knowledge states then cost a comparison (engines/catan/echo.py)."""
        return None

    def describe(self, inner: S, seat: int, action: str) -> str:
        """A plain-words line for the move log."""
        return f"seat {seat}: {action}"

    def parse_option(self, key: str, value: Any) -> Any:
        """An option value as given (a command line gives texts) turned into the option's type; a
        ValueError for a text that is none of its values. Games with words of their own override it."""
        default = self.options[key].default
        if isinstance(default, bool) and isinstance(value, str):
            word = value.strip().lower()
            if word in _TRUE + _FALSE:
                return word in _TRUE
        elif isinstance(default, bool) and type(value) is int and value in (0, 1):
            return bool(value)
        elif isinstance(default, int) and not isinstance(default, bool) and isinstance(value, str):
            text = value.strip()
            if text.lstrip("-").isdigit():
                return int(text)
        return value
