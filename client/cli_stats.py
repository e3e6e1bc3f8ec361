"""`netplay stats [DIR]`: the lobby's statistics page in the terminal (client/stats.py). No pygame."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from netplay.paths import replays_dir


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("directory", metavar="[DIR]", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="print the figures as JSON")
def stats(directory: Path | None, as_json: bool) -> None:
    """Per-player statistics of the replays in DIR (default: $NETPLAY_HOME/replays or the user data dir):
    games, wins, losses, draws and unfinished games per game, and each player's dice in Catan and Cities &
    Knights against fair dice. Only files whose signatures and moves verify count (the check of `netplay
    replay verify`); the others are listed as not counted. Players are told apart by their keys: a name two
    keys share is shown with each key's fingerprint. Verified files are remembered in the data directory
    (stats-cache.json), so a second run is quick."""
    from client.stats import ReplayStats, default_cache

    folder = directory or replays_dir()
    if not folder.is_dir():
        click.echo(f"no replays directory at {folder}", err=True)
        sys.exit(2)
    key = None
    try:
        from netplay.identity import Identity
        from netplay.paths import keys_dir

        if keys_dir().is_dir():   # reading this user's key, never making one
            key = Identity.load(create=False).public_key    # "(you)" beside this user's own identity
    except Exception:  # noqa: BLE001  (no identity yet: nobody is "you")
        key = None
    work = ReplayStats(folder, key, default_cache(), background=True)
    done, total = work.progress()
    if total > 1 and not as_json:
        with click.progressbar(length=total, label="verifying", file=sys.stderr) as bar:
            while work.running():
                work.wait(0.2)
                now, _ = work.progress()
                bar.update(now - done)
                done = now
    work.wait(None)
    figures = work.stats()
    if as_json:
        click.echo(json.dumps({
            "directory": str(folder), "files": figures.files, "games": figures.games, "copies": figures.copies,
            "not_counted": [{"file": name, "why": why} for name, why in figures.not_counted],
            "players": [{"name": p.name, "label": p.label, "fingerprint": p.fingerprint, "key": p.key, "you": p.me,
                         "games": p.games, "wins": p.wins, "win_rate": p.win_rate,
                         "by_game": {gid: {"games": t.games, "wins": t.wins, "losses": t.losses, "draws": t.draws,
                                           "unfinished": t.unfinished, "forfeits": t.forfeits}
                                     for gid, t in sorted(p.by_game.items())},
                         "dice": {"rolls": p.rolls, "sums": dict(zip(range(2, 13), p.sums, strict=True)),
                                  "mean": p.mean, "line": p.dice_line()}}
                        for p in figures.players]}, indent=2))
        return
    click.echo(f"{folder}:")
    for line in figures.lines():
        click.echo(line)
