"""Cities & Knights vocabulary (docs/rules/catan-ck.md, "Components"): the 8 card types, commodities, the
three improvement tracks and their decks, the 25 progress-card ids and the three 18-card decks.

Progress cards have one global index: their id's place in the alphabetical order over all 25 ids
(the order of a progress multiset). A card's index inside its own deck (the `deal` chance's value) is
its id's place in the alphabetical order of that deck's ids.
"""

from __future__ import annotations

from engines.catan.cards import RESOURCES

__all__ = [
    "CARD_DECK",
    "CARD_TOTALS",
    "COMMODITIES",
    "DECK_CARDS",
    "DECK_POOL",
    "DECKS",
    "NAMES",
    "PROGRESS",
    "TRACK_COMMODITY",
    "VP_CARDS",
]

#: card types of a hand, in canonical order: the 5 resources, then the commodities
COMMODITIES: tuple[str, ...] = ("cloth", "coin", "paper")
NAMES: tuple[str, ...] = RESOURCES + COMMODITIES
BRICK, LUMBER, WOOL, GRAIN, ORE, CLOTH, COIN, PAPER = range(8)

#: improvement tracks = progress decks = gate colours, in this order (event die 4, 5, 6)
DECKS: tuple[str, ...] = ("trade", "politics", "science")
TRADE, POLITICS, SCIENCE = range(3)
TRACK_COMMODITY: tuple[int, ...] = (CLOTH, COIN, PAPER)

_DECK_CONTENTS: dict[str, dict[str, int]] = {
    "science": {"alchemist": 2, "crane": 2, "engineer": 1, "inventor": 2, "irrigation": 2, "medicine": 2,
                "mining": 2, "printer": 1, "roadbuilding": 2, "smith": 2},
    "politics": {"bishop": 2, "constitution": 1, "deserter": 2, "diplomat": 2, "intrigue": 2, "saboteur": 2,
                 "spy": 3, "warlord": 2, "wedding": 2},
    "trade": {"commercialharbor": 2, "mastermerchant": 2, "merchant": 6, "merchantfleet": 2,
              "resourcemonopoly": 4, "trademonopoly": 2},
}

#: the 25 ids in alphabetical order (the global card index)
PROGRESS: tuple[str, ...] = tuple(sorted(i for d in _DECK_CONTENTS.values() for i in d))
P = {name: i for i, name in enumerate(PROGRESS)}
#: per global index: its deck, how many copies exist
CARD_DECK: tuple[int, ...] = tuple(next(d for d, name in enumerate(DECKS) if p in _DECK_CONTENTS[name])
                                   for p in PROGRESS)
CARD_TOTALS: tuple[int, ...] = tuple(_DECK_CONTENTS[DECKS[CARD_DECK[i]]][p] for i, p in enumerate(PROGRESS))
#: per deck: the global indices of its ids in the deck's canonical order (deal value -> global index)
DECK_CARDS: tuple[tuple[int, ...], ...] = tuple(tuple(P[p] for p in sorted(_DECK_CONTENTS[d])) for d in DECKS)
#: per global index: its index inside its deck
DECK_INDEX: tuple[int, ...] = tuple(DECK_CARDS[CARD_DECK[i]].index(i) for i in range(len(PROGRESS)))
#: per deck: the 18-card starting pool as a `deal` chance's pool (sorted deck-type indices)
DECK_POOL: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k, g in enumerate(DECK_CARDS[d]) for _ in range(CARD_TOTALS[g])) for d in range(3))
VP_CARDS: tuple[int, ...] = (P["printer"], P["constitution"])
#: per deck: a bit mask over global indices
DECK_MASK: tuple[int, ...] = tuple(sum(1 << g for g in DECK_CARDS[d]) for d in range(3))

ZERO25: tuple[int, ...] = (0,) * len(PROGRESS)

assert all(len(pool) == 18 for pool in DECK_POOL)


def progress_text(counts: tuple[int, ...]) -> str:
    """A progress multiset: `<count><id>` in alphabetical order joined by `+`."""
    return "+".join(f"{c}{PROGRESS[i]}" for i, c in enumerate(counts) if c)
