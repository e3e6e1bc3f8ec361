"""Cities & Knights bots: `random` (uniform over the legal actions) and `smart`.

The levels (docs/bots.md): `medium` is this module's smart bot (`smart` stays its name); `easy` and
`hard` live in bots.catan_ck_easy and bots.catan_ck_hard.

The smart bot reads only `game.view(state, seat)` of its own knowledge state and the public board
geometry (engines.catan.board). Rules of thumb over one value scale, "pips" (the 36ths of a roll on
which a hex produces):

- Placement: the node with the most pips, more for the second pass (a city produces twice, and
  commodities on forest, pasture and mountains), plus a bonus for resources it does not have yet.
- Each main step it scores every legal action and plays the best one with a positive score, else ends
  the turn. Cities first (they make commodities), then improvements on the track whose commodity it
  gets most of (towards level 4, a metropolis and its 2 points), settlements, knights and their
  activation when the barbarian ship is near and the island's knights would not hold, walls when it
  holds many cards. Trades only exchange surplus for what completes the next build.
- Knights: kept active when the ship is 4 or more spaces along and the seat is exposed (owns a city
  without a metropolis); promoted when politics allows and the ship is near; moved only to chase the
  robber off its own hex.
- Progress cards at the right moment: the alchemist picks the dice that pay it most (and open its
  gates), monopolies only on what the table holds, irrigation/mining at once, medicine/crane/engineer/
  smith when they build, warlord just before an attack, spy on the seat with most cards (takes the best
  card), wedding/saboteur/master merchant when they hit, merchant on its richest hex, merchant fleet on
  its surplus, bishop on the leader, inventor to swap a good number onto its own hex.
- Trade: offers judged as the base bot judges them (bots.catan.judge_offer: a 2:1 in its favour, or
  one that completes a build, yes; one that breaks a build its hand makes now, no); when nothing is
  worth building and it is one or two cards short of its target, it offers surplus to the table, 1 for
  1 then 2 for 1, at most two offers a turn; a player is asked at most once a turn and never again for
  a trade it declined (bots.offers, as the base bot). Counter-offers as the base bot makes and answers
  them (bots.counters, bots.catan.counter_offer), with offers of at most 3 cards.
All arithmetic is on ints.
"""

from __future__ import annotations

from typing import Any

from bots.catan import best_spot, counter_offer, judge_offer, road_distances
from bots.counters import Talk
from bots.lib import RandomBot, game_actions
from bots.offers import OfferMemory
from engines.catan.board import EDGES, HEX_NODES, NODE_HEXES, NODE_NEIGHBOURS
from engines.core import Game, State

__all__ = ["RandomBot", "SmartBot"]

NAMES = ("brick", "lumber", "wool", "grain", "ore", "cloth", "coin", "paper")
PIPS = {0: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
TERRAIN = {"hills": 0, "forest": 1, "pasture": 2, "fields": 3, "mountains": 4}
CITY_EXTRA = {1: 7, 2: 5, 4: 6}  # a city's commodity per resource of its terrain
TRACKS = ("trade", "politics", "science")
TRACK_COMMODITY = {"trade": 5, "politics": 6, "science": 7}
COST = {"road": (1, 1, 0, 0, 0, 0, 0, 0), "settle": (1, 1, 1, 1, 0, 0, 0, 0), "city": (0, 0, 0, 2, 3, 0, 0, 0),
        "knight": (0, 0, 1, 0, 1, 0, 0, 0), "activate": (0, 0, 0, 1, 0, 0, 0, 0), "wall": (2, 0, 0, 0, 0, 0, 0, 0)}
#: how much the bot wants to keep a progress card (bury the lowest)
CARD_VALUE = {"alchemist": 6, "crane": 5, "engineer": 4, "inventor": 3, "irrigation": 6, "medicine": 7, "mining": 6,
              "roadbuilding": 4, "smith": 4, "bishop": 3, "deserter": 3, "diplomat": 2, "intrigue": 3,
              "saboteur": 4, "spy": 5, "warlord": 4, "wedding": 5, "commercialharbor": 3, "mastermerchant": 5,
              "merchant": 6, "merchantfleet": 4, "resourcemonopoly": 6, "trademonopoly": 5}


def _counts(text: str) -> list[int]:
    out = [0] * 8
    for term in text.split("+"):
        i = 0
        while term[i].isdigit():
            i += 1
        out[NAMES.index(term[i:])] += int(term[:i])
    return out


def _lacks(hand: list[int], cost: tuple[int, ...]) -> int:
    return sum(max(0, c - h) for h, c in zip(hand, cost, strict=True))


class Position:
    """The bot's reading of its view."""

    def __init__(self, view: dict, me: int):
        self.view = view
        self.me = me
        self.n = len(view["hands"])
        self.hand = list(view["hands"][me])
        self.bank = view["bank"]
        self.robber = view["robber"]
        self.res = [TERRAIN.get(h["terrain"], -1) for h in view["hexes"]]
        self.pips = [PIPS[h["number"] or 0] for h in view["hexes"]]
        self.owner = {int(k): (v[0], v[1]) for k, v in view["nodes"].items()}
        self.roads = {int(k): v for k, v in view["roads"].items()}
        self.knights = {int(k): v for k, v in view["knights"].items()}
        self.vp = view["vp_public"]
        self.levels = view["levels"][me]
        self.cards = view["progress"][me].get("cards", [])
        self.prod = self.production(me)

    def production(self, seat: int) -> list[int]:
        prod = [0] * 8
        for node, (owner, kind) in self.owner.items():
            if owner != seat:
                continue
            for h in NODE_HEXES[node]:
                r = self.res[h]
                if r < 0 or h == self.robber:
                    continue
                if kind == "city":
                    if r in CITY_EXTRA:
                        prod[r] += self.pips[h]
                        prod[CITY_EXTRA[r]] += self.pips[h]
                    else:
                        prod[r] += 2 * self.pips[h]
                else:
                    prod[r] += self.pips[h]
        return prod

    def node_value(self, node: int, city: bool = False) -> int:
        value = 0
        for h in NODE_HEXES[node]:
            r = self.res[h]
            if r < 0:
                continue
            weight = 10 + (8 if self.prod[r] == 0 else 0)
            value += self.pips[h] * weight * (2 if city else 1)
            if city and r in CITY_EXTRA:
                value += self.pips[h] * 6
        return value

    def free(self, node: int) -> bool:
        if node in self.owner or node in self.knights:
            return False
        return not any(m in self.owner for m in NODE_NEIGHBOURS[node])

    def distances(self) -> dict[int, int]:
        return road_distances(self.me, self.owner, self.roads)

    def best_spot(self) -> tuple[int, int, int]:
        return best_spot(self.distances(), self.free, self.node_value)

    def strength(self, seat: int, active_only: bool = True) -> int:
        return sum(v[1] for v in self.knights.values() if v[0] == seat and (v[2] or not active_only))

    def exposed(self) -> bool:
        metro = {v[1] for v in self.view["metropolises"].values() if v and v[0] == self.me}
        return any(o == self.me and kind == "city" and n not in metro for n, (o, kind) in self.owner.items())

    def danger(self) -> bool:
        """The barbarians are coming and the island's active knights would not hold them."""
        if self.view["ship"] < 4:
            return False
        cities = sum(1 for _, kind in self.owner.values() if kind == "city")
        total = sum(v[1] for v in self.knights.values() if v[2])
        return cities > total or self.strength(self.me) == 0


class SmartBot:
    name = "smart"
    #: the most cards an offer holds (docs/rules/catan-ck.md, D36)
    most = 3

    def __init__(self) -> None:
        self.turn = -1
        self.offers = OfferMemory()   # whom its offers asked this turn, who declined what (bots.offers)
        self.talk = Talk(NAMES)       # the counter-proposals it heard and made (bots.counters)

    def hear(self, seat: int, text: str) -> None:
        """A chat line of another seat (a counter-proposal is taken from it; anything else is ignored)."""
        self.talk.hear(seat, text)

    def said(self) -> list[str]:
        """What it says after its latest choice (a counter-proposal with a decline)."""
        return self.talk.said()

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        if "decline draw" in legal:
            return "decline draw"
        actions = game_actions(legal)
        if len(actions) == 1:
            return actions[0]
        view = game.view(state, seat)
        if view["turn"] != self.turn:
            self.turn = view["turn"]
        self.talk.begin(view["turn"])
        self.offers.observe(view, seat)
        pos = Position(view, seat)
        step = view["step"]
        handler = getattr(self, "_" + step.replace("-", "_"), None)
        choice = handler(pos, actions) if handler is not None else None
        if choice in actions:
            return choice
        if "end" in actions:
            return "end"
        if "skip" in actions:
            return "skip"
        return rng.choice(actions)

    # ---------------------------------------------------------------- set-up

    def _setup_settle(self, pos: Position, actions: list[str]) -> str:
        return max(actions, key=lambda a: pos.node_value(int(a.split()[1])))

    def _setup_city(self, pos: Position, actions: list[str]) -> str:
        return max(actions, key=lambda a: pos.node_value(int(a.split()[1]), city=True))

    def _setup_road(self, pos: Position, actions: list[str]) -> str:
        return self._toward(pos, actions)

    def _free_road(self, pos: Position, actions: list[str]) -> str:
        return self._toward(pos, actions)

    def _replace(self, pos: Position, actions: list[str]) -> str:
        return self._toward(pos, [a for a in actions if a != "skip"]) if len(actions) > 1 else "skip"

    def _toward(self, pos: Position, actions: list[str]) -> str:
        roads = [a for a in actions if a.startswith("road ")]
        if not roads:
            return actions[0]
        _, target, _ = pos.best_spot()

        def score(a: str) -> int:
            a_node, b_node = EDGES[int(a.split()[1])]
            best = 0
            for node in (a_node, b_node):
                for m in (node, *NODE_NEIGHBOURS[node]):
                    if pos.free(m):
                        best = max(best, pos.node_value(m) - (0 if m == node else 20))
            return best + (50 if target in (a_node, b_node) else 0)
        return max(roads, key=score)

    # ---------------------------------------------------------------- the roll

    def _pre_roll(self, pos: Position, actions: list[str]) -> str:
        alchemy = [a for a in actions if a.startswith("play alchemist")]
        if not alchemy:
            return "roll"

        def gain(a: str) -> int:
            red, white = int(a.split()[2]), int(a.split()[3])
            total = red + white
            if total == 7:
                return -100
            value = 0
            for node, (owner, kind) in pos.owner.items():
                for h in NODE_HEXES[node]:
                    if pos.view["hexes"][h]["number"] == total and h != pos.robber:
                        sign = 1 if owner == pos.me else -1
                        value += sign * (2 if kind == "city" else 1) * 10
            return value * 4 - red
        return max(alchemy, key=gain)

    def _discard(self, pos: Position, actions: list[str]) -> str:
        need = self._need(pos)

        def kept(a: str) -> int:
            thrown = _counts(a.split()[1])
            left = [h - t for h, t in zip(pos.hand, thrown, strict=True)]
            return -_lacks(left, need) * 10 + sum(left[5:]) * 3
        return max(actions, key=kept)

    def _robber(self, pos: Position, actions: list[str]) -> str:
        lead = max((pos.vp[o] for o in range(pos.n) if o != pos.me), default=0)

        def score(a: str) -> int:
            h = int(a.split()[1][1:])
            value = 0
            for node in HEX_NODES[h]:
                if node in pos.owner:
                    owner, kind = pos.owner[node]
                    k = 2 if kind == "city" else 1
                    if owner == pos.me:
                        value -= 50 * k * pos.pips[h]
                    else:
                        value += k * pos.pips[h] * (2 + pos.vp[owner]) * (3 if pos.vp[owner] == lead else 1)
            return value
        return max(actions, key=score)

    def _steal(self, pos: Position, actions: list[str]) -> str:
        return max(actions, key=lambda a: (pos.vp[int(a.split()[1])], sum(pos.view["hands"][int(a.split()[1])])))

    def _aqueduct(self, pos: Position, actions: list[str]) -> str:
        need = self._need(pos)
        return max(actions, key=lambda a: (need[NAMES.index(a.split()[1])] - pos.hand[NAMES.index(a.split()[1])],
                                           -pos.prod[NAMES.index(a.split()[1])]))

    # ---------------------------------------------------------------- barbarians, cards held

    def _commit(self, pos: Position, actions: list[str]) -> str:
        return max(actions, key=len)

    def _pillage(self, pos: Position, actions: list[str]) -> str:
        return min(actions, key=lambda a: pos.node_value(int(a.split()[1]), city=True))

    def _metropolis(self, pos: Position, actions: list[str]) -> str:
        return max(actions, key=lambda a: pos.node_value(int(a.split()[1]), city=True))

    def _pick(self, pos: Position, actions: list[str]) -> str:
        return max(actions, key=lambda a: {"science": 3, "trade": 2, "politics": 1}[a.split()[1]])

    def _bury(self, pos: Position, actions: list[str]) -> str:
        return min(actions, key=lambda a: CARD_VALUE.get(a.split()[1], 0))

    def _retreat(self, pos: Position, actions: list[str]) -> str:
        return actions[0]

    def _desert(self, pos: Position, actions: list[str]) -> str:
        return min(actions, key=lambda a: pos.knights[int(a.split()[1])][1])

    def _recruit(self, pos: Position, actions: list[str]) -> str:
        spots = [a for a in actions if a.startswith("recruit")]
        return spots[0] if spots else "skip"

    def _take(self, pos: Position, actions: list[str]) -> str:
        return max(actions, key=lambda a: CARD_VALUE.get(a.split()[1], 0))

    def _give(self, pos: Position, actions: list[str]) -> str:
        need = self._need(pos)

        def cost(a: str) -> int:
            gift = _counts(a.split()[1])
            left = [h - g for h, g in zip(pos.hand, gift, strict=True)]
            return _lacks(left, need) * 10 + sum(gift[5:]) * 4
        return min(actions, key=cost)

    def _harbor(self, pos: Position, actions: list[str]) -> str:
        need = self._need(pos)
        offers = [a for a in actions if a.startswith("harbor")]
        surplus = [a for a in offers if pos.hand[NAMES.index(a.split()[1])] > need[NAMES.index(a.split()[1])]]
        return max(surplus, key=lambda a: pos.hand[NAMES.index(a.split()[1])]) if surplus else "skip"

    def _respond(self, pos: Position, actions: list[str]) -> str:
        view = pos.view
        offer = view["offer"]
        receive, pay = tuple(_counts(offer["give"])), tuple(_counts(offer["get"]))  # the offerer gives me `give`
        hand = tuple(pos.hand)
        if self.talk.proposed(view["turn"], receive, pay) and all(h >= p for h, p in zip(hand, pay, strict=True)):
            return "accept"    # the offer it proposed itself
        if pos.vp[view["active"]] >= 10:
            return "decline"   # no help to a seat close to winning
        wanted = self._wanted(pos)
        if judge_offer(hand, receive, pay, wanted[0], wanted):
            return "accept"
        counter = counter_offer(hand, tuple(view["hands"][view["active"]]), receive, pay, wanted[0], wanted, self.most)
        if counter is not None:
            self.talk.propose(view["turn"], pos.me, *counter)
        return "decline"

    def _answer(self, pos: Position, actions: list[str]) -> str | None:
        """An offer proposed to it this turn that it would take as an offer made to it, to its proposer, if
        the offer memory allows it; never to a seat close to winning."""
        view = pos.view
        allowed = set(actions)
        for proposal in self.talk.proposals(view["turn"]):
            if pos.vp[proposal.seat] >= 10:
                continue
            wanted = self._wanted(pos)
            if not judge_offer(tuple(pos.hand), proposal.get, proposal.give, wanted[0], wanted):
                continue
            text = self.offers.answer(view, pos.me, proposal.seat, proposal.give, proposal.get, proposal.action,
                                      allowed)
            if text is not None:
                self.talk.drop(proposal)
                return text
        return None

    def _wanted(self, pos: Position) -> list[tuple[int, ...]]:
        """The costs of what it would build: its target first, then a city on a settlement of its, a
        settlement where its roads reach a free node, a knight when the barbarians are near."""
        pieces = pos.view["pieces"][pos.me]
        wanted = [self._need(pos)]
        if pieces["cities"] and any(o == pos.me and kind == "settlement" for o, kind in pos.owner.values()):
            wanted.append(COST["city"])
        if pieces["settlements"] and any(d == 0 and pos.free(n) for n, d in pos.distances().items()):
            wanted.append(COST["settle"])
        if sum(pieces["knights"]) and pos.danger():
            wanted.append(COST["knight"])
        return wanted

    def _offer(self, pos: Position, need: tuple[int, ...], actions: list[str]) -> str | None:
        """Surplus for one card its target lacks, to the table: 1 for 1, then 2 for 1; to whom the offer
        memory still allows (each player once a turn, never a trade it declined), at most two offers a
        turn."""
        missing = [max(0, c - h) for h, c in zip(pos.hand, need, strict=True)]
        short = sum(missing)
        if not 0 < short <= 2 or pos.view["offers_made"] >= 2:
            return None
        surplus = [max(0, h - c) for h, c in zip(pos.hand, need, strict=True)]
        want = max(range(8), key=lambda r: (missing[r], -r))
        get = tuple(int(r == want) for r in range(8))
        allowed = set(actions)
        for k in (1, 2):
            for give in sorted(range(8), key=lambda r: (-surplus[r], r)):
                if surplus[give] < k:
                    break
                side = tuple(k if r == give else 0 for r in range(8))
                prefix = f"offer {k}{NAMES[give]} for 1{NAMES[want]} to "
                text = self.offers.propose(pos.view, pos.me, side, get, prefix, allowed)
                if text:
                    return text
        return None

    def _confirm(self, pos: Position, actions: list[str]) -> str:
        confirms = [a for a in actions if a.startswith("confirm")]
        return min(confirms, key=lambda a: pos.vp[int(a.split()[1])]) if confirms else "cancel"

    # ---------------------------------------------------------------- main

    def _need(self, pos: Position) -> tuple[int, ...]:
        """What the bot saves for: a city while it has settlements to upgrade, else the next improvement,
        else a settlement."""
        settlements = [n for n, (o, kind) in pos.owner.items() if o == pos.me and kind == "settlement"]
        if settlements and pos.view["pieces"][pos.me]["cities"]:
            return COST["city"]
        track = self._track(pos)
        if track:
            level = pos.levels[track] + 1
            cost = [0] * 8
            cost[TRACK_COMMODITY[track]] = level
            return tuple(cost)
        return COST["settle"]

    def _track(self, pos: Position) -> str:
        """The track to improve: the one whose commodity it gets most of, not yet at 5."""
        has_city = any(o == pos.me and kind == "city" for o, kind in pos.owner.values())
        if not has_city:
            return ""
        options = [t for t in TRACKS if pos.levels[t] < 5]
        if not options:
            return ""
        return max(options, key=lambda t: (pos.prod[TRACK_COMMODITY[t]] + pos.hand[TRACK_COMMODITY[t]] * 3,
                                           t == "science"))

    def _main(self, pos: Position, actions: list[str]) -> str:
        best, choice = 0, "end"
        need = self._need(pos)
        danger = pos.danger() and pos.exposed()
        for a in actions:
            if a.startswith("offer "):
                continue   # offers are made below, only when nothing else is worth doing
            score = self._score(pos, a, need, danger)
            if score > best:
                best, choice = score, a
        if best < 300:
            return self._answer(pos, actions) or self._offer(pos, need, actions) or choice
        return choice

    def _score(self, pos: Position, a: str, need: tuple[int, ...], danger: bool) -> int:
        words = a.split()
        verb = words[0]
        if verb == "city":
            return 900 + pos.node_value(int(words[1]), city=True)
        if verb == "improve":
            level = pos.levels[words[1]] + 1
            preferred = words[1] == self._track(pos)
            return 700 + 40 * level + (100 if preferred else 0) + (150 if level == 4 else 0)
        if verb == "settle":
            return 800 + pos.node_value(int(words[1]))
        if verb == "knight":
            mine = pos.strength(pos.me, active_only=False)
            return (650 if danger else 300 if mine < 2 else 0) + int(words[1]) % 3
        if verb == "activate":
            return 680 if danger else (200 if pos.view["ship"] >= 2 else 0)
        if verb == "promote":
            return 500 if danger else (150 if pos.hand[2] > 1 and pos.hand[4] > 3 else 0)
        if verb == "chase":
            own = any(pos.owner.get(n, (-1, ""))[0] == pos.me for n in HEX_NODES[pos.robber])
            return 600 if own else 0
        if verb == "wall":
            return 350 if sum(pos.hand) > 7 else 0
        if verb == "road":
            score, node, d = pos.best_spot()
            if pos.view["pieces"][pos.me]["settlements"] and node >= 0 and d >= 1:
                return 250 + (self._road_gain(pos, int(words[1]), node))
            return 0
        if verb == "play":
            return self._card(pos, words, need, danger)
        if verb == "bury":
            return 100 - CARD_VALUE.get(words[1], 0)
        if verb == "trade":
            give = _counts(words[1])
            get = _counts(words[3])
            x = give.index(max(give))
            y = get.index(1)
            if need[y] > pos.hand[y] and pos.hand[x] - give[x] >= need[x] and _lacks(pos.hand, need) <= 2:
                return 400
            return 0
        return 0

    def _road_gain(self, pos: Position, edge: int, target: int) -> int:
        a, b = EDGES[edge]
        return 40 if target in (a, b) or any(target in NODE_NEIGHBOURS[n] for n in (a, b)) else 0

    def _card(self, pos: Position, words: list[str], need: tuple[int, ...], danger: bool) -> int:
        card = words[1]
        view = pos.view
        others = [o for o in range(pos.n) if o != pos.me and o not in view["out"]]
        if card in ("irrigation", "mining", "medicine", "crane", "engineer", "merchant"):
            if card == "merchant":
                h = int(words[2][1:])
                r = pos.res[h]
                return 500 + (pos.prod[r] if r >= 0 else -400)
            return 600
        if card == "smith":
            return 550 if view["ship"] >= 3 or danger else 0
        if card == "warlord":
            return 560 if view["ship"] >= 5 else 0
        if card == "resourcemonopoly" or card == "trademonopoly":
            r = NAMES.index(words[2])
            total = sum(min(2, view["hands"][o][r]) for o in others)
            return 450 + total * 10 if total >= 2 else 0
        if card in ("wedding", "saboteur", "roadbuilding", "spy", "bishop", "commercialharbor"):
            if card == "spy":
                target = int(words[2])
                return 300 + view["progress"][target]["count"] * 20
            if card == "bishop":
                return 300 if pos.vp and max(pos.vp) > pos.vp[pos.me] else 0
            if card == "roadbuilding":
                _, node, d = pos.best_spot()
                return 400 if node >= 0 and 1 <= d <= 2 else 0
            return 420
        if card == "mastermerchant":
            cards = _counts(words[3])
            return 380 + sum(c * (3 if need[i] > pos.hand[i] else 1) for i, c in enumerate(cards))
        if card == "merchantfleet":
            t = NAMES.index(words[2])
            return 350 if pos.hand[t] - need[t] >= 2 else 0
        if card == "inventor":
            a, b = int(words[2][1:]), int(words[3][1:])
            mine = {h for n, (o, _) in pos.owner.items() if o == pos.me for h in NODE_HEXES[n]}
            gain = 0
            if a in mine:
                gain += pos.pips[b] - pos.pips[a]
            if b in mine:
                gain += pos.pips[a] - pos.pips[b]
            return 300 + 30 * gain if gain >= 2 else 0
        if card == "deserter":
            target = int(words[2])
            return 250 + 20 * pos.strength(target, active_only=False)
        if card == "diplomat":
            e = int(words[2])
            return 200 if view["roads"].get(str(e)) == view["longest_road"]["holder"] != pos.me else 0
        if card == "intrigue":
            return 220
        return 0
