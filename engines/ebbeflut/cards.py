"""The 50 play cards as small integers, so piles, pools and the digest are plain int tuples.

A card id is `25 * colour + rank` with colour 0 = Ebbe, 1 = Flut and rank = 5 * letter + (number - 1)
(D4). Sorting ids therefore lists every Ebbe card in card order before every Flut card, which is
exactly the order of the solo chance point's list, and within one colour it is the card order of the
two-player chance point.
"""

from __future__ import annotations

EBBE, FLUT = 0, 1
COLOURS = ("ebbe", "flut")
COLOUR_NAMES = ("Ebbe", "Flut")
PREFIX = ("E", "F")
LETTERS = "ABCDE"

ALL = tuple(range(50))
#: each colour's 25 cards in card order
OWN = (tuple(range(25)), tuple(range(25, 50)))


def colour(card: int) -> int:
    return card // 25


def rank(card: int) -> int:
    return card % 25


def face(card: int) -> str:
    """Letter and number, e.g. "C3", the way the cards are printed."""
    r = card % 25
    return f"{LETTERS[r // 5]}{r % 5 + 1}"


def name(card: int) -> str:
    """The spec's written form with a colour prefix, e.g. "E:C3" or "F:B4"."""
    return f"{PREFIX[card // 25]}:{face(card)}"


def parse(text: str) -> int:
    """"E:C3" back into a card id; ValueError for anything else."""
    if len(text) != 4 or text[1] != ":" or text[0] not in PREFIX or text[2] not in LETTERS \
            or text[3] not in "12345":
        raise ValueError(f"not a card: {text!r} (expected e.g. E:C3 or F:B4)")
    return 25 * PREFIX.index(text[0]) + 5 * LETTERS.index(text[2]) + int(text[3]) - 1


def _key(card: int) -> int:
    r = card % 25
    return (1 << (10 * (card // 25) + r // 5)) | (1 << (10 * (card // 25) + 5 + r % 5))


#: one bit for the card's (colour, letter) and one for its (colour, number): two cards can stand in
#: conflict exactly when their keys overlap (D3). The extra last entry 0 is the key of "no card" (-1),
#: so an empty cell can be looked up without a branch.
KEYS: tuple[int, ...] = tuple(_key(c) for c in ALL) + (0,)
