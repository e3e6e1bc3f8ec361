"""The three progress decks (docs/rules/catan-ck.md, "Progress cards" and "Chance and secrets").

Each deck is a face-down pool (its size and epoch are public) plus a public under pile. A draw is a
private `deal`: the drawer's engine gets the card's index in the deck's canonical order, every other
engine HIDDEN. When a draw finds the pool empty, the under pile becomes the pool first: a new epoch,
whose composition is public (every under-pile card was named).

What the public part knows of a seat's progress hand: its publicly known ids (`CKSeat.known`: cards
taken with a spy) and, per deck, how many undisclosed cards it holds (`CKSeat.hidden`). The seat's own
engine (and the referee) also knows the ids (`PHand.held`). Functions here read a private part only
while applying that seat's own action or chance outcome, or where it is known anyway.
"""

from __future__ import annotations

from typing import Any

from engines.catan.state import CatanState
from engines.catan_ck.cards import (
    CARD_DECK,
    CARD_TOTALS,
    DECK_CARDS,
    DECK_INDEX,
    DECKS,
    PROGRESS,
    VP_CARDS,
    progress_text,
)
from engines.catan_ck.state import CKExt, CKSeat, PHand
from engines.catan_ck.steps import DRAW, DRAWN
from engines.contract import HIDDEN, Awaiting, Chance, IllegalAction
from engines.memo import Memo

__all__ = ["dealt", "drawable", "may_hold", "public_copies", "remaining_pool", "start_draw"]

_PRINTER, _CONSTITUTION = VP_CARDS
_VP_BIT = {_PRINTER: 1, _CONSTITUTION: 2}
_DEALS: Memo[tuple, Awaiting] = Memo(50_000, "(seat, deck, cards left, epoch, epoch pool)")


def deal_chance(x: CKExt, seat: int, d: int) -> Awaiting:
    key = (seat, d, x.pool[d], x.epoch[d], x.epoch_pool[d])
    found = _DEALS.get(key)
    if found is None:
        found = _DEALS.put(key, Awaiting("chance", (), Chance(
            "deal", n=x.pool[d], private_to=seat, deck=DECKS[d], epoch=x.epoch[d], pool=x.epoch_pool[d],
            label=f"{DECKS[d]} progress card for seat {seat}")))
    return found


def drawable(x: CKExt, d: int) -> bool:
    """Whether a draw from deck `d` finds a card (in the pool, or in the under pile after a refill)."""
    if x.pool[d]:
        return True
    under = x.under
    return any(under[g] for g in DECK_CARDS[d])


def revealed(x: CKExt, g: int) -> int:
    bit = _VP_BIT.get(g)
    if bit is None:
        return 0
    return sum(1 for cs in x.seats if cs.vpcards & bit)


def public_copies(x: CKExt, g: int) -> int:
    """Copies of `g` whose place everybody knows: under pile, publicly known in a hand, revealed."""
    return x.under[g] + sum(cs.known[g] for cs in x.seats) + revealed(x, g)


def remaining_pool(s: CatanState) -> tuple[int, ...] | None:
    """Per global id, the cards in the pools (full knowledge only; None if a private part is unknown)."""
    if s.gone is HIDDEN or any(p is HIDDEN for p in s.private):
        return None
    x = s.ext
    out = []
    for g in range(len(PROGRESS)):
        k = CARD_TOTALS[g] - x.under[g] - revealed(x, g) - s.gone[g]
        for p in s.private:
            k -= p.held[g]
        out.append(k)
    return tuple(out)


def start_draw(s: CatanState, seat: int, d: int) -> CatanState | None:
    """The draw task: refill the pool if it is empty, then wait for the deal (None: nothing to draw)."""
    x = s.ext
    if not x.pool[d]:
        ids = DECK_CARDS[d]
        if not any(x.under[g] for g in ids):
            return None
        comp = tuple(DECK_INDEX[g] for g in ids for _ in range(x.under[g]))
        under = tuple(0 if CARD_DECK[g] == d else k for g, k in enumerate(x.under))
        x = x.put(under=under, pool=_set(x.pool, d, len(comp)), epoch=_set(x.epoch, d, x.epoch[d] + 1),
                  epoch_pool=_set(x.epoch_pool, d, comp))
    return s.put(step=DRAW, queue=(), ext=x.put(ctx=(seat, d)))


def dealt(rules: Any, s: CatanState, value: Any) -> CatanState:
    """The deal's outcome: the card's index in its deck (the drawer's engine) or HIDDEN."""
    x = s.ext
    seat, d = x.ctx
    mine = s.private[seat]
    if value is HIDDEN:
        mine = HIDDEN
    else:
        if mine is HIDDEN:
            raise IllegalAction(f"seat {seat}'s progress cards are unknown here, so its deal must be HIDDEN")
        if not 0 <= value < len(DECK_CARDS[d]):
            raise IllegalAction(f"the {DECKS[d]} deck has no card type {value}")
        g = DECK_CARDS[d][value]
        left = remaining_pool(s)
        if left is not None:
            if left[g] <= 0:
                raise IllegalAction(f"the {DECKS[d]} pool holds no {PROGRESS[g]} card")
        elif known_outside(s, g) >= CARD_TOTALS[g]:
            raise IllegalAction(f"all {CARD_TOTALS[g]} {PROGRESS[g]} cards are known to be out of the pool")
        mine = PHand(_bump(mine.held, g, 1), g)
    cs = x.seats[seat]
    x = _seat(x, seat, cs.put(hidden=_set(cs.hidden, d, cs.hidden[d] + 1)))
    x = x.put(pool=_set(x.pool, d, x.pool[d] - 1))
    s = s.put(private=_set(s.private, seat, mine), ext=x, step=DRAWN, queue=(seat,))
    return s


def known_outside(s: CatanState, g: int) -> int:
    """Copies of `g` this engine knows to be outside the pools (the drawer's check)."""
    x = s.ext
    count = x.under[g] + revealed(x, g)
    if s.gone is not HIDDEN:
        count += s.gone[g]
    for o, p in enumerate(s.private):
        count += p.held[g] if p is not HIDDEN else x.seats[o].known[g]
    return count


def drawn_legal(s: CatanState, seat: int) -> list[str]:
    x = s.ext
    _, d = x.ctx
    mine = s.private[seat]
    if mine is not HIDDEN:
        g = mine.drawn
        return [f"reveal {PROGRESS[g]}"] if g in _VP_BIT else ["keep"]
    out = ["keep"]
    for g in VP_CARDS:
        if CARD_DECK[g] == d and not revealed(x, g):
            out.append(f"reveal {PROGRESS[g]}")
    return out


def keep(rules: Any, s: CatanState, seat: int, action: str) -> CatanState:
    mine = s.private[seat]
    if mine is not HIDDEN:
        if mine.drawn in _VP_BIT:
            raise IllegalAction(f"{action}: a {PROGRESS[mine.drawn]} is a victory-point card; it is revealed")
        s = s.put(private=_set(s.private, seat, PHand(mine.held, -1)))
    return rules.after_draw(s, seat)


def reveal(rules: Any, s: CatanState, seat: int, g: int, action: str) -> CatanState:
    x = s.ext
    _, d = x.ctx
    if g not in _VP_BIT or CARD_DECK[g] != d:
        raise IllegalAction(f"{action}: only a {DECKS[d]} victory-point card just drawn is revealed")
    if revealed(x, g):
        raise IllegalAction(f"{action}: the {PROGRESS[g]} is revealed already")
    mine = s.private[seat]
    if mine is not HIDDEN:
        if mine.drawn != g:
            raise IllegalAction(f"{action}: seat {seat} did not draw the {PROGRESS[g]}")
        s = s.put(private=_set(s.private, seat, PHand(_bump(mine.held, g, -1), -1)))
    cs = x.seats[seat]
    cs = cs.put(hidden=_set(cs.hidden, d, cs.hidden[d] - 1), vpcards=cs.vpcards | _VP_BIT[g])
    return rules.after_draw(s.put(ext=_seat(x, seat, cs)), seat)


def may_hold(s: CatanState, seat: int, g: int) -> bool:
    """Whether `seat` holds a `g`: exactly for a known hand, from public knowledge otherwise."""
    mine = s.private[seat]
    if mine is not HIDDEN:
        return mine.held[g] > 0
    x = s.ext
    cs = x.seats[seat]
    if cs.known[g]:
        return True
    return cs.hidden[CARD_DECK[g]] > 0 and g not in _VP_BIT and public_copies(x, g) < CARD_TOTALS[g]


def give_up(s: CatanState, seat: int, g: int, to_under: bool) -> CatanState:
    """A card `g` leaves `seat`'s hand (played, buried, taken): a publicly known copy if it holds one,
    otherwise an undisclosed card of its deck; to the under pile if `to_under`."""
    x = s.ext
    cs = x.seats[seat]
    d = CARD_DECK[g]
    if cs.known[g]:
        cs = cs.put(known=_bump(cs.known, g, -1))
    elif cs.hidden[d]:
        cs = cs.put(hidden=_set(cs.hidden, d, cs.hidden[d] - 1))
    else:
        raise IllegalAction(f"seat {seat} holds no {DECKS[d]} card")
    mine = s.private[seat]
    if mine is not HIDDEN:
        if not mine.held[g]:
            raise IllegalAction(f"seat {seat} holds no {PROGRESS[g]}")
        mine = PHand(_bump(mine.held, g, -1), mine.drawn)
    x = _seat(x, seat, cs)
    if to_under:
        x = x.put(under=_bump(x.under, g, 1))
    return s.put(ext=x, private=_set(s.private, seat, mine))


def receive_known(s: CatanState, seat: int, g: int) -> CatanState:
    """A named card comes into `seat`'s hand (taken with a spy): publicly known there."""
    x = s.ext
    cs = x.seats[seat]
    x = _seat(x, seat, cs.put(known=_bump(cs.known, g, 1)))
    mine = s.private[seat]
    if mine is not HIDDEN:
        mine = PHand(_bump(mine.held, g, 1), mine.drawn)
    return s.put(ext=x, private=_set(s.private, seat, mine))


# ------------------------------------------------------------------------------ what the protocol proves

def reveals(rules: Any, s: CatanState, seat: int, action: str) -> tuple[tuple[str, int], ...]:
    """Dealt cards an action shows from `seat`'s own hand: a card played or buried that is not a
    publicly known copy (those were proven when they became public), and a revealed VP card; for a
    spy's `take`, the card from the target's hand (proven from the look), unless a known copy."""
    parsed = rules.notation.parse(action)
    if parsed is None:
        return ()
    verb = parsed[0]
    if verb == "show":
        known = s.ext.seats[seat].known
        return tuple((DECKS[CARD_DECK[g]], DECK_INDEX[g]) for g, k in enumerate(parsed[1])
                     for _ in range(k - known[g]) if k > known[g])
    if verb == "take":   # the spy's take of a card it saw: from the target's hand (the protocol's look)
        g = parsed[1]
        (target,) = s.ext.ctx
        return () if s.ext.seats[target].known[g] else ((DECKS[CARD_DECK[g]], DECK_INDEX[g]),)
    if verb in ("play", "bury", "reveal"):
        g = parsed[1]
        if verb != "reveal" and s.ext.seats[seat].known[g]:
            return ()
        return ((DECKS[CARD_DECK[g]], DECK_INDEX[g]),)
    return ()


def disclose(s: CatanState) -> tuple[int, ...]:
    """The spy's look: the target's whole progress hand (full knowledge of the target needed)."""
    _, target = s.ext.ctx
    mine = s.private[target]
    if mine is HIDDEN:
        raise ValueError(f"seat {target}'s progress cards are not known to this state")
    return mine.held


def shows(s: CatanState, value: Any) -> tuple[tuple[str, int], ...]:
    """The cards of a show value that are not publicly known yet: the ones the protocol proves."""
    _, target = s.ext.ctx
    known = s.ext.seats[target].known
    return tuple((DECKS[CARD_DECK[g]], DECK_INDEX[g]) for g, k in enumerate(value) for _ in range(k - known[g])
                 if k > known[g])


def show_value(s: CatanState, cards: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    """The spy's look from the target's publicly known cards and its undisclosed dealt cards (the ones
    the protocol decrypted for the spy): the inverse of `shows`."""
    _, target = s.ext.ctx
    counts = list(s.ext.seats[target].known)
    for deck, index in cards:
        d = DECKS.index(deck) if deck in DECKS else -1
        if d < 0 or not 0 <= index < len(DECK_CARDS[d]):
            raise IllegalAction(f"no card {index} in deck {deck!r}")
        counts[DECK_CARDS[d][index]] += 1
    return tuple(counts)


def show_texts(s: CatanState, seat: int) -> list[str]:
    """`show <cards>` texts: exactly its hand on the seat's own engine; elsewhere every hand possible
    from public knowledge (its known cards plus, per deck, as many undisclosed cards as it holds)."""
    mine = s.private[seat]
    if mine is not HIDDEN:
        return [f"show {progress_text(mine.held)}"]
    x = s.ext
    cs = x.seats[seat]
    parts: list[list[tuple[tuple[int, int], ...]]] = []
    for d in range(3):
        room = [0 if g in _VP_BIT else max(0, CARD_TOTALS[g] - public_copies(x, g)) for g in DECK_CARDS[d]]
        parts.append(_fill(DECK_CARDS[d], room, cs.hidden[d]))
    out = []
    for a in parts[0]:
        for b in parts[1]:
            for c in parts[2]:
                counts = list(cs.known)
                for extra in (a, b, c):
                    for g, k in extra:
                        counts[g] += k
                out.append(f"show {progress_text(tuple(counts))}")
    out.sort()
    return out


def _fill(ids: tuple[int, ...], room: list[int], k: int) -> list[tuple[tuple[int, int], ...]]:
    """Every way to put `k` cards on `ids` with at most room[i] on ids[i]."""
    if k == 0:
        return [()]
    if not ids:
        return []
    out = []
    for take in range(min(k, room[0]), -1, -1):
        for rest in _fill(ids[1:], room[1:], k - take):
            out.append((((ids[0], take),) if take else ()) + rest)
    return out


def check_shown(s: CatanState, target: int, value: tuple[int, ...]) -> None:
    """A shown hand must agree with what this engine knows of the target."""
    x = s.ext
    cs: CKSeat = x.seats[target]
    mine = s.private[target]
    if mine is not HIDDEN and tuple(mine.held) != tuple(value):
        raise IllegalAction(f"seat {target} holds {progress_text(mine.held) or 'nothing'}, "
                            f"not {progress_text(value) or 'nothing'}")
    for d in range(3):
        ids = DECK_CARDS[d]
        if sum(value[g] for g in ids) != cs.hidden[d] + sum(cs.known[g] for g in ids):
            raise IllegalAction(f"seat {target} holds {cs.hidden[d]} undisclosed {DECKS[d]} cards")
    for g, k in enumerate(value):
        if k < cs.known[g] or (k > cs.known[g] and (g in _VP_BIT or public_copies(x, g) + k - cs.known[g]
                                                     > CARD_TOTALS[g])):
            raise IllegalAction(f"seat {target} cannot hold {k} {PROGRESS[g]}")


def _bump(values: tuple[int, ...], i: int, k: int) -> tuple[int, ...]:
    return values[:i] + (values[i] + k,) + values[i + 1:]


def _set(values: tuple, i: int, value: Any) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


def _seat(x: CKExt, i: int, cs: CKSeat) -> CKExt:
    return x.put(seats=x.seats[:i] + (cs,) + x.seats[i + 1:])

