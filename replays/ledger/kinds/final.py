"""`final [digest, winners, scores, reason]`: a seat's co-signature of the outcome, every seat in seat
order once every seed is in. After a timeout claim became final, the seats other than the blamed one
co-sign the forfeit instead: winners = the other seats still in the game, no scores, reason
"forfeit: seat S withheld its K frame" (protocol 2)."""

from __future__ import annotations

from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body, is_bytes

NAME = "final"
SHAPE = "[digest (32 bytes), [winner seats], [scores], reason]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    if (len(body) != 4 or not is_bytes(body[0], 32) or type(body[1]) is not tuple
            or type(body[2]) is not tuple or type(body[3]) is not str):
        raise bad_body(seat, NAME, no, SHAPE)
    mine = led.final_body()
    if tuple(body) != mine:
        raise Dispute(no, seat, repr(body[1:]), repr(mine[1:]), "final result",
                      f"seat {seat} co-signed a different final state or result")

    def done() -> None:
        led.finals.add(seat)
    return led.state, done


def build(led: Ledger) -> tuple:
    return led.final_body()


KIND = FrameKind(NAME, SHAPE, check, build)
