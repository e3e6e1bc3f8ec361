"""The dice of a game, for players who doubt them: every roll in order, and a histogram of the rolls
against the distribution fair dice give, with a chi-square test that says in words whether the
difference is the kind chance makes. (The proof of each roll is replays/proof.py.) No pygame here.

What is counted follows how the game reads its dice: Catan the sum of two dice (2..12), Cities &
Knights the red and white sum and the event die's faces (the ship on three of six), every other game
the faces of each die rolled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

__all__ = ["ROLLING", "ChiSquare", "Histogram", "Roll", "chi_square", "fairness", "fair_two_dice", "histograms",
           "tile_text"]

_EVENT = ("ship", "trade", "politics", "science")   # the C&K event die: the ship on three faces of six
ROLLING = frozenset(("catan", "catan-ck", "ploc", "quedah-merchant"))   # the games whose engine rolls dice


@dataclass(frozen=True, slots=True)
class Roll:
    number: int                  # 1-based among the game's rolls
    position: int                # the frame index where it happened (-1: unknown)
    seat: int | None             # who rolled (the seat that moved last before it), None when unknown
    values: tuple[int, ...]
    sides: tuple[int, ...]
    label: str
    event: Any = None            # the ledger's Event, for the proof (None in a game without a ledger)

    @property
    def text(self) -> str:
        if len(self.values) == 2:
            return f"{self.values[0]} + {self.values[1]} = {sum(self.values)}"
        return ", ".join(str(v) for v in self.values)


@dataclass(frozen=True, slots=True)
class Histogram:
    title: str
    labels: tuple[str, ...]
    counts: tuple[int, ...]
    expected: tuple[float, ...]   # the count each bar should have on average after this many rolls
    last: int | None = None       # the bar of the latest roll counted
    unit: str = "rolls"           # what is counted: "rolls" (a sum, the event die) or "dice" (each face)

    @property
    def n(self) -> int:
        return sum(self.counts)


def tile_text(game_id: str, roll: Roll) -> str:
    """A roll in a few characters, as the game reads it: Catan's sum (C&K's red + white), else the faces."""
    if game_id in ("catan", "catan-ck") and len(roll.values) >= 2:
        return str(roll.values[0] + roll.values[1])
    if game_id == "catan-ck":
        return _EVENT[0 if roll.values[0] <= 3 else roll.values[0] - 3][:4]
    return "".join(str(v) for v in roll.values)


def fair_two_dice(sides: int = 6) -> list[float]:
    """The chance of each sum 2..2*sides of two fair dice."""
    ways = [0] * (2 * sides - 1)
    for a in range(1, sides + 1):
        for b in range(1, sides + 1):
            ways[a + b - 2] += 1
    return [w / sides ** 2 for w in ways]


def _hist(title: str, labels: list[str], probabilities: list[float], outcomes: list[int],
          unit: str = "rolls") -> Histogram:
    counts = [0] * len(labels)
    for o in outcomes:
        counts[o] += 1
    n = len(outcomes)
    return Histogram(title, tuple(labels), tuple(counts), tuple(n * p for p in probabilities),
                     outcomes[-1] if outcomes else None, unit)


def histograms(game_id: str, rolls: list[Roll]) -> list[Histogram]:
    if game_id in ("catan", "catan-ck"):
        pairs = [r for r in rolls if len(r.values) >= 2]
        sums = [r.values[0] + r.values[1] - 2 for r in pairs]
        title = "red + white" if game_id == "catan-ck" else "sum of the two dice"
        out = [_hist(title, [str(s) for s in range(2, 13)], fair_two_dice(), sums)]
        if game_id == "catan-ck":
            events = [r.values[2] if len(r.values) == 3 else r.values[0] for r in rolls if len(r.values) in (1, 3)]
            out.append(_hist("event die", list(_EVENT), [3 / 6, 1 / 6, 1 / 6, 1 / 6],
                             [0 if e <= 3 else e - 3 for e in events]))
        return out
    by_sides: dict[int, list[int]] = {}
    for r in rolls:
        for value, sides in zip(r.values, r.sides, strict=False):
            by_sides.setdefault(sides, []).append(value - 1)
    return [_hist(f"faces of the d{sides}" if len(by_sides) > 1 else "faces of every die rolled",
                  [str(f) for f in range(1, sides + 1)], [1 / sides] * sides, faces, "dice")
            for sides, faces in sorted(by_sides.items())]


def pooled(counts: tuple[int, ...], expected: tuple[float, ...]) -> list[tuple[int, float]]:
    """The bars for the test: the rarest bar merged with its rarer neighbour, again and again, until
    each expects at least 5 rolls (the usual condition for the chi-square approximation)."""
    bins = [[c, e] for c, e in zip(counts, expected, strict=True)]
    while len(bins) > 2:
        i = min(range(len(bins)), key=lambda k: bins[k][1])
        if bins[i][1] >= 5:
            break
        j = i + 1 if i == 0 else i - 1 if i == len(bins) - 1 else min((i - 1, i + 1), key=lambda k: bins[k][1])
        a, b = sorted((i, j))
        bins[a] = [bins[a][0] + bins[b][0], bins[a][1] + bins[b][1]]
        del bins[b]
    return [(c, e) for c, e in bins]


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """The chi-square test of a histogram against fair dice: the statistic, its degrees of freedom, the
    chance p that fair dice land at least this far off, and whether rare bars were pooled."""

    chi2: float
    dof: int
    p: float
    pooled: bool

    @property
    def words(self) -> str:
        verdict = ("as fair dice give" if self.p >= 0.05 else "unusual (1 game in 20 is this far off)"
                   if self.p >= 0.01 else "very unusual for fair dice")
        merged = " (rare bars pooled)" if self.pooled else ""
        dof = f"{self.dof} degree{'s' if self.dof != 1 else ''} of freedom"
        return f"chi-square {self.chi2:.1f} on {dof}{merged}, p = {self.p:.2f}: {verdict}"


def chi_square(h: Histogram) -> ChiSquare | None:
    """The test, or None when too few rolls are counted for it to mean anything (the lobby's statistics
    page tests a player's rolls over many games with it, the viewer one game's)."""
    bins = pooled(h.counts, h.expected)
    if h.n == 0 or len(bins) < 2 or min(e for _, e in bins) < 5:
        return None
    chi2 = sum((c - e) ** 2 / e for c, e in bins)
    dof = len(bins) - 1
    return ChiSquare(chi2, dof, _chi2_sf(chi2, dof), len(bins) < len(h.counts))


def fairness(h: Histogram) -> str:
    """The chi-square test of the counts against fair dice, in words."""
    n = h.n
    if n == 0:
        return "no rolls yet"
    counted = f"{n} {h.unit if n != 1 else h.unit[:-1] if h.unit == 'rolls' else 'die'}"
    test = chi_square(h)
    if test is None:
        return f"{counted}: too few to judge yet (a test needs about 5 expected in each bar)"
    return f"{counted}: {test.words}"


def _chi2_sf(x: float, k: int) -> float:
    """P(X >= x) for a chi-square variable with k degrees of freedom (the regularized upper gamma)."""
    return _gamma_q(k / 2, x / 2)


def _gamma_q(a: float, x: float) -> float:
    if x <= 0:
        return 1.0
    if x < a + 1:   # the series for P, then Q = 1 - P
        term = total = 1 / a
        ap = a
        for _ in range(500):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-12:
                break
        return max(0.0, 1 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    # the continued fraction for Q (Lentz)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-12:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - math.lgamma(a)) * h)
