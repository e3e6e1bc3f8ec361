"""Playing a ladder's games, here or on every core, and adding them up as they come back.

The unit of work is one rotation (every game of one deal of a cell), so counts always hold whole
rotations, even when a run is cut short. Workers get names and ints only (`play.play_rotation`) and
send back plain values; a game that raises comes back as a `Failure` naming its game and seed, and a
worker process that dies outright (killed, out of memory) breaks the pool, which is reported with the
rotations it was playing: nothing waits for a result that cannot come. Ctrl-C (KeyboardInterrupt)
stops handing out work, lets the rotations under way finish (the workers ignore SIGINT, so none dies
halfway), and returns what was finished, marked as interrupted.

An SPRT reads the rotations in deal order, whatever order they finish in, and stops at the first one
after which it decides; later rotations that finished meanwhile are left out, so a test decides at the
same game on one core or eight.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from bots.ladder.cells import Cell
from bots.ladder.play import Failure, Outcome, play_rotation
from bots.ladder.sprt import Decision, Sprt
from bots.ladder.tally import CellTally, share

__all__ = ["LadderRun", "run_ladder"]

#: rotations handed to each worker ahead of the one it plays: enough that none waits for the parent
AHEAD = 2


@dataclass(slots=True)
class LadderRun:
    """A finished (or interrupted) run: one tally per cell, in the cells' order."""

    game_id: str
    players: int
    options: dict
    base_seed: int
    deals: int
    workers: int
    tallies: dict[str, CellTally]
    anchor: str = ""
    failure: Failure | None = None
    interrupted: bool = False
    sprt: Sprt | None = None
    seconds: float = 0.0
    planned: int = 0
    played: int = field(default=0)


def run_ladder(game_id: str, cells: list[Cell], deals: int, base_seed: int = 0, options: dict | None = None,
               workers: int = 1, progress: Callable[[int, int], None] | None = None,
               sprt: Sprt | None = None, anchor: str | None = None) -> LadderRun:
    """Play `deals` rotations of every cell (an SPRT: of its one cell, until it decides) on `workers`
    processes (1: in this process) and tally them. `anchor` is the bot rated 0 (default: the first
    cell's opponent). `progress(games done, games planned)` after each
    rotation; it may raise KeyboardInterrupt, as Ctrl-C does, to stop the run."""
    if sprt is not None and len(cells) != 1:
        raise ValueError("an SPRT plays exactly one cell")
    options = dict(options or {})
    players = cells[0].players
    work = [(cell, deal) for deal in range(deals) for cell in cells]  # deal-major: every cell advances together
    run = LadderRun(game_id, players, options, base_seed, deals, workers, {c.key: CellTally(c) for c in cells},
                    sprt=sprt, planned=sum(c.rotation for c, _ in work),
                    anchor=anchor or cells[0].opponent or cells[0].subject)
    start = time.perf_counter()
    pending: dict[int, list[Outcome]] = {}  # an SPRT's rotations that came back ahead of their turn
    next_deal = 0

    def take(cell: Cell, deal: int, result: list[Outcome] | Failure) -> bool:
        """Add one rotation's result; False once the run must stop (a failure, a decided SPRT)."""
        nonlocal next_deal
        if isinstance(result, Failure):
            run.failure = run.failure or result
            return False
        if sprt is None:
            _add(run, cell, result)
        else:
            pending[deal] = result
            while next_deal in pending and sprt.decision is Decision.UNDECIDED:
                outcomes = pending.pop(next_deal)
                _add(run, cell, outcomes)
                sprt.update([share(o, o.index % cell.rotation) for o in outcomes])
                next_deal += 1
            if sprt.decision is not Decision.UNDECIDED:
                return False
        if progress is not None:
            progress(run.played, run.planned)
        return True

    try:
        if workers <= 1:
            for cell, deal in work:
                if not take(cell, deal, _rotation(game_id, options, cell, base_seed, deal)):
                    break
        else:
            _on_pool(run, work, take)
    except KeyboardInterrupt:
        run.interrupted = True
    run.seconds = time.perf_counter() - start
    return run


def _rotation(game_id: str, options: dict, cell: Cell, base_seed: int, deal: int) -> list[Outcome] | Failure:
    return play_rotation(game_id, options, cell.subject, cell.opponent, cell.players, base_seed, deal)


def _add(run: LadderRun, cell: Cell, outcomes: list[Outcome]) -> None:
    tally = run.tallies[cell.key]
    for outcome in outcomes:
        tally.add(outcome)
    run.played += len(outcomes)


def _quiet() -> None:
    """A worker ignores Ctrl-C: the parent decides when to stop, and a rotation under way finishes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _on_pool(run: LadderRun, work: list[tuple[Cell, int]], take) -> None:
    queue = iter(work)
    running: dict[Future, tuple[Cell, int]] = {}
    # forked workers start at once with every module already imported (a spawned one imports the engines
    # again, about 0.3 s of CPU each); they hold nothing of the parent's but this code and its modules
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=run.workers, mp_context=context, initializer=_quiet) as pool:
        def hand_out() -> None:
            while len(running) < run.workers * (1 + AHEAD):
                item = next(queue, None)
                if item is None:
                    return
                cell, deal = item
                running[pool.submit(play_rotation, run.game_id, run.options, cell.subject, cell.opponent,
                                    cell.players, run.base_seed, deal)] = item
        try:
            hand_out()
            going = True
            while running and going:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: running[f][1]):
                    cell, deal = running.pop(future)
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        seeds = ", ".join(str(run.base_seed + d) for d in sorted({deal, *(d for _, d in
                                                                                          running.values())}))
                        run.failure = Failure(cell.key, deal * cell.rotation, run.base_seed + deal, cell.seating(0),
                                              f"a worker process died while playing the rotations of deal seeds "
                                              f"{seeds}")
                        going = False
                        break
                    if going and not take(cell, deal, result):
                        going = False
                if going:
                    hand_out()
        except KeyboardInterrupt:
            # the rotations under way finish (the workers ignore SIGINT) and count; none is started
            for future in running:
                future.cancel()
            for future, (cell, deal) in list(running.items()):
                if not future.cancelled():
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        continue
                    if isinstance(result, list):
                        take(cell, deal, result)
            raise
        finally:
            for future in running:
                future.cancel()
