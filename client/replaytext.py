"""A replay's moves and end in words, for `netplay replay show/step` and the Pygame viewer alike: the
players by their names from the replay's header (never "you": a replay has no viewer's seat), the
engine's own words for each move, and the end as "random-0 won (zones)". No pygame here."""

from __future__ import annotations

import re

from client.ending import Ending, from_result
from client.moves import words
from client.names import seat_names
from replays.stepping import Move, Stepper

_SEAT = re.compile(r"\bseat (\d+)\b")


def move_text(move: Move, names: list[str]) -> str:
    """`ann: step 6 -> 12`, `bob: yellow pairs 4 with 4: ...`, `die 1-3: 2` (a chance outcome)."""
    if move.kind == "chance":
        return _named(move.text, names)
    who = names[move.seat] if move.seat is not None and move.seat < len(names) else f"seat {move.seat}"
    if move.hidden:
        return f"{who}: chose in secret"
    text = words(move.text) or str(move.action)
    return f"{who}: {_named(text, names)}"


def _named(text: str, names: list[str]) -> str:
    """`seat 1` in an engine's text becomes the player's name."""
    def name(match: re.Match) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) and names[seat] else match.group(0)
    return _SEAT.sub(name, text)


def replay_ending(stepper: Stepper) -> Ending | None:
    """The end of the replay in words, or None when it stops before one."""
    final = stepper.final()
    if final is None:
        return None
    kind, winners, reason, result = final
    names = seat_names(stepper.header.seats)
    if kind == "result" and result is not None:
        return from_result(result, None, names)
    if kind == "forfeit":
        who = " and ".join(names[w] if w < len(names) else f"seat {w}" for w in winners)
        return Ending(f"{who} won", f"forfeit: {_named(reason, names)}", "neutral")
    if kind == "contested":
        return Ending("Contested: nobody forfeits", reason, "neutral")
    return Ending("Dispute", reason, "bad")
