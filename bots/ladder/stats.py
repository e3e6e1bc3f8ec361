"""The figures a ladder reports beside its raw counts: intervals, quantiles and ratings.

Written here rather than taken from a package (scipy, openskill): each is a few lines, and the ladder
then needs nothing beyond the standard library. Floats are fine here: this is the report, not an engine.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Stage", "elo_of_score", "fit_ratings", "mean_interval", "quantile", "wilson"]

#: the normal quantile of a two-sided 95 % interval
Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: unlike the normal one it stays inside [0, 1] and is
    right for few games or a rate near 0 or 1 (a bot that wins 20 of 20 is not "100 % +- 0")."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return (max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the normal interval on a mean (solo scores over hundreds of games, where the t
    and normal quantiles agree to the reported digits)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def quantile(values: Sequence[float], q: float) -> float:
    """The nearest-rank `q`-quantile (0 < q <= 1) of `values`; 0.0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def elo_of_score(score: float) -> float:
    """The Elo difference that predicts a score rate `score` (wins + draws / 2, over games):
    400 log10(s / (1 - s)); +-inf at 1 and 0."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score / (1 - score))


@dataclass(frozen=True, slots=True)
class Stage:
    """One choice of a Plackett-Luce ranking: among the seats still unplaced (their bots' names,
    repeated when several seats hold the same bot), a seat of bot `chosen` took the next place.
    `weight` < 1 for half a result (one side of a two-seat draw)."""

    chosen: str
    among: tuple[str, ...]
    weight: float = 1.0


def fit_ratings(stages: Iterable[Stage], anchor: str, iterations: int = 10_000,
                tolerance: float = 1e-10) -> dict[str, float]:
    """Plackett-Luce strengths fitted by Hunter's MM algorithm (Hunter 2004, "MM algorithms for
    generalized Bradley-Terry models"), on the Elo scale (400 log10 of the strength), `anchor` at 0.

    With two seats Plackett-Luce is Bradley-Terry, which is what Elo estimates: one fit serves both.
    Seats that share a bot share its strength, which the update allows since each stage's denominator
    stays linear in the strengths. Each pair of bots that met also gets one virtual draw, a weak prior
    that keeps a bot that won (or lost) every game at a finite rating; over hundreds of games it moves
    a rating by well under a point."""
    real = list(stages)
    names = sorted({n for s in real for n in s.among})
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} played no ranked game")
    met = {tuple(sorted((a, b))) for s in real for a in set(s.among) for b in set(s.among) if a < b}
    prior = [Stage(x, pair, 0.5) for pair in sorted(met) for x in pair]
    wins = {n: 0.0 for n in names}
    grouped: dict[tuple[str, ...], float] = {}  # the same table of seats, whoever was chosen: one term
    for s in real + prior:
        wins[s.chosen] += s.weight
        among = tuple(sorted(s.among))
        grouped[among] = grouped.get(among, 0.0) + s.weight
    counts = [(weight, {n: among.count(n) for n in set(among)}) for among, weight in sorted(grouped.items())]
    strength = {n: 1.0 for n in names}
    for _ in range(iterations):
        denominators = {n: 0.0 for n in names}
        for weight, among in counts:
            total = sum(k * strength[n] for n, k in among.items())
            for n, k in among.items():
                denominators[n] += weight * k / total
        new = {n: wins[n] / denominators[n] if denominators[n] else strength[n] for n in names}
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))  # geometric mean 1: no drift
        new = {n: v / scale for n, v in new.items()}
        change = max(abs(math.log(new[n] / strength[n])) for n in names)
        strength = new
        if change < tolerance:
            break
    base = strength[anchor]
    return {n: 400 * math.log10(strength[n] / base) for n in names}
