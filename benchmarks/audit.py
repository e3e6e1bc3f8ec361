"""Replay benchmarks, each against a baseline measured in the same run (called by scripts/bench).

- audit speed: frames audited per second (reading, decoding, one Ed25519 verification, the ledger's
  checks and the engine's re-simulation per frame) as a ratio to raw Ed25519 verifications per second;
- seek time: milliseconds to reach a random frame of a 10,000-frame replay after load;
- average bytes per frame of recorded games.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

import engines
from bots.lib import RandomBot
from replays.audit import audit_replay
from replays.crypto import generate_key, sign, verify
from replays.local import record_match, replay_bytes
from replays.reader import parse_replay
from replays.stepping import DEFAULT_K, Stepper

__all__ = ["raw_verify_rate", "audit_figures", "seek_figures", "main"]


def raw_verify_rate(seconds: float = 1.0, size: int = 180) -> float:
    """Ed25519 verifications per second of a frame-sized message (the cryptography library, one core)."""
    key = generate_key()
    public = key.public_key()
    message = bytes(range(256))[:size]
    signature = sign(key, "frame", message)
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(200):
            verify(public, "frame", message, signature)
        n += 200
    return n / (time.perf_counter() - start)


@dataclass(slots=True)
class AuditFigure:
    game: str
    players: int
    frames: int
    seconds: float
    bytes: int

    @property
    def rate(self) -> float:
        return self.frames / self.seconds if self.seconds else 0.0


def audit_figures(game_ids: list[str] | None = None, games: int = 3, seed: int = 0,
                  repeat: int = 3) -> list[AuditFigure]:
    """Record `games` random-bot games per game and player count in memory, then time their audit from
    bytes (best of `repeat`)."""
    out = []
    for game_id in game_ids or list(engines.GAMES):
        game = engines.get(game_id)
        for players in game.players:
            blobs = [replay_bytes(record_match(game_id, RandomBot(), seed + i, players, write=False))
                     for i in range(games)]
            frames = 0
            best = float("inf")
            for _ in range(repeat):
                frames = 0
                start = time.perf_counter()
                for blob in blobs:
                    replay = parse_replay(blob)
                    verdict = audit_replay(replay)
                    if verdict.status != "valid":
                        raise RuntimeError(f"{game_id}: a benchmark replay does not verify: {verdict.reason}")
                    frames += len(replay.frames)
                best = min(best, time.perf_counter() - start)
            out.append(AuditFigure(game_id, players, frames, best, sum(len(b) for b in blobs)))
    return out


class _StallingBot:
    """Prefers one kind of action (e.g. Ploc's swaps) so a game runs long enough for the seek figure."""

    name = "staller"

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.fallback = RandomBot()

    def choose(self, game: Any, state: Any, seat: int, legal: list[str], rng: Any) -> str:
        preferred = [a for a in legal if a.startswith(self.prefix)]
        return rng.choice(preferred) if preferred else self.fallback.choose(game, state, seat, legal, rng)


def long_replay(frames: int = 10_000, game_id: str = "ploc", prefix: str = "swap", seed: int = 0) -> bytes:
    """A replay of `frames` frames (cut off if the game would end later), for the seek figure."""
    game = engines.get(game_id)
    players = game.players[0]
    bots = [_StallingBot(prefix) for _ in range(players)]
    record = record_match(game_id, bots, seed=seed, players=players, write=False, stop_after=frames)
    return replay_bytes(record)


@dataclass(slots=True)
class SeekFigure:
    frames: int
    load_seconds: float
    mean_ms: float
    max_ms: float
    k: int


def seek_figures(frames: int = 10_000, samples: int = 200, k: int = DEFAULT_K, seed: int = 0,
                 blob: bytes | None = None) -> SeekFigure:
    """Load a long replay into a Stepper, then time seeks to random frames (state and view)."""
    blob = blob if blob is not None else long_replay(frames, seed=seed)
    start = time.perf_counter()
    stepper = Stepper(parse_replay(blob), k=k)
    load = time.perf_counter() - start
    rng = random.Random(seed)
    times = []
    for _ in range(samples):
        target = rng.randrange(stepper.count)
        t0 = time.perf_counter()
        stepper.seek(target)
        stepper.view()
        times.append((time.perf_counter() - t0) * 1000)
    return SeekFigure(stepper.count, load, statistics.fmean(times), max(times), k)


def main() -> list[str]:
    raw = raw_verify_rate()
    lines = [f"raw Ed25519 verification: {raw:,.0f} verifications/s"]
    figures = audit_figures()
    total_frames = sum(f.frames for f in figures)
    total_seconds = sum(f.seconds for f in figures)
    for f in figures:
        lines.append(f"audit {f.game:16} {f.players}p {f.rate:>8,.0f} frames/s  ratio to raw verify {f.rate / raw:.2f}"
                     f"  ({f.frames} frames, {f.bytes / f.frames:.0f} bytes/frame)")
    overall = total_frames / total_seconds
    lines.append(f"audit overall {overall:,.0f} frames/s, ratio {overall / raw:.2f} (aim >= 0.7); "
                 f"{sum(f.bytes for f in figures) / total_frames:.0f} bytes/frame on average")
    seek = seek_figures()
    lines.append(f"seek in a {seek.frames}-frame replay: mean {seek.mean_ms:.2f} ms, max {seek.max_ms:.2f} ms "
                 f"(aim <= 50 ms; load {seek.load_seconds:.2f} s, snapshot every {seek.k} engine steps)")
    return lines


if __name__ == "__main__":
    for line in main():
        print(line, flush=True)
