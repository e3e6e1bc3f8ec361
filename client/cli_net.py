"""`netplay host`, `netplay join` and `netplay play`: networked games from the command line.

With `--bot NAME` a bot plays this peer's seat with no prompts at all (demo, tests, scripted
matches); otherwise the terminal UI (client/terminal.py) drives the seat while the session runs in
a background thread. A peer may hold several seats (`host --seats 0,1`, `join --seats 2`), each with
a bot (`--bot NAME` for all of them, `--bot SEAT=NAME` for one) or played by a person at this
terminal (hot seat: the terminal covers the screen with a "pass to ..." prompt between two of them).
Exit status: 0 the game ended normally, 1 failed (refused, connection lost,
interrupted), 3 ended by a timeout claim, 4 a dispute; every failure is one line on stderr.
Never imports pygame.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import re
import sys
import time
from typing import TYPE_CHECKING, TextIO

import click

import engines
from bots.decider import BotDecider
from netplay.session import DEFAULT_REVEAL_TIMEOUT, EXIT_FAILED, Outcome, QueueDecider, Session

if TYPE_CHECKING:   # (the terminal's modules are imported when a person plays here)
    from client.netcontroller import NetController
    from client.terminal import Lines

log = logging.getLogger("netplay.cli")

BOT_HELP = ("easy, medium or hard (every game has the three levels; smart is medium's other name), or random "
            "(`netplay games` lists each game's bots)")


def _setup(verbose: bool) -> None:
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdout.reconfigure(line_buffering=True)
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")


def _identity(name: str | None, bot: str | None):
    """The user's identity (NETPLAY_HOME); a bot without --name calls itself after its bot and key,
    so that two bots of one user never compete for one pinned name."""
    from netplay.identity import Identity, IdentityError, check_name
    try:
        ident = Identity.load()
    except IdentityError as exc:
        raise click.ClickException(str(exc)) from None
    if name is None and bot is not None:
        name = f"{bot}-bot-{ident.fingerprint[:9]}"
    if name is not None:
        try:
            ident = dataclasses.replace(ident, name=check_name(name))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--name") from None
    return ident


def _known_peers():
    from netplay.identity import KnownPeers
    return KnownPeers.default()


def _decider(bot: str | None, games: int, delay: float = 0.0) -> BotDecider | QueueDecider:
    return BotDecider(bot, games=games, delay_s=delay) if bot else QueueDecider()


def _bot_map(values: tuple[str, ...], keys: list[int], what: str) -> dict[int, str]:
    """`--bot KEY=NAME` (one of `keys`) and `--bot NAME` (every other one), repeatable."""
    bots: dict[int, str] = {}
    every: str | None = None
    for value in values:
        key, sep, name = value.partition("=")
        if not sep:
            every = value.strip()
            continue
        try:
            number = int(key)
        except ValueError:
            raise click.BadParameter(f"expected NAME or {what}=NAME, got {value!r}", param_hint="--bot") from None
        if number not in keys:
            held = ", ".join(str(k) for k in keys)
            raise click.BadParameter(f"{what} {number} is not one this peer holds ({held})", param_hint="--bot")
        if not name.strip():
            raise click.BadParameter(f"name the bot of {what} {number}", param_hint="--bot")
        bots[number] = name.strip()
    if every:
        bots.update({k: every for k in keys if k not in bots})
    return bots


def _parse_seats(text: str) -> list[int]:
    """`--seats 0,2` of a host: the seat numbers it holds, in that order, each once."""
    try:
        seats = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise click.BadParameter(f"expected seat numbers such as 0,1, got {text!r}", param_hint="--seats") from None
    if not seats or len(set(seats)) != len(seats) or min(seats) < 0:
        raise click.BadParameter(f"name each seat once, e.g. 0,1 (got {text!r})", param_hint="--seats")
    return seats


def _held(keys: list[int], bots: dict[int, str]) -> list[int]:
    """The seats (or positions) in order, the first one without a bot first: the peer's own seat is
    a person's whenever one plays here (the terminal's rematch prompt is that seat's vote)."""
    people = [k for k in keys if k not in bots]
    return [people[0], *(k for k in keys if k != people[0])] if people else list(keys)


def _session_options(replay_dir: str | None, reveal_timeout: float, fsync: bool, quiet: bool,
                     clock: str | None = None, move_limit: float | None = None, untimed: bool = False,
                     lateness: float | None = None, frame_time: float | None = None) -> dict:
    from client.cli_args import parse_clock
    from netplay.gameclock import GAME_CLOCK, UNTIMED
    from netplay.session import DEFAULT_FRAME_TIME, DEFAULT_LATENESS, DEFAULT_MOVE_LIMIT

    if untimed and (move_limit is not None or clock is not None):
        raise click.BadParameter("a game is either --untimed or has a --clock or a --move-limit, not both",
                                 param_hint="--untimed")
    if untimed:
        chosen = UNTIMED
    elif clock is None:
        chosen = GAME_CLOCK
    else:
        chosen = None if clock.strip().lower() == "none" else parse_clock(clock)
    return {"replay_dir": replay_dir, "reveal_timeout": reveal_timeout, "fsync": fsync, "clock": chosen,
            "move_limit": None if untimed else (move_limit if move_limit is not None else DEFAULT_MOVE_LIMIT),
            "lateness": DEFAULT_LATENESS if lateness is None else lateness,
            "frame_time": DEFAULT_FRAME_TIME if frame_time is None else frame_time,
            "on_line": None if quiet else (lambda line: click.echo(f"  {line}"))}


_CLOCK_HELP = ("every seat's move clock, SECONDS[+INCREMENT] (e.g. 600+5): a seat whose decisions use it up loses "
               "by a timeout claim; the increment is earned for a seat's first 500 decisions of a game; default: "
               "the game's own clock (e.g. Catan 2700+5, Madagaskar 1200+10; docs/security.md, \"Time\"); "
               "'none': no clock, only --move-limit per decision")


def _terms_options(func):
    """The terms a host proposes (every seat agrees to them in the header; a joiner takes the host's)."""
    options = [
        click.option("--clock", default=None, metavar="S[+I]", help=_CLOCK_HELP),
        click.option("--move-limit", default=None, type=click.FloatRange(1, 86400), metavar="SECONDS",
                     help="the longest one decision may take, within the clock (default 600: ten minutes); a seat "
                          "that takes longer can be claimed to have forfeited"),
        click.option("--untimed", is_flag=True,
                     help="no clock and no limit on a decision at all: a player who never moves holds the game "
                          "(say so to the others; the lobby and every joiner's offer show it)"),
        click.option("--lateness", default=None, type=click.FloatRange(0, 86400), metavar="SECONDS",
                     help="each seat's allowance per game for frames that need no decision and come later than "
                          "--frame-time (default 60)"),
        click.option("--frame-time", default=None, type=click.FloatRange(0.1, 86400), metavar="SECONDS",
                     help="how long a frame that needs no decision may take before it uses up lateness "
                          "(default 0.5)"),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _exit(outcome: Outcome | None) -> None:
    if outcome is None:
        click.echo("netplay: the session ended without an outcome", err=True)
        sys.exit(EXIT_FAILED)
    if outcome.code == 0:
        click.echo(outcome.message)
    else:
        click.echo(f"netplay: {outcome.message}", err=True)
    sys.exit(outcome.code)


def _common(func):
    """Options host, join and play share."""
    options = [
        click.option("--replay-dir", default=None, help="where the replay goes (default: the user's replays dir)"),
        click.option("--reveal-timeout", default=DEFAULT_REVEAL_TIMEOUT, show_default=True, type=click.FloatRange(
            1, 86400), help="host: seconds a peer may be away (its connection lost) before its awaited frame can be "
                            "claimed (part of the terms every seat agrees to); a joiner takes the host's terms"),
        click.option("--fsync/--no-fsync", default=True, show_default=True,
                     help="fsync the replay after every frame (off: flushed only, which survives kill -9 "
                          "but not a power cut)"),
        click.option("-v", "--verbose", is_flag=True, help="log the connection as it goes"),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _peer_options(func):
    options = [
        click.option("--bot", "bot_values", multiple=True, metavar="NAME|SEAT=NAME",
                     help="let bot NAME play this peer's seats (no prompts), or with SEAT=NAME one of them "
                          "(repeatable; seats without a bot are people at this terminal): " + BOT_HELP),
        click.option("--games", default=1, show_default=True, type=click.IntRange(1, 10_000),
                     help="with --bot: games to play in a row (the bot asks for rematches until then)"),
        click.option("--name", default=None, help="the name other players see (default: user@host)"),
        click.option("--bot-delay", default=0.0, show_default=True, type=click.FloatRange(0, 60),
                     help="with --bot: seconds the bot waits before each decision (to follow a game)"),
        click.option("-q", "--quiet", is_flag=True, help="with --bot: do not print the moves"),
    ]
    for option in reversed(options):
        func = option(func)
    return func


# ---------------------------------------------------------------------------------------------- host

def _check_port(ctx: click.Context, param: click.Parameter, port: int) -> int:
    """The encrypted port is P+1, so P = 65535 would fail only after the bootstrap port was bound."""
    if port > 65534:
        raise click.BadParameter(f"{port} leaves no room for the encrypted port, which is the next one (P+1): "
                                 "use at most 65534, or 0 for any free port")
    return port


@click.command()
@click.argument("game_id", metavar="GAME", required=False)
@click.option("--resume", is_flag=True, help="continue the game this host left (killed, crashed): same keys, same "
                                             "port, the transcript from its replay; the joiners come back by "
                                             "themselves")
@click.option("--seat", default=None, type=int, help="the host's seat (default 0)")
@click.option("--seats", "seats_text", default=None, metavar="S,S,...",
              help="the seats this host holds (e.g. 0,1): people at this terminal (hot seat) or bots (--bot)")
@click.option("--port", default=0, show_default=True, type=click.IntRange(0, 65535), callback=_check_port,
              help="bootstrap port P, at most 65534 (the encrypted port is P+1); 0: any free port")
@click.option("--bind", default="0.0.0.0", show_default=True, help="address to listen on")
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="game option, repeatable")
@click.option("--players", default=None, type=int, help="number of seats (default: the game's smallest count)")
@click.option("--no-advertise", is_flag=True, help="do not announce the game on the LAN (zeroconf)")
@click.option("--spectators", default=0, show_default=True, type=click.IntRange(0, 64),
              help="how many spectators may watch at once (`netplay watch HOST:PORT`); 0: none. Part of the terms "
                   "every player agrees to")
@click.option("--spectator-delay", default=8, show_default=True, type=click.IntRange(0, 1 << 20), metavar="FRAMES",
              help="with --spectators: a spectator sees each frame only once this many frames followed it (or the "
                   "game is over); part of the terms, and every spectator's copy proves it was kept")
@click.option("--spectator-chat", is_flag=True,
              help="with --spectators: the spectators are shown the players' chat, each line no sooner than the "
                   "frame it was said at (the same delay); part of the terms every player agrees to")
@_terms_options
@_peer_options
@_common
def host(game_id: str | None, resume: bool, seat: int | None, seats_text: str | None, port: int, bind: str,
         option_pairs: tuple[str, ...], players: int | None, no_advertise: bool, spectators: int,
         spectator_delay: int, spectator_chat: bool, clock: str | None,
         move_limit: float | None, untimed: bool, lateness: float | None, frame_time: float | None,
         bot_values: tuple[str, ...], games: int, name: str | None, bot_delay: float, quiet: bool,
         replay_dir: str | None, reveal_timeout: float, fsync: bool, verbose: bool) -> None:
    """Host a game of GAME and wait until every seat is taken (or, with --resume, continue the game this
    host left)."""
    import zmq

    from client.cli_args import parse_options
    from netplay.host import HostSession
    from netplay.transport import ListenFailed
    from replays.header import Spectating

    _setup(verbose)
    if spectator_chat and not spectators:
        raise click.UsageError("--spectator-chat lets spectators hear the chat: give --spectators N too")
    spectating = Spectating(spectators, spectator_delay, spectator_chat) if spectators else None
    if resume:
        _resume_host(bot_values, games, name, bot_delay, quiet, replay_dir, fsync, no_advertise, bind)
        return
    if game_id is None:
        raise click.UsageError("name the GAME to host (or give --resume to continue a game)")
    engines.get(game_id)
    if seats_text is not None and seat is not None:
        raise click.BadParameter("give the host's seats with --seats or its one seat with --seat, not both",
                                 param_hint="--seats")
    held = _parse_seats(seats_text) if seats_text is not None else [0 if seat is None else seat]
    bot_of = _bot_map(bot_values, held, "seat")
    held = _held(held, bot_of)
    seat = held[0]
    bot = bot_of.get(seat)
    ident = _identity(name, bot)
    decider = _decider(bot, games, bot_delay)
    also = {s: (f"{ident.name}-{k}", _decider(bot_of.get(s), games, bot_delay)) for k, s in enumerate(held[1:], 2)}
    people = [s for s in held if s not in bot_of]
    with contextlib.ExitStack() as stack:
        advert: list = []

        def free_seats(n: int) -> None:
            if advert:
                with contextlib.suppress(Exception):
                    advert[0].update(free_seats=n)

        def watch_places(n: int) -> None:   # the advert's `watch`: the lobby's "watch" and netplay watch read it
            if advert:
                with contextlib.suppress(Exception):
                    advert[0].update(watch=n)

        try:
            session = HostSession(ident, decider, game_id, players=players, options=parse_options(option_pairs),
                                  seat=seat, bind=bind, port=port, known_peers=_known_peers(), also=also,
                                  spectating=spectating, on_watch_places=watch_places,
                                  on_free_seats=free_seats, **_session_options(replay_dir, reveal_timeout, fsync,
                                                                                quiet or bool(people), clock,
                                                                                move_limit, untimed, lateness,
                                                                                frame_time))
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
        except ListenFailed as exc:     # names the port that failed: the bootstrap P or the encrypted P+1
            raise click.ClickException(str(exc)) from None
        except (OSError, zmq.ZMQError) as exc:
            raise click.ClickException(f"cannot listen on {bind}:{port}: {exc}") from None
        stack.callback(_close_quietly, session)
        game = session.game
        click.echo(f"hosting {game.title} ({game_id}) for {session.players} players; "
                   + _seats_words(session, bot_of))
        click.echo(f"host key fingerprint: {ident.fingerprint} ({ident.name})")
        click.echo(f"terms: {session.terms_text()}")
        for address in _shown_addresses(bind):
            click.echo(f"join with: netplay join {address}:{session.port}/{ident.fingerprint}")
        if spectating is not None:
            click.echo(f"spectators: {spectating.describe()}; watch with: netplay watch "
                       f"{_shown_addresses(bind)[0]}:{session.port}/{ident.fingerprint}")
        if not no_advertise and session.players > 1:
            advert.extend(_advertise(stack, session, bind, ident))
            free_seats(session.free_seats())
            watch_places(session.watch_places())
        if session.free_seats():
            click.echo(f"waiting for {session.free_seats()} more player(s)...")
        outcome = _drive(session, decider, None if people else "bots")
    _exit(outcome)


def _resume_host(bot_values: tuple[str, ...], games: int, name: str | None, bot_delay: float, quiet: bool,
                 replay_dir: str | None, fsync: bool, no_advertise: bool, bind: str) -> None:
    """`netplay host --resume`: the newest game this identity hosted and left, on the port it had."""
    from netplay import resume as saved_games
    from netplay.host import HostSession
    from netplay.transcript import ResumeError
    from netplay.transport import ListenFailed

    found = saved_games.saved(role="host")
    if not found:
        raise click.ClickException(f"nothing to resume: no game this host left is saved in "
                                   f"{saved_games.sessions_dir()}")
    saved = found[0]
    held = [saved.seat, *(int(s) for s, _, _ in saved.extra)]
    bot_of = _bot_map(bot_values, held, "seat")
    people = [s for s in held if s not in bot_of]
    bot = bot_of.get(saved.seat)
    ident = _identity(name, bot)
    decider = _decider(bot, games, bot_delay)
    also = {int(s): _decider(bot_of.get(int(s)), games, bot_delay) for s, _, _ in saved.extra}
    click.echo(f"resuming {saved.game} session {saved.session[:8]} as seat {saved.seat} on {saved.address}")
    with contextlib.ExitStack() as stack:
        try:
            session = HostSession.resumed(ident, decider, saved, also=also, known_peers=_known_peers(),
                                          replay_dir=replay_dir, fsync=fsync,
                                          on_line=None if quiet or people else (lambda line: click.echo(f"  {line}")))
        except (ResumeError, ListenFailed, OSError) as exc:
            raise click.ClickException(str(exc)) from None
        stack.callback(_close_quietly, session)
        click.echo(f"host key fingerprint: {ident.fingerprint} ({ident.name}); waiting for the others to come back")
        outcome = _drive(session, decider, None if people else "bots")
    _exit(outcome)


def _seats_words(session: Session, bot_of: dict[int, str]) -> str:
    """Who plays the seats this peer holds, e.g. "you are seat 0; seat 1 (ann-2): bot smart"."""
    seats = sorted(session.deciders) if session.deciders else [session.host_seat]
    names = {session.host_seat: session.identity.name, **{s: n for s, (n, _, _) in getattr(session, "also",
                                                                                             {}).items()}}
    if len(seats) == 1:
        bot = bot_of.get(seats[0])
        return f"you are seat {seats[0]}" + (f", played by bot {bot}" if bot else "")
    parts = [f"seat {s} ({names.get(s, '?')}): " + (f"bot {bot_of[s]}" if s in bot_of else "a person at this terminal")
             for s in seats]
    return "this peer holds " + "; ".join(parts)


def _shown_addresses(bind: str) -> list[str]:
    if bind not in ("0.0.0.0", "::", "*"):
        return [f"[{bind}]" if ":" in bind else bind]
    from netplay.discovery import local_addresses
    return local_addresses() or ["127.0.0.1"]


def _advertise(stack: contextlib.ExitStack, session, bind: str, ident) -> list:
    from netplay import discovery
    from netplay.session import version
    specific = bind not in ("0.0.0.0", "::", "*")
    try:
        ad = stack.enter_context(discovery.advertise(
            port=session.port, game=session.game.id, version=version(), fingerprint=ident.fingerprint,
            free_seats=session.free_seats(), host_name=ident.name, terms=session.terms_text(),
            addresses=[bind] if specific else None, interfaces=[bind] if specific else None))
    except Exception as exc:  # discovery is a convenience: joining by address still works
        click.echo(f"note: could not advertise on the LAN ({exc}); join by address instead", err=True)
        return []
    click.echo(f"advertised on the LAN as {ad.name!r}")
    return [ad]


def _close_quietly(session: Session) -> None:
    with contextlib.suppress(Exception):
        session.close()


# ---------------------------------------------------------------------------------------------- join

@click.command()
@click.argument("address", required=False, metavar="[HOST:PORT]")
@click.option("--resume", is_flag=True, help="continue the game this identity left (same keys, same session)")
@click.option("--game", "game_filter", default=None, help="without an address: only hosts of this game")
@click.option("--browse-seconds", default=3.0, show_default=True, type=click.FloatRange(0.5, 60),
              help="without an address: how long to look for hosts on the LAN")
@click.option("--connect-timeout", default=10.0, show_default=True, type=click.FloatRange(0.5, 600))
@click.option("--wait", "wait_s", default=600.0, show_default=True, type=click.FloatRange(1, 86400),
              metavar="SECONDS", help="the longest this joiner waits outside a game for the host: for the table to "
                                      "fill, and (at most the protocol's bounds) for the start and a rematch; then "
                                      "it leaves, blaming nobody (exit status 1 before any game, 0 after one)")
@click.option("--seats", "seat_count", default=1, show_default=True, type=click.IntRange(1, 8),
              help="how many seats this peer takes (named NAME, NAME-2, ...): people at this terminal or bots "
                   "(--bot NAME for all, --bot K=NAME for the K-th)")
@_peer_options
@_common
def join(address: str | None, resume: bool, game_filter: str | None, browse_seconds: float, connect_timeout: float,
         wait_s: float, seat_count: int, bot_values: tuple[str, ...], games: int, name: str | None, bot_delay: float,
         quiet: bool, replay_dir: str | None, reveal_timeout: float, fsync: bool, verbose: bool) -> None:
    """Join a hosted game at HOST:PORT (or pick one found on the LAN)."""
    from netplay import resume as saved_games
    from netplay.identity import KeyChanged
    from netplay.joiner import JoinSession
    from netplay.transcript import ResumeError
    from netplay.transport import ConnectFailed, Refused

    _setup(verbose)
    positions = list(range(1, seat_count + 1))
    bot_of = _bot_map(bot_values, positions, "seat number K of this peer, K")
    positions = _held(positions, bot_of)
    bot = bot_of.get(positions[0])
    people = [k for k in positions if k not in bot_of]
    ident = _identity(name, bot)
    saved = None
    if resume:
        found = saved_games.saved(address)
        if not found:
            where = f" with {address}" if address else ""
            raise click.ClickException(f"nothing to resume{where}: no game in progress is saved in "
                                       f"{saved_games.sessions_dir()}")
        saved = found[0]
        address = address or saved.address
        click.echo(f"resuming {saved.game} session {saved.session[:8]} as seat {saved.seat} with {address}")
    pins = _lan_pins(address, people)
    if address is None:
        address = _pick_host(browse_seconds, game_filter, pick_first=not people)
    decider = _decider(bot, games, bot_delay)
    also = [(f"{ident.name}-{k}", _decider(bot_of.get(position), games, bot_delay))
            for k, position in enumerate(positions[1:], 2)]
    try:
        session = JoinSession(ident, decider, address, saved=saved, known_peers=pins,
                              connect_timeout_s=connect_timeout, also=also, wait_s=wait_s,
                              **_session_options(replay_dir, reveal_timeout, fsync, quiet or bool(people)))
    except (ConnectFailed, Refused, KeyChanged, ResumeError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"connected to {session.transport.host_name} at {address}; host key fingerprint "
               f"{session.host_fingerprint}" + (f"; taking {seat_count} seats" if seat_count > 1 else ""))
    _exit(_drive(session, decider, None if people else "bots"))


def _pick_host(seconds: float, game: str | None, pick_first: bool, watching: bool = False) -> str:
    """A host found on the LAN: a bot's own pick (`pick_first`), or a person's from a numbered list.

    Anyone may advertise under any name, so every entry shows its key's fingerprint words, hosts whose
    names look alike (case, width, UTS #39 confusables: "aIice" for "alice") are marked (a person
    compares the words with that player aloud), a name that is or looks like a name pinned to another
    key is marked as such, and so is a name that mixes scripts. The list puts the hosts whose names are
    pinned to their keys first and the doubtful ones last. A bot never picks among look-alikes nor an
    impostor of a pinned name (it says why, and asks for HOST:PORT/FINGERPRINT), and what it picks by
    itself is joined without pinning (`_lan_pins`); a person's list has no default when its first entry
    is in doubt (`discovery.default_choice`). `watching`: the games under way that take spectators
    (`netplay watch` without an address), on the same terms."""
    from netplay import discovery
    from netplay.names import spelled
    click.echo(f"looking for hosts on the LAN for {seconds:g} s...")
    found = discovery.browse(seconds, game=game)
    hosts = [h for h in found if (h.watch > 0 and h.free_seats == 0 if watching else h.free_seats > 0)]
    if not hosts:
        raise click.ClickException("no game under way that takes spectators found on the LAN; give HOST:PORT"
                                   if watching else "no netplay host with a free seat found on the LAN; give HOST:PORT")
    known = _known_peers()
    standings = discovery.assess(hosts, known)
    hosts = [s.host for s in standings]
    if pick_first:
        chosen, passed = discovery.bot_choice(hosts, known)
        for why in passed:
            click.echo(f"note: not joining {why}", err=True)
        if chosen is None:
            raise click.ClickException("no host on the LAN a bot can tell from an impostor (see the notes); give "
                                       "HOST:PORT/FINGERPRINT as its player tells you")
        mixed = next(s.scripts for s in standings if s.host is chosen)
        if mixed:
            click.echo(f"note: the name {spelled(chosen.host_name)} mixes {' and '.join(mixed)} letters; "
                       "joining it all the same, as no other host is left and it looks like no pinned name", err=True)
    else:
        for i, h in enumerate(hosts, 1):
            click.echo(f"  {i}. {discovery.describe(h, hosts, known)}")
        number = click.prompt("watch which" if watching else "join which", type=click.IntRange(1, len(hosts)),
                              default=discovery.default_choice(standings))
        chosen = hosts[number - 1]
    click.echo(f"{'watching' if watching else 'joining'} {chosen.game} hosted by {chosen.host_name} (key "
               f"{chosen.fingerprint}, words: {chosen.words})")
    return chosen.address


def _lan_pins(address: str | None, people: list[int]):
    """The pins a join checks: all of them; and it writes a new one only when a person chose the host
    (typed its address, or picked it from the list), never for a host a bot picked on the LAN by itself."""
    known = _known_peers()
    return known if address is not None or people else known.checking_only()


# ---------------------------------------------------------------------------------------------- play

@click.command()
@click.argument("game_id", metavar="GAME")
@click.option("--vs", "bot", default="random", show_default=True, metavar="BOT",
              help="the bot that plays the other seat(s), each in its own process: " + BOT_HELP)
@click.option("--seat", default=0, show_default=True, type=int, help="your seat")
@click.option("--players", default=None, type=int, help="number of seats (default: the game's smallest count)")
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="game option, repeatable")
@_terms_options
@_common
def play(game_id: str, bot: str, seat: int, players: int | None, option_pairs: tuple[str, ...], clock: str | None,
         move_limit: float | None, untimed: bool, lateness: float | None, frame_time: float | None,
         replay_dir: str | None, reveal_timeout: float, fsync: bool, verbose: bool) -> None:
    """Play GAME in the terminal against a bot peer running in a second process on this machine,
    connected over loopback through the very same protocol."""
    from client.cli_args import parse_options
    from netplay.host import HostSession

    _setup(verbose)
    import bots
    bots.make(game_id, [bot], 1)       # an unknown bot fails here, before any process starts
    ident = _identity(None, None)
    decider = QueueDecider()
    # The bot peers are throw-away identities: pinning their names would only clutter known_peers.
    session = HostSession(ident, decider, game_id, players=players, options=parse_options(option_pairs), seat=seat,
                          bind="127.0.0.1", port=0, known_peers=None,
                          **_session_options(replay_dir, reveal_timeout, fsync, True, clock, move_limit, untimed,
                                             lateness, frame_time))
    from netplay.botpeers import bot_peers

    with bot_peers(session, bot, lambda text: click.echo(f"note: {text}", err=True)) as peers:
        click.echo(f"{session.game.title}: you are seat {seat}; bot {bot} plays the other seat(s) "
                   f"(in process {', '.join(str(p.pid) for p in peers)})")
        outcome = _human(session, decider)
    _exit(outcome)


# ---------------------------------------------------------------------------------------------- driving

def _say_status(status: str, shown: tuple[str, float] | None, out) -> tuple[str, float]:
    """Print the waiting status when it changes; a countdown in it (netplay/protocol/waits.py) is printed
    again every 10 s, not every second. Ctrl-C leaves at any moment. Returns what was last printed, and when."""
    now = time.monotonic()
    words = re.sub(r"\d+ s left", "", status)
    if shown is not None and words == re.sub(r"\d+ s left", "", shown[0]) and (
            status == shown[0] or now - shown[1] < 10.0):
        return shown
    leave = " Ctrl-C leaves" if "s left" in status else ""
    print(f"[{status}]{leave}", file=out, flush=True)
    return status, now


def _drive(session: Session, decider, bot: str | None) -> Outcome:
    if bot:
        try:
            return session.run()
        except KeyboardInterrupt:
            session.finish(EXIT_FAILED, "interrupted")
            return session.outcome
    return _human(session, decider)


def _rematch_answer(ctl: NetController, lines: Lines, out: TextIO) -> str | None:
    """Ask for a rematch with the time the offer stays open ("rematch? [y/N] (rematch offer open: 1:45
    left)") and wait for the answer, lower-cased; None when the session ended meanwhile, after saying why
    in a line of its own ("the rematch offer expired after 120 s"): a prompt that the
    offer outlived must not sit there as if an answer still counted."""
    from client.ending import left_words, rematch_words
    from client.terminal import ENTER

    state = ctl.rematch_state()
    left = f" ({left_words(state.left_s)})" if state.open and state.left_s is not None else ""
    print(f"rematch? [y/N]{left} ", end="", file=out, flush=True)
    while ctl.session.outcome is None:
        line = lines.get(0.2)
        if line != "":
            return "" if line is None or line == ENTER else line.strip().lower()
    print("", file=out)
    print(rematch_words(ctl.rematch_state())[0], file=out, flush=True)
    return None


def _human(session: Session, decider: QueueDecider) -> Outcome:
    """The terminal UI over a session running in a background thread, with rematch prompts. One line
    reader serves the table and the rematch prompt, so a piped script is read in order. Every seat
    this peer holds without a bot is a person at this terminal (the table hands over between them)."""
    from client import terminal
    from client.controller import obliged_to_rematch
    from client.ending import line
    from client.netcontroller import NetController

    out = sys.stdout
    lines = terminal.Lines(sys.stdin)
    ctl = NetController(session, decider)
    left = False
    try:
        while True:
            shown = None
            while not ctl.wait(lambda: ctl.started and session.phase == "play", 0.5):
                if session.outcome is not None:
                    break
                shown = _say_status(ctl.status(), shown, out)
            if session.outcome is not None and not ctl.started:
                break
            left = terminal.play(ctl, lines, out)
            if session.outcome is not None:
                break
            if session.phase != "over":
                ctl.leave("the player left the table")
                break
            if obliged_to_rematch(ctl.view(), ctl.seat):
                print("the rules oblige the winner to accept a rematch the loser asks for: accepted",
                      file=out, flush=True)
                answer = "y"
            else:
                asked = _rematch_answer(ctl, lines, out)
                if asked is None:
                    break
                answer = asked
            ctl.rematch(answer.startswith("y"))
            if not answer.startswith("y"):
                break
            print("waiting for the others to agree...", file=out, flush=True)
            ctl.wait(lambda: session.phase == "play" or session.outcome is not None, 24 * 3600)
    except KeyboardInterrupt:
        ctl.leave("interrupted")
    ctl.join(15)
    if session.outcome is None:
        with session.lock:
            session.finish(EXIT_FAILED, "the session did not end in time")
    if left and session.outcome.code == EXIT_FAILED and session.outcome.message == "the player left the table":
        # leaving is the player's own choice, not a failure: say so and end with status 0
        return Outcome(0, "you left the table; the game stays unfinished (its replay is kept)")
    ending = ctl.ending()
    if session.outcome.code == 0 and session.games_done <= 1 and ending is not None and ctl.replay_path:
        return Outcome(0, f"{line(ending)}; replay {ctl.replay_path}")
    return session.outcome
