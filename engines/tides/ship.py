"""One ship: seven zones, the units on them, and how the two ships face each other.

Everything not on the ship is in the hold (there are 1 captain, 4 sailors and 4 cannons per seat),
so hold counts are derived rather than stored: they can never disagree with the ship.
Cannons are a 14-bit mask, bit 2*(z-1) for slot `in` and bit 2*(z-1)+1 for `out`, which makes
turning the ship (D3/D4: every cannon swaps slot) two shifts.
"""

from __future__ import annotations

from typing import NamedTuple

ZONES = (1, 2, 3, 4, 5, 6, 7)
MAST_ZONE = 4
SAILORS = 4
CANNONS = 4
IN, OUT = 0, 1
SLOTS = ("in", "out")
_IN_BITS = 0b01010101010101
ROUND_END = 13  # no zone faces another once o >= 13 (D2)


def columns(o: int) -> list[list[int]]:
    """Where each zone of each ship lies along the channel at offset o, in half-zone columns (Gold's
    zones, then Silver's): Gold's zone i at 2(8 - i) + o, Silver's zone j at 2(j + 6) - o, so two
    zones share a column exactly when they face each other (i + j = o + 2). Once the ships have
    parted (o >= ROUND_END) they stay where they were at ROUND_END - 1."""
    o = min(o, ROUND_END - 1)
    return [[2 * (8 - z) + o for z in range(1, 8)], [2 * (z + 6) - o for z in range(1, 8)]]


def bit(zone: int, slot: int) -> int:
    return 1 << (2 * (zone - 1) + slot)


def opposite(o: int, zone: int) -> int:
    """The enemy zone facing `zone` at offset o, or 0 when it faces nothing (i + j = o + 2)."""
    other = o + 2 - zone
    return other if 1 <= other <= 7 else 0


class Ship(NamedTuple):
    """`captain` is its zone (0: in the hold); `sailors` counts per zone 1..7; `skulls` a 7-bit mask."""

    captain: int
    sailors: tuple[int, ...]
    cannons: int
    mast: bool
    skulls: int

    @property
    def sailors_on(self) -> int:
        return sum(self.sailors)

    @property
    def sailors_held(self) -> int:
        return SAILORS - sum(self.sailors)

    @property
    def cannons_held(self) -> int:
        return CANNONS - self.cannons.bit_count()

    @property
    def destroyed(self) -> int:
        return self.skulls.bit_count()

    @property
    def has_crew(self) -> bool:
        return self.captain != 0 or any(self.sailors)

    def is_destroyed(self, zone: int) -> bool:
        return bool(self.skulls >> (zone - 1) & 1)

    def cannon(self, zone: int, slot: int) -> bool:
        return bool(self.cannons & bit(zone, slot))

    def sailors_at(self, zone: int) -> int:
        return self.sailors[zone - 1]

    def units_at(self, zone: int) -> bool:
        """Captain, sailors or cannons on the zone (the mast is not counted: D9 treats it first)."""
        return self.captain == zone or self.sailors[zone - 1] > 0 or bool(self.cannons & (3 << 2 * (zone - 1)))

    def add_sailors(self, zone: int, by: int) -> Ship:
        sailors = list(self.sailors)
        sailors[zone - 1] += by
        return self._replace(sailors=tuple(sailors))

    def turned(self) -> Ship:
        """The ship after turning 180 degrees: every cannon swaps `in` and `out`."""
        c = self.cannons
        return self._replace(cannons=((c & _IN_BITS) << 1) | ((c >> 1) & _IN_BITS))

    def view(self, o: int) -> dict:
        zones = []
        for z in ZONES:
            zones.append({
                "zone": z,
                "captain": self.captain == z,
                "sailors": self.sailors[z - 1],
                "cannons": [slot for s, slot in enumerate(SLOTS) if self.cannon(z, s)],
                "mast": self.mast and z == MAST_ZONE,
                "destroyed": self.is_destroyed(z),
                "faces": opposite(o, z) or None,
            })
        return {
            "zones": zones,
            "hold": {"captain": int(self.captain == 0), "sailors": self.sailors_held, "cannons": self.cannons_held},
            "mast": self.mast,
            "skulls": self.destroyed,
            "crew": int(self.captain != 0) + self.sailors_on,
        }


def setup_ship(seat: int) -> Ship:
    """Setup: captain on zone 3 (Gold) or 6 (Silver); sailors on 4 and 5; a cannon in 5out; mast on 4."""
    return Ship(captain=3 if seat == 0 else 6, sailors=(0, 0, 0, 1, 1, 0, 0), cannons=bit(5, OUT), mast=True,
                skulls=0)
