"""Runs inside the benchmark's own environment (scripts/bench makes .bench-venv with catanatron; the
project never depends on it): four random players of catanatron's base game for `seconds`, printing
one JSON line {"games", "actions", "seconds", "version"}."""

import importlib.metadata
import json
import random
import sys
import time

from catanatron import Color, Game, RandomPlayer


def main(seconds: float) -> None:
    random.seed(0)
    colours = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game([RandomPlayer(c) for c in colours])
        game.play()
        actions += len(game.state.actions)
        games += 1
    print(json.dumps({"games": games, "actions": actions, "seconds": time.perf_counter() - start,
                      "version": importlib.metadata.version("catanatron")}))


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0)
