"""Catan: Cities & Knights (docs/rules/catan-ck.md) as an extension of the base engine `Catan`.

The board, building, trading, offers, Longest Road and the random board come from the base class;
this class adds the C&K state (`CKExt` in `CatanState.ext`), its steps and verbs. A roll and every
card effect that needs several seats' choices put their work on an *agenda* (a tuple of small task
tuples in `ext.agenda`, public): `_resume` runs the tasks in order until one waits for a seat or for
chance, and returns to main when none is left. Progress cards are in progress.py (a mixin), knights
and their paths in knights.py, the decks (pools, epochs, deals) in decks.py.
"""

from __future__ import annotations

from typing import Any

from engines.catan import cards as K
from engines.catan.board import HEX_NODE_MASK, NODE_BIT, NODE_HEXES, blocked_nodes
from engines.catan.echo import CHANCE, remember
from engines.catan.game import Catan, _hexes_numbered, _put
from engines.catan.state import (
    CONFIRM,
    DISCARD,
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
    pack_layout,
    pack_seat,
)
from engines.catan.trade import OfferTable
from engines.catan_ck import decks
from engines.catan_ck.cards import (
    DECK_POOL,
    DECKS,
    NAMES,
    PROGRESS,
    SCIENCE,
    TRACK_COMMODITY,
    ZERO25,
)
from engines.catan_ck.knights import KnightsMixin
from engines.catan_ck.notation import CK_FORMS, CKNotation
from engines.catan_ck.progress import ProgressMixin
from engines.catan_ck.resign import eliminate
from engines.catan_ck.state import CKExt, CKSeat, PHand
from engines.catan_ck.steps import (
    AQUEDUCT,
    BURY,
    BY_ACTIVE,
    BY_QUEUE,
    COMMIT,
    DESERT,
    DRAW,
    DRAWN,
    EVENT,
    GIVE,
    HARBOR,
    LOOK,
    METRO,
    PICK,
    PILLAGE,
    RECRUIT,
    REPLACE,
    RETREAT,
    SETUP_CITY,
    SHOW,
    TAKE,
    WORDS_OF_STEP,
)
from engines.catan_ck.view import describe as ck_describe
from engines.catan_ck.view import view as ck_view
from engines.contract import Awaiting, Chance, IllegalAction, Option, Result

__all__ = ["CatanCK"]

_MOVE = tuple(Awaiting("move", (s,)) for s in range(8))
_OVER = Awaiting("over")
_ROLL = Awaiting("chance", (), Chance("dice", sides=(6, 6, 6), label="roll of the red, white and event dice"))
_EVENT = Awaiting("chance", (), Chance("dice", sides=(6,), label="event die (after an alchemist)"))
_STEAL = tuple(Awaiting("chance", (), Chance("pick", n=k, label="card stolen")) for k in range(300))

#: yields of a city per terrain (hills, forest, pasture, fields, mountains), as (resource, commodity, count)
_CITY_YIELD = ((0, -1, 2), (1, 7, 1), (2, 5, 1), (3, -1, 2), (4, 6, 1))
_WALL = (2, 0, 0, 0, 0, 0, 0, 0)
#: verbs after which nobody's victory points can have changed (a roll or a trade changes only cards)
# main_legal's memo compares every field but `offers`
_OFFERS = CatanState._fields.index("offers")
_AFTER_OFFERS = _OFFERS + 1
_NO_POINTS = frozenset(("offer", "accept", "decline", "confirm", "cancel", "trade", "discard", "activate", "roll",
                        "aqueduct", "harbor", "keep", "bury"))
_TASKS_OF_SEAT = frozenset(("draw", "pick", "pillage", "aqueduct", "bishopsteal", "harbor", "give", "metro"))


class CatanCK(KnightsMixin, ProgressMixin, Catan):
    id = "catan-ck"
    title = "Catan: Cities & Knights"
    options = {**Catan.options,
               "defense": Option(default="all", choices=("all", "choose"),
                                 help="all: every active knight defends; choose: each seat commits its knights"),
               "spy": Option(default="private", choices=("private", "public"),
                             help="private: the spied hand is shown to the spy only (the protocol's look); "
                                  "public: to everybody (the spec's D19)")}
    rules_version = "2"  # 2: the defense bug, D37, D38 (issue 26)
    names = NAMES
    notation = CKNotation()
    offers_table = OfferTable(NAMES, 3, memo=131072)   # 8 types capped at 3: many more hand keys, a bigger memo
    win_vp = 13

    verb_steps: dict[str, tuple[str, ...]] = {
        "settle": (SETUP_SETTLE, MAIN), "city": (SETUP_CITY, MAIN), "road": (SETUP_ROAD, MAIN, FREE_ROAD, REPLACE),
        "roll": (PRE_ROLL,), "play": (PRE_ROLL, MAIN), "discard": (DISCARD,), "robber": (ROBBER,), "steal": (STEAL,),
        "trade": (MAIN,), "offer": (MAIN,), "accept": (RESPOND,), "decline": (RESPOND,), "confirm": (CONFIRM,),
        "cancel": (CONFIRM,), "end": (MAIN,), "wall": (MAIN,), "knight": (MAIN,), "activate": (MAIN,),
        "promote": (MAIN,), "knightmove": (MAIN,), "displace": (MAIN,), "chase": (MAIN,), "improve": (MAIN,),
        "metropolis": (METRO,), "retreat": (RETREAT,), "pillage": (PILLAGE,), "commit": (COMMIT,),
        "pick": (PICK,), "keep": (DRAWN,), "reveal": (DRAWN,), "bury": (BURY, MAIN), "aqueduct": (AQUEDUCT,),
        "desert": (DESERT,), "recruit": (RECRUIT,), "skip": (RECRUIT, REPLACE, HARBOR), "take": (TAKE,),
        "give": (GIVE,), "harbor": (HARBOR,), "show": (SHOW,),
    }

    #: verbs whose handler (and the agenda it may resume: every task is public) neither reads nor writes
    #: a private part nor `ext.seen`, but for the acting seat's own part as echo.py allows; the progress
    #: cards' verbs do (echo.py)
    public_verbs: frozenset[str] = frozenset((
        "settle", "city", "road", "roll", "discard", "robber", "steal", "trade", "offer", "accept", "decline",
        "confirm", "cancel", "end", "wall", "knight", "activate", "promote", "knightmove", "displace", "chase",
        "improve", "metropolis", "retreat", "pillage", "commit", "pick", "aqueduct",
        # these write the acting seat's own part of `private` from that part alone, and skip every check of
        # it where it is unknown (decks.keep, decks.reveal): a copy that knows it gets the remembered one
        "keep", "reveal"))

    def __init__(self) -> None:
        super().__init__()
        self.cost_knight = (0, 0, 1, 0, 1, 0, 0, 0)
        self.cost_grain = (0, 0, 0, 1, 0, 0, 0, 0)
        #: the last main list worked out (main_legal): (seat, state, parts before the offers, offer texts or
        #: None when not yet needed, parts after them)
        self._main_memo: tuple[int, CatanState, list[str], list[str] | None, list[str]] | None = None

    # ============================================================================ start

    def start(self, players: int, options: dict[str, Any]) -> CatanState:
        s = super().start(players, options)
        ext = CKExt(seats=(CKSeat(),) * players, defense=options.get("defense", "all"),
                    spy=options.get("spy", "private"), epoch_pool=DECK_POOL, seen=(None,) * players)
        return s.put(bank=(19,) * 5 + (12,) * 3, ext=ext, private=(PHand(),) * players, gone=ZERO25, deck=0)

    # ============================================================================ who acts

    def actor(self, s: CatanState) -> int:
        """The seat to act (-1: chance or over)."""
        step = s.step
        if step in BY_ACTIVE:
            return s.active
        if step in BY_QUEUE:
            return s.queue[0]
        return -1

    def awaiting(self, inner: CatanState) -> Awaiting:
        s = inner
        step = s.step
        if step in BY_ACTIVE:
            return _MOVE[s.active]
        if step in BY_QUEUE:
            return _MOVE[s.queue[0]]
        if step == ROLL:
            return _ROLL
        if step == EVENT:
            return _EVENT
        if step == DRAW:
            return decks.deal_chance(s.ext, *s.ext.ctx)
        if step == LOOK:
            player, target = s.ext.ctx
            return _show(player, target)
        if step == STEAL_PICK:
            return _STEAL[sum(s.seats[s.victim].hand)]
        if step in (TERRAIN, SPIRAL, HARBOUR):
            return super().awaiting(s)
        return _OVER

    # ============================================================================ public facts

    def public_vp(self, s: CatanState, seat: int) -> int:
        me = s.seats[seat]
        x = s.ext
        cs = x.seats[seat]
        vp = me.settlements.bit_count() + 2 * me.cities.bit_count() + 2 * (s.longest == seat) + cs.defender
        if cs.vpcards:
            vp += cs.vpcards.bit_count()
        for owner in x.metro:
            if owner == seat:
                vp += 2
        if x.merchant_owner == seat:
            vp += 1
        return vp

    def blockers(self, s: CatanState, seats: tuple, p: int) -> int:
        mask = 0
        for i, seat in enumerate(seats):
            if i != p:
                mask |= seat.settlements | seat.cities
        for i, cs in enumerate(s.ext.seats):
            if i != p:
                mask |= cs.k1 | cs.k2 | cs.k3
        return mask

    def free_nodes(self, s: CatanState) -> int:
        return ~s.ext.knights() & ((1 << 54) - 1)

    def settlements_left(self, s: CatanState, seat: int) -> int:
        return 5 - s.seats[seat].settlements.bit_count() + s.ext.seats[seat].reduced.bit_count()

    def cities_left(self, s: CatanState, seat: int) -> int:
        return 4 - s.seats[seat].cities.bit_count() - s.ext.seats[seat].reduced.bit_count()

    def seat_rates(self, s: CatanState, seat: int, merchant: bool = True) -> tuple[int, ...]:
        """The seat's maritime rates; `merchant=False` leaves out the merchant's 2:1 (D37: a merchant
        fleet is judged without it, since the merchant may still move this turn)."""
        rate = super().seat_rates(s, seat)
        x = s.ext
        cs = x.seats[seat]
        fleet = x.fleet if seat == s.active else 0
        merchant = merchant and x.merchant_owner == seat
        if cs.levels[0] < 3 and not fleet and not merchant:
            return rate
        out = list(rate)
        if cs.levels[0] >= 3:
            out[5] = out[6] = out[7] = 2
        if merchant:
            r = K.TERRAIN_RESOURCE[s.layout[0][x.merchant]]
            if r >= 0:
                out[r] = 2
        for t in range(8):
            if fleet >> t & 1:
                out[t] = 2
        return tuple(out)

    def metro_nodes(self, x: CKExt, seat: int) -> int:
        mask = 0
        for t in range(3):
            if x.metro[t] == seat:
                mask |= NODE_BIT[x.metro_at[t]]
        return mask

    def discard_limit(self, s: CatanState, seat: int) -> int:
        return 7 + 2 * s.ext.seats[seat].walls.bit_count()

    def order_from(self, s: CatanState, first: int, include: bool = True) -> tuple[int, ...]:
        """Seats still in the game clockwise from `first` (included or not)."""
        n = s.n
        alive = s.alive()
        start = 0 if include else 1
        return tuple(o for o in ((first + i) % n for i in range(start, n)) if o in alive)

    def produce_owed(self, s: CatanState, total: int) -> list[list[int]]:
        owed = [[0] * 8 for _ in range(s.n)]
        terrain = s.layout[0]
        for h in _hexes_numbered(s.layout, total):
            if h == s.robber:
                continue
            t = terrain[h]
            if t > 4:
                continue
            mask = HEX_NODE_MASK[h]
            res, com, k = _CITY_YIELD[t]
            for o, seat in enumerate(s.seats):
                settled = (seat.settlements & mask).bit_count()
                cities = (seat.cities & mask).bit_count()
                if settled or cities:
                    row = owed[o]
                    row[res] += settled + k * cities
                    if com >= 0 and cities:
                        row[com] += cities
        return owed

    # ============================================================================ legal

    def legal(self, inner: CatanState, seat: int) -> list[str]:
        s = inner
        if seat != self.actor(s):
            return []
        return self.step_legal(s, seat)

    def step_legal(self, s: CatanState, seat: int) -> list[str]:
        step = s.step
        N = self.notation
        x = s.ext
        if step == MAIN:
            return self.main_legal(s, seat)
        if step == PRE_ROLL:
            return [*self.alchemist_texts(s, seat), "roll"]
        if step == DRAWN:
            return decks.drawn_legal(s, seat)
        if step == BURY:
            return [N.bury[g] for g in self.holdable(s, seat)]
        if step == SETUP_CITY:
            mask = ~blocked_nodes(self.buildings(s)) & self.free_nodes(s)
            return list(N.cities(mask))
        if step == PILLAGE:
            mask = s.seats[seat].cities & ~self.metro_nodes(x, seat)
            return [N.pillage[n] for n in N.node_order if mask >> n & 1]
        if step == PICK:
            return [f"pick {DECKS[d]}" for d in sorted(range(3), key=lambda d: DECKS[d]) if decks.drawable(x, d)]
        if step == AQUEDUCT:
            return sorted(f"aqueduct {K.RESOURCES[r]}" for r in range(5) if s.bank[r])
        if step == METRO:
            mask = s.seats[seat].cities & ~self.metro_nodes(x, seat)
            return [N.metropolis[n] for n in N.node_order if mask >> n & 1]
        if step == COMMIT:
            return self.commit_legal(s, seat)
        if step == RETREAT:
            mask = self.retreat_mask(s, seat)
            return [N.retreat[n] for n in N.node_order if mask >> n & 1]
        if step in (DESERT, RECRUIT, REPLACE, TAKE, GIVE, HARBOR, SHOW):
            return self.card_step_legal(s, seat)
        if step == ROBBER:
            return [N.robber[h] for h in N.hex_order if h != s.robber]
        return super().step_legal(s, seat)

    def main_legal(self, s: CatanState, seat: int) -> list[str]:
        """The main step's list. A declined or cancelled offer brings the same seat back to main with only
        the offer count changed, so the last list is remembered (one entry, its state held strongly) and
        given again when every other field is equal: the list reads the count only to decide whether
        offers may be made at all, and that gate is applied afresh here."""
        memo = self._main_memo
        if (memo is not None and memo[0] == seat and s[:_OFFERS] == memo[1][:_OFFERS]
                and s[_AFTER_OFFERS:] == memo[1][_AFTER_OFFERS:]):
            _, _, head, offers, tail = memo
        else:
            head, tail = self.main_parts(s, seat)
            offers = None
        if s.domestic and s.offers < self.max_offers:
            if offers is None:
                alive = s.alive()
                offers = self.offers_table.texts(
                    seat, tuple(p.hand if i in alive else None for i, p in enumerate(s.seats)))
            out = [*head, *offers, *tail]
        else:
            out = [*head, *tail]
        self._main_memo = (seat, s, head, offers, tail)
        return out

    def main_parts(self, s: CatanState, seat: int) -> tuple[list[str], list[str]]:
        """The main list without the offers: the texts before them and those after them."""
        N = self.notation
        x = s.ext
        me = s.seats[seat]
        cs = x.seats[seat]
        hand = me.hand
        out: list[str] = []
        knights = self.knight_texts(s, seat)  # (activate, chase, displace, knight, knightmove, promote)
        out += knights[0]
        holding = cs.cards()
        if holding >= 5:
            out += [N.bury[g] for g in self.holdable(s, seat)]
        out += knights[1]
        if (self.cities_left(s, seat) or cs.reduced) and hand[3] >= 2 and hand[4] >= 3:
            mask = me.settlements
            if not self.cities_left(s, seat):
                mask &= cs.reduced
            out += N.cities(mask)
        out += knights[2]
        if holding < 5:
            out.append("end")
        out += self.improve_texts(s, seat)
        out += knights[3]
        out += knights[4]
        tail = self.card_texts(s, seat)
        tail += knights[5]
        if me.roads.bit_count() < 15 and hand[0] and hand[1]:
            mask = self.road_mask(s, seat)
            tail += N.roads(mask)
        if self.settlements_left(s, seat) and hand[0] and hand[1] and hand[2] and hand[3]:
            mask = self.settle_mask(s, seat)
            tail += N.settles(mask)
        tail += self._trades(s, seat)
        if hand[0] >= 2 and cs.walls.bit_count() < 3:
            mask = me.cities & ~cs.walls
            tail += N.walls(mask)
        return out, tail

    def improve_texts(self, s: CatanState, seat: int, discount: int = 0) -> list[str]:
        out = []
        for t in (2, 0, 1):  # science, trade, politics: alphabetical order of the texts
            if self.may_improve(s, seat, t, discount):
                out.append(f"improve {DECKS[t]}")
        out.sort()
        return out

    def may_improve(self, s: CatanState, seat: int, t: int, discount: int = 0) -> bool:
        cs = s.ext.seats[seat]
        level = cs.levels[t] + 1
        if level > 5:
            return False
        cities = s.seats[seat].cities
        if not cities:
            return False
        if s.seats[seat].hand[TRACK_COMMODITY[t]] < level - discount:
            return False
        return not (level >= 4 and not cities & ~self.metro_nodes(s.ext, seat) and s.ext.metro[t] != seat)

    # ============================================================================ play

    def play(self, inner: CatanState, seat: int, action: Any) -> CatanState:
        s = inner
        parsed = self.notation.parse(action) if isinstance(action, str) else None
        if parsed is None:
            raise IllegalAction(f"{action!r} is not a Cities & Knights action (forms: {CK_FORMS})")
        if seat != self.actor(s):
            raise IllegalAction(f"not seat {seat}'s turn")
        verb = parsed[0]
        steps = self.verb_steps.get(verb)
        if steps is None or s.step not in steps:
            return self.play_other(s, seat, parsed, action)
        if verb in _NO_POINTS:  # the commonest actions (offers) change nobody's points: no victory check
            after = self.handlers[verb](s, seat, parsed, action)
        else:
            after = self.check_win(self.handlers[verb](s, seat, parsed, action))
        if verb in self.public_verbs:
            self._echo = remember(self._echo, s, seat, action, after)
        return after

    def play_other(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        if parsed[0] in ("buy", "claim"):
            raise IllegalAction(f"{action}: Cities & Knights has no development cards and no claim")
        wanted = WORDS_OF_STEP.get(s.step, "nothing")
        raise IllegalAction(f"{action}: the {s.step} step takes {wanted}")

    def check_win(self, s: CatanState) -> CatanState:
        """The game ends as soon as the active player has 13 VP (after every action and chance
        outcome, and at the start of a turn)."""
        if s.step == OVER or s.turn == 0:
            return s
        if self.public_vp(s, s.active) >= self.win_vp:
            return s.put(step=OVER, claimant=s.active, reason=f"{self.win_vp} victory points", queue=(),
                         ext=s.ext.put(agenda=(), ctx=()))
        return s

    # ---------------------------------------------------------------------------- the agenda

    def push(self, s: CatanState, *tasks: tuple) -> CatanState:
        """Put tasks in front of the agenda (they run before what was already planned)."""
        x = s.ext
        return s.put(ext=x.put(agenda=tasks + x.agenda))

    def resume(self, s: CatanState) -> CatanState:
        """Run the agenda until a task waits for a seat or chance; main when it is empty. Before each task
        the victory check runs: an active player who reached 13 VP in the middle of a roll (a Defender
        point, a printer revealed at a gate) wins there, and the roll's later steps (its production and
        aqueducts) are not made (D38)."""
        while True:
            x = s.ext
            if not x.agenda:
                return s.put(step=MAIN, queue=(), victim=-1, ext=x.put(ctx=()))
            if s.turn and self.public_vp(s, s.active) >= self.win_vp:
                return self.check_win(s)
            task = x.agenda[0]
            s = s.put(ext=x.put(agenda=x.agenda[1:], ctx=()))
            waiting = self.run_task(s, task)
            if waiting is not None:
                return waiting
            if task[0] == "restore":
                return s.put(step=task[1], queue=task[2], ext=s.ext.put(ctx=task[3]))

    def wait(self, s: CatanState, step: str, seat: int = -1, ctx: tuple = ()) -> CatanState:
        return s.put(step=step, queue=(seat,) if seat >= 0 else (), ext=s.ext.put(ctx=ctx))

    def run_task(self, s: CatanState, task: tuple) -> CatanState | None:
        kind = task[0]
        x = s.ext
        alive = s.alive()
        if kind in _TASKS_OF_SEAT and task[1] not in alive:
            return None
        if kind == "draw":
            _, seat, d = task
            return decks.start_draw(s, seat, d)
        if kind == "produce":
            return self.produce(s, task[1])
        if kind == "aqueduct":
            if any(s.bank[:5]):
                return self.wait(s, AQUEDUCT, task[1])
            return None
        if kind == "seven":
            return self.seven(s)
        if kind == "robber":
            return self.wait(s, ROBBER)
        if kind == "attack":
            return self.attack(s)
        if kind == "resolve":
            return self.resolve(s, x.commits)
        if kind == "pillage":
            seat = task[1]
            if s.seats[seat].cities & ~self.metro_nodes(x, seat):
                return self.wait(s, PILLAGE, seat)
            return None
        if kind == "pick":
            if any(decks.drawable(x, d) for d in range(3)):
                return self.wait(s, PICK, task[1])
            return None
        if kind == "metro":
            _, seat, t = task
            return self.wait(s, METRO, seat, (t,))
        if kind == "restore":
            return None
        return self.card_task(s, task)

    # ---------------------------------------------------------------------------- set-up

    def _second_placement(self, s: CatanState) -> bool:
        return False

    def _next_placement(self, s: CatanState) -> CatanState:
        s = super()._next_placement(s)
        if s.step == SETUP_SETTLE and s.setup >= s.n:
            return s.put(step=SETUP_CITY)
        return s

    def _do_city(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        if n >= 54:
            raise IllegalAction(f"{action}: there is no node {n} (nodes 0-53)")
        bit = NODE_BIT[n]
        me = s.seats[seat]
        if s.step == SETUP_CITY:
            occupied = self.buildings(s)
            if occupied & bit:
                raise IllegalAction(f"{action}: node {n} already holds a building")
            if blocked_nodes(occupied) & bit:
                raise IllegalAction(f"{action}: distance rule, a neighbouring node holds a building")
            if not self.free_nodes(s) & bit:
                raise IllegalAction(f"{action}: a knight stands on node {n}")
            got = [0] * 8
            bank = s.bank
            for h in NODE_HEXES[n]:
                r = K.TERRAIN_RESOURCE[s.layout[0][h]]
                if r >= 0 and bank[r] - got[r] > 0:
                    got[r] += 1
            me = me.put(hand=_add(me.hand, tuple(got)), cities=me.cities | bit)
            return s.put(seats=_put(s.seats, seat, me), bank=_sub(bank, tuple(got)), spot=n, step=SETUP_ROAD)
        if not me.settlements & bit:
            raise IllegalAction(f"{action}: seat {seat} has no settlement on node {n}")
        reduced = s.ext.seats[seat].reduced & bit
        if not reduced and not self.cities_left(s, seat):
            raise IllegalAction(f"{action}: seat {seat} has no city left in supply")
        if me.hand[3] < 2 or me.hand[4] < 3:
            raise IllegalAction(f"{action}: a city costs 2grain+3ore")
        return self.upgrade(s, seat, n, self.cost_city)

    def _do_road(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        if s.step == REPLACE:
            if parsed[1] == s.ext.ctx[0]:
                raise IllegalAction(f"{action}: the diplomat's road is re-placed on another edge")
            return self.resume(super()._do_road(s, seat, parsed, action))
        return super()._do_road(s, seat, parsed, action)

    def upgrade(self, s: CatanState, seat: int, n: int, cost: tuple[int, ...]) -> CatanState:
        """Settlement on `n` -> city, paying `cost` (a reduced city gets its own piece back)."""
        bit = NODE_BIT[n]
        me = s.seats[seat]
        me = me.put(hand=_sub(me.hand, cost), settlements=me.settlements & ~bit, cities=me.cities | bit)
        x = s.ext
        cs = x.seats[seat]
        if cs.reduced & bit:
            x = _seat(x, seat, cs.put(reduced=cs.reduced & ~bit))
        return s.put(seats=_put(s.seats, seat, me), bank=_add(s.bank, cost), ext=x)

    def _do_wall(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        me = s.seats[seat]
        if s.seats[seat].hand[0] < 2:
            raise IllegalAction(f"{action}: a city wall costs 2brick")
        s = self.build_wall(s, seat, n, action)
        return s.put(seats=_put(s.seats, seat, me.put(hand=_sub(me.hand, _WALL))), bank=_add(s.bank, _WALL))

    def build_wall(self, s: CatanState, seat: int, n: int, action: str) -> CatanState:
        x = s.ext
        cs = x.seats[seat]
        if n >= 54 or not s.seats[seat].cities & NODE_BIT[n]:
            raise IllegalAction(f"{action}: seat {seat} has no city on node {n}")
        if cs.walls & NODE_BIT[n]:
            raise IllegalAction(f"{action}: the city on node {n} has a wall already")
        if cs.walls.bit_count() >= 3:
            raise IllegalAction(f"{action}: seat {seat} has all 3 city walls on the board")
        return s.put(ext=_seat(x, seat, cs.put(walls=cs.walls | NODE_BIT[n])))

    # ---------------------------------------------------------------------------- improvements

    def _do_improve(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        return self.improve(s, seat, parsed[1], 0, action)

    def improve(self, s: CatanState, seat: int, t: int, discount: int, action: str) -> CatanState:
        cs = s.ext.seats[seat]
        level = cs.levels[t] + 1
        if level > 5:
            raise IllegalAction(f"{action}: the {DECKS[t]} track is at level 5 already")
        if not s.seats[seat].cities:
            raise IllegalAction(f"{action}: a city improvement needs a city")
        if level >= 4 and not s.seats[seat].cities & ~self.metro_nodes(s.ext, seat) and s.ext.metro[t] != seat:
            raise IllegalAction(f"{action}: level {level} needs a city without a metropolis")
        cost = [0] * 8
        cost[TRACK_COMMODITY[t]] = level - discount
        cost_t = tuple(cost)
        me = s.seats[seat]
        if not K.fits(cost_t, me.hand):
            raise IllegalAction(f"{action}: level {level} costs {level - discount}{NAMES[TRACK_COMMODITY[t]]}")
        levels = cs.levels[:t] + (level,) + cs.levels[t + 1:]
        x = _seat(s.ext, seat, cs.put(levels=levels))
        s = s.put(seats=_put(s.seats, seat, me.put(hand=_sub(me.hand, cost_t))), bank=_add(s.bank, cost_t), ext=x)
        owner = x.metro[t]
        if level >= 4 and owner < 0:
            return self._metro_step(s, seat, t)
        if level == 5 and owner != seat and x.seats[owner].levels[t] == 4:
            x = x.put(metro=_set(x.metro, t, -1), metro_at=_set(x.metro_at, t, -1))
            return self._metro_step(s.put(ext=x), seat, t)
        return s

    def _metro_step(self, s: CatanState, seat: int, t: int) -> CatanState:
        return self.wait(s, METRO, seat, (t,))

    def _do_metropolis(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        x = s.ext
        (t,) = x.ctx
        if n >= 54 or not s.seats[seat].cities & NODE_BIT[n] or self.metro_nodes(x, seat) & NODE_BIT[n]:
            raise IllegalAction(f"{action}: seat {seat} has no city without a metropolis on node {n}")
        x = x.put(metro=_set(x.metro, t, seat), metro_at=_set(x.metro_at, t, n))
        return self.resume(s.put(ext=x))

    # ---------------------------------------------------------------------------- the roll

    def _do_roll(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        return s.put(step=ROLL)

    def chance(self, inner: CatanState, value: Any) -> CatanState:
        s = inner
        step = s.step
        if step in (ROLL, EVENT, STEAL_PICK):
            # public outcomes, and the agenda they resume is public: remembered for the knowledge states (`echo`)
            if step == ROLL:
                out = self.after_roll(s, value)
            elif step == EVENT:
                out = self.after_roll(s, (*s.dice[:2], value[0]))
            else:
                out = self._steal(s, value)
            out = self.check_win(out)
            self._echo = remember(self._echo, s, CHANCE, value, out)
            return out
        if step == DRAW:
            out = decks.dealt(self, s, value)
        elif step == LOOK:
            out = self.shown(s, value)
        else:
            return super().chance(s, value)
        return self.check_win(out)

    def after_roll(self, s: CatanState, dice: tuple[int, ...]) -> CatanState:
        red, white, event = dice
        x = s.ext
        tasks: list[tuple] = []
        if event <= 3:
            ship = x.ship + 1
            x = x.put(ship=ship)
            if ship >= 7:
                tasks.append(("attack",))
        else:
            t = event - 4
            for o in self.order_from(s, s.active):
                level = x.seats[o].levels[t]
                if level and red <= level + 1:
                    tasks.append(("draw", o, t))
        total = red + white
        tasks.append(("produce", total) if total != 7 else ("seven",))
        s = s.put(dice=dice, ext=x.put(agenda=tuple(tasks) + x.agenda))
        return self.resume(s)

    def produce(self, s: CatanState, total: int) -> CatanState:
        owed = self.produce_owed(s, total)
        bank = list(s.bank)
        for r in range(8):
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
                seats = _put(seats, o, seats[o].put(hand=_add(seats[o].hand, tuple(owed[o]))))
        x = s.ext
        thirsty = tuple(("aqueduct", o) for o in self.order_from(s, s.active)
                        if x.seats[o].levels[SCIENCE] >= 3 and not any(owed[o]))
        s2 = s.put(seats=seats, bank=tuple(bank))
        if thirsty:
            s2 = self.push(s2, *thirsty)
        return self._continue(s2)

    def _continue(self, s: CatanState) -> CatanState:
        """A task that changed the state without waiting: go on with the agenda."""
        return self.resume(s)

    def _do_aqueduct(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        r = parsed[1]
        if not s.bank[r]:
            raise IllegalAction(f"{action}: the bank holds no {NAMES[r]}")
        one = _one(r)
        me = s.seats[seat]
        s = s.put(seats=_put(s.seats, seat, me.put(hand=_add(me.hand, one))), bank=_sub(s.bank, one))
        return self.resume(s)

    def seven(self, s: CatanState) -> CatanState:
        queue = tuple(o for o in self.order_from(s, s.active) if sum(s.seats[o].hand) > self.discard_limit(s, o))
        if s.ext.attacked:
            s = self.push(s, ("robber",))
        if queue:
            return s.put(step=DISCARD, queue=queue, ext=s.ext.put(ctx=()))
        return self.resume(s)

    def _do_discard(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        cards = parsed[1]
        me = s.seats[seat]
        need = sum(me.hand) // 2
        if sum(cards) != need:
            raise IllegalAction(f"{action}: seat {seat} must discard exactly {need} cards (half of its hand)")
        if not K.fits(cards, me.hand):
            raise IllegalAction(f"{action}: seat {seat} does not hold {self.notation.cards(cards)}")
        seats = _put(s.seats, seat, me.put(hand=_sub(me.hand, cards)))
        s = s.put(seats=seats, bank=_add(s.bank, cards), queue=s.queue[1:])
        if s.queue:
            return s
        return self.resume(s)

    # ---------------------------------------------------------------------------- robber

    def _do_robber(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        h = parsed[1]
        if h >= 19:
            raise IllegalAction(f"{action}: there is no hex h{h} (h0-h18)")
        if h == s.robber:
            raise IllegalAction(f"{action}: the robber must move to another hex")
        bishop = s.ext.ctx == ("bishop",)
        s = s.put(robber=h, ext=s.ext.put(ctx=()))
        if bishop:
            mask = HEX_NODE_MASK[h]
            victims = tuple(("bishopsteal", o) for o in self.order_from(s, seat, include=False)
                            if (s.seats[o].settlements | s.seats[o].cities) & mask)
            return self.resume(self.push(s, *victims))
        if self.candidates(s):
            return s.put(step=STEAL)
        return self.resume(s)

    def _do_steal(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        o = parsed[1]
        if o not in self.candidates(s):
            raise IllegalAction(f"{action}: seat {o} is not a candidate (an opponent with a building on the robber's "
                                "hex and at least one card)")
        return self.rob(s, o)

    def rob(self, s: CatanState, o: int) -> CatanState:
        if sum(s.seats[o].hand) == 1:
            return self._steal(s.put(victim=o), 0)
        return s.put(victim=o, step=STEAL_PICK)

    def _steal(self, s: CatanState, index: int) -> CatanState:
        victim = s.seats[s.victim]
        hand = victim.hand
        card = 0
        while index >= hand[card]:
            index -= hand[card]
            card += 1
        one = _one(card)
        thief = s.seats[s.active]
        seats = _put(s.seats, s.victim, victim.put(hand=_sub(hand, one)))
        seats = _put(seats, s.active, thief.put(hand=_add(thief.hand, one)))
        return self.resume(s.put(seats=seats, victim=-1))

    # ---------------------------------------------------------------------------- barbarians

    def attack(self, s: CatanState) -> CatanState:
        """The barbarians reach the island. With `defense=choose` the seats owning an active knight commit
        first; when none does, the attack is resolved at once with nobody's knights (K = 0), exactly as
        after every seat committed none."""
        x = s.ext
        if x.defense == "all":
            commits = tuple(cs.active for cs in x.seats)
            return self.resolve(s, commits)
        queue = tuple(o for o in self.order_from(s, s.active) if x.seats[o].active)
        if not queue:
            return self.resolve(s, (0,) * s.n)
        s = s.put(ext=x.put(commits=(0,) * s.n))
        s = self.push(s, ("resolve",))
        return s.put(step=COMMIT, queue=queue)

    def commit_legal(self, s: CatanState, seat: int) -> list[str]:
        nodes = [n for n in range(54) if s.ext.seats[seat].active >> n & 1]
        out = ["commit none"]
        for m in range(1, 1 << len(nodes)):
            out.append("commit " + " ".join(str(nodes[i]) for i in range(len(nodes)) if m >> i & 1))
        out.sort()
        return out

    def _do_commit(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        x = s.ext
        mask = 0
        for n in parsed[1]:
            if n >= 54 or not x.seats[seat].active >> n & 1:
                raise IllegalAction(f"{action}: seat {seat} has no active knight on node {n}")
            mask |= NODE_BIT[n]
        x = x.put(commits=_set(x.commits, seat, mask))
        s = s.put(ext=x, queue=s.queue[1:])
        if s.queue:
            return s
        return self.resume(s)

    def resolve(self, s: CatanState, commits: tuple[int, ...]) -> CatanState:
        x = s.ext
        alive = s.alive()
        barbarians = sum(s.seats[o].cities.bit_count() for o in alive)
        strength = [x.seats[o].strength(commits[o]) if o in alive else 0 for o in range(s.n)]
        knights = sum(strength)
        seats = tuple(cs.put(active=cs.active & ~commits[o]) if commits[o] else cs for o, cs in enumerate(x.seats))
        x = x.put(seats=seats, ship=0, attacked=True, commits=())
        s = s.put(ext=x)
        order = self.order_from(s, s.active)
        if barbarians > knights:
            exposed = [o for o in order if s.seats[o].cities & ~self.metro_nodes(x, o)]
            if exposed:
                low = min(strength[o] for o in exposed)
                s = self.push(s, *(("pillage", o) for o in exposed if strength[o] == low))
        else:
            top = max(strength[o] for o in alive)
            if top > 0:
                best = [o for o in order if strength[o] == top]
                if len(best) == 1:
                    cs = x.seats[best[0]]
                    s = s.put(ext=_seat(x, best[0], cs.put(defender=cs.defender + 1)))
                else:
                    s = self.push(s, *(("pick", o) for o in best))
        return self.resume(s)

    def _do_pillage(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        x = s.ext
        bit = NODE_BIT[n] if n < 54 else 0
        me = s.seats[seat]
        if not me.cities & bit or self.metro_nodes(x, seat) & bit:
            raise IllegalAction(f"{action}: seat {seat} has no city without a metropolis on node {n}")
        cs = x.seats[seat]
        reduced = cs.reduced
        if not self.settlements_left(s, seat):
            reduced |= bit
        me = me.put(cities=me.cities & ~bit, settlements=me.settlements | bit)
        x = _seat(x, seat, cs.put(walls=cs.walls & ~bit, reduced=reduced))
        return self.resume(s.put(seats=_put(s.seats, seat, me), ext=x))

    def _do_pick(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        d = parsed[1]
        if not decks.drawable(s.ext, d):
            raise IllegalAction(f"{action}: the {DECKS[d]} deck is entirely empty")
        return self.resume(self.push(s, ("draw", seat, d)))

    # ---------------------------------------------------------------------------- progress cards held

    def _do_keep(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        return decks.keep(self, s, seat, action)

    def _do_reveal(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        return decks.reveal(self, s, seat, parsed[1], action)

    def after_draw(self, s: CatanState, seat: int) -> CatanState:
        """The hand limit after a card came into `seat`'s hand: off turn 5 cards, on turn 6, force a bury."""
        held = s.ext.seats[seat].cards()
        if held >= 6 or (held >= 5 and seat != s.active):
            return self.wait(s, BURY, seat)
        return self.resume(s)

    def holdable(self, s: CatanState, seat: int) -> list[int]:
        """Ids `seat` may hold, in the alphabetical order of their texts (exact for a known hand)."""
        return [g for g in range(len(PROGRESS)) if decks.may_hold(s, seat, g)]

    def _do_bury(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        g = parsed[1]
        if s.step == MAIN and s.ext.seats[seat].cards() < 5:
            raise IllegalAction(f"{action}: the active player buries only while holding 5 progress cards")
        if not decks.may_hold(s, seat, g):
            raise IllegalAction(f"{action}: seat {seat} holds no {PROGRESS[g]}")
        s = decks.give_up(s, seat, g, to_under=True)
        if s.step == BURY:
            return self.resume(s)
        return s

    # ---------------------------------------------------------------------------- turn

    def _do_end(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        if s.ext.seats[seat].cards() >= 5:
            raise IllegalAction(f"{action}: seat {seat} holds 5 progress cards; play or bury one first")
        return self._next_turn(s, seat)

    def _next_turn(self, s: CatanState, ender: int) -> CatanState:
        x = s.ext
        seats = tuple(cs.put(fresh=0, promoted=0) if cs.fresh or cs.promoted else cs for cs in x.seats)
        x = x.put(seats=seats, fleet=0, harbored=0, agenda=(), ctx=(), commits=())
        alive = [o for o in s.alive() if o != ender] if ender in s.out else list(s.alive())
        nxt = next((o for o in alive if o > ender), alive[0])
        turn, rnd = s.turn + 1, s.round
        s = s.put(ext=x, turn=turn, offers=0, offer=None, queue=(), free=0, back="", victim=-1, dice=())
        if nxt <= ender:
            if s.max_rounds and rnd >= s.max_rounds:
                return s.put(step=OVER, reason="round limit", claimant=-1)
            rnd += 1
        return self.check_win(s.put(active=nxt, step=PRE_ROLL, round=rnd))

    def result(self, inner: CatanState) -> Result | None:
        s = inner
        if s.step != OVER:
            return None
        scores = tuple(0 if o in s.out else self.public_vp(s, o) for o in range(s.n))
        if s.claimant >= 0:
            return Result((s.claimant,), scores, s.reason)
        alive = s.alive()
        best = max(scores[o] for o in alive)
        return Result(tuple(o for o in alive if scores[o] == best), scores, s.reason)

    def common(self, inner: CatanState, seat: int) -> tuple[str, ...] | None:
        return None

    # ============================================================================ resignation

    def eliminate(self, inner: CatanState, seat: int) -> CatanState:
        return eliminate(self, inner, seat)

    # ============================================================================ view

    def view(self, inner: CatanState, seat: int | None) -> dict:
        return ck_view(self, inner, seat)

    def describe(self, inner: CatanState, seat: int, action: str) -> str:
        return ck_describe(self, inner, seat, action)

    def reveals(self, inner: CatanState, seat: int, action: str) -> tuple[tuple[str, int], ...]:
        return decks.reveals(self, inner, seat, action)

    def public(self, inner: CatanState) -> tuple:
        """The public part in a dozen values: texts as they are, every number packed into bytes (the
        digest of every frame costs per encoded value). Private parts and `ext.seen` are left out."""
        s = inner
        offer = s.offer
        packed = (bytes((s.n, int(s.domestic), s.active, s.robber + 1, s.longest + 1, s.setup, s.spot + 1,
                         s.victim + 1, s.free, s.offers, s.claimant + 1, len(s.dice), *s.dice, len(s.queue),
                         *s.queue, len(s.out), *s.out, *s.bank))
                  + s.max_rounds.to_bytes(4, "big") + s.turn.to_bytes(4, "big") + s.round.to_bytes(4, "big"))
        if offer is not None:
            packed += bytes((1, *offer.give, *offer.get, offer.to + 1, len(offer.accepted), *offer.accepted,
                             len(offer.declined), *offer.declined))
        return (packed, s.board, s.step, s.back, s.reason, pack_layout(s.layout),
                b"".join([pack_seat(seat) for seat in s.seats]), s.ext.public())

    def disclose(self, inner: CatanState) -> tuple[int, ...]:
        return decks.disclose(inner)

    def shows(self, inner: CatanState, value: Any) -> tuple[tuple[str, int], ...]:
        return decks.shows(inner, value)

    def show_value(self, inner: CatanState, cards: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
        return decks.show_value(inner, cards)


# -------------------------------------------------------------------------------- helpers

_SHOWS: dict[tuple[int, int], Awaiting] = {}


def _show(player: int, target: int) -> Awaiting:
    found = _SHOWS.get((player, target))
    if found is None:
        found = _SHOWS[(player, target)] = Awaiting("chance", (), Chance(
            "show", n=len(PROGRESS), private_to=player, source=target, deck="progress",
            label=f"seat {target}'s progress cards shown to seat {player}"))
    return found


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple([x + y for x, y in zip(a, b, strict=True)])


def _sub(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple([x - y for x, y in zip(a, b, strict=True)])


_ONES = tuple(tuple(int(i == t) for i in range(8)) for t in range(8))


def _one(t: int) -> tuple[int, ...]:
    return _ONES[t]


def _set(values: tuple, i: int, value: Any) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


def _seat(x: CKExt, i: int, cs: CKSeat) -> CKExt:
    return x.put(seats=x.seats[:i] + (cs,) + x.seats[i + 1:])

