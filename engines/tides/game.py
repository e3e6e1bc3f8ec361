"""Turning Tides (docs/rules/turning-tides.md) behind the engine contract of engines.core."""

from __future__ import annotations

from typing import Any

from engines.core import HIDDEN, Awaiting, Chance, IllegalAction, Option, Result, Rules
from engines.tides import cards as C
from engines.tides import lull, secrets, turn
from engines.tides.echo import Echo, echoed, echoed_draw
from engines.tides.notation import PICK as PICK_TEXTS
from engines.tides.notation import parse
from engines.tides.resolution import options, why_not
from engines.tides.ship import columns, opposite
from engines.tides.state import DAMAGE, DRAW0, DRAW1, EXCHANGE, OVER, PICK, RESOLVE, ROUND_LIMIT, TidesState, initial

__all__ = ["TurningTides"]

_TRUE = ("true", "yes", "on", "1", "intro")
_FALSE = ("false", "no", "off", "0", "full")

_DRAWS = tuple(tuple(Awaiting("chance", (), Chance("pick", n=n, private_to=seat, label=f"draw of seat {seat}"))
                     for n in range(16)) for seat in (0, 1))
_PICKS = {(a, b): Awaiting("simultaneous", tuple(s for s, p in enumerate((a, b)) if not p))
          for a in ("", *C.CARDS) for b in ("", *C.CARDS) if not (a and b)}
_MOVE = (Awaiting("move", (0,)), Awaiting("move", (1,)))
_PICK_TEXT = {text: card for card, text in enumerate(PICK_TEXTS)}
_PHASE_VERB = {PICK: "pick", RESOLVE: "", EXCHANGE: "exchange", DAMAGE: "damage"}
_PHASE_WORDS = {PICK: "the pick step awaits `pick <card>`",
                EXCHANGE: "the exchange step awaits `exchange <given> for <taken>` or `exchange none`",
                DAMAGE: "the damage step awaits `damage <cards>`"}


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError(f"option intro={value!r} is not allowed for turning-tides (allowed: false, true)")


class TurningTides(Rules[TidesState]):
    id = "turning-tides"
    title = "Turning Tides"
    players = (2,)
    options = {"intro": Option(default=False, choices=(False, True), help="the introductory game (D13)")}
    #: the rulebook's surrender is `resign`; it knows no draw by agreement (D32 lists no such reason)
    common_actions = ("resign",)
    #: the last pick or resolution action played in full (see echo.py)
    _echo: Echo | None = None
    #: the last draw made in full, (state before, drawing seat, value, state after)
    _drawn: Echo | None = None

    def parse_option(self, key: str, value: Any) -> Any:
        """`intro` is a boolean; the command line's texts (true/false, intro/full, 1/0) are accepted."""
        return _boolean(value) if key == "intro" else super().parse_option(key, value)

    # ------------------------------------------------------------------ hooks

    def start(self, players: int, options: dict[str, Any]) -> TidesState:
        return initial(bool(options["intro"]))

    def awaiting(self, inner: TidesState) -> Awaiting:
        phase = inner.phase
        if phase == PICK:
            return _PICKS[inner.picks]
        if phase == DRAW0:
            return _DRAWS[0][inner.piles[0].deck_n]
        if phase == DRAW1:
            return _DRAWS[1][inner.piles[1].deck_n]
        if phase == RESOLVE:
            return _MOVE[inner.queue[0][0]]
        if phase == EXCHANGE:
            return Awaiting("simultaneous", inner.waiting)
        if phase == DAMAGE:
            return Awaiting("simultaneous", inner.waiting, secret=True)
        return Awaiting("over")

    def legal(self, inner: TidesState, seat: int) -> list[str]:
        phase = inner.phase
        if phase == PICK:
            return secrets.pick_options(inner, seat)
        if phase == RESOLVE:
            return options(inner, seat, inner.queue[0][1])
        if phase == EXCHANGE:
            return secrets.exchange_options(inner, seat)
        if phase == DAMAGE:
            return secrets.damage_options(inner, seat)
        return []

    def play(self, inner: TidesState, seat: int, action: Any) -> TidesState:
        phase = inner.phase
        if phase == PICK:  # the commonest action first
            card = _PICK_TEXT.get(action)
            if card is not None:
                reason = secrets.why_not_pick(inner, seat, card)  # it reads the hand: made on every copy
                if reason is not None:
                    raise IllegalAction(reason)
                after = echoed(self._echo, inner, seat, action)
                if after is None:
                    after = turn.pick(inner, seat, card)
                    self._echo = (inner, seat, action, after)
                return after
        if action is HIDDEN:
            return lull.damage(inner, seat, HIDDEN)
        parsed = parse(action)
        if parsed is None:
            raise IllegalAction(f"{action!r} is not a Turning Tides action (see Actions and notation)")
        verb = parsed[0]
        if phase == RESOLVE:
            after = echoed(self._echo, inner, seat, action)  # its checks read public fields only
            if after is not None:
                return after
            reason = why_not(inner, seat, inner.queue[0][1], parsed) if verb in _RESOLVING else (
                "a card is resolving now; only its options may be played (Resolving a card)")
            if reason is not None:
                raise IllegalAction(f"{action}: {reason}")
            after = turn.resolve(inner, seat, parsed)
            self._echo = (inner, seat, action, after)
            return after
        if verb != _PHASE_VERB.get(phase):
            raise IllegalAction(f"{action}: {_PHASE_WORDS.get(phase, 'no action is awaited now')}")
        if phase == EXCHANGE:
            reason = secrets.why_not_exchange(inner, seat, parsed[1], parsed[2])
            if reason is not None:
                raise IllegalAction(reason)
            return lull.exchange(inner, seat, parsed[1], parsed[2])
        reason = secrets.why_not_damage(inner.piles[seat], inner.ships[seat].destroyed, parsed[1])
        if reason is not None:
            raise IllegalAction(reason)
        return lull.damage(inner, seat, parsed[1])

    def chance(self, inner: TidesState, value: Any) -> TidesState:
        seat = 0 if inner.phase == DRAW0 else 1
        after = echoed_draw(self._drawn, inner, seat, value)
        if after is None:
            after = turn.draw(inner, seat, value)
            self._drawn = (inner, seat, value, after)
        return after

    def result(self, inner: TidesState) -> Result | None:
        if inner.phase != OVER:
            return None
        if inner.winner < 0:
            return Result((), (0, 0), inner.reason)
        return Result((inner.winner,), (int(inner.winner == 0), int(inner.winner == 1)), inner.reason)

    def public(self, inner: TidesState) -> tuple:
        return inner.public()

    def scores(self, inner: TidesState, out: tuple[int, ...]) -> tuple[int, ...]:
        """After a resignation the other seat scores 1 (D32); nothing else ends the game this way."""
        if len(out) == 1:
            return tuple(int(s not in out) for s in (0, 1))
        return (0, 0)

    # ------------------------------------------------------------------ view

    def rematch_after_resign(self, inner: TidesState) -> dict[str, Any]:
        """Surrender (D17): the loser may demand a rematch with the same options, which the winner must
        accept."""
        return {"intro": inner.intro}

    def view(self, inner: TidesState, seat: int | None) -> dict:
        o = inner.o
        ships = []
        piles = []
        for s in (0, 1):
            ship = inner.ships[s].view(o)
            ship["colour"] = ("gold", "silver")[s]
            ship["promotion_due"] = inner.promo[s]
            ships.append(ship)
            pile = inner.piles[s]
            cards = {"hand_count": pile.hand_n, "deck_count": pile.deck_n, "damage_count": pile.damage_n,
                     "discard": C.names(pile.discard), "exchange": C.names(pile.exchange),
                     "reserve": ["fire"] * pile.reserve, "out_of_game": C.names(pile.out),
                     "pool_count": C.size(pile.pool())}
            mine = inner.known(s)
            if s == seat and mine is not None:
                cards["hand"] = C.names(mine.hand)
                cards["deck"] = C.names(mine.deck)  # the composition only: a deck has no order (D18)
                cards["damage"] = C.names(mine.damage)
            piles.append(cards)
        resolving = None
        if inner.phase == RESOLVE and inner.queue:
            resolving = {"seat": inner.queue[0][0], "card": inner.queue[0][1]}
        return {
            "variant": "intro" if inner.intro else "full",
            "round": inner.round,
            "round_limit": ROUND_LIMIT,
            "turn": inner.turn,
            "o": o,
            "phase": inner.phase,
            "pawn": inner.pawn,
            "facing": [[z, opposite(o, z)] for z in range(1, 8) if opposite(o, z)],
            "columns": columns(o),
            "ships": ships,
            "cards": piles,
            "picks": [p or None for p in inner.picks],
            "revealed": [p or None for p in inner.revealed],
            "resolving": resolving,
            "queue": [[s, card] for s, card in inner.queue],
            "lull_waiting": list(inner.waiting),
            "destroyed": [inner.ships[s].destroyed for s in (0, 1)],
            "hierarchy": dict(C.HIERARCHY),
        }

    def describe(self, inner: TidesState, seat: int, action: str) -> str:
        return f"{('Gold', 'Silver')[seat]} (seat {seat}): {action}"


_RESOLVING = frozenset(("sailor", "cannon", "move captain", "move sailor", "move cannon", "navigate", "swing", "fire",
                        "promote"))
