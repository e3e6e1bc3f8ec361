"""Small games that live only in the tests, to exercise the engine contract without a real game."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engines.core import HIDDEN, Awaiting, Chance, IllegalAction, Option, Result, Rules


@dataclass(frozen=True, slots=True)
class Nim:
    """Take 1..3 from a heap; whoever takes the last stone wins. Seats rotate over the players."""

    heap: int
    players: int
    to_move: int = 0
    removed: tuple[int, ...] = ()
    winner: int | None = None


class NimGame(Rules[Nim]):
    id = "toy-nim"
    title = "Toy Nim"
    players = (2, 3)
    options = {"heap": Option(default=10, choices=(5, 10, 21), help="stones at the start")}

    def start(self, players, options):
        return Nim(options["heap"], players)

    def awaiting(self, inner):
        return Awaiting("move", (inner.to_move,))

    def legal(self, inner, seat):
        if seat != inner.to_move:
            return []
        return [f"take {k}" for k in range(1, min(3, inner.heap) + 1)]

    def play(self, inner, seat, action):
        verb, _, count = action.partition(" ")
        if verb != "take" or not count.isdigit():
            raise IllegalAction(f"{action!r}: expected 'take N'")
        k = int(count)
        if not 1 <= k <= min(3, inner.heap):
            raise IllegalAction(f"take {k}: one may take 1 to 3 stones, at most the heap ({inner.heap})")
        heap = inner.heap - k
        if heap == 0:
            return replace(inner, heap=0, winner=seat)
        return replace(inner, heap=heap, to_move=self._next(inner, seat))

    def _next(self, inner, seat):
        n = (seat + 1) % inner.players
        while n in inner.removed:
            n = (n + 1) % inner.players
        return n

    def eliminate(self, inner, seat):
        inner = replace(inner, removed=(*inner.removed, seat))
        if inner.to_move == seat:
            inner = replace(inner, to_move=self._next(inner, seat))
        return inner

    def result(self, inner):
        if inner.winner is None:
            return None
        return Result((inner.winner,), tuple(int(s == inner.winner) for s in range(inner.players)), "last-stone")

    def public(self, inner):
        return (inner.heap, inner.to_move, inner.removed, inner.winner)

    def view(self, inner, seat):
        return {"heap": inner.heap, "to_move": inner.to_move}


@dataclass(frozen=True, slots=True)
class Duel:
    """Each seat privately draws one card 0..2 from its own deck, then both play a card
    simultaneously (rock-paper-scissors); then both pick a secret number kept until the end."""

    phase: str = "draw0"  # draw0, draw1, play, secret, over
    hands: tuple = ((), ())  # private part per seat: tuple of cards, or HIDDEN
    hand_counts: tuple[int, int] = (0, 0)
    played: tuple = (None, None)
    secrets_done: tuple[int, ...] = ()
    secret: tuple = (None, None)


class DuelGame(Rules[Duel]):
    id = "toy-duel"
    title = "Toy Duel"

    def start(self, players, options):
        return Duel()

    def awaiting(self, inner):
        if inner.phase in ("draw0", "draw1"):
            seat = int(inner.phase[-1])
            return Awaiting("chance", (), Chance("pick", n=3, private_to=seat))
        if inner.phase == "play":
            return Awaiting("simultaneous", tuple(s for s in (0, 1) if inner.played[s] is None))
        if inner.phase == "secret":
            return Awaiting("simultaneous", tuple(s for s in (0, 1) if s not in inner.secrets_done), secret=True)
        return Awaiting("over")

    def legal(self, inner, seat):
        if inner.phase == "play":
            hand = inner.hands[seat]
            cards = range(3) if hand is HIDDEN else hand
            return sorted(f"card {c}" for c in cards)
        if inner.phase == "secret":
            return ["number 1", "number 2"]
        return []

    def chance(self, inner, value):
        seat = int(inner.phase[-1])
        hands = list(inner.hands)
        hands[seat] = HIDDEN if value is HIDDEN else (value,)
        counts = list(inner.hand_counts)
        counts[seat] += 1
        return replace(inner, phase="draw1" if seat == 0 else "play", hands=tuple(hands), hand_counts=tuple(counts))

    def play(self, inner, seat, action):
        if inner.phase == "secret":
            secret = list(inner.secret)
            secret[seat] = HIDDEN if action is HIDDEN else action
            done = (*inner.secrets_done, seat)
            return replace(inner, secret=tuple(secret), secrets_done=done,
                           phase="over" if len(done) == 2 else "secret")
        if action not in self.legal(inner, seat):
            raise IllegalAction(f"{action!r}: seat {seat} does not hold that card")
        played = list(inner.played)
        played[seat] = int(action.split()[1])
        phase = "secret" if None not in played else "play"
        return replace(inner, played=tuple(played), phase=phase)

    def result(self, inner):
        if inner.phase != "over":
            return None
        a, b = inner.played
        if a == b:
            return Result((), (0, 0), "tie")
        winner = 0 if (a - b) % 3 == 1 else 1
        return Result((winner,), tuple(int(s == winner) for s in (0, 1)), "duel")

    def public(self, inner):
        return (inner.phase, inner.hand_counts, inner.played, inner.secrets_done)

    def view(self, inner, seat):
        return {"phase": inner.phase, "played": list(inner.played),
                "hand": list(inner.hands[seat]) if seat is not None and inner.hands[seat] is not HIDDEN else None}
