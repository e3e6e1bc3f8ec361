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

Why not `Rules.echo` (which Catan answers, and `Game` asks before its own checks): there the whole play
is skipped on a twin, while here the pick's hand check must still run on every copy, and a draw reaches
the copies as HIDDEN rather than as the same value, which `Game`'s memo never matches. So Turning
Tides looks its memo up inside `play` and `chance`, after that check.

Draws are remembered apart (their value is the card's index, not an action): a draw's public fields
do not depend on its value, the drawing seat's private part becomes HIDDEN on a copy fed HIDDEN and
the remembered result's on a copy that knows it as the remembered state did and is fed the same
value, and the other seat's part is not touched.
"""

from __future__ import annotations

from typing import Any

from engines.contract import HIDDEN
from engines.tides.state import TidesState

__all__ = ["Echo", "echoed", "echoed_draw"]

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
    if not _same_public(s, before):
        return None
    p0, p1 = s.private
    b0, b1 = before.private
    a0, a1 = after.private
    if p0 is not HIDDEN:
        if p0 is not b0 and (b0 is HIDDEN or p0 != b0):
            return None
        p0 = a0
    if p1 is not HIDDEN:
        if p1 is not b1 and (b1 is HIDDEN or p1 != b1):
            return None
        p1 = a1
    return _with_private(after, (p0, p1))


def echoed_draw(echo: Echo | None, s: TidesState, seat: int, value: Any) -> TidesState | None:
    """The remembered draw's result for `s` with `value` drawn by `seat` (the seat the public phase
    names), or None (draw in full)."""
    if echo is None:
        return None
    before, last_seat, last_value, after = echo
    if last_seat != seat or not _same_public(s, before):
        return None
    private = s.private
    if value is HIDDEN:
        drawn = HIDDEN
    else:
        mine = private[seat]
        known = before.private[seat]
        if (last_value is HIDDEN or value != last_value or mine is HIDDEN or known is HIDDEN
                or (mine is not known and mine != known)):
            return None
        drawn = after.private[seat]
    return _with_private(after, (drawn, private[1]) if seat == 0 else (private[0], drawn))


def _same_public(s: TidesState, before: TidesState) -> bool:
    """Every field but `private` equal: what a remembered result may be given again for."""
    return s[:_PRIVATE] == before[:_PRIVATE] and s[_PRIVATE + 1:] == before[_PRIVATE + 1:]


def _with_private(after: TidesState, private: tuple) -> TidesState:
    """`after` with the copy's own private parts."""
    return _new(TidesState, (*after[:_PRIVATE], private, *after[_PRIVATE + 1:]))
