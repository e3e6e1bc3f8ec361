"""Threefold repetition (Part 0, D4), kept cheap enough to record at every turn.

Each game names its *material*: a value that, once changed, can never come back (supplies only
shrink, and captures are never undone in number). A position recorded under older material can
therefore never recur, so the history keeps only the positions seen since the material last
changed. That keeps the state small and the count a short scan.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from engines.memo import Memo

REPEATS_FOR_DRAW = 3
CELL_TEXTS = 1 << 16
"""How many cell and supply texts `position_link` keeps; past that it starts afresh (memory stays bounded)."""

_cell_text: dict[Any, bytes] = {None: b"None"}
_cell_texts = _cell_text.__getitem__
_tail_text: Memo[tuple[Any, int], bytes] = Memo(CELL_TEXTS, "(a supply, the seat to move)")


def position_link(position: Any) -> bytes:
    """`repr(position).encode()`, the same bytes, built faster for the games' (board, supply,
    to_move): the board's cells are few and recur from turn to turn, and so do the supplies and the
    seat to move, so each one's text is looked up, not made (as bytes: nothing is encoded per turn)."""
    if type(position) is not tuple or len(position) != 3 or type(position[0]) is not tuple or len(position[0]) < 2:
        return repr(position).encode()
    board, supply, to_move = position
    try:
        cells = b", ".join(map(_cell_texts, board))
    except KeyError:  # a cell not seen yet (or since the texts started afresh)
        if len(_cell_text) > CELL_TEXTS:
            _cell_text.clear()
            _cell_text[None] = b"None"
        cells = b", ".join([_cell_text.get(cell) or _cell_text.setdefault(cell, repr(cell).encode())
                            for cell in board])
    if type(to_move) is not int:  # a key equal to an int's (True == 1) must not share its text
        return b"((" + cells + f"), {supply!r}, {to_move!r})".encode()
    key = (supply, to_move)
    tail = _tail_text.get(key)
    if tail is None:
        tail = _tail_text.put(key, f"), {supply!r}, {to_move!r})".encode())
    return b"((" + cells + tail


def position_text(position: Any) -> str:
    """`repr(position)`, through `position_link`."""
    return position_link(position).decode()


@dataclass(frozen=True, slots=True)
class History:
    material: Any = None
    seen: tuple[Any, ...] = ()
    repeats: int = 0
    """How often the most recently recorded position has been recorded (1 on its first time)."""
    chain: bytes = b""
    """A running hash of `seen`, so the digest covers the history without re-encoding all of it
    at every step (equal chains mean equal histories)."""
    links: tuple[bytes, ...] = field(default=(), init=False, compare=False, repr=False)
    """`position_link` of each position in `seen`, which a repeat is counted on (a bytes comparison
    is cheaper than a board's); derived from `seen`, so neither compared nor shown."""

    def record(self, position: Any, material: Any) -> History:
        # A position is nested tuples of ints and None, whose repr is canonical; it is several
        # times cheaper than canonical_bytes, and this runs at every turn.
        link = position_link(position)
        if material != self.material:
            return _history(material, (position,), 1, _sha256(link).digest(), (link,))
        chain = _sha256(self.chain + link).digest()
        links = self.links
        if len(links) != len(self.seen):  # a History made by its constructor holds no links
            links = tuple(map(position_link, self.seen))
        return _history(material, (*self.seen, position), links.count(link) + 1, chain, (*links, link))

    @property
    def drawn(self) -> bool:
        return self.repeats >= REPEATS_FOR_DRAW

    def public(self) -> tuple[Any, ...]:
        return (self.material, len(self.seen), self.repeats, self.chain)


_sha256 = hashlib.sha256
_new = object.__new__
_set_material, _set_seen, _set_repeats, _set_chain, _set_links = (
    getattr(History, name).__set__ for name in ("material", "seen", "repeats", "chain", "links"))


def _history(material: Any, seen: tuple[Any, ...], repeats: int, chain: bytes, links: tuple[bytes, ...]) -> History:
    """`History(material, seen, repeats, chain)`, its slots set through their descriptors: a third
    of the cost of the frozen `__init__`, and a new History is made at every turn."""
    history = _new(History)
    _set_material(history, material)
    _set_seen(history, seen)
    _set_repeats(history, repeats)
    _set_chain(history, chain)
    _set_links(history, links)
    return history
