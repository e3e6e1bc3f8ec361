"""The development deck (docs/rules/catan.md, "Private draws from the shared deck"): a deck several seats
draw from in secret, so no engine stores its order or its remaining cards.

The remaining deck is derived: the 25-card composition minus every card played, every
`victorypoint` card shown at `claim`/`reveal`, every card in a hand and every card that left the game
with a resigned seat. That is only possible where every private part is known (the referee, the
audit); elsewhere the engine checks a dealt card against what it does know.
"""

from __future__ import annotations

from engines.catan.cards import DEV_TOTALS
from engines.catan.state import CatanState
from engines.contract import HIDDEN

__all__ = ["deal_type", "known_of_type", "remaining_deck"]


def remaining_deck(state: CatanState) -> tuple[int, ...] | None:
    """The counts per type of the cards left in the deck, or None if a private part is unknown.
    (`played` counts the revealed `victorypoint` cards too: they left the hands at claim/reveal.)"""
    if state.gone is HIDDEN or any(p is HIDDEN for p in state.private):
        return None
    left = list(DEV_TOTALS)
    for t in range(5):
        left[t] -= state.played[t] + state.gone[t]
    for hand in state.private:
        for t in range(5):
            left[t] -= hand.held[t]
    return tuple(left)


def deal_type(state: CatanState, i: int) -> int:
    """The type of entry `i` of the remaining deck listed in canonical order, one entry per card
    (the full-knowledge driver's deal, spec point 2). ValueError if a private part is unknown or
    `i` is out of range."""
    left = remaining_deck(state)
    if left is None:
        raise ValueError("deal_type needs every seat's development cards (full knowledge)")
    if not 0 <= i < sum(left):
        raise ValueError(f"deal index {i} outside 0..{sum(left) - 1}")
    for t, k in enumerate(left):
        if i < k:
            return t
        i -= k
    raise AssertionError("unreachable")


def known_of_type(state: CatanState, t: int) -> int:
    """How many cards of type `t` this engine knows to be out of the deck: played or revealed, in a
    hand it knows, or gone with a resigned seat it knew (spec point 4, the buyer's engine in a
    networked game, which knows its own hand)."""
    count = state.played[t]
    if state.gone is not HIDDEN:
        count += state.gone[t]
    for hand in state.private:
        if hand is not HIDDEN:
            count += hand.held[t]
    return count
