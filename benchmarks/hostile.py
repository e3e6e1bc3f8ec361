"""Hostile replay files (issue 25), each against an honest game's file audited in the same run: the audit's
seconds per megabyte, and its peak memory as a multiple of the file's size (scripts/bench hostile).

- unknown records: a valid game followed by 1 MiB of 3-byte records of an unknown type (each one a
  note and a printed line before: 147 MB and 349,530 lines for 1 MB);
- one-byte records: a valid game followed by 1 MiB of nil records, the most records a megabyte holds;
- two-byte records: `cc dc` (an int whose byte is an array header's), which the reader walks with its
  scanner before decoding;
- maximum-length chains: tests/data/hostile-max-chain.npr, a 9 KB game whose seats committed hash
  chains of 2^20 values: the audit must walk what is left of each (seconds per file, not per MB).

The baseline is a recorded Catan game (the audit's own, 3 seats; its first 25 rounds with `--quick`): what an
honest megabyte costs.

`--quick` times files of a quarter of the junk (the figures are per MB). Peak memory is measured once per
file (allocations are counted, not timed: it is the same every time), with tracemalloc, which makes an
audit of a million records about ten times slower (~28 s for the three files). `--quick` measures it
instead on two smaller files of each kind (1/32 and 1/16 of the junk) and extrapolates the peak in bytes
linearly to the megabyte file, so that memory growing with the records would still show; as measured,
the peak is the same ~1.4 MB whatever the number of records.
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

from benchmarks.measure import SHORT, Figure, cold, recorded, spread
from replays.audit import audit_bytes

__all__ = ["figures", "hostile_files"]

MAX_CHAIN_FILE = Path(__file__).resolve().parent.parent / "tests" / "data" / "hostile-max-chain.npr"
MB = 1 << 20


RECORDS = {"unknown 3-byte records": b"\x91\xa1x", "one-byte records": b"\xc0",
           "two-byte records (scanned)": b"\xcc\xdc"}


def hostile_files(base: bytes, junk: int = MB) -> dict[str, bytes]:
    """A valid game followed by `junk` bytes of each kind of record."""
    return {name: base + record * (junk // len(record)) for name, record in RECORDS.items()}


def _seconds(data: bytes) -> float:
    cold()   # each audit checks every signature and proof itself, as `netplay replay verify` does
    start = time.process_time()
    audit_bytes(data)
    return time.process_time() - start


def _peak_bytes(data: bytes) -> int:
    tracemalloc.start()
    try:
        audit_bytes(data)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _peak(data: bytes) -> float:
    return _peak_bytes(data) / len(data)


def _peak_extrapolated(base: bytes, record: bytes, size: int) -> float:
    """The peak of a file of `size` bytes (base + junk of `record`), from the peaks with 1/32 and 1/16 of
    the junk, extrapolated linearly (a slope below zero is noise, taken as flat), over `size`."""
    junk = size - len(base)
    small, large = (_peak_bytes(base + record * (junk // n // len(record))) for n in (32, 16))
    slope = max(0.0, (large - small) / (junk / 16 - junk / 32))
    return (large + slope * (junk - junk / 16)) / size


def figures(runs: int = 5, quick: bool = False, say=print) -> list[Figure]:
    honest = recorded("catan", options=SHORT["catan"] if quick else None)   # the audit's own game, when it ran
    base = recorded("loyal-captain", seed=1)
    files = hostile_files(base)
    timed = hostile_files(base, MB // 4) if quick else files    # quick: a quarter of the records, per MB as well
    baseline = f"an honest Catan game's audit, {len(honest) / MB:.2f} MB"
    # an honest megabyte is a few thousand frames checked on every core; a hostile one is up to a million
    # records read one by one: the aim is that it costs at most twice as much (and is linear)
    speed = {name: Figure("hostile", f"audit of {name} (s/MB vs an honest game's)", "s/MB", baseline=baseline,
                          aim=2.0) for name in files}
    memory = {name: Figure("hostile", f"peak memory of {name} (x the file)", "x", aim=4.0, aim_value=True)
              for name in files}
    # issue 37's absolute aims: a megabyte of tiny unknown records in 1.5 s (its peak memory's aim of 4x the
    # file is stricter than the 100 MB), the file of maximum-length chains in 2 s
    absolute = Figure("hostile", "audit of 1 MB of unknown 3-byte records, absolute", "s/MB", aim=1.5)
    chains = Figure("hostile", "audit of a 9 KB file of maximum-length chains (2 seats)", "s", aim=2.0)
    honest_rates = []
    for _ in range(max(1, runs)):
        rate = _seconds(honest) / (len(honest) / MB)
        honest_rates.append(rate)
        for name, data in timed.items():
            per_mb = _seconds(data) / (len(data) / MB)
            speed[name].add(per_mb, rate)
            if name == "unknown 3-byte records":
                absolute.add(per_mb)
        if MAX_CHAIN_FILE.exists():
            chains.add(_seconds(MAX_CHAIN_FILE.read_bytes()))
    for name, data in files.items():
        memory[name].add(_peak_extrapolated(base, RECORDS[name], len(data)) if quick else _peak(data))
    say(f"honest game: {spread(honest_rates)[0]:.2f} s/MB (CPU time)"
        + ("; quick: s/MB from files of 1/4 MiB of junk, peak memory extrapolated from 1/32 and 1/16 MiB to 1 MiB"
           if quick else ""))
    out = [*speed.values(), absolute, *memory.values()] + ([chains] if chains.values else [])
    for fig in out:
        say(f"  {fig.line()}")
    return out


if __name__ == "__main__":
    figures(runs=2, quick=True)
