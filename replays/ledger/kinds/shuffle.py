"""`shuffle [deck, epoch, P, cards, proof]`: a seat's shuffle of a deck epoch at its first deal, every
seat still in the game in seat order; `cards` is the output (32·m bytes: every position's point),
`P = k·B` its deck key's public point, `proof` the cut-and-choose proof (t = 64) that the output is a
permutation of the input multiplied by P's scalar (replays.deck). Checked at once: shape, points, no
two equal cards, the proof; so a shuffle cheat is a live dispute and nobody plays on with marked cards."""

from __future__ import annotations

from replays import deck as D
from replays.ledger.decks import Epoch
from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body, is_bytes

NAME = "shuffle"
SHAPE = "[deck, epoch, P (32 bytes), cards (32 bytes per card), proof [commitments, openings]]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    chance = led.deal_chance()
    if (len(body) != 5 or type(body[0]) is not str or type(body[1]) is not int or not is_bytes(body[2], 32)
            or type(body[3]) is not bytes):
        raise bad_body(seat, NAME, no, SHAPE)
    deck, epoch, public, blob, proof = body
    if (deck, epoch) != (chance.deck, chance.epoch):
        raise Dispute(no, seat, f"deck {deck!r} epoch {epoch}", f"deck {chance.deck!r} epoch {chance.epoch}",
                      "turn order", f"seat {seat} shuffled another deck epoch than the one being dealt")
    ep = led.decks.get((deck, epoch))
    inp = (tuple(D.card_points(led.session, deck, epoch, chance.pool)) if ep is None or not ep.outputs
           else ep.outputs[-1])
    m = len(inp)
    if len(blob) != 32 * m:
        raise bad_body(seat, NAME, no, f"{SHAPE}: {m} cards of 32 bytes")
    cards = tuple(blob[32 * j: 32 * j + 32] for j in range(m))
    # our own shuffle, being built: its proof was made a moment ago (64 rounds); every other peer checks it
    fault = None if led.building else D.check_shuffle(led.session, seat, deck, epoch, inp, public, cards, proof)
    if fault is not None:
        raise Dispute(no, seat, f"a shuffle of deck {deck!r} epoch {epoch}", "a permutation of its input under "
                      "the key of its P, proven", fault.rule, f"seat {seat}'s shuffle is refused: {fault.reason}")

    def done() -> None:
        current = ep
        if current is None:
            shufflers = tuple(s for s in range(led.players) if s not in led.state.out)
            current = led.decks[(deck, epoch)] = Epoch(deck, epoch, tuple(chance.pool), shufflers,
                                                       layers=list(shufflers))
        current.inputs.append(inp)
        current.outputs.append(cards)
        current.shuffles.append((no, seat))
        current.publics[seat] = public
        current.cards = list(cards)
    return led.state, done


def build(led: Ledger) -> tuple:
    me = led.need_me()
    chance = led.deal_chance()
    ep = led.decks.get((chance.deck, chance.epoch))
    inp = (tuple(D.card_points(led.session, chance.deck, chance.epoch, chance.pool)) if ep is None or not ep.outputs
           else ep.outputs[-1])
    made = D.shuffle(me.seed, led.session, me.seat, chance.deck, chance.epoch, inp)
    return (chance.deck, chance.epoch, made.public, b"".join(made.cards), made.proof.to_wire())


KIND = FrameKind(NAME, SHAPE, check, build)
