"""The Cities & Knights part of the state: `CKExt`, stored in the base `CatanState.ext`.

Everything here is public (in the digest) except `seen` (what a spy saw, known only to the spy's own
engine) ; the identities of each seat's progress cards live in the base state's `private` part, one
`PHand` or HIDDEN per seat. The public side mirrors what the rules derive from private parts: per seat
the publicly known ids it holds (`known`) and per deck the number of its undisclosed cards (`hidden`),
so every peer updates the public part the same way (docs/rules/catan-ck.md, "Secrets").
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engines.memo import Memo

__all__ = ["CKExt", "CKSeat", "PHand", "pack_ck_seat"]


class CKSeat(NamedTuple):
    """One seat's C&K pieces. Knights are node masks per level (`k1` basic, `k2` strong, `k3` mighty);
    `active`, `fresh` (activated this turn) and `promoted` (this turn) are node masks over them.
    `reduced` marks cities turned into settlements with no settlement piece in supply (the node is in
    the base settlements mask). `vpcards`: bit 0 printer, bit 1 constitution revealed."""

    k1: int = 0
    k2: int = 0
    k3: int = 0
    active: int = 0
    fresh: int = 0
    promoted: int = 0
    walls: int = 0
    levels: tuple[int, int, int] = (0, 0, 0)
    reduced: int = 0
    defender: int = 0
    vpcards: int = 0
    known: tuple[int, ...] = (0,) * 25
    hidden: tuple[int, int, int] = (0, 0, 0)

    def put(self, **fields: Any) -> CKSeat:
        values = list(self)
        for name, value in fields.items():
            values[_SEAT_INDEX[name]] = value
        return _new(CKSeat, values)

    def knights(self) -> int:
        return self.k1 | self.k2 | self.k3

    def level_at(self, node_bit: int) -> int:
        if self.k1 & node_bit:
            return 1
        if self.k2 & node_bit:
            return 2
        if self.k3 & node_bit:
            return 3
        return 0

    def strength(self, mask: int) -> int:
        """Sum of the levels of this seat's knights on the nodes of `mask`."""
        return (self.k1 & mask).bit_count() + 2 * (self.k2 & mask).bit_count() + 3 * (self.k3 & mask).bit_count()

    def cards(self) -> int:
        """Progress cards held (publicly known ones plus undisclosed ones)."""
        return sum(self.known) + sum(self.hidden)


class PHand(NamedTuple):
    """A seat's progress cards (counts per global id) and the card it was dealt last (-1: none)."""

    held: tuple[int, ...] = (0,) * 25
    drawn: int = -1


class CKExt(NamedTuple):
    """What only Cities & Knights has.

    `metro[t]` is the owner of track t's metropolis (-1: unowned), `metro_at[t]` its node. `pool` is
    the size of each deck's face-down pool, `epoch` its refill count and `epoch_pool` the composition
    the current epoch started with (a `deal` chance's pool). `under` counts the cards in the under
    piles per global id. `agenda` is the work still to do after the step under way (draws, gate draws,
    pillages, production, ...), `ctx` the current sub-step's data. `fleet` is the active player's
    merchant-fleet types (bit per card type), `harbored` the opponents already used by Commercial
    Harbor this turn (bit per seat), `commits` the knights committed so far in `defense=choose`.
    `seen` is private: per seat, what it saw with a spy as (target, counts), or None."""

    seats: tuple[CKSeat, ...]
    defense: str = "all"
    ship: int = 0
    attacked: bool = False
    metro: tuple[int, int, int] = (-1, -1, -1)
    metro_at: tuple[int, int, int] = (-1, -1, -1)
    merchant: int = -1
    merchant_owner: int = -1
    pool: tuple[int, int, int] = (18, 18, 18)
    epoch: tuple[int, int, int] = (0, 0, 0)
    epoch_pool: tuple[tuple[int, ...], ...] = ((), (), ())
    under: tuple[int, ...] = (0,) * 25
    agenda: tuple[tuple, ...] = ()
    ctx: tuple = ()
    fleet: int = 0
    harbored: int = 0
    commits: tuple[int, ...] = ()
    seen: tuple[Any, ...] = ()
    spy: str = "public"

    def put(self, **fields: Any) -> CKExt:
        values = list(self)
        for name, value in fields.items():
            values[_EXT_INDEX[name]] = value
        return _new(CKExt, values)

    def public(self) -> tuple:
        """Everything but `seen`, packed into a few byte strings (the canonical encoder's cost grows
        with the number of values): the seats, then one blob of the small numbers (see `pack_numbers`)."""
        return (b"".join([pack_ck_seat(x) for x in self.seats]), self.defense, self.spy, pack_numbers(self),
                self.agenda, self.ctx)

    def knights(self) -> int:
        """Every node holding a knight."""
        mask = 0
        for x in self.seats:
            mask |= x.k1 | x.k2 | x.k3
        return mask


_PACKED: Memo[CKSeat, bytes] = Memo(100_000, "a C&K seat's public values")


def pack_ck_seat(x: CKSeat) -> bytes:
    """A seat's public C&K values as bytes (memoised): 7 node masks of 7 bytes, then levels,
    defender points, VP cards, the 25 known counts and the 3 undisclosed counts (one byte each)."""
    found = _PACKED.get(x)
    if found is None:
        found = (b"".join(m.to_bytes(7, "big") for m in (x.k1, x.k2, x.k3, x.active, x.fresh, x.promoted, x.walls,
                                                           x.reduced))
                 + bytes((*x.levels, x.defender & 255, x.defender >> 8, x.vpcards, *x.known, *x.hidden)))
        _PACKED.put(x, found)
    return found


_PACKED_NUMBERS: Memo[tuple, bytes] = Memo(100_000, "the C&K numbers' fields, in `pack_numbers`' order")


def pack_numbers(x: CKExt) -> bytes:
    """ship, first attack, metropolis owners and nodes, merchant hex and owner (each + 1, one byte),
    pool sizes, epochs (two bytes each), merchant-fleet and harbor masks, the 25 under-pile counts,
    each epoch pool (length byte, then its entries) and the committed knight masks (7 bytes each)."""
    key = (x.ship, x.attacked, x.metro, x.metro_at, x.merchant, x.merchant_owner, x.pool, x.epoch, x.fleet,
           x.harbored, x.under, x.epoch_pool, x.commits)
    found = _PACKED_NUMBERS.get(key)
    if found is None:
        head = bytes((x.ship, int(x.attacked), *(v + 1 for v in x.metro), *(v + 1 for v in x.metro_at),
                      x.merchant + 1, x.merchant_owner + 1, x.fleet, x.harbored, *x.under))
        sizes = b"".join(v.to_bytes(2, "big") for v in (*x.pool, *x.epoch))
        pools = b"".join(bytes((len(p), *p)) for p in x.epoch_pool)
        commits = bytes((len(x.commits),)) + b"".join(m.to_bytes(7, "big") for m in x.commits)
        found = _PACKED_NUMBERS.put(key, head + sizes + pools + commits)
    return found


_new = tuple.__new__
_SEAT_INDEX = {name: i for i, name in enumerate(CKSeat._fields)}
_EXT_INDEX = {name: i for i, name in enumerate(CKExt._fields)}
