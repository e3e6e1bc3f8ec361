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
    """Every domestic offer text for one card vocabulary, in sorted order, with what it needs."""

    def __init__(self, names: tuple[str, ...], most: int):
        self.names = names
        self.most = most
        types = len(names)
        sets = all_multisets(types, most)
        pairs = []
        for give in sets:
            for get in sets:
                if sum(give) + sum(get) <= most and not any(a and b for a, b in zip(give, get, strict=True)):
                    prefix = f"offer {multiset_text(give, names)} for {multiset_text(get, names)} to "
                    pairs.append((prefix, give, get))
        pairs.sort()
        #: (text prefix ending in "to ", give, get), sorted by prefix: texts of one pair never
        #: interleave with another's, and "to <digit>" sorts before "to all"
        self.pairs: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...] = tuple(pairs)
        self._texts = lru_cache(maxsize=8192)(self._compute)

    def texts(self, me: int, hands: tuple[tuple[int, ...] | None, ...]) -> list[str]:
        """The offer texts seat `me` may make (sorted); `hands` per seat, None for a seat out of the
        game. Only counts up to `most` matter, so they are capped before the memo lookup."""
        most = self.most
        capped = tuple(None if h is None else tuple([c if c < most else most for c in h]) for h in hands)
        return self._texts(me, capped)

    def _compute(self, me: int, hands: tuple[tuple[int, ...] | None, ...]) -> list[str]:
        mine = hands[me]
        n = len(hands)
        others = [s for s in [(me + k) % n for k in range(1, n)] if hands[s] is not None]
        others.sort()
        out: list[str] = []
        for prefix, give, get in self.pairs:
            if not _fits(give, mine):
                continue
            found = False
            for s in others:
                if _fits(get, hands[s]):
                    out.append(prefix + str(s))
                    found = True
            if found:
                out.append(prefix + "all")
        return out


def _fits(part: tuple[int, ...], whole: tuple[int, ...] | None) -> bool:
    for a, b in zip(part, whole, strict=True):  # type: ignore[arg-type]
        if a > b:
            return False
    return True
