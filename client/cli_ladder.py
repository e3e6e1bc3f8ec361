"""`netplay ladder GAME`: bot pairings played on every core, with seats rotated and common random
numbers, as a table of wins, intervals, scores, decision times, seeds and ratings (bots/ladder/,
docs/bots.md). `--sprt NEW,OLD` instead decides whether NEW is a gain over OLD."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import click

import bots
import engines
from client.cli_args import parse_bot_names, parse_options

__all__ = ["ladder"]

#: the level names of the level contract; a game whose table lacks one is laddered over random and smart
LEVELS = ("easy", "medium", "hard")


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not every platform has affinity)
        return os.cpu_count() or 1


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game_id", metavar="GAME")
@click.option("-n", "--games", default=200, show_default=True, type=click.IntRange(1, 10_000_000),
              help="games per cell, rounded up to whole seat rotations (an SPRT: the most it plays)")
@click.option("--bots", "bot_names", default=None,
              help="comma-separated bots, weakest first (default: easy,medium,hard where the game has them, "
                   "else random,smart); two seats: every pair, more seats: one against the rest for every order")
@click.option("--players", default=None, type=int, help="number of seats (default: the game's smallest count)")
@click.option("--seed", default=0, show_default=True, type=int,
              help="base seed: deal d of every cell uses seed+d, each played once with the subject in every seat")
@click.option("--workers", default=None, type=click.IntRange(1, 512),
              help="processes playing games (default: the cores this process may use)")
@click.option("--out", "out_dir", default=None, metavar="DIR", type=click.Path(file_okay=False, path_type=Path),
              help="also write DIR/ladder-GAME.md and DIR/ladder-GAME.json (default: print only)")
@click.option("--sprt", "sprt_pair", default=None, metavar="NEW,OLD",
              help="play NEW against OLD until an SPRT decides: H0 no gain, H1 +3 points of win rate "
                   "(alpha = beta = 0.05), at most --games games")
@click.option("--baseline", default=None, type=click.FloatRange(0, 0.97, min_open=True),
              help="the SPRT's H0 win rate (default: parity, 1 / seats)")
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="game option, repeatable")
def ladder(game_id: str, games: int, bot_names: str | None, players: int | None, seed: int, workers: int | None,
           out_dir: Path | None, sprt_pair: str | None, baseline: float | None, option_pairs: tuple[str, ...]) -> None:
    """Measure the strength of GAME's bots: play every pairing with seats rotated and the same chance
    outcomes in every game of a rotation, then print per cell wins/games, the 95 % Wilson interval,
    draws, mean scores, decision times p50/p95 and the seed range, with ratings (Elo at two seats,
    Plackett-Luce at more) beside them. A cell played again from its seeds gives the same counts, on
    any number of workers. Ctrl-C stops and still reports the games finished."""
    from bots.ladder.cells import cells_for, sprt_cell
    from bots.ladder.report import markdown, summary, text
    from bots.ladder.run import run_ladder
    from bots.ladder.sprt import Sprt

    game = engines.get(game_id)
    options = parse_options(option_pairs)
    players = players if players is not None else game.players[0]
    game.start(players, options)  # validates the count and options before anything runs
    known = bots.for_game(game_id)
    if sprt_pair is not None:
        names = parse_bot_names(sprt_pair)
        if len(names) != 2:
            raise click.BadParameter(f"name two bots, NEW,OLD, not {sprt_pair!r}", param_hint="--sprt")
    elif bot_names is not None:
        names = parse_bot_names(bot_names)
    else:
        names = list(LEVELS) if all(level in known for level in LEVELS) else ["random", "smart"]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise click.ClickException(f"unknown bot {unknown[0]!r} for {game_id} (bots: {', '.join(sorted(known))})")
    if baseline is not None and sprt_pair is None:
        raise click.BadParameter("a baseline is the SPRT's: give --sprt NEW,OLD too", param_hint="--baseline")
    test = None
    if sprt_pair is not None:
        cells = [sprt_cell(names[0], names[1], players)]
        test = Sprt(baseline if baseline is not None else 1 / players)
    else:
        cells = cells_for(names, players)
    deals = cells[0].deals(games)
    workers = workers or _cores()
    bar = _Progress(game_id, sys.stderr)
    run = run_ladder(game_id, cells, deals, seed, options, workers, bar.update, sprt=test,
                     anchor=names[1] if test is not None else names[0])
    bar.close()
    data = summary(run)
    click.echo(text(data), nl=False)
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / f"ladder-{game_id}.md").write_text(markdown(data))
        (out_dir / f"ladder-{game_id}.json").write_text(json.dumps(data, indent=2) + "\n")
        click.echo(f"written: {out_dir / f'ladder-{game_id}.md'}, {out_dir / f'ladder-{game_id}.json'}")
    if run.failure is not None:
        click.echo(run.failure.describe(), err=True)
        raise SystemExit(1)
    if run.interrupted:
        click.echo(f"interrupted: the table holds the {run.played} games finished, in whole rotations", err=True)
        raise SystemExit(130)  # the shell's code for a command stopped by Ctrl-C, after the report


class _Progress:
    """Games done, on stderr: one line rewritten in place on a terminal, else a line every ~10 %."""

    def __init__(self, label: str, stream) -> None:
        self.label = label
        self.stream = stream
        self.tty = stream.isatty()
        self.start = time.monotonic()
        self.shown = -1
        self.drawn = False

    def update(self, done: int, total: int) -> None:
        pct = 100 * done // total if total else 100
        elapsed = time.monotonic() - self.start
        left = elapsed * (total - done) / done if done else 0.0
        line = f"{self.label}: {done}/{total} games, {pct} %, {elapsed:.0f} s, about {left:.0f} s left"
        if self.tty:
            width = 30
            filled = width * done // total if total else width
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {line}\x1b[K")
            self.drawn = True
        elif pct // 10 > self.shown:
            self.shown = pct // 10
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
