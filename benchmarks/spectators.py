"""What spectators cost the players (issue 35): four peers on loopback (a host and three joiner processes, medium
bots) play a short Catan game twice in one run, once with nobody watching and once with `SPECTATORS` spectator
processes (`netplay watch`'s session: each checks every frame and writes its copy) watching from the start. Both
games have the same terms (spectators allowed, the same delay), so only the watching differs.

The host times a move: from the moment its bot has chosen an `act` until all three joiners have acknowledged it
(as benchmarks/mesh.py does), and counts the spectators' frames it let go. Reported against the raw ZeroMQ round
trip measured in the same run, and as the ratio watched / unwatched (the issue's aim: within 1.10). On one 2-core
machine the spectators' own work (a signature and the ledger per frame, each) would compete with the players'
for the cores, which spectators on other machines do not: so the players (the host and the joiners) run on half
the cores and the spectators on the other half, in both runs alike, the spectators at the lowest priority (nice
19). What remains is the host's own work for them (a signed release per frame and spectator, the sends), shown
as the host's CPU per frame, and what sharing one machine still costs (memory, the kernel, the loopback)."""

from __future__ import annotations

import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from benchmarks import transport as bench_transport  # noqa: E402
from benchmarks.measure import Figure, libraries, netplay_home, percentile  # noqa: E402

PEERS = 4
SPECTATORS = 8
DELAY = 8
OPTIONS = {"max_rounds": "8"}


def _cores() -> tuple[set[int], set[int]]:
    """(the players' cores, the spectators' cores): on a machine of two cores or more the spectators get cores of
    their own, as spectators on machines of their own would (Linux's affinity); the same cores for both runs."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if len(cores) < 2:
        return set(cores), set(cores)
    half = len(cores) // 2
    return set(cores[:half]), set(cores[half:])


def _pin(cores: set[int]) -> None:
    if cores and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cores)


def _joiner(address: str, home: str, out: Any) -> None:
    os.environ["NETPLAY_HOME"] = home
    _pin(_cores()[0])
    from bots.decider import BotDecider
    from netplay.identity import Identity
    from netplay.joiner import JoinSession

    session = JoinSession(Identity.generate("bench-joiner"), BotDecider("medium", games=1), address,
                          replay_dir=os.path.join(home, "replays"), fsync=False)
    outcome = session.run(max_seconds=600)
    out.put(("joiner", outcome.code if outcome is not None else None))


def _spectator(address: str, home: str, out: Any) -> None:
    os.environ["NETPLAY_HOME"] = home
    _pin(_cores()[1])
    os.nice(19)     # a spectator's machine is its own: here its work takes only what the players leave
    from netplay.identity import Identity
    from netplay.watcher import WatchSession

    session = WatchSession(Identity.generate(f"bench-spectator-{os.getpid()}"), address,
                           replay_dir=os.path.join(home, "replays"), fsync=False)
    outcome = session.run()
    out.put(("spectator", outcome.code))


def measure(spectators: int) -> dict[str, Any]:
    """One game of four peers with `spectators` watching; the host's per-move times."""
    from bots.decider import BotDecider
    from netplay.host import HostSession
    from netplay.identity import Identity
    from replays.header import Spectating

    class TimedBot(BotDecider):
        chosen_at = 0.0

        def decide(self, game, state, seat, legal):
            action = super().decide(game, state, seat, legal)
            self.chosen_at = time.perf_counter()
            return action

    bot = TimedBot("medium", games=1)
    everything = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    _pin(_cores()[0])        # the host too: the players share their cores, in both runs alike
    try:
        return _measure(spectators, bot, HostSession, Identity, Spectating)
    finally:
        _pin(everything)


def _measure(spectators: int, bot: Any, HostSession: Any, Identity: Any, Spectating: Any) -> dict[str, Any]:  # noqa: N803
    with tempfile.TemporaryDirectory(prefix="netplay-bench-") as tmp, netplay_home(os.path.join(tmp, "home")):
        host = HostSession(Identity.generate("bench-host"), bot, "catan", players=PEERS, options=dict(OPTIONS),
                           replay_dir=os.path.join(tmp, "host"), fsync=False,
                           spectating=Spectating(SPECTATORS, DELAY))
        moves: list[float] = []
        started: dict[int, float] = {}
        acked: dict[int, set[int]] = {}

        def on_frame(frame, own: bool) -> None:
            if own and frame.kind == "act":
                started[frame.seq] = bot.chosen_at
                acked[frame.seq] = set()

        def on_ack(seat: int, seq: int) -> None:
            if seq in acked:
                acked[seq].add(seat)
                if len(acked[seq]) == PEERS - 1:
                    moves.append(time.perf_counter() - started.pop(seq))
                    del acked[seq]

        host.on_frame, host.on_ack = on_frame, on_ack
        address = f"{host.address}/{host.identity.fingerprint}"
        ctx = multiprocessing.get_context("spawn")
        out = ctx.Queue()
        watchers = [ctx.Process(target=_spectator, args=(address, os.path.join(tmp, f"s{i}"), out))
                    for i in range(spectators)]
        for p in watchers:          # in before the game starts (the host holds them until the header)
            p.start()
        deadline = time.monotonic() + 60
        while spectators and time.monotonic() < deadline and \
                sum(w.watching for w in host.machine.spectators.watchers.values()) < spectators:
            host.step(50)
        joiners = [ctx.Process(target=_joiner, args=(address, os.path.join(tmp, f"j{i}"), out))
                   for i in range(PEERS - 1)]
        for p in joiners:
            p.start()
        cpu = time.process_time()
        outcome = host.run(max_seconds=600)
        cpu = time.process_time() - cpu
        frames = len(host.transcript.ledger.frames)
        reports = [out.get(timeout=120) for _ in (*joiners, *watchers)]
        for p in (*joiners, *watchers):
            p.join(30)
            if p.is_alive():
                p.kill()
    if outcome is None or outcome.code != 0 or any(code != 0 for _, code in reports):
        raise RuntimeError(f"the benchmark game did not end normally: {outcome and outcome.message}, {reports}")
    return {"moves": moves, "watched": sum(1 for kind, _ in reports if kind == "spectator"),
            "host_cpu_per_frame": cpu / max(1, frames)}


def figures(runs: int = 3, quick: bool = False, say=print) -> list[Figure]:
    """Per move p50, unwatched and watched by `SPECTATORS`, over `runs` runs (each plays both, in alternating
    order, against the raw round trip measured in that run), and the ratio."""
    base = f"raw {libraries()['zmq']} DEALER/ROUTER round trip, 256 B, no encryption"
    alone = Figure("spectators", "per move, 4-peer Catan, nobody watching (act until all 3 acks), p50", "us",
                   baseline=base)
    watched = Figure("spectators", f"per move, 4-peer Catan, {SPECTATORS} spectators watching, p50", "us",
                     baseline=base)
    ratio = Figure("spectators", f"{SPECTATORS} spectators / none, per move p50 (aim: <= 1.10)", "x")
    host_cpu = {0: Figure("spectators", "the host's CPU per frame, nobody watching", "us"),
                SPECTATORS: Figure("spectators", f"the host's CPU per frame, {SPECTATORS} watching", "us")}
    for run in range(1 if quick else runs):
        raw_us = bench_transport.raw_round_trip(n=300 if quick else 1000, size=256)["p50_us"]
        p50: dict[int, float] = {}
        for count in ((0, SPECTATORS) if run % 2 == 0 else (SPECTATORS, 0)):
            result = measure(count)
            if count and result["watched"] != count:
                raise RuntimeError(f"{result['watched']} of {count} spectators watched to the end")
            p50[count] = percentile(result["moves"], 0.5) * 1e6
            host_cpu[count].add(result["host_cpu_per_frame"] * 1e6)
            (watched if count else alone).add(p50[count], raw_us)
        ratio.add(p50[SPECTATORS] / p50[0])
    for fig in (alone, watched, ratio, *host_cpu.values()):
        say(f"  {fig.line()}")
    return [alone, watched, ratio, *host_cpu.values()]


if __name__ == "__main__":
    figures(runs=1, quick=True)
