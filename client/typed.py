"""What a person types for an action, turned into the engine's own text: cards written as people
write them (`offer 1 brick and 2 wood for ore to 2`, `discard 2 sheep, 1 ore`, `trade brick for wool`)
become the canonical multisets of the notation (`offer 1brick+2lumber for 1ore to 2`). The result is
only ever one of the legal texts handed in: nothing here decides a rule, it finds the legal text a
typed line means, or says it found none.

The card vocabulary is the game's own (engines.catan.cards, engines.catan_ck.cards), with the names
players use on colonist.io and at the table (wood, sheep, wheat, clay, stone) and plurals.
"""

from __future__ import annotations

import re
from itertools import product

from engines.catan.cards import RESOURCES, multiset_text
from engines.catan_ck.cards import NAMES as CK_NAMES

__all__ = ["CARD_NAMES", "card_words", "meant", "spellings"]

#: the card types of each game whose actions name cards, in the notation's canonical order
CARD_NAMES: dict[str, tuple[str, ...]] = {"catan": RESOURCES, "catan-ck": CK_NAMES}

_ALIASES = {"wood": "lumber", "sheep": "wool", "wheat": "grain", "clay": "brick", "stone": "ore", "rock": "ore",
            "rocks": "ore", "ores": "ore", "woods": "lumber", "bricks": "brick", "lumbers": "lumber",
            "wools": "wool", "grains": "grain", "coins": "coin", "papers": "paper", "cloths": "cloth"}
_TO_ALL = ("all", "everybody", "everyone", "anyone", "anybody", "table")
_JOINERS = {"+", ",", "and", "&"}
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_TOKEN = re.compile(r"\d+[a-z]+|\d+|[a-z]+|[+,&]")
_TERM = re.compile(r"^(\d+)([a-z]+)$")


def card_words(word: str, names: tuple[str, ...]) -> str | None:
    """The card type a word names ("wood" -> "lumber", "bricks" -> "brick"), or None."""
    word = _ALIASES.get(word, word)
    if word in names:
        return word
    if word.endswith("s") and word[:-1] in names:
        return word[:-1]
    return None


def _terms(words: list[str], names: tuple[str, ...]) -> list[tuple[int | None, str] | str]:
    """The words with every card term found: (count or None, card type) for `2 brick`, `2brick`,
    `bricks`; other words (joiners too) as they are. A number is a count only before a card's name."""
    out: list[tuple[int | None, str] | str] = []
    i = 0
    while i < len(words):
        word = words[i]
        count = int(word) if word.isdigit() else _COUNTS.get(word)
        nxt = card_words(words[i + 1], names) if count is not None and i + 1 < len(words) else None
        term = _TERM.match(word)
        if nxt is not None and count is not None:
            out.append((count, nxt))
            i += 2
            continue
        if term and card_words(term.group(2), names):
            out.append((int(term.group(1)), card_words(term.group(2), names) or ""))
        elif card_words(word, names):
            out.append((None, card_words(word, names) or ""))
        else:
            out.append(word)
        i += 1
    return out


def cards_of(terms: list[tuple[int | None, str]], names: tuple[str, ...]) -> tuple[tuple[int, ...], bool] | None:
    """The counts of a card list's terms, and whether every count was written out (None: a zero count)."""
    counts = [0] * len(names)
    for number, name in terms:
        if number == 0:
            return None
        counts[names.index(name)] += 1 if number is None else number
    return tuple(counts), all(number is not None for number, _ in terms)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _segments(words: list[str], names: tuple[str, ...]) -> list[list[str] | list[tuple[int | None, str]]]:
    """The typed line as parts: a plain word ([word]) or a card list (its terms, joiners dropped)."""
    parts: list = []
    run: list[tuple[int | None, str]] = []
    for item in _terms(words, names):
        if isinstance(item, tuple):
            run.append(item)
        elif item in _JOINERS and run:
            continue
        else:
            if run:
                parts.append(run)
                run = []
            parts.append([item])
    if run:
        parts.append(run)
    return parts


def _spellings(terms: list[tuple[int | None, str]], names: tuple[str, ...], trade_give: bool) -> list[str]:
    """The canonical texts a typed card list may stand for: the multiset, and for a single card
    written without a count its bare name too (`play monopoly wood`); the give side of a maritime
    trade without a count stands for any rate (the legal list holds the one the player has)."""
    parsed = cards_of(terms, names)
    if parsed is None:
        return []
    counts, counted = parsed
    texts = [multiset_text(counts, names)]
    if not counted and len(terms) == 1:
        texts.append(terms[0][1])
        if trade_give:
            texts += [f"{k}{terms[0][1]}" for k in range(2, 5)]
    return texts


def spellings(text: str, names: tuple[str, ...] | None) -> list[str]:
    """The canonical texts a line naming cards may stand for, the likeliest first ([] when it names
    no cards, or a count of 0)."""
    if not names:
        return []
    words = _tokens(text)
    parts = _segments(words, names)
    if not words or all(isinstance(part[0], str) for part in parts):
        return []
    verb = words[0]
    choices: list[list[str]] = []
    lists = 0
    for part in parts:
        if isinstance(part[0], str):
            choices.append([part[0]])  # type: ignore[list-item]
            continue
        choices.append(_spellings(part, names, verb == "trade" and lists == 0))  # type: ignore[arg-type]
        lists += 1
    return [_addressed(" ".join(spelt), verb) for spelt in product(*choices)]


def meant(text: str, legal: list[str], names: tuple[str, ...] | None) -> str | None:
    """The legal text that `text` means when cards are written loosely, or None. Plain texts are
    the caller's to match; this one looks only at lines that name cards."""
    allowed = set(legal)
    return next((spelt for spelt in spellings(text, names) if spelt in allowed), None)


def _addressed(text: str, verb: str) -> str:
    """An offer's address as the notation writes it: `to 2` (also `to seat 2`), `to all` (also `to
    everybody`, or no address at all)."""
    if verb != "offer":
        return text
    text = re.sub(r" to seat (\d+)$", r" to \1", text)
    text = re.sub(rf" to (the )?({'|'.join(_TO_ALL)})$", " to all", text)
    return text if " to " in text else text + " to all"
