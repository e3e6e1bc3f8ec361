"""Hostile replay files (issue 25), each against an honest game's file audited in the same run: the audit's
seconds per megabyte, and its peak memory as a multiple of the file's size (scripts/bench hostile).

- unknown records: a valid game followed by 1 MiB of 3-byte records of an unknown type (each one a
  note and a printed line before: 147 MB and 349,530 lines for 1 MB);
- one-byte records: a valid game followed by 1 MiB of nil records, the most records a megabyte holds;
- two-byte records: `cc dc` (an int whose byte is an array header's), which the reader walks with its
  scanner before decoding;
- maximum-length chains: tests/data/hostile-max-chain.npr, a 9 KB game whose seats committed hash
  chains of 2^20 values: the audit must walk what is left of each (seconds per file, not per MB).

The baseline is a recorded Catan game (about 1 MB, 4,000 frames): what an honest megabyte costs.
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

from benchmarks.measure import Figure, spread
from bots.lib import RandomBot
from replays.audit import audit_bytes
from replays.local import record_match, replay_bytes

__all__ = ["figures", "hostile_files"]

MAX_CHAIN_FILE = Path(__file__).resolve().parent.parent / "tests" / "data" / "hostile-max-chain.npr"
MB = 1 << 20


def hostile_files(base: bytes) -> dict[str, bytes]:
    return {"unknown 3-byte records": base + b"\x91\xa1x" * (MB // 3),
            "one-byte records": base + b"\xc0" * MB,
            "two-byte records (scanned)": base + b"\xcc\xdc" * (MB // 2)}


def _seconds(data: bytes) -> float:
    start = time.process_time()
    audit_bytes(data)
    return time.process_time() - start


def _peak(data: bytes) -> float:
    tracemalloc.start()
    try:
        audit_bytes(data)
        return tracemalloc.get_traced_memory()[1] / len(data)
    finally:
        tracemalloc.stop()


def figures(runs: int = 5, quick: bool = False, say=print) -> list[Figure]:
    honest = replay_bytes(record_match("catan", RandomBot(), seed=1, write=False,
                                       options={"max_rounds": "25"} if quick else None))
    base = replay_bytes(record_match("loyal-captain", RandomBot(), seed=1, write=False))
    files = hostile_files(base)
    baseline = f"an honest Catan game's audit, {len(honest) / MB:.2f} MB"
    # an honest megabyte is a few thousand frames checked on every core; a hostile one is up to a million
    # records read one by one: the aim is that it costs at most twice as much (and is linear)
    speed = {name: Figure("hostile", f"audit of {name} (s/MB vs an honest game's)", "s/MB", baseline=baseline,
                          aim=2.0) for name in files}
    memory = {name: Figure("hostile", f"peak memory of {name} (x the file)", "x", aim=4.0, aim_value=True)
              for name in files}
    chains = Figure("hostile", "audit of a 9 KB file of maximum-length chains (2 seats)", "s")
    honest_rates = []
    for _ in range(max(1, runs if not quick else 2)):
        rate = _seconds(honest) / (len(honest) / MB)
        honest_rates.append(rate)
        for name, data in files.items():
            speed[name].add(_seconds(data) / (len(data) / MB), rate)
        if MAX_CHAIN_FILE.exists():
            chains.add(_seconds(MAX_CHAIN_FILE.read_bytes()))
    for name, data in files.items():
        memory[name].add(_peak(data))
    say(f"honest game: {spread(honest_rates)[0]:.2f} s/MB (CPU time)")
    out = [*speed.values(), *memory.values()] + ([chains] if chains.values else [])
    for fig in out:
        say(f"  {fig.line()}")
    return out


if __name__ == "__main__":
    figures(runs=2, quick=True)
