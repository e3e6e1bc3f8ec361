"""Choices that involve a seat's secret cards: picks, exchanges and damage, checked two ways.

When the seat's private part is known (its own peer, the referee, the audit) a choice is checked
against the real hand. When it is HIDDEN (the other peers) only the spec's Public check is possible:
`wait` is always in hand, and any other card must be among the cards whose place is not public
(hand, deck and damage together). Public counts sharpen that a little: a hand of one card holds
only `wait`, and k cards given away need k non-wait cards in hand. An honest choice always passes
both checks, so every peer updates the public part the same way; a dishonest one that slips past the
public check is caught when the referee state, which knows the hand, replays it (the end-of-game
audit).
"""

from __future__ import annotations

from engines.core import HIDDEN
from engines.memo import Memo
from engines.tides import cards as C
from engines.tides import notation as N
from engines.tides.state import Pile, TidesState

_RULE_PICK = "step 2 Pick: any card in the seat's hand"
_RULE_PUBLIC = ("Public check: a card other than wait must be among the seat's 12 cards minus wait, exchange cards, "
                "discard pile, reserve and out-of-game cards")


_PICK = N.PICK


def pick_options(state: TidesState, seat: int) -> list[str]:
    mine = state.private[seat]
    if mine is not HIDDEN:
        hand = mine.hand
        return [_PICK[c] for c in range(7) if hand[c]]
    pile = state.piles[seat]
    if pile.hand_n < 2:
        return [N.PICK[C.WAIT]]
    unplaced = pile.unplaced()
    return [N.PICK[c] for c in range(7) if c == C.WAIT or unplaced[c]]


def why_not_pick(state: TidesState, seat: int, card: int) -> str | None:
    mine = state.private[seat]
    if mine is not HIDDEN:
        if mine.hand[card]:
            return None
        return f"pick {C.CARDS[card]}: seat {seat} has no {C.CARDS[card]} in hand ({_RULE_PICK})"
    name = C.CARDS[card]
    if card == C.WAIT:
        return None
    pile = state.piles[seat]
    if pile.hand_n < 2:
        return f"pick {name}: seat {seat} holds a single card, which is always wait ({_RULE_PICK})"
    if not pile.unplaced()[card]:
        return f"pick {name}: seat {seat} cannot hold {name} ({_RULE_PUBLIC})"
    return None


def _giveable(state: TidesState, seat: int) -> tuple[C.Counts, int]:
    """The cards the seat may give and how many at most: its real hand, or what public knowledge allows."""
    mine = state.known(seat)
    if mine is not None:
        hand = C.bump(mine.hand, C.WAIT, -mine.hand[C.WAIT])
        return hand, C.size(hand)
    pile = state.piles[seat]
    return pile.unplaced(), pile.hand_n - 1


_EXCHANGES: Memo[tuple, list[str]] = Memo(20_000, "(the cards one may give, how many, the exchange pile)")


def exchange_options(state: TidesState, seat: int) -> list[str]:
    hand, most = _giveable(state, seat)
    offered = state.piles[seat].exchange
    key = (hand, most, offered)
    found = _EXCHANGES.get(key)
    if found is None:
        found = _EXCHANGES.put(key, _list_exchanges(hand, most, offered))
    return list(found)


def _list_exchanges(hand: C.Counts, most: int, offered: C.Counts) -> list[str]:
    found = [N.EXCHANGE_NONE]
    for k in range(1, min(most, C.size(offered)) + 1):
        for given in C.submultisets(hand, k):
            rest = tuple(0 if given[i] else offered[i] for i in range(7))
            found += [N.exchange_text(given, taken) for taken in C.submultisets(rest, k)]  # type: ignore[arg-type]
    found.sort()
    return found


def why_not_exchange(state: TidesState, seat: int, given: C.Counts, taken: C.Counts) -> str | None:
    k = C.size(given)
    if k != C.size(taken):
        return "exchange: give exactly as many hand cards as exchange cards taken (k for k)"
    if given[C.WAIT]:
        return "exchange: wait is never given away (D14)"
    if any(g and t for g, t in zip(given, taken, strict=True)):
        return "exchange: no card name may appear on both sides (D24)"
    offered = state.piles[seat].exchange
    if not C.fits(taken, offered):
        return f"exchange: seat {seat}'s exchange cards are {C.describe(offered)} (the taken cards must be among them)"
    mine = state.known(seat)
    if mine is not None:
        if not C.fits(given, mine.hand):
            return f"exchange: seat {seat}'s hand is {C.describe(mine.hand)} (the given cards must be in hand)"
        return None
    pile = state.piles[seat]
    if k > pile.hand_n - 1:
        return f"exchange: seat {seat} holds only {pile.hand_n - 1} card(s) besides wait (hand count is public)"
    if not C.fits(given, pile.unplaced()):
        return f"exchange: seat {seat} cannot hold {C.describe(given)} ({_RULE_PUBLIC})"
    return None


def destroyed(state: TidesState, seat: int) -> int:
    return state.ships[seat].destroyed


_DAMAGES: dict[tuple, list[str]] = {}


def damage_options(state: TidesState, seat: int) -> list[str]:
    key = (state.piles[seat].pool(), destroyed(state, seat))
    found = _DAMAGES.get(key)
    if found is None:
        found = _DAMAGES[key] = sorted(N.damage_text(chosen) for chosen in C.submultisets(*key))
    return list(found)


def why_not_damage(pile: Pile, d: int, chosen: C.Counts) -> str | None:
    if C.size(chosen) != d:
        return f"damage: set aside exactly {d} card(s), one per destroyed zone of the own ship (Damage)"
    if not C.fits(chosen, pile.pool()):
        return (f"damage: the pool is {C.describe(pile.pool())} (every own card except wait, exchange cards, "
                "reserve and out-of-game cards)")
    return None
