"""The values every part of netplay exchanges with a rules engine: what a game awaits, the domain of a
chance point, a result, an option, the stand-in for a secret, and the errors.

They are plain frozen values (integers, strings, tuples) so that they can be compared, hashed into a
digest and sent over the wire by their fields, with nothing game-specific in them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

__all__ = [
    "COMMON_ACTIONS",
    "HIDDEN",
    "Awaiting",
    "AwaitingKind",
    "Chance",
    "ChanceKind",
    "Hidden",
    "IllegalAction",
    "Option",
    "Result",
    "UnknownGame",
]

#: The actions every game has, implemented once in `engines.game.Game` (a spec may narrow them).
COMMON_ACTIONS: tuple[str, ...] = ("resign", "offer draw", "accept draw", "decline draw")


class Hidden:
    """The single stand-in for a secret this peer does not know (a private draw, a hidden choice)."""

    __slots__ = ()
    _instance: ClassVar[Hidden | None] = None

    def __new__(cls) -> Hidden:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "HIDDEN"

    def __reduce__(self) -> str:
        return "HIDDEN"


HIDDEN = Hidden()

#: What a game waits for (`Awaiting.kind`). A `Literal`, not an enum: the kinds are written as plain texts into
#: views, replays and the wire, and the canonical codec accepts exact `str` only (replays/codec.py), so a
#: `StrEnum` member would be refused there; the alias costs nothing at run time and the checker holds every
#: comparison and constructor to these values.
AwaitingKind = Literal["move", "simultaneous", "chance", "over"]
#: The domain of a chance point (`Chance.kind`; see `Chance` for each value's meaning). A `Literal` for the
#: reason `AwaitingKind` is one.
ChanceKind = Literal["dice", "pick", "deal", "show"]


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

    kind "dice": the value is a tuple of ints, one per entry of `sides`, each in 1..sides[i].
    kind "pick": the value is an int in 0..n-1.
    kind "deal": a card from a deck that several seats draw from in secret. `deck` names the deck,
      `epoch` counts its shuffles (a refill is a new epoch), `pool` is the epoch's public composition
      (a sorted tuple of card type indices, one entry per card) and `n` the number of cards still in
      the deck. The value is the drawn card's *type index* (an entry of `pool`), never a position:
      no engine knows the order or the remaining cards of such a deck.
    kind "show": seat `source`'s hidden cards shown to seat `private_to` only (a spy's look). The
      value is a tuple of `n` counts (a multiset over the game's card ids); no randomness is involved.
      Over the network the protocol decrypts the source's undisclosed dealt cards for the looker
      alone (replays.look) and the looker's engine gets `Game.show_value` of them; a full-knowledge
      driver takes the value from `Game.disclose`. The looker's next action's `reveals` names cards
      of the source's hand (a card taken), which the protocol proves from the look.
    `private_to` names the only seat that learns the value; every other peer feeds `HIDDEN`.
    """

    kind: ChanceKind
    sides: tuple[int, ...] = ()
    n: int = 0
    private_to: int | None = None
    deck: str = ""
    label: str = ""
    epoch: int = 0
    pool: tuple[int, ...] = ()
    source: int | None = None


@dataclass(frozen=True, slots=True)
class Awaiting:
    """What the game waits for. kind: "move" | "simultaneous" | "chance" | "over".

    `seats` are the seats whose action is still awaited. For a simultaneous step `secret` says the
    choices stay committed until the end of the game (other peers apply them as `HIDDEN`).
    """

    kind: AwaitingKind
    seats: tuple[int, ...] = ()
    chance: Chance | None = None
    secret: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: the winners (none for a draw), a score per seat, and the rule that ended it."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str

    def points_won(self) -> tuple[int, int] | None:
        """(points reached, points to win) of a single winner on points: the Catan engines' reason names
        the points needed ("13 victory points"), which a winner may pass (14, scored beside it); None for
        any other ending."""
        need, _, unit = self.reason.partition(" ")
        if unit != "victory points" or not need.isdigit() or len(self.winners) != 1 \
                or not 0 <= self.winners[0] < len(self.scores):
            return None
        return self.scores[self.winners[0]], int(need)

    def describe(self, names: list[str] | None = None) -> str:
        """The result in words, the same in every front end ("seat 1 (ann) won (resign), scores [0, 1]";
        "seat 0 won with 14 victory points (13 to win), scores [14, 9, 5]")."""
        if not self.winners:
            return f"a draw ({self.reason}), scores {list(self.scores)}"

        def who(seat: int) -> str:
            return f"seat {seat} ({names[seat]})" if names and seat < len(names) else f"seat {seat}"

        points = self.points_won()
        why = f"with {points[0]} victory points ({points[1]} to win)" if points else f"({self.reason})"
        return f"{', '.join(who(w) for w in self.winners)} won {why}, scores {list(self.scores)}"


@dataclass(frozen=True, slots=True)
class Option:
    """A game option: its default and the allowed values (all strings, all ints or all bools)."""

    default: Any
    choices: tuple[Any, ...]
    help: str = ""
