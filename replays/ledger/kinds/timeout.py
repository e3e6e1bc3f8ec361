"""`timeout [blamed seat, awaited kind]`: a claim that the seat the protocol awaits withheld its frame.

The ledger has no clock, so it checks only that the claim names exactly what it awaits and that the
claimant is another seat; whether the deadline had passed is each peer's own judgement (the session
accepts a claim only after its own deadline for that frame, never one against its own seat while it is
connected). Protocol 1: the claim ends the game at once, the blamed seat to blame. Protocol 2: the
claim is a demand (values.Claim): the blamed seat may still answer with the awaited frame or contest
the claim; the first frame any other seat sends afterwards makes it final."""

from __future__ import annotations

from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body
from replays.ledger.values import Claim

NAME = "timeout"
SHAPE = "[blamed seat, awaited kind]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    if len(body) != 2 or type(body[0]) is not int or type(body[1]) is not str:
        raise bad_body(seat, NAME, no, SHAPE)
    nxt = led.claimable()
    if nxt is None or (body[1], body[0]) != nxt or seat == nxt[1]:
        raise Dispute(no, seat, f"seat {body[0]} withheld a {body[1]} frame",
                      "a claim against the seat the protocol awaits, by another seat" if nxt else
                      "no claim: nothing is awaited that a claim may name now", "timeout claim",
                      f"seat {seat}'s timeout claim does not name what the protocol awaits")

    def done() -> None:
        led.claim = Claim(no, nxt[0], nxt[1], seat, led.status)
        if led.protocol == 1:
            led.claim.open = False
            led.status = "unfinished"
        else:
            led.status = "claimed"
    return led.state, done


KIND = FrameKind(NAME, SHAPE, check)
