"""`strip [deck, epoch, position, V', proof]`: a seat removes its layer from the position being dealt,
`V' = k⁻¹·V` with a Chaum–Pedersen proof against its P; every seat with a layer on the deck but the
drawer, in seat order. With the last strip the chance point is applied: the drawer unmasks its card
privately (replays.deck.draw) and its engine gets the card's type, every other engine HIDDEN; a drawer
whose point is no card sends `spoiled` next."""

from __future__ import annotations

from engines.core import HIDDEN, Hidden
from replays import deck as D
from replays.ledger.decks import Deal
from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body, is_bytes
from replays.ledger.values import Event

NAME = "strip"
SHAPE = "[deck, epoch, position, value (32 bytes), proof (64 bytes)]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    chance = led.deal_chance()
    if (len(body) != 5 or type(body[0]) is not str or type(body[1]) is not int or type(body[2]) is not int
            or not is_bytes(body[3], 32) or not is_bytes(body[4], 64)):
        raise bad_body(seat, NAME, no, SHAPE)
    deck, epoch, position, value, proof = body
    ep = led.decks[(chance.deck, chance.epoch)]
    deal = led.pending_deal(ep, chance)
    if (deck, epoch, position) != (ep.deck, ep.epoch, deal.position):
        raise Dispute(no, seat, f"deck {deck!r} epoch {epoch} position {position}",
                      f"deck {ep.deck!r} epoch {ep.epoch} position {deal.position}", "turn order",
                      f"seat {seat} stripped another position than the one being dealt")
    # our own strip, being built: its proof was made a moment ago; every other peer checks it
    fault = None if led.building else D.check_strip(led.session, seat, deck, epoch, position, ep.publics[seat],
                                                    deal.last, value, proof)
    if fault is not None:
        raise Dispute(no, seat, "a strip", "its layer removed, proven against its P", fault.rule,
                      f"seat {seat}'s strip is refused: {fault.reason}")
    complete = len(deal.strips) + 1 == len(deal.strippers)
    new_state = led.state
    event = None
    card = None
    if complete:
        drawer = deal.drawer
        applied: int | Hidden = HIDDEN
        if led.me is not None and led.me.seat == drawer:
            table = D.card_table(led.session, ep.deck, ep.epoch, ep.pool)
            drawn = D.draw(led.me.seed, led.session, drawer, ep.deck, ep.epoch, value, table)
            if drawn.card is not None:
                card = applied = drawn.card[1]
        new_state = led.game.chance(led.state, applied)
        event = Event(no, no, "chance", drawer, applied, card, chance, led.chance_index, (), deal=(ep.deck, ep.epoch,
                                                                                                 deal.position))

    def done() -> None:
        ep.current = deal
        deal.values.append(value)
        deal.strips.append((no, seat))
        if event is not None:   # (every stripper has stripped)
            deal.card, deal.event = card, event
            ep.deals[deal.position] = deal
            ep.next += 1
            ep.current = None
            led.chance_index += 1
            led.events.append(event)
            led.hidden_events += 1
            led.last_deal = (ep.key, deal.position)
    return new_state, done


def build(led: Ledger) -> tuple:
    me = led.need_me()
    chance = led.deal_chance()
    ep = led.decks[(chance.deck, chance.epoch)]
    deal = led.pending_deal(ep, chance)
    made = D.strip(me.seed, led.session, me.seat, ep.deck, ep.epoch, deal.position, deal.last)
    return (ep.deck, ep.epoch, deal.position, made.value, made.proof)


def new_deal(ep, chance) -> Deal:
    """The next position of `ep` dealt to the chance point's drawer."""
    drawer = chance.private_to
    strippers = tuple(s for s in ep.layers if s != drawer)
    return Deal(ep.next, drawer, strippers, [ep.cards[ep.next]])


KIND = FrameKind(NAME, SHAPE, check, build)
