"""The last play, remembered so that the same play on a peer's copy of the state costs a comparison.

The referee (and any driver that keeps every seat's knowledge state) plays each action once on the
full state and once more on every seat's knowledge state. Those states differ only in their private
parts (`CatanState.private` and `gone`), and most actions (offers and their answers, building, the
roll) neither read nor write a private part: on such a copy the action does exactly what it did on the
full state, so the rules remember their last such play and give the result again with the copy's own
private parts instead of repeating every check and every copy.

An entry holds its states strongly (no id() reuse) and there is one entry per rules object (nothing
grows). A hit needs every public field of the new state equal to the remembered one; the only check
of `play` that reads a private part is the forced claim, which reads the acting seat's own cards, so a
hit also needs those unknown (the check is skipped) or equal to the remembered ones.

A few verbs (C&K's keep and reveal of a drawn card) also write the acting seat's own private part,
from that part alone, with no check and no change where it is unknown: they are remembered too, and a
copy that knows that part (equal to the remembered one, as above) gets the remembered new one; a copy
that does not know it keeps it unknown, as the play would.
"""

from __future__ import annotations

from typing import Any

from engines.catan.state import CatanState
from engines.contract import HIDDEN

__all__ = ["CHANCE", "Echo", "echoed", "remember"]

#: (state before, seat (-1 for a chance outcome), action or chance value, state after, twins, made,
#: the public fields of `after` before the private ones).
#: `made` holds the copies this entry has given (id -> state, held strongly so no id is reused while
#: listed): their public fields are `after`'s own objects. `twins` is the previous entry's `made` when
#: this entry's `before` is that entry's `after` (so those copies share `before`'s public fields), else
#: empty. A copy found among the twins skips the field-by-field comparison: the referee's knowledge
#: states are such copies on almost every step, and the comparison was half the cost of a hit.
Echo = tuple[CatanState, int, Any, CatanState, dict[int, CatanState], dict[int, CatanState], tuple]

_PRIVATE = CatanState._fields.index("private")
_GONE = CatanState._fields.index("gone")
_EXT = CatanState._fields.index("ext")
# the comparison below relies on this layout: public fields, then the two private ones, then `ext`
assert _GONE == _PRIVATE + 1 and _EXT == _GONE + 1 == len(CatanState._fields) - 1
_new = tuple.__new__
#: the seat an entry of a chance outcome is kept under (no seat has it)
CHANCE = -1
#: never filled: the twins of an entry that does not follow the previous one
_NO_TWINS: dict[int, CatanState] = {}
#: copies listed per entry at most (the referee makes one per seat; a driver replaying the same play
#: on the same state again and again must not grow the list)
_MADE_MAX = 8


def remember(echo: Echo | None, before: CatanState, seat: int, action: Any, after: CatanState) -> Echo:
    """The entry for a play of `action` by `seat` (`CHANCE`: a chance outcome) from `before` to `after`,
    following `echo` (the entry it replaces)."""
    twins = echo[5] if echo is not None and echo[3] is before else _NO_TWINS
    return before, seat, action, after, twins, {}, after[:_PRIVATE]


def echoed(echo: Echo | None, checked: CatanState, s: CatanState, seat: int, action: Any) -> CatanState | None:
    """The remembered play's result for state `s` (`Rules.echo`), or None unless `echo` is the play of
    `action` by `seat` (`CHANCE`: the chance outcome `action`) from `checked` itself (the state `Game`
    checked it on) and `s` has the same public parts (and, for a seat's action, no differently known
    cards of that seat). In C&K `ext` holds the spy's private `seen`: it is compared too, so a copy
    whose spy saw something else is simply played in full."""
    if echo is None:
        return None
    before, last_seat, last_action, after, twins, made, head = echo
    if before is not checked or last_seat != seat or last_action != action:
        return None
    if s is before:
        return after
    if twins.get(id(s)) is not s and (s[:_PRIVATE] != before[:_PRIVATE] or s.ext != before.ext):
        return None
    private = s.private
    if seat >= 0:
        mine = private[seat]
        if mine is not HIDDEN:
            known = before.private[seat]
            if mine != known:
                return None
            own = after.private[seat]
            if own is not known:  # a verb that writes the seat's own part: this copy knows it, so it changes alike
                private = private[:seat] + (own,) + private[seat + 1:]
    new = _new(CatanState, head + (private, s.gone, after.ext))
    if len(made) < _MADE_MAX:
        made[id(new)] = new
    return new
