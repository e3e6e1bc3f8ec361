"""The last play, remembered so that the same play on a peer's copy of the state costs a comparison.

The referee (and any driver that keeps every seat's knowledge state) plays each action once on the
full state and once more on each seat's knowledge state. Those states differ only in `private`, and
no play reads a private part except to check a pick or an exchange against the real hand; what a
play does to a seat's private part depends on that part alone (HIDDEN stays HIDDEN, a known part
changes the same way on every copy that knows it), and the public fields it makes depend on public
fields alone (else the peers' digests would part). So the rules remember their last pick or
resolution action and give the result again for a copy with the same public fields, each of the
copy's private parts being HIDDEN (it stays HIDDEN) or equal to the remembered state's (it becomes
the remembered result's). The pick's check, which reads the hand, is still made on every copy by
the caller.

An entry holds its states strongly (no id() reuse) and there is one entry per rules object (nothing
grows).
"""

from __future__ import annotations

from typing import Any

from engines.contract import HIDDEN
from engines.tides.state import TidesState

__all__ = ["Echo", "echoed"]

#: (state before, seat, action, state after)
Echo = tuple[TidesState, int, Any, TidesState]

_PRIVATE = TidesState._fields.index("private")
_new = tuple.__new__


def echoed(echo: Echo | None, s: TidesState, seat: int, action: Any) -> TidesState | None:
    """The remembered result of `seat` playing `action` on `s`, or None (play it in full) unless
    `echo` is the same play on a state with the same public fields and no private part known
    differently from it."""
    if echo is None:
        return None
    before, last_seat, last_action, after = echo
    if last_seat != seat or last_action != action:
        return None
    if s[:_PRIVATE] != before[:_PRIVATE] or s[_PRIVATE + 1:] != before[_PRIVATE + 1:]:
        return None
    p0, p1 = s[_PRIVATE]
    b0, b1 = before[_PRIVATE]
    a0, a1 = after[_PRIVATE]
    if p0 is not HIDDEN:
        if p0 is not b0 and (b0 is HIDDEN or p0 != b0):
            return None
        p0 = a0
    if p1 is not HIDDEN:
        if p1 is not b1 and (b1 is HIDDEN or p1 != b1):
            return None
        p1 = a1
    return _new(TidesState, (*after[:_PRIVATE], (p0, p1), *after[_PRIVATE + 1:]))

