"""`netplay watch`: watch a game. `netplay watch HOST:PORT` watches a live LAN game as a spectator (the host must
allow spectators: `netplay host --spectators N`); `netplay watch GAME` lets bots play one game here
(client/cli_play.py). An address has a colon, a game id never does: that is how the two are told apart.

As a spectator it prints one line per frame as it arrives (the host's delay behind the players), checks every
frame with the audit's own ledger as it goes, and keeps a copy that `netplay replay verify` audits.
Exit status: 0 the game was watched to its end (the copy is the complete game), 1 refused (no spectators
allowed, the spectators' places taken, a wrong address), the host left or was gone, or the copy stopped before
the end; 4 the host broke the rules or released a frame before its delay (the copy proves it).
"""

from __future__ import annotations

import click

from client.cli_play import BOT_NAMES_HELP
from client.cli_play import watch as watch_locally


@click.command()
@click.argument("target", metavar="[HOST:PORT|GAME]", required=False)
@click.option("--out", default=None, metavar="FILE",
              help="spectator: where the copy goes (default: a .spectator.npr file in the user's replays dir); an "
                   "existing copy of this game is continued from the frames it holds (leave, then come back)")
@click.option("--replay-dir", default=None, help="spectator: the folder of the copy when --out is not given")
@click.option("--name", default=None, help="spectator: the name the host sees (default: user@host)")
@click.option("--connect-timeout", default=10.0, show_default=True, type=click.FloatRange(0.5, 600))
@click.option("--browse-seconds", default=3.0, show_default=True, type=click.FloatRange(0.5, 60),
              help="without a target: how long to look on the LAN for games under way that take spectators")
@click.option("--fsync/--no-fsync", default=True, show_default=True, help="spectator: fsync the copy after every frame")
@click.option("-v", "--verbose", is_flag=True, help="spectator: log the connection as it goes")
@click.option("--seed", default=1, show_default=True, type=int, help="GAME: seed of the chance outcomes and the bots")
@click.option("--bots", "bot_names", default="medium,random", show_default=True, help="GAME: " + BOT_NAMES_HELP)
@click.option("--players", default=None, type=int, help="GAME: number of seats (default: the game's smallest count)")
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="GAME: game option, repeatable")
def watch(target: str | None, out: str | None, replay_dir: str | None, name: str | None, connect_timeout: float,
          browse_seconds: float, fsync: bool, verbose: bool, seed: int, bot_names: str, players: int | None,
          option_pairs: tuple[str, ...]) -> None:
    """Watch a live game at HOST:PORT as a spectator (its signed frames, checked as they come, and a copy that
    `netplay replay verify` audits), or let bots play one game of GAME here and print it move by move. Without a
    target: the games under way on the LAN that take spectators, to pick from (as `netplay join` lists hosts)."""
    if target is None:
        from client.cli_net import _pick_host

        target = _pick_host(browse_seconds, None, pick_first=False, watching=True)
    elif ":" not in target:
        watch_locally.callback(target, seed, bot_names, players, option_pairs)
        return
    spectate(target, out, replay_dir, name, connect_timeout, fsync, verbose)


def spectate(address: str, out: str | None, replay_dir: str | None, name: str | None, connect_timeout: float,
             fsync: bool, verbose: bool) -> None:
    import sys

    from client.cli_net import _identity, _known_peers, _setup
    from netplay.identity import KeyChanged
    from netplay.transport import ConnectFailed, Refused
    from netplay.watcher import WatchSession

    _setup(verbose)
    ident = _identity(name, None)
    try:
        session = WatchSession(ident, address, out=out, replay_dir=replay_dir, known_peers=_known_peers(),
                               connect_timeout_s=connect_timeout, fsync=fsync)
    except Refused as exc:
        raise click.ClickException(f"the host refused to be watched: {exc}") from None
    except (ConnectFailed, KeyChanged, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"watching the game at {address} (host key fingerprint {session.transport.host_fingerprint}); "
               "Ctrl-C stops")
    try:
        outcome = session.run(on_line=click.echo)
    except KeyboardInterrupt:
        session.close()
        click.echo(f"netplay: stopped; the copy so far is {session.path}", err=True)
        sys.exit(1)
    where = f"the copy is {session.path}" if session.path is not None else "no copy was written"
    if outcome.code == 0:
        click.echo(f"{outcome.message}; {where} (check it with: netplay replay verify {session.path})")
    else:
        click.echo(f"netplay: {outcome.message}; {where}", err=True)
    sys.exit(outcome.code)
