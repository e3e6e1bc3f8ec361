"""Round-trip latency of the transport against the raw ZeroMQ it is built on, measured in one run.

An echo process serves both a plain pyzmq ROUTER (no encryption, no framing: the baseline) and a
`HostTransport` (CurveZMQ, handshake done, our framing and checks); this process sends to each in
alternating batches so that machine noise hits both alike. Returns numbers; scripts/bench prints
them. Run `python -m benchmarks.transport` for a quick look.
"""

from __future__ import annotations

import multiprocessing
import time
from typing import Any

import zmq

from benchmarks.measure import Figure, libraries
from netplay.identity import Identity, KnownPeers
from netplay.transport import HostTransport, JoinTransport

STOP = b"\x00stop"


def _raw_echo(conn: Any) -> None:
    ctx = zmq.Context()
    raw = ctx.socket(zmq.ROUTER)
    raw.linger = 0
    raw.bind("tcp://127.0.0.1:*")
    conn.send(raw.getsockopt_string(zmq.LAST_ENDPOINT))
    deadline = time.monotonic() + 600       # never outlive a forgotten benchmark
    try:
        while time.monotonic() < deadline:
            if not raw.poll(1000):
                continue
            frames = raw.recv_multipart()
            if frames[-1] == STOP:
                return
            raw.send_multipart(frames)
    finally:
        raw.close()
        ctx.term()


def _transport_echo(conn: Any, max_bytes: int) -> None:
    host = HostTransport(Identity.generate("bench-host"), max_bytes=max_bytes)
    conn.send(host.address)
    deadline = time.monotonic() + 600
    try:
        while time.monotonic() < deadline:
            for event in host.poll(1000):
                if event.kind == "message":
                    if event.data == STOP:
                        return
                    host.send(event.peer, event.data)
    finally:
        host.close()


def _percentile(sorted_values: list[float], q: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def _summary(samples: list[float]) -> dict[str, float]:
    values = sorted(samples)
    return {"p50_us": _percentile(values, 0.50) * 1e6, "p99_us": _percentile(values, 0.99) * 1e6,
            "n": len(values)}


def round_trips(n: int = 2000, size: int = 64, warmup: int = 200, batch: int = 100,
                transport: bool = True) -> dict[str, Any]:
    """p50/p99 round trip in microseconds for raw pyzmq DEALER/ROUTER and for the transport, with the
    ratios transport/raw. `n` round trips each after `warmup`, `size`-byte payloads, two processes.
    `transport=False` measures the raw baseline alone."""
    ctx_mp = multiprocessing.get_context("spawn")
    max_bytes = max(size * 2, 1 << 20)
    pipes = [ctx_mp.Pipe() for _ in range(2 if transport else 1)]
    servers = [ctx_mp.Process(target=_raw_echo, args=(pipes[0][1],), daemon=True)]
    if transport:
        servers.append(ctx_mp.Process(target=_transport_echo, args=(pipes[1][1], max_bytes), daemon=True))
    for server in servers:
        server.start()
    ctx = zmq.Context()
    raw = ctx.socket(zmq.DEALER)
    raw.linger = 0
    join = None
    try:
        if not all(parent.poll(30) for parent, _ in pipes):
            raise RuntimeError("the echo processes did not start within 30 s")
        raw.connect(pipes[0][0].recv())
        if transport:
            join = JoinTransport(Identity.generate("bench-join"), pipes[1][0].recv(), KnownPeers(),
                                 max_bytes=max_bytes)
        payload = bytes(size)

        def raw_once() -> float:
            start = time.perf_counter()
            raw.send(payload)
            if not raw.poll(5000):
                raise RuntimeError("raw echo timed out")
            raw.recv()
            return time.perf_counter() - start

        def transport_once() -> float:
            start = time.perf_counter()
            join.send(payload)
            got = join.poll(5000)
            if not got:
                raise RuntimeError("transport echo timed out")
            return time.perf_counter() - start

        for _ in range(warmup):
            raw_once()
            if join is not None:
                transport_once()
        raw_samples: list[float] = []
        transport_samples: list[float] = []
        while len(raw_samples) < n:
            count = min(batch, n - len(raw_samples))
            raw_samples.extend(raw_once() for _ in range(count))
            if join is not None:
                transport_samples.extend(transport_once() for _ in range(count))
        raw.send(STOP)
        if join is not None:
            join.send(STOP)
            join.poll(50)
    finally:
        if join is not None:
            join.close()
        raw.close()
        ctx.term()
        for server in servers:
            server.join(5)
            if server.is_alive():
                server.kill()
                server.join(5)
    raw_stats = _summary(raw_samples)
    if join is None:
        return {"size": size, "raw": raw_stats}
    transport_stats = _summary(transport_samples)
    return {
        "size": size,
        "raw": raw_stats,
        "transport": transport_stats,
        "ratio_p50": transport_stats["p50_us"] / raw_stats["p50_us"],
        "ratio_p99": transport_stats["p99_us"] / raw_stats["p99_us"],
    }


def raw_round_trip(n: int = 2000, size: int = 64) -> dict[str, float]:
    """Only the baseline: raw pyzmq DEALER/ROUTER, no transport."""
    return round_trips(n, size, warmup=min(200, n // 4), transport=False)["raw"]


AIM = 1.2


def figures(runs: int = 5, quick: bool = False, say=print) -> list[Figure]:
    base = f"raw {libraries()['zmq']} DEALER/ROUTER round trip, no encryption, same payload"
    figs = []
    for size in (64, 4096):
        p50 = Figure("transport", f"transport round trip p50 ({size} B)", "us", baseline=base,
                     aim=AIM if size == 64 else None)
        p99 = Figure("transport", f"transport round trip p99 ({size} B)", "us", baseline=base)
        for _ in range(runs):
            result = round_trips(n=500 if quick else 2000, size=size, warmup=100 if quick else 200)
            p50.add(result["transport"]["p50_us"], result["raw"]["p50_us"])
            p99.add(result["transport"]["p99_us"], result["raw"]["p99_us"])
        say(f"  {p50.line()}")
        say(f"  {p99.line()}")
        figs += [p50, p99]
    return figs


def main() -> None:
    for size in (64, 4096):
        result = round_trips(size=size)
        raw, tr = result["raw"], result["transport"]
        print(f"{size:5d} B  raw p50 {raw['p50_us']:7.1f} us p99 {raw['p99_us']:7.1f} us | transport "
              f"p50 {tr['p50_us']:7.1f} us p99 {tr['p99_us']:7.1f} us | ratio p50 {result['ratio_p50']:.2f} "
              f"p99 {result['ratio_p99']:.2f}")


if __name__ == "__main__":
    main()
