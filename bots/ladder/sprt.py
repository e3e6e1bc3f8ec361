"""The sequential probability ratio test that decides whether a bot change is a gain.

Wald's SPRT on the new bot's results against the old one: H0, its win probability is `p0` (parity,
1 / seats, or a baseline measured before); H1, it is `p0 + 0.03` (the issue's "+3 points"). With
alpha = beta = 0.05 it stops as soon as the log-likelihood ratio leaves (ln(beta / (1 - alpha)),
ln((1 - beta) / alpha)) = (-2.94, +2.94), usually long before a fixed-size test would. A draw counts as
half a win (the generalised SPRT on scores), so that a game with many draws is not read as losses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

__all__ = ["GAIN", "Decision", "Sprt"]

#: the gain H1 asks for, in win probability
GAIN = 0.03


class Decision(Enum):
    """Where the test stands: still playing, or decided for one hypothesis."""

    UNDECIDED = "undecided"
    GAIN = "H1: a gain of +3 points"
    NO_GAIN = "H0: no gain"


@dataclass(slots=True)
class Sprt:
    """The running test; feed it each game's result (1 win, 0.5 draw, 0 loss) in game order."""

    p0: float
    alpha: float = 0.05
    beta: float = 0.05
    gain: float = GAIN
    llr: float = 0.0
    games: int = 0
    decision: Decision = field(default=Decision.UNDECIDED)

    def __post_init__(self) -> None:
        if not 0 < self.p0 < 1 or not 0 < self.p0 + self.gain < 1:
            raise ValueError(f"an SPRT baseline must leave room for +{self.gain:.2f} inside (0, 1), not {self.p0}")

    @property
    def p1(self) -> float:
        return self.p0 + self.gain

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) on the log-likelihood ratio: below accepts H0, above accepts H1."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def add(self, score: float) -> Decision:
        """One more game; the decision once made stays (later games are not looked at)."""
        return self.update([score])

    def update(self, scores: Sequence[float]) -> Decision:
        """Several games at once, looked at only after the last of them (a ladder's rotation, so that the
        test decides on whole rotations: the seats balanced, the mirrored games together)."""
        if self.decision is not Decision.UNDECIDED:
            return self.decision
        p0, p1 = self.p0, self.p1
        for score in scores:
            if not 0 <= score <= 1:
                raise ValueError(f"a game's score is 0, 0.5 or 1, not {score}")
            self.llr += score * math.log(p1 / p0) + (1 - score) * math.log((1 - p1) / (1 - p0))
            self.games += 1
        low, high = self.bounds
        if self.llr >= high:
            self.decision = Decision.GAIN
        elif self.llr <= low:
            self.decision = Decision.NO_GAIN
        return self.decision
