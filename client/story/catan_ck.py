"""Cities & Knights in words: the base game's `CatanWords`, which knows both (found by
`client.story.games.words_for` from the engine package's name)."""

from __future__ import annotations

from client.story.catan import CatanWords

__all__ = ["WORDS"]

WORDS = CatanWords
