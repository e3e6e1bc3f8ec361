"""Reading the texts of the spec: action texts (`move 13 18 12`) and position notation (`13(7)[1,0]`).

Action texts are canonical: one space between tokens, decimal numbers without leading zeros, so a
text that merely means a legal action (`move 13  18`, `enter 01`) is still refused, and every peer
records the same bytes for the same action.
"""

from __future__ import annotations

import re

from engines.core import IllegalAction
from engines.kidd.board import FIELDS, OUT
from engines.kidd.walks import Cell

_FIELD_TEXT = {str(f): f for f in FIELDS}


def parse_action(action: str, verbs: dict[str, tuple[int, int]]) -> tuple[str, tuple[int, ...]]:
    """Split a text into its verb and field numbers. `verbs` maps each verb of the game to the
    least and most number of fields it takes (-1: no limit)."""
    verb, _, rest = action.partition(" ")
    bounds = verbs.get(verb)
    if bounds is not None and rest:
        # The common case in one pass (every action the referee plays came from legal()); anything
        # odd falls through to the checks below, which name the fault.
        try:
            fields = tuple(map(_FIELD_TEXT.__getitem__, rest.split(" ")))
        except KeyError:
            pass
        else:
            least, most = bounds
            if least <= len(fields) and (most < 0 or len(fields) <= most):
                return verb, fields
    if verb not in verbs:
        known = ", ".join(f"'{v}'" for v in sorted(verbs))
        raise IllegalAction(f"{action!r} is not an action here (actions start with {known})")
    least, most = verbs[verb]
    tokens = rest.split(" ") if rest else []
    if "" in tokens or (not rest and action != verb):
        raise IllegalAction(f"{action!r}: an action text has single spaces between its parts and none around them")
    if len(tokens) < least or (most >= 0 and len(tokens) > most):
        raise IllegalAction(f"{action!r}: '{verb}' takes {_count(least, most)} field number(s), not {len(tokens)}")
    found: list[int] = []
    for token in tokens:
        field = _FIELD_TEXT.get(token)
        if field is None:
            raise IllegalAction(f"{action!r}: {token!r} is not a field (fields are {FIELDS[0]}..{FIELDS[-1]}, "
                                "written in decimal without leading zeros)")
        found.append(field)
    return verb, tuple(found)


def _count(least: int, most: int) -> str:
    if most < 0:
        return f"at least {least}"
    return str(least) if least == most else f"{least} to {most}"


_SEAT = re.compile(r"S(\d+)\s*:")
_PIECE = re.compile(r"(\d+)\((OUT|\d+)\)(?:\[([\d,\s]*)\])?")


def parse_position(text: str) -> dict[int, Cell]:
    """Pieces written as in the spec's examples, e.g. "S0: 1(OUT), 14(15). S1: 13(7)[1,0]".

    `f(b)` is a single stone of the seat named by the last `S<n>:` before it; `f(b)[x,...,y]` is a
    stack or tower whose owners are listed bottom to top.
    """
    cells: dict[int, Cell] = {}
    seat: int | None = None
    pos = 0
    while pos < len(text):
        seat_match = _SEAT.match(text, pos)
        if seat_match:
            seat = int(seat_match.group(1))
            pos = seat_match.end()
            continue
        piece = _PIECE.match(text, pos)
        if piece:
            field = int(piece.group(1))
            back = OUT if piece.group(2) == "OUT" else int(piece.group(2))
            if piece.group(3) is not None:
                owners = tuple(int(x) for x in piece.group(3).replace(" ", "").split(",") if x)
            elif seat is None:
                raise ValueError(f"position {text!r}: {piece.group(0)} has no owner (write S<n>: before it)")
            else:
                owners = (seat,)
            if field in cells:
                raise ValueError(f"position {text!r}: field {field} is listed twice")
            cells[field] = (back, *owners)
            pos = piece.end()
            continue
        if text[pos] in " ,.;\n\t":
            pos += 1
            continue
        raise ValueError(f"position {text!r}: cannot read {text[pos:pos + 12]!r}")
    return cells


def cell_text(field: int, cell: Cell) -> str:
    """The spec's notation for one field: `f(b)` for a single stone, `f(b)[x,...,y]` otherwise."""
    back = "OUT" if cell[0] == OUT else str(cell[0])
    if len(cell) == 2:
        return f"{field}({back})"
    return f"{field}({back})[{','.join(str(o) for o in cell[1:])}]"
