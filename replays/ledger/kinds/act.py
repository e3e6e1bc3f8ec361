"""`act [action]`: a seat's move (the first awaited seat of `Awaiting("move")`), or a common action
(resign, offer draw) played openly instead of a commitment in a simultaneous step, which interrupts
the step (everyone commits afresh in a new round)."""

from __future__ import annotations

from engines.core import interrupts_step
from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body
from replays.ledger.values import Event

NAME = "act"
SHAPE = "[action text]"
MAX_ACTION = 256


def parse(seat: int, body: tuple, no: int) -> str:
    if len(body) != 1 or type(body[0]) is not str or not 0 < len(body[0]) <= MAX_ACTION:
        raise bad_body(seat, NAME, no, SHAPE)
    return body[0]


def check(led: Ledger, seat: int, body: tuple, no: int, interrupt: bool = False) -> Transition:
    action = parse(seat, body, no)
    if interrupt and not interrupts_step(action):
        raise Dispute(no, seat, action, "a commit frame, or a common action (resign, offer draw)",
                      "simultaneous choices are committed",
                      f"seat {seat} played {action!r} openly in a simultaneous step instead of committing it")
    new_state = led.play(led.state, seat, action, no)

    def done() -> None:
        led.events.append(Event(no, no, "play", seat, action, action))
        if interrupt:
            led.round = None  # the step is interrupted: everyone commits afresh afterwards
    return new_state, done


KIND = FrameKind(NAME, SHAPE, check)
