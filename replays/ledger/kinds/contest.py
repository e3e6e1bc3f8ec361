"""`contest [reason, evidence]` (protocol 2): the blamed seat's answer to a timeout claim it cannot
answer with the awaited frame (the claim came while it was connected and thinking, or its frame was
not passed on). `evidence` is nil or its own signed frame for the claimed slot (same session, the
claim's frame number and `prev`), which must be a frame the ledger would have accepted there. Either
way the game ends *contested*: two signed accounts conflict and no one can prove who is at fault (the
abort problem of two-party protocols), so nobody forfeits. Accepted from the blamed seat at any point
after the claim, also after it became final."""

from __future__ import annotations

from replays import codec
from replays.frames import decode_frame
from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body

NAME = "contest"
SHAPE = "[reason text, nil or the seat's own frame for the claimed slot (bytes)]"
MAX_REASON = 500


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    if (len(body) != 2 or type(body[0]) is not str or len(body[0]) > MAX_REASON
            or not (body[1] is None or type(body[1]) is bytes)):
        raise bad_body(seat, NAME, no, SHAPE)
    claim = led.claim
    if claim is None or claim.blamed != seat or led.protocol < 2:
        raise Dispute(no, seat, "a contest", "a contest only from the seat a timeout claim blames", "timeout claim",
                      f"seat {seat} contested a claim that does not blame it")
    evidence = body[1]
    if evidence is not None:
        led.check_evidence(seat, evidence, claim, no)

    def done() -> None:
        led.contest = (no, seat, body[0], evidence is not None)
        led.status = "contested"
    return led.state, done


def evidence_frame(data: bytes):
    """The evidence frame, or None when the bytes are no frame at all."""
    try:
        return decode_frame(data)
    except codec.FormatError:
        return None


KIND = FrameKind(NAME, SHAPE, check)
