"""Building an action text step by step from clicks, with undo, before it is sent.

Action texts are space-separated tokens (`move 13 18 12`, `exchange fire,move for sailor,swing`). The
builder keeps the tokens chosen so far and offers, from `legal()` alone, the tokens that may come next,
so the client never decides a rule: it only narrows the legal list. A click on the board yields a
token (a field, a card); if the legal texts need a verb first, the unique verb that makes the click
fit is inserted too (clicking field 3 chooses `enter 3` when that is the only reading).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(slots=True)
class ActionBuilder:
    legal: list[str]
    tokens: list[str] = field(default_factory=list)
    #: the order to offer the next tokens in (a board whose hand shows cards in its own order gives it, so that
    #: the keys 1-9 and the numbered choices follow the hand); None: the legal list's order
    order: Callable[[list[str]], list[str]] | None = None

    def _split(self) -> list[list[str]]:
        return [a.split(" ") for a in self.legal]

    def candidates(self) -> list[str]:
        """The tokens that may come next, in the order of the legal list (or `order`'s), without repeats."""
        n = len(self.tokens)
        seen: dict[str, None] = {}
        for parts in self._split():
            if parts[:n] == self.tokens and len(parts) > n:
                seen.setdefault(parts[n], None)
        found = list(seen)
        return found if self.order is None else self.order(found)

    def clickable(self) -> list[str]:
        """The tokens a click may give now: the candidates, plus every token that follows exactly one
        fitting verb (push inserts that verb), so a board can light up fields before a verb is chosen."""
        n = len(self.tokens)
        after: dict[str, set[str]] = {}
        for parts in self._split():
            if parts[:n] == self.tokens and len(parts) > n + 1:
                after.setdefault(parts[n + 1], set()).add(parts[n])
        found = self.candidates()
        found += [t for t, verbs in after.items() if len(verbs) == 1 and t not in found]
        return found

    def complete(self) -> str | None:
        """The text chosen so far, if it is itself a legal action."""
        text = " ".join(self.tokens)
        return text if self.tokens and text in self.legal else None

    def finished(self) -> str | None:
        """The action to send now: complete and no longer action extends it."""
        text = self.complete()
        return text if text is not None and not self.candidates() else None

    def push(self, token: str) -> bool:
        """Add a token (from a click or a key); False if no legal action continues that way."""
        if token in self.candidates():
            self.tokens.append(token)
            return True
        fitting = [v for v in self.candidates() if _fits(self._split(), [*self.tokens, v, token])]
        if len(fitting) == 1:
            self.tokens += [fitting[0], token]
            return True
        return False

    def choose(self, text: str) -> bool:
        """Take a whole legal text at once (from the action list or the keyboard)."""
        if text in self.legal:
            self.tokens = text.split(" ")
            return True
        return False

    def undo(self) -> None:
        if self.tokens:
            self.tokens.pop()

    def clear(self) -> None:
        self.tokens.clear()


def _fits(split: list[list[str]], prefix: list[str]) -> bool:
    n = len(prefix)
    return any(parts[:n] == prefix for parts in split)
