"""The `netplay` command. This is the composition root: it wires engines, bots, sessions and replays
together, and nothing below it imports it. Commands that draw nothing never import pygame."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

import engines

if TYPE_CHECKING:
    from bots.selfplay import Tally


class _Group(click.Group):
    """Turns the expected failures (unknown game, bad option or player count) into one-line errors."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (engines.UnknownGame, ValueError) as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=_Group, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="netplay")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Peer-to-peer LAN play of board games, with signed, auditable replays.

    With no command, the Pygame lobby opens (where a display exists)."""
    if ctx.invoked_subcommand is None:
        if not _has_display():
            click.echo(ctx.get_help())
            click.echo("\n(no display found, so the lobby cannot open; the commands above work without one)")
            return
        ctx.invoke(lobby)


def _has_display() -> bool:
    import os

    # a dummy or offscreen video driver (tests, CI) shows nothing: a lobby there would wait unseen
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                or (driver and driver not in ("dummy", "offscreen")))


def parse_size(size: str) -> tuple[int, int]:
    """`WxH` from the command line; a malformed size is a one-line error."""
    try:
        width, height = (int(x) for x in size.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"expected WxH, got {size!r}", param_hint="--size") from None
    return width, height


@main.command()
@click.option("--size", default="1280x720", show_default=True, help="window size, WxH")
@click.option("--replay-dir", default=None, help="replays directory (default: the user's replays dir)")
@click.option("--no-browse", is_flag=True, help="do not look for games on the LAN")
def lobby(size: str, replay_dir: str | None, no_browse: bool) -> None:
    """Open the Pygame lobby: LAN games, hosting, local games against bots, replays."""
    width, height = parse_size(size)
    from client.app import App
    from client.scenes.lobby import LobbyScene

    app = App((width, height))
    scene = LobbyScene(replay_dir, browse=not no_browse)
    app.push(scene)
    try:
        app.run()
    finally:
        scene.close()


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    """`k=v` pairs from the command line; a malformed pair is a one-line error."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected key=value, got {pair!r}", param_hint="--option")
        options[key.strip()] = value.strip()
    return options


@main.command()
def games() -> None:
    """List the games: id, title, player counts and options."""
    for game in engines.GAMES.values():
        counts = "/".join(str(p) for p in game.players)
        click.echo(f"{game.id:18} {game.title:28} players {counts}")
        for key, opt in sorted(game.options.items()):
            choices = "|".join(str(c) for c in opt.choices)
            click.echo(f"{'':18}   option {key}={choices} (default {opt.default}){'  ' + opt.help if opt.help else ''}")


@main.command()
@click.argument("game_id", metavar="GAME")
@click.option("-n", "--games", "count", default=100, show_default=True, type=click.IntRange(1, 10_000_000),
              help="number of games to play")
@click.option("--seed", default=0, show_default=True, type=int, help="seed of the first game (game i uses seed+i)")
@click.option("--bots", "bot_names", default="random,random", show_default=True,
              help="comma-separated bot names, one per seat (repeated if fewer)")
@click.option("--players", default=None, type=int, help="number of seats (default: the game's smallest count)")
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="game option, repeatable")
@click.option("--check/--no-check", default=False, show_default=True,
              help="check every seat's hidden-information state against the referee after every step")
@click.option("--record", "record_dir", default=None, type=click.Path(file_okay=False),
              help="play every game through the signed protocol and write its replay into this directory")
def selfplay(game_id: str, count: int, seed: int, bot_names: str, players: int | None,
             option_pairs: tuple[str, ...], check: bool, record_dir: str | None) -> None:
    """Let bots play GAME N times and print wins, draws, average length and speed."""
    from bots.selfplay import make_bots, run_many

    game = engines.get(game_id)
    options = parse_options(option_pairs)
    players = players if players is not None else game.players[0]
    game.start(players, options)  # validates the count and options before anything runs
    names = [n.strip() for n in bot_names.split(",") if n.strip()]
    make_bots(game_id, names, players)  # validates the bot names

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
    import time

    from bots.selfplay import Tally
    from replays.local import record_match

    tally = Tally(wins=[0] * players)
    start = time.perf_counter()
    for i in range(count):
        record = record_match(game_id, bot_names=names, seed=seed + i, players=players, options=options,
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


@main.command()
@click.argument("game_id", metavar="GAME")
@click.option("--seed", default=1, show_default=True, type=int, help="seed of the chance outcomes and the bots")
@click.option("--bots", "bot_names", default="smart,random", show_default=True,
              help="comma-separated bot names, one per seat")
@click.option("--players", default=None, type=int, help="number of seats (default: the game's smallest count)")
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="game option, repeatable")
def watch(game_id: str, seed: int, bot_names: str, players: int | None, option_pairs: tuple[str, ...]) -> None:
    """Let bots play one game of GAME here and print it move by move with the result."""
    from bots.selfplay import make_bots, play_match

    game = engines.get(game_id)
    options = parse_options(option_pairs)
    players = players if players is not None else game.players[0]
    game.start(players, options)
    names = [n.strip() for n in bot_names.split(",") if n.strip()]
    bots = make_bots(game_id, names, players)
    click.echo(f"{game.title}: " + ", ".join(f"seat {s} = {names[s % len(names)]} bot" for s in range(players)))

    def show(state, step) -> None:
        if step.kind == "chance":
            click.echo(f"  chance: {step.value}")
        else:
            click.echo(f"  seat {step.seat}: {step.value}")

    record = play_match(game, bots, seed, players, options, on_step=show)
    result = record.result
    click.echo(f"result: {result.describe()}; {record.actions} actions")


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n: int) -> None:
        pass


# Further command groups register themselves here (one line each):
main.add_command(__import__("client.cli_replay", fromlist=["replay"]).replay)
__import__("client.cli_net", fromlist=["register"]).register(main)  # host, join, play


if __name__ == "__main__":
    main()
