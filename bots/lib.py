"""What every game's bots share: the bot interface, the random bot, and lookahead helpers.

A bot is handed its seat's *knowledge state*: the state this seat's own peer holds, in which every
other seat's private part is HIDDEN. It therefore can reach nothing beyond `view(state, seat)`,
yet it may simulate through the engine contract (`legal`, `play`, `chance`) for lookahead.
Bots get their randomness from the `rng` the driver passes (a `random.Random`), never their own.
"""

from __future__ import annotations

from typing import Any, Protocol

from engines.core import COMMON_ACTIONS, Game, State, outcome_from_bytes
from engines.game import DRAW_ANSWERS


class Bot(Protocol):
    name: str

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        """Return one text of `legal` (never empty when called)."""
        ...


def game_actions(legal: list[str]) -> list[str]:
    """`legal` without the common actions (resign and draw offers), which bots leave alone."""
    actions = [a for a in legal if a not in COMMON_ACTIONS]
    return actions or [a for a in legal if a != "resign"] or legal


#: the longest legal list that can hold "decline draw": while a draw offer is pending, `Game.legal` lists
#: only the answers, so a longer list (thousands of Madagaskar walks) need not be scanned for it
_ANSWERS = len(DRAW_ANSWERS)


def forced(legal: list[str]) -> str | None:
    """The choice that needs no thought: decline a draw offer (bots play on), or the only game action."""
    if len(legal) <= _ANSWERS and "decline draw" in legal:
        return "decline draw"
    actions = game_actions(legal)
    return actions[0] if len(actions) == 1 else None


class RandomBot:
    """Uniform over the legal game actions; never resigns or offers a draw, declines every offer."""

    name = "random"

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        if len(legal) <= _ANSWERS and "decline draw" in legal:
            return "decline draw"
        # Rejection sampling keeps the choice uniform over the game actions without building a
        # filtered copy of a list that can hold thousands of walks (Madagaskar towers).
        if len(legal) > 8:
            for _ in range(8):
                action = rng.choice(legal)
                if action not in COMMON_ACTIONS:
                    return action
        return rng.choice(game_actions(legal))


def sample_outcome(game: Game, state: State, rng: Any) -> Any:
    """A chance value for lookahead, drawn with the bot's own rng (dice and picks only: a bot knows no
    deck's remaining cards). A look at a hand ("show") involves no randomness: its value is what the
    state knows of the hand (`Game.disclose`, which needs a full-knowledge state)."""
    chance = game.awaiting(state).chance
    if chance is not None and chance.kind == "show":
        return game.disclose(state)
    return outcome_from_bytes(chance, rng.getrandbits(256).to_bytes(32, "big"))
