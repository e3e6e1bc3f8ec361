"""Parsing of the command line's own value forms (`WxH`, `k=v`, bot name lists), shared by every
command module; a malformed value is a one-line error naming the option."""

from __future__ import annotations

import click

__all__ = ["no_sound_option", "parse_bot_names", "parse_clock", "parse_options", "parse_size"]

#: `--no-sound` on every command that opens a window: one flag, one help text
no_sound_option = click.option(
    "--no-sound", is_flag=True,
    help="no sounds in this window (dice, your turn, offers, attacks, the clock, the end); the lobby's "
         "sound button turns them off for good")


def parse_size(size: str) -> tuple[int, int]:
    """`WxH` from the command line."""
    try:
        width, height = (int(x) for x in size.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"expected WxH, got {size!r}", param_hint="--size") from None
    if width < 320 or height < 240:
        raise click.BadParameter(f"{size} is too small (at least 320x240)", param_hint="--size")
    return width, height


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    """`k=v` pairs from the command line."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected key=value, got {pair!r}", param_hint="--option")
        options[key.strip()] = value.strip()
    return options


def parse_bot_names(text: str) -> list[str]:
    """`smart,random` from the command line: the bot names, one per seat (repeated if fewer)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise click.BadParameter("name at least one bot", param_hint="--bots")
    return names


def parse_clock(text: str) -> tuple[float, float]:
    """`SECONDS[+INCREMENT]` from the command line (`600+5`: ten minutes, five seconds more per move)."""
    base, _, increment = text.partition("+")
    try:
        clock = (float(base), float(increment or 0))
    except ValueError:
        raise click.BadParameter(f"expected SECONDS[+INCREMENT], e.g. 600+5, got {text!r}",
                                 param_hint="--clock") from None
    if not 1 <= clock[0] <= 86400 or not 0 <= clock[1] <= 86400:
        raise click.BadParameter("a clock is 1 s to 24 h, plus 0 s to 24 h per move", param_hint="--clock")
    return clock
