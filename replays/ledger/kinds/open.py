"""`open [chain tail, chain length, seed commitment]`: a seat's commitments before the game, every seat
in seat order. The seed binds everything the seat derives later (chain secrets, salts, deck keys)."""

from __future__ import annotations

from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body, is_bytes
from replays.ledger.values import Chain
from replays.randomness import MAX_CHAIN, seed_commitment

NAME = "open"
SHAPE = f"[tail (32 bytes), length 1..{MAX_CHAIN}, seed commitment (32 bytes)]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    if (len(body) != 3 or not is_bytes(body[0], 32) or type(body[1]) is not int
            or not 1 <= body[1] <= MAX_CHAIN or not is_bytes(body[2], 32)):
        raise bad_body(seat, NAME, no, SHAPE)
    tail, length, commitment = body

    def done() -> None:
        led.chains[seat] = Chain(tail, length)
        led.chain_history[seat].append((tail, length))
        led.seed_commits[seat] = commitment
        if all(c is not None for c in led.chains):
            led.status = "play"
    return led.state, done


def build(led: Ledger) -> tuple:
    me = led.need_me()
    values = led.my_chain(0, me.chain_length)
    return (values[0], me.chain_length, seed_commitment(led.session, me.seat, me.seed))


KIND = FrameKind(NAME, SHAPE, check, build)
