"""A text table's texts for the set bits of a mask, in text order, remembered per mask.

The main list of every turn filters the board's text tables (settle, road, city, wall, knight
texts...) by a node or edge mask, with a Python loop over all 54 nodes or 72 edges each time (about
2 us a table). The masks change only when somebody builds, so the same few recur for many lists: the
filtered texts are a pure function of the mask, remembered per table (bounded: emptied when full).
"""

from __future__ import annotations

from engines.memo import Memo

__all__ = ["MaskTexts"]

#: masks remembered per table at most
_MEMO_MAX = 4096


class MaskTexts:
    """`texts[i]` for the bits `i` set in a mask, in the order `order` (the texts' string order)."""

    __slots__ = ("_memo", "_order", "_texts")

    def __init__(self, texts: tuple[str, ...], order: tuple[int, ...]):
        self._texts = texts
        self._order = order
        self._memo: Memo[int, tuple[str, ...]] = Memo(_MEMO_MAX, "a node or edge mask")

    def __call__(self, mask: int) -> tuple[str, ...]:
        memo = self._memo
        found = memo.get(mask)
        if found is None:
            texts = self._texts
            found = memo.put(mask, tuple([texts[i] for i in self._order if mask >> i & 1]))
        return found
