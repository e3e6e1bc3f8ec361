"""A busy laptop on demand: `python tests/busy.py SECONDS [PROCESSES]` keeps PROCESSES busy loops (by
default one per core) spinning for SECONDS, then exits (never longer: each loop watches the clock).
Run the tests that must not fail on timing alone meanwhile (issue 27 item 15), e.g.

    python tests/busy.py 600 & python -m pytest tests/test_fuzz_transport.py ...
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time


def spin(until: float) -> None:
    x = 0
    while time.monotonic() < until:
        for _ in range(100_000):
            x = (x * 31 + 7) & 0xFFFF


def main(argv: list[str]) -> int:
    if not argv or not argv[0].replace(".", "", 1).isdigit():
        print(__doc__, file=sys.stderr)
        return 2
    seconds = min(float(argv[0]), 3600.0)
    count = int(argv[1]) if len(argv) > 1 else (os.cpu_count() or 1)
    until = time.monotonic() + seconds
    loops = [multiprocessing.Process(target=spin, args=(until,), daemon=True) for _ in range(count)]

    def stop(signum: int, frame: object) -> None:   # killed: the loops go too, not only at their deadline
        for loop in loops:
            loop.terminate()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for loop in loops:
        loop.start()
    for loop in loops:
        loop.join(seconds + 5)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
