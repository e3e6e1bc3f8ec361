"""`commit [commitment, round]` (protocol 1: `[commitment]`): a seat's hidden choice in a simultaneous
step, `H("choice", session, round, seat, action, salt)`. Every awaited seat commits in the listed
order; a secret round is applied when the last commitment arrives (each peer plays its own choice and
HIDDEN for the others; the choices are opened in the seed frames), an open round after the reveals."""

from __future__ import annotations

from engines.core import HIDDEN
from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body, is_bytes
from replays.ledger.values import Event
from replays.randomness import choice_commitment, salt_for

NAME = "commit"
SHAPE = "[commitment (32 bytes), round number]"
SHAPE_V1 = "[commitment (32 bytes)]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    rnd = led.need_round()
    if led.protocol == 1:
        if len(body) != 1 or not is_bytes(body[0], 32):
            raise bad_body(seat, NAME, no, SHAPE_V1)
    else:
        if len(body) != 2 or not is_bytes(body[0], 32) or type(body[1]) is not int:
            raise bad_body(seat, NAME, no, SHAPE)
        if body[1] != rnd.number:
            raise Dispute(no, seat, f"round {body[1]}", f"round {rnd.number}", "choice commitment",
                          f"seat {seat} committed for round {body[1]}; the round under way is {rnd.number}")
    commitment = body[0]
    mine = led.me is not None and led.me.seat == seat
    choice = led.my_choice(rnd, commitment) if mine else None
    commits = {**rnd.commits, seat: (commitment, no)}
    new_state = led.state
    events: list[Event] = []
    if rnd.secret and len(commits) == len(rnd.seats):
        # every choice is in: apply them in seat order, as HIDDEN where not ours
        for s in rnd.seats:
            own = led.me is not None and led.me.seat == s
            action = (choice if s == seat else led.my_choices.get(rnd.number)) if own else HIDDEN
            new_state = led.play(new_state, s, action, commits[s][1], " (a secret choice)")
            events.append(Event(commits[s][1], no, "play", s, action, action if own else None,
                                index=rnd.number, secret=True))

    def done() -> None:
        rnd.commits[seat] = (commitment, no)
        if mine and choice is not None:
            led.my_choices[rnd.number] = choice
        if events:  # a secret round is complete: its commitments are opened in the seed frames
            for s, (c, n) in rnd.commits.items():
                led.secret_commits[s].append((rnd.number, n, c))
            led.events.extend(events)
            led.hidden_events += len(events)
            led.round = None
    return new_state, done


def body_for(led: Ledger, action: str) -> tuple:
    """Our commitment to `action` in the round under way (the salt derives from our seed)."""
    me = led.need_me()
    rnd = led.need_round()
    salt = salt_for(me.seed, led.session, rnd.number)
    led.my_choices[rnd.number] = action
    commitment = choice_commitment(led.session, rnd.number, me.seat, action, salt)
    return (commitment,) if led.protocol == 1 else (commitment, rnd.number)


KIND = FrameKind(NAME, SHAPE, check)
