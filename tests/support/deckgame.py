"""Toy Deck: a card game that lives only in the tests, to prove the shared secret deck end to end
before Catan plugs into it. 2-4 seats share one deck with repeated card types; a seat draws in secret
(a private `deal`), plays a card from its hand openly (the protocol proves it was dealt to that seat),
or passes; played cards go to a public discard pile, which becomes the next epoch's deck when the deck
runs out (a refill). A card of type T scores T+1; the first to 8 points, or the most after 10 turns
each, wins. A seat may resign (3+ seats: its hand leaves the game unseen).

Option `spy` = "on": a seat may instead `spy <seat>` on a seat holding cards: that seat's hand is
shown to the spy alone (a `show` chance point, the protocol's private look), then the spy plays
`steal <card>`, a card it saw: the card scores for the spy and goes to the discard pile.

`Drawer` is a bot of it that draws whenever it can and plays once it holds two cards, so that decks
run out and refill."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engines.core import HIDDEN, Awaiting, Chance, Game, IllegalAction, Option, Result, Rules

DECK = "cards"
POOL = (0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3)   # copper x5, silver x4, gold x2, crown
NAMES = ("copper", "silver", "gold", "crown")
GOAL = 8
TURNS = 10


@dataclass(frozen=True, slots=True)
class Table:
    players: int
    to_move: int = 0
    drawing: bool = False           # the mover asked for a card: the deal is awaited
    epoch: int = 0
    pool: tuple[int, ...] = POOL    # this epoch's composition
    dealt: int = 0                  # cards dealt from this epoch
    discard: tuple[int, ...] = ()   # played cards, sorted: the next epoch's deck
    counts: tuple[int, ...] = ()    # hand sizes (public)
    hands: tuple = ()               # per seat: sorted tuple of types, or HIDDEN (private)
    points: tuple[int, ...] = ()
    turns: int = 0
    out: tuple[int, ...] = ()       # seats that resigned (their hands left the game)
    winner: int | None = None
    over: bool = False
    spying: bool = False            # option spy=on
    look: tuple[int, ...] = ()      # (spy, target) from `spy` until the steal
    showing: bool = False           # the look (show chance) is awaited
    seen: tuple | None = None       # the target's hand as counts, on the spy's own engine (private)


def _set(values: tuple, seat: int, value) -> tuple:
    return values[:seat] + (value,) + values[seat + 1:]


class DeckGame(Rules[Table]):
    id = "toy-deck"
    title = "Toy Deck"
    players = (2, 3, 4)
    options = {"spy": Option(default="off", choices=("off", "on"), help="on: a seat may spy on a hand")}

    def start(self, players, options):
        return Table(players, counts=(0,) * players, hands=((),) * players, points=(0,) * players,
                     spying=options.get("spy") == "on")

    def awaiting(self, t):
        if t.showing:
            spy, target = t.look
            return Awaiting("chance", (), Chance("show", n=len(NAMES), private_to=spy, source=target, deck=DECK,
                                                 label=f"seat {target}'s hand shown to seat {spy}"))
        if t.drawing:
            return Awaiting("chance", (), Chance("deal", n=len(t.pool) - t.dealt, private_to=t.to_move, deck=DECK,
                                                 epoch=t.epoch, pool=t.pool, label="a card"))
        return Awaiting("move", (t.to_move,))

    def _can_draw(self, t: Table) -> bool:
        return t.dealt < len(t.pool) or bool(t.discard)

    def legal(self, t, seat):
        if seat != t.to_move or t.drawing or t.showing:
            return []
        if t.look:
            names = range(len(NAMES)) if t.seen is None else [c for c in range(len(NAMES)) if t.seen[c]]
            return [f"steal {NAMES[c]}" for c in names]
        actions = ["pass"] + (["draw"] if self._can_draw(t) else [])
        if t.spying:
            actions += [f"spy {s}" for s in range(t.players) if s != seat and s not in t.out and t.counts[s]]
        hand = t.hands[seat]
        types = range(len(NAMES)) if hand is HIDDEN else sorted(set(hand))
        if t.counts[seat]:
            actions += [f"play {NAMES[c]}" for c in types]
        return sorted(actions)

    def reveals(self, t, seat, action):
        verb, _, name = action.partition(" ")
        return ((DECK, NAMES.index(name)),) if verb in ("play", "steal") and name in NAMES else ()

    def disclose(self, t):
        hand = t.hands[t.look[1]]
        if hand is HIDDEN:
            raise ValueError("the target's hand is not known to this state")
        return tuple(hand.count(c) for c in range(len(NAMES)))

    def shows(self, t, value):
        return tuple((DECK, c) for c, k in enumerate(value) for _ in range(k))

    def show_value(self, t, cards):
        counts = [0] * len(NAMES)
        for deck, c in cards:
            if deck != DECK or not 0 <= c < len(NAMES):
                raise IllegalAction(f"no card {c} in deck {deck!r}")
            counts[c] += 1
        return tuple(counts)

    def play(self, t, seat, action):
        if action not in self.legal(t, seat):
            raise IllegalAction(f"{action!r} is not possible now (draw, pass, or play a card you hold)")
        if action == "draw":
            if t.dealt == len(t.pool):   # the deck is out: the discard pile is the next epoch
                t = replace(t, epoch=t.epoch + 1, pool=t.discard, dealt=0, discard=())
            return replace(t, drawing=True)
        if action == "pass":
            return self._next(t)
        if action.startswith("spy "):
            return replace(t, look=(seat, int(action.split()[1])), showing=True)
        card = NAMES.index(action.split()[1])
        if action.startswith("steal "):   # a card the spy saw, from the target's hand
            return self._score(replace(t, look=(), seen=None), seat, t.look[1], card, action)
        return self._score(t, seat, seat, card, action)

    def _score(self, t: Table, seat: int, holder: int, card: int, action: str) -> Table:
        """`card` leaves `holder`'s hand for the discard pile and scores for `seat`."""
        hand = t.hands[holder]
        if hand is not HIDDEN:
            if card not in hand:
                raise IllegalAction(f"{action}: seat {holder} holds no {NAMES[card]}")
            rest = list(hand)
            rest.remove(card)
            hand = tuple(rest)
        points = _set(t.points, seat, t.points[seat] + card + 1)
        t = replace(t, hands=_set(t.hands, holder, hand), counts=_set(t.counts, holder, t.counts[holder] - 1),
                    points=points, discard=tuple(sorted((*t.discard, card))))
        if points[seat] >= GOAL:
            return replace(t, winner=seat, over=True)
        return self._next(t)

    def chance(self, t, value):
        if t.showing:
            target = t.look[1]
            if value is not HIDDEN:
                hand = t.hands[target]
                if sum(value) != t.counts[target] or (hand is not HIDDEN and value != self.disclose(t)):
                    raise IllegalAction(f"seat {target} does not hold {value!r}")
            return replace(t, showing=False, seen=None if value is HIDDEN else tuple(value))
        seat = t.to_move
        hand = t.hands[seat]
        hand = HIDDEN if value is HIDDEN or hand is HIDDEN else tuple(sorted((*hand, value)))
        t = replace(t, drawing=False, dealt=t.dealt + 1, hands=_set(t.hands, seat, hand),
                    counts=_set(t.counts, seat, t.counts[seat] + 1))
        return self._next(t)

    def _next(self, t: Table) -> Table:
        turns = t.turns + 1
        if turns >= TURNS * (t.players - len(t.out)):
            best = max(p for s, p in enumerate(t.points) if s not in t.out)
            leaders = [s for s, p in enumerate(t.points) if p == best and s not in t.out]
            return replace(t, turns=turns, over=True, winner=leaders[0] if len(leaders) == 1 else None)
        seat = (t.to_move + 1) % t.players
        while seat in t.out:
            seat = (seat + 1) % t.players
        return replace(t, turns=turns, to_move=seat)

    def eliminate(self, t, seat):
        t = replace(t, out=(*t.out, seat), hands=_set(t.hands, seat, ()), counts=_set(t.counts, seat, 0))
        if t.look and t.look[0] == seat:
            t = replace(t, look=(), seen=None)
        return self._next(replace(t, turns=t.turns - 1)) if t.to_move == seat else t

    def result(self, t):
        if not t.over:
            return None
        winners = () if t.winner is None else (t.winner,)
        return Result(winners, t.points, "goal" if max(t.points) >= GOAL else "turns")

    def scores(self, t, out):
        return t.points

    def public(self, t):
        return (t.to_move, t.drawing, t.epoch, t.pool, t.dealt, t.discard, t.counts, t.points, t.turns, t.out,
                t.winner, t.over, t.look, t.showing)

    def view(self, t, seat):
        hand = None if seat is None or t.hands[seat] is HIDDEN else [NAMES[c] for c in t.hands[seat]]
        return {"to_move": t.to_move, "epoch": t.epoch, "deck_left": len(t.pool) - t.dealt,
                "discard": [NAMES[c] for c in t.discard], "counts": list(t.counts), "points": list(t.points),
                "hand": hand, "seen": None if seat is None or seat != (t.look or (None,))[0] or t.seen is None
                else [NAMES[c] for c, k in enumerate(t.seen) for _ in range(k)]}


DECK_GAME = Game(DeckGame())


class Drawer:
    """Draws whenever it can, plays a card once it holds two (so decks run out and refill)."""

    name = "drawer"

    def choose(self, game, state, seat, legal, rng):
        plays = [a for a in legal if a.startswith("play")]
        if "draw" in legal and (len(plays) < 2 or rng.random() < 0.5):
            return "draw"
        return rng.choice(plays or ["pass"])
