"""`chain [value, renewal]` (renewal nil or `[new tail, new length]`): a seat's next hash-chain value
for the chance point under way, each contributor in seat order; the chance point is applied when the
last contribution arrives. The frame that reveals a chain's last value must commit a new chain, and
no other may; from protocol 2 the new chain's secret must derive from the seat's seed (checked when
the seed is revealed), so a seat left as the only contributor cannot choose its next chain."""

from __future__ import annotations

from engines.core import HIDDEN
from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body, is_bytes, short
from replays.ledger.values import Chain, Event
from replays.randomness import (
    MAX_CHAIN,
    chain_link,
    outcome,
    private_chance_bytes,
    private_mac,
    public_chance_bytes,
)

NAME = "chain"
SHAPE = "[value (32 bytes), nil or [new tail (32 bytes), new length]]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    if len(body) != 2 or not is_bytes(body[0], 32) or not (
            body[1] is None or (type(body[1]) is tuple and len(body[1]) == 2 and is_bytes(body[1][0], 32)
                                and type(body[1][1]) is int and 1 <= body[1][1] <= MAX_CHAIN)):
        raise bad_body(seat, NAME, no, SHAPE)
    value, renewal = body
    chain = led.need_chain(seat)
    if chain_link(led.session, seat, value) != chain.last:
        raise Dispute(no, seat, short(value), f"a value that hashes to {short(chain.last)}", "hash chain",
                      f"seat {seat} revealed a chain value that does not hash to its previous one (a changed or "
                      "forged random contribution)")
    last = chain.used + 1 == chain.length
    if last and renewal is None:
        raise Dispute(no, seat, "no renewal", "a new chain tail", "hash chain",
                      f"seat {seat} revealed the last value of its chain without committing a new chain")
    if renewal is not None and not last:
        raise Dispute(no, seat, "a renewal", "no renewal before the chain is used up", "hash chain",
                      f"seat {seat} renewed its chain before using it up")
    waiting = led.game.awaiting(led.state)
    contributions = [*led.contributions, (seat, value)]
    complete = len(contributions) == len(led.contributors(waiting.chance))
    new_state = led.state
    event = None
    if complete:
        chance = waiting.chance
        assert chance is not None, "chain frames are awaited at a chance point only"
        index = led.chance_index
        owner = chance.private_to
        if owner is None:
            applied = full = outcome(chance, public_chance_bytes(led.session, index, contributions))
        elif led.me is not None and led.me.seat == owner:
            mac = private_mac(led.me.seed, led.session, index)
            applied = full = outcome(chance, private_chance_bytes(led.session, index, owner, mac, contributions))
        else:
            applied, full = HIDDEN, None
        new_state = led.game.chance(led.state, applied)
        event = Event(no, no, "chance", owner, applied, full, chance, index, tuple(contributions))

    def done() -> None:
        if renewal is not None:
            led.chains[seat] = Chain(renewal[0], renewal[1], 0, chain.generation + 1)
            led.chain_history[seat].append((renewal[0], renewal[1]))
        else:
            chain.last, chain.used = value, chain.used + 1
        if event is not None:   # (the contributions are complete)
            led.contributions = []
            led.chance_index += 1
            led.events.append(event)
            if event.seat is not None:
                led.hidden_events += 1
        else:
            led.contributions = contributions
    return new_state, done


def build(led: Ledger) -> tuple:
    """Our next chain value for the chance point under way (with a new chain when it is the last)."""
    me = led.need_me()
    chain = led.need_chain(me.seat)
    values = led.my_chain(chain.generation, chain.length)
    renewal = None
    if chain.used + 1 == chain.length:
        renewal = (led.my_chain(chain.generation + 1, me.chain_length, keep=False)[0], me.chain_length)
    return (values[chain.used + 1], renewal)


KIND = FrameKind(NAME, SHAPE, check, build)
