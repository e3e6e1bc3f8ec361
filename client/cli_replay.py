"""`netplay replay ...`: verify, show, step through and export signed replays. Never imports pygame."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from client.cli_args import no_sound_option
from client.ending import line as ending_line
from client.names import seat_names
from client.replaytext import move_text, replay_ending
from client.textview import board, render
from netplay.paths import replays_dir
from replays import codec
from replays.audit import Verdict, relay_lines
from replays.reader import Replay, read_replay
from replays.safetext import shown
from replays.stepping import Stepper
from replays.writer import SUFFIX

_DIR_HELP = "replays directory (default: $NETPLAY_HOME/replays or the user data dir)"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def replay() -> None:
    """Verify, show, step through and export signed replays."""


def _replay_dir(option: str | None) -> Path:
    return Path(option) if option else replays_dir()


def _resolve(file: str, replay_dir: str | None) -> Path:
    """FILE as given, else looked up in the replays directory."""
    path = Path(file)
    if path.exists() or path.is_absolute():
        return path
    candidate = _replay_dir(replay_dir) / file
    return candidate if candidate.exists() else path


def _load(file: str, replay_dir: str | None) -> Replay:
    path = _resolve(file, replay_dir)
    try:
        return read_replay(path)
    except codec.FormatError as exc:
        _fail(f"{shown(path)}: unreadable: {shown(exc.reason)}")
    except OSError as exc:
        _fail(f"{shown(path)}: cannot read the file: {shown(exc.strerror or exc)}")
    raise AssertionError  # not reached


def _fail(message: str, code: int = 2) -> None:
    click.echo(message, err=True)
    sys.exit(code)


def _stepper(file: str, replay_dir: str | None) -> Stepper:
    data = _load(file, replay_dir)
    try:
        return Stepper(data)
    except ValueError as exc:
        _fail(f"{shown(file)}: {shown(exc)}")
    raise AssertionError


@replay.command()
@click.argument("files", nargs=-1, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help="print the verdicts as JSON")
@click.option("--replay-dir", default=None, help=_DIR_HELP + "; with no FILE, every replay in it is verified")
def verify(files: tuple[str, ...], as_json: bool, replay_dir: str | None) -> None:
    """Re-check replays: signatures, hash chain, seats, commitments, chance values, the legality of every
    action, digests and the result. Exit status: 0 all valid, 1 some invalid or unfinished, 2 some unreadable."""
    paths = [_resolve(f, replay_dir) for f in files]
    if not files:
        folder = _replay_dir(replay_dir)
        paths = sorted(folder.glob("*" + SUFFIX)) if folder.is_dir() else []
        if not paths:
            _fail(f"no replays given and none in {folder}")
    from replays.forks import verify_files

    verdicts: list[Verdict] = []
    if len(paths) > 1:
        with click.progressbar(length=len(paths), label="verifying", file=sys.stderr) as bar:
            verdicts, forks = verify_files(paths, tick=lambda: bar.update(1))
    else:
        verdicts, forks = verify_files(paths)
    for fork in forks:   # what comparing the seats' copies of one game found, on each copy involved
        for v in verdicts:
            if v.path in fork.paths:
                v.forks.append(fork.as_dict())
    if as_json:
        click.echo(json.dumps([v.as_dict() for v in verdicts], indent=2))
    else:
        for v in verdicts:
            click.echo("\n".join(v.lines()))
        for fork in forks:
            named = f" (seat {fork.blame} is to blame)" if fork.blame is not None else ""
            click.echo(f"FORK in session {fork.session} at frame {fork.frame}: {shown(fork.reason)}{named}")
        if len(verdicts) > 1:
            counts: dict[str, int] = {}
            for v in verdicts:
                counts[v.status] = counts.get(v.status, 0) + 1
            click.echo(", ".join(f"{n} {status}" for status, n in sorted(counts.items())))
    sys.exit(max([v.exit_code for v in verdicts] + [1 if forks else 0]))


def _mode(stepper: Stepper, seat: int | None, revealed: bool) -> None:
    if seat is not None and revealed:
        raise click.UsageError("--seat and --revealed exclude each other")
    if seat is not None:
        if not 0 <= seat < stepper.header.players:
            raise click.BadParameter(f"this game has seats 0..{stepper.header.players - 1}", param_hint="--seat")
        stepper.set_mode(f"seat {seat}")
    elif revealed:
        if not stepper.revealed_known:
            click.echo("note: the seats' secrets were never revealed; showing public knowledge", err=True)
            stepper.set_mode("spectator")
        else:
            stepper.set_mode("revealed")


@replay.command()
@click.argument("file", metavar="FILE")
@click.option("--frame", type=int, default=None,
              help="the position after frame N (0: the start; default: the end); frames are numbered from 1")
@click.option("--move", "move", type=int, default=None, help="the position after the game's M-th move")
@click.option("--turn", type=int, default=None, hidden=True, help="the start of the T-th run of one seat's moves")
@click.option("--seat", type=int, default=None, help="as seat S saw it (its own secrets only)")
@click.option("--revealed", is_flag=True, help="with every secret revealed (the default when known)")
@click.option("--full", is_flag=True, help="print the whole state, not only the compact board")
@click.option("--frames", "protocol", is_flag=True, help="list the protocol frames instead of the moves")
@click.option("--json", "as_json", is_flag=True, help="print position, view and log as JSON")
@click.option("--log-lines", type=int, default=20, show_default=True, help="how many log lines to print (0: all)")
@click.option("--replay-dir", default=None, help=_DIR_HELP)
def show(file: str, frame: int | None, move: int | None, turn: int | None, seat: int | None, revealed: bool,
         full: bool, protocol: bool, as_json: bool, log_lines: int, replay_dir: str | None) -> None:
    """Print the position at a frame or move of a replay: the board and the moves up to there."""
    if sum(x is not None for x in (frame, move, turn)) > 1:
        raise click.UsageError("--frame, --move and --turn exclude each other")
    stepper = _stepper(file, replay_dir)
    _mode(stepper, seat, revealed)
    if turn is not None:
        try:
            target = stepper.frame_of_turn(turn)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--turn") from None
    elif move is not None:
        moves = stepper.moves()
        if not 0 <= move <= len(moves):
            raise click.BadParameter(f"the replay has moves 0..{len(moves)}", param_hint="--move")
        target = moves[move - 1].position if move else -1
    elif frame is not None:
        if not 0 <= frame <= stepper.count:
            raise click.BadParameter(f"the replay has frames 1..{stepper.count} (0: the start)", param_hint="--frame")
        target = frame - 1
    else:
        target = stepper.count - 1
    position = stepper.seek(target)
    log = stepper.log(position.frame) if protocol else _move_lines(stepper)
    if as_json:
        click.echo(json.dumps({"file": file, "frame": stepper.number(), "frames": stepper.count,
                               "move": stepper.moves_done(), "moves": len(stepper.moves()),
                               "turn": stepper.turn_index(position.frame), "view_of": position.mode,
                               "verdict": stepper.verdict.status, "view": stepper.view(), "log": log},
                              indent=2, default=str))
        return
    _print_position(stepper, full)
    for line in relay_lines(stepper.replay.links or ()):    # what the copy's `links` record says the relay could do
        click.echo(f"  note: {line}")
    printed = log if log_lines <= 0 else log[-log_lines:]
    what = "frames" if protocol else "moves"
    click.echo(f"{what}:" + ("" if len(printed) == len(log) else f" (last {len(printed)} of {len(log)})"))
    for line in printed:
        click.echo("  " + line)


def _move_lines(stepper: Stepper) -> list[str]:
    """The moves up to the current position, numbered, in the game's words with the players' names."""
    names = seat_names(stepper.header.seats)
    done = stepper.moves_done()
    return [f"{i}. {move_text(m, names)}" for i, m in enumerate(stepper.moves()[:done], 1)]


def _print_position(stepper: Stepper, full: bool = False) -> None:
    header = stepper.header
    done, total = stepper.moves_done(), len(stepper.moves())
    click.echo(f"{header.game}: frame {stepper.number()} of {stepper.count}, move {done} of {total}, "
               f"view: {stepper.mode}, verdict: {stepper.verdict.status}")
    moves = stepper.moves()
    if done:
        click.echo(f"  last move: {move_text(moves[done - 1], seat_names(stepper.header.seats))}")
    view = stepper.merged_view()
    click.echo(render(stepper.view(), 1) if full else board(view, seat_names(stepper.header.seats), 1))
    if stepper.position == stepper.count - 1:
        ending = replay_ending(stepper)
        if ending is not None:
            click.echo(f"  the end: {ending_line(ending)}")


_STEP_HELP = """commands: m/M next/previous move, n/p next/previous frame, t/T next/previous turn,
r/R next/previous round, f/l first/last, g N jump to frame N (0: the start), j next roll/reveal/dispute,
s switch view (seat/revealed), v show the position again, full: the whole state, h help, q quit"""

_MOVES = {"n": "next", "p": "prev", "t": "next-turn", "T": "prev-turn", "r": "next-round", "R": "prev-round",
          "f": "first", "l": "last", "j": "next-mark", "m": "next-move", "M": "prev-move"}


@replay.command()
@click.argument("file", metavar="FILE")
@click.option("--seat", type=int, default=None, help="start in seat S's view")
@click.option("--replay-dir", default=None, help=_DIR_HELP)
def step(file: str, seat: int | None, replay_dir: str | None) -> None:
    """Step through a replay in the terminal, one key (or one line, when stdin is not a terminal) per command.

    m/M move, n/p frame, t/T turn, r/R round, f/l first/last, g N jump, j next roll/reveal/dispute, s switch view,
    q quit."""
    stepper = _stepper(file, replay_dir)
    _mode(stepper, seat, False)
    stepper.seek(-1)
    click.echo(f"{stepper.header.game}, {stepper.count} frames, verdict {stepper.verdict.status}: "
               f"{stepper.verdict.reason}")
    for line in stepper.seats_text():
        click.echo("  " + line)
    click.echo(_STEP_HELP)
    _print_position(stepper)
    interactive = sys.stdin.isatty()
    while True:
        if interactive:
            click.echo("> ", nl=False)
            key = click.getchar()
            click.echo(key)
            arg = click.prompt("frame", type=int) if key == "g" else None
        else:
            line = sys.stdin.readline()
            if not line:
                break
            parts = line.split()
            if not parts:
                continue
            key, arg = parts[0], (parts[1] if len(parts) > 1 else None)
        if key in ("q", "Q", "\x03", "\x04"):
            break
        if key in _MOVES:
            before = stepper.position
            stepper.jump(_MOVES[key])
            if stepper.position == before:
                click.echo("(nowhere to go)")
                continue
        elif key == "g":
            try:
                stepper.seek_number(int(arg))
            except (TypeError, ValueError):
                click.echo("g needs a frame number, e.g. g 12 (0: the start)")
                continue
        elif key == "full":
            _print_position(stepper, True)
            continue
        elif key == "s":
            click.echo(f"view: {stepper.next_mode()}")
        elif key in ("h", "?"):
            click.echo(_STEP_HELP)
            continue
        elif key != "v":
            click.echo(f"unknown command {key!r}; h for help")
            continue
        _print_position(stepper)


def _hexify(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, (tuple, list)):
        return [_hexify(v) for v in value]
    return value


def _body(kind: str, body: tuple) -> Any:
    """A frame body as readable JSON: named fields, actions as their texts, bytes as hex."""
    names = {"open": ("chain_tail", "chain_length", "seed_commitment"), "act": ("action",),
             "commit": ("commitment",), "reveal": ("action", "salt"), "chain": ("value", "renewal"),
             "seed": ("seed", "chain_secret", "openings"), "final": ("digest", "winners", "scores", "reason"),
             "timeout": ("blamed_seat", "awaited_kind")}.get(kind)
    if names is None or len(names) != len(body):
        return _hexify(body)
    out = dict(zip(names, (_hexify(v) for v in body), strict=True))
    if kind == "chain" and isinstance(out["renewal"], list) and len(out["renewal"]) == 2:
        out["renewal"] = {"tail": out["renewal"][0], "length": out["renewal"][1]}
    if kind == "seed" and isinstance(out["openings"], list):
        out["openings"] = [{"action": o[0], "salt": o[1]} if isinstance(o, list) and len(o) == 2 else o
                           for o in out["openings"]]
    return out


def export_value(data: Replay) -> dict[str, Any]:
    header = data.header
    from replays.crypto import fingerprint
    return {
        "format": f"netplay-replay {header.major}.{header.minor}",
        "header": {"game": header.game, "rules_version": header.rules_version, "players": header.players,
                   "options": dict(header.options), "session": header.session.hex(), "created": header.created,
                   "hash": header.hash.hex(),
                   "seats": [{"seat": s, "name": name, "key": key.hex(), "fingerprint": fingerprint(key)}
                             for s, (key, name) in enumerate(header.seats)]},
        "frames": [{"seq": f.seq, "seat": f.seat, "kind": f.kind, "body": _body(f.kind, f.body),
                    "digest": f.digest.hex(), "prev": f.prev.hex(), "hash": f.hash.hex(),
                    "signature": f.signature.hex()} for f in data.frames],
        "torn": data.torn,
        "notes": data.notes,
    }


@replay.command()
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, default=True, help="export as JSON (the one format so far, and the "
              "default)")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="write to this file instead of stdout")
@click.option("--replay-dir", default=None, help=_DIR_HELP)
def export(file: str, as_json: bool, output: str | None, replay_dir: str | None) -> None:
    """Write a replay's header and frames as readable JSON (actions as texts, bytes as hex)."""
    text = json.dumps(export_value(_load(file, replay_dir)), indent=1)
    if output:
        Path(output).write_text(text + "\n")
    else:
        click.echo(text)


@replay.command()
@click.argument("file", metavar="FILE")
@click.option("--frame", type=int, default=None,
              help="start at the position after frame N (0: the start; default: the end)")
@click.option("--seat", type=int, default=None, help="as seat S saw it (its own secrets only)")
@click.option("--revealed", is_flag=True, help="with every secret revealed (the default when known)")
@click.option("--screenshot", type=click.Path(dir_okay=False), default=None,
              help="render that position to this PNG and exit, with no window")
@click.option("--size", default="1280x720", show_default=True, help="window or screenshot size, WxH")
@click.option("--replay-dir", default=None, help=_DIR_HELP)
@no_sound_option
def view(file: str, frame: int | None, seat: int | None, revealed: bool, screenshot: str | None, size: str,
         replay_dir: str | None, no_sound: bool) -> None:
    """Open the Pygame replay viewer on FILE (or render one position to a PNG with --screenshot)."""
    from client.cli_args import parse_size

    width, height = parse_size(size)
    stepper = _stepper(file, replay_dir)
    _mode(stepper, seat, revealed)
    if frame is not None:
        if not 0 <= frame <= stepper.count:
            _fail(f"frame {frame} does not exist (0..{stepper.count}; 0 is the start)", 1)
        stepper.seek_number(frame)
    if screenshot:
        import os

        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from client.app import App
    from client.scenes.viewer import ViewerScene
    from client.settings import Preferences

    app = App((width, height), title=f"netplay replay: {Path(file).name}",
              sound=not (no_sound or screenshot) and Preferences.load().sound)   # (its sandboxes' tables)
    app.push(ViewerScene(stepper))
    if screenshot:
        app.step([], dt_ms=0)
        path = app.screenshot(screenshot)
        click.echo(f"frame {stepper.number()} of {stepper.count} ({stepper.mode}) written to {path}")
        return
    app.run()


@replay.command()
@click.argument("file", metavar="FILE")
@click.option("--frame", type=int, required=True, help="play on from the position after frame N (0: the start)")
@click.option("--seat", type=int, default=None, help="the seat you play (default: the one to move there)")
@click.option("--bot", "bot_name", default="medium", show_default=True,
              help="the bot that plays the other seats: easy, medium (or smart), hard, random")
@click.option("--watch", is_flag=True, help="bots play every seat from there to the end, printed move by move; "
              "no window, no input")
@click.option("--terminal", "use_terminal", is_flag=True, help="play in the terminal even where a display exists")
@click.option("--seed", type=int, default=None, help="seed of the sandbox's chance (default: the frame number + 1)")
@click.option("--size", default="1280x720", show_default=True, help="window size, WxH")
@click.option("--replay-dir", default=None, help=_DIR_HELP)
@no_sound_option
def fork(file: str, frame: int, seat: int | None, bot_name: str, watch: bool, use_terminal: bool,
         seed: int | None, size: str, replay_dir: str | None, no_sound: bool) -> None:
    """Play on from a position of a replay (a sandbox: nothing is recorded). You take a seat, bots the
    others, each seat knowing what it knew there; in the window where a display exists, else in the
    terminal. With --watch, bots play every seat to the end and the command exits 0."""
    import bots
    from replays import sandbox

    stepper = _stepper(file, replay_dir)
    if not 0 <= frame <= stepper.count:
        raise click.BadParameter(f"the replay has frames 1..{stepper.count} (0: the start)", param_hint="--frame")
    position = frame - 1
    players = stepper.header.players
    if seat is not None and not 0 <= seat < players:
        raise click.BadParameter(f"this game has seats 0..{players - 1}", param_hint="--seat")
    if bot_name not in bots.for_game(stepper.game.id):
        raise click.BadParameter(f"no bot {bot_name!r} for {stepper.game.id} (bots: "
                                 f"{', '.join(sorted(bots.for_game(stepper.game.id)))})", param_hint="--bot")
    try:
        start = sandbox.fork_at(stepper, position, seat=seat)
    except ValueError as exc:
        _fail(f"{file}: {exc}", 1)
    seed = start.number + 1 if seed is None else seed
    if watch:
        _watch_fork(start, bot_name, seed)
        return
    from client.cli import _has_display
    from client.cli_args import parse_size
    from client.controller import LocalController

    me = start.seat if seat is None else seat
    width, height = parse_size(size)
    if use_terminal or not _has_display():
        from client import terminal

        why = "" if use_terminal else " (no display found, so in the terminal)"
        click.echo(f"sandbox from frame {start.number} of {Path(file).name}{why}; nothing is recorded")
        # the streams of this call (play's defaults are the ones of the first import)
        terminal.play(LocalController.from_fork(start, me, [bot_name], seed=seed, bot_delay_ms=0), sys.stdin,
                      sys.stdout)
        return
    from client.app import App
    from client.scenes.table import TableScene
    from client.settings import Preferences

    app = App((width, height), title=f"netplay sandbox: {Path(file).name} from frame {start.number}",
              sound=not no_sound and Preferences.load().sound)
    ctl = LocalController.from_fork(start, me, [bot_name], seed=seed)
    app.push(TableScene(ctl, f"Sandbox: {start.game.title} from frame {start.number}"))
    app.run()


def _watch_fork(start, bot_name: str, seed: int) -> None:
    """Bots at every seat from the fork to the end, headless: the moves in words and the result."""
    import bots
    from client.cli_play import play_out
    from client.ending import from_result
    from engines.referee import Referee

    game = start.game
    referee = Referee.from_state(game, start.state, start.players, seed, dealt=dict(start.dealt),
                                 knowing=start.knowing)
    labels = [f"{bot_name} bot {s}" for s in range(start.players)]
    click.echo(f"{game.title}: bots play every seat from frame {start.number} ({bot_name}); nothing is recorded")
    click.echo(board(game.view(start.state, None), labels, 1))
    actions = play_out(referee, bots.make(game.id, [bot_name], start.players), labels, seed)
    click.echo(board(game.view(referee.state, None), labels, 1))
    click.echo(f"result: {ending_line(from_result(game.result(referee.state), None, labels))}; {actions} actions "
               "from the fork")
