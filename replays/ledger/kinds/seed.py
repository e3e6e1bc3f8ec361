"""`seed [seed, chain secret, [[action, salt], ...]]`: a seat's private seed revealed at the end, with
the secret of its current chain and the openings of its secret choices (in commit order). Checked:
the seed against the commitment in `open`, the chain secret against the chain's last value, every
opening against its commitment; from protocol 2 also that every chain the seat committed (the first
and each renewal) and its chain secret derive from the seed. When every expected seed is in, the
game is re-simulated with every secret known (ledger.core)."""

from __future__ import annotations

from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body, is_bytes, short
from replays.randomness import chain_reaches, chain_secret, chain_tail, choice_commitment, salt_for, seed_commitment

NAME = "seed"
SHAPE = "[seed (32 bytes), chain secret (32 bytes), [[action, salt], ...]]"


def check(led: Ledger, seat: int, body: tuple, no: int) -> Transition:
    if (len(body) != 3 or not is_bytes(body[0], 32) or not is_bytes(body[1], 32) or type(body[2]) is not tuple
            or not all(type(o) is tuple and len(o) == 2 and type(o[0]) is str and is_bytes(o[1], 32)
                       for o in body[2])):
        raise bad_body(seat, NAME, no, SHAPE)
    seed, secret, openings = body
    if seed_commitment(led.session, seat, seed) != led.seed_commits[seat]:
        raise Dispute(no, seat, short(seed), "the seed committed in the seat's open frame", "seed commitment",
                      f"seat {seat} revealed a seed that does not match its commitment")
    chain = led.need_chain(seat)
    if not chain_reaches(led.session, seat, secret, chain.last, chain.length - chain.used):
        raise Dispute(no, seat, short(secret), f"the secret of the chain ending in {short(chain.last)}",
                      "hash chain", f"seat {seat}'s revealed chain secret does not lead to its chain values")
    if led.protocol >= 2:
        for generation, (tail, length) in enumerate(led.chain_history[seat]):
            derived = chain_secret(seed, led.session, seat, generation)
            # The current chain's secret was just walked back to its last revealed value, which the chain
            # frames linked to its tail: it derives from the seed exactly when it is the derived secret.
            # (Walking it a second time cost a file of maximum-length chains seconds and ~70 MB a seat.)
            if generation == chain.generation:
                derives = derived == secret
            else:
                derives = chain_tail(led.session, seat, derived, length) == tail
            if not derives:
                raise Dispute(no, seat, f"the chain committed with tail {short(tail)}",
                              f"the chain derived from the seed (generation {generation})", "hash chain",
                              f"seat {seat}'s chain of generation {generation} does not derive from its seed "
                              "(a chain chosen after the game began)")
        if secret != chain_secret(seed, led.session, seat, chain.generation):
            raise Dispute(no, seat, short(secret), "the chain secret derived from the seed", "hash chain",
                          f"seat {seat}'s revealed chain secret does not derive from its seed")
    commits = led.secret_commits[seat]
    if len(openings) != len(commits):
        raise Dispute(no, seat, f"{len(openings)} openings", f"{len(commits)} (one per secret choice)",
                      "choice commitment", f"seat {seat} opened {len(openings)} secret choices, it made "
                      f"{len(commits)}")
    for (action, salt), (number, commit_no, commitment) in zip(openings, commits, strict=True):
        if choice_commitment(led.session, number, seat, action, salt) != commitment:
            raise Dispute(no, seat, action, f"the choice committed in frame {commit_no}", "choice commitment",
                          f"seat {seat}'s opening {action!r} does not match its secret commitment of frame "
                          f"{commit_no} (a changed choice)")

    def done() -> None:
        led.seeds[seat] = (seed, tuple(a for a, _ in openings))
    return led.state, done


def build(led: Ledger) -> tuple:
    me = led.need_me()
    chain = led.need_chain(me.seat)
    secret = led.my_chain(chain.generation, chain.length)[-1]
    openings = []
    for number, _, commitment in led.secret_commits[me.seat]:
        salt = salt_for(me.seed, led.session, number)
        action = led.my_choices.get(number)
        if action is None or choice_commitment(led.session, number, me.seat, action, salt) != commitment:
            raise RuntimeError(f"seat {me.seat} lost its secret choice of round {number}")
        openings.append((action, salt))
    return (me.seed, secret, tuple(openings))


KIND = FrameKind(NAME, SHAPE, check, build)
