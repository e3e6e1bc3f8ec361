"""Latency of the live session against the raw ZeroMQ round trip, measured in the same run.

A host session runs in this process and a joiner session in a second one, both random bots, over
loopback, with the replay flushed but not fsync'd (the guarantee against kill -9; fsync on a disk
costs milliseconds and would measure the disk, not the protocol). The host's hooks time:

- per move: from the moment the host's bot has chosen an action (building, signing, checking,
  writing and sending it all count) until the joiner's acknowledgement of that frame arrives, which
  the joiner sends after it has validated, applied and written it: "the opponent has applied it and
  the sender knows";
- a simultaneous step (commit, commit, reveal, reveal): from the host's choice until the joiner
  acknowledges the reveal that resolves the step.

Beside them, the floor: one raw round trip plus the work an `act` frame needs at both ends, timed in
this process without a network (`frame_work`). No session can answer a move faster than that on this
machine; the gap between the floor and the live figure is what the two processes' threads, wake-ups
and CurveZMQ encryption add.

The step's floor is three raw round trips (the commits reach the other peer in seat order, then the
reveals, then the acknowledgement) plus two commits' and two reveals' work at both ends. Each figure is
reported as p50 and p99 against its floor (the aims are about that ratio: what the live session adds to
the work the protocol requires), and each floor against a raw pyzmq DEALER/ROUTER round trip of a
frame-sized message (benchmarks/transport.py). `python -m benchmarks.session` prints them.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import time
from typing import Any

from benchmarks import transport as bench_transport
from benchmarks.measure import Figure, libraries, netplay_home
from bots.decider import BotDecider
from netplay.host import HostSession
from netplay.identity import Identity

MOVE_GAME = "madagaskar"
STEP_GAME = "turning-tides"


def _joiner(address: str, games: int, home: str) -> None:
    os.environ["NETPLAY_HOME"] = home
    from netplay.joiner import JoinSession
    session = JoinSession(Identity.generate("bench-joiner"), BotDecider("random", games=games, seed=2), address,
                          replay_dir=os.path.join(home, "replays"), fsync=False)
    session.run(max_seconds=600)


class _TimedBot(BotDecider):
    def __init__(self, games: int):
        super().__init__("random", games=games, seed=1)
        self.chosen_at = 0.0

    def decide(self, game, state, seat, legal):
        action = super().decide(game, state, seat, legal)
        self.chosen_at = time.perf_counter()
        return action


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _stats(samples: list[float]) -> dict[str, float]:
    return {"p50_us": _percentile(samples, 0.5) * 1e6, "p99_us": _percentile(samples, 0.99) * 1e6,
            "n": len(samples)}


def measure(game_id: str, kind: str, games: int, min_samples: int) -> dict[str, float]:
    """Play `games` games (a rematch after each) and time own `act` frames (kind "move") or own
    simultaneous steps (kind "step") until the joiner's acknowledgement."""
    bot = _TimedBot(games)
    with tempfile.TemporaryDirectory(prefix="netplay-bench-") as tmp, netplay_home(os.path.join(tmp, "host")):
        host = HostSession(Identity.generate("bench-host"), bot, game_id, replay_dir=os.path.join(tmp, "h"),
                           fsync=False)
        started: dict[int, float] = {}       # seq whose ack ends a measurement -> start time
        samples: list[float] = []
        step: dict[str, Any] = {"start": None}

        def on_frame(frame, own: bool) -> None:
            ledger = host.transcript.ledger
            if kind == "move" and own and frame.kind == "act":
                started[frame.seq] = bot.chosen_at
            elif kind == "step":
                if own and frame.kind == "commit" and step["start"] is None:
                    step["start"] = bot.chosen_at
                elif frame.kind == "reveal" and ledger.round is None and step["start"] is not None:
                    started[frame.seq] = step["start"]
                    step["start"] = None
                elif frame.kind == "act":
                    step["start"] = None       # a common action broke the step off

        def on_ack(seat: int, seq: int) -> None:
            begun = started.pop(seq, None)
            if begun is not None:
                samples.append(time.perf_counter() - begun)

        host.on_frame, host.on_ack = on_frame, on_ack
        ctx = multiprocessing.get_context("spawn")
        child = ctx.Process(target=_joiner, args=(host.address, games, os.path.join(tmp, "join")), daemon=True)
        child.start()
        deadline = time.monotonic() + 600
        try:
            while host.outcome is None:
                host.step(100)
                if time.monotonic() > deadline or (not child.is_alive() and host.phase != "over"):
                    host.finish(1, f"the joiner process ended early (status {child.exitcode})"
                                if not child.is_alive() else "gave up after 600 s")
            host.close()
            outcome = host.outcome
        finally:
            child.join(30)
            if child.is_alive():
                child.kill()
        if outcome.code != 0:
            raise RuntimeError(f"the benchmark game did not end normally: {outcome.message}")
    if len(samples) < min_samples:
        raise RuntimeError(f"only {len(samples)} samples of {kind} latency")
    return _stats(samples)


def frame_work(game_id: str = MOVE_GAME, games: int = 6, kinds: tuple[str, ...] = ("act",)) -> dict[str, float]:
    """The work one frame of each of `kinds` needs on the critical path whatever the network, in this
    process and without one: the author builds it (for an `act` or a `commit`: legality, engine play,
    state digest, signature; the decision itself not counted; for a `reveal`: the reveal's own checks),
    accepts and writes it; the receiver decodes it, checks its signature, plays and digests it, and
    writes it (each write flushed, as live). p50 of each, in microseconds: `build_us`/`receive_us` for
    the first kind, `<kind>_build_us`/`<kind>_receive_us` for every kind. Added to the round trips a
    move (or a step) needs it is the floor its latency cannot go below on this machine (before any
    thread wake-up or CurveZMQ encryption)."""
    from bots.lib import RandomBot
    from replays.local import SignedMatch

    built: dict[str, list[float]] = {kind: [] for kind in kinds}
    received: dict[str, list[float]] = {kind: [] for kind in kinds}
    clock = time.perf_counter
    with tempfile.TemporaryFile() as out:
        for seed in range(games):
            match = SignedMatch(game_id, RandomBot(), seed=seed, players=2)
            while (nxt := match.expects()) is not None:
                kind, seat = nxt
                author, other = match.ledgers[seat], match.ledgers[1 - seat]
                if kind not in built:
                    if match.step() is None:
                        break      # nothing this match can build (never for these games): no endless loop
                    continue
                action = None
                if kind in ("act", "commit"):
                    legal = match.game.legal(author.state, seat)
                    action = match.bots[seat].choose(match.game, author.state, seat, legal, match.rngs[seat])
                start = clock()
                frame = author.build_action(action) if action is not None else author.build_next()
                data = frame.encode()
                author.accept(frame)
                out.write(data)
                out.flush()
                middle = clock()
                other.accept(data)
                out.write(data)
                out.flush()
                end = clock()
                built[kind].append(middle - start)
                received[kind].append(end - middle)
    result: dict[str, float] = {"n": len(built[kinds[0]])}
    for kind in kinds:
        if not built[kind]:
            raise RuntimeError(f"no {kind} frame was built in {games} games of {game_id}")
        result[f"{kind}_build_us"] = _percentile(built[kind], 0.5) * 1e6
        result[f"{kind}_receive_us"] = _percentile(received[kind], 0.5) * 1e6
    result["build_us"], result["receive_us"] = result[f"{kinds[0]}_build_us"], result[f"{kinds[0]}_receive_us"]
    return result


#: the frames of one commit-reveal step (two seats: commits in seat order, then reveals in seat order)
STEP_FRAMES = {"commit": 2, "reveal": 2}
#: the raw round trips a step needs: each commit and reveal reaches the other peer in turn, then the ack
STEP_ROUND_TRIPS = 3


def run(move_games: int = 12, step_games: int = 2, raw_n: int = 2000) -> dict[str, Any]:
    """The raw round trip is measured before and after the sessions (machine noise drifts); the faster
    of the two is the baseline, which makes the ratios the conservative ones. The floors add to it
    the frames' own work at both ends, timed in process in the same run: one `act` frame for a move;
    two commits and two reveals, over three round trips, for a step."""
    before = bench_transport.raw_round_trip(n=raw_n, size=256)
    move = measure(MOVE_GAME, "move", move_games, 20)
    step = measure(STEP_GAME, "step", step_games, 10)
    after = bench_transport.raw_round_trip(n=raw_n, size=256)
    raw = min(before, after, key=lambda r: r["p50_us"])
    small = move_games < 12
    work = frame_work(games=2 if small else 6)
    step_work = frame_work(STEP_GAME, games=1 if small else 2, kinds=tuple(STEP_FRAMES))
    floor = raw["p50_us"] + work["build_us"] + work["receive_us"]
    step_floor = STEP_ROUND_TRIPS * raw["p50_us"] + sum(
        count * (step_work[f"{kind}_build_us"] + step_work[f"{kind}_receive_us"])
        for kind, count in STEP_FRAMES.items())
    return {
        "raw": raw, "work": work, "step_work": step_work,
        "floor_us": floor, "floor_ratio": floor / raw["p50_us"],
        "step_floor_us": step_floor, "step_floor_ratio": step_floor / raw["p50_us"],
        "move": move, "move_ratio_p50": move["p50_us"] / floor, "move_ratio_p99": move["p99_us"] / floor,
        "step": step, "step_ratio_p50": step["p50_us"] / step_floor, "step_ratio_p99": step["p99_us"] / step_floor,
    }


#: issue 37's aims: a move and a step against their floors (the p99 too: a pause is time the floor does not have)
AIMS = {"move_p50": 1.3, "move_p99": 2.0, "step_p50": 1.3, "step_p99": 2.0}


def figures(runs: int = 5, quick: bool = False, say=print) -> list[Figure]:
    """Per move (p50, p99) and per commit-reveal step (p50, p99) over `runs` runs, each against its floor
    in the same run; the floors against the raw round trip measured just before and after the sessions
    (the faster of the two), so a move's ratio to the raw round trip is the product of the two."""
    raw_base = f"raw {libraries()['zmq']} DEALER/ROUTER round trip, 256 B, no encryption"
    move_base = "the move's floor in the same run"
    step_base = "the step's floor in the same run"
    figs = {
        "move_p50": Figure("session", f"per move p50 ({MOVE_GAME}: own frame until the ack) vs its floor", "us",
                           baseline=move_base),
        "move_p99": Figure("session", f"per move p99 ({MOVE_GAME}) vs the floor", "us", baseline=move_base),
        "step_p50": Figure("session", f"commit-reveal step p50 ({STEP_GAME}: 4 frames, 3 round trips) vs its floor",
                           "us", baseline=step_base),
        "step_p99": Figure("session", f"commit-reveal step p99 ({STEP_GAME}) vs the floor", "us", baseline=step_base),
        "floor": Figure("session", f"per move floor ({MOVE_GAME}: raw round trip + an act frame's work at both ends, "
                        "in process) vs the raw round trip", "us", baseline=raw_base),
        "step_floor": Figure("session", f"step floor ({STEP_GAME}: 3 raw round trips + 2 commits' and 2 reveals' "
                             "work at both ends, in process) vs the raw round trip", "us", baseline=raw_base),
        "move_raw": Figure("session", f"per move p50 ({MOVE_GAME}) vs the raw round trip", "us", baseline=raw_base),
    }
    for key, aim in AIMS.items():
        figs[key].aim = aim
    for _ in range(runs):
        result = run(move_games=3 if quick else 12, step_games=1 if quick else 2, raw_n=300 if quick else 2000)
        raw = result["raw"]
        for kind, floor in (("move", result["floor_us"]), ("step", result["step_floor_us"])):
            figs[f"{kind}_p50"].add(result[kind]["p50_us"], floor)
            figs[f"{kind}_p99"].add(result[kind]["p99_us"], floor)
        figs["floor"].add(result["floor_us"], raw["p50_us"])
        figs["step_floor"].add(result["step_floor_us"], raw["p50_us"])
        figs["move_raw"].add(result["move"]["p50_us"], raw["p50_us"])
    for fig in figs.values():
        say(f"  {fig.line()}")
    return list(figs.values())


def main() -> None:
    result = run()
    raw = result["raw"]
    print(f"raw pyzmq DEALER/ROUTER round trip (256 B): p50 {raw['p50_us']:7.1f} us  p99 {raw['p99_us']:7.1f} us"
          "  (the faster of two runs)")
    work, step_work = result["work"], result["step_work"]
    print(f"per move floor: {result['floor_us']:.0f} us = {result['floor_ratio']:.2f}x the raw round trip (an act "
          f"frame's work: build {work['build_us']:.0f} us at the author, receive {work['receive_us']:.0f} us at the "
          "other end, in process)")
    print(f"step floor: {result['step_floor_us']:.0f} us = {result['step_floor_ratio']:.2f}x the raw round trip "
          f"({STEP_ROUND_TRIPS} round trips; a commit: build {step_work['commit_build_us']:.0f} us, receive "
          f"{step_work['commit_receive_us']:.0f} us; a reveal: build {step_work['reveal_build_us']:.0f} us, receive "
          f"{step_work['reveal_receive_us']:.0f} us)")
    for name, label in (("move", f"per move ({MOVE_GAME})"), ("step", f"simultaneous step ({STEP_GAME})")):
        s = result[name]
        print(f"{label:32} p50 {s['p50_us']:7.1f} us  p99 {s['p99_us']:7.1f} us  (n={s['n']})  "
              f"vs its floor: p50 {result[name + '_ratio_p50']:.2f}x  p99 {result[name + '_ratio_p99']:.2f}x")
    print(f"aim: a move and a step p50 <= {AIMS['move_p50']:g}x, p99 <= {AIMS['move_p99']:g}x their floors")


if __name__ == "__main__":
    main()
