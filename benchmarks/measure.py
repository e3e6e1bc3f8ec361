"""What every benchmark shares: a figure measured over several runs, each run against a baseline
measured in that same run, reported as the median with its spread (min - max), and the libraries the
baselines were measured with.

Absolute times on a shared machine move from run to run; a ratio to a baseline taken in the same run
moves much less, and the median of several runs (with the spread shown) says how far to trust it.
"""

from __future__ import annotations

import contextlib
import os
import platform
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["Figure", "spread", "fmt_spread", "fmt_value", "percentile", "libraries", "usable_cores", "cpu_seconds",
           "recorded", "record_all", "netplay_home", "SHORT"]


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def spread(values: Sequence[float]) -> tuple[float, float, float]:
    """(median, min, max)."""
    return statistics.median(values), min(values), max(values)


def _number(value: float, unit: str) -> tuple[str, str]:
    """(number, unit) as shown: microseconds past a millisecond in ms, rates in thousands."""
    if unit == "us" and value >= 1000:
        return f"{value / 1000:.2f}", "ms"
    if unit == "us":
        return f"{value:.0f}", "us"
    if unit == "ms":
        return (f"{value:.1f}" if abs(value) < 100 else f"{value:.0f}"), "ms"
    if unit.endswith("/s"):
        return f"{value / 1000:.1f}k", unit
    return f"{value:.3g}", unit


def fmt_value(value: float, unit: str) -> str:
    number, shown = _number(value, unit)
    return f"{number} {shown}"


def fmt_spread(values: Sequence[float], unit: str) -> str:
    """`median [min - max] unit`, all in the unit the median is shown in."""
    med, lo, hi = spread(values)
    _, shown = _number(med, unit)
    if unit == "us" and shown == "ms":
        parts = [f"{v / 1000:.2f}" for v in (med, lo, hi)]
    elif unit == "us":
        parts = [f"{v:.0f}" for v in (med, lo, hi)]
    else:
        parts = [_number(v, unit)[0] for v in (med, lo, hi)]
    return f"{parts[0]} [{parts[1]} - {parts[2]}] {shown}"


def fmt_ratio(value: float) -> str:
    return f"{value:.4f}" if value < 0.1 else f"{value:.2f}"


@dataclass(slots=True)
class Figure:
    """One figure of `group` over several runs: `values` (in `unit`) and, where it has a baseline,
    `ratios` (the figure over the baseline of the same run). `aim` is the ratio (or, without a
    baseline, the value) to reach; `lower` says whether lower is better."""

    group: str
    name: str
    unit: str
    values: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    baseline: str = ""
    aim: float | None = None
    lower: bool = True
    #: the aim is about the value itself (e.g. actions/s), not the ratio to the baseline
    aim_value: bool = False

    def add(self, value: float, base: float | None = None) -> None:
        self.values.append(value)
        if base is not None:
            self.ratios.append(value / base)

    @property
    def key(self) -> list[float]:
        """What the aim is about: the ratios, or the values (no baseline, or an aim in the figure's unit)."""
        return self.ratios if self.ratios and not self.aim_value else self.values

    def met(self) -> bool | None:
        if self.aim is None or not self.key:
            return None
        median = statistics.median(self.key)
        return median <= self.aim if self.lower else median >= self.aim

    def line(self) -> str:
        """`name: median [min - max] ...` as the summary shows it."""
        runs = len(self.values)
        text = fmt_spread(self.values, self.unit)
        if self.ratios:
            ratio = spread(self.ratios)
            text = f"{fmt_ratio(ratio[0])}x [{fmt_ratio(ratio[1])} - {fmt_ratio(ratio[2])}]   ({text})"
        aim = ""
        if self.aim is not None:
            sign = "<=" if self.lower else ">="
            shown = f"{self.aim:g}x" if self.key is self.ratios else fmt_value(self.aim, self.unit)
            aim = f"   aim {sign} {shown}: {'met' if self.met() else 'NOT met'}"
        return f"{self.name}: {text}{aim}   n={runs}"


@contextlib.contextmanager
def netplay_home(path: str):
    """NETPLAY_HOME set to `path` for a session run in this process (its keys, pins and resume records go
    there, not to the user's own), and put back as it was afterwards."""
    before = os.environ.get("NETPLAY_HOME")
    os.environ["NETPLAY_HOME"] = path
    try:
        yield path
    finally:
        if before is None:
            os.environ.pop("NETPLAY_HOME", None)
        else:
            os.environ["NETPLAY_HOME"] = before


def cold() -> None:
    """Forget what this process has verified and multiplied (`replays.crypto.verify`'s memo of good signatures,
    `replays.curve.mul`'s of products): a figure then times the checks themselves, as a fresh process does
    (`netplay replay verify`, a peer checking another's shuffle), not the lookups of a process that did them."""
    from replays.crypto import forget_verified
    from replays.curve import forget_products

    forget_verified()
    forget_products()


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and of its children that have ended (the echo servers,
    joiners and scenes the benchmarks start): what a group costs whatever else the machine is doing."""
    try:
        import resource
    except ImportError:         # not on a Unix: this process only
        import time
        return time.process_time()
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


#: --quick: Catan and C&K games cut short (the groups that record them: audit, hostile, idle)
SHORT = {"catan": {"max_rounds": "25"}, "catan-ck": {"max_rounds": "15"}}
_recorded: dict[tuple, bytes] = {}


def _key(game_id: str, seed: int, players: int | None, options: dict | None) -> tuple:
    import engines
    return game_id, seed, players or engines.get(game_id).players[0], tuple(sorted((options or {}).items()))


def _record(key: tuple) -> bytes:
    from bots.lib import RandomBot
    from replays.local import record_match, replay_bytes
    game_id, seed, players, options = key
    return replay_bytes(record_match(game_id, RandomBot(), seed, players, options=dict(options), write=False))


def recorded(game_id: str, seed: int = 0, players: int | None = None, options: dict | None = None) -> bytes:
    """The replay of a random-bot game recorded in memory, kept for the rest of the run: the groups that
    need the same game (the audit, the hostile files' honest baseline, the viewer at rest) record it once."""
    key = _key(game_id, seed, players, options)
    if key not in _recorded:
        _recorded[key] = _record(key)
    return _recorded[key]


def record_all(games: list[tuple[str, int, int | None, dict | None]]) -> None:
    """Record the games `recorded` does not hold yet (game, seed, players, options), side by side in one
    process per usable core: setting up the audit's corpus is not measured, and it is most of its time."""
    keys = list(dict.fromkeys(key for key in (_key(*game) for game in games) if key not in _recorded))
    if len(keys) < 2 or usable_cores() < 2:
        for key in keys:
            _recorded[key] = _record(key)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(min(usable_cores(), len(keys)), mp_context=multiprocessing.get_context("spawn")) as pool:
        for key, data in zip(keys, pool.map(_record, keys), strict=True):
            _recorded[key] = data


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def libraries() -> dict[str, str]:
    """The versions behind the baselines (and the code measured against them)."""
    import msgpack
    import nacl
    import zmq
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "zmq": f"pyzmq {zmq.pyzmq_version()} (libzmq {zmq.zmq_version()})",
        "sodium": f"libsodium through PyNaCl {nacl.__version__}",
        "msgpack": f"msgpack {'.'.join(str(v) for v in msgpack.version)}",
        "cores": f"{usable_cores()} usable core(s) of {os.cpu_count()}",
    }
