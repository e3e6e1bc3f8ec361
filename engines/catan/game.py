"""Catan, the base game (docs/rules/catan.md), behind the engine contract of engines.core.

`Catan` is a step machine over `CatanState` (state.py): `legal()` lists the canonical texts of the
step under way, `play()` checks one parsed text against the same rules (directly, not by searching
the legal list, which holds up to 1,720 offers) and builds the next state, copying only the seats it
changes. The shared parts live in their own modules so that Cities & Knights can subclass this class
and reuse them: geometry (board.py), cards and multisets (cards.py), notation (notation.py), trade
tables (trade.py), longest road (roads.py), the development deck (dev.py).

Extension points for a subclass are the class attributes (`names`, `notation`, `offers_table`,
`hand_limit`, `win_vp`, `max_offers`, `verb_steps` with a `_do_<verb>` method per verb, `public_verbs`) and the
methods `public_vp`, `blockers`, `free_nodes`, `settlements_left`, `seat_rates`, `produce_owed`, `after_roll`,
`discard_limit`, `step_legal`, `main_legal`, `play_other` and `_second_placement`.
"""

from __future__ import annotations

from typing import Any

from engines.catan import cards as K
from engines.catan import dev
from engines.catan.board import (
    BEGINNER,
    EDGE_BIT,
    EDGE_NODE_MASK,
    HEX_NODE_MASK,
    NODE_BIT,
    NODE_EDGE_MASK,
    NODE_HEXES,
    SPIRAL_CORNERS,
    Layout,
    bits,
    blocked_nodes,
    road_nodes,
    spiral_numbers,
)
from engines.catan.cards import RESOURCES, TERRAIN_RESOURCE
from engines.catan.cards import fits as _fits
from engines.catan.echo import CHANCE, Echo, echoed, remember
from engines.catan.notation import FORMS, Notation
from engines.catan.roads import award_longest, road_length
from engines.catan.state import (
    CONFIRM,
    DEAL,
    DISCARD,
    FINAL_REVEAL,
    FREE_ROAD,
    HARBOUR,
    MAIN,
    OVER,
    PRE_ROLL,
    RESPOND,
    ROBBER,
    ROLL,
    SETUP_ROAD,
    SETUP_SETTLE,
    SPIRAL,
    STEAL,
    STEAL_PICK,
    TERRAIN,
    CatanState,
    DevHand,
    Offer,
    Seat,
)
from engines.catan.trade import OfferTable, rates
from engines.catan.view import describe, view
from engines.contract import HIDDEN, Awaiting, Chance, IllegalAction, Option, Result
from engines.memo import Memo
from engines.rules import Rules

__all__ = ["Catan", "WholeNumber"]

_ALL_NODES = (1 << 54) - 1
_ALL_EDGES = (1 << 72) - 1
_MOVE = tuple(Awaiting("move", (s,)) for s in range(8))
_OVER = Awaiting("over")
_ROLL = Awaiting("chance", (), Chance("dice", sides=(6, 6), label="roll of the two dice"))
_TERRAIN = tuple(Awaiting("chance", (), Chance("pick", n=19 - i, label=f"terrain of h{i}")) for i in range(18))
_SPIRAL = Awaiting("chance", (), Chance("pick", n=6, label="spiral start corner"))
_HARBOUR = tuple(Awaiting("chance", (), Chance("pick", n=9 - j, label=f"harbour type of P{j}")) for j in range(8))
_STEAL = tuple(Awaiting("chance", (), Chance("pick", n=k, label="card stolen")) for k in range(100))
_DEALS: dict[tuple[int, int], Awaiting] = {}
_DECK = "development"

#: steps in which the active player is the seat to act (the forced claim applies there)
_ACTIVE_STEPS = frozenset((PRE_ROLL, MAIN, ROBBER, STEAL, FREE_ROAD, CONFIRM, DISCARD))
_BY_ACTIVE = frozenset((SETUP_SETTLE, SETUP_ROAD, PRE_ROLL, ROBBER, STEAL, MAIN, FREE_ROAD, CONFIRM))
_BY_QUEUE = frozenset((DISCARD, RESPOND, FINAL_REVEAL))
_SETUP_STEPS = frozenset((TERRAIN, SPIRAL, HARBOUR, SETUP_SETTLE, SETUP_ROAD))
_WORDS_OF_STEP = {
    SETUP_SETTLE: "settle <node>", SETUP_ROAD: "road <edge>", PRE_ROLL: "roll or play <card>",
    DISCARD: "discard <cards>", ROBBER: "robber h<hex>", STEAL: "steal <seat>",
    MAIN: "settle, road, city, buy, play, trade, offer or end", FREE_ROAD: "road <edge> (free)",
    RESPOND: "accept or decline", CONFIRM: "confirm <seat> or cancel", FINAL_REVEAL: "reveal <k>",
}
#: which verbs each step takes (a verb outside its steps is refused with the step's words)
_VERB_STEPS = {
    "settle": (SETUP_SETTLE, MAIN), "road": (SETUP_ROAD, MAIN, FREE_ROAD), "city": (MAIN,), "buy": (MAIN,),
    "play": (PRE_ROLL, MAIN), "roll": (PRE_ROLL,), "discard": (DISCARD,), "robber": (ROBBER,), "steal": (STEAL,),
    "trade": (MAIN,), "offer": (MAIN,), "accept": (RESPOND,), "decline": (RESPOND,), "confirm": (CONFIRM,),
    "cancel": (CONFIRM,), "end": (MAIN,), "claim": tuple(_ACTIVE_STEPS), "reveal": (FINAL_REVEAL,),
}
_MONOPOLY_TEXTS = tuple(sorted((f"play monopoly {r}", i) for i, r in enumerate(RESOURCES)))
_YOP = tuple(sorted((f"play yearofplenty {K.multiset_text(m)}", m) for m in K.submultisets((2,) * 5, 2)))


def _deal(m: int, seat: int) -> Awaiting:
    found = _DEALS.get((m, seat))
    if found is None:
        found = _DEALS[(m, seat)] = Awaiting("chance", (), Chance(
            "deal", n=m, private_to=seat, deck=_DECK, epoch=0, pool=K.DEV_POOL,
            label=f"development card for seat {seat}"))
    return found


class WholeNumber(tuple):
    """The choices of a whole-number option written as text: a few samples (for menus and help), but
    it contains every canonical decimal ("0", "25", not "07" or "-1")."""

    __slots__ = ()

    def __contains__(self, value: object) -> bool:
        return isinstance(value, str) and value.isascii() and value.isdigit() and (value == "0" or value[0] != "0")


_new = tuple.__new__


def _put(seats: tuple[Seat, ...], i: int, seat: Seat) -> tuple[Seat, ...]:
    return seats[:i] + (seat,) + seats[i + 1:]


def _pay(hand: tuple[int, ...], cost: tuple[int, ...]) -> tuple[int, ...]:
    return tuple([a - b for a, b in zip(hand, cost, strict=True)])


def _gain(hand: tuple[int, ...], got: tuple[int, ...]) -> tuple[int, ...]:
    return tuple([a + b for a, b in zip(hand, got, strict=True)])


class Catan(Rules[CatanState]):
    id = "catan"
    title = "Catan"
    players = (3, 4)
    options = {
        "board": Option(default="beginner", choices=("beginner", "random"),
                        help="the fixed beginner layout, or a random one from public chance"),
        "domestic": Option(default="on", choices=("on", "off"), help="off: bank and harbour trade only"),
        "max_rounds": Option(default="0", choices=WholeNumber(("0", "25", "50", "100", "200")),
                             help="stop after that many rounds (0: no limit)"),
    }
    rules_version = "1"

    #: card type names of a hand (C&K: 8)
    names: tuple[str, ...] = RESOURCES
    notation = Notation(RESOURCES)
    offers_table = OfferTable(RESOURCES, 4)
    #: a seat holding more cards than this discards half on a 7
    hand_limit = 7
    win_vp = 10
    max_offers = 5

    def __init__(self) -> None:
        #: verb -> bound handler `_do_<verb>`; a subclass adds its verbs to `verb_steps` and defines handlers
        self.handlers = {verb: getattr(self, "_do_" + verb) for verb in self.verb_steps}
        # building costs as hands of this game's card types (C&K: 8 counts, commodities 0)
        pad = (0,) * (len(self.names) - len(K.RESOURCES))
        self.cost_road = K.ROAD + pad
        self.cost_settlement = K.SETTLEMENT + pad
        self.cost_city = K.CITY + pad
        self.cost_dev = K.DEV + pad
        #: the last public play or chance outcome (echo.py)
        self._echo: Echo | None = None

    verb_steps: dict[str, tuple[str, ...]] = _VERB_STEPS
    #: verbs whose handler neither reads nor writes a private part (nor `ext.seen`): their last play is
    #: remembered for the same play on a knowledge state (echo.py)
    public_verbs: frozenset[str] = frozenset((
        "settle", "road", "city", "buy", "roll", "discard", "robber", "steal", "trade", "offer", "accept",
        "decline", "confirm", "cancel"))

    # ============================================================================ options

    def parse_option(self, key: str, value: Any) -> Any:
        """Option values are texts as written on a command line; anything else is refused."""
        if not isinstance(value, str):
            raise ValueError(f"option {key}={value!r} is not allowed for catan (option values are strings)")
        return value

    # ============================================================================ start

    def start(self, players: int, options: dict[str, Any]) -> CatanState:
        board = options.get("board", "beginner")
        types = len(self.names)
        if board == "beginner":
            layout, step, robber = BEGINNER, SETUP_SETTLE, BEGINNER.desert()
        else:
            layout, step, robber = Layout((), (), ()), TERRAIN, -1
        return CatanState(
            n=players, board=board, domestic=options.get("domestic", "on") == "on",
            max_rounds=int(options.get("max_rounds", "0")), layout=layout, step=step, active=0, queue=(),
            robber=robber, seats=tuple(Seat(hand=(0,) * types) for _ in range(players)), bank=(19,) * types,
            deck=len(K.DEV_POOL), played=(0,) * 5, longest=-1, largest=-1, turn=0, round=0, setup=0, spot=-1,
            victim=-1, back="", free=0, dev_played=False, offers=0, offer=None, dice=(), out=(), claimant=-1,
            reason="", private=(DevHand(),) * players, gone=(0,) * 5, ext=None)

    # ============================================================================ awaiting

    def awaiting(self, inner: CatanState) -> Awaiting:
        step = inner.step
        if step in _BY_ACTIVE:  # the commonest case first: this runs several times per action
            return _MOVE[inner.active]
        if step in _BY_QUEUE:
            return _MOVE[inner.queue[0]]
        if step == ROLL:
            return _ROLL
        if step == DEAL:
            return _deal(inner.deck, inner.active)
        if step == STEAL_PICK:
            return _STEAL[sum(inner.seats[inner.victim].hand)]
        if step == TERRAIN:
            return _TERRAIN[len(inner.layout[0])]
        if step == SPIRAL:
            return _SPIRAL
        if step == HARBOUR:
            return _HARBOUR[len(inner.layout[2])]
        return _OVER

    # ============================================================================ public facts

    def public_vp(self, s: CatanState, seat: int) -> int:
        """Victory points everybody can see: buildings and the two special cards."""
        me = s.seats[seat]
        return (me.settlements.bit_count() + 2 * me.cities.bit_count() + 2 * (s.longest == seat)
                + 2 * (s.largest == seat))

    def buildings(self, s: CatanState) -> int:
        mask = 0
        for seat in s.seats:
            mask |= seat.settlements | seat.cities
        return mask

    def blockers(self, s: CatanState, seats: tuple[Seat, ...], p: int) -> int:
        """Nodes where another player's piece cuts p's roads (C&K adds knights)."""
        mask = 0
        for i, seat in enumerate(seats):
            if i != p:
                mask |= seat.settlements | seat.cities
        return mask

    def all_roads(self, seats: tuple[Seat, ...]) -> int:
        mask = 0
        for seat in seats:
            mask |= seat.roads
        return mask

    def road_mask(self, s: CatanState, p: int) -> int:
        """Empty edges connected to p's network (building rules): at an end p has a building, or p
        has a road there and no other player's building stands on it."""
        me = s.seats[p]
        own = me.settlements | me.cities
        reach = own | (road_nodes(me.roads) & ~self.blockers(s, s.seats, p))
        return _edges_at(reach) & ~self.all_roads(s.seats)

    def settle_mask(self, s: CatanState, p: int) -> int:
        """Empty nodes that satisfy the distance rule and touch one of p's roads."""
        return road_nodes(s.seats[p].roads) & ~blocked_nodes(self.buildings(s)) & self.free_nodes(s)

    def settlements_left(self, s: CatanState, seat: int) -> int:
        """Settlement pieces in the seat's supply (C&K: a reduced city is a settlement on a city piece)."""
        return 5 - s.seats[seat].settlements.bit_count()

    def free_nodes(self, s: CatanState) -> int:
        """Nodes on which a settlement may stand at all (C&K: not on a knight)."""
        return _ALL_NODES

    def seat_rates(self, s: CatanState, seat: int) -> tuple[int, ...]:
        """The seat's maritime rate per card type (C&K adds the Trading House, the merchant and the
        merchant fleet)."""
        me = s.seats[seat]
        return rates(me.settlements | me.cities, s.layout[2], len(self.names))

    def candidates(self, s: CatanState) -> list[int]:
        """Seats the active player may rob on the robber's hex."""
        mask = HEX_NODE_MASK[s.robber]
        return [o for o in s.alive() if o != s.active and (s.seats[o].settlements | s.seats[o].cities) & mask
                and sum(s.seats[o].hand)]

    def playable(self, s: CatanState, seat: int) -> list[int]:
        """Development card types `seat` may play now by the card rule (one per turn, not bought this
        turn): exactly for a known hand, from public knowledge for a hidden one."""
        if s.dev_played:
            return []
        mine = s.private[seat]
        if mine is not HIDDEN:
            return [t for t in (0, 1, 2, 4) if mine.held[t] > mine.new[t]]
        me = s.seats[seat]
        if me.dev_n <= me.dev_new:
            return []
        return [t for t in (0, 1, 2, 4) if s.played[t] < K.DEV_TOTALS[t]]

    # ============================================================================ legal

    def legal(self, inner: CatanState, seat: int) -> list[str]:
        s = inner
        if seat != s.to_act():
            return []
        step = s.step
        if seat == s.active and step in _ACTIVE_STEPS:
            claims, only = self._claims(s, seat)
            if only:
                return claims
            found = self.step_legal(s, seat)
            if claims:
                found = sorted(found + claims)
            return found
        return self.step_legal(s, seat)

    def _claims(self, s: CatanState, seat: int) -> tuple[list[str], bool]:
        """The `claim <k>` texts possible for the active seat, and whether nothing else is (forced)."""
        pub = self.public_vp(s, seat)
        mine = s.private[seat]
        if mine is not HIDDEN:
            k = mine.held[K.VICTORYPOINT]
            return ([self.notation.claim[k]], True) if pub + k >= self.win_vp else ([], False)
        top = min(s.seats[seat].dev_n, 5 - s.played[K.VICTORYPOINT])
        claims = [self.notation.claim[k] for k in range(max(0, self.win_vp - pub), top + 1)]
        return claims, pub >= self.win_vp

    def step_legal(self, s: CatanState, seat: int) -> list[str]:
        step = s.step
        N = self.notation
        if step == MAIN:
            return self.main_legal(s, seat)
        if step == RESPOND:
            return ["accept", "decline"]
        if step == PRE_ROLL:
            return [*self._plays(s, seat), "roll"]
        if step == ROBBER:
            return [N.robber[h] for h in N.hex_order if h != s.robber]
        if step == STEAL:
            return [N.steal[o] for o in self.candidates(s)]
        if step == DISCARD:
            return _discards(s.seats[seat].hand, sum(s.seats[seat].hand) // 2, self.names)
        if step == CONFIRM:
            offer = s.offer
            assert offer is not None  # (CONFIRM holds the offer to confirm)
            return ["cancel", *(N.confirm[o] for o in sorted(offer.accepted))]
        if step == FREE_ROAD:
            mask = self.road_mask(s, seat)
            return list(N.roads(mask))
        if step == SETUP_SETTLE:
            mask = ~blocked_nodes(self.buildings(s)) & self.free_nodes(s)
            return list(N.settles(mask))
        if step == SETUP_ROAD:
            mask = NODE_EDGE_MASK[s.spot] & ~self.all_roads(s.seats)
            return list(N.roads(mask))
        if step == FINAL_REVEAL:
            mine = s.private[seat]
            if mine is not HIDDEN:
                return [N.reveal[mine.held[K.VICTORYPOINT]]]
            top = min(s.seats[seat].dev_n, 5 - s.played[K.VICTORYPOINT])
            return sorted(N.reveal[k] for k in range(top + 1))
        return []

    def main_legal(self, s: CatanState, seat: int) -> list[str]:
        N = self.notation
        me = s.seats[seat]
        hand = me.hand
        out: list[str] = []
        if s.deck and _fits(self.cost_dev, hand):
            out.append("buy")
        if me.cities.bit_count() < 4 and _fits(self.cost_city, hand):
            out += N.cities(me.settlements)
        out.append("end")
        if s.domestic and s.offers < self.max_offers:
            alive = s.alive()
            out += self.offers_table.texts(seat, tuple(x.hand if i in alive else None
                                                       for i, x in enumerate(s.seats)))
        out += self._plays(s, seat)
        if me.roads.bit_count() < 15 and _fits(self.cost_road, hand):
            mask = self.road_mask(s, seat)
            out += N.roads(mask)
        if self.settlements_left(s, seat) and _fits(self.cost_settlement, hand):
            mask = self.settle_mask(s, seat)
            out += N.settles(mask)
        out += self._trades(s, seat)
        return out

    def _plays(self, s: CatanState, seat: int) -> list[str]:
        out: list[str] = []
        for t in self.playable(s, seat):
            if t == K.KNIGHT:
                out.append("play knight")
            elif t == K.MONOPOLY:
                out += [text for text, _ in _MONOPOLY_TEXTS]
            elif t == K.ROADBUILDING:
                if s.seats[seat].roads.bit_count() < 15 and self.road_mask(s, seat):
                    out.append("play roadbuilding")
            else:
                bank = s.bank
                out += [text for text, m in _YOP if _fits(m, bank)]
        return out

    def _trades(self, s: CatanState, seat: int) -> list[str]:
        hand = s.seats[seat].hand
        rate = self.seat_rates(s, seat)
        able = 0  # the types the seat holds enough of to trade at its rate (usually none)
        for x, r in enumerate(rate):
            if hand[x] >= r:
                able |= 1 << x
        if not able:
            return []
        stocked = 0  # the types the bank still holds
        for y, k in enumerate(s.bank):
            if k:
                stocked |= 1 << y
        return list(_maritime(self.names, rate, able, stocked))

    # ============================================================================ play

    def play(self, inner: CatanState, seat: int, action: Any) -> CatanState:
        s = inner
        parsed = self.notation.parse(action) if isinstance(action, str) else None
        if parsed is None:
            raise IllegalAction(f"{action!r} is not a Catan action (forms: {FORMS})")
        if seat != s.to_act():
            raise IllegalAction(f"not seat {seat}'s turn")
        verb = parsed[0]
        step = s.step
        if seat == s.active and step in _ACTIVE_STEPS:
            mine = s.private[seat]
            if mine is not HIDDEN and verb != "claim":
                k = mine.held[K.VICTORYPOINT]
                if self.public_vp(s, seat) + k >= self.win_vp:
                    raise IllegalAction(f"{action}: seat {seat} has {self.win_vp} victory points or more, so its only "
                                        f"action is the forced `claim {k}` (Forced claim)")
        steps = self.verb_steps.get(verb)
        if steps is None or step not in steps:
            return self.play_other(s, seat, parsed, action)
        after = self.handlers[verb](s, seat, parsed, action)
        if verb in self.public_verbs:
            self._echo = remember(self._echo, s, seat, action, after)
        return after

    def echo(self, before: CatanState, inner: CatanState, seat: int, action: Any) -> CatanState | None:
        return echoed(self._echo, before, inner, seat, action)

    def play_other(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        """A verb this step does not take (C&K routes its own verbs from here)."""
        wanted = _WORDS_OF_STEP.get(s.step, "nothing")
        if parsed[0] == "claim":
            raise IllegalAction(f"{action}: only the active player claims, at one of his own decision points")
        raise IllegalAction(f"{action}: the {s.step} step takes {wanted}")

    # ---------------------------------------------------------------------------- building

    def _do_settle(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        if n >= 54:
            raise IllegalAction(f"{action}: there is no node {n} (nodes 0-53)")
        occupied = self.buildings(s)
        if occupied & NODE_BIT[n]:
            raise IllegalAction(f"{action}: node {n} already holds a building")
        if blocked_nodes(occupied) & NODE_BIT[n]:
            raise IllegalAction(f"{action}: distance rule, a neighbouring node holds a building")
        if not self.free_nodes(s) & NODE_BIT[n]:
            raise IllegalAction(f"{action}: a knight stands on node {n}")
        me = s.seats[seat]
        if s.step == SETUP_SETTLE:
            hand, bank = me.hand, s.bank
            if self._second_placement(s):
                got = [0] * len(self.names)
                for h in NODE_HEXES[n]:
                    r = TERRAIN_RESOURCE[s.layout[0][h]]
                    if r >= 0 and bank[r] - got[r] > 0:
                        got[r] += 1
                hand, bank = _gain(hand, tuple(got)), _pay(bank, tuple(got))
            me = me.put(hand=hand, settlements=me.settlements | NODE_BIT[n])
            return s.put(seats=_put(s.seats, seat, me), bank=bank, spot=n, step=SETUP_ROAD)
        if not road_nodes(me.roads) & NODE_BIT[n]:
            raise IllegalAction(f"{action}: seat {seat} has no road touching node {n}")
        if not self.settlements_left(s, seat):
            raise IllegalAction(f"{action}: seat {seat} has no settlement left in supply")
        if not _fits(self.cost_settlement, me.hand):
            raise IllegalAction(f"{action}: a settlement costs 1brick+1lumber+1wool+1grain")
        me = me.put(hand=_pay(me.hand, self.cost_settlement), settlements=me.settlements | NODE_BIT[n])
        seats = _put(s.seats, seat, me)
        # the new building may cut other players' roads through n
        touched = [o for o in s.alive() if o != seat and road_nodes(seats[o].roads) & NODE_BIT[n]]
        seats, longest = self._relength(s, seats, touched)
        return s.put(seats=seats, bank=_gain(s.bank, self.cost_settlement), longest=longest)

    def _second_placement(self, s: CatanState) -> bool:
        return s.setup >= s.n

    def _do_road(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        e = parsed[1]
        if e >= 72:
            raise IllegalAction(f"{action}: there is no edge {e} (edges 0-71)")
        bit = EDGE_BIT[e]
        if self.all_roads(s.seats) & bit:
            raise IllegalAction(f"{action}: edge {e} already holds a road")
        me = s.seats[seat]
        step = s.step
        if step == SETUP_ROAD:
            if not EDGE_NODE_MASK[e] & NODE_BIT[s.spot]:
                raise IllegalAction(f"{action}: the road must touch the settlement just placed on node {s.spot}")
            me = me.put(roads=me.roads | bit)
            seats, longest = self._relength(s, _put(s.seats, seat, me), [seat])
            return self._next_placement(s.put(seats=seats, longest=longest))
        if not self.road_mask(s, seat) & bit:
            raise IllegalAction(f"{action}: edge {e} is not connected to seat {seat}'s roads or buildings "
                                "(an opponent's building cuts the network)")
        if me.roads.bit_count() >= 15:
            raise IllegalAction(f"{action}: seat {seat} has no road left in supply")
        bank = s.bank
        if step == MAIN:
            if not _fits(self.cost_road, me.hand):
                raise IllegalAction(f"{action}: a road costs 1brick+1lumber")
            me = me.put(hand=_pay(me.hand, self.cost_road), roads=me.roads | bit)
            bank = _gain(bank, self.cost_road)
        else:
            me = me.put(roads=me.roads | bit)
        seats, longest = self._relength(s, _put(s.seats, seat, me), [seat])
        s = s.put(seats=seats, bank=bank, longest=longest)
        if step == FREE_ROAD:
            free = s.free - 1
            if free and seats[seat].roads.bit_count() < 15 and self.road_mask(s, seat):
                return s.put(free=free)
            return s.put(free=0, step=s.back, back="")
        return s

    def _do_city(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        me = s.seats[seat]
        if n >= 54 or not me.settlements & NODE_BIT[n]:
            raise IllegalAction(f"{action}: seat {seat} has no settlement on node {n}")
        if me.cities.bit_count() >= 4:
            raise IllegalAction(f"{action}: seat {seat} has no city left in supply")
        if not _fits(self.cost_city, me.hand):
            raise IllegalAction(f"{action}: a city costs 2grain+3ore")
        me = me.put(hand=_pay(me.hand, self.cost_city), settlements=me.settlements & ~NODE_BIT[n],
                         cities=me.cities | NODE_BIT[n])
        return s.put(seats=_put(s.seats, seat, me), bank=_gain(s.bank, self.cost_city))

    def _relength(self, s: CatanState, seats: tuple[Seat, ...], who: list[int]) -> tuple[tuple[Seat, ...], int]:
        """Seats with the road lengths of `who` recomputed, and the Longest Road holder after it."""
        for p in who:
            me = seats[p]
            length = road_length(me.roads, self.blockers(s, seats, p))
            if length != me.road_len:
                seats = _put(seats, p, me.put(road_len=length))
        holder = award_longest(s.longest, tuple(x.road_len for x in seats), s.alive())
        return seats, holder

    # ---------------------------------------------------------------------------- set-up order

    def _next_placement(self, s: CatanState) -> CatanState:
        """The next placement of the snake order by a seat still in the game, or the first turn."""
        n = s.n
        i = s.setup + 1
        out = s.out
        while i < 2 * n:
            seat = i if i < n else 2 * n - 1 - i
            if seat not in out:
                return s.put(setup=i, active=seat, step=SETUP_SETTLE, spot=-1)
            i += 1
        first = s.alive()[0]
        return s.put(setup=2 * n, active=first, step=PRE_ROLL, spot=-1, turn=1, round=1)

    # ---------------------------------------------------------------------------- development cards

    def _do_buy(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        me = s.seats[seat]
        if not s.deck:
            raise IllegalAction(f"{action}: the development deck is empty")
        if not _fits(self.cost_dev, me.hand):
            raise IllegalAction(f"{action}: a development card costs 1wool+1grain+1ore")
        me = me.put(hand=_pay(me.hand, self.cost_dev))
        return s.put(seats=_put(s.seats, seat, me), bank=_gain(s.bank, self.cost_dev), step=DEAL)

    def _do_play(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        _, card, arg = parsed
        if card == K.VICTORYPOINT:
            raise IllegalAction(f"{action}: victorypoint cards are never played")
        if s.dev_played:
            raise IllegalAction(f"{action}: one development card per turn, and seat {seat} has played one")
        me = s.seats[seat]
        mine = s.private[seat]
        name = K.DEV_CARDS[card]
        if mine is not HIDDEN:
            if mine.held[card] <= mine.new[card]:
                why = "holds none" if not mine.held[card] else "bought it this turn"
                raise IllegalAction(f"{action}: seat {seat} {why} (a card is not played on the turn it was bought)")
        else:
            if me.dev_n <= me.dev_new:
                raise IllegalAction(f"{action}: seat {seat} holds no development card bought before this turn")
            if s.played[card] >= K.DEV_TOTALS[card]:
                raise IllegalAction(f"{action}: all {K.DEV_TOTALS[card]} {name} cards have been played")
        bank = s.bank
        seats = s.seats
        step = s.step
        if card == K.ROADBUILDING:
            if me.roads.bit_count() >= 15 or not self.road_mask(s, seat):
                raise IllegalAction(f"{action}: no road can be placed")
        elif card == K.YEAROFPLENTY:
            if sum(arg) != 2:
                raise IllegalAction(f"{action}: year of plenty takes exactly 2 resource cards")
            if not _fits(arg, bank):
                raise IllegalAction(f"{action}: the bank does not hold {self.notation.cards(arg)}")
        # the card leaves the hand
        if mine is not HIDDEN:
            held = mine.held[:card] + (mine.held[card] - 1,) + mine.held[card + 1:]
            mine = DevHand(held, mine.new)
        elif me.dev_n == 1:
            mine = DevHand()  # the seat played its last card: its (empty) hand is known again
        private = s.private[:seat] + (mine,) + s.private[seat + 1:]
        me = me.put(dev_n=me.dev_n - 1)
        played = s.played[:card] + (s.played[card] + 1,) + s.played[card + 1:]
        largest = s.largest
        free, back = 0, ""
        if card == K.KNIGHT:
            me = me.put(knights=me.knights + 1)
            largest = self._army(s, seat, me.knights)
            back, step = step, ROBBER
        elif card == K.ROADBUILDING:
            back, step, free = step, FREE_ROAD, 2
        elif card == K.YEAROFPLENTY:
            me = me.put(hand=_gain(me.hand, arg))
            bank = _pay(bank, arg)
        else:  # monopoly
            r = arg
            taken = 0
            seats = _put(seats, seat, me)
            for o in s.alive():
                if o != seat and seats[o].hand[r]:
                    other = seats[o]
                    taken += other.hand[r]
                    seats = _put(seats, o, other.put(hand=other.hand[:r] + (0,) + other.hand[r + 1:]))
            me = seats[seat]
            me = me.put(hand=me.hand[:r] + (me.hand[r] + taken,) + me.hand[r + 1:])
        return s.put(seats=_put(seats, seat, me), bank=bank, private=private, played=played, largest=largest,
                          dev_played=True, step=step, back=back, free=free)

    def _army(self, s: CatanState, seat: int, knights: int) -> int:
        """Largest Army after `seat` played its `knights`-th knight."""
        holder = s.largest
        if knights < 3 or holder == seat:
            return holder
        if holder >= 0:
            return seat if knights > s.seats[holder].knights else holder
        if all(knights > s.seats[o].knights for o in s.alive() if o != seat):
            return seat
        return holder

    # ---------------------------------------------------------------------------- turn

    def _do_roll(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        return s.put(step=ROLL)

    def _do_discard(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        cards = parsed[1]
        me = s.seats[seat]
        need = sum(me.hand) // 2
        if len(cards) != len(self.names) or sum(cards) != need:
            raise IllegalAction(f"{action}: seat {seat} must discard exactly {need} cards (half of its hand)")
        if not _fits(cards, me.hand):
            raise IllegalAction(f"{action}: seat {seat} does not hold {self.notation.cards(cards)}")
        seats = _put(s.seats, seat, me.put(hand=_pay(me.hand, cards)))
        queue = s.queue[1:]
        return s.put(seats=seats, bank=_gain(s.bank, cards), queue=queue,
                          step=DISCARD if queue else ROBBER)

    def _do_robber(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        h = parsed[1]
        if h >= 19:
            raise IllegalAction(f"{action}: there is no hex h{h} (h0-h18)")
        if h == s.robber:
            raise IllegalAction(f"{action}: the robber must move to another hex")
        s = s.put(robber=h)
        if self.candidates(s):
            return s.put(step=STEAL)
        return s.put(step=s.back, back="")

    def _do_steal(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        o = parsed[1]
        if o not in self.candidates(s):
            raise IllegalAction(f"{action}: seat {o} is not a candidate (an opponent with a building on the robber's "
                                "hex and at least one card)")
        if sum(s.seats[o].hand) == 1:  # a one-value pick is no chance point
            return self._steal(s.put(victim=o), 0)
        return s.put(victim=o, step=STEAL_PICK)

    def _steal(self, s: CatanState, index: int) -> CatanState:
        victim = s.seats[s.victim]
        hand = victim.hand
        card = 0
        while index >= hand[card]:
            index -= hand[card]
            card += 1
        one = tuple(int(i == card) for i in range(len(hand)))
        thief = s.seats[s.active]
        seats = _put(s.seats, s.victim, victim.put(hand=_pay(hand, one)))
        seats = _put(seats, s.active, thief.put(hand=_gain(thief.hand, one)))
        return s.put(seats=seats, victim=-1, step=s.back, back="")

    def _do_end(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        return self._next_turn(s, seat)

    def _next_turn(self, s: CatanState, ender: int) -> CatanState:
        """Pass the turn clockwise to the next seat still in the game (or stop at the round limit)."""
        seats, private = s.seats, s.private
        me = seats[ender]
        if me.dev_new:
            seats = _put(seats, ender, me.put(dev_new=0))
        mine = private[ender]
        if mine is not HIDDEN and any(mine.new):
            private = private[:ender] + (DevHand(mine.held, (0,) * 5),) + private[ender + 1:]
        alive = [x for x in s.alive() if x != ender] if ender in s.out else s.alive()
        nxt = next((x for x in alive if x > ender), alive[0])
        turn, rnd = s.turn + 1, s.round
        common = dict(seats=seats, private=private, turn=turn, dev_played=False, offers=0, offer=None, queue=(),
                      free=0, back="", victim=-1)
        if nxt <= ender:
            if s.max_rounds and rnd >= s.max_rounds:
                return s.put(step=FINAL_REVEAL, queue=tuple(alive), reason="round limit",
                                  **{k: v for k, v in common.items() if k != "queue"})
            rnd += 1
        return s.put(active=nxt, step=PRE_ROLL, round=rnd, **common)

    # ---------------------------------------------------------------------------- trade

    def _do_trade(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        _, give, get = parsed
        me = s.seats[seat]
        types = len(self.names)
        gives = [i for i in range(types) if give[i]]
        gets = [i for i in range(types) if get[i]]
        if len(gives) != 1 or len(gets) != 1 or get[gets[0]] != 1:
            raise IllegalAction(f"{action}: a maritime trade gives <r> cards of one type for 1 card of another")
        x, y = gives[0], gets[0]
        if x == y:
            raise IllegalAction(f"{action}: a maritime trade needs two different types")
        rate = self.seat_rates(s, seat)[x]
        if give[x] != rate:
            raise IllegalAction(f"{action}: seat {seat}'s rate for {self.names[x]} is {rate} (only the best rate)")
        if me.hand[x] < rate:
            raise IllegalAction(f"{action}: seat {seat} does not hold {rate}{self.names[x]}")
        if not s.bank[y]:
            raise IllegalAction(f"{action}: the bank holds no {self.names[y]}")
        seats = _put(s.seats, seat, me.put(hand=_gain(_pay(me.hand, give), get)))
        return s.put(seats=seats, bank=_pay(_gain(s.bank, give), get))

    def _do_offer(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        _, give, get, to, shared, size = parsed
        if not s.domestic:
            raise IllegalAction(f"{action}: domestic trade is off in this game (option domestic=off)")
        if s.offers >= self.max_offers:
            raise IllegalAction(f"{action}: at most {self.max_offers} offers per turn")
        if shared:
            raise IllegalAction(f"{action}: the two sides of an offer share no card type")
        most = self.offers_table.most
        if size > most:
            raise IllegalAction(f"{action}: an offer holds at most {most} cards in total")
        me = s.seats[seat]
        if not _fits(give, me.hand):
            raise IllegalAction(f"{action}: seat {seat} does not hold {self.notation.cards(give)}")
        alive = s.alive()
        if to >= 0:
            if to == seat or to not in alive:
                raise IllegalAction(f"{action}: seat {to} is not another seat in the game")
            if not _fits(get, s.seats[to].hand):
                raise IllegalAction(f"{action}: seat {to} does not hold {self.notation.cards(get)}")
            addressed: tuple[int, ...] = (to,)
        else:
            n = s.n
            addressed = tuple(o for o in ((seat + k) % n for k in range(1, n))
                              if o in alive and _fits(get, s.seats[o].hand))
            if not addressed:
                raise IllegalAction(f"{action}: no other seat holds {self.notation.cards(get)}")
        return s.put(offers=s.offers + 1, offer=_new(Offer, (give, get, to, (), ())), queue=addressed, step=RESPOND)

    def _do_accept(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        offer = s.offer
        assert offer is not None  # (the steps that take this verb hold an offer)
        return self._answered(s, offer.put(accepted=(*offer.accepted, seat)))

    def _do_decline(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        offer = s.offer
        assert offer is not None  # (the steps that take this verb hold an offer)
        return self._answered(s, offer.put(declined=(*offer.declined, seat)))

    def _answered(self, s: CatanState, offer: Offer) -> CatanState:
        queue = s.queue[1:]
        if queue:
            return s.put(offer=offer, queue=queue)
        if offer.accepted:
            return s.put(offer=offer, queue=(), step=CONFIRM)
        return s.put(offer=None, queue=(), step=MAIN)

    def _do_confirm(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        o = parsed[1]
        offer = s.offer
        assert offer is not None  # (the steps that take this verb hold an offer)
        if o not in offer.accepted:
            raise IllegalAction(f"{action}: seat {o} did not accept the offer")
        me, other = s.seats[seat], s.seats[o]
        seats = _put(s.seats, seat, me.put(hand=_gain(_pay(me.hand, offer.give), offer.get)))
        seats = _put(seats, o, other.put(hand=_gain(_pay(other.hand, offer.get), offer.give)))
        return s.put(seats=seats, offer=None, step=MAIN)

    def _do_cancel(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        return s.put(offer=None, step=MAIN)

    # ---------------------------------------------------------------------------- end of game

    def _do_claim(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        k = parsed[1]
        pub = self.public_vp(s, seat)
        mine = s.private[seat]
        if mine is not HIDDEN:
            own = mine.held[K.VICTORYPOINT]
            if pub + own < self.win_vp:
                raise IllegalAction(f"{action}: seat {seat} has {pub + own} victory points, not {self.win_vp}")
            if k != own:
                raise IllegalAction(f"{action}: seat {seat} holds {own} victorypoint cards")
        else:
            me = s.seats[seat]
            if k > me.dev_n or k + s.played[K.VICTORYPOINT] > 5:
                raise IllegalAction(f"{action}: seat {seat} cannot hold {k} victorypoint cards (public knowledge)")
            if pub + k < self.win_vp:
                raise IllegalAction(f"{action}: {pub} public victory points plus {k} is less than {self.win_vp}")
        s = self._reveal_cards(s, seat, k)
        n = s.n
        alive = s.alive()
        queue = tuple(o for o in ((seat + i) % n for i in range(1, n)) if o in alive)
        return s.put(claimant=seat, reason=f"{self.win_vp} victory points", queue=queue,
                          step=FINAL_REVEAL if queue else OVER)

    def _do_reveal(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        k = parsed[1]
        mine = s.private[seat]
        if mine is not HIDDEN:
            own = mine.held[K.VICTORYPOINT]
            if k != own:
                raise IllegalAction(f"{action}: seat {seat} holds {own} victorypoint cards")
        elif k > s.seats[seat].dev_n or k + s.played[K.VICTORYPOINT] > 5:
            raise IllegalAction(f"{action}: seat {seat} cannot hold {k} victorypoint cards (public knowledge)")
        s = self._reveal_cards(s, seat, k)
        queue = s.queue[1:]
        return s.put(queue=queue, step=FINAL_REVEAL if queue else OVER)

    def _reveal_cards(self, s: CatanState, seat: int, k: int) -> CatanState:
        """`k` victorypoint cards of `seat` are shown: they leave the hand and count as revealed."""
        me = s.seats[seat]
        mine = s.private[seat]
        vp = K.VICTORYPOINT
        if mine is not HIDDEN:
            mine = DevHand(mine.held[:vp] + (mine.held[vp] - k,) + mine.held[vp + 1:], mine.new)
        elif me.dev_n == k:
            mine = DevHand()
        private = s.private[:seat] + (mine,) + s.private[seat + 1:]
        played = s.played[:vp] + (s.played[vp] + k,) + s.played[vp + 1:]
        seats = _put(s.seats, seat, me.put(revealed=k, dev_n=me.dev_n - k))
        return s.put(seats=seats, private=private, played=played)

    def totals(self, s: CatanState) -> tuple[int, ...]:
        """Public VP plus revealed victorypoint cards; 0 for a resigned seat."""
        return tuple(0 if o in s.out else self.public_vp(s, o) + max(0, s.seats[o].revealed) for o in range(s.n))

    def result(self, inner: CatanState) -> Result | None:
        s = inner
        if s.step != OVER:
            return None
        scores = self.totals(s)
        if s.claimant >= 0:
            return Result((s.claimant,), scores, s.reason)
        alive = s.alive()
        best = max(scores[o] for o in alive)
        return Result(tuple(o for o in alive if scores[o] == best), scores, s.reason)

    def scores(self, inner: CatanState, out: tuple[int, ...]) -> tuple[int, ...]:
        """After a resignation or an agreed draw: public VP (all peers know them), 0 for resigned seats."""
        return tuple(0 if o in out or o in inner.out else self.public_vp(inner, o) for o in range(inner.n))

    def common(self, inner: CatanState, seat: int) -> tuple[str, ...] | None:
        """No common actions in the final reveal: the game is decided."""
        return () if inner.step == FINAL_REVEAL else None

    # ============================================================================ chance

    def chance(self, inner: CatanState, value: Any) -> CatanState:
        s = inner
        step = s.step
        if step in (ROLL, STEAL_PICK):  # public outcomes: remembered for the knowledge states (`echo`)
            after = self.after_roll(s, value) if step == ROLL else self._steal(s, value)
            self._echo = remember(self._echo, s, CHANCE, value, after)
            return after
        if step == DEAL:
            return self._dealt(s, value)
        if step == TERRAIN:
            return self._terrain(s, value)
        if step == SPIRAL:
            return self._spiral(s, value)
        if step == HARBOUR:
            return self._harbour(s, value)
        raise IllegalAction("no chance point is awaited")

    def after_roll(self, s: CatanState, dice: tuple[int, ...]) -> CatanState:
        total = dice[0] + dice[1]
        if total != 7:
            return self._produce(s.put(dice=dice, step=MAIN), total)
        n = s.n
        alive = s.alive()
        queue = tuple(o for o in ((s.active + i) % n for i in range(n))
                      if o in alive and sum(s.seats[o].hand) > self.discard_limit(s, o))
        return s.put(dice=dice, queue=queue, step=DISCARD if queue else ROBBER, back=MAIN)

    def discard_limit(self, s: CatanState, seat: int) -> int:
        """The most cards `seat` may hold on a 7 without discarding (C&K: 7 + 2 per wall)."""
        return self.hand_limit

    def produce_owed(self, s: CatanState, total: int) -> list[list[int]]:
        """What each seat is owed for a roll of `total`, per card type, before the bank's shortage."""
        types = len(self.names)
        owed = [[0] * types for _ in range(s.n)]
        terrain = s.layout[0]
        for h in _hexes_numbered(s.layout, total):
            if h == s.robber:
                continue
            r = TERRAIN_RESOURCE[terrain[h]]
            mask = HEX_NODE_MASK[h]
            for o, seat in enumerate(s.seats):
                k = (seat.settlements & mask).bit_count() + 2 * (seat.cities & mask).bit_count()
                if k:
                    owed[o][r] += k
        return owed

    def _produce(self, s: CatanState, total: int) -> CatanState:
        owed = self.produce_owed(s, total)
        bank = list(s.bank)
        for r in range(len(bank)):
            due = [o for o in range(s.n) if owed[o][r]]
            if not due:
                continue
            need = sum(owed[o][r] for o in due)
            if need > bank[r]:
                if len(due) == 1:
                    owed[due[0]][r] = bank[r]
                else:
                    for o in due:
                        owed[o][r] = 0
            bank[r] -= sum(owed[o][r] for o in due)
        seats = s.seats
        for o in range(s.n):
            if any(owed[o]):
                seats = _put(seats, o, seats[o].put(hand=_gain(seats[o].hand, tuple(owed[o]))))
        return s.put(seats=seats, bank=tuple(bank))

    def _dealt(self, s: CatanState, value: Any) -> CatanState:
        buyer = s.active
        me = s.seats[buyer]
        mine = s.private[buyer]
        if value is HIDDEN:
            mine = HIDDEN
        else:
            if mine is HIDDEN:
                raise IllegalAction(f"seat {buyer}'s development cards are unknown here, so its deal must be HIDDEN")
            left = dev.remaining_deck(s)
            name = K.DEV_CARDS[value]
            if left is not None:
                if not left[value]:
                    raise IllegalAction(f"the development deck holds no {name} card any more")
            elif dev.known_of_type(s, value) >= K.DEV_TOTALS[value]:
                raise IllegalAction(f"all {K.DEV_TOTALS[value]} {name} cards are known to be out of the deck")
            t = value
            mine = DevHand(mine.held[:t] + (mine.held[t] + 1,) + mine.held[t + 1:],
                           mine.new[:t] + (mine.new[t] + 1,) + mine.new[t + 1:])
        seats = _put(s.seats, buyer, me.put(dev_n=me.dev_n + 1, dev_new=me.dev_new + 1))
        private = s.private[:buyer] + (mine,) + s.private[buyer + 1:]
        return s.put(seats=seats, private=private, deck=s.deck - 1, step=MAIN)

    # ---------------------------------------------------------------------------- random board

    def _terrain(self, s: CatanState, index: int) -> CatanState:
        terrain = s.layout[0]
        left = _tiles_left(K.TERRAIN_TILES, terrain)
        terrain = (*terrain, left[index])
        if len(terrain) == 18:
            terrain = (*terrain, _tiles_left(K.TERRAIN_TILES, terrain)[0])
            return s.put(layout=Layout(terrain, (), ()), step=SPIRAL)
        return s.put(layout=Layout(terrain, (), ()))

    def _spiral(self, s: CatanState, index: int) -> CatanState:
        terrain = s.layout[0]
        numbers = spiral_numbers(terrain, SPIRAL_CORNERS[index])
        return s.put(layout=Layout(terrain, numbers, ()), step=HARBOUR)

    def _harbour(self, s: CatanState, index: int) -> CatanState:
        terrain, numbers, harbours = s.layout
        left = _tiles_left(K.HARBOUR_TILES, harbours)
        harbours = (*harbours, left[index])
        if len(harbours) == 8:
            harbours = (*harbours, _tiles_left(K.HARBOUR_TILES, harbours)[0])
            layout = Layout(terrain, numbers, harbours)
            return s.put(layout=layout, robber=layout.desert(), step=SETUP_SETTLE)
        return s.put(layout=Layout(terrain, numbers, harbours))

    # ============================================================================ resignation

    def eliminate(self, inner: CatanState, seat: int) -> CatanState:
        """A seat leaves a game of 3+: its pieces leave the board, its cards go to the bank (resources)
        or out of the game (development cards); the special cards are re-awarded; its turn ends or
        the steps waiting for it skip it (docs/rules/catan.md, Common actions)."""
        s = inner
        me = s.seats[seat]
        mine = s.private[seat]
        gone = s.gone
        if gone is not HIDDEN:
            gone = HIDDEN if mine is HIDDEN else tuple(a + b for a, b in zip(gone, mine.held, strict=True))
        bank = _gain(s.bank, me.hand)
        seats = _put(s.seats, seat, Seat(hand=(0,) * len(self.names), knights=me.knights, revealed=me.revealed))
        private = s.private[:seat] + (DevHand(),) + s.private[seat + 1:]
        out = (*s.out, seat)
        s = s.put(seats=seats, bank=bank, private=private, gone=gone, out=out,
                       longest=-1 if s.longest == seat else s.longest)
        seats, longest = self._relength(s, seats, list(s.alive()))
        largest = s.largest
        if largest == seat:
            top = max(seats[o].knights for o in s.alive())
            leaders = [o for o in s.alive() if seats[o].knights == top]
            largest = leaders[0] if top >= 3 and len(leaders) == 1 else -1
        s = s.put(seats=seats, longest=longest, largest=largest)
        return self._skip(s, seat)

    def _skip(self, s: CatanState, seat: int) -> CatanState:
        """Move the step on past a seat that just left."""
        step = s.step
        if step in _SETUP_STEPS:
            if step in (SETUP_SETTLE, SETUP_ROAD) and s.active == seat:
                return self._next_placement(s)
            return s
        if step == OVER:
            return s
        if seat == s.active and step != FINAL_REVEAL:
            return self._next_turn(s, seat)
        queue = tuple(o for o in s.queue if o != seat)
        offer = s.offer
        if offer is not None:
            offer = offer.put(accepted=tuple(o for o in offer.accepted if o != seat))
        s = s.put(queue=queue, offer=offer)
        if queue or step not in (DISCARD, RESPOND, CONFIRM, FINAL_REVEAL, STEAL):
            return s
        if step == DISCARD:
            return s.put(step=ROBBER)
        if step == FINAL_REVEAL:
            return s.put(step=OVER)
        if step == STEAL:
            return s if self.candidates(s) else s.put(step=s.back, back="")
        assert offer is not None  # (what is left is RESPOND and CONFIRM, which hold an offer)
        if offer.accepted:
            return s.put(step=CONFIRM)
        return s.put(offer=None, step=MAIN)

    # ============================================================================ view

    def public(self, inner: CatanState) -> tuple:
        return inner.public()

    def view(self, inner: CatanState, seat: int | None) -> dict:
        return view(self, inner, seat)

    def describe(self, inner: CatanState, seat: int, action: str) -> str:
        return describe(self, inner, seat, action)

    def reveals(self, inner: CatanState, seat: int, action: str) -> tuple[tuple[str, int], ...]:
        """The development cards an action shows from the hand, for the deck protocol to prove: the
        card played, or the `victorypoint` cards of a `claim`/`reveal` (there are only 5)."""
        parsed = self.notation.parse(action)
        if parsed is None:
            return ()
        verb = parsed[0]
        if verb == "play" and parsed[1] != K.VICTORYPOINT:
            return ((_DECK, parsed[1]),)
        if verb in ("claim", "reveal") and parsed[1] <= K.DEV_TOTALS[K.VICTORYPOINT]:
            return ((_DECK, K.VICTORYPOINT),) * parsed[1]
        return ()


# -------------------------------------------------------------------------------- helpers

_EDGES_AT: Memo[int, int] = Memo(100_000, "a node mask")


def _edges_at(nodes: int) -> int:
    """Every edge touching a node of the mask (memoised)."""
    found = _EDGES_AT.get(nodes)
    if found is None:
        found = 0
        for n in bits(nodes):
            found |= NODE_EDGE_MASK[n]
        _EDGES_AT.put(nodes, found)
    return found


_NUMBERED: Memo[tuple[Layout, int], tuple[int, ...]] = Memo(10_000, "(a layout, a dice total)")


def _hexes_numbered(layout: Layout, total: int) -> tuple[int, ...]:
    key = (layout, total)
    found = _NUMBERED.get(key)
    if found is None:
        found = _NUMBERED.put(key, tuple(h for h in range(19) if layout[1][h] == total))
    return found


def _tiles_left(tiles: tuple[int, ...], placed: tuple[int, ...]) -> list[int]:
    """The tiles not yet placed, one entry per tile, in canonical order."""
    left = []
    for kind, count in enumerate(tiles):
        left += [kind] * (count - placed.count(kind))
    return left


_MARITIME: Memo[tuple, tuple[str, ...]] = Memo(20_000, "(card names, rates, types given, types stocked)")


def _maritime(names: tuple[str, ...], rate: tuple[int, ...], able: int, stocked: int) -> tuple[str, ...]:
    """The maritime trade texts (sorted) for the rates, the types the seat can give (bit mask) and the
    types the bank holds (bit mask); memoised, as the same few combinations recur all game."""
    key = (names, rate, able, stocked)
    found = _MARITIME.get(key)
    if found is None:
        out = [f"trade {r}{names[x]} for 1{names[y]}" for x, r in enumerate(rate) if able >> x & 1
               for y in range(len(names)) if y != x and stocked >> y & 1]
        out.sort()
        found = _MARITIME.put(key, tuple(out))
    return found


_DISCARDS: Memo[tuple, list[str]] = Memo(20_000, "(a hand, the cards to discard, card names)")


def _discards(hand: tuple[int, ...], k: int, names: tuple[str, ...]) -> list[str]:
    key = (hand, k, names)
    found = _DISCARDS.get(key)
    if found is None:
        found = _DISCARDS.put(key, sorted("discard " + K.multiset_text(m, names) for m in K.submultisets(hand, k)))
    return list(found)

