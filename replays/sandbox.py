"""A replay position to play on from: the viewer's "play from here" and `netplay replay fork`.

Rebuilding a position takes more than its state. A driver that deals from a shared secret deck must
know which cards of each deck epoch are gone (the engine announces only how many are left and the
pool they came from), so the fork carries the deals the replay made up to that position, as the
end-of-game re-simulation revealed them. Each seat's own knowledge state is carried too, so that the
sandbox keeps every seat's secrets as they were at the table (a person playing on sees their own
hand, not the others'). The states come from the Stepper, which runs the same Ledger as the audit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core import HIDDEN, Game, State
from replays.stepping import Stepper

__all__ = ["Fork", "fork_at", "why_not"]


@dataclass(frozen=True, slots=True)
class Fork:
    game: Game
    players: int
    options: dict[str, Any]
    number: int                  # the position as people count it: after frame #number (0: the start)
    state: State                 # every secret revealed
    knowing: tuple[State, ...]   # each seat's own knowledge state there
    dealt: dict[tuple[str, int], tuple[int, ...]]  # (deck, epoch) -> card types dealt before this position
    seat: int                    # the seat a person takes by default: the one the game waits for

    @property
    def cards_dealt(self) -> int:
        return sum(len(cards) for cards in self.dealt.values())


def why_not(stepper: Stepper, position: int) -> str:
    """Why no sandbox can start at `position` ("" when one can)."""
    if not stepper.revealed_known:
        return "the replay does not reveal every secret"
    if stepper.game.result(stepper.state_at(position, "revealed")) is not None:
        return "the game is over at this position"
    return ""


def fork_at(stepper: Stepper, position: int, seat: int | None = None) -> Fork:
    """The position after frame index `position` (-1: the start) as a Fork; ValueError when none can
    start there. `seat` is the default seat when nobody is to move there and nobody moved after it."""
    reason = why_not(stepper, position)
    if reason:
        raise ValueError(f"cannot play on from frame {stepper.number(position)}: {reason}")
    game, players = stepper.game, stepper.header.players
    state = stepper.state_at(position, "revealed")
    knowing = tuple(stepper.state_at(position, f"seat {s}") for s in range(players))
    dealt: dict[tuple[str, int], list[int]] = {}
    for event in stepper.events[:stepper.moves_done(position)]:
        chance = event.chance
        if event.kind != "chance" or chance is None or chance.kind != "deal":
            continue
        card = event.full if event.full is not None else event.value
        if card is HIDDEN or type(card) is not int:
            raise ValueError(f"cannot play on from frame {stepper.number(position)}: a card dealt from "
                             f"{chance.deck!r} at frame {event.at + 1} was never revealed")
        dealt.setdefault((chance.deck, chance.epoch), []).append(card)
    waiting = game.awaiting(state)
    later = (e.seat for e in stepper.events[stepper.moves_done(position):] if e.kind == "play" and e.seat is not None)
    if waiting.seats:
        to_move = waiting.seats[0]
    else:  # chance first (a roll): the seat that moved next in the replay
        to_move = next(later, seat if seat is not None and 0 <= seat < players else 0)
    return Fork(game, players, dict(stepper.header.option_dict), stepper.number(position), state, knowing,
                {key: tuple(cards) for key, cards in dealt.items()}, to_move)
