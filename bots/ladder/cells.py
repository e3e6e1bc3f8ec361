"""Which games a ladder plays: the cells (pairings), the seat rotations, and every game's seeds.

A cell is one pairing: a subject bot against opponents of one other level. Its games come in whole
rotations: one *deal* (a referee seed, hence one sequence of chance outcomes) is played once with the
subject in each seat, so that no bot profits from a seat or from a lucky deal. Every seed is a
function of (the base seed, the cell's bot names, the game's index) alone, never of the worker that
plays it or of the order games finish in: that is what lets `--workers 1` and `--workers 8` give the
same counts, and a cell be re-run from the seeds its table row prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, permutations

__all__ = ["Cell", "GameSpec", "cells_for", "sprt_cell"]


@dataclass(frozen=True, slots=True)
class Cell:
    """One pairing: `subject` in one seat, `opponent` in every other seat (none in a solo game).

    `players` is the number of seats; a rotation is `players` games, the subject moved one seat on each."""

    subject: str
    opponent: str | None
    players: int

    @property
    def key(self) -> str:
        """The cell's name in tables, files and the bots' rng seeds: its bots only, never its position
        in a list, so that a cell's games are the same whatever other cells a run plays."""
        if self.opponent is None:
            return self.subject
        return f"{self.subject} vs {self.opponent}" if self.players == 2 else \
            f"{self.subject} vs {self.players - 1}x {self.opponent}"

    @property
    def rotation(self) -> int:
        """Games in one rotation (one deal played with the subject in every seat)."""
        return self.players

    def seating(self, rotation: int) -> tuple[str, ...]:
        """The bot name at each seat in rotation `rotation` (0 <= rotation < players): the subject
        sits at seat `rotation`."""
        if not 0 <= rotation < self.players:
            raise ValueError(f"rotation {rotation} outside 0..{self.players - 1}")
        return tuple(self.subject if seat == rotation else (self.opponent or self.subject)
                     for seat in range(self.players))

    def deals(self, games: int) -> int:
        """Deals needed for at least `games` games in whole rotations."""
        return -(-games // self.rotation)

    def game(self, base_seed: int, index: int) -> GameSpec:
        """The `index`-th game of this cell (index = deal * rotation + seat of the subject)."""
        deal, rotation = divmod(index, self.rotation)
        return GameSpec(self, index, deal, rotation, deal_seed(base_seed, deal))


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of a cell, named by ints and names only, so that it can cross to a worker process."""

    cell: Cell
    index: int
    deal: int
    rotation: int
    seed: int

    @property
    def seating(self) -> tuple[str, ...]:
        return self.cell.seating(self.rotation)

    def bot_seed(self, seat: int) -> str:
        """The seed of the bot's own rng at `seat`: it differs per seat, bot, rotation and deal (the
        chance outcomes are shared by a rotation, the bots' dice rolls in their heads are not)."""
        return f"ladder/{self.seed}/{self.cell.key}/{self.rotation}/{seat}/{self.seating[seat]}"


def deal_seed(base_seed: int, deal: int) -> int:
    """The referee seed of deal number `deal`: consecutive from the base seed, and the same for every
    cell, so that different cells meet the same deals too (common random numbers across cells)."""
    return base_seed + deal


def cells_for(names: list[str], players: int) -> list[Cell]:
    """The cells of a ladder over bots `names` (weakest first, by convention) at `players` seats.

    Solo: one cell per bot. Two seats: every pair of distinct bots once, the later-listed (stronger)
    one as the subject. Three or four seats: one bot against all others of another level, for every
    ordered pair, since "hard vs three medium" and "medium vs three hard" are different questions."""
    if len(set(names)) != len(names):
        raise ValueError(f"a bot is named twice in {','.join(names)}")
    if players == 1:
        return [Cell(name, None, 1) for name in names]
    if len(names) < 2:
        raise ValueError(f"a ladder at {players} seats needs at least two bots, not {','.join(names)}")
    if players == 2:
        return [Cell(strong, weak, 2) for weak, strong in combinations(names, 2)]
    return [Cell(subject, other, players) for subject, other in permutations(names, 2)]


def sprt_cell(new: str, old: str, players: int) -> Cell:
    """The one cell an SPRT plays: the new bot in one seat against the old one in the others."""
    if players == 1:
        raise ValueError("an SPRT compares two bots at one table; a solo game has no pairing")
    if new == old:
        raise ValueError(f"an SPRT needs two different bots, not {new} twice")
    return Cell(new, old, players)
