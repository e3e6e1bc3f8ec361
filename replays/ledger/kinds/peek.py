"""`peek [J, [[deck, epoch, position, Z, proof], ...]]`: the first frame of a look at a seat's hand (a
`show` chance point), sent by the looker: its one-use look key J and its layer Z = j·V on every card
dealt to the source and not shown since, in (deck, epoch, position) order (replays.look). The source's
`show` frame follows."""

from __future__ import annotations

from replays import look as L
from replays.curve import is_valid_point
from replays.ledger.decks import Look, undisclosed
from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body, is_bytes

NAME = "peek"
SHAPE = "[J (32 bytes), [[deck, epoch, position, value (32 bytes), proof (64 bytes)], ...]]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    chance = led.show_chance()
    source = chance.source
    assert source is not None, "a show chance names the seat whose cards it shows"
    if len(body) != 2 or not is_bytes(body[0], 32) or type(body[1]) is not tuple:
        raise bad_body(seat, NAME, no, SHAPE)
    public, entries = body
    cards = undisclosed(led, source)
    if len(entries) != len(cards):
        raise Dispute(no, seat, f"{len(entries)} peeked card(s)", f"{len(cards)}: every card dealt to seat "
                      f"{chance.source} and not shown since", "look order",
                      f"seat {seat}'s peek does not cover exactly seat {chance.source}'s undisclosed cards")
    if not is_valid_point(public):
        raise Dispute(no, seat, "J", "a valid point", L.RULE_PEEK_PROOF, f"seat {seat}'s look key J is no valid point")
    peeks = []
    for raw, (ep, deal) in zip(entries, cards, strict=True):
        if type(raw) is not tuple or len(raw) != 5:
            raise bad_body(seat, NAME, no, SHAPE)
        deck, epoch, position, value, proof = raw
        if (deck, epoch, position) != (ep.deck, ep.epoch, deal.position):
            raise Dispute(no, seat, f"deck {deck!r} epoch {epoch} position {position}",
                          f"deck {ep.deck!r} epoch {ep.epoch} position {deal.position}", "look order",
                          f"seat {seat}'s peek names another card than seat {chance.source}'s next undisclosed one")
        fault = L.check_peek(led.session, seat, deck, epoch, position, public, deal.last, value, proof)
        if fault is not None:
            raise Dispute(no, seat, "a peek", "its look key's layer on the source's card, proven", fault.rule,
                          f"seat {seat}'s peek is refused: {fault.reason}")
        peeks.append(value)

    def done() -> None:
        look = Look(led.chance_index, seat, source, public, cards, peeks, no)
        led.look = look
        led.looks.append(look)
    return led.state, done


def build(led: Ledger) -> tuple:
    me = led.need_me()
    chance = led.show_chance()
    source = chance.source
    assert source is not None, "a show chance names the seat whose cards it shows"
    index = led.chance_index
    entries = []
    for ep, deal in undisclosed(led, source):
        made = L.peek(me.seed, led.session, me.seat, index, ep.deck, ep.epoch, deal.position, deal.last)
        entries.append((ep.deck, ep.epoch, deal.position, made.value, made.proof))
    return (L.look_public(me.seed, led.session, me.seat, index), tuple(entries))


KIND = FrameKind(NAME, SHAPE, check, build)
