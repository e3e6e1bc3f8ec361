"""`MaskTexts` (engines/catan/listed.py) remembers a table's filtered texts per mask: every answer,
fresh or remembered, must be exactly the plain filter of that mask (a memo keyed on less than the
whole mask, or kept across a clear wrongly, would give another mask's texts)."""

from __future__ import annotations

import random

from engines.catan import listed
from engines.catan.listed import MaskTexts
from engines.catan.notation import Notation


def _plain(texts: tuple[str, ...], order: tuple[int, ...], mask: int) -> tuple[str, ...]:
    return tuple(texts[i] for i in order if mask >> i & 1)


def test_mask_texts_equal_the_plain_filter_fresh_and_remembered() -> None:
    n = Notation()
    table = MaskTexts(n.road, n.edge_order)
    rng = random.Random(7)
    # masks that share their low bits (a memo keyed on part of the mask would confuse them), repeated,
    # and enough of them to empty the memo at least once
    masks = [rng.getrandbits(72) for _ in range(300)]
    masks += [m ^ (1 << 71) for m in masks] + [0, (1 << 72) - 1, 1, 1 << 40]
    for _ in range(3):
        for mask in masks:
            assert table(mask) == _plain(n.road, n.edge_order, mask)
    for mask in range(listed._MEMO_MAX + 10):
        assert table(mask) == _plain(n.road, n.edge_order, mask)
    assert table(masks[0]) == _plain(n.road, n.edge_order, masks[0])


def test_mask_texts_come_in_the_texts_order() -> None:
    n = Notation()
    got = n.settles((1 << 2) | (1 << 10) | (1 << 53))
    assert got == ("settle 10", "settle 2", "settle 53") == tuple(sorted(got))
