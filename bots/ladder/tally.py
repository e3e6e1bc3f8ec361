"""What a cell's games add up to: counts, scores, decision times and the rankings the ratings use.

Games are added in any order (workers finish when they finish); every figure here is a sum, a list
sorted before use, or a count, so the tally of a cell does not depend on that order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bots.ladder.cells import Cell
from bots.ladder.play import Outcome
from bots.ladder.stats import Stage

__all__ = ["CellTally", "finishing_order", "share", "stages_of"]


def finishing_order(outcome: Outcome) -> list[list[int]]:
    """The seats in places, best first, a place holding several seats when they tie: the winners
    first, then the others by final score (higher is better in every game here). A game whose losers
    all score alike therefore ranks only "the winner, then the rest"; a game nobody won (a draw, by
    agreement or by the rules, as Madagaskar's repetition) is one place for all, whatever the scores."""
    seats = list(range(len(outcome.seating)))
    if not outcome.winners:
        return [seats]
    winners = sorted(outcome.winners)
    rest = [s for s in seats if s not in winners]
    places = [winners]
    for score in sorted({outcome.scores[s] for s in rest}, reverse=True):
        places.append([s for s in rest if outcome.scores[s] == score])
    return places


def stages_of(outcome: Outcome) -> list[Stage]:
    """The Plackett-Luce choices a game's finishing order makes: each place taken from the seats still
    unplaced. Seats that tie share the place (each chosen with weight 1 / their number), so a two-seat
    draw is half a win each, as Elo counts it. The last place is no choice and adds nothing."""
    stages = []
    left = list(range(len(outcome.seating)))
    for place in finishing_order(outcome):
        if len(left) <= 1:
            break
        among = tuple(outcome.seating[s] for s in left)
        stages += [Stage(outcome.seating[s], among, 1 / len(place)) for s in place]
        left = [s for s in left if s not in place]
    return stages


def share(outcome: Outcome, seat: int) -> float:
    """The seat's share of the win: 1 alone, 1/k among k winners, 0 when another won, 1/seats when
    nobody did (a draw is half a win at two seats)."""
    if not outcome.winners:
        return 1 / len(outcome.seating)
    return 1 / len(outcome.winners) if seat in outcome.winners else 0.0


@dataclass(slots=True)
class CellTally:
    """A cell's games so far: `wins` counts games the subject won alone, `draws` those nobody won alone."""

    cell: Cell
    games: int = 0
    wins: int = 0
    draws: int = 0
    shares: float = 0.0
    subject_scores: list[int] = field(default_factory=list)
    opponent_score_sum: float = 0.0
    times: dict[str, list[float]] = field(default_factory=dict)
    stages: list[Stage] = field(default_factory=list)
    deals: set[int] = field(default_factory=set)
    seeds: set[int] = field(default_factory=set)
    actions: int = 0

    def add(self, outcome: Outcome) -> None:
        subject = outcome.index % self.cell.rotation  # the subject's seat (cells.Cell.seating)
        self.games += 1
        if outcome.winners == (subject,):
            self.wins += 1
        elif len(outcome.winners) != 1:
            self.draws += 1
        self.shares += share(outcome, subject)
        self.subject_scores.append(outcome.scores[subject])
        others = [outcome.scores[s] for s in range(len(outcome.seating)) if s != subject]
        if others:
            self.opponent_score_sum += sum(others) / len(others)
        for seat, spent in enumerate(outcome.times):
            self.times.setdefault(outcome.seating[seat], []).extend(spent)
        if self.cell.players > 1:
            self.stages += stages_of(outcome)
        self.deals.add(outcome.deal)
        self.seeds.add(outcome.seed)
        self.actions += outcome.actions

    @property
    def win_share(self) -> float:
        """The subject's mean share of the win (what Elo and the SPRT read: a draw is half at two seats)."""
        return self.shares / self.games if self.games else 0.0

    @property
    def seed_range(self) -> tuple[int, int] | None:
        """The first and last deal seed played (every deal between them, when the run was not cut short)."""
        return (min(self.seeds), max(self.seeds)) if self.seeds else None
