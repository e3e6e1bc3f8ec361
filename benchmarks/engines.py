"""Engine throughput: random self-play actions per second per game, against a raw Python loop
measured in the same run (so the ratio is comparable across machines)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import engines
from bots.selfplay import run_many


@dataclass(slots=True)
class EngineFigure:
    game: str
    players: int
    actions: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def raw_loop_rate(seconds: float = 0.5) -> float:
    """Iterations per second of the cheapest stand-in for a game step: pick one of a handful of
    texts at random and build a new small tuple (what any engine must at least do)."""
    rng = random.Random(0)
    texts = [f"move {i}" for i in range(12)]
    state = (0, 0, ())
    n = 0
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        for _ in range(1000):
            action = rng.choice(texts)
            state = (state[0] + 1, len(action), state[2])
        n += 1000
    return n / (time.perf_counter() - start)


def engine_rate(game_id: str, seconds: float = 2.0, players: int | None = None) -> EngineFigure:
    """Random-vs-random self-play for about `seconds` (whole games), chance steps not counted."""
    game = engines.get(game_id)
    players = players or game.players[0]
    actions = 0
    spent = 0.0
    seed = 0
    while spent < seconds:
        tally = run_many(game, ["random"], 1, seed, players)
        actions += tally.actions
        spent += tally.seconds
        seed += 1
    return EngineFigure(game_id, players, actions, spent)


def main(seconds: float = 2.0) -> list[str]:
    raw = raw_loop_rate()
    lines = [f"raw loop baseline: {raw:,.0f} iterations/s"]
    for game_id, game in engines.GAMES.items():
        for players in game.players:
            fig = engine_rate(game_id, seconds, players)
            lines.append(f"{game_id:18} {players}p  {fig.rate:>10,.0f} actions/s  "
                         f"ratio to raw loop {fig.rate / raw:.4f}  ({fig.actions} actions in {fig.seconds:.1f} s)")
    return lines


if __name__ == "__main__":
    for line in main():
        print(line, flush=True)
