"""The referee: a game driven with full knowledge on one machine, with hidden information kept as on
the network.

It holds the referee state (which knows every secret) and one knowledge state per seat, in which
every other seat's private chance outcomes and secret choices are HIDDEN, exactly as a networked
peer's engine would hold it. Drivers (self-play, the client's local table, the replay recorder, tests)
show each seat only its own knowledge state, and after every step every knowledge state must agree
with the referee on the public digest; a mismatch is an engine bug (it would be a desync on the
network), so it is raised at once.

Chance values come from bytes the driver supplies (or from the seed, by hashing): the referee is as
pure as the rules. For a `deal` it knows what the network cannot: the cards left in each deck epoch,
so it deals uniformly among the remaining *cards* (docs/engine-contract.md, "Chance points").
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engines.chance import outcome_from_bytes, remaining_cards
from engines.contract import HIDDEN, Awaiting, Chance, IllegalAction
from engines.game import Game, State, interrupts_step

__all__ = ["Desync", "Referee", "Step", "replay_steps", "seeded_bytes"]


class Desync(RuntimeError):
    """A seat's knowledge state disagrees with the referee's public digest."""


@dataclass(slots=True)
class Step:
    """One recorded step: a chance value (seat None) or a seat's action."""

    seat: int | None
    value: Any
    kind: Literal["chance", "play"]


def seeded_bytes(seed: int, *labels: Any) -> bytes:
    """32 reproducible bytes for a seed and labels, for drivers that need chance values."""
    text = "/".join(str(x) for x in (seed, *labels)).encode()
    return hashlib.sha256(b"netplay-local:" + text).digest()


class Referee:
    """One game on this machine: the referee state plus one knowledge state per seat.

    Call `feed_chance` when the game waits for chance and `submit` with every awaited seat's choice;
    a simultaneous step is applied only once every awaited seat has chosen, in seat order, so no
    seat's choice can depend on another's.
    """

    def __init__(self, game: Game, players: int, options: dict | None, seed: int, check_views: bool = True):
        self.game = game
        self.players = players
        self.seed = seed
        self.check_views = check_views
        self.state = game.start(players, options or {})
        # Until the first secret, every seat knows what the referee knows: share the one state (a
        # perfect-information game never pays for knowledge states).
        self.knowing = [self.state] * players
        self.diverged = False
        self.pending: dict[int, str] = {}
        self.steps: list[Step] = []
        self.digests: list[bytes] = []
        self.dealt: dict[tuple[str, int], list[int]] = {}  # (deck, epoch) -> card types dealt so far
        self._legal: tuple[State, int, list[str]] | None = None  # the last legal(): (state, seat, list)

    @classmethod
    def from_state(cls, game: Game, state: State, players: int, seed: int, check_views: bool = True, *,
                   dealt: Mapping[tuple[str, int], Sequence[int]] | None = None,
                   knowing: Sequence[State] | None = None) -> Referee:
        """A referee that goes on from `state`, a full-knowledge position (a replay position with every
        secret revealed: the viewer's "play on from here").

        A position rebuilt from a record must come with the record's deck history: `dealt` maps each
        (deck, epoch) to the card types already dealt from it, because the engine announces only how
        many cards are left and the pool they came from, never which ones (without it the next deal
        would be drawn from a full deck the engine knows is not). `knowing` gives each seat's own
        knowledge state at that position (its secrets, the others' HIDDEN), so that secrets stay
        per seat as they were; without it every seat knows everything. Both are checked here, so a
        driver that rebuilds a position inconsistently fails at once, not at the next deal."""
        referee = cls(game, players, None, seed, check_views)
        referee.state = state
        referee.dealt = {key: list(cards) for key, cards in (dealt or {}).items()}
        for (deck, epoch), cards in referee.dealt.items():
            if any(type(c) is not int for c in cards):
                raise ValueError(f"deck {deck!r} epoch {epoch}: dealt cards must be card type numbers")
        waiting = game.awaiting(state)
        if waiting.kind == "chance" and waiting.chance is not None and waiting.chance.kind == "deal":
            chance = waiting.chance
            left = referee.remaining(chance)
            if len(left) != chance.n:
                raise ValueError(f"deck {chance.deck!r} epoch {chance.epoch}: the engine says {chance.n} cards are "
                                 f"left, the deals given leave {len(left)}")
        if knowing is None:
            referee.knowing = [state] * players
        else:
            if len(knowing) != players:
                raise ValueError(f"{len(knowing)} knowledge states for {players} seats")
            referee.knowing = list(knowing)
            digest = game.digest(state)
            for s, k in enumerate(referee.knowing):
                if k is not state and game.digest(k) != digest:
                    raise Desync(f"{game.id}: seat {s}'s knowledge state differs from the position given")
            referee.diverged = any(k is not state for k in referee.knowing)
        return referee

    def awaiting(self) -> Awaiting:
        return self.game.awaiting(self.state)

    def state_of(self, seat: int) -> State:
        return self.knowing[seat]

    def legal(self, seat: int) -> list[str]:
        """`game.legal` of the seat's knowledge state, remembered for that state, so that `submit`
        does not generate a simultaneous step's choices again to check the one made from this list
        (callers must not modify the list)."""
        state = self.knowing[seat]
        memo = self._legal
        if memo is not None and memo[0] is state and memo[1] == seat:
            return memo[2]
        actions = self.game.legal(state, seat)
        self._legal = (state, seat, actions)
        return actions

    def awaited_seats(self, waiting: Awaiting | None = None) -> tuple[int, ...]:
        """Seats that still have to choose (for a simultaneous step: those not yet chosen). `waiting`
        is `awaiting()` when the caller has just asked for it (it is not asked again)."""
        if waiting is None:
            waiting = self.awaiting()
        if waiting.kind == "move":
            return waiting.seats[:1]
        if waiting.kind == "simultaneous":
            return tuple(s for s in waiting.seats if s not in self.pending)
        return ()

    def remaining(self, chance: Chance) -> tuple[int, ...]:
        """The cards left in a deal's deck epoch, as this full-knowledge driver knows them."""
        return remaining_cards(chance.pool, self.dealt.get((chance.deck, chance.epoch), ()))

    def outcome(self, chance: Chance, data: bytes) -> Any:
        """The value of `chance` drawn from `data` (a deal: among the cards still in its deck)."""
        remaining = self.remaining(chance) if chance.kind == "deal" else None
        return outcome_from_bytes(chance, data, remaining)

    def feed_chance(self, value: Any = None) -> Step:
        """Resolve the chance point, with `value` or one drawn from the seed."""
        chance = self.awaiting().chance
        if chance is None:
            raise IllegalAction("the game does not wait for a chance outcome here")
        if chance.kind == "show":
            shown = self.game.disclose(self.state)  # no randomness: what the source seat holds
            if value is not None and value != shown:
                raise IllegalAction(f"seat {chance.source} does not hold {value!r}")
            value = shown
        elif value is None:
            value = self.outcome(chance, seeded_bytes(self.seed, len(self.steps)))
        elif chance.kind == "deal" and value not in self.remaining(chance):
            raise IllegalAction(f"deck {chance.deck!r} epoch {chance.epoch} holds no card of type {value!r} any more")
        owner = chance.private_to
        self.state = self.game.chance(self.state, value)
        if chance.kind == "deal":
            self.dealt.setdefault((chance.deck, chance.epoch), []).append(value)
        self.diverged = self.diverged or owner is not None
        self._follow(lambda s, k: self.game.chance(k, value if owner in (None, s) else HIDDEN))
        return self._record(Step(None, value, "chance"))

    def submit(self, seat: int, action: str, waiting: Awaiting | None = None) -> list[Step]:
        """A seat's choice; returns the steps applied (none while a simultaneous step still waits).
        `waiting` is `awaiting()` when the caller has it for the current state (it is not asked again)."""
        if waiting is None:
            waiting = self.awaiting()
        if waiting.kind != "simultaneous" or interrupts_step(action):
            return [self._apply(seat, action, secret=False)]
        if action not in self.legal(seat):
            raise IllegalAction(f"{action!r} is not among seat {seat}'s choices")
        self.pending[seat] = action
        if any(s not in self.pending for s in waiting.seats):
            return []
        chosen, self.pending = sorted(self.pending.items()), {}
        return [self._apply(s, a, secret=waiting.secret) for s, a in chosen]

    def _apply(self, seat: int, action: str, secret: bool) -> Step:
        play = self.game.play
        self.state = play(self.state, seat, action)
        self.diverged = self.diverged or secret
        if not self.diverged:  # every seat knows all: share the one state (`_follow` without its closure)
            self.knowing = [self.state] * self.players
        elif not secret:  # the commonest case once diverged, without a call per seat to a closure
            self.knowing = [play(k, seat, action) for k in self.knowing]
        else:
            self._follow(lambda s, k: play(k, seat, HIDDEN if secret and s != seat else action))
        if self.pending and interrupts_step(action):
            self.pending = {}  # an interrupted simultaneous step is chosen afresh
        return self._record(Step(seat, action, "play"))

    def _follow(self, apply: Callable[[int, State], State]) -> None:
        if self.diverged:
            self.knowing = [apply(s, k) for s, k in enumerate(self.knowing)]
        else:
            self.knowing = [self.state] * self.players

    def _record(self, step: Step) -> Step:
        self.steps.append(step)
        if self.check_views:
            digest = self.game.digest(self.state)
            for s, k in enumerate(self.knowing):
                if k is not self.state and self.game.digest(k) != digest:
                    raise Desync(f"{self.game.id} seed {self.seed}: seat {s}'s knowledge state differs "
                                 f"after step {len(self.steps) - 1}")
            self.digests.append(digest)
        return step


def replay_steps(game: Game, players: int, options: dict, steps: list[Step]) -> list[bytes]:
    """Re-apply a record's steps to a fresh state; the digests after each step."""
    state = game.start(players, options)
    out = []
    for step in steps:
        if step.kind == "chance":
            state = game.chance(state, step.value)
        else:
            assert step.seat is not None  # (a play has its seat)
            state = game.play(state, step.seat, step.value)
        out.append(game.digest(state))
    return out
