"""The play cards as data: names, the Hierarchy (card -> level), and multisets of cards.

A multiset of cards is a tuple of 7 counts indexed in canonical card order (D28), so that a deck
index, a card list text and a digest all follow the same plain alphabetical order.
"""

from __future__ import annotations

from collections.abc import Iterator

CARDS = ("cannon", "fire", "move", "navigate", "sailor", "swing", "wait")
INDEX = {name: i for i, name in enumerate(CARDS)}
CANNON, FIRE, MOVE, NAVIGATE, SAILOR, SWING, WAIT = range(7)
PROMOTE = "promote"

#: resolution order (D1): the lower level resolves first; equal levels go to the pawn holder first
HIERARCHY: dict[str, int] = {
    "wait": 1,
    "sailor": 2,
    "cannon": 2,
    "move": 3,
    "navigate": 4,
    "swing": 5,
    "fire": 5,
    PROMOTE: 6,
}

Counts = tuple[int, int, int, int, int, int, int]

EMPTY: Counts = (0, 0, 0, 0, 0, 0, 0)
#: the 12 cards each seat owns
OWNED: Counts = (2, 3, 1, 1, 2, 2, 1)
#: setup (Setup): hand, deck and exchange cards of either seat
START_HAND: Counts = (0, 0, 0, 0, 0, 0, 1)
START_DECK: Counts = (2, 1, 1, 1, 1, 1, 0)
START_EXCHANGE: Counts = (0, 2, 0, 0, 1, 1, 0)
#: the intro game (D13): the exchange fires are a reserve, the other two exchange cards are out
INTRO_RESERVE = 2
INTRO_OUT: Counts = (0, 0, 0, 0, 1, 1, 0)


def size(counts: Counts) -> int:
    return sum(counts)


def add(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def sub(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def bump(counts: Counts, card: int, by: int) -> Counts:
    """`counts` with one card's count changed; the hot path of draws, picks and discards."""
    as_list = list(counts)
    as_list[card] += by
    return tuple(as_list)  # type: ignore[return-value]


def fits(part: Counts, whole: Counts) -> bool:
    return all(p <= w for p, w in zip(part, whole, strict=True))


def names(counts: Counts) -> list[str]:
    """The cards written out in canonical order, repeats included."""
    return [CARDS[i] for i, n in enumerate(counts) for _ in range(n)]


def text(counts: Counts) -> str:
    """The notation of a card list: comma-separated, canonical order, no spaces."""
    return ",".join(names(counts))


def parse_list(words: str) -> Counts | None:
    """A card list text back into counts; None unless it is written exactly canonically."""
    if not words:
        return None
    parts = words.split(",")
    counts = [0] * 7
    last = -1
    for part in parts:
        card = INDEX.get(part)
        if card is None or card < last:
            return None
        counts[card] += 1
        last = card
    return tuple(counts)  # type: ignore[return-value]


def nth(counts: Counts, index: int) -> int:
    """The card at `index` of the multiset listed in canonical order (the draw rule, Chance)."""
    for card, n in enumerate(counts):
        if index < n:
            return card
        index -= n
    raise IndexError(index)


def submultisets(counts: Counts, k: int) -> Iterator[Counts]:
    """Every multiset of exactly k cards within `counts`, each once."""

    def walk(card: int, left: int, acc: list[int]) -> Iterator[Counts]:
        if card == 7:
            if left == 0:
                yield tuple(acc)  # type: ignore[misc]
            return
        rest = sum(counts[card + 1:])
        for take in range(min(left, counts[card]), -1, -1):
            if left - take > rest:
                break
            acc.append(take)
            yield from walk(card + 1, left - take, acc)
            acc.pop()

    yield from walk(0, k, [])


def from_names(cards: list[str]) -> Counts:
    """Counts from card names in any order (a view's card lists)."""
    counts = [0] * 7
    for name in cards:
        counts[INDEX[name]] += 1
    return tuple(counts)  # type: ignore[return-value]


def unplaced(discard: Counts, exchange: Counts, out: Counts, reserve: int) -> Counts:
    """Hand, deck and damage cards together, minus `wait`: the cards whose place is not public (the
    Public check), from a seat's open piles alone. Picks are checked before they leave the hand, so
    none is pending here."""
    counts = list(OWNED)
    for i in range(6):
        counts[i] -= discard[i] + exchange[i] + out[i]
    counts[FIRE] -= reserve
    counts[WAIT] = 0
    return tuple(counts)  # type: ignore[return-value]


def describe(counts: Counts) -> str:
    """Cards for a reason text: `fire, move` or `nothing`."""
    return ", ".join(names(counts)) or "nothing"
