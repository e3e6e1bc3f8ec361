"""Catan bots: `random` (uniform over the legal actions) and `smart`.

The levels (docs/bots.md): `medium` is this module's smart bot (`smart` stays its name); `easy`,
`hard` and `reference` live in bots.catan_easy, bots.catan_hard and bots.catan_reference.

The smart bot reads only `game.view(state, seat)` of its own knowledge state, plus the public board
geometry of engines.catan.board and the public road-length function. It plays by rules of thumb over
one value scale, "pips": the number of the 36 dice outcomes on which a hex produces, weighted per
resource by how much the bot lacks it.

- Placement: a node is worth the weighted pips of its hexes, a bonus for resources it does not
  produce yet, and its harbour if the bot produces that resource; roads head for the best free node.
- Each turn it picks a *target* (city, settlement, the road towards the best free node or towards
  Longest Road, or a development card), keeps it for the turn, and trades only surplus cards (beyond
  the target's cost) at its best maritime rate, or offers them 1:1 to the table, when that completes
  the target. It does not end a turn holding more than 7 cards if a card or a trade can spend some.
- The weights were tuned by self-play of a candidate seat against three copies of the previous version
  (rotating seats, random boards): see docs/rules/catan.md for the figures.
- Robber: on the hex that costs the leader most (VP-weighted pips of the opponents on it), never on
  its own; it robs the opponent with the most VP. Knights are played before the roll whenever one is
  playable (army and robber); monopoly when the table holds 3 or more of a resource; year of plenty
  for what completes a build; road building when a free node is two roads away or Longest Road is near.
- Offers of others (`judge_offer`, shared with Cities & Knights), never from a seat close to winning:
  declined when they break a build its hand makes now; accepted when they complete something it
  wants to build (for at most one card more than it gets), when it gets at least twice the cards it
  gives, or when they bring its target closer for no fewer cards.
- Its own offers: when one or two cards short of its target with surplus to pay, "1 for 1" to the
  table, then "2 for 1" (what the others' judgement takes), at most three offers a turn, so a turn
  always ends. A player is asked at most once a turn and never again for a trade it declined
  (bots.offers): an offer goes to all while everybody it would ask may be asked, else to one seat;
  the 2 for 1 therefore comes in a later turn than the 1 for 1 the table declined.
- Counter-offers, as table talk (bots.counters; docs/rules/catan.md, D24): declining an offer, it says
  which trade near it it would accept (`counter_offer`: one card more of what it lacks, that card
  instead, or one card fewer asked of it), at most once an offer; it accepts an offer equal to what it
  proposed while it holds the cards. As the active player it makes an offer proposed to it when its
  judgement of offers takes it, to that proposer only, once a turn per proposer (bots.offers).
All arithmetic is on ints.
"""

from __future__ import annotations

from typing import Any

from bots.counters import Talk
from bots.lib import RandomBot, game_actions
from bots.offers import OfferMemory
from engines.catan.board import EDGES, NODE_EDGES, NODE_HEXES, NODE_NEIGHBOURS
from engines.catan.cards import RESOURCES, multiset_text
from engines.catan.roads import road_length
from engines.core import Game, State

__all__ = ["RandomBot", "SmartBot"]

PIPS = {0: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
TERRAIN_RES = {"hills": 0, "forest": 1, "pasture": 2, "fields": 3, "mountains": 4}
COSTS = {"road": (1, 1, 0, 0, 0), "settlement": (1, 1, 1, 1, 0), "city": (0, 0, 0, 2, 3), "dev": (0, 0, 1, 1, 1)}
HARBOUR_RES = {"brick": 0, "lumber": 1, "wool": 2, "grain": 3, "ore": 4}
#: what a resource is worth before the bot's own production is known (ore and grain build cities)
BASE_WEIGHT = (10, 10, 8, 11, 10)


class Position:
    """What the bot reads from its view, in the shapes it needs."""

    def __init__(self, view: dict, me: int):
        self.view = view
        self.me = me
        self.n = len(view["hands"])
        self.out = set(view["out"])
        self.hand = tuple(view["hands"][me])
        self.bank = tuple(view["bank"])
        self.robber = view["robber"]
        self.res = [TERRAIN_RES.get(h["terrain"], -1) for h in view["hexes"]]
        self.pips = [PIPS[h["number"] or 0] for h in view["hexes"]]
        self.owner: dict[int, tuple[int, str]] = {int(k): (v[0], v[1]) for k, v in view["nodes"].items()}
        self.roads: dict[int, int] = {int(k): v for k, v in view["roads"].items()}
        self.vp = list(view["vp_public"])
        dev = view["dev"][me]
        self.cards = list(dev.get("cards", []))
        self.new = list(dev.get("new", []))
        self.my_vp = view.get("vp", self.vp[me])
        harbours = view["harbours"]
        self.harbour_at: dict[int, str] = {}
        for h in harbours:
            for node in h["nodes"]:
                if h["type"] is not None:
                    self.harbour_at[node] = h["type"]
        self.prod = self.production(me)
        self.weight = self.weights()
        self._spot: tuple[int, int, int] | None = None   # best_spot() without an extra road, asked often

    # ---------------------------------------------------------------- production

    def production(self, seat: int, extra: int = -1) -> list[int]:
        """Pips per resource of `seat`'s buildings (robber hex excluded), with a settlement on `extra`."""
        prod = [0] * 5
        for node, (owner, kind) in self.owner.items():
            if owner == seat:
                self._add(prod, node, 2 if kind == "city" else 1)
        if extra >= 0:
            self._add(prod, extra, 1)
        return prod

    def _add(self, prod: list[int], node: int, k: int) -> None:
        for h in NODE_HEXES[node]:
            r = self.res[h]
            if r >= 0 and h != self.robber:
                prod[r] += k * self.pips[h]

    def weights(self) -> list[int]:
        """Per resource: scarce for me is worth more (ints, ~10 = normal)."""
        out = []
        for r in range(5):
            p = self.prod[r]
            out.append(BASE_WEIGHT[r] + (8 if p == 0 else 4 if p <= 3 else 0))
        return out

    def node_value(self, node: int) -> int:
        """What a settlement on `node` would add, on the pips × weight scale."""
        value = 0
        new_types = set()
        for h in NODE_HEXES[node]:
            r = self.res[h]
            if r >= 0:
                value += self.pips[h] * self.weight[r]
                if self.prod[r] == 0:
                    new_types.add(r)
        value += 12 * len(new_types)
        kind = self.harbour_at.get(node)
        if kind == "3:1":
            value += 15
        elif kind in HARBOUR_RES:
            value += 4 * self.prod[HARBOUR_RES[kind]]
        return value

    # ---------------------------------------------------------------- the board around me

    def free(self, node: int) -> bool:
        """A node where a settlement could stand now (empty, distance rule)."""
        if node in self.owner:
            return False
        return not any(m in self.owner for m in NODE_NEIGHBOURS[node])

    def distances(self, extra_road: int = -1) -> dict[int, int]:
        return road_distances(self.me, self.owner, self.roads, extra_road)

    def best_spot(self, extra_road: int = -1) -> tuple[int, int, int]:
        """(score, node, roads needed) of the best free node within 3 roads (score -1: none)."""
        if extra_road >= 0:
            return best_spot(self.distances(extra_road), self.free, self.node_value)
        if self._spot is None:
            self._spot = best_spot(self.distances(), self.free, self.node_value)
        return self._spot

    def my_roads(self) -> int:
        mask = 0
        for e, o in self.roads.items():
            if o == self.me:
                mask |= 1 << e
        return mask

    def others_buildings(self) -> int:
        mask = 0
        for n, (o, _) in self.owner.items():
            if o != self.me:
                mask |= 1 << n
        return mask


def road_distances(me: int, owner: dict[int, tuple[int, str]], roads: dict[int, int],
                   extra_road: int = -1) -> dict[int, int]:
    """Roads still to build from `me`'s network to each node within 3 (through empty edges, never
    through another player's building); its own roads cost nothing. Shared by the C&K bot."""
    start = {n for n, (o, _) in owner.items() if o == me}
    for e, o in roads.items():
        if o == me:
            start.update(EDGES[e])
    if extra_road >= 0:
        start.update(EDGES[extra_road])
    dist = {n: 0 for n in start}
    frontier = sorted(start)
    for d in range(1, 4):
        nxt = []
        for a in frontier:
            if a in owner and owner[a][0] != me:
                continue  # another player's building: the network stops here
            for e in NODE_EDGES[a]:
                if e in roads and roads[e] != me:
                    continue
                b = EDGES[e][0] + EDGES[e][1] - a
                if b not in dist:
                    dist[b] = d
                    nxt.append(b)
        frontier = nxt
    return dist


def best_spot(distances: dict[int, int], free, value) -> tuple[int, int, int]:
    """(score, node, roads needed) of the best node `free` allows, scored `value(node)` - 25 per road
    (score -1: none)."""
    best = (-1, -1, 9)
    for node, d in distances.items():
        if free(node):
            score = value(node) - 25 * d
            if score > best[0]:
                best = (score, node, d)
    return best


def _missing(hand: tuple[int, ...], cost: tuple[int, ...]) -> list[int]:
    return [max(0, c - h) for h, c in zip(hand, cost, strict=True)]


def _fits(cost: tuple[int, ...], hand: tuple[int, ...]) -> bool:
    return all(h >= c for h, c in zip(hand, cost, strict=True))


def judge_offer(hand: tuple[int, ...], receive: tuple[int, ...], pay: tuple[int, ...], need: tuple[int, ...],
                wanted: list[tuple[int, ...]]) -> bool:
    """Whether to accept an offer that gives `receive` for `pay` out of `hand`, for a bot saving for
    `need` that would build any of `wanted` (their costs): never when it breaks a build the hand makes
    now; yes when it completes a wanted build for at most one card more than it gets, or brings at
    least twice the cards it costs, or brings the target closer for no fewer cards. Shared by the
    Catan and Cities & Knights bots (any number of card types)."""
    after = tuple(h - p + r for h, p, r in zip(hand, pay, receive, strict=True))
    if any(_fits(cost, hand) and not _fits(cost, after) for cost in wanted):
        return False
    got, given = sum(receive), sum(pay)
    if given <= got + 1 and any(_fits(cost, after) and not _fits(cost, hand) for cost in wanted):
        return True
    if got >= 2 * given:
        return True
    return sum(_missing(after, need)) < sum(_missing(hand, need)) and got >= given


Cards = tuple[int, ...]


def counter_offer(hand: Cards, offerer: Cards, receive: Cards, pay: Cards, need: Cards, wanted: list[Cards],
                  most: int) -> tuple[Cards, Cards] | None:
    """A trade near a declined offer (it gives the bot `receive` for `pay`) that the bot would accept, as
    (receive, pay), or None: one card more of a type its target `need` lacks (the most lacking first), or
    that card instead of what is offered, or one card fewer asked of it. The offerer must hold what he
    would give (`offerer`: his hand), the bot what it would pay, `most` cards at most, no type on both
    sides; judged by `judge_offer`, as the bot judges every offer. Shared with Cities & Knights."""
    n = len(hand)
    missing = _missing(hand, need)
    lacking = sorted((t for t in range(n) if missing[t] and not pay[t]), key=lambda t: (-missing[t], t))
    unit = [tuple(int(i == t) for i in range(n)) for t in range(n)]
    tries: list[tuple[Cards, Cards]] = []
    for t in lacking:
        tries.append((tuple(r + u for r, u in zip(receive, unit[t], strict=True)), pay))
        tries.append((unit[t], pay))
    for t in sorted((t for t in range(n) if pay[t]), key=lambda t: (-min(pay[t], need[t]), t)):
        tries.append((receive, tuple(p - u for p, u in zip(pay, unit[t], strict=True))))
    for give, take in tries:
        if ((give, take) == (receive, pay) or not any(give) or not any(take) or sum(give) + sum(take) > most
                or any(a and b for a, b in zip(give, take, strict=True))
                or not _fits(give, offerer) or not _fits(take, hand)):
            continue
        if judge_offer(hand, give, take, need, wanted):
            return give, take
    return None


class SmartBot:
    name = "smart"
    #: the most cards an offer holds (the engine's limit: docs/rules/catan.md, D8)
    most = 4

    def __init__(self) -> None:
        self.turn = -1
        self.target = ""
        self.offers = OfferMemory()   # whom its offers asked this turn, who declined what (bots.offers)
        self.talk = Talk(RESOURCES)   # the counter-proposals it heard and made (bots.counters)

    def hear(self, seat: int, text: str) -> None:
        """A chat line of another seat (a counter-proposal is taken from it; anything else is ignored)."""
        self.talk.hear(seat, text)

    def said(self) -> list[str]:
        """What it says after its latest choice (a counter-proposal with a decline)."""
        return self.talk.said()

    # ================================================================= entry

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        if "decline draw" in legal:
            return "decline draw"
        actions = game_actions(legal)
        if len(actions) == 1:
            return actions[0]
        view = game.view(state, seat)
        step = view["step"]
        if view["turn"] != self.turn:
            self.turn, self.target = view["turn"], ""
        self.talk.begin(view["turn"])
        self.offers.observe(view, seat)
        pos = Position(view, seat)
        allowed = dict.fromkeys(actions)   # ordered as legal() gives them: ties break the same in every process
        choice = None
        if step == "setup-settle":
            choice = self._setup_settle(pos, actions)
        elif step in ("setup-road", "free-road"):
            choice = self._road(pos, actions)
        elif step == "pre-roll":
            choice = self._pre_roll(pos, allowed)
        elif step == "discard":
            choice = self._discard(pos, view)
        elif step == "robber":
            choice = self._robber(pos, allowed)
        elif step == "steal":
            choice = self._steal(pos, actions)
        elif step == "respond":
            choice = self._respond(pos, view)
        elif step == "confirm":
            choice = self._confirm(pos, actions)
        elif step == "main":
            choice = self._main(pos, view, allowed)
        if choice in allowed:
            return choice
        return "end" if "end" in allowed else rng.choice(actions)

    # ================================================================= placement

    def _setup_settle(self, pos: Position, actions: list[str]) -> str:
        best, choice = -1, actions[0]
        for a in actions:
            node = int(a.split()[1])
            # the node itself, and a little for good free nodes two steps away (room to expand)
            value = 10 * pos.node_value(node)
            room = [pos.node_value(m2) for m in NODE_NEIGHBOURS[node] for m2 in NODE_NEIGHBOURS[m]
                    if m2 != node and pos.free(m2) and all(x != node for x in NODE_NEIGHBOURS[m2])]
            value += 2 * max(room, default=0)
            if value > best:
                best, choice = value, a
        return choice

    def _road(self, pos: Position, actions: list[str]) -> str:
        roads = [a for a in actions if a.startswith("road ")]
        if not roads:
            return actions[0]
        mine = pos.my_roads()
        blockers = pos.others_buildings()
        length = road_length(mine, blockers)
        view = pos.view
        holder = view["longest_road"]["holder"]
        lengths = view["longest_road"]["lengths"]
        top = max((lengths[o] for o in range(pos.n) if o != pos.me), default=0)
        best, choice = -10**9, roads[0]
        for a in roads:
            e = int(a.split()[1])
            score, _, _ = pos.best_spot(e)
            new_length = road_length(mine | (1 << e), blockers)
            if new_length > length and holder != pos.me and new_length >= 5 and new_length > top:
                score += 150  # takes Longest Road
            elif new_length > length:
                score += 8
            if score > best:
                best, choice = score, a
        return choice

    # ================================================================= robber

    def _pre_roll(self, pos: Position, allowed: dict[str, None]) -> str:
        if "play knight" in allowed:
            return "play knight"
        return "roll"

    def _robber(self, pos: Position, allowed: dict[str, None]) -> str:
        leader_vp = max((pos.vp[o] for o in range(pos.n) if o != pos.me and o not in pos.out), default=0)
        best, choice = -10**9, ""
        for h in range(19):
            text = f"robber h{h}"
            if text not in allowed:
                continue
            score = 0
            for node, (owner, kind) in pos.owner.items():
                if h in NODE_HEXES[node]:
                    k = 2 if kind == "city" else 1
                    if owner == pos.me:
                        score -= 40 * k * pos.pips[h]
                    else:
                        lead = 3 if pos.vp[owner] == leader_vp else 1
                        cards = 2 if sum(pos.view["hands"][owner]) else 0
                        score += k * pos.pips[h] * (2 + pos.vp[owner]) * lead + cards
            if score > best:
                best, choice = score, text
        return choice

    def _steal(self, pos: Position, actions: list[str]) -> str:
        def key(a: str) -> tuple[int, int]:
            o = int(a.split()[1])
            return (pos.vp[o], sum(pos.view["hands"][o]))
        return max(actions, key=key)

    # ================================================================= cards in hand

    def _discard(self, pos: Position, view: dict) -> str:
        hand = list(pos.hand)
        k = sum(hand) // 2
        need = self._need(pos)
        thrown = [0] * 5
        for _ in range(k):
            # throw the card furthest beyond what the target needs, the commonest first
            r = max((r for r in range(5) if hand[r]), key=lambda r: (hand[r] - need[r], hand[r], -pos.weight[r]))
            hand[r] -= 1
            thrown[r] += 1
        return "discard " + multiset_text(tuple(thrown))

    def _need(self, pos: Position) -> tuple[int, ...]:
        """The cost of what the bot is saving for (the turn's target, or a guess off turn)."""
        target = self.target or self._pick_target(pos)[0]
        return COSTS.get(target, COSTS["settlement"])

    def _respond(self, pos: Position, view: dict) -> str:
        offer = view["offer"]
        receive, pay = _counts(offer["give"]), _counts(offer["get"])  # the offerer gives me `give`
        if self.talk.proposed(view["turn"], receive, pay) and _fits(pay, pos.hand):
            return "accept"    # the offer it proposed itself
        if pos.vp[view["active"]] >= 7:
            return "decline"   # no help to a seat close to winning
        need, wanted = self._need(pos), self._wanted(pos)
        if judge_offer(pos.hand, receive, pay, need, wanted):
            return "accept"
        counter = counter_offer(pos.hand, tuple(view["hands"][view["active"]]), receive, pay, need, wanted, self.most)
        if counter is not None:
            self.talk.propose(view["turn"], pos.me, *counter)
        return "decline"

    def _answer(self, pos: Position, view: dict, allowed: dict[str, None]) -> str | None:
        """An offer proposed to it this turn that it would take as an offer made to it (`judge_offer`),
        to its proposer, if the offer memory allows it; never to a seat close to winning."""
        for proposal in self.talk.proposals(view["turn"]):
            if pos.vp[proposal.seat] >= 7:
                continue
            if not judge_offer(pos.hand, proposal.get, proposal.give, self._need(pos), self._wanted(pos)):
                continue
            text = self.offers.answer(view, pos.me, proposal.seat, proposal.give, proposal.get, proposal.action,
                                      allowed)
            if text is not None:
                self.talk.drop(proposal)
                return text
        return None

    def _wanted(self, pos: Position) -> list[tuple[int, ...]]:
        """The costs of what the bot would build next turn: its target, a city on one of its
        settlements, a settlement on a free node its roads reach (a development card only as the
        target: it is nearly always within reach, and not worth a trade by itself)."""
        view = pos.view
        pieces = view["pieces"][pos.me]
        wanted = [self._need(pos)]
        if pieces["cities"] and any(o == pos.me and kind == "settlement" for o, kind in pos.owner.values()):
            wanted.append(COSTS["city"])
        if pieces["settlements"] and any(d == 0 and pos.free(n) for n, d in pos.distances().items()):
            wanted.append(COSTS["settlement"])
        return wanted

    def _confirm(self, pos: Position, actions: list[str]) -> str:
        confirms = [a for a in actions if a.startswith("confirm")]
        if not confirms:
            return "cancel"
        return min(confirms, key=lambda a: pos.vp[int(a.split()[1])])

    # ================================================================= main

    def _pick_target(self, pos: Position) -> tuple[str, int]:
        """The build to save for: (name, value)."""
        view = pos.view
        pieces = view["pieces"][pos.me]
        options = []
        settlements = [n for n, (o, kind) in pos.owner.items() if o == pos.me and kind == "settlement"]
        if settlements and pieces["cities"]:
            gain = max(sum(pos.pips[h] for h in NODE_HEXES[n] if pos.res[h] >= 0) for n in settlements)
            options.append(("city", 220 + 10 * gain))
        score, node, d = pos.best_spot()
        if node >= 0 and pieces["settlements"]:
            value = 180 + pos.node_value(node)
            options.append(("settlement" if d == 0 else "road", value - 40 * d))
        if view["deck"]:
            options.append(("dev", 260))
        if pieces["roads"]:
            lengths = view["longest_road"]["lengths"]
            holder = view["longest_road"]["holder"]
            mine = lengths[pos.me]
            top = max((lengths[o] for o in range(pos.n) if o != pos.me), default=0)
            if holder != pos.me and mine >= 3 and mine + 1 > max(top, 4):
                options.append(("road", 330))
        if not options:
            return "", 0
        best = max(options, key=lambda o: o[1] - 45 * sum(_missing(pos.hand, COSTS[o[0]])))
        return best

    def _main(self, pos: Position, view: dict, allowed: dict[str, None]) -> str | None:
        # 1. build what is worth most and affordable now
        cities = [a for a in allowed if a.startswith("city ")]
        if cities:
            return max(cities, key=lambda a: sum(pos.pips[h] for h in NODE_HEXES[int(a.split()[1])]
                                                 if pos.res[h] >= 0 and h != pos.robber))
        settles = [a for a in allowed if a.startswith("settle ")]
        if settles:
            return max(settles, key=lambda a: pos.node_value(int(a.split()[1])))
        # 2. development cards that pay now
        play = self._play_card(pos, view, allowed)
        if play:
            return play
        # 3. an offer a player proposed that it likes (a counter-offer)
        answer = self._answer(pos, view, allowed)
        if answer:
            return answer
        # 4. the turn's target
        if not self.target:
            self.target = self._pick_target(pos)[0]
        target = self.target
        if not target:
            return "end"
        cost = COSTS[target]
        missing = _missing(pos.hand, cost)
        if not any(missing):
            action = self._build(pos, target, allowed)
            if action:
                self.target = ""
                return action
            self.target = target = "dev" if view["deck"] else ""
            if not target:
                return "end"
            cost = COSTS[target]
            missing = _missing(pos.hand, cost)
            if not any(missing) and "buy" in allowed:
                return "buy"
        # 5. trade surplus for what is missing, if that completes the target
        trade = self._trade(pos, view, cost, missing, allowed)
        if trade:
            return trade
        # 6. spare cards: a development card if it leaves the target's cards alone
        spare = [h - c for h, c in zip(pos.hand, cost, strict=True)]
        if "buy" in allowed and spare[2] >= 1 and spare[3] >= 1 and spare[4] >= 1:
            return "buy"
        if sum(pos.hand) > 7 and "buy" in allowed:
            return "buy"
        if sum(pos.hand) > 7:
            rates = view["rates"][pos.me]
            give = max(range(5), key=lambda r: (pos.hand[r] - cost[r] - rates[r], pos.hand[r]))
            want = max(range(5), key=lambda r: (missing[r], -pos.hand[r], pos.weight[r]))
            if give != want and pos.hand[give] >= rates[give]:
                text = f"trade {rates[give]}{RESOURCES[give]} for 1{RESOURCES[want]}"
                if text in allowed:
                    return text
        return "end"

    def _build(self, pos: Position, target: str, allowed: dict[str, None]) -> str | None:
        if target == "dev":
            return "buy" if "buy" in allowed else None
        if target == "road":
            roads = sorted(a for a in allowed if a.startswith("road "))
            return self._road(pos, roads) if roads else None
        return None  # city and settlement texts were taken above when legal

    def _trade(self, pos: Position, view: dict, cost: tuple[int, ...], missing: list[int],
               allowed: dict[str, None]) -> str | None:
        short = sum(missing)
        if not short:
            return None
        rates = view["rates"][pos.me]
        surplus = [max(0, h - c) for h, c in zip(pos.hand, cost, strict=True)]
        # maritime: can the surplus buy every missing card?
        trades = sum(s // r for s, r in zip(surplus, rates, strict=True))
        if trades >= short:
            want = max(range(5), key=lambda r: (missing[r], -r))
            give = max(range(5), key=lambda r: (surplus[r] // rates[r], surplus[r]))
            if surplus[give] >= rates[give]:
                text = f"trade {rates[give]}{RESOURCES[give]} for 1{RESOURCES[want]}"
                if text in allowed:
                    return text
        if short <= 2 and sum(surplus) >= short and view["offers_made"] < 3:
            return self._offer(pos, view, missing, surplus, allowed)
        return None

    def _offer(self, pos: Position, view: dict, missing: list[int], surplus: list[int],
               allowed: dict[str, None]) -> str | None:
        """Surplus for one missing card: 1 for 1, then 2 for 1, the largest surplus first; to whom the
        offer memory still allows (each player once a turn, never a trade it declined), at most three
        offers a turn (the turn always ends)."""
        want = max(range(5), key=lambda r: (missing[r], -r))
        get = tuple(int(r == want) for r in range(5))
        for k in (1, 2):
            for give in sorted(range(5), key=lambda r: -surplus[r]):
                if surplus[give] < k:
                    break
                side = tuple(k if r == give else 0 for r in range(5))
                prefix = f"offer {k}{RESOURCES[give]} for 1{RESOURCES[want]} to "
                text = self.offers.propose(view, pos.me, side, get, prefix, allowed)
                if text:
                    return text
        return None

    def _play_card(self, pos: Position, view: dict, allowed: dict[str, None]) -> str | None:
        plays = [a for a in allowed if a.startswith("play ")]
        if not plays:
            return None
        if "play knight" in allowed:
            return "play knight"
        # monopoly: the resource the table holds most of, worth it from 3 cards
        best, choice = 0, None
        for r, name in enumerate(RESOURCES):
            text = f"play monopoly {name}"
            if text in allowed:
                total = sum(view["hands"][o][r] for o in range(pos.n) if o != pos.me)
                if total >= 3 and total * pos.weight[r] > best:
                    best, choice = total * pos.weight[r], text
        if choice:
            return choice
        # year of plenty: what completes (or nears) the best build
        yop = [a for a in plays if a.startswith("play yearofplenty")]
        if yop:
            for name in ("city", "settlement", "dev", "road"):
                missing = _missing(pos.hand, COSTS[name])
                if 0 < sum(missing) <= 2:
                    fill = list(missing)
                    while sum(fill) < 2:
                        fill[max(range(5), key=lambda r: pos.weight[r])] += 1
                    text = "play yearofplenty " + multiset_text(tuple(fill))
                    if text in allowed:
                        return text
        if "play roadbuilding" in allowed:
            _, node, d = pos.best_spot()
            if node >= 0 and 1 <= d <= 2:
                return "play roadbuilding"
        return None


def _counts(text: str) -> tuple[int, ...]:
    counts = [0] * 5
    for term in text.split("+"):
        i = 0
        while term[i].isdigit():
            i += 1
        counts[RESOURCES.index(term[i:])] = int(term[:i])
    return tuple(counts)
