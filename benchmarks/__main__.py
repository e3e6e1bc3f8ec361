"""`python -m benchmarks [--quick] [--runs N] [--catanatron PYTHON] [GROUP ...]`: every figure of
netplay as the median of several runs with its spread (min - max), each run against a baseline measured
in that same run, then a summary with the aims. scripts/bench runs it (and makes catanatron's own
environment); `--quick` prints the same figures from fewer and shorter runs, a rough reading in under a
minute on an idle 2-core machine (a full run: about 7 minutes)."""

from __future__ import annotations

import argparse
import sys
import time
import traceback

from benchmarks import (
    ab,
    audit,
    catan,
    deals,
    deck,
    engines,
    hostile,
    idle,
    mesh,
    session,
    spectators,
    stages,
    transport,
)
from benchmarks.measure import Figure, cpu_seconds, libraries

GROUPS = {
    "engines": ("engines: random self-play through the referee, actions/s (aim: 30k for every game)", engines),
    "audit": ("replays: audit on every usable core vs one core's raw Ed25519 verification; seek", audit),
    "hostile": ("replays: hostile files (tiny records, maximum-length chains) vs an honest game, per MB", hostile),
    "transport": ("transport: round trip vs raw pyzmq", transport),
    "session": ("session: per move and a commit-reveal step vs their floors (the floors vs a raw round trip)",
                session),
    "stages": ("a move stage by stage at both ends (time stamps on both peers' transports and machines)", stages),
    "ab": (f"per move vs the last release: this code and {ab.RELEASE} in alternating rounds", ab),
    "deck": ("decks: a shuffle with its proof and a strip's check vs one scalar multiplication", deck),
    "deals": ("decks on the wire: one deal with four peers vs the raw round trip", deals),
    "mesh": ("the joiners' direct links: per move and per deal with four peers, mesh vs star", mesh),
    "spectators": ("spectators: per move of a four-peer Catan game, 8 watching vs none", spectators),
    "catan": ("catan: random four-seat self-play, base game and C&K, vs catanatron", catan),
    "idle": ("idle: the window's CPU at rest (lobby, a table waiting, the viewer) vs drawing every frame", idle),
}
#: runs per figure (rounds for ab), (full, quick); what else --quick shortens is in each group's figures()
RUNS = {"engines": (5, 1), "audit": (4, 1), "hostile": (3, 1), "transport": (5, 2), "session": (5, 1),
        "stages": (3, 1), "ab": (5, 2), "deck": (5, 2), "deals": (3, 1), "mesh": (3, 1), "catan": (3, 1),
        "idle": (3, 1), "spectators": (3, 1)}


def _epilog() -> str:
    runs = ", ".join(f"{name} {full}/{quick}" for name, (full, quick) in RUNS.items())
    return (f"Runs per figure, full/quick: {runs} (ab: rounds, each one run of this code and one of "
            f"{ab.RELEASE}). --quick also makes each run shorter (fewer moves, games, round trips, seconds); it "
            "prints every figure the full run prints. Each group ends with its time on the clock and its CPU "
            "time (this process and its children), the run with the totals.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split(": ", 1)[1],
                                     epilog=_epilog())
    parser.add_argument("groups", nargs="*", choices=[[], *GROUPS], metavar="GROUP",
                        help=f"only these ({', '.join(GROUPS)}); default: all")
    parser.add_argument("--quick", action="store_true",
                        help="the same figures from fewer, shorter runs: a rough reading in under a minute")
    parser.add_argument("--runs", type=int, default=None, help="runs per figure (default: see below)")
    parser.add_argument("--catanatron", default=None, help="python of an environment with catanatron installed")
    args = parser.parse_args(argv)
    started, cpu_started = time.perf_counter(), cpu_seconds()
    lib = libraries()
    print(f"netplay benchmarks{' (quick: a rough reading)' if args.quick else ''}: every figure is the median "
          "[min - max] of n runs, each run against its baseline measured in that same run")
    print("  " + "; ".join(f"{k}: {v}" for k, v in lib.items()), flush=True)
    figures: list[Figure] = []
    costs: list[tuple[str, float, float]] = []
    failed: list[str] = []
    for name in args.groups or list(GROUPS):
        title, module = GROUPS[name]
        runs = args.runs or RUNS[name][1 if args.quick else 0]
        print(f"\n== {title} ==", flush=True)
        begun, cpu_begun = time.perf_counter(), cpu_seconds()

        def say(line: str) -> None:
            print(line, flush=True)
        extra = {"catanatron_python": args.catanatron} if name == "catan" else {}
        try:
            figures += module.figures(runs=runs, quick=args.quick, say=say, **extra)
        except Exception as exc:        # noqa: BLE001 - one group's failure must not lose the others' figures
            failed.append(name)
            print(f"  FAILED: {type(exc).__name__}: {exc}", flush=True)
            traceback.print_exc()
        costs.append((name, time.perf_counter() - begun, cpu_seconds() - cpu_begun))
        print(f"  ({costs[-1][1]:.1f} s, {costs[-1][2]:.1f} s of CPU)", flush=True)
    print("\n== summary: figure: ratio to its baseline, median [min - max] (the figure itself), aim ==")
    for fig in figures:
        print(f"{fig.group:9} {fig.line()}")
    baselines = sorted({(fig.group, fig.baseline) for fig in figures if fig.baseline})
    print("baselines (each measured in the same run as its figure):")
    for group, base in baselines:
        print(f"  {group:9} {base}")
    print("time per group, on the clock / CPU (this process and its children): "
          + ", ".join(f"{name} {wall:.0f} / {cpu:.0f} s" for name, wall, cpu in costs))
    print(f"(the whole run: {time.perf_counter() - started:.0f} s on the clock, "
          f"{cpu_seconds() - cpu_started:.0f} s of CPU)")
    if failed:
        print(f"FAILED groups (their figures are missing above): {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
