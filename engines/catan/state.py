"""The Catan state: one frozen value, a public part every peer shares plus a private part per seat.

The state is a `NamedTuple` of small values (tuples, ints, bit masks), so a step copies only what it
changes: a new `Seat` for the seats it touches and a new top-level tuple. The private part of a seat
(the identities of its development cards, `DevHand`) is either known or the `HIDDEN` stand-in on a
peer that does not own it; everything the rules derive from it is mirrored in public counts (`Seat.dev_n`,
`Seat.dev_new`), which every peer updates the same way, so the digest over `public()` agrees.

Cities & Knights keeps this shape: its hands have 8 counts, and what only it has (knights, walls,
improvements, progress cards, barbarians) lives in `ext`, a value of its own (None in the base game).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engines.catan.board import Layout
from engines.contract import HIDDEN
from engines.memo import Memo

__all__ = [
    "CONFIRM",
    "DEAL",
    "DISCARD",
    "FINAL_REVEAL",
    "FREE_ROAD",
    "HARBOUR",
    "MAIN",
    "OVER",
    "PRE_ROLL",
    "RESPOND",
    "ROBBER",
    "ROLL",
    "SETUP_ROAD",
    "SETUP_SETTLE",
    "SPIRAL",
    "STEAL",
    "STEAL_PICK",
    "TERRAIN",
    "CatanState",
    "DevHand",
    "Offer",
    "Seat",
    "pack_layout",
    "pack_seat",
]

# Steps (docs/rules/catan.md, "Steps"); the names are shown in `view`. TERRAIN, SPIRAL, HARBOUR, ROLL,
# STEAL_PICK and DEAL wait for chance; OVER waits for nothing; every other step for one seat.
TERRAIN, SPIRAL, HARBOUR = "terrain", "spiral", "harbour"
SETUP_SETTLE, SETUP_ROAD = "setup-settle", "setup-road"
PRE_ROLL, ROLL, DISCARD, ROBBER, STEAL, STEAL_PICK = "pre-roll", "roll", "discard", "robber", "steal", "steal-pick"
MAIN, FREE_ROAD, RESPOND, CONFIRM, DEAL = "main", "free-road", "respond", "confirm", "deal"
FINAL_REVEAL, OVER = "final-reveal", "over"


class Seat(NamedTuple):
    """One seat as everybody sees it. Buildings and roads are bit masks over node and edge numbers;
    `road_len` is kept up to date by the rules (it changes only when roads or buildings do);
    `dev_n`/`dev_new` count the development cards held and bought this turn; `revealed` is the
    number of `victorypoint` cards shown at `claim`/`reveal` (-1: not yet)."""

    hand: tuple[int, ...]
    settlements: int = 0
    cities: int = 0
    roads: int = 0
    road_len: int = 0
    knights: int = 0
    dev_n: int = 0
    dev_new: int = 0
    revealed: int = -1

    def put(self, **fields: Any) -> Seat:
        """A copy with `fields` replaced: `_replace` without its checks, about twice as fast (this is
        the hot path of every step)."""
        values = list(self)
        index = _SEAT_INDEX
        for name, value in fields.items():
            values[index[name]] = value
        return _new(Seat, values)


class DevHand(NamedTuple):
    """A seat's development cards by type (canonical order), and those of them bought this turn."""

    held: tuple[int, ...] = (0, 0, 0, 0, 0)
    new: tuple[int, ...] = (0, 0, 0, 0, 0)


class Offer(NamedTuple):
    """A domestic offer under way: the offerer's `give` for `get`, addressed to seat `to` (-1: all),
    and the answers so far in the order they were given."""

    give: tuple[int, ...]
    get: tuple[int, ...]
    to: int
    accepted: tuple[int, ...] = ()
    declined: tuple[int, ...] = ()

    def put(self, **fields: Any) -> Offer:
        """A copy with `fields` replaced: `_replace` without its checks, about twice as fast (this is
        the hot path of every step)."""
        values = list(self)
        index = _OFFER_INDEX
        for name, value in fields.items():
            values[index[name]] = value
        return _new(Offer, values)


class CatanState(NamedTuple):
    """The whole game.

    `active` is the seat whose turn it is (during set-up: the placing seat); `queue` the seats still
    to act in a step that several seats take one after another (discard, respond, final reveal), its
    head the seat to act. `setup` indexes the snake order of initial placement; `spot` is the node
    of the settlement just placed (setup-road); `victim` the seat being robbed; `back` the step a
    knight or road building returns to; `free` the free roads left. `played` counts the development
    cards played per type; `deck` the cards left. `private` holds one `DevHand` or HIDDEN per seat,
    `gone` the development cards that left the game with resigned seats (HIDDEN once one of them was
    unknown); neither is public.
    """

    n: int
    board: str
    domestic: bool
    max_rounds: int
    layout: Layout
    step: str
    active: int
    queue: tuple[int, ...]
    robber: int
    seats: tuple[Seat, ...]
    bank: tuple[int, ...]
    deck: int
    played: tuple[int, ...]
    longest: int
    largest: int
    turn: int
    round: int
    setup: int
    spot: int
    victim: int
    back: str
    free: int
    dev_played: bool
    offers: int
    offer: Offer | None
    dice: tuple[int, ...]
    out: tuple[int, ...]
    claimant: int
    reason: str
    private: tuple[Any, ...]
    gone: Any
    ext: Any = None

    def put(self, **fields: Any) -> CatanState:
        """A copy with `fields` replaced: `_replace` without its checks, about twice as fast (this is
        the hot path of every step)."""
        values = list(self)
        index = _STATE_INDEX
        for name, value in fields.items():
            values[index[name]] = value
        return _new(CatanState, values)

    def public(self) -> tuple:
        """Everything but the private parts: what the digest covers. The layout and the seats go in
        packed as bytes (`pack_layout`, `pack_seat`, memoised): every peer digests every frame, and
        the canonical encoder's cost grows with the number of values, not their size."""
        ext = self.ext
        return (self.n, self.board, self.domestic, self.max_rounds, pack_layout(self.layout), self.step, self.active,
                self.queue, self.robber, tuple([pack_seat(seat) for seat in self.seats]), self.bank, self.deck,
                self.played, self.longest, self.largest, self.turn, self.round, self.setup, self.spot, self.victim,
                self.back, self.free, self.dev_played, self.offers, self.offer, self.dice, self.out, self.claimant,
                self.reason,
                None if ext is None else ext.public())

    def known(self, seat: int) -> DevHand | None:
        mine = self.private[seat]
        return None if mine is HIDDEN else mine

    def alive(self) -> tuple[int, ...]:
        """The seats still in the game, in seat order."""
        out = self.out
        return tuple(s for s in range(self.n) if s not in out) if out else _ALL[self.n]

    def to_act(self) -> int:
        """The seat to act now (-1 while chance is awaited or the game is over)."""
        step = self.step
        if step in _QUEUED:
            return self.queue[0] if self.queue else -1
        if step in _CHANCE or step == OVER:
            return -1
        return self.active


_PACKED_SEATS: Memo[Seat, bytes] = Memo(100_000, "a seat's public values")
_PACKED_LAYOUTS: Memo[Layout, bytes] = Memo(10_000, "a board layout")


def pack_seat(seat: Seat) -> bytes:
    """A seat's public values as bytes: hand counts, the three masks (7, 7 and 9 bytes), then road
    length, knights, development cards held and bought this turn, revealed + 1 (one byte each)."""
    found = _PACKED_SEATS.get(seat)
    if found is None:
        found = (bytes(seat.hand) + seat.settlements.to_bytes(7, "big") + seat.cities.to_bytes(7, "big")
                 + seat.roads.to_bytes(9, "big")
                 + bytes((seat.road_len, seat.knights, seat.dev_n, seat.dev_new, seat.revealed + 1)))
        _PACKED_SEATS.put(seat, found)
    return found


def pack_layout(layout: Layout) -> bytes:
    """Terrain, numbers and harbour types, each preceded by its length (a random board is laid in steps)."""
    found = _PACKED_LAYOUTS.get(layout)
    if found is None:
        found = _PACKED_LAYOUTS.put(layout, b"".join(bytes((len(part), *part)) for part in layout))
    return found


_new = tuple.__new__
_SEAT_INDEX = {name: i for i, name in enumerate(Seat._fields)}
_OFFER_INDEX = {name: i for i, name in enumerate(Offer._fields)}
_STATE_INDEX = {name: i for i, name in enumerate(CatanState._fields)}
_ALL = {n: tuple(range(n)) for n in range(1, 7)}
_QUEUED = frozenset((DISCARD, RESPOND, FINAL_REVEAL))
_CHANCE = frozenset((TERRAIN, SPIRAL, HARBOUR, ROLL, STEAL_PICK, DEAL))
