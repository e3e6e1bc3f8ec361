"""Catan and Cities & Knights, random four-seat self-play, against catanatron measured in the same run.

netplay's figure is the local self-play driver (engines.referee: the full-knowledge state plus every
seat's knowledge state, as a networked peer would hold them) and, for a like-for-like figure, one
full-knowledge state driven by the random bot (what catanatron's loop does). catanatron runs in the
benchmark's own environment (`.bench-venv`, made by scripts/bench; never a dependency of netplay):
pass its python with `--catanatron PATH`, or the comparison is skipped with the reason.

Rules that differ: catanatron's random players never offer domestic trades and it plays the
base game without netplay's draw offers; netplay's random bot makes and answers domestic offers,
so its games are longer (more actions); the figures are per action, and also per game.

Cities & Knights (`catan-ck`) is measured the same way through the referee and against the same
catanatron baseline (catanatron has no C&K: the richer game against its base game); the aim for it is
issue 14's "at least catanatron's rate" (1x), for the base game 2x.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time
from pathlib import Path

import bots
import engines
from benchmarks.measure import Figure
from bots.selfplay import run_many

HERE = Path(__file__).resolve().parent


def netplay_referee(seconds: float, options: dict | None = None, game_id: str = "catan") -> dict:
    """Random four-seat self-play of `game_id` through the referee (bots.selfplay.run_many)."""
    game = engines.get(game_id)
    games = actions = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        tally = run_many(game, ["random"], 1, seed, players=4, options=options)
        games += tally.games
        actions += tally.actions
        seed += 1
    return {"games": games, "actions": actions, "seconds": time.perf_counter() - start}


def netplay_one_state(seconds: float, options: dict | None = None) -> dict:
    """One full-knowledge state, the random bot choosing for every seat (catanatron's loop)."""
    from engines.referee import seeded_bytes
    game = engines.get("catan")
    bot = bots.make("catan", ["random"], 1)[0]
    rng = random.Random(0)
    games = actions = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = game.start(4, options or {})
        dealt: dict = {}
        steps = 0
        while True:
            waiting = game.awaiting(state)
            if waiting.kind == "over":
                break
            if waiting.kind == "chance":
                chance = waiting.chance
                data = seeded_bytes(seed, steps)
                if chance.kind == "deal":
                    from engines.chance import deal_from_bytes, remaining_cards
                    key = (chance.deck, chance.epoch)
                    value = deal_from_bytes(chance, data, remaining_cards(chance.pool, dealt.get(key, [])))
                    dealt.setdefault(key, []).append(value)
                else:
                    from engines.chance import outcome_from_bytes
                    value = outcome_from_bytes(chance, data)
                state = game.chance(state, value)
            else:
                seat = waiting.seats[0]
                state = game.play(state, seat, bot.choose(game, state, seat, game.legal(state, seat), rng))
                actions += 1
            steps += 1
        games += 1
        seed += 1
    return {"games": games, "actions": actions, "seconds": time.perf_counter() - start}


def catanatron(python: str | None, seconds: float) -> dict | str:
    if not python:
        return "no catanatron environment given (scripts/bench makes one in .bench-venv)"
    try:
        run = subprocess.run([python, str(HERE / "catanatron" / "run_catanatron.py"), str(seconds)],
                             capture_output=True, text=True, timeout=seconds * 5 + 60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"catanatron did not run: {exc}"
    if run.returncode != 0:
        return f"catanatron failed: {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else run.returncode}"
    return json.loads(run.stdout.strip().splitlines()[-1])


def _line(name: str, figure: dict) -> str:
    rate = figure["actions"] / figure["seconds"]
    return (f"{name:34} {rate:10,.0f} actions/s {figure['games'] / figure['seconds']:7.2f} games/s "
            f"({figure['actions'] / max(1, figure['games']):,.0f} actions a game)")


AIM = 2.0
#: Cities & Knights against catanatron's base game (issue 14: "aim: at least catanatron's rate")
AIM_CK = 1.0


def figures(runs: int = 5, quick: bool = False, say=print, catanatron_python: str | None = None) -> list[Figure]:
    """netplay's Catan (referee, one state, one state without offers) and Cities & Knights (referee)
    against catanatron, each run measured right after catanatron's, in actions per second."""
    seconds = 0.3 if quick else 2.0
    names = {"referee": "catan self-play, referee, 4 seats (actions/s vs catanatron)",
             "one": "catan one state, 4 random seats (catanatron's loop)",
             "no_offers": "catan one state, no domestic offers",
             "ck": "catan-ck self-play, referee, 4 seats (actions/s vs catanatron)"}
    figs = {key: Figure("catan", name, "actions/s", lower=False, aim=AIM_CK if key == "ck" else AIM)
            for key, name in names.items()}
    skipped = None
    for _ in range(runs):
        other = catanatron(catanatron_python, seconds)
        base = None
        if isinstance(other, str):
            skipped = other
        else:
            base = other["actions"] / other["seconds"]
            for fig in figs.values():
                fig.baseline = f"catanatron {other.get('version', '?')}, 4 random players, in its own environment"
        measured = {"referee": netplay_referee(seconds), "one": netplay_one_state(seconds),
                    "no_offers": netplay_one_state(seconds, {"domestic": "off"}),
                    "ck": netplay_referee(seconds, game_id="catan-ck")}
        for key, figure in measured.items():
            figs[key].add(figure["actions"] / figure["seconds"], base)
    if skipped:
        say(f"  catanatron: skipped: {skipped}")
        for fig in figs.values():
            fig.ratios, fig.aim = [], None
    for fig in figs.values():
        say(f"  {fig.line()}")
    return list(figs.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catanatron", default=None, help="python of an environment with catanatron installed")
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    other = catanatron(args.catanatron, args.seconds)
    figures = {
        "netplay catan, referee (4 seats)": netplay_referee(args.seconds),
        "netplay catan, one state": netplay_one_state(args.seconds),
        "netplay catan, one state, no offers": netplay_one_state(args.seconds, {"domestic": "off"}),
        "netplay catan-ck, referee (4 seats)": netplay_referee(args.seconds, game_id="catan-ck"),
    }
    for name, figure in figures.items():
        print(_line(name, figure))
    if isinstance(other, str):
        print(f"catanatron: skipped: {other}")
        return
    print(_line("catanatron (4 random players)", other))
    base = other["actions"] / other["seconds"]
    for name, figure in figures.items():
        aim = AIM_CK if "catan-ck" in name else AIM
        print(f"  {name}: {figure['actions'] / figure['seconds'] / base:.2f}x catanatron's actions/s (aim {aim:g}x)")


if __name__ == "__main__":
    main()
