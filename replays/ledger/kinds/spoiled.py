"""`spoiled [deck, epoch, position, M, proof]`: the drawer of the latest deal shows that its unmasked
point M is no card of the deck (with a proof that M is its layer removed from the dealt value). Accepted
from that drawer in place of the awaited frame until it sends any other frame. A true claim stops the
game and goes to the seed reveal, where the deck audit names the seat whose shuffle or strip does not
follow from its seed; a false one (M is a card, or the proof fails) is the drawer's dispute."""

from __future__ import annotations

from replays import deck as D
from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body, is_bytes

NAME = "spoiled"
SHAPE = "[deck, epoch, position, point (32 bytes), proof (64 bytes)]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    if (len(body) != 5 or type(body[0]) is not str or type(body[1]) is not int or type(body[2]) is not int
            or not is_bytes(body[3], 32) or not is_bytes(body[4], 64)):
        raise bad_body(seat, NAME, no, SHAPE)
    deck, epoch, position, point, proof = body
    last = led.last_deal
    ep = led.decks.get((deck, epoch))
    deal = None if ep is None else ep.deals.get(position)
    if ep is None or last != ((deck, epoch), position) or deal is None or deal.drawer != seat:
        raise Dispute(no, seat, f"spoiled deck {deck!r} epoch {epoch} position {position}",
                      "a claim about the latest deal, by its drawer", "turn order",
                      f"seat {seat} claims a spoiled card it was not just dealt")
    table = D.card_table(led.session, deck, epoch, ep.pool)
    fault = D.check_spoiled(led.session, seat, deck, epoch, position, ep.publics[seat], deal.last, point, proof,
                            table)
    if fault is not None:
        raise Dispute(no, seat, "a spoiled card", "a dealt point that is no card, proven", fault.rule,
                      f"seat {seat}'s spoiled claim is refused: {fault.reason}")

    def done() -> None:
        led.spoiled = (no, seat, (deck, epoch), position)
        led.status = "reveal"   # the game stops; the seeds will name who spoiled the deck
    return led.state, done


def build(led: Ledger) -> tuple:
    me = led.need_me()
    last = led.last_deal
    assert last is not None, "a spoiled claim is about the latest deal (Ledger.must_claim_spoiled)"
    (deck, epoch), position = last
    ep = led.decks[(deck, epoch)]
    made = D.spoil(me.seed, led.session, me.seat, deck, epoch, position, ep.deals[position].last)
    return (deck, epoch, position, made.value, made.proof)


KIND = FrameKind(NAME, SHAPE, check, build)
