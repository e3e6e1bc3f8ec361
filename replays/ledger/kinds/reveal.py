"""`reveal [action, salt]`: the opening of a seat's commitment in an open simultaneous round, once
every commitment is in, in the same order; when the last arrives every seat's choice is played in
that order."""

from __future__ import annotations

from replays.ledger.errors import Dispute
from replays.ledger.kinds.act import MAX_ACTION
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body, is_bytes
from replays.ledger.values import Event
from replays.randomness import choice_commitment, salt_for

NAME = "reveal"
SHAPE = "[action text, salt (32 bytes)]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    if len(body) != 2 or type(body[0]) is not str or not 0 < len(body[0]) <= MAX_ACTION or not is_bytes(body[1], 32):
        raise bad_body(seat, NAME, no, SHAPE)
    action, salt = body
    rnd = led.need_round()
    commitment, commit_no = rnd.commits[seat]
    if choice_commitment(led.session, rnd.number, seat, action, salt) != commitment:
        raise Dispute(no, seat, action, f"the choice committed in frame {commit_no}", "choice commitment",
                      f"seat {seat}'s revealed choice {action!r} does not open its commitment of frame "
                      f"{commit_no} (a changed choice)")
    reveals = {**rnd.reveals, seat: (action, no)}
    new_state = led.state
    events: list[Event] = []
    if len(reveals) == len(rnd.seats):
        for s in rnd.seats:
            act, n = reveals[s]
            new_state = led.play(new_state, s, act, n, " (a simultaneous choice)")
            events.append(Event(n, no, "play", s, act, act, index=rnd.number))

    def done() -> None:
        rnd.reveals[seat] = (action, no)
        if events:
            led.events.extend(events)
            led.round = None
    return new_state, done


def build(led: Ledger) -> tuple:
    me = led.need_me()
    rnd = led.need_round()
    action = led.my_choices.get(rnd.number) or led.my_choice(rnd, rnd.commits[me.seat][0])
    if action is None:
        raise RuntimeError(f"seat {me.seat} cannot recover its choice of round {rnd.number}")
    return (action, salt_for(me.seed, led.session, rnd.number))


KIND = FrameKind(NAME, SHAPE, check, build)
