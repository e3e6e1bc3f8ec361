"""Shared helpers of the Cities & Knights tests: positions built directly on the inner
state, hands in the spec's notation, progress hands, and a referee driver with an eager bot that plays
the C&K actions (improvements, knights, cards) far more often than a uniform random bot would."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial

import pytest

import engines
from engines.catan.board import EDGE_BIT, NODE_BIT
from engines.catan.cards import parse_multiset
from engines.catan.state import MAIN
from engines.catan_ck.cards import CARD_DECK, NAMES, PROGRESS, P
from engines.catan_ck.state import PHand
from engines.contract import COMMON_ACTIONS, HIDDEN, IllegalAction
from engines.game import State
from engines.referee import Referee
from support import catanhelpers as base
from support.catanhelpers import hand_of, seat_put, with_inner  # noqa: F401 (hand_of: re-exported to the C&K tests)

G = engines.get("catan-ck")
R = G.rules


def cards(text: str) -> tuple[int, ...]:
    if not text:
        return (0,) * 8
    counts = parse_multiset(text, NAMES)
    assert counts is not None, text
    return counts


def with_ext(state: State, **fields) -> State:
    return with_inner(state, ext=state.inner.ext.put(**fields))


def ck_put(state: State, seat: int, **fields) -> State:
    x = state.inner.ext
    seats = list(x.seats)
    seats[seat] = seats[seat].put(**fields)
    return with_ext(state, seats=tuple(seats))


def rebank(state: State) -> State:
    total = [19] * 5 + [12] * 3
    for seat in state.inner.seats:
        for r in range(8):
            total[r] -= seat.hand[r]
    return with_inner(state, bank=tuple(total))


def hands(state: State, **given: str) -> State:
    for key, text in given.items():
        state = seat_put(state, int(key[1:]), hand=cards(text))
    return rebank(state)


def nodes_mask(nodes) -> int:
    return sum(NODE_BIT[n] for n in nodes)


def relength(state: State) -> State:
    return replace(state, inner=R.relength_all(state.inner))


def give_progress(state: State, seat: int, *ids: str) -> State:
    """Progress cards into a seat's hand as undisclosed cards (taken out of the pools)."""
    s = state.inner
    mine = s.private[seat]
    held = list(mine.held)
    x = s.ext
    cs = x.seats[seat]
    hidden = list(cs.hidden)
    pool = list(x.pool)
    for name in ids:
        g = P[name]
        held[g] += 1
        hidden[CARD_DECK[g]] += 1
        pool[CARD_DECK[g]] -= 1
    private = s.private[:seat] + (PHand(tuple(held), -1),) + s.private[seat + 1:]
    state = with_inner(state, private=private)
    state = ck_put(state, seat, hidden=tuple(hidden))
    return with_ext(state, pool=tuple(pool))


def position(players: int = 3, active: int = 0, step: str = MAIN, options: dict | None = None,
             **seats: dict) -> State:
    """A position after the set-up: `s0=dict(settlements=[..], cities=[..], roads=[..], hand="..",
    knights={node: (level, active)}, walls=[..], levels=(t, p, s), progress=[ids])`."""
    state = G.start(players, options or {})
    state = with_inner(state, setup=2 * players, turn=1, round=1, step=step, active=active)
    for key, spec in seats.items():
        seat = int(key[1:])
        state = seat_put(state, seat, settlements=nodes_mask(spec.get("settlements", ())),
                         cities=nodes_mask(spec.get("cities", ())),
                         roads=sum(EDGE_BIT[e] for e in spec.get("roads", ())))
        k = [0, 0, 0, 0]
        active_mask = 0
        for n, (level, on) in spec.get("knights", {}).items():
            k[level] |= NODE_BIT[n]
            if on:
                active_mask |= NODE_BIT[n]
        state = ck_put(state, seat, k1=k[1], k2=k[2], k3=k[3], active=active_mask,
                       walls=nodes_mask(spec.get("walls", ())), levels=tuple(spec.get("levels", (0, 0, 0))),
                       reduced=nodes_mask(spec.get("reduced", ())))
        if "hand" in spec:
            state = seat_put(state, seat, hand=cards(spec["hand"]))
        if "progress" in spec:
            state = give_progress(state, seat, *spec["progress"])
    return relength(rebank(state))


def knowledge(state: State, seat: int) -> State:
    """`seat`'s knowledge state: the other seats' progress hands HIDDEN (unless empty)."""
    s = state.inner
    private = tuple(p if o == seat or s.ext.seats[o].cards() == 0 else HIDDEN for o, p in enumerate(s.private))
    return with_inner(state, private=private)


# the base game's helpers, on this game
moves = partial(base.moves, game=G)
play = partial(base.play, game=G)
illegal = partial(base.illegal, game=G)


def texts(state: State, seat: int, card: str) -> list[str]:
    """The `play <card> ...` texts among the seat's legal actions."""
    return [m for m in moves(state, seat) if m.startswith(f"play {card}")]


def held(state: State, seat: int) -> dict[str, int]:
    mine = state.inner.private[seat]
    return {PROGRESS[g]: k for g, k in enumerate(mine.held) if k}


_EAGER = ("play", "improve", "knight", "activate", "promote", "displace", "chase", "city", "wall", "settle",
          "knightmove", "bury", "metropolis", "road")


class EagerBot:
    """Random, but prefers the C&K verbs (so tests reach cards, knights and metropolises quickly)."""

    name = "eager"

    def choose(self, game, state, seat, legal, rng) -> str:
        actions = [a for a in legal if a not in COMMON_ACTIONS]
        keen = [a for a in actions if a.split(" ", 1)[0] in _EAGER]
        if keen and rng.random() < 0.8:
            return rng.choice(keen)
        calm = [a for a in actions if not a.startswith(("offer", "trade"))] or actions
        return rng.choice(calm)


def top_up(referee: Referee, seat: int, text: str) -> None:
    """Give `seat` cards from the bank on the referee and every knowledge state (a public change)."""
    def gift(state: State) -> State:
        s = state.inner
        add = tuple(min(c, b) for c, b in zip(cards(text), s.bank, strict=True))
        me = s.seats[seat]
        seats = s.seats[:seat] + (me.put(hand=tuple(a + b for a, b in zip(me.hand, add, strict=True))),) + \
            s.seats[seat + 1:]
        return with_inner(state, seats=seats, bank=tuple(b - a for a, b in zip(add, s.bank, strict=True)))
    referee.state = gift(referee.state)
    referee.knowing = [gift(k) for k in referee.knowing]


def drive(seed: int, players: int, options: dict, every: int = 5, limit: int = 3000, rich: bool = True,
          check=None) -> Referee:
    """An eager-bot game on a referee with view checks. Every `every` steps every text the acting seat
    may play (up to 30) is played on the referee and on every knowledge state: all accept it with equal
    digests; a few texts outside legal() are refused with a reason. `rich` tops up the active seat's
    hand at the start of its turns so that improvements, knights and cards come early."""
    referee = Referee(G, players, options, seed, check_views=True)
    bot = EagerBot()
    rng = random.Random(seed)
    while len(referee.steps) < limit:
        waiting = referee.awaiting()
        if waiting.kind == "over":
            break
        if waiting.kind == "chance":
            if waiting.chance.kind == "deal":
                left = referee.remaining(waiting.chance)
                assert len(left) == waiting.chance.n
            referee.feed_chance()
            continue
        (seat,) = referee.awaited_seats()
        inner = referee.state.inner
        if rich and inner.step == "pre-roll" and inner.turn % 2 == 0:
            top_up(referee, seat, "1brick+1lumber+1wool+1grain+1ore+2cloth+2coin+2paper")
        own = referee.state_of(seat)
        legal = G.legal(own, seat)
        assert legal == sorted(legal), legal
        assert legal == G.legal(referee.state, seat)
        if len(referee.steps) % every == 0:
            actions = [a for a in legal if a not in COMMON_ACTIONS]
            if len(actions) > 30:
                actions = rng.sample(actions, 30)
            for action in actions:
                digest = G.digest(G.play(referee.state, seat, action))
                for other in range(players):
                    peer = referee.state_of(other)
                    assert action in G.legal(peer, seat), (action, other)
                    assert G.digest(G.play(peer, seat, action)) == digest, (action, other)
            allowed = set(legal)
            for text in garbage(rng, players):
                if text not in allowed:
                    with pytest.raises(IllegalAction) as info:
                        G.play(referee.state, seat, text)
                    assert info.value.reason
        if check is not None:
            check(referee)
        referee.submit(seat, bot.choose(G, own, seat, legal, rng))
    return referee


def garbage(rng: random.Random, n: int) -> list[str]:
    node, edge = rng.randrange(56), rng.randrange(74)
    card = rng.choice(PROGRESS)
    return [f"settle {node}", f"city {node}", f"road {edge}", f"wall {node}", f"knight {node}", f"activate {node}",
            f"promote {node}", f"chase {node}", f"knightmove {node} {rng.randrange(56)}", f"displace {node} {node}",
            f"improve {rng.choice(['trade', 'politics', 'science'])}", "end", "roll", "keep", "skip",
            f"bury {card}", f"take {card}", f"play {card}", f"play {card} {node}", "pick politics",
            f"reveal {card}", f"give 1{rng.choice(NAMES)}", f"harbor {rng.choice(NAMES)}", f"metropolis {node}",
            f"pillage {node}", f"retreat {node}", f"desert {node}", f"recruit {node}", "commit none",
            f"aqueduct {rng.choice(NAMES)}", f"steal {rng.randrange(n + 1)}", f"robber h{rng.randrange(20)}",
            f"trade {rng.randint(1, 5)}{rng.choice(NAMES)} for 1{rng.choice(NAMES)}", "buy", "claim 1"]



