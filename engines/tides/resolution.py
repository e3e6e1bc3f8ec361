"""What a resolving card may do (its options), what each option does, and the win check.

Options are worked out on the board as the earlier resolution left it (D7), so they are computed
from the state at the moment a card's turn comes, never stored. `has_option` answers the cheaper
question the automatic "no option: no effect" step needs without building any text.
"""

from __future__ import annotations

from engines.memo import Memo
from engines.tides import notation as N
from engines.tides.ship import MAST_ZONE, OUT, ZONES, Ship, bit, opposite
from engines.tides.state import OVER, TidesState, pair, with_ship

_SLOT_PAIRS = tuple((z, s) for z in ZONES for s in (0, 1))


def options(state: TidesState, seat: int, card: str) -> list[str]:
    """Every legal text of `seat`'s resolving `card`, sorted (empty: the card has no effect)."""
    ship = state.ships[seat]
    if card == "sailor":
        if not ship.sailors_held:
            return []
        return sorted(N.SAILOR[z] for z in ZONES if not ship.is_destroyed(z))
    if card == "cannon":
        if not ship.cannons_held:
            return []
        return sorted(N.CANNON[z, s] for z, s in _SLOT_PAIRS if not ship.is_destroyed(z) and not ship.cannon(z, s))
    if card == "move":
        return _moves(ship)
    if card == "navigate":
        found = [N.NAVIGATE["ahead"]]
        if state.o > 0:
            found.append(N.NAVIGATE["back"])
        if state.pawn != seat:
            found.append(N.NAVIGATE["initiative"])
        return found
    if card == "swing":
        o = state.o
        return sorted(N.SWING[z] for z in ZONES if ship.sailors[z - 1] and opposite(o, z))
    if card == "fire":
        o = state.o
        return sorted(N.FIRE[z] for z in ZONES if ship.sailors[z - 1] and ship.cannon(z, 0) and opposite(o, z))
    if card == "promote":
        return sorted(N.PROMOTE[z] for z in ZONES if ship.sailors[z - 1])
    return []  # wait


_MOVES: Memo[Ship, list[str]] = Memo(50_000, "a ship")


def _moves(ship: Ship) -> list[str]:
    """Move options depend on the own ship alone, and the same ships recur, so they are memoised."""
    found = _MOVES.get(ship)
    if found is None:
        found = _MOVES.put(ship, _list_moves(ship))
    return list(found)


def _list_moves(ship: Ship) -> list[str]:
    free = [z for z in ZONES if not ship.is_destroyed(z)]
    found = []
    if ship.captain:
        found += [N.MOVE_CAPTAIN[ship.captain, b] for b in free if b != ship.captain]
    for a in ZONES:
        if ship.sailors[a - 1]:
            found += [N.MOVE_SAILOR[a, b] for b in free if b != a]
    if ship.cannons:
        empty = [(b, t) for b, t in _SLOT_PAIRS if not ship.cannons & bit(b, t) and not ship.is_destroyed(b)]
        for a, s in _SLOT_PAIRS:
            if ship.cannons & bit(a, s):
                found += [N.MOVE_CANNON[a, s, b, t] for b, t in empty]
    found.sort()
    return found


def has_option(state: TidesState, seat: int, card: str) -> bool:
    ship = state.ships[seat]
    if card == "navigate":
        return True
    if card == "wait":
        return False
    if card == "move":
        return bool(_moves(ship))
    if card == "sailor":
        return ship.sailors_held > 0 and ship.destroyed < 7
    if card == "cannon":
        return ship.cannons_held > 0 and any(
            not ship.is_destroyed(z) and not ship.cannon(z, s) for z, s in _SLOT_PAIRS)
    if card == "promote":
        return ship.sailors_on > 0
    if card == "swing":
        return any(ship.sailors[z - 1] and opposite(state.o, z) for z in ZONES)
    if card == "fire":
        return any(ship.sailors[z - 1] and ship.cannon(z, 0) and opposite(state.o, z) for z in ZONES)
    return False


def why_not(state: TidesState, seat: int, card: str, parsed: tuple) -> str | None:
    """None if `parsed` is legal for the resolving `card`; otherwise the rule that forbids it."""
    verb = parsed[0]
    wanted = N.VERB_CARD.get(verb)
    if wanted != card:
        shown = "Promote" if card == "promote" else card
        return f"seat {seat}'s resolving card is {shown}: only its options may be played now (Resolving a card)"
    ship = state.ships[seat]
    if verb == "sailor":
        z = parsed[1]
        if not ship.sailors_held:
            return "no sailor in the own hold (sailor: one sailor goes from the hold to zone z)"
        return _destroyed(ship, z)
    if verb == "cannon":
        z, s = parsed[1], parsed[2]
        if not ship.cannons_held:
            return "no cannon in the own hold (cannon: one cannon goes from the hold into a slot)"
        if ship.cannon(z, s):
            return f"slot {z}{('in', 'out')[s]} already holds a cannon (D4: at most one cannon per slot)"
        return _destroyed(ship, z)
    if verb == "move captain":
        a, b = parsed[1], parsed[2]
        if ship.captain != a:
            return f"the own captain is not on zone {a} (move captain a b: the captain must be on a)"
        return _destroyed(ship, b)
    if verb == "move sailor":
        a, b = parsed[1], parsed[2]
        if not ship.sailors[a - 1]:
            return f"no own sailor on zone {a} (move sailor a b: a sailor must be on a)"
        return _destroyed(ship, b)
    if verb == "move cannon":
        a, s, b, t = parsed[1:]
        if not ship.cannon(a, s):
            return f"no own cannon in slot {a}{('in', 'out')[s]} (move cannon: the cannon must be there)"
        if ship.cannon(b, t):
            return f"slot {b}{('in', 'out')[t]} already holds a cannon (D4: at most one cannon per slot)"
        return _destroyed(ship, b)
    if verb == "navigate":
        if parsed[1] == "back" and state.o == 0:
            return "navigate back needs o > 0 (D5: no sailing back behind the starting position)"
        if parsed[1] == "initiative" and state.pawn == seat:
            return f"seat {seat} already holds the initiative pawn (D5: initiative only without the pawn)"
        return None
    z = parsed[1]
    if not ship.sailors[z - 1]:
        what = "the captain never swings or fires" if ship.captain == z else "a sailor must be on z"
        return f"no own sailor on zone {z} ({verb} <z>: {what})"
    if verb == "promote":
        return None
    if verb == "fire" and not ship.cannon(z, 0):
        return f"no own cannon in slot {z}in (fire <z>: only a cannon in slot in fires, D4)"
    if not opposite(state.o, z):
        return f"zone {z} faces no enemy zone at o = {state.o} (zone i faces zone j when i + j = o + 2)"
    return None


def _destroyed(ship: Ship, z: int) -> str | None:
    if ship.is_destroyed(z):
        return f"zone {z} is destroyed (no unit may be placed on or moved onto a destroyed zone)"
    return None


def apply(state: TidesState, seat: int, parsed: tuple) -> TidesState:
    """The effect of one legal resolution action, then the win check (End of game)."""
    verb = parsed[0]
    ship = state.ships[seat]
    if verb == "sailor":
        return with_ship(state, seat, ship.add_sailors(parsed[1], 1))
    if verb == "cannon":
        return with_ship(state, seat, ship._replace(cannons=ship.cannons | bit(parsed[1], parsed[2])))
    if verb == "move captain":
        return with_ship(state, seat, ship._replace(captain=parsed[2]))
    if verb == "move sailor":
        return with_ship(state, seat, ship.add_sailors(parsed[1], -1).add_sailors(parsed[2], 1))
    if verb == "move cannon":
        a, s, b, t = parsed[1:]
        return with_ship(state, seat, ship._replace(cannons=ship.cannons ^ bit(a, s) ^ bit(b, t)))
    if verb == "navigate":
        if parsed[1] == "ahead":
            return state._replace(o=state.o + 1)
        if parsed[1] == "back":
            return state._replace(o=state.o - 1)
        return state._replace(pawn=seat)
    if verb == "promote":
        z = parsed[1]
        promoted = ship.add_sailors(z, -1)._replace(captain=z)
        return with_ship(state, seat, promoted)._replace(promo=pair(state.promo, seat, False))
    enemy = 1 - seat
    target = opposite(state.o, parsed[1])
    if verb == "swing":
        return _won(_swing(state, enemy, target))
    return _won(_fire(state, enemy, target))


def _swing(state: TidesState, enemy: int, y: int) -> TidesState:
    ship = state.ships[enemy]
    if ship.sailors[y - 1]:
        state = with_ship(state, enemy, ship.add_sailors(y, -1))
    elif ship.captain == y:
        state = with_ship(state, enemy, ship._replace(captain=0))._replace(promo=pair(state.promo, enemy, True))
    else:
        return state
    return state._replace(pawn=enemy)


def _fire(state: TidesState, enemy: int, y: int) -> TidesState:
    ship = state.ships[enemy]
    promo = state.promo
    if y == MAST_ZONE and ship.mast:
        ship = ship._replace(mast=False)
    elif ship.units_at(y):
        if ship.captain == y:
            promo = pair(promo, enemy, True)
        sailors = list(ship.sailors)
        sailors[y - 1] = 0
        ship = Ship(captain=0 if ship.captain == y else ship.captain, sailors=tuple(sailors),
                    cannons=ship.cannons & ~(bit(y, 0) | bit(y, OUT)), mast=ship.mast, skulls=ship.skulls)
    elif not ship.is_destroyed(y):
        ship = ship._replace(skulls=ship.skulls | 1 << (y - 1))
    else:
        return state
    return state._replace(ships=pair(state.ships, enemy, ship), promo=promo, pawn=enemy)


def loser(state: TidesState) -> tuple[int, str] | None:
    """The seat whose ship meets an end condition, with the reason; None while both play on."""
    for seat in (0, 1):
        ship = state.ships[seat]
        if state.intro:
            if ship.skulls:
                return seat, "zones"
            if not ship.captain:
                return seat, "captain"
        else:
            if ship.destroyed >= 3:
                return seat, "zones"
            if not ship.has_crew:
                return seat, "crew"
    return None


def _won(state: TidesState) -> TidesState:
    lost = loser(state)
    if lost is None:
        return state
    return state._replace(phase=OVER, winner=1 - lost[0], reason=lost[1], queue=())
