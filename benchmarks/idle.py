"""CPU of the window at rest: the lobby, a table waiting on the other player, a replay in the viewer.

Each scene runs in a process of its own under the dummy video driver (no display is needed; a real
one costs more per picture, so the ratio matters more than the absolute figure), first through the
application's own loop (`App.run`: it draws when the picture changes) and then, as the baseline in
the same process, through the loop the client had before (a picture every frame at 60 fps). Figures:
the process's CPU time over the wall time (per cent of one core: everything the client does at rest,
its session and discovery threads included; a bot player runs in a process of its own and is not
counted) and the pictures drawn per second. Aim: at most 10 % of a core.

Each window at rest lasts 5 s, the app's longest interval between pictures, so that it holds its one
safety picture (with `--quick`, 4 s: it holds it four times in five); the baseline's window is shorter
(drawing every frame is steady). The viewer's replay is recorded once, by the parent
(benchmarks.measure.recorded: the audit's four-seat Catan game, when it ran). The full run measures the
scenes one after the other; `--quick` runs the three side by side (each at rest needs about 1 % of a
core, the three baselines together less than one of the two cores).

`python -m benchmarks.idle SCENE SECONDS [--eager S] [--settle S] [--replay FILE]` measures one scene and
prints its figures as JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time

from benchmarks.measure import SHORT, Figure, recorded

SCENES = {
    "lobby": "the lobby at rest (LAN discovery on)",
    "table": "a Madagaskar table waiting on the other player (its bot peer takes a minute to move)",
    "viewer": "a Catan replay at rest in the viewer",
}
AIM_PERCENT = 10.0


def _loop(app, seconds: float, lazy: bool) -> dict:
    """Run the app's loop for `seconds` (lazy: `App.run`; else a picture every frame at 60 fps)."""
    import pygame

    frames, steps = app.frames, app.steps
    cpu, wall = time.process_time(), time.monotonic()
    if lazy:
        pygame.time.set_timer(pygame.QUIT, int(seconds * 1000), loops=1)
        app.running = True
        while app.running and time.monotonic() - wall < seconds + 5:
            app.run_once()
    else:
        clock = pygame.time.Clock()
        while time.monotonic() - wall < seconds:
            app.step(pygame.event.get(), clock.get_time())
            clock.tick(60)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    return {"cpu_pct": 100 * cpu / wall, "fps": (app.frames - frames) / wall, "steps_s": (app.steps - steps) / wall}


def _table(stack: contextlib.ExitStack, home: str):
    from client.netcontroller import NetController
    from client.scenes.table import TableScene
    from netplay.botpeers import bot_peers
    from netplay.host import HostSession
    from netplay.identity import Identity
    from netplay.session import QueueDecider

    decider = QueueDecider()
    # the person holds seat 1: the bot at seat 0 moves first, and takes its time
    session = HostSession(Identity.load(), decider, "madagaskar", players=2, seat=1, bind="127.0.0.1", port=0,
                          replay_dir=os.path.join(home, "replays"), fsync=False)
    ctl = NetController(session, decider)
    stack.enter_context(bot_peers(session, "random", None, delay_s=60))
    stack.callback(lambda: (ctl.leave(), ctl.join(5)))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (ctl.started and session.phase == "play" and ctl.legal() == []
                                               and "waiting" in ctl.status()):
        time.sleep(0.05)
    if not ctl.started:
        raise RuntimeError(f"the table's game did not start: {ctl.status()}")
    return TableScene(ctl, "Madagaskar - waiting")


def _viewer(home: str, replay: str | None):
    from client.scenes.viewer import ViewerScene
    from replays.stepping import Stepper

    if replay is None:
        replay = os.path.join(home, "catan.npr")
        with open(replay, "wb") as out:
            out.write(_catan_replay(quick=False))
    stepper = Stepper.load(replay)
    stepper.seek(stepper.count // 2)
    return ViewerScene(stepper)


def _catan_replay(quick: bool) -> bytes:
    """The viewer's replay: a four-seat Catan game of random bots (cut short with --quick)."""
    return recorded("catan", 0, 4, SHORT["catan"] if quick else None)


def measure(scene: str, seconds: float, eager_seconds: float | None = None, settle: float = 1.5,
            replay: str | None = None) -> dict:
    """One scene's figures (in this process): lazy for `seconds`, then eager as the baseline (for
    `eager_seconds`, by default as long), after `settle` seconds at rest."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from client.app import App

    with tempfile.TemporaryDirectory() as home, contextlib.ExitStack() as stack:
        os.environ["NETPLAY_HOME"] = home
        app = App((1280, 720))
        if scene == "lobby":
            from client.scenes.lobby import LobbyScene
            lobby = LobbyScene(os.path.join(home, "replays"), browse=True)
            stack.callback(lobby.close)
            app.push(lobby)
        elif scene == "table":
            app.push(_table(stack, home))
        else:
            app.push(_viewer(home, replay))
        for _ in range(3):
            app.step([], 16)
        _loop(app, settle, lazy=True)      # past the first second's pictures (renderers' animations settle)
        lazy = _loop(app, seconds, lazy=True)
        eager = _loop(app, seconds if eager_seconds is None else eager_seconds, lazy=False)
        return {"scene": scene, "lazy": lazy, "eager": eager}


def _start(scene: str, seconds: float, eager: float, settle: float, replay: str) -> subprocess.Popen:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.Popen([sys.executable, "-m", "benchmarks.idle", scene, str(seconds), "--eager", str(eager),
                             "--settle", str(settle), "--replay", replay],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _result(scene: str, proc: subprocess.Popen) -> dict:
    try:
        stdout, stderr = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"benchmarks.idle {scene} failed ({proc.returncode}): {stderr[-2000:]}")
    return json.loads(lines[-1])


def figures(runs: int = 3, quick: bool = False, say=print) -> list[Figure]:
    seconds, eager, settle = (4.0, 1.0, 0.5) if quick else (5.0, 2.0, 1.5)
    base = "the same scene drawn every frame at 60 fps (the loop before issue 27), in the same process"
    figs = {}
    for scene, words in SCENES.items():
        figs[scene] = (Figure("idle", f"{scene}: CPU at rest, % of a core ({words})", "%", baseline=base,
                              aim=AIM_PERCENT, aim_value=True),
                       Figure("idle", f"{scene}: pictures drawn per second at rest", "fps", baseline=base))
    with tempfile.TemporaryDirectory(prefix="netplay-bench-idle-") as tmp:
        replay = os.path.join(tmp, "catan.npr")
        with open(replay, "wb") as out:
            out.write(_catan_replay(quick))
        results: dict[str, list[dict]] = {scene: [] for scene in SCENES}
        for _ in range(runs):
            if quick:      # side by side
                procs = {scene: _start(scene, seconds, eager, settle, replay) for scene in SCENES}
                for scene, proc in procs.items():
                    results[scene].append(_result(scene, proc))
            else:
                for scene in SCENES:
                    results[scene].append(_result(scene, _start(scene, seconds, eager, settle, replay)))
    out = []
    for scene, (cpu, fps) in figs.items():
        for result in results[scene]:
            lazy, eager_ = result["lazy"], result["eager"]
            cpu.add(lazy["cpu_pct"], eager_["cpu_pct"])
            fps.add(lazy["fps"], eager_["fps"])
            say(f"  {scene}: {lazy['cpu_pct']:.1f} % of a core, {lazy['fps']:.1f} pictures/s, "
                f"{lazy['steps_s']:.0f} loop iterations/s (every frame at 60 fps: {eager_['cpu_pct']:.1f} %, "
                f"{eager_['fps']:.0f} pictures/s)")
        for fig in (cpu, fps):
            say(f"  {fig.line()}")
        out += [cpu, fps]
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="one scene's figures at rest, as JSON")
    parser.add_argument("scene", choices=list(SCENES))
    parser.add_argument("seconds", type=float, help="the window at rest")
    parser.add_argument("--eager", type=float, default=None, help="the baseline's window (default: as long)")
    parser.add_argument("--settle", type=float, default=1.5, help="seconds at rest before the window")
    parser.add_argument("--replay", default=None, help="the viewer's replay (default: record a Catan game)")
    args = parser.parse_args()
    print(json.dumps(measure(args.scene, args.seconds, args.eager, args.settle, args.replay)))
