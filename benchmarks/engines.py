"""Engine throughput: random self-play actions per second per game and player count (through the
referee, which keeps every seat's knowledge state as a networked peer would), against a raw Python
loop measured in the same run (so the ratio compares across machines). The aim is absolute: 30k
actions/s for every game (catanatron makes about that on full Catan on the reference machine;
benchmarks/catan.py compares with it in the same run)."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

import engines
from benchmarks.measure import Figure, libraries
from bots.selfplay import run_many

AIM = 30_000


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


def engine_rate(game_id: str, seconds: float = 2.0, players: int | None = None, seed: int = 0) -> EngineFigure:
    """Random-vs-random self-play for about `seconds` (whole games, at least one), chance steps not counted."""
    game = engines.get(game_id)
    players = players or game.players[0]
    actions = 0
    spent = 0.0
    while spent < seconds:
        tally = run_many(game, ["random"], 1, seed, players)
        actions += tally.actions
        spent += tally.seconds
        seed += 1
    return EngineFigure(game_id, players, actions, spent)


def figures(runs: int = 5, quick: bool = False, say=print) -> list[Figure]:
    seconds = 0.2 if quick else 0.8   # at least one whole game each (a C&K game is ~0.4 s)
    base = f"a raw loop of random picks and small tuples ({libraries()['python']})"
    figs: dict[tuple[str, int], Figure] = {}
    raws = []
    for run in range(runs):
        raw = raw_loop_rate(0.1 if quick else 0.3)
        raws.append(raw)
        for game_id, game in engines.GAMES.items():
            for players in game.players:
                fig = figs.setdefault((game_id, players), Figure(
                    "engines", f"self-play {game_id} {players}p", "actions/s", baseline=base, aim=AIM, lower=False,
                    aim_value=True))
                # a new seed every run: the median covers several games, not one game again
                fig.add(engine_rate(game_id, seconds, players, seed=1000 * run).rate, raw)
    say(f"raw loop baseline: {statistics.median(raws):,.0f} iterations/s (median of {runs} runs)")
    for fig in figs.values():
        say(f"  {fig.line()}")
    return list(figs.values())


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
