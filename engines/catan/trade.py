"""Trading (rules/catan.md, "Trading"): maritime rates from harbours, and the tables of domestic offers.

Maritime: one card per action at the player's best rate for the given type (2 at its 2:1 harbour,
else 3 at any 3:1 harbour, else 4). Domestic: the offer texts are fixed once per card vocabulary
(every pair of non-empty multisets with no type in common and at most `most` cards together, 430 for
5 types and 4 cards), pre-sorted, and filtered by who holds what; the filtered list is memoised on
the hands capped at `most` cards per type, which is all the filter reads.
"""

from __future__ import annotations

from functools import lru_cache

from engines.catan.board import HARBOUR_NODE_MASK
from engines.catan.cards import all_multisets, multiset_text

__all__ = ["OfferTable", "rates"]

_ALL_HARBOUR_NODES = 0
for _m in HARBOUR_NODE_MASK:
    _ALL_HARBOUR_NODES |= _m


def rates(buildings: int, harbours: tuple[int, ...], types: int = 5) -> tuple[int, ...]:
    """The best maritime rate per card type for a player whose settlements and cities are the node
    mask `buildings` (harbour type 0 is 3:1, type 1 + i is 2:1 for card type i)."""
    return _rates(buildings & _ALL_HARBOUR_NODES, harbours, types)


@lru_cache(maxsize=4096)
def _rates(touching: int, harbours: tuple[int, ...], types: int) -> tuple[int, ...]:
    generic = False
    special = [False] * types
    for j, mask in enumerate(HARBOUR_NODE_MASK):
        if touching & mask and j < len(harbours):
            kind = harbours[j]
            if kind == 0:
                generic = True
            elif kind - 1 < types:
                special[kind - 1] = True
    default = 3 if generic else 4
    return tuple(2 if special[i] else default for i in range(types))


class OfferTable:
    """Every domestic offer text for one card vocabulary, in sorted order, with what it needs.

    Built on first use, not at import: the tables take tens of milliseconds, and a command that
    lists the games or plays another game should not pay for them."""

    def __init__(self, names: tuple[str, ...], most: int, seats: int = 8, memo: int = 8192):
        self.names = names
        self.most = most
        self._seats = seats
        self._built = False
        self._holds: dict[tuple[int, ...], int] = {}
        self._texts = lru_cache(maxsize=memo)(self._compute)

    @property
    def count(self) -> int:
        """How many offer pairs (give, get) the vocabulary has."""
        self._build()
        return self._count

    def _build(self) -> None:
        if self._built:
            return
        names, most, seats = self.names, self.most, self._seats
        #: every non-empty multiset of at most `most` cards; an offer side is an index into it
        self.sets: tuple[tuple[int, ...], ...] = tuple(all_multisets(len(names), most))
        pairs = []
        for gi, give in enumerate(self.sets):
            for gj, get in enumerate(self.sets):
                if sum(give) + sum(get) <= most and not any(a and b for a, b in zip(give, get, strict=True)):
                    prefix = f"offer {multiset_text(give, names)} for {multiset_text(get, names)} to "
                    pairs.append((prefix, gi, gj))
        # Sorted by prefix: the texts of one pair never interleave with another's, those of one give
        # are contiguous, and "to <digit>" sorts before "to all".
        pairs.sort()
        blocks: list[tuple[int, list[tuple[int, tuple[str, ...]]]]] = []
        for prefix, gi, gj in pairs:
            if not blocks or blocks[-1][0] != gi:
                blocks.append((gi, []))
            blocks[-1][1].append((1 << gj, (*(prefix + str(t) for t in range(seats)), prefix + "all")))
        self._count = len(pairs)
        self._blocks = tuple((gi, tuple(entries)) for gi, entries in blocks)
        # per type t and count c: the sides needing at most c cards of t; a hand holds the AND over types
        self._at_most = tuple(tuple(sum(1 << j for j, part in enumerate(self.sets) if part[t] <= c)
                                    for c in range(most + 1)) for t in range(len(names)))
        self._built = True

    def holds(self, hand: tuple[int, ...]) -> int:
        """Bit j set iff `hand` (capped at `most` per type) holds offer side j."""
        found = self._holds.get(hand)
        if found is None:
            self._build()
            found = -1
            for t, c in enumerate(hand):
                found &= self._at_most[t][c]
            self._holds[hand] = found
        return found

    def texts(self, me: int, hands: tuple[tuple[int, ...] | None, ...]) -> list[str]:
        """The offer texts seat `me` may make (sorted); `hands` per seat, None for a seat out of the
        game. Only counts up to `most` matter, so they are capped before the memo lookup."""
        most = self.most
        capped = tuple(None if h is None else tuple([c if c < most else most for c in h]) for h in hands)
        return self._texts(me, capped)

    def _compute(self, me: int, hands: tuple[tuple[int, ...] | None, ...]) -> list[str]:
        self._build()
        mine = self.holds(hands[me])  # type: ignore[arg-type]
        others = [(t, self.holds(h)) for t, h in enumerate(hands) if t != me and h is not None]
        anyone = 0
        for _, held in others:
            anyone |= held
        out: list[str] = []
        append = out.append
        for gi, entries in self._blocks:
            if not mine >> gi & 1:
                continue
            for bit, texts in entries:
                if anyone & bit:  # most gets nobody holds: one test rejects them
                    for t, held in others:
                        if held & bit:
                            append(texts[t])
                    append(texts[-1])
        return out
