"""Action texts (docs/rules/catan.md, "Actions and notation"): parsing into small tuples, and the canonical
texts `legal()` lists, built once.

Only canonical texts parse: single spaces, lower case, decimal numbers without sign or leading zeros,
multisets in canonical order. A text that does not parse is refused with the list of forms. The parse
of a text is memoised, because self-play repeats the same few thousand texts millions of times.

`Notation` takes the card type names, so Cities & Knights (8 types, more verbs) subclasses it and
adds its verbs in `_parse_verb`.
"""

from __future__ import annotations

from typing import Any

from engines.catan.cards import DEV_CARDS, RESOURCES, multiset_text, multiset_words, parse_multiset
from engines.catan.listed import MaskTexts
from engines.memo import Memo

__all__ = ["FORMS", "Notation", "number"]

FORMS = ("settle <node>, road <edge>, city <node>, buy, play knight, play roadbuilding, "
         "play yearofplenty <cards>, play monopoly <resource>, roll, discard <cards>, robber h<hex>, steal <seat>, "
         "trade <r><type> for 1<type>, offer <cards> for <cards> to <seat>|all, accept, decline, confirm <seat>, "
         "cancel, end, claim <k>, reveal <k>")

_WORDS = ("buy", "roll", "end", "accept", "decline", "cancel")
_NUMBERED = ("settle", "road", "city", "steal", "confirm", "claim", "reveal")


def number(text: str) -> int | None:
    """A canonical decimal (no sign, no leading zero, ASCII digits only), or None."""
    if not text or not text.isascii() or not text.isdigit() or (text[0] == "0" and len(text) > 1):
        return None
    return int(text)


class Notation:
    """Parser and text tables for one set of card type names."""

    def __init__(self, names: tuple[str, ...] = RESOURCES):
        self.names = names
        #: a parse is a pure function of the text (None included: not an action)
        self._memo: Memo[Any, tuple | None] = Memo(100_000, "an action text")
        self.settle = tuple(f"settle {n}" for n in range(54))
        self.road = tuple(f"road {e}" for e in range(72))
        self.city = tuple(f"city {n}" for n in range(54))
        self.robber = tuple(f"robber h{h}" for h in range(19))
        self.steal = tuple(f"steal {s}" for s in range(8))
        self.confirm = tuple(f"confirm {s}" for s in range(8))
        self.claim = tuple(f"claim {k}" for k in range(26))
        self.reveal = tuple(f"reveal {k}" for k in range(26))
        #: node and edge numbers in the string order of their texts, so filtered lists come out sorted
        self.node_order = tuple(sorted(range(54), key=str))
        self.edge_order = tuple(sorted(range(72), key=str))
        self.hex_order = tuple(sorted(range(19), key=str))
        #: the filtered lists of the board tables, per node or edge mask
        self.settles = MaskTexts(self.settle, self.node_order)
        self.roads = MaskTexts(self.road, self.edge_order)
        self.cities = MaskTexts(self.city, self.node_order)

    def cards(self, counts: tuple[int, ...]) -> str:
        return multiset_text(counts, self.names)

    def words(self, counts: tuple[int, ...]) -> str:
        """The cards as a sentence says them (`1 brick and 2 wool`), for the move log's words."""
        return multiset_words(counts, self.names)

    def parse(self, text: Any) -> tuple | None:
        """The parsed action, e.g. ("road", 19), ("offer", give, get, -1, shared, size), or None."""
        memo = self._memo
        found = memo.get(text)
        if found is not None or text in memo:
            return found
        if not isinstance(text, str):
            return None
        return memo.put(text, self._parse(text))

    def _parse(self, text: str) -> tuple | None:
        words = text.split(" ")
        verb = words[0]
        if len(words) == 1:
            return (verb,) if verb in _WORDS else None
        if verb in _NUMBERED and len(words) == 2:
            k = number(words[1])
            return None if k is None else (verb, k)
        if verb == "robber" and len(words) == 2 and words[1][:1] == "h":
            h = number(words[1][1:])
            return None if h is None else ("robber", h)
        if verb == "discard" and len(words) == 2:
            cards = parse_multiset(words[1], self.names)
            return None if cards is None else ("discard", cards)
        if verb == "play":
            return self._parse_play(words)
        if verb == "trade" and len(words) == 4 and words[2] == "for":
            give, get = parse_multiset(words[1], self.names), parse_multiset(words[3], self.names)
            return None if give is None or get is None else ("trade", give, get)
        if verb == "offer" and len(words) == 6 and words[2] == "for" and words[4] == "to":
            give, get = parse_multiset(words[1], self.names), parse_multiset(words[3], self.names)
            to = -1 if words[5] == "all" else number(words[5])
            if give is None or get is None or to is None:
                return None
            # whether the sides share a type, and the cards in all: what every check of an offer reads
            shared = any(a and b for a, b in zip(give, get, strict=True))
            return ("offer", give, get, to, shared, sum(give) + sum(get))
        return self._parse_verb(words)

    def _parse_play(self, words: list[str]) -> tuple | None:
        if len(words) < 2 or words[1] not in DEV_CARDS:
            return None
        card = DEV_CARDS.index(words[1])
        if len(words) == 2:
            return ("play", card, None) if words[1] in ("knight", "roadbuilding") else None
        if len(words) != 3:
            return None
        if words[1] == "monopoly" and words[2] in RESOURCES:
            return ("play", card, RESOURCES.index(words[2]))
        if words[1] == "yearofplenty":
            cards = parse_multiset(words[2], RESOURCES)
            return None if cards is None else ("play", card, cards)
        return None

    def _parse_verb(self, words: list[str]) -> tuple | None:
        """Verbs of an extension (Cities & Knights); the base game has none left."""
        return None
