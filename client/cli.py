"""The `netplay` command. This is the composition root: it wires engines, bots, sessions and replays
together, and nothing below it imports it. Commands that draw nothing never import pygame."""

from __future__ import annotations

import re
from importlib import import_module

import click

import engines
from client.cli_args import no_sound_option, parse_size

# command name -> the module that defines it (imported only when that command runs, so that a
# command starts without loading what it does not need: pygame, ZeroMQ, the audit)
_COMMANDS = {
    "host": "client.cli_net",
    "join": "client.cli_net",
    "ladder": "client.cli_ladder",
    "play": "client.cli_net",
    "replay": "client.cli_replay",
    "selfplay": "client.cli_play",
    "stats": "client.cli_stats",
    "watch": "client.cli_watch",
}


class _Group(click.Group):
    """The `netplay` group: loads the modules of the other commands on demand, and turns the expected
    failures (unknown game, bad option or player count) into one-line errors."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is None and name in _COMMANDS:
            command = getattr(import_module(_COMMANDS[name]), name)
        return command

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


@main.command()
@click.option("--size", default="1280x720", show_default=True, help="window size, WxH")
@click.option("--replay-dir", default=None, help="replays directory (default: the user's replays dir)")
@click.option("--no-browse", is_flag=True, help="do not look for games on the LAN")
@no_sound_option
def lobby(size: str, replay_dir: str | None, no_browse: bool, no_sound: bool) -> None:
    """Open the Pygame lobby: LAN games, hosting, local games against bots, replays."""
    width, height = parse_size(size)
    from client.app import App
    from client.scenes.lobby import LobbyScene
    from client.settings import Preferences

    app = App((width, height), sound=not no_sound and Preferences.load().sound)
    scene = LobbyScene(replay_dir, browse=not no_browse)
    app.push(scene)
    try:
        app.run()
    finally:
        scene.close()


@main.command()
def games() -> None:
    """List the games: id, title, player counts, options and bots."""
    import bots

    for game in engines.GAMES.values():
        counts = " or ".join(str(p) for p in game.players)
        plural = "player" if game.players == (1,) else "players"
        names = ", ".join(sorted(bots.for_game(game.id)))
        click.echo(f"{game.id:18} {game.title:24} {counts + ' ' + plural:16} bots: {names}")
        for key, opt in sorted(game.options.items()):
            choices = " or ".join(_option_value(c) for c in opt.choices)
            about = _DECISION.sub("", opt.help).strip()
            click.echo(f"{'':18}   --option {key}={choices} (default {_option_value(opt.default)})"
                       + (f": {about}" if about else ""))


# a rule-decision reference such as "(D13)" at the end of an option's help: for docs/, not for players
_DECISION = re.compile(r"\s*\(D\d+\)")


def _option_value(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


if __name__ == "__main__":
    main()
