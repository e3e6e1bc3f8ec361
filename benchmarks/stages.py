"""A move stage by stage at both ends: where the time between the host's choice and the joiner's
acknowledgement goes, against the floor's parts measured in the same run (scripts/bench stages).

The session benchmark's game (benchmarks/session.py: a host in this process, a joiner in a child, random
bots, Madagaskar) with time stamps on both ends' transports and state machines. The two processes read the
same clock (`time.perf_counter` is CLOCK_MONOTONIC on Linux, shared by every process of the machine), so a
stamp of one is comparable with a stamp of the other. For every own `act` frame of the host:

- the host builds and applies it: from its bot's choice to the frame applied and written (legality, engine
  play, digest, signature, its own accept, the flushed write; the floor's `build`);
- ... and sends it: from applied to the first send on its transport after that;
- the network to the joiner: from that send to the joiner's transport handing it over (ZeroMQ's I/O threads,
  CurveZMQ, the wake-up of the joiner's poll, the transport's framing);
- the joiner, from receiving it to sending its ack: decoding, the ledger's checks, engine play, digest, the
  flushed write, the claims' bookkeeping and the ack's signature (the floor's `receive`, and the rest);
- the network back to the host, and the host from the ack's arrival to its acknowledgement hook.

Beside them: a machine tick's median at each end (the ticks that build nothing are most of them), and the
floor's parts (frame_work) and the raw round trip of the same run. Nothing here changes what a peer does:
the stamps wrap the transports' `poll` and `send` and the machines' `tick` from outside.
"""

from __future__ import annotations

import bisect
import json
import multiprocessing
import os
import statistics
import tempfile
import time
from typing import Any

from benchmarks import session as bench_session
from benchmarks import transport as bench_transport
from benchmarks.measure import Figure, libraries, netplay_home

STAGES = ("host builds and applies its frame", "host: applied to sent", "network to the joiner",
          "joiner: received to ack sent", "network back to the host", "host: ack received to handled",
          "the whole move")


def _stamp(log: list, transport: Any, machine: Any) -> None:
    """Wrap `transport`'s poll and send and `machine`'s tick so that each appends a time stamp to `log`."""
    clock = time.perf_counter
    poll, send, tick = transport.poll, transport.send, machine.tick

    def stamped_poll(*args, **kwargs):
        got = poll(*args, **kwargs)
        if got:
            log.append(("recv", clock()))
        return got

    def stamped_send(*args):
        log.append(("send", clock()))
        return send(*args)

    def stamped_tick(now):
        begun = clock()
        tick(now)
        log.append(("tick", begun, clock() - begun))
    transport.poll, transport.send, machine.tick = stamped_poll, stamped_send, stamped_tick


def _joiner(address: str, games: int, home: str, out: str) -> None:
    os.environ["NETPLAY_HOME"] = home
    from bots.decider import BotDecider
    from netplay.identity import Identity
    from netplay.joiner import JoinSession

    log: list = []
    session = JoinSession(Identity.generate("bench-joiner"), BotDecider("random", games=games, seed=2), address,
                          replay_dir=os.path.join(home, "replays"), fsync=False)
    _stamp(log, session.transport, session.machine)
    session.run(max_seconds=600)
    with open(out, "w") as f:
        json.dump(log, f)


def measure(games: int = 6) -> dict[str, Any]:
    """One session of `games` games; the p50 of each stage in microseconds, and of the ticks at both ends."""
    from netplay.host import HostSession
    from netplay.identity import Identity

    clock = time.perf_counter
    bot = bench_session._TimedBot(games)
    with tempfile.TemporaryDirectory(prefix="netplay-bench-") as tmp, netplay_home(os.path.join(tmp, "host")):
        host = HostSession(Identity.generate("bench-host"), bot, bench_session.MOVE_GAME,
                           replay_dir=os.path.join(tmp, "h"), fsync=False)
        host_log: list = []
        _stamp(host_log, host.transport, host.machine)
        pending: dict[int, tuple[float, float]] = {}     # seq -> (chosen, applied), until its ack
        moves: list[tuple[float, float, float]] = []     # (chosen, applied, acknowledged), every game's

        def on_frame(frame, mine: bool) -> None:
            if mine and frame.kind == "act":
                pending[frame.seq] = (bot.chosen_at, clock())

        def on_ack(seat: int, seq: int) -> None:
            begun = pending.pop(seq, None)      # (numbers start again in a rematch: the first ack ends it)
            if begun is not None:
                moves.append((*begun, clock()))
        host.on_frame, host.on_ack = on_frame, on_ack
        out = os.path.join(tmp, "joiner.json")
        child = multiprocessing.get_context("spawn").Process(
            target=_joiner, args=(host.address, games, os.path.join(tmp, "join"), out), daemon=True)
        child.start()
        deadline = time.monotonic() + 600
        try:
            while host.outcome is None:
                host.step(100)
                if time.monotonic() > deadline or (not child.is_alive() and host.phase != "over"):
                    host.finish(1, "the joiner process ended early" if not child.is_alive() else "gave up")
            host.close()
        finally:
            child.join(30)
            if child.is_alive():
                child.kill()
        if host.outcome.code != 0:
            raise RuntimeError(f"the benchmark game did not end normally: {host.outcome.message}")
        with open(out) as f:
            joiner_log = json.load(f)
    sent = [e[1] for e in host_log if e[0] == "send"]
    got = [e[1] for e in host_log if e[0] == "recv"]
    j_got = [e[1] for e in joiner_log if e[0] == "recv"]
    j_sent = [e[1] for e in joiner_log if e[0] == "send"]

    def after(stamps: list[float], t: float) -> float | None:
        i = bisect.bisect_left(stamps, t)
        return stamps[i] if i < len(stamps) else None
    rows = []
    for chosen, applied, acked in moves:
        s1 = after(sent, applied)
        r1 = after(j_got, s1) if s1 is not None else None
        s2 = after(j_sent, r1) if r1 is not None else None
        r2 = after(got, s2) if s2 is not None else None
        if r2 is None or r2 > acked:
            continue
        rows.append((applied - chosen, s1 - applied, r1 - s1, s2 - r1, r2 - s2, acked - r2, acked - chosen))
    if len(rows) < 20:
        raise RuntimeError(f"only {len(rows)} moves could be followed stage by stage")
    p50 = {name: statistics.median(r[i] for r in rows) * 1e6 for i, name in enumerate(STAGES)}
    ticks = {side: statistics.median(e[2] for e in log if e[0] == "tick") * 1e6
             for side, log in (("host", host_log), ("joiner", joiner_log))}
    return {"stages": p50, "ticks": ticks, "moves": len(rows)}


def figures(runs: int = 3, quick: bool = False, say=print) -> list[Figure]:
    """Each stage's p50 over `runs` sessions, the whole move against the raw round trip of the same run,
    with the floor's parts (an act frame built at the author, received at the other end) beside them."""
    base = f"raw {libraries()['zmq']} DEALER/ROUTER round trip, 256 B, no encryption"
    figs = {name: Figure("stages", f"{name} (p50)", "us", baseline=base) for name in STAGES}
    ticks = {side: Figure("stages", f"a machine tick at the {side} (p50)", "us") for side in ("host", "joiner")}
    floor = {part: Figure("stages", f"the floor's part: an act frame {part} (in process, p50)", "us")
             for part in ("built", "received")}
    for _ in range(runs):
        raw = bench_transport.raw_round_trip(n=300 if quick else 2000, size=256)["p50_us"]
        result = measure(games=2 if quick else 6)
        for name, value in result["stages"].items():
            figs[name].add(value, raw)
        for side, value in result["ticks"].items():
            ticks[side].add(value)
        work = bench_session.frame_work(games=1 if quick else 3)
        floor["built"].add(work["build_us"])
        floor["received"].add(work["receive_us"])
    out = [*figs.values(), *floor.values(), *ticks.values()]
    for fig in out:
        say(f"  {fig.line()}")
    return out


if __name__ == "__main__":
    for name, value in measure(games=3)["stages"].items():
        print(f"{name:36} {value:8.0f} us")
