"""A game's descriptor: the one entry a game package declares (`DESCRIPTORS` in `engines/<package>/__init__.py`).

Every layer finds its own part of a game by convention from the descriptor's `family` (the engine package's
name, filled in by `engines` when it discovers the package) and `id`: the bots in `bots/<family>.py`, the board
renderer in `client/games/<family>.py`, the words in `client/story/<family>.py`, the rules page in
`docs/rules/<page>.md`. A game that ships no such part gets the generic one, so that a minimal game is its engine
package alone. What cannot be found by a file's name is declared here: what the game does with chance and
secrets (`Capabilities`, which the tests check against played games and from which they know the frame kinds
its replays hold), and how often the simulator's campaigns play it (`Mix`).

Seats, options, title and id are the rules' own (`Rules.players`, ...): the descriptor reads them from its
`Game` rather than repeating them, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, get_args

from engines.contract import Option
from engines.game import Game

__all__ = ["CHANCE_KINDS", "SECRET_KINDS", "Capabilities", "Descriptor", "Mix"]

ChanceKind = Literal["dice", "pick", "deal", "show"]
#: the secrets a game keeps (docs/engine-contract.md, "Hidden information"):
#: "private": a dice or pick value only one seat learns (`Chance(private_to=...)`);
#: "step": a simultaneous step whose choices stay committed to the end (`Awaiting(secret=True)`);
#: "deal": a card drawn in secret from a deck the seats shuffled together (`Chance("deal")`);
#: "look": a seat's hidden cards shown to one other seat (`Chance("show")`)
SecretKind = Literal["private", "step", "deal", "look"]
CHANCE_KINDS: frozenset[str] = frozenset(get_args(ChanceKind))
SECRET_KINDS: frozenset[str] = frozenset(get_args(SecretKind))


def _known(values: Iterable[str], known: frozenset[str], what: str) -> frozenset[str]:
    values = frozenset(values)
    unknown = sorted(values - known)
    if unknown:
        raise ValueError(f"unknown {what} {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    return values


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a game does beyond plain turns, declared so that a reader need not play it to know.

    `chance`: the kinds of chance point it awaits (`Chance.kind`); `secrets`: the kinds of secret it keeps
    (`SECRET_KINDS`); `simultaneous`: whether it has simultaneous steps (secret or not); `decks`: the names of
    the shared secret decks its deals draw from; `turns`: whether one seat ever plays alone (`Awaiting("move")`:
    a game of simultaneous steps only has none). `tests/test_descriptors.py` plays seeded bot games and checks
    that everything met is declared, and that everything declared is met."""

    chance: frozenset[str] = frozenset()
    secrets: frozenset[str] = frozenset()
    simultaneous: bool = False
    decks: frozenset[str] = frozenset()
    turns: bool = True

    def __post_init__(self) -> None:
        # any iterable is accepted (a test's toy game); the value keeps frozensets
        object.__setattr__(self, "chance", _known(self.chance, CHANCE_KINDS, "chance kind"))
        object.__setattr__(self, "secrets", _known(self.secrets, SECRET_KINDS, "secret kind"))
        object.__setattr__(self, "decks", frozenset(self.decks))
        if self.simultaneous is False and "step" in self.secrets:
            raise ValueError("a secret simultaneous step needs simultaneous=True")
        if bool(self.decks) != ("deal" in self.chance):
            raise ValueError("decks are named exactly when the game deals (chance kind 'deal')")

    @property
    def deck(self) -> bool:
        """Whether the game deals from a shared secret deck (the shuffle and strip frames of a replay)."""
        return bool(self.decks)


@dataclass(frozen=True, slots=True)
class Mix:
    """How often the simulator's campaigns play the game (simulator/run.py): `weight` in a full campaign,
    `quick` in the quick form the test suite runs (0: never there); `frames`, about how many frames a game
    of it has (a run's deadline scales with it)."""

    weight: float = 1.0
    quick: float = 1.0
    frames: int = 120


@dataclass(frozen=True, slots=True)
class Descriptor:
    """One game as every layer sees it: its `Game`, its capabilities, its rules page and its share of the
    simulator's mix (`None`: campaigns never play it). `family` is the engine package's name, set by discovery
    (`engines._discover`): the name the other layers look their parts up by."""

    game: Game
    capabilities: Capabilities = field(default_factory=Capabilities)
    #: docs/rules/<page>.md; "" for the game's id (the Kidd games share "kidd")
    page: str = ""
    mix: Mix | None = field(default_factory=Mix)
    family: str = ""

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def seats(self) -> tuple[int, ...]:
        return self.game.players

    @property
    def options(self) -> dict[str, Option]:
        return self.game.options

    @property
    def rules_page(self) -> str:
        return self.page or self.id
