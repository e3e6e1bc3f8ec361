"""`python -m simulator`: run simulated games of every game against every adversary strategy and check the
session's invariants (simulator/invariants.py).

    python -m simulator --seed 1234 -v        # replay one run exactly, with what every peer (and liar) said
    python -m simulator --seed 1234 --classic # the same seed's plan as drawn before the generic liar
    python -m simulator --runs 2000           # a campaign: seeds 0..1999 on every core
    python -m simulator --runs 2000 --quick   # the test suite's campaign (its mix of games)
    python -m simulator --runs 100000 --from 5000000
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections import Counter

from simulator.run import campaign, command, crash_plan, plan_for, simulate


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.CRITICAL)
    parser = argparse.ArgumentParser(prog="python -m simulator", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, help="replay this one run")
    parser.add_argument("--runs", type=int, default=200, help="how many runs (a campaign)")
    parser.add_argument("--from", dest="first", type=int, default=0, help="the campaign's first seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("-v", "--verbose", action="store_true", help="with --seed: every peer's lines")
    parser.add_argument("--quick", action="store_true", help="the test suite's mix of games and options "
                                                             "(short games more)")
    parser.add_argument("--crashes", action="store_true", help="with --seed: the crash plan (every seat honest, "
                                                               "peers killed and resumed)")
    parser.add_argument("--classic", action="store_true", help="with --seed: the classic plan of that seed, without "
                                                               "the generic liar's draws (the older regressions)")
    args = parser.parse_args(argv)
    if args.seed is not None:
        plan = crash_plan(args.seed) if args.crashes else plan_for(args.seed, quick=args.quick,
                                                                   generic=not args.classic)
        print(plan.describe())
        world, report = simulate(plan)
        for peer in world.peers:
            print(f"peer {peer.index}{' (' + peer.adversary.name + ')' if peer.adversary else ''}: {peer.outcome} "
                  f"after {report.ended_at.get(peer.index, float('nan')):.1f} s; {len(peer.disk.frames)} frames")
            if args.verbose:
                for line in peer.lines + list(getattr(peer.adversary, "lines", [])):
                    print(f"    {line}")
        print(f"simulated {world.now:.1f} s, {world.event_count} events, bound {report.bound:.0f} s")
        for violation in report.violations:
            print(f"VIOLATION: {violation}")
        return 1 if report.violations else 0
    started = time.monotonic()
    strategies: Counter[str] = Counter()
    failures = []

    def note(result) -> None:
        for strategy in result.plan.liars.values() or ["honest"]:
            strategies[strategy] += 1
        if not result.ok:
            first_lines = "\n  ".join(v.splitlines()[0] for v in result.report.violations)
            failures.append(result)
            print(f"FAIL {result.plan.describe()}\n  " + first_lines
                  + f"\n  replay: {command(result.plan.seed, quick=args.quick)}", flush=True)

    results = campaign(range(args.first, args.first + args.runs), args.workers, note, quick=args.quick)
    took = time.monotonic() - started
    games = Counter(r.plan.game for r in results)
    print(f"{len(results)} runs in {took:.1f} s ({sum(r.seconds for r in results):.1f} s of CPU); "
          f"{len(failures)} failed")
    print("games: " + ", ".join(f"{g} {n}" for g, n in sorted(games.items())))
    print("strategies: " + ", ".join(f"{s} {n}" for s, n in sorted(strategies.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
