"""`show [[deck, epoch, position, W, proof], ...]`: the source's answer to a `peek`: its deck layer
removed from every peeked value, W = k⁻¹·Z, in the peek's order (replays.look). With it the `show`
chance point is applied: the looker decrypts the cards (M = j⁻¹·W) and its engine gets the value the
rules make of them (`Game.show_value`); every other engine, the source's included, gets HIDDEN."""

from __future__ import annotations

from engines.core import HIDDEN
from replays import deck as D
from replays import look as L
from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body
from replays.ledger.values import Event

NAME = "show"
SHAPE = "[[deck, epoch, position, value (32 bytes), proof (64 bytes)], ...]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    chance = led.show_chance()
    look = led.look
    if look is None or look.index != led.chance_index or look.shows is not None:
        raise RuntimeError("a show frame is awaited only after the peek of the same look")
    if len(body) != len(look.cards) or not all(type(raw) is tuple and len(raw) == 5 for raw in body):
        raise bad_body(seat, NAME, no, SHAPE + f" with one entry per peeked card ({len(look.cards)})")
    shows = []
    for raw, (ep, deal), z in zip(body, look.cards, look.peeks, strict=True):
        deck, epoch, position, value, proof = raw
        if (deck, epoch, position) != (ep.deck, ep.epoch, deal.position):
            raise Dispute(no, seat, f"deck {deck!r} epoch {epoch} position {position}",
                          f"deck {ep.deck!r} epoch {ep.epoch} position {deal.position}", "look order",
                          f"seat {seat}'s show names another card than the peek")
        fault = L.check_show(led.session, seat, deck, epoch, position, ep.publics[seat], z, value, proof)
        if fault is not None:
            raise Dispute(no, seat, "a show", "its deck layer removed from the peeked value, proven", fault.rule,
                          f"seat {seat}'s show is refused: {fault.reason}")
        shows.append(value)
    seen = None
    applied = HIDDEN
    if led.me is not None and led.me.seat == look.spy:
        seen = []
        for (ep, _), w in zip(look.cards, shows, strict=True):
            point = L.unpeek(led.me.seed, led.session, look.spy, look.index, w)
            card = D.card_table(led.session, ep.deck, ep.epoch, ep.pool).get(point)
            if card is None:   # every value on the way is proven: only a bug of ours gets here
                raise RuntimeError(f"the look at seat {seat}'s card in {ep.deck!r} epoch {ep.epoch} gives no card")
            seen.append(card[1])
        applied = led.game.show_value(led.state, tuple((ep.deck, t) for (ep, _), t in zip(look.cards, seen,
                                                                                          strict=True)))
    new_state = led.game.chance(led.state, applied)
    event = Event(no, no, "chance", look.spy, applied, None, chance, led.chance_index, (), look=look)

    def done() -> None:
        look.shows, look.show_frame, look.seen, look.open = shows, no, seen, True
        led.chance_index += 1
        led.events.append(event)
        led.hidden_events += 1
    return new_state, done


def build(led: Ledger) -> tuple:
    me = led.need_me()
    look = led.look
    out = []
    for (ep, deal), z in zip(look.cards, look.peeks, strict=True):
        made = L.show(me.seed, led.session, me.seat, ep.deck, ep.epoch, deal.position, z)
        out.append((ep.deck, ep.epoch, deal.position, made.value, made.proof))
    return tuple(out)


KIND = FrameKind(NAME, SHAPE, check, build)
