"""Shared helpers of the Catan tests: positions the spec describes, built directly on the inner state
(a shortcut past many turns), hands written in the spec's multiset notation, and knowledge states."""

from __future__ import annotations

from dataclasses import replace

import pytest

import engines
from engines.catan.board import EDGE_BIT, NODE_BIT
from engines.catan.cards import parse_multiset
from engines.catan.state import MAIN, DevHand
from engines.contract import COMMON_ACTIONS, HIDDEN, IllegalAction
from engines.game import Game, State

G = engines.get("catan")
R = G.rules


def cards(text: str) -> tuple[int, ...]:
    """A hand from its multiset text ("" for none)."""
    if not text:
        return (0, 0, 0, 0, 0)
    counts = parse_multiset(text)
    assert counts is not None, text
    return counts


def inner(state: State):
    return state.inner


def with_inner(state: State, **fields) -> State:
    return replace(state, inner=state.inner.put(**fields))


def seat_put(state: State, seat: int, **fields) -> State:
    s = state.inner
    seats = list(s.seats)
    seats[seat] = seats[seat].put(**fields)
    return with_inner(state, seats=tuple(seats))


def hands(state: State, **given: str) -> State:
    """Set hands by seat (`s0="2brick"`); the bank holds the rest of the 19 of each."""
    for key, text in given.items():
        state = seat_put(state, int(key[1:]), hand=cards(text))
    total = [19] * 5
    for seat in state.inner.seats:
        for r in range(5):
            total[r] -= seat.hand[r]
    return with_inner(state, bank=tuple(total))


def relength(state: State) -> State:
    """Road lengths and the Longest Road award recomputed for every seat (after a direct edit)."""
    s = state.inner
    seats, longest = R._relength(s, s.seats, list(s.alive()))
    return with_inner(state, seats=seats, longest=longest)


def position(players: int = 3, active: int = 0, step: str = MAIN, options: dict | None = None,
             **seats: dict) -> State:
    """A position after the set-up: `s0=dict(settlements=[..], cities=[..], roads=[..], hand="..")`."""
    state = G.start(players, options or {})
    state = with_inner(state, setup=2 * players, turn=1, round=1, step=step, active=active)
    for key, spec in seats.items():
        seat = int(key[1:])
        state = seat_put(state, seat,
                         settlements=sum(NODE_BIT[n] for n in spec.get("settlements", ())),
                         cities=sum(NODE_BIT[n] for n in spec.get("cities", ())),
                         roads=sum(EDGE_BIT[e] for e in spec.get("roads", ())),
                         knights=spec.get("knights", 0))
        if "hand" in spec:
            state = hands(state, **{key: spec["hand"]})
        if "dev" in spec:
            state = give_dev(state, seat, spec["dev"], spec.get("new", ""))
    return relength(state)


def give_dev(state: State, seat: int, held: str, new: str = "") -> State:
    """Development cards in a seat's hand (names joined by +, e.g. "knight+victorypoint")."""
    from engines.catan.cards import DEV_CARDS

    def counts(text: str) -> tuple[int, ...]:
        names = [x for x in text.split("+") if x]
        return tuple(names.count(c) for c in DEV_CARDS)

    h, n = counts(held), counts(new)
    s = state.inner
    private = list(s.private)
    private[seat] = DevHand(h, n)
    state = with_inner(state, private=tuple(private), deck=s.deck - sum(h) + s.seats[seat].dev_n)
    return seat_put(state, seat, dev_n=sum(h), dev_new=sum(n))


def knowledge(state: State, seat: int) -> State:
    """`seat`'s knowledge state: every other seat's development cards HIDDEN (unless it holds none)."""
    s = state.inner
    private = tuple(p if o == seat or s.seats[o].dev_n == 0 else HIDDEN for o, p in enumerate(s.private))
    return with_inner(state, private=private)


def moves(state: State, seat: int, game: Game = G) -> list[str]:
    """legal() without the common actions (the spec's lists). `game`: C&K's helpers pass theirs."""
    return [a for a in game.legal(state, seat) if a not in COMMON_ACTIONS]


def play(state: State, seat: int, *actions: str, game: Game = G) -> State:
    for action in actions:
        state = game.play(state, seat, action)
    return state


def illegal(state: State, seat: int, action: str, *words: str, game: Game = G) -> str:
    with pytest.raises(IllegalAction) as info:
        game.play(state, seat, action)
    for word in words:
        assert word in info.value.reason, info.value.reason
    return info.value.reason


def hand_of(state: State, seat: int) -> tuple[int, ...]:
    return state.inner.seats[seat].hand


def bot_game(game: Game, seats: list, seed: int, players: int, reason: str, most_offers: int,
             max_steps: int = 30_000) -> int:
    """A seeded game of `seats` (bots) on a random board: it must end with `reason`, and no turn may
    hold more than `most_offers` offers (the bots' own bound, which keeps every turn finite). Returns
    how many trades between seats were confirmed."""
    from bots.selfplay import play_match

    record = play_match(game, seats, seed, players, {"board": "random"}, max_steps=max_steps, check_views=False)
    assert record.result is not None and record.result.reason == reason, record.result
    offers = confirmed = 0
    for step in record.steps:
        if step.kind != "play":
            continue
        if step.value.startswith("offer "):
            offers += 1
            assert offers <= most_offers, f"seed {seed}: more than {most_offers} offers in a turn"
        elif step.value == "end":
            offers = 0
        elif step.value.startswith("confirm "):
            confirmed += 1
    return confirmed
