"""The ledger tests' own games and tools, shared by the replay, audit, fork and attack tests: `CardsGame`
(Toy Cards), a tiny game of every hidden-information path (private draws, simultaneous choices, secrets kept
until the end), the cheat's engine and bot that play a card not held, and frames forged with a real seat
key at the ledger's position."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engines.core import HIDDEN, Awaiting, Chance, Game, IllegalAction, Result, Rules
from replays.frames import make_frame
from replays.ledger import Ledger
from replays.local import SignedMatch

ROUNDS = 2


@dataclass(frozen=True, slots=True)
class Cards:
    players: int
    phase: str = "bonus"  # bonus, draw, play, bet, over
    round: int = 0
    drawer: int = 0
    bonus: int = 0
    hands: tuple = ()  # private: per seat a tuple of cards, or HIDDEN
    sizes: tuple = ()
    current: tuple = ()  # this round's plays (public once revealed)
    played: tuple = ()  # earlier rounds' plays
    bets: tuple = ()  # private: per seat "bet N", HIDDEN or None
    bets_done: tuple = ()


class CardsGame(Rules[Cards]):
    """A public bonus die; then ROUNDS rounds of: every seat privately draws a card 0..2 from its own
    deck, then all play one card from their hand at once (rock-paper-scissors: c beats c-1 mod 3);
    finally every seat makes a bet kept secret until the end. Most round points wins."""

    id = "toy-cards"
    title = "Toy Cards"
    players = (2, 3)

    def start(self, players, options):
        return Cards(players, hands=((),) * players, sizes=(0,) * players, current=(None,) * players,
                     bets=(None,) * players)

    def awaiting(self, inner):
        if inner.phase == "bonus":
            return Awaiting("chance", (), Chance("dice", sides=(6,), label="bonus"))
        if inner.phase == "draw":
            return Awaiting("chance", (), Chance("pick", n=3, private_to=inner.drawer, label="draw"))
        if inner.phase == "play":
            return Awaiting("simultaneous", tuple(s for s in range(inner.players) if inner.current[s] is None))
        if inner.phase == "bet":
            return Awaiting("simultaneous", tuple(s for s in range(inner.players) if s not in inner.bets_done),
                            secret=True)
        return Awaiting("over")

    def legal(self, inner, seat):
        if inner.phase == "play" and inner.current[seat] is None:
            hand = inner.hands[seat]
            cards = range(3) if hand is HIDDEN else set(hand)
            return sorted(f"card {c}" for c in cards)
        if inner.phase == "bet" and seat not in inner.bets_done:
            return ["bet 1", "bet 2"]
        return []

    def chance(self, inner, value):
        if inner.phase == "bonus":
            return replace(inner, bonus=value[0], phase="draw")
        seat = inner.drawer
        hands, sizes = list(inner.hands), list(inner.sizes)
        hands[seat] = HIDDEN if value is HIDDEN or hands[seat] is HIDDEN else tuple(sorted((*hands[seat], value)))
        sizes[seat] += 1
        last = seat + 1 == inner.players
        return replace(inner, hands=tuple(hands), sizes=tuple(sizes), drawer=0 if last else seat + 1,
                       phase="play" if last else "draw")

    def play(self, inner, seat, action):
        if inner.phase == "bet":
            if action is not HIDDEN and action not in ("bet 1", "bet 2"):
                raise IllegalAction(f"{action!r}: a bet is 'bet 1' or 'bet 2'")
            bets = list(inner.bets)
            bets[seat] = action
            done = (*inner.bets_done, seat)
            return replace(inner, bets=tuple(bets), bets_done=done,
                           phase="over" if len(done) == inner.players else "bet")
        if inner.phase != "play":
            raise IllegalAction("no card is played now")
        parts = action.split() if isinstance(action, str) else []
        if len(parts) != 2 or parts[0] != "card" or parts[1] not in ("0", "1", "2"):
            raise IllegalAction(f"{action!r}: expected 'card N' with N in 0..2")
        card = int(parts[1])
        hand = inner.hands[seat]
        if hand is not HIDDEN:
            if card not in hand:
                raise IllegalAction(f"card {card}: seat {seat} does not hold that card (played from the hand)")
            rest = list(hand)
            rest.remove(card)
            hand = tuple(rest)
        hands, sizes, current = list(inner.hands), list(inner.sizes), list(inner.current)
        hands[seat], sizes[seat], current[seat] = hand, sizes[seat] - 1, card
        inner = replace(inner, hands=tuple(hands), sizes=tuple(sizes), current=tuple(current))
        if None in current:
            return inner
        played = (*inner.played, tuple(current))
        more = len(played) < ROUNDS
        return replace(inner, played=played, current=(None,) * inner.players, round=len(played),
                       phase="draw" if more else "bet")

    def _points(self, inner):
        points = [0] * inner.players
        for plays in inner.played:
            for a in range(inner.players):
                points[a] += sum(1 for b in range(inner.players) if (plays[a] - plays[b]) % 3 == 1)
        return tuple(points)

    def result(self, inner):
        if inner.phase != "over":
            return None
        points = self._points(inner)
        best = max(points)
        winners = tuple(s for s in range(inner.players) if points[s] == best)
        return Result(winners if len(winners) == 1 else (), points, "cards")

    def public(self, inner):
        return (inner.phase, inner.round, inner.drawer, inner.bonus, inner.sizes, inner.played, inner.bets_done)

    def view(self, inner, seat):
        own = seat is not None and inner.hands[seat] is not HIDDEN
        bet = inner.bets[seat] if seat is not None else None
        return {"phase": inner.phase, "round": inner.round, "bonus": inner.bonus, "sizes": list(inner.sizes),
                "played": [list(p) for p in inner.played], "hand": list(inner.hands[seat]) if own else None,
                "bet": bet if isinstance(bet, str) else None}

    def eliminate(self, inner, seat):
        return inner


class DealGame(CardsGame):
    id = "toy-deal"

    def awaiting(self, inner):
        if inner.phase == "bonus":
            return Awaiting("chance", (), Chance("deal", n=5, private_to=0, deck="development"))
        return super().awaiting(inner)


CARDS = Game(CardsGame())
GAMES = {CARDS.id: CARDS}


def forge(ledger: Ledger, key, seat: int, kind: str, body, digest: bytes | None = None):
    """A frame signed with a real seat key that fits the chain at the ledger's position."""
    return make_frame(key, ledger.session, len(ledger.frames), ledger.last_hash, seat, kind, body,
                      ledger.digest if digest is None else digest)


def run_until(table: SignedMatch, want) -> None:
    """Step the table until the awaited frame matches want(kind, seat)."""
    for _ in range(10_000):
        nxt = table.expects()
        assert nxt is not None, "the game ended before the wanted point"
        if want(*nxt):
            return
        table.step()
    raise AssertionError("never reached")


def observer(table: SignedMatch) -> Ledger:
    """A spectator ledger that has seen every frame so far (what the audit would hold)."""
    spectator = Ledger(table.header, None, table.game)
    for frame in table.ledgers[0].frames:
        spectator.accept(frame.encode())
    return spectator


def play_out(table: SignedMatch) -> None:
    while table.step() is not None:
        pass


class LyingCards(CardsGame):
    """The cheat's own engine: it lets its seat play any card, as if its hand were unknown."""

    def legal(self, inner, seat):
        if inner.phase == "play" and inner.current[seat] is None:
            return ["card 0", "card 1", "card 2"]
        return super().legal(inner, seat)

    def play(self, inner, seat, action):
        if inner.phase == "play":
            hands = list(inner.hands)
            hands[seat] = HIDDEN
            inner = replace(inner, hands=tuple(hands))
        return super().play(inner, seat, action)


class LyingBot:
    name = "liar"

    def choose(self, game, state, seat, legal, rng):
        inner = state.inner
        if inner.phase == "play" and inner.hands[seat] is not HIDDEN:
            return f"card {next(c for c in range(3) if c not in inner.hands[seat])}"
        return legal[0]
