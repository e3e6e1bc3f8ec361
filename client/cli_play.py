"""`netplay selfplay` and `netplay watch`: bots playing games on this machine, without the network."""

from __future__ import annotations

import random
import sys
import time

import click

import bots
import engines
from bots.selfplay import Tally, run_many
from client.cli_args import parse_bot_names, parse_options
from client.ending import from_result, line
from client.moves import label
from client.textview import board, chance_words
from engines.core import interrupts_step
from engines.referee import Referee
from replays.local import record_match

__all__ = ["play_out", "selfplay", "watch"]


@click.command()
@click.argument("game_id", metavar="GAME")
@click.option("-n", "--games", "count", default=100, show_default=True, type=click.IntRange(1, 10_000_000),
              help="number of games to play")
@click.option("--seed", default=0, show_default=True, type=int, help="seed of the first game (game i uses seed+i)")
@click.option("--bots", "bot_names", default="random,random", show_default=True,
              help="comma-separated bot names, one per seat (repeated if fewer): easy, medium (or smart), hard, random")
@click.option("--players", default=None, type=int, help="number of seats (default: the game's smallest count)")
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="game option, repeatable")
@click.option("--check/--no-check", default=False, show_default=True,
              help="check every seat's hidden-information state against the referee after every step")
@click.option("--record", "record_dir", default=None, type=click.Path(file_okay=False),
              help="play every game through the signed protocol and write its replay into this directory")
def selfplay(game_id: str, count: int, seed: int, bot_names: str, players: int | None,
             option_pairs: tuple[str, ...], check: bool, record_dir: str | None) -> None:
    """Let bots play GAME N times and print wins, draws, average length and speed."""
    game = engines.get(game_id)
    options = parse_options(option_pairs)
    players = players if players is not None else game.players[0]
    game.start(players, options)  # validates the count and options before anything runs
    names = parse_bot_names(bot_names)
    bots.make(game_id, names, players)  # validates the bot names

    show = count >= 20 and sys.stderr.isatty()
    with click.progressbar(length=count, label=f"{game_id}", file=sys.stderr) if show else _NoBar() as bar:
        if record_dir is None:
            tally = run_many(game, names, count, seed, players, options, progress=lambda i, n: bar.update(1),
                             check_views=check)
        else:
            tally = _recorded(game_id, names, count, seed, players, options, record_dir, lambda: bar.update(1))
            click.echo(f"{tally.games} replays written to {record_dir}")
    seats = ", ".join(f"seat {s} ({names[s % len(names)]}) {w}" for s, w in enumerate(tally.wins))
    rate = tally.actions / tally.seconds if tally.seconds else 0.0
    click.echo(f"{game_id}: {tally.games} games, wins: {seats}, draws {tally.draws}")
    click.echo(f"average length {tally.actions / tally.games:.1f} actions ({tally.steps / tally.games:.1f} steps "
               f"with chance), {rate:,.0f} actions/s")


def _recorded(game_id: str, names: list[str], count: int, seed: int, players: int, options: dict, folder: str,
              tick) -> Tally:
    """Self-play through the ledger (every frame signed, every replay written): slower, auditable."""
    tally = Tally(wins=[0] * players)
    start = time.perf_counter()
    for i in range(count):
        seated = bots.make(game_id, names, players)
        record = record_match(game_id, seated, seed=seed + i, players=players, options=options,
                              directory=folder)
        tally.games += 1
        tally.actions += record.actions
        tally.steps += len(record.frames)
        if record.result is not None and len(record.result.winners) == 1:
            tally.wins[record.result.winners[0]] += 1
        else:
            tally.draws += 1
        tick()
    tally.seconds = time.perf_counter() - start
    return tally


BOT_NAMES_HELP = "comma-separated bot names, one per seat: easy, medium (or smart), hard, random"


@click.command()
@click.argument("game_id", metavar="GAME")
@click.option("--seed", default=1, show_default=True, type=int, help="seed of the chance outcomes and the bots")
@click.option("--bots", "bot_names", default="medium,random", show_default=True, help=BOT_NAMES_HELP)
@click.option("--players", default=None, type=int, help="number of seats (default: the game's smallest count)")
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="game option, repeatable")
def watch(game_id: str, seed: int, bot_names: str, players: int | None, option_pairs: tuple[str, ...]) -> None:
    """Let bots play one game of GAME here and print it move by move with the result."""
    game = engines.get(game_id)
    options = parse_options(option_pairs)
    players = players if players is not None else game.players[0]
    game.start(players, options)
    names = parse_bot_names(bot_names)
    seated = bots.make(game_id, names, players)
    labels = [f"{names[s % len(names)]} bot" for s in range(players)]
    click.echo(f"{game.title}: " + ", ".join(f"seat {s} = {labels[s]}" for s in range(players)))
    referee = Referee(game, players, options, seed)
    click.echo(board(game.view(referee.state, None), labels, 1))
    actions = play_out(referee, seated, labels, seed)
    click.echo(board(game.view(referee.state, None), labels, 1))
    ending = from_result(game.result(referee.state), None, labels)
    click.echo(f"result: {line(ending)}; {actions} actions")


def play_out(referee: Referee, seated: list, labels: list[str], seed: int, max_steps: int = 100_000) -> int:
    """Bots play every seat of `referee`'s game to the end, each move printed in words; the number
    of actions played (`netplay watch`, and `netplay replay fork --watch` from a replay's position)."""
    game = referee.game
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(referee.players)]
    actions = 0
    for _ in range(max_steps):
        if game.result(referee.state) is not None:
            return actions
        waiting = referee.awaiting()
        if waiting.kind == "chance":
            referee.feed_chance()
            click.echo(f"  {chance_words(waiting.chance, referee.steps[-1].value)}")
            continue
        for seat in referee.awaited_seats():
            state = referee.state_of(seat)
            action = seated[seat].choose(game, state, seat, game.legal(state, seat), rngs[seat])
            before = referee.state
            for step in referee.submit(seat, action):
                click.echo(f"  {labels[step.seat]}: {label(game.describe(before, step.seat, step.value), step.value)}")
                before = game.play(before, step.seat, step.value)
                actions += 1
            if interrupts_step(action):
                break
    raise RuntimeError(f"{game.id}: no end after {max_steps} steps")


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n: int) -> None:
        pass
