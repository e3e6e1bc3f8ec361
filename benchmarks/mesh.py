"""The cost of the joiners' direct links (the mesh) against the star they replaced, measured in the same
run: four peers on loopback (a host and three joiner processes) play Toy Deck (tests/support/deckgame.py, moves
and secret deals) twice, once with every pair of joiners linked directly and once with no joiner
reachable by another, so that everything goes through the host's relay as in protocol 2's star.

For each topology the host times:
- a move: from the moment its bot has chosen an `act` until all three joiners have acknowledged it;
- a deal: from the moment it is awaited until its last strip is accepted (three strips from three
  other peers in seat order, each checked);
and every process counts the messages and bytes it sends (to the host, to the joiners directly), so the
mesh's extra traffic per frame is shown beside its latency. Reported against the raw ZeroMQ round trip
measured in the same run."""

from __future__ import annotations

import multiprocessing
import os
import statistics
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


def _joiner(address: str, home: str, games: int, direct: bool, out: Any) -> None:
    """One joiner process: plays, then reports what it sent (messages and bytes, to the host and direct)."""
    os.environ["NETPLAY_HOME"] = home
    from support.deckgame import DECK_GAME
    from support.game_peer import DeckBot

    import engines
    from netplay.identity import Identity
    from netplay.joiner import JoinSession
    from netplay.protocol import lobby

    class Unreachable(JoinSession):
        def _listen(self) -> int:
            return 0      # no port for direct links: every other joiner reaches this one through the host

    if not direct:
        # no joiner can reach another: the 5 s each waits for its direct links before it says `start` would
        # only delay the game (it is not measured), 5 s a run
        lobby.MESH_S = 0.0

    engines.GAMES[DECK_GAME.id] = DECK_GAME
    session = (JoinSession if direct else Unreachable)(Identity.generate("bench-joiner"),
                                                       DeckBot("random", games=games), address,
                                                       replay_dir=os.path.join(home, "replays"), fsync=False)
    sent = {"host_msgs": 0, "host_bytes": 0, "direct_msgs": 0, "direct_bytes": 0}
    send = session._send

    def counted(to: bytes, data: bytes) -> None:
        where = "host" if session.transport is not None and to == session.transport.host_key else "direct"
        sent[f"{where}_msgs"] += 1
        sent[f"{where}_bytes"] += len(data)
        send(to, data)
    session._send = counted
    outcome = session.run(max_seconds=600)
    out.put((sent, outcome.code if outcome is not None else None))


def measure(direct: bool, games: int = 2) -> dict[str, Any]:
    """One session of `games` games of Toy Deck with four peers, direct links on or off."""
    from support.deckgame import DECK_GAME
    from support.game_peer import DeckBot

    import engines
    from netplay.host import HostSession
    from netplay.identity import Identity

    engines.GAMES[DECK_GAME.id] = DECK_GAME

    class TimedBot(DeckBot):
        chosen_at = 0.0

        def decide(self, game, state, seat, legal):
            action = super().decide(game, state, seat, legal)
            self.chosen_at = time.perf_counter()
            return action

    bot = TimedBot("random", games=games)
    with tempfile.TemporaryDirectory(prefix="netplay-bench-") as tmp, netplay_home(os.path.join(tmp, "home")):
        host = HostSession(Identity.generate("bench-host"), bot, DECK_GAME.id, players=PEERS,
                           replay_dir=os.path.join(tmp, "host"), fsync=False)
        moves: list[float] = []
        deals: list[float] = []
        started: dict[int, float] = {}
        acked: dict[int, set[int]] = {}
        deal = {"start": None}
        frames = {"n": 0}
        host_sent = {"msgs": 0, "bytes": 0}
        send = host._send

        def counted(to: bytes, data: bytes) -> None:
            host_sent["msgs"] += 1
            host_sent["bytes"] += len(data)
            send(to, data)
        host._send = counted

        def on_frame(frame, own: bool) -> None:
            now = time.perf_counter()
            frames["n"] += 1
            ledger = host.transcript.ledger
            if own and frame.kind == "act":
                started[frame.seq] = bot.chosen_at
                acked[frame.seq] = set()
            if frame.kind == "strip" and deal["start"] is not None and ledger.last_deal is not None and \
                    ledger.frames[-1] is frame and ledger.decks[ledger.last_deal[0]].current is None:
                deals.append(now - deal["start"])
                deal["start"] = None
            nxt = ledger.awaited()
            if host.game.awaiting(ledger.state).kind == "chance" and nxt is not None and nxt[0] == "strip" \
                    and deal["start"] is None:
                deal["start"] = now

        def on_ack(seat: int, seq: int) -> None:
            if seq in acked:
                acked[seq].add(seat)
                if len(acked[seq]) == PEERS - 1:
                    moves.append(time.perf_counter() - started.pop(seq))
                    del acked[seq]

        host.on_frame, host.on_ack = on_frame, on_ack
        ctx = multiprocessing.get_context("spawn")
        out = ctx.Queue()
        procs = [ctx.Process(target=_joiner, args=(f"{host.address}/{host.identity.fingerprint}",
                                                   os.path.join(tmp, f"j{i}"), games, direct, out))
                 for i in range(PEERS - 1)]
        for p in procs:
            p.start()
        outcome = host.run(max_seconds=600)
        reports = [out.get(timeout=60) for _ in procs]
        for p in procs:
            p.join(30)
            if p.is_alive():
                p.kill()
    if outcome is None or outcome.code != 0 or any(code != 0 for _, code in reports):
        raise RuntimeError(f"the benchmark game did not end normally: {outcome and outcome.message}")
    joiners = [sent for sent, _ in reports]
    if not direct and any(j["direct_msgs"] for j in joiners):
        raise RuntimeError("the star run sent messages over direct links: it would measure the mesh")
    if direct and not any(j["direct_msgs"] for j in joiners):
        raise RuntimeError("the mesh run sent nothing over direct links: it would measure the star")
    n = max(1, frames["n"])
    return {
        "moves": moves, "deals": deals, "frames": frames["n"],
        "host_msgs_per_frame": host_sent["msgs"] / n, "host_bytes_per_frame": host_sent["bytes"] / n,
        "joiner_host_msgs_per_frame": sum(j["host_msgs"] for j in joiners) / n,
        "joiner_direct_msgs_per_frame": sum(j["direct_msgs"] for j in joiners) / n,
        "joiner_bytes_per_frame": sum(j["host_bytes"] + j["direct_bytes"] for j in joiners) / n,
    }


def figures(runs: int = 3, quick: bool = False, say=print) -> list[Figure]:
    """Per move and per deal, p50, mesh and star, over `runs` runs (each run plays both topologies, in
    alternating order, against the raw round trip measured in that run), and the traffic per frame."""
    base = f"raw {libraries()['zmq']} DEALER/ROUTER round trip, 256 B, no encryption"
    figs = {
        ("move", True): Figure("mesh", "per move, 4 peers, mesh (act until all 3 acks), p50", "us", baseline=base),
        ("move", False): Figure("mesh", "per move, 4 peers, star (no direct links), p50", "us", baseline=base),
        ("deal", True): Figure("mesh", "one deal, 4 peers, mesh, p50", "us", baseline=base),
        ("deal", False): Figure("mesh", "one deal, 4 peers, star, p50", "us", baseline=base),
    }
    ratio_move = Figure("mesh", "mesh / star, per move p50", "x")
    ratio_deal = Figure("mesh", "mesh / star, per deal p50", "x")
    traffic: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
    for run in range(runs):
        raw_us = bench_transport.raw_round_trip(n=300 if quick else 1000, size=256)["p50_us"]
        p50: dict[tuple[str, bool], float] = {}
        for direct in ((True, False) if run % 2 == 0 else (False, True)):
            result = measure(direct, games=1 if quick else 2)
            traffic[direct].append(result)
            for kind in ("move", "deal"):
                samples = result[f"{kind}s"]
                if samples:
                    p50[(kind, direct)] = percentile(samples, 0.5) * 1e6
                    figs[(kind, direct)].add(p50[(kind, direct)], raw_us)
        if ("move", True) in p50 and ("move", False) in p50:
            ratio_move.add(p50[("move", True)] / p50[("move", False)])
        if ("deal", True) in p50 and ("deal", False) in p50:
            ratio_deal.add(p50[("deal", True)] / p50[("deal", False)])
    for fig in (*figs.values(), ratio_move, ratio_deal):
        if fig.values:
            say(f"  {fig.line()}")
    for direct, results in traffic.items():
        name = "mesh" if direct else "star"

        def med(key: str, results=results) -> float:
            return statistics.median(r[key] for r in results)
        say(f"  {name}: per frame the host sends {med('host_msgs_per_frame'):.1f} messages "
            f"({med('host_bytes_per_frame'):,.0f} B); the three joiners send "
            f"{med('joiner_host_msgs_per_frame'):.1f} to the host and {med('joiner_direct_msgs_per_frame'):.1f} "
            f"directly ({med('joiner_bytes_per_frame'):,.0f} B)")
    return [fig for fig in (*figs.values(), ratio_move, ratio_deal) if fig.values]


if __name__ == "__main__":
    figures(runs=1, quick=True)
