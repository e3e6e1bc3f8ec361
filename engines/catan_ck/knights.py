"""Knights (docs/rules/catan-ck.md, "New actions", "Knight marks", "Retreat"): placing, activating,
promoting, moving, displacing, chasing the robber, retreating. A mixin of `CatanCK`.

Knights are node masks per seat and level (`CKSeat.k1/k2/k3`), with `active`, `fresh` (activated this
turn) and `promoted` (this turn) masks over them. A knight cuts other players' roads (the `blockers`
hook), so every change of knights recomputes the road lengths of every seat still in the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines.catan.board import EDGES, HEX_NODE_MASK, NODE_BIT, NODE_EDGES, road_nodes
from engines.catan.game import _put
from engines.catan.state import CatanState
from engines.catan_ck.state import CKExt, CKSeat
from engines.catan_ck.steps import RETREAT
from engines.contract import IllegalAction

__all__ = ["KnightsMixin"]

_LEVEL_FIELD = ("", "k1", "k2", "k3")
_ALL = (1 << 54) - 1


def _seat(x: CKExt, i: int, cs: CKSeat) -> CKExt:
    return x.put(seats=x.seats[:i] + (cs,) + x.seats[i + 1:])


def _mask_of(cs: CKSeat, level: int) -> int:
    return (0, cs.k1, cs.k2, cs.k3)[level]


class KnightsMixin:
    """Knight verbs and the road paths they move along."""

    if TYPE_CHECKING:
        # A mixin of `CatanCK`: what it uses of the rules (the Catan base's methods and tables, the other mixin's)
        # lives in the class it is mixed into, which the checker cannot see from here, so those names are Any
        # here; `CatanCK` itself is checked against them in full.
        def __getattr__(self, name: str) -> Any: ...

    # ------------------------------------------------------------------------------ geometry

    def occupied(self, s: CatanState) -> int:
        """Nodes holding a building or a knight."""
        return self.buildings(s) | s.ext.knights()

    def others_pieces(self, s: CatanState, p: int) -> int:
        """Nodes holding another player's building or knight (they end an own road path)."""
        return self.blockers(s, s.seats, p)

    def paths(self, s: CatanState, p: int, a: int) -> int:
        """Nodes b != a with an own road path of p from a to b: along p's roads, every node strictly
        between empty or holding only p's own pieces."""
        roads = s.seats[p].roads
        if not roads:
            return 0
        stop = self.others_pieces(s, p)
        seen = NODE_BIT[a]
        frontier = [a]
        while frontier:
            v = frontier.pop()
            for e in NODE_EDGES[v]:
                if roads >> e & 1:
                    u, w = EDGES[e]
                    w = w if u == v else u
                    bit = NODE_BIT[w]
                    if not seen & bit:
                        seen |= bit
                        if not stop & bit:
                            frontier.append(w)
        return seen & ~NODE_BIT[a]

    def relength_all(self, s: CatanState) -> CatanState:
        seats, longest = self._relength(s, s.seats, list(s.alive()))
        return s.put(seats=seats, longest=longest)

    # ------------------------------------------------------------------------------ legal

    def knight_texts(self, s: CatanState, p: int) -> tuple[list[str], ...]:
        """(activate, chase, displace, knight, knightmove, promote) texts, each list sorted."""
        N = self.notation
        x = s.ext
        cs = x.seats[p]
        hand = s.seats[p].hand
        mine = cs.k1 | cs.k2 | cs.k3
        activate: list[str] = []
        chase: list[str] = []
        displace: list[str] = []
        place: list[str] = []
        moves: list[str] = []
        promote: list[str] = []
        if mine:
            if hand[3]:
                inactive = mine & ~cs.active
                activate = list(N.activates(inactive))
            ready = cs.active & ~cs.fresh
            if ready:
                if x.attacked:
                    near = ready & HEX_NODE_MASK[s.robber]
                    chase = [N.chase[n] for n in N.node_order if near >> n & 1]
                free = ~self.occupied(s) & _ALL
                for a in N.node_order:
                    if ready >> a & 1:
                        reach = self.paths(s, p, a)
                        if not reach:
                            continue
                        level = cs.level_at(NODE_BIT[a])
                        weaker = self.weaker_knights(x, p, level) & reach
                        moves += [f"knightmove {a} {b}" for b in N.node_order if (reach & free) >> b & 1]
                        displace += [f"displace {a} {b}" for b in N.node_order if weaker >> b & 1]
                moves.sort()
                displace.sort()
            if hand[2] and hand[4]:
                can = self.promotable(s, p)
                promote = list(N.promotes(can))
        if hand[2] and hand[4] and cs.k1.bit_count() < 2:
            spots = road_nodes(s.seats[p].roads) & ~self.occupied(s)
            place = list(N.knights(spots))
        return activate, chase, displace, place, moves, promote

    def weaker_knights(self, x: CKExt, p: int, level: int) -> int:
        mask = 0
        for o, cs in enumerate(x.seats):
            if o != p:
                if level > 1:
                    mask |= cs.k1
                if level > 2:
                    mask |= cs.k2
        return mask

    def promotable(self, s: CatanState, p: int) -> int:
        """Own knights that may be promoted now (marks, free pieces, the Fortress), cost aside."""
        cs = s.ext.seats[p]
        mask = 0
        if cs.k2.bit_count() < 2:
            mask |= cs.k1
        if cs.k3.bit_count() < 2 and cs.levels[1] >= 3:
            mask |= cs.k2
        return mask & ~cs.promoted

    # ------------------------------------------------------------------------------ pieces

    def put_knight(self, x: CKExt, p: int, n: int, level: int, active: bool, fresh: bool,
                   promoted: bool) -> CKExt:
        cs = x.seats[p]
        bit = NODE_BIT[n]
        field = _LEVEL_FIELD[level]
        cs = cs.put(**{field: _mask_of(cs, level) | bit},
                    active=cs.active | bit if active else cs.active,
                    fresh=cs.fresh | bit if fresh else cs.fresh,
                    promoted=cs.promoted | bit if promoted else cs.promoted)
        return _seat(x, p, cs)

    def take_knight(self, x: CKExt, p: int, n: int) -> tuple[CKExt, tuple[int, bool, bool, bool]]:
        """Remove p's knight from n: the new ext and (level, active, fresh, promoted)."""
        cs = x.seats[p]
        bit = NODE_BIT[n]
        level = cs.level_at(bit)
        mark = (level, bool(cs.active & bit), bool(cs.fresh & bit), bool(cs.promoted & bit))
        field = _LEVEL_FIELD[level]
        cs = cs.put(**{field: _mask_of(cs, level) & ~bit}, active=cs.active & ~bit, fresh=cs.fresh & ~bit,
                    promoted=cs.promoted & ~bit)
        return _seat(x, p, cs), mark

    def knight_owner(self, x: CKExt, n: int) -> int:
        bit = NODE_BIT[n]
        for o, cs in enumerate(x.seats):
            if (cs.k1 | cs.k2 | cs.k3) & bit:
                return o
        return -1

    def _own_knight(self, s: CatanState, p: int, n: int, action: str) -> CKSeat:
        cs = s.ext.seats[p]
        if n >= 54 or not (cs.k1 | cs.k2 | cs.k3) & NODE_BIT[n]:
            raise IllegalAction(f"{action}: seat {p} has no knight on node {n}")
        return cs

    def _pay(self, s: CatanState, p: int, cost: tuple[int, ...], words: str, action: str) -> CatanState:
        me = s.seats[p]
        hand = me.hand
        if any(c > h for c, h in zip(cost, hand, strict=True)):
            raise IllegalAction(f"{action}: costs {words}")
        hand = tuple([h - c for h, c in zip(hand, cost, strict=True)])
        bank = tuple([b + c for b, c in zip(s.bank, cost, strict=True)])
        return s.put(seats=_put(s.seats, p, me.put(hand=hand)), bank=bank)

    # ------------------------------------------------------------------------------ verbs

    def _do_knight(self, s: CatanState, p: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        if n >= 54:
            raise IllegalAction(f"{action}: there is no node {n} (nodes 0-53)")
        bit = NODE_BIT[n]
        if self.occupied(s) & bit:
            raise IllegalAction(f"{action}: node {n} holds a building or a knight")
        if not road_nodes(s.seats[p].roads) & bit:
            raise IllegalAction(f"{action}: none of seat {p}'s roads touches node {n}")
        if s.ext.seats[p].k1.bit_count() >= 2:
            raise IllegalAction(f"{action}: both of seat {p}'s basic knights are on the board")
        s = self._pay(s, p, self.cost_knight, "1wool+1ore", action)
        return self.relength_all(s.put(ext=self.put_knight(s.ext, p, n, 1, False, False, False)))

    def _do_activate(self, s: CatanState, p: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        cs = self._own_knight(s, p, n, action)
        bit = NODE_BIT[n]
        if cs.active & bit:
            raise IllegalAction(f"{action}: the knight on node {n} is active already")
        s = self._pay(s, p, self.cost_grain, "1grain", action)
        return s.put(ext=_seat(s.ext, p, cs.put(active=cs.active | bit, fresh=cs.fresh | bit)))

    def _do_promote(self, s: CatanState, p: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        self._own_knight(s, p, n, action)
        s = self._pay(s, p, self.cost_knight, "1wool+1ore", action)
        return self.promote_knight(s, p, n, action)

    def promote_knight(self, s: CatanState, p: int, n: int, action: str) -> CatanState:
        cs = self._own_knight(s, p, n, action)
        bit = NODE_BIT[n]
        level = cs.level_at(bit)
        if level == 3:
            raise IllegalAction(f"{action}: the knight on node {n} is mighty already")
        if cs.promoted & bit:
            raise IllegalAction(f"{action}: the knight on node {n} was promoted this turn")
        if _mask_of(cs, level + 1).bit_count() >= 2:
            raise IllegalAction(f"{action}: both of seat {p}'s level-{level + 1} knights are on the board")
        if level == 2 and cs.levels[1] < 3:
            raise IllegalAction(f"{action}: a mighty knight needs politics level 3 (the Fortress)")
        lower, upper = _LEVEL_FIELD[level], _LEVEL_FIELD[level + 1]
        cs = cs.put(**{lower: _mask_of(cs, level) & ~bit, upper: _mask_of(cs, level + 1) | bit},
                    promoted=cs.promoted | bit)
        return s.put(ext=_seat(s.ext, p, cs))

    def _ready(self, s: CatanState, p: int, a: int, action: str) -> CKSeat:
        cs = self._own_knight(s, p, a, action)
        bit = NODE_BIT[a]
        if not cs.active & bit:
            raise IllegalAction(f"{action}: the knight on node {a} is not active")
        if cs.fresh & bit:
            raise IllegalAction(f"{action}: the knight on node {a} was activated this turn")
        return cs

    def _do_knightmove(self, s: CatanState, p: int, parsed: tuple, action: str) -> CatanState:
        _, a, b = parsed
        self._ready(s, p, a, action)
        if b >= 54 or self.occupied(s) & NODE_BIT[b]:
            raise IllegalAction(f"{action}: node {b} is not free")
        if not self.paths(s, p, a) & NODE_BIT[b]:
            raise IllegalAction(f"{action}: no road path of seat {p} leads from {a} to {b}")
        x, (level, _, fresh, promoted) = self.take_knight(s.ext, p, a)
        x = self.put_knight(x, p, b, level, False, fresh, promoted)
        return self.relength_all(s.put(ext=x))

    def _do_displace(self, s: CatanState, p: int, parsed: tuple, action: str) -> CatanState:
        _, a, b = parsed
        cs = self._ready(s, p, a, action)
        x = s.ext
        o = self.knight_owner(x, b) if b < 54 else -1
        if o < 0 or o == p:
            raise IllegalAction(f"{action}: node {b} holds no opponent's knight")
        level = cs.level_at(NODE_BIT[a])
        if x.seats[o].level_at(NODE_BIT[b]) >= level:
            raise IllegalAction(f"{action}: only a weaker knight can be displaced")
        if not self.paths(s, p, a) & NODE_BIT[b]:
            raise IllegalAction(f"{action}: no road path of seat {p} leads from {a} to {b}")
        x, mark = self.take_knight(x, o, b)
        x, (lv, _, fresh, promoted) = self.take_knight(x, p, a)
        x = self.put_knight(x, p, b, lv, False, fresh, promoted)
        return self.displaced(s.put(ext=x), o, b, mark)

    def displaced(self, s: CatanState, o: int, b: int, mark: tuple) -> CatanState:
        """o's knight (level, active, fresh, promoted) was pushed off node b: retreat or supply."""
        s = self.relength_all(s)
        s2 = s.put(ext=s.ext.put(ctx=(b, *[int(v) for v in mark])))
        if self.retreat_mask(s2, o):
            return s2.put(step=RETREAT, queue=(o,))
        return self.resume(s) if s.ext.agenda else s.put(ext=s.ext.put(ctx=()))

    def retreat_mask(self, s: CatanState, o: int) -> int:
        b = s.ext.ctx[0]
        return self.paths(s, o, b) & ~self.occupied(s) & ~NODE_BIT[b]

    def _do_retreat(self, s: CatanState, o: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        if n >= 54 or not self.retreat_mask(s, o) & NODE_BIT[n]:
            raise IllegalAction(f"{action}: node {n} is not a free node on seat {o}'s roads from the knight's node")
        _, level, active, fresh, promoted = s.ext.ctx
        x = self.put_knight(s.ext, o, n, level, bool(active), bool(fresh), bool(promoted))
        return self.resume(self.relength_all(s.put(ext=x)))

    def _do_chase(self, s: CatanState, p: int, parsed: tuple, action: str) -> CatanState:
        n = parsed[1]
        cs = self._ready(s, p, n, action)
        if not s.ext.attacked:
            raise IllegalAction(f"{action}: the robber is locked until the first barbarian attack")
        if not HEX_NODE_MASK[s.robber] & NODE_BIT[n]:
            raise IllegalAction(f"{action}: node {n} is not a corner of the robber's hex")
        x = _seat(s.ext, p, cs.put(active=cs.active & ~NODE_BIT[n]))
        return s.put(ext=x.put(ctx=()), step="robber")
