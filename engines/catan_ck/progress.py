"""The 54 progress cards (docs/rules/catan-ck.md, "Card-effects table"): when each `play <id> ...` is legal,
its effect and its sub-steps (desert, recruit, replace, take, give, harbor). A mixin of `CatanCK`.

A card is listed only when the card table's "Also legal only if" condition holds (D32, D37): a target
must exist, and a card whose effect would be nothing at all (a monopoly on what nobody holds, a merchant
fleet for a type already at 2:1 without the merchant) is not legal. The table, not the bank, decides:
an irrigation or mining needs a touched hex, and is legal even when the bank has nothing left to pay,
so that two implementations list the same actions. Whether the seat holds the card is exact on its
own engine and a public plausibility check elsewhere (decks.may_hold).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines.catan import cards as K
from engines.catan.board import EDGES, HEX_NODE_MASK, NODE_BIT, NODE_EDGE_MASK, Layout, road_nodes
from engines.catan.game import _put
from engines.catan.state import DISCARD, FREE_ROAD, MAIN, PRE_ROLL, CatanState
from engines.catan_ck import decks
from engines.catan_ck.cards import DECKS, NAMES, PROGRESS, P
from engines.catan_ck.state import CKExt, CKSeat
from engines.catan_ck.steps import DESERT, GIVE, HARBOR, LOOK, RECRUIT, REPLACE, SHOW, TAKE
from engines.contract import HIDDEN, IllegalAction
from engines.memo import Memo

__all__ = ["ProgressMixin"]

_ALCHEMIST, _CRANE, _ENGINEER, _INVENTOR = P["alchemist"], P["crane"], P["engineer"], P["inventor"]
_IRRIGATION, _MEDICINE, _MINING, _ROADBUILDING = P["irrigation"], P["medicine"], P["mining"], P["roadbuilding"]
_SMITH, _BISHOP, _DESERTER, _DIPLOMAT = P["smith"], P["bishop"], P["deserter"], P["diplomat"]
_INTRIGUE, _SABOTEUR, _SPY, _WARLORD = P["intrigue"], P["saboteur"], P["spy"], P["warlord"]
_WEDDING, _HARBOR, _MASTER, _MERCHANT = P["wedding"], P["commercialharbor"], P["mastermerchant"], P["merchant"]
_FLEET, _RESMONO, _TRADEMONO = P["merchantfleet"], P["resourcemonopoly"], P["trademonopoly"]
_VP = (P["printer"], P["constitution"])
_FIELDS, _MOUNTAINS = 3, 4
_NO_INVENT = frozenset((0, 2, 6, 8, 12))
_ALCHEMY = tuple(sorted(f"play alchemist {r} {w}" for r in range(1, 7) for w in range(1, 7)))
_MEDICINE_COST = (0, 0, 0, 1, 2, 0, 0, 0)
_ALL = (1 << 54) - 1


def _seat(x: CKExt, i: int, cs: CKSeat) -> CKExt:
    return x.put(seats=x.seats[:i] + (cs,) + x.seats[i + 1:])


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple([p + q for p, q in zip(a, b, strict=True)])


def _sub(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple([p - q for p, q in zip(a, b, strict=True)])


def _set(values: tuple, i: int, value: Any) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


#: the held card ids that may be played in main (not the alchemist, not a victory point card) per
#: `PHand.held` (card_texts runs on every main list; most hands are one of a few hundred tuples)
_PLAYABLE: Memo[tuple[int, ...], tuple[int, ...]] = Memo(4096, "a hand's held card ids")


def _playable(held: tuple[int, ...]) -> tuple[int, ...]:
    return _PLAYABLE.put(held, tuple(g for g, k in enumerate(held) if k and g != _ALCHEMIST and g not in _VP))


#: smith texts per `CKSeat` (ProgressMixin.smith_texts)
_SMITH_TEXTS: Memo[CKSeat, tuple[str, ...]] = Memo(20_000, "a C&K seat's public values")


class ProgressMixin:
    """Progress cards: legality, effects, sub-steps."""

    if TYPE_CHECKING:
        # A mixin of `CatanCK`: what it uses of the rules (the Catan base's methods and tables, the other mixin's)
        # lives in the class it is mixed into, which the checker cannot see from here, so those names are Any
        # here; `CatanCK` itself is checked against them in full.
        def __getattr__(self, name: str) -> Any: ...

    # ============================================================================ legal

    def alchemist_texts(self, s: CatanState, seat: int) -> tuple[str, ...]:
        return _ALCHEMY if decks.may_hold(s, seat, _ALCHEMIST) else ()

    def card_texts(self, s: CatanState, seat: int) -> list[str]:
        """Every `play <id> ...` text legal in main (sorted)."""
        out: list[str] = []
        mine = s.private[seat]
        if mine is not HIDDEN:
            ids = _PLAYABLE.get(mine.held)
            if ids is None:
                ids = _playable(mine.held)
        else:
            ids = tuple([g for g in range(len(PROGRESS)) if decks.may_hold(s, seat, g) and g != _ALCHEMIST
                         and g not in _VP])
        for g in ids:
            out += self.texts_of(s, seat, g)
        out.sort()
        return out

    def texts_of(self, s: CatanState, seat: int, g: int) -> list[str]:
        name = PROGRESS[g]
        x = s.ext
        me = s.seats[seat]
        cs = x.seats[seat]
        alive = s.alive()
        others = [o for o in alive if o != seat]
        if g == _CRANE:
            return [f"play crane {DECKS[t]}" for t in range(3) if self.may_improve(s, seat, t, 1)]
        if g == _ENGINEER:
            if cs.walls.bit_count() >= 3:
                return []
            mask = me.cities & ~cs.walls
            return [f"play engineer {n}" for n in range(54) if mask >> n & 1]
        if g == _INVENTOR:
            nums = s.layout[1]
            ok = [h for h in range(19) if nums[h] not in _NO_INVENT]
            return [f"play inventor h{a} h{b}" for a in ok for b in ok if a < b and nums[a] != nums[b]]
        if g in (_IRRIGATION, _MINING):
            return [f"play {name}"] if self.harvest_hexes(s, seat, g) else []
        if g == _MEDICINE:
            if me.hand[3] < 1 or me.hand[4] < 2:
                return []
            mask = me.settlements if self.cities_left(s, seat) else me.settlements & cs.reduced
            return [f"play medicine {n}" for n in range(54) if mask >> n & 1]
        if g == _ROADBUILDING:
            if me.roads.bit_count() < 15 and self.road_mask(s, seat):
                return ["play roadbuilding"]
            return []
        if g == _SMITH:
            return self.smith_texts(s, seat)
        if g == _BISHOP:
            return ["play bishop"] if x.attacked else []
        if g == _DESERTER:
            return [f"play deserter {o}" for o in others if x.seats[o].knights()]
        if g == _DIPLOMAT:
            return [f"play diplomat {e}" for e in range(72) if self.open_road(s, e) >= 0]
        if g == _INTRIGUE:
            near = road_nodes(me.roads)
            mask = 0
            for o in others:
                mask |= x.seats[o].knights()
            mask &= near
            return [f"play intrigue {n}" for n in range(54) if mask >> n & 1]
        if g == _SABOTEUR:
            return ["play saboteur"] if self.sabotaged(s, seat) else []
        if g == _SPY:
            return [f"play spy {o}" for o in others if x.seats[o].cards()]
        if g == _WARLORD:
            return ["play warlord"] if cs.knights() & ~cs.active else []
        if g == _WEDDING:
            return ["play wedding"] if self.guests(s, seat) else []
        if g == _HARBOR:
            if any(me.hand[:5]) and self.harbor_partners(s, seat):
                return ["play commercialharbor"]
            return []
        if g == _MASTER:
            mine = self.public_vp(s, seat)
            out = []
            for o in others:
                hand = s.seats[o].hand
                total = sum(hand)
                if total and self.public_vp(s, o) > mine:
                    out += [f"play mastermerchant {o} {K.multiset_text(m, NAMES)}"
                            for m in K.submultisets(hand, min(2, total))]
            return out
        if g == _MERCHANT:
            own = me.settlements | me.cities
            return [f"play merchant h{h}" for h in range(19) if HEX_NODE_MASK[h] & own
                    and not (x.merchant == h and x.merchant_owner == seat)]
        if g == _FLEET:
            rates = self.seat_rates(s, seat, merchant=False)
            return [f"play merchantfleet {NAMES[t]}" for t in range(8) if rates[t] > 2]
        if g == _RESMONO:
            return [f"play resourcemonopoly {NAMES[r]}" for r in range(5) if any(s.seats[o].hand[r] for o in others)]
        if g == _TRADEMONO:
            return [f"play trademonopoly {NAMES[c]}" for c in range(5, 8) if any(s.seats[o].hand[c] for o in others)]
        return []

    def harvest_hexes(self, s: CatanState, seat: int, g: int) -> int:
        """The fields (irrigation) or mountains (mining) hexes the seat touches: the card is legal with
        one of them, even when the bank has nothing left to pay (the card table's condition, D37)."""
        terrain = _FIELDS if g == _IRRIGATION else _MOUNTAINS
        own = s.seats[seat].settlements | s.seats[seat].cities
        return sum(1 for h in range(19) if s.layout[0][h] == terrain and HEX_NODE_MASK[h] & own)

    def harvest(self, s: CatanState, seat: int, g: int) -> int:
        """Cards an irrigation (grain) or mining (ore) gives now: 2 per touched hex, as far as the bank
        holds them."""
        return min(2 * self.harvest_hexes(s, seat, g), s.bank[3 if g == _IRRIGATION else 4])

    def smith_texts(self, s: CatanState, seat: int) -> list[str]:
        """The smith's texts. They depend on the seat's knights alone (`promotable`, `smith` and
        `promote_knight` read nothing but its `CKSeat`), and trying every pair of knights costs tens
        of microseconds, so they are memoised on that `CKSeat`."""
        cs = s.ext.seats[seat]
        found = _SMITH_TEXTS.get(cs)
        if found is None:
            found = _SMITH_TEXTS.put(cs, tuple(self._smith_texts(s, seat)))
        return list(found)

    def _smith_texts(self, s: CatanState, seat: int) -> list[str]:
        can = self.promotable(s, seat)
        out = [f"play smith {n}" for n in range(54) if can >> n & 1]
        cs = s.ext.seats[seat]
        mask = (cs.k1 | cs.k2) & ~cs.promoted
        nodes = [n for n in range(54) if mask >> n & 1]
        for i, a in enumerate(nodes):
            for b in nodes[i + 1:]:
                try:
                    self.smith(s, seat, (a, b), "")
                except IllegalAction:
                    continue
                out.append(f"play smith {a} {b}")
        return out

    def smith(self, s: CatanState, seat: int, nodes: tuple[int, ...], action: str) -> CatanState:
        cs = s.ext.seats[seat]
        for n in nodes:
            self._own_knight(s, seat, n, action)
        order = sorted(nodes, key=lambda n: (-cs.level_at(NODE_BIT[n]), n))
        for n in order:
            s = self.promote_knight(s, seat, n, action)
        return s

    def open_road(self, s: CatanState, e: int) -> int:
        """The owner of the road on edge e if it is open (at one end its owner has no building, knight
        or other road), else -1."""
        bit = 1 << e
        for o, seat in enumerate(s.seats):
            if seat.roads & bit:
                own = seat.settlements | seat.cities | s.ext.seats[o].knights()
                others = seat.roads & ~bit
                for v in EDGES[e]:
                    if not own & NODE_BIT[v] and not others & NODE_EDGE_MASK[v]:
                        return o
                return -1
        return -1

    def sabotaged(self, s: CatanState, seat: int) -> tuple[int, ...]:
        mine = self.public_vp(s, seat)
        return tuple(o for o in self.order_from(s, seat, include=False)
                     if self.public_vp(s, o) >= mine and sum(s.seats[o].hand) >= 2)

    def guests(self, s: CatanState, seat: int) -> tuple[int, ...]:
        mine = self.public_vp(s, seat)
        return tuple(o for o in self.order_from(s, seat, include=False)
                     if self.public_vp(s, o) > mine and sum(s.seats[o].hand))

    def harbor_partners(self, s: CatanState, seat: int) -> tuple[int, ...]:
        used = s.ext.harbored
        return tuple(o for o in self.order_from(s, seat, include=False)
                     if not used >> o & 1 and any(s.seats[o].hand[5:]))

    # ============================================================================ play

    def _do_play(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        _, g, arg = parsed
        name = PROGRESS[g]
        if g in _VP:
            raise IllegalAction(f"{action}: a {name} is never played (it is revealed when drawn)")
        if (g == _ALCHEMIST) != (s.step == PRE_ROLL):
            raise IllegalAction(f"{action}: the alchemist is played only before the roll, other cards only in main")
        if not decks.may_hold(s, seat, g):
            raise IllegalAction(f"{action}: seat {seat} holds no {name}")
        if g == _ALCHEMIST:
            red, white = arg
            if not (1 <= red <= 6 and 1 <= white <= 6):
                raise IllegalAction(f"{action}: the dice show 1 to 6")
            s = decks.give_up(s, seat, g, to_under=True)
            return s.put(dice=(red, white), step="event")
        if action not in self.texts_of(s, seat, g):
            raise IllegalAction(f"{action}: {self.why_not(s, seat, g, arg)}")
        s = decks.give_up(s, seat, g, to_under=True)
        return self.effect(s, seat, g, arg, action)

    def why_not(self, s: CatanState, seat: int, g: int, arg: Any) -> str:
        reasons = {
            _CRANE: "that improvement is not possible, even one commodity cheaper",
            _ENGINEER: "needs an own city without a wall, and fewer than 3 walls",
            _INVENTOR: "two different hexes, a < b, with different tokens other than 2, 6, 8 and 12",
            _IRRIGATION: "a fields hex touched by an own settlement or city", _MINING: "a mountains hex touched by "
            "an own settlement or city", _MEDICINE: "an own settlement, a city piece, and 2ore+1grain",
            _ROADBUILDING: "no road can be placed", _SMITH: "each named own knight must be promotable (nodes "
            "ascending)", _BISHOP: "the robber is locked until the first barbarian attack",
            _DESERTER: "an opponent with a knight on the board", _DIPLOMAT: "an open road",
            _INTRIGUE: "an opponent's knight on a node one of your roads touches",
            _SABOTEUR: "no opponent with as many or more VP holds 2 cards", _SPY: "an opponent holding a progress card",
            _WARLORD: "no inactive knight", _WEDDING: "no opponent with more VP holds a card",
            _HARBOR: "a resource in hand and an opponent with a commodity not yet traded with this turn",
            _MASTER: "an opponent with more VP, and exactly min(2, his cards) cards he holds",
            _MERCHANT: "a land hex touched by an own settlement or city (not where you already have the merchant)",
            _FLEET: "a card type whose rate without the merchant is above 2 (D37)",
            _RESMONO: "a resource some opponent holds", _TRADEMONO: "a commodity some opponent holds",
        }
        return f"the {PROGRESS[g]} needs {reasons.get(g, 'other conditions')}"

    def effect(self, s: CatanState, seat: int, g: int, arg: Any, action: str) -> CatanState:
        x = s.ext
        me = s.seats[seat]
        if g == _CRANE:
            return self.improve(s, seat, arg, 1, action)
        if g == _ENGINEER:
            return self.build_wall(s, seat, arg, action)
        if g == _INVENTOR:
            a, b = arg
            numbers = list(s.layout[1])
            numbers[a], numbers[b] = numbers[b], numbers[a]
            return s.put(layout=Layout(s.layout[0], tuple(numbers), s.layout[2]))
        if g in (_IRRIGATION, _MINING):
            k = self.harvest(s, seat, g)
            got = [0] * 8
            got[3 if g == _IRRIGATION else 4] = k
            got_t = tuple(got)
            return s.put(seats=_put(s.seats, seat, me.put(hand=_add(me.hand, got_t))), bank=_sub(s.bank, got_t))
        if g == _MEDICINE:
            return self.upgrade(s, seat, arg, _MEDICINE_COST)
        if g == _ROADBUILDING:
            return s.put(step=FREE_ROAD, free=2, back=MAIN)
        if g == _SMITH:
            return self.smith(s, seat, arg, action)
        if g == _BISHOP:
            return s.put(step="robber", ext=x.put(ctx=("bishop",)))
        if g == _DESERTER:
            return s.put(step=DESERT, queue=(arg,), ext=x.put(ctx=(seat,)))
        if g == _DIPLOMAT:
            o = self.open_road(s, arg)
            owner = s.seats[o]
            s = s.put(seats=_put(s.seats, o, owner.put(roads=owner.roads & ~(1 << arg))))
            if o == seat:
                s = self.push(s, ("relength",))
                return s.put(step=REPLACE, ext=s.ext.put(ctx=(arg,)))
            return self.relength_all(s)
        if g == _INTRIGUE:
            o = self.knight_owner(x, arg)
            x, mark = self.take_knight(x, o, arg)
            return self.displaced(s.put(ext=x), o, arg, mark)
        if g == _SABOTEUR:
            return s.put(step=DISCARD, queue=self.sabotaged(s, seat), ext=x.put(ctx=()))
        if g == _SPY:
            if x.spy == "private":
                return s.put(step=LOOK, queue=(), ext=x.put(ctx=(seat, arg)))
            return s.put(step=SHOW, queue=(arg,), ext=x.put(ctx=(seat, arg)))
        if g == _WARLORD:
            cs = x.seats[seat]
            mine = cs.knights()
            return s.put(ext=_seat(x, seat, cs.put(active=mine, fresh=cs.fresh | (mine & ~cs.active))))
        if g == _WEDDING:
            return self.resume(self.push(s, *(("give", o) for o in self.guests(s, seat))))
        if g == _HARBOR:
            return self.resume(self.push(s, *(("harbor", o) for o in self.harbor_partners(s, seat))))
        if g == _MASTER:
            o, cards = arg
            other = s.seats[o]
            seats = _put(s.seats, o, other.put(hand=_sub(other.hand, cards)))
            seats = _put(seats, seat, me.put(hand=_add(me.hand, cards)))
            return s.put(seats=seats)
        if g == _MERCHANT:
            return s.put(ext=x.put(merchant=arg, merchant_owner=seat))
        if g == _FLEET:
            return s.put(ext=x.put(fleet=x.fleet | (1 << arg)))
        if g in (_RESMONO, _TRADEMONO):
            most = 2 if g == _RESMONO else 1
            seats = s.seats
            taken = 0
            for o in self.order_from(s, seat, include=False):
                k = min(most, seats[o].hand[arg])
                if k:
                    taken += k
                    hand = seats[o].hand
                    seats = _put(seats, o, seats[o].put(hand=_set(hand, arg, hand[arg] - k)))
            mine = seats[seat]
            return s.put(seats=_put(seats, seat, mine.put(hand=_set(mine.hand, arg, mine.hand[arg] + taken))))
        raise IllegalAction(f"{action}: unknown card")  # pragma: no cover

    # ============================================================================ card tasks and sub-steps

    def card_task(self, s: CatanState, task: tuple) -> CatanState | None:
        kind = task[0]
        if kind == "bishopsteal":
            o = task[1]
            if sum(s.seats[o].hand):
                return self.rob(s, o)
            return None
        if kind == "give":
            o = task[1]
            if sum(s.seats[o].hand):
                return s.put(step=GIVE, queue=(o,), ext=s.ext.put(ctx=("wedding",)))
            return None
        if kind == "harbor":
            o = task[1]
            if (not s.ext.harbored >> o & 1 and any(s.seats[o].hand[5:]) and any(s.seats[s.active].hand[:5])):
                return s.put(step=HARBOR, queue=(), ext=s.ext.put(ctx=(o,)))
            return None
        if kind == "relength":
            return self.resume(self.relength_all(s))
        raise ValueError(f"unknown task {task!r}")  # pragma: no cover

    def card_step_legal(self, s: CatanState, seat: int) -> list[str]:
        step = s.step
        x = s.ext
        if step == DESERT:
            mask = x.seats[seat].knights()
            return sorted(f"desert {n}" for n in range(54) if mask >> n & 1)
        if step == RECRUIT:
            spots = self.recruit_spots(s, seat)
            return sorted(["skip", *(f"recruit {n}" for n in range(54) if spots >> n & 1)])
        if step == REPLACE:
            mask = self.road_mask(s, seat) & ~(1 << x.ctx[0]) if s.seats[seat].roads.bit_count() < 15 else 0
            return sorted(["skip", *(f"road {e}" for e in range(72) if mask >> e & 1)])
        if step == TAKE:
            return [self.notation.take[g] for g in self.takeable(s, seat)]
        if step == SHOW:
            return decks.show_texts(s, seat)
        if step == GIVE:
            hand = s.seats[seat].hand
            if x.ctx[0] == "wedding":
                k = min(2, sum(hand))
                return sorted(f"give {K.multiset_text(m, NAMES)}" for m in K.submultisets(hand, k))
            return sorted(f"give 1{NAMES[c]}" for c in range(5, 8) if hand[c])
        if step == HARBOR:
            hand = s.seats[seat].hand
            return sorted(["skip", *(f"harbor {NAMES[r]}" for r in range(5) if hand[r])])
        return []

    def recruit_spots(self, s: CatanState, seat: int) -> int:
        return road_nodes(s.seats[seat].roads) & ~self.occupied(s) & _ALL

    def takeable(self, s: CatanState, seat: int) -> list[int]:
        (target,) = s.ext.ctx
        seen = s.ext.seen[seat]
        if seen is not None and seen[0] == target:
            return [g for g in range(len(PROGRESS)) if seen[1][g]]
        return [g for g in range(len(PROGRESS)) if g not in _VP and decks.may_hold(s, target, g)]

    def shown(self, s: CatanState, value: Any) -> CatanState:
        """The spy's look: the target's hand (on the spy's engine) or HIDDEN (everywhere else)."""
        x = s.ext
        player, target = x.ctx
        if value is not HIDDEN:
            decks.check_shown(s, target, value)
            x = x.put(seen=_set(x.seen, player, (target, tuple(value))))
        return s.put(step=TAKE, queue=(), ext=x.put(ctx=(target,)))

    def _do_show(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        """spy=public: the target shows its whole hand; every card in it becomes publicly known."""
        value = parsed[1]
        decks.check_shown(s, seat, value)
        x = s.ext
        cs = x.seats[seat]
        x = _seat(x, seat, cs.put(known=tuple(value), hidden=(0, 0, 0)))
        player, target = x.ctx
        return s.put(step=TAKE, queue=(), ext=x.put(ctx=(target,)))

    def _do_take(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        g = parsed[1]
        x = s.ext
        (target,) = x.ctx
        if g not in self.takeable(s, seat):
            raise IllegalAction(f"{action}: seat {target} was not shown holding a {PROGRESS[g]}")
        s = decks.give_up(s, target, g, to_under=False)
        s = decks.receive_known(s, seat, g)
        s = s.put(ext=s.ext.put(seen=_set(s.ext.seen, seat, None), ctx=()))
        return self.after_draw(s, seat)

    def _do_desert(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        self._own_knight(s, seat, n, action)
        (player,) = s.ext.ctx
        x, (level, active, _, _) = self.take_knight(s.ext, seat, n)
        s = self.relength_all(s.put(ext=x.put(ctx=())))
        cs = x.seats[player]
        free = [lv for lv in (1, 2, 3) if lv <= level and (0, cs.k1, cs.k2, cs.k3)[lv].bit_count() < 2]
        if free and self.recruit_spots(s, player):
            return s.put(step=RECRUIT, queue=(), ext=s.ext.put(ctx=(free[-1], int(active))))
        return self.resume(s)

    def _do_recruit(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        if n >= 54 or not self.recruit_spots(s, seat) & NODE_BIT[n]:
            raise IllegalAction(f"{action}: node {n} is not a free node touched by seat {seat}'s roads")
        level, active = s.ext.ctx
        x = self.put_knight(s.ext, seat, n, level, bool(active), bool(active), False)
        return self.resume(self.relength_all(s.put(ext=x.put(ctx=()))))

    def _do_skip(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        x = s.ext
        if s.step == HARBOR:
            (o,) = x.ctx
            x = x.put(harbored=x.harbored | (1 << o))
        return self.resume(s.put(ext=x.put(ctx=())))

    def _do_harbor(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        r = parsed[1]
        if not s.seats[seat].hand[r]:
            raise IllegalAction(f"{action}: seat {seat} holds no {NAMES[r]}")
        (o,) = s.ext.ctx
        return s.put(step=GIVE, queue=(o,), ext=s.ext.put(ctx=("harbor", r)))

    def _do_give(self, s: CatanState, seat: int, parsed: tuple, action: str) -> CatanState:
        cards = parsed[1]
        x = s.ext
        me = s.seats[seat]
        if not K.fits(cards, me.hand):
            raise IllegalAction(f"{action}: seat {seat} does not hold {self.notation.cards(cards)}")
        player = s.active
        if x.ctx[0] == "wedding":
            k = min(2, sum(me.hand))
            if sum(cards) != k:
                raise IllegalAction(f"{action}: seat {seat} gives exactly {k} cards")
            seats = _put(s.seats, seat, me.put(hand=_sub(me.hand, cards)))
            other = seats[player]
            seats = _put(seats, player, other.put(hand=_add(other.hand, cards)))
            return self.resume(s.put(seats=seats, queue=(), ext=x.put(ctx=())))
        _, r = x.ctx
        if sum(cards) != 1 or not any(cards[5:]):
            raise IllegalAction(f"{action}: seat {seat} gives exactly 1 commodity")
        res = tuple(int(i == r) for i in range(8))
        seats = _put(s.seats, seat, me.put(hand=_add(_sub(me.hand, cards), res)))
        other = seats[player]
        seats = _put(seats, player, other.put(hand=_add(_sub(other.hand, res), cards)))
        return self.resume(s.put(seats=seats, queue=(), ext=x.put(ctx=(), harbored=x.harbored | (1 << seat))))
