"""Trading (docs/rules/catan.md, "Trading"): maritime rates from harbours, and the tables of domestic offers.

Maritime: one card per action at the player's best rate for the given type (2 at its 2:1 harbour,
else 3 at any 3:1 harbour, else 4). Domestic: the offer texts are fixed once per card vocabulary
(every pair of non-empty multisets with no type in common and at most `most` cards together, 430 for
5 types and 4 cards), pre-sorted, and filtered by who holds what; the filtered list is memoised on
the hands capped at `most` cards per type, which is all the filter reads.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain, compress
from operator import getitem

from engines.catan.board import HARBOUR_NODE_MASK
from engines.catan.cards import all_multisets, multiset_text
from engines.memo import Memo

__all__ = ["OfferTable", "rates"]

#: hands (or capped hands) remembered per memo at most: C&K has 65,536 capped hands, and a mask is a few hundred bytes
_HANDS_KEPT = 20_000

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
    lists the games or plays another game should not pay for them.

    The filter works on big integers, one byte per offer pair and one bit per text, so that a list is
    cut out of the sorted table in a few C-level passes instead of a Python loop over every offer: for
    `n` seats, pair `p` (of `P`, in sorted order) is byte `p` of the mask's `P` big-endian bytes, and
    its text to seat `j` (`j = n`: "all") is bit `n - j` of that byte, so a byte's value says which of
    the pair's texts are listed (at most 7 seats: "all" and seats 0-6 fill a byte)."""

    def __init__(self, names: tuple[str, ...], most: int, seats: int = 7, memo: int = 8192):
        if seats > 7:
            raise ValueError("an offer table's pairs are bytes: at most 7 seats and the slot to all")
        self.names = names
        self.most = most
        self._seats = seats
        self._built = False
        self._caps: Memo[tuple[int, ...], tuple[int, ...]] = Memo(_HANDS_KEPT, "a hand")
        self._layouts: dict[int, _Layout] = {}
        self._texts = lru_cache(maxsize=memo)(self._compute)

    @property
    def count(self) -> int:
        """How many offer pairs (give, get) the vocabulary has."""
        self._build()
        return self._count

    def _build(self) -> None:
        if self._built:
            return
        names, most = self.names, self.most
        #: every non-empty multiset of at most `most` cards; an offer side is an index into it
        self.sets: tuple[tuple[int, ...], ...] = tuple(all_multisets(len(names), most))
        pairs = []
        for gi, give in enumerate(self.sets):
            for gj, get in enumerate(self.sets):
                if sum(give) + sum(get) <= most and not any(a and b for a, b in zip(give, get, strict=True)):
                    prefix = f"offer {multiset_text(give, names)} for {multiset_text(get, names)} to "
                    pairs.append((prefix, gi, gj))
        # Sorted by prefix: the texts of one pair never interleave with another's, and "to <digit>"
        # sorts before "to all".
        pairs.sort()
        self._pairs = tuple(pairs)
        self._count = len(pairs)
        self._built = True

    def texts(self, me: int, hands: tuple[tuple[int, ...] | None, ...]) -> list[str]:
        """The offer texts seat `me` may make (sorted); `hands` per seat, None for a seat out of the
        game. Only counts up to `most` matter, so they are capped before the memo lookup (each hand's
        capped form remembered: this runs for every main list)."""
        caps = self._caps
        return self._texts(me, tuple([None if h is None else caps.get(h) or self._cap(h) for h in hands]))

    def _cap(self, hand: tuple[int, ...]) -> tuple[int, ...]:
        most = self.most
        return self._caps.put(hand, tuple([c if c < most else most for c in hand]))

    def _layout(self, n: int) -> _Layout:
        found = self._layouts.get(n)
        if found is None:
            self._build()
            if n > self._seats:
                raise ValueError(f"offer tables are built for at most {self._seats} seats, not {n}")
            found = self._layouts[n] = _Layout(self, n)
        return found

    def _compute(self, me: int, hands: tuple[tuple[int, ...] | None, ...]) -> list[str]:
        n = len(hands)
        layout = self._layout(n)
        mine = layout.gives(hands[me])  # type: ignore[arg-type]
        if not mine:
            return []
        anyone = 0
        wanted = 0
        for t, h in enumerate(hands):
            if t != me and h is not None:
                held = layout.gets(h)
                anyone |= held
                wanted |= held >> t  # slot t: offers to seat t whose get side t holds
        wanted |= anyone >> n  # slot n: offers to all that somebody holds the get side of
        chosen = mine & wanted
        if not chosen:
            return []
        # one byte per pair: the chosen pairs' tables, indexed by the byte (which of their texts)
        picked = chosen.to_bytes(layout.pairs, "big")
        return list(chain.from_iterable(map(getitem, compress(layout.by_slots, picked), picked.translate(None, b"\0"))))


class _Layout:
    """An offer table's texts and masks for one number of seats (see `OfferTable`): per hand, the mask
    of the offers whose give side it holds (every slot) and of those whose get side it holds (slot 0),
    each memoised on the capped hand; per pair, its texts for each set of slots (`by_slots[p][b]`: the
    texts whose bits are set in the byte `b`, in order).

    A hand holds a side iff it holds enough of every type, so the pairs whose side it holds are the
    AND over the types `t` of the pairs whose side needs at most `hand[t]` cards of `t`: a hand's mask
    is a few big-integer ANDs from per-type tables (it was an OR over every side the hand holds, a
    Python loop over all of them, and hands change with every trade and roll)."""

    def __init__(self, table: OfferTable, n: int):
        self.table = table
        pairs = table._pairs
        self.pairs = len(pairs)
        slots = n + 1
        self.by_slots: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
            _by_slots((*(prefix + str(t) for t in range(n)), prefix + "all")) for prefix, _, _ in pairs)
        every_slot = (1 << slots) - 1
        to_seat_0 = 1 << n
        sets, most = table.sets, table.most
        # per type t and count c, one byte per pair (big-endian): the pairs whose give (get) side
        # needs at most c cards of t, with the give side's byte on every slot, the get side's on slot 0
        give = [[bytearray(self.pairs) for _ in range(most + 1)] for _ in table.names]
        get = [[bytearray(self.pairs) for _ in range(most + 1)] for _ in table.names]
        for p, (_, gi, gj) in enumerate(pairs):
            for t, (need_give, need_get) in enumerate(zip(sets[gi], sets[gj], strict=True)):
                for c in range(need_give, most + 1):
                    give[t][c][p] = every_slot
                for c in range(need_get, most + 1):
                    get[t][c][p] = to_seat_0
        self._give_at_most = tuple(tuple(int.from_bytes(b, "big") for b in row) for row in give)
        self._get_at_most = tuple(tuple(int.from_bytes(b, "big") for b in row) for row in get)
        self._gives: Memo[tuple[int, ...], int] = Memo(_HANDS_KEPT, "a capped hand")
        self._gets: Memo[tuple[int, ...], int] = Memo(_HANDS_KEPT, "a capped hand")

    def gives(self, hand: tuple[int, ...]) -> int:
        found = self._gives.get(hand)
        if found is None:
            found = self._gives.put(hand, _held(self._give_at_most, hand))
        return found

    def gets(self, hand: tuple[int, ...]) -> int:
        found = self._gets.get(hand)
        if found is None:
            found = self._gets.put(hand, _held(self._get_at_most, hand))
        return found


def _held(at_most: tuple[tuple[int, ...], ...], hand: tuple[int, ...]) -> int:
    """The pairs (as `at_most`'s bits) whose side the capped `hand` holds: enough of every type."""
    out = -1
    for t, c in enumerate(hand):
        out &= at_most[t][c]
    return out


def _by_slots(texts: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """For each byte value `b` below 2 ** len(texts): the texts `j` whose bit `len(texts) - 1 - j` is set."""
    top = len(texts) - 1
    return tuple(tuple(text for j, text in enumerate(texts) if b >> (top - j) & 1) for b in range(1 << len(texts)))

