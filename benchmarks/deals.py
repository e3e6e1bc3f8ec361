"""The shared secret deck on the wire: four peers on loopback deal Toy Deck (tests/support/deckgame.py) with
bots; the host times every deal from the moment it is awaited (the frame before its first strip is
in) to the moment its last strip is accepted, i.e. three strips from three other peers in seat order,
each checked by the host. Reported against the raw ZeroMQ round trip measured in the same run, with
the bytes per shuffle and per deal, and the audit's speed on the game's replay."""

from __future__ import annotations

import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from benchmarks import transport as bench_transport  # noqa: E402
from benchmarks.measure import Figure, cold, libraries, netplay_home  # noqa: E402


def _joiner(address: str, home: str, games: int) -> None:
    os.environ["NETPLAY_HOME"] = home
    from support.deckgame import DECK_GAME
    from support.game_peer import DeckBot

    import engines
    from netplay.identity import Identity
    from netplay.joiner import JoinSession

    engines.GAMES[DECK_GAME.id] = DECK_GAME
    session = JoinSession(Identity.generate("bench-joiner"), DeckBot("random", games=games), address,
                          replay_dir=os.path.join(home, "replays"), fsync=False)
    session.run(max_seconds=600)


def measure(games: int = 3) -> dict:
    from support.deckgame import DECK_GAME
    from support.game_peer import DeckBot

    import engines
    from netplay.host import HostSession
    from netplay.identity import Identity
    from replays.audit import audit_file

    engines.GAMES[DECK_GAME.id] = DECK_GAME
    with tempfile.TemporaryDirectory() as tmp, netplay_home(os.path.join(tmp, "home")):
        host = HostSession(Identity.generate("bench-host"), DeckBot("random", games=games), DECK_GAME.id, players=4,
                           replay_dir=os.path.join(tmp, "host"), fsync=False)
        deals: list[float] = []
        sizes = {"shuffle": [], "strip": []}
        state = {"start": None}

        def on_frame(frame, own) -> None:
            now = time.perf_counter()
            size = len(frame.encode())
            if frame.kind in sizes:
                sizes[frame.kind].append(size)
            if frame.kind == "strip":
                ledger = host.transcript.ledger
                if state["start"] is not None and ledger.last_deal is not None and \
                        ledger.frames[-1] is frame and ledger.decks[ledger.last_deal[0]].current is None:
                    deals.append(now - state["start"])
                    state["start"] = None
            waiting = host.game.awaiting(host.transcript.ledger.state)
            nxt = host.transcript.ledger.awaited()
            if waiting.kind == "chance" and nxt is not None and nxt[0] == "strip" and state["start"] is None:
                state["start"] = now
        host.on_frame = on_frame
        ctx = multiprocessing.get_context("spawn")
        procs = [ctx.Process(target=_joiner, args=(f"{host.address}/{host.identity.fingerprint}",
                                                   os.path.join(tmp, f"j{i}"), games)) for i in range(3)]
        for p in procs:
            p.start()
        host.run(max_seconds=600)
        for p in procs:
            p.join(30)
        files = sorted(Path(tmp, "host").glob("*.npr"))
        cold()   # the host verified these frames as it played: the audit times its own checks
        started = time.perf_counter()
        frames = 0
        for path in files:
            verdict = audit_file(path, {DECK_GAME.id: DECK_GAME})
            frames += verdict.frames
            assert verdict.status == "valid", verdict.reason
        audit_s = time.perf_counter() - started
    return {"deals": deals, "sizes": sizes, "audit_fps": frames / audit_s if audit_s else 0.0, "frames": frames}


def figures(runs: int = 3, quick: bool = False, say=print) -> list[Figure]:
    """A deal's p50 over `runs` runs (each a session of a few games), against the raw round trip of
    the same run; the aim: at most 4 raw round trips + 3 ms."""
    base = f"raw {libraries()['zmq']} DEALER/ROUTER round trip, 256 B, no encryption"
    deal = Figure("deals", "one deal, 4 peers, p50 (3 strips in seat order, each checked)", "ms", baseline=base)
    excess = Figure("deals", "one deal p50 minus 4 raw round trips", "ms", aim=3.0)
    audit = Figure("deals", "audit of the replays with deals", "frames/s", lower=False)
    sizes: dict[str, list[int]] = {}
    for _ in range(runs):
        raw_ms = bench_transport.raw_round_trip(n=300 if quick else 1000, size=256)["p50_us"] / 1000
        result = measure(games=1 if quick else 2)
        p50 = statistics.median(result["deals"]) * 1000
        deal.add(p50, raw_ms)
        excess.add(p50 - 4 * raw_ms)
        audit.add(result["audit_fps"])
        for kind, values in result["sizes"].items():
            sizes.setdefault(kind, []).extend(values)
    for fig in (deal, excess, audit):
        say(f"  {fig.line()}")
    say("  bytes per frame: " + ", ".join(f"{kind} {statistics.median(v):,.0f}" for kind, v in sizes.items() if v))
    if sizes.get("strip"):
        say(f"  bytes per deal (the other seats' strips, 3 of 4): {3 * statistics.median(sizes['strip']):,.0f}")
    return [deal, excess, audit]


def main() -> None:
    raw = bench_transport.raw_round_trip(n=1000, size=256)
    raw_p50 = statistics.median(raw) if isinstance(raw, list) else raw["p50_us"] / 1e6
    result = measure()
    deals = sorted(result["deals"])
    p50 = statistics.median(deals)
    print(f"raw pyzmq DEALER/ROUTER round trip (256 B): p50 {raw_p50 * 1e6:8.1f} us")
    print(f"one deal, 4 peers (3 strips, each checked by the host): p50 {p50 * 1e3:6.2f} ms "
          f"(n={len(deals)}) = {p50 / raw_p50:.1f}x the raw round trip; aim: 4 round trips + 3 ms = "
          f"{(4 * raw_p50 + 0.003) * 1e3:.2f} ms")
    for kind, values in result["sizes"].items():
        if values:
            print(f"bytes per {kind} frame: {statistics.median(values):,.0f}")
    if result["sizes"]["strip"]:
        print(f"bytes per deal (3 strips): {3 * statistics.median(result['sizes']['strip']):,.0f}")
    print(f"audit of the replays with deals: {result['audit_fps']:,.0f} frames/s ({result['frames']} frames)")


if __name__ == "__main__":
    main()
