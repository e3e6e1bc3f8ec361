"""CPU of the window at rest: the lobby, a table waiting on the other player, a replay in the viewer.

Each scene runs in a process of its own under the dummy video driver (no display is needed; a real
one costs more per picture, so the ratio matters more than the absolute figure), first through the
application's own loop (`App.run`: it draws when the picture changes) and then, as the baseline in
the same process, through the loop the client had before (a picture every frame at 60 fps). Figures:
the process's CPU time over the wall time (per cent of one core: everything the client does at rest,
its session and discovery threads included; a bot player runs in a process of its own and is not
counted) and the pictures drawn per second. Aim: at most 10 % of a core.

`python -m benchmarks.idle SCENE SECONDS` measures one scene and prints its figures as JSON.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time

from benchmarks.measure import Figure

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


def _viewer(home: str):
    from bots.lib import RandomBot
    from client.scenes.viewer import ViewerScene
    from replays.local import record_match
    from replays.stepping import Stepper

    record = record_match("catan", RandomBot(), seed=3, players=4, directory=os.path.join(home, "replays"))
    stepper = Stepper.load(record.path)
    stepper.seek(stepper.count // 2)
    return ViewerScene(stepper)


def measure(scene: str, seconds: float) -> dict:
    """One scene's figures (in this process): lazy, then eager as the baseline."""
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
            app.push(_viewer(home))
        for _ in range(3):
            app.step([], 16)
        _loop(app, 1.5, lazy=True)      # past the first second's pictures (renderers' animations settle)
        lazy = _loop(app, seconds, lazy=True)
        eager = _loop(app, seconds, lazy=False)
        return {"scene": scene, "lazy": lazy, "eager": eager}


def _run(scene: str, seconds: float) -> dict:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    out = subprocess.run([sys.executable, "-m", "benchmarks.idle", scene, str(seconds)], capture_output=True,
                         text=True, env=env, timeout=300, check=False)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode != 0 or not lines:
        raise RuntimeError(f"benchmarks.idle {scene} failed ({out.returncode}): {out.stderr[-2000:]}")
    return json.loads(lines[-1])


def figures(runs: int = 3, quick: bool = False, say=print) -> list[Figure]:
    seconds = 3.0 if quick else 8.0   # per loop, after 1.5 s for the first pictures
    base = "the same scene drawn every frame at 60 fps (the loop before issue 27), in the same process"
    out = []
    for scene, words in SCENES.items():
        cpu = Figure("idle", f"{scene}: CPU at rest, % of a core ({words})", "%", baseline=base, aim=AIM_PERCENT,
                     aim_value=True)
        fps = Figure("idle", f"{scene}: pictures drawn per second at rest", "fps", baseline=base)
        for _ in range(runs):
            result = _run(scene, seconds)
            lazy, eager = result["lazy"], result["eager"]
            cpu.add(lazy["cpu_pct"], eager["cpu_pct"])
            fps.add(lazy["fps"], eager["fps"])
            say(f"  {scene}: {lazy['cpu_pct']:.1f} % of a core, {lazy['fps']:.1f} pictures/s, "
                f"{lazy['steps_s']:.0f} loop iterations/s (every frame at 60 fps: {eager['cpu_pct']:.1f} %, "
                f"{eager['fps']:.0f} pictures/s)")
        for fig in (cpu, fps):
            say(f"  {fig.line()}")
        out += [cpu, fps]
    return out


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], float(sys.argv[2]))))
