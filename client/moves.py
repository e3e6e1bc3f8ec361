"""Legal actions as a player meets them, the same in the terminal and the Pygame table: the game's own
actions first, in the engine's order (stable while the choice is the same), the common actions
(resign, draw) apart and named by words, and a readable text for an action from the engine's own
`describe`. No pygame here and no rule: only `legal()` and `describe()` are read.

A word for a common action is never also a game action's text: Catan's `accept` and `decline` answer
a trade offer, so while they are listed the draw's answers are `accept draw` and `decline draw`
(`common_words`), and a typed word is taken as the game's own action first (`common_meant`)."""

from __future__ import annotations

import re

from engines.core import COMMON_ACTIONS

# what a person types -> the common action it means (never a number: nothing irreversible by accident)
COMMON_WORDS: dict[str, str] = {
    "resign": "resign",
    "draw": "offer draw",
    "offer draw": "offer draw",
    "accept": "accept draw",
    "accept draw": "accept draw",
    "decline": "decline draw",
    "decline draw": "decline draw",
}

# "seat 1: ", "Gold (seat 0): ", "solo: " at the start of an engine's log line
_WHO = re.compile(r"^(?:[\w' -]+ )?\(?(?:seat \d+)\)?: |^solo: |^seat \d+ \([^)]*\): ")


def common_words(common: list[str], actions: list[str]) -> dict[str, str]:
    """The word to show for each common action in `common` (word -> action): the shortest that is no
    game action's text in `actions`."""
    taken = set(actions)
    shown: dict[str, str] = {}
    for action in common:
        for word, meaning in COMMON_WORDS.items():
            if meaning == action and word not in taken:
                shown[word] = action
                break
    return shown


def common_meant(word: str, actions: list[str]) -> str | None:
    """The common action a typed word means, or None (also when the word is a game action's text)."""
    word = word.lower()
    if word in actions:
        return None
    return COMMON_WORDS.get(word)


_DIGITS = re.compile(r"(\d+)")


def in_order(actions: list[str]) -> list[str]:
    """`actions` with the texts of one shape (the same words, other numbers: `settle 2`, `settle 10`)
    in the order of their numbers, the shapes in the engine's order of their first text."""
    first: dict[str, int] = {}
    keys = []
    for i, action in enumerate(actions):
        parts = _DIGITS.split(action)
        shape = "#".join(parts[0::2])
        first.setdefault(shape, i)
        keys.append((first[shape], tuple(int(p) for p in parts[1::2]), action))
    return [k[2] for k in sorted(keys)]


def split_actions(legal: list[str]) -> tuple[list[str], list[str]]:
    """(the game's actions in the engine's order, the common actions) of a legal list."""
    return [a for a in legal if a not in COMMON_ACTIONS], [a for a in legal if a in COMMON_ACTIONS]


def words(description: str) -> str:
    """The engine's description without the seat in front (the front end names the player itself)."""
    return _WHO.sub("", description.strip(), count=1)


def readable(description: str, action: str) -> str:
    """The engine's description of `action` without the seat in front, or "" when it says no more than
    the action's own text (then the text alone is shown)."""
    text = words(description)
    plain = text.replace(" -> ", " ").replace("->", " ")
    if not text or plain.split() == action.split() or text == action:
        return ""
    return text


def label(description: str, action: str) -> str:
    """The one text to show for an action: readable words where the engine gives more than the action."""
    return readable(description, action) or action
