"""`Memo`: the one bounded memo of netplay, for pure functions looked up on hot paths.

Engines, the ledger and the bots recompute the same few thousand values (a seat's packed bytes, a
ship's moves, a chain's hash prefix) millions of times, so they remember them; a process may play for
days, so every such memo must stay bounded. Each used to be a dict with its own size check; this is
that dict once, with the bound and the key stated where it is made.

It *is* a dict: a lookup is the dict's own `get` / `in` / `[]`, at the speed of a plain dict (these
lookups are most of the memos' cost on their hot paths), and only a miss goes through Python, in
`put`. The eviction is the one every memo here had: when full, it starts afresh (`clear`). That
costs one recomputation per key after a reset, and nothing per hit, where LRU bookkeeping would
cost on every hit; the keys are values of the game, and a reset is rare (most memos never fill).

It lives in `engines/`, the lowest layer, so `replays/`, `bots/` and `client/` use the same one.
Only memos of pure functions belong here: a value must depend on its key alone (and on nothing that
changes), or a peer's answers would depend on what it happened to remember.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["Memo"]

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict of at most `size` entries that is emptied before an entry beyond that is put in.

    `key` says in words what a key is (and so what the value may depend on): it is shown in `repr`,
    for whoever reads a profile or a debugger. `misses` counts the entries put, `resets` the times it
    started afresh: a memo that resets often is too small for its working set. Hits are not counted,
    as that would put Python code on the path this exists to keep fast (hits = lookups - misses).
    """

    __slots__ = ("key", "misses", "resets", "size")

    def __init__(self, size: int, key: str):
        super().__init__()
        if size < 1:
            raise ValueError("a memo holds one entry at least")
        self.size = size
        self.key = key
        self.misses = 0
        self.resets = 0

    def put(self, key: K, value: V) -> V:
        """Remember `value` for `key` (starting afresh first when `size` entries are held) and return it,
        so that a miss reads `found = memo.put(key, compute(key))`."""
        if len(self) >= self.size:
            self.clear()
            self.resets += 1
        self.misses += 1
        self[key] = value
        return value

    def __repr__(self) -> str:
        return f"Memo({self.key}: {len(self)} of {self.size}, {self.misses} misses, {self.resets} resets)"

