"""Chance values from bytes: how protocol randomness (or a local seed) becomes dice, picks and deals.

Every driver goes through these functions, so a local game, a bot's lookahead, a networked peer and
the audit turn equal bytes into equal values. Integers are drawn by rejection sampling, never by `%`
alone, so no value is favoured.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engines.contract import Chance

__all__ = ["deal_from_bytes", "outcome_from_bytes", "remaining_cards", "uniform"]


def uniform(data: bytes, n: int) -> int:
    """An unbiased integer in 0..n-1 from protocol bytes, by rejection sampling.

    The bytes are read as a stream of big-endian words just wide enough for n (one spare byte); a
    word at or above the largest multiple of n is rejected. When the stream runs dry it is extended
    with SHA-256(data || counter), so every input gives an answer and equal inputs give equal answers.
    """
    if n < 1:
        raise ValueError("uniform() needs n >= 1")
    if n == 1:
        return 0
    width = max(1, ((n - 1).bit_length() + 7) // 8 + 1)
    span = 1 << (8 * width)
    limit = span - span % n
    stream = bytes(data)
    counter = 0
    pos = 0
    while True:
        while pos + width > len(stream):
            stream += hashlib.sha256(bytes(data) + counter.to_bytes(4, "big")).digest()
            counter += 1
        word = int.from_bytes(stream[pos : pos + width], "big")
        pos += width
        if word < limit:
            return word % n


def outcome_from_bytes(chance: Chance, data: bytes, remaining: tuple[int, ...] | None = None) -> Any:
    """The value of a chance point drawn from `data`: dice (one `uniform` per die over
    SHA-256("die" || index || data), so that the dice are independent), a pick (`uniform` over n), or
    a deal from the `remaining` cards of its deck (see `deal_from_bytes`)."""
    kind = chance.kind
    if kind == "dice":
        return tuple(
            1 + uniform(hashlib.sha256(b"die" + bytes([i]) + data).digest(), sides)
            for i, sides in enumerate(chance.sides)
        )
    if kind == "pick":
        return uniform(data, chance.n)
    if kind == "deal":
        if remaining is None:
            raise ValueError("a deal needs the deck's remaining cards (only a full-knowledge driver has them)")
        return deal_from_bytes(chance, data, remaining)
    raise ValueError(f"no outcome for chance kind {chance.kind!r}")


def deal_from_bytes(chance: Chance, data: bytes, remaining: tuple[int, ...]) -> int:
    """A card drawn uniformly among the *cards* left in the deck (not among card types): a type with
    14 copies left is 7 times as likely as one with 2. `remaining` is the sorted tuple of the types of
    the cards left; its length must be the `n` the engine announced."""
    if len(remaining) != chance.n or chance.n < 1:
        raise ValueError(f"deck {chance.deck!r} epoch {chance.epoch}: the engine says {chance.n} cards are left, "
                         f"the driver holds {len(remaining)}")
    return remaining[uniform(data, chance.n)]


def remaining_cards(pool: tuple[int, ...], dealt: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """The sorted types of the cards of `pool` not yet `dealt` (a multiset difference)."""
    left = list(pool)
    for card in dealt:
        try:
            left.remove(card)
        except ValueError:
            raise ValueError(f"card type {card} was dealt more often than the pool holds it") from None
    return tuple(sorted(left))
