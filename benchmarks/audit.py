"""Replay benchmarks, each against a baseline measured in the same run (called by scripts/bench).

- audit speed: frames audited per second (reading, decoding, one Ed25519 verification, the ledger's
  checks and the engine's re-simulation per frame), on every core the process may use, as a ratio to
  raw Ed25519 verifications per second on one core with the same library (libsodium through PyNaCl);
  also of a joiner's copy, which carries the host's signed certificate of every frame (two signatures
  per frame);
- seek time: milliseconds to reach a random frame of a 10,000-frame replay after load;
- average bytes per frame of recorded games.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from nacl.bindings import crypto_sign_open

import engines
from benchmarks.measure import SHORT, Figure, cold, libraries, record_all, recorded, spread
from bots.lib import RandomBot
from replays import codec
from replays.audit import audit_replay
from replays.certs import sign_cert
from replays.crypto import PREFIX, generate_key, public_bytes, sign
from replays.local import LocalRecord, record_match, replay_bytes
from replays.reader import parse_replay
from replays.stepping import DEFAULT_K, Stepper

__all__ = ["raw_verify_rate", "audit_figures", "seek_figures", "figures", "main"]

#: issue 37's aims: the games without a shared deck audited at one core's raw Ed25519 verification rate or
#: faster on the machine's cores (2x would be the two cores doing nothing but verify: docs/performance.md),
#: and a whole four-seat Catan game (~5,000-7,000 frames, its shuffle proofs included) in at most a second
AIM = 1.0
AIM_CATAN_S = 1.0


def raw_verify_rate(seconds: float = 1.0, size: int = 180) -> float:
    """Ed25519 verifications per second of a frame-sized message, one thread (libsodium, as the audit)."""
    key = generate_key()
    public = public_bytes(key)
    message = bytes(range(256))[:size]
    signature = sign(key, "frame", message)
    # libsodium's own call on the domain-tagged bytes: `replays.crypto.verify` remembers what it verified
    tag = (PREFIX + "frame").encode()
    signed = signature + len(tag).to_bytes(4, "big") + tag + message
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(200):
            crypto_sign_open(signed, public)
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


def record_replays(game_ids: list[str] | None = None, games: int = 3, seed: int = 0,
                   options: dict[str, dict] | None = None) -> dict[tuple[str, int], list[bytes]]:
    """`games` random-bot games per game and player count, recorded in memory."""
    out = {}
    game_ids = game_ids or list(engines.GAMES)
    record_all([(game_id, seed + i, players, (options or {}).get(game_id)) for game_id in game_ids
                for players in engines.get(game_id).players for i in range(games)])
    for game_id in game_ids:
        game = engines.get(game_id)
        for players in game.players:
            out[(game_id, players)] = [recorded(game_id, seed + i, players, (options or {}).get(game_id))
                                       for i in range(games)]
    return out


def joiner_bytes(record: LocalRecord, host: int = 0) -> bytes:
    """The replay as a joiner writes it: every frame followed by the host's certificate of it."""
    key, session = record.ledgers[host].me.key, record.header.session
    return record.header.encode() + b"".join(
        frame.encode() + codec.encode(("cert", host, frame.seq, frame.hash, sign_cert(key, session, frame.seq,
                                                                                      frame.hash)))
        for frame in record.frames)


def record_joiner_replays(game_ids: list[str], games: int = 1, seed: int = 0) -> dict[tuple[str, int], list[bytes]]:
    """Like `record_replays`, as joiners' copies (`joiner_bytes`)."""
    out = {}
    for game_id in game_ids:
        for players in engines.get(game_id).players:
            out[(game_id, players)] = [joiner_bytes(record_match(game_id, RandomBot(), seed + i, players,
                                                                 write=False)) for i in range(games)]
    return out


def audit_blobs(key: tuple[str, int], blobs: list[bytes]) -> AuditFigure:
    """Audit recorded replays from their bytes, once."""
    frames = 0
    cold()   # each timed audit verifies every signature itself, as a fresh `netplay replay verify` does
    start = time.perf_counter()
    for blob in blobs:
        replay = parse_replay(blob)
        verdict = audit_replay(replay)
        if verdict.status != "valid":
            raise RuntimeError(f"{key[0]}: a benchmark replay does not verify: {verdict.reason}")
        frames += len(replay.frames)
    return AuditFigure(key[0], key[1], frames, time.perf_counter() - start, sum(len(b) for b in blobs))


def audit_figures(game_ids: list[str] | None = None, games: int = 3, seed: int = 0,
                  repeat: int = 3) -> list[AuditFigure]:
    """Record `games` random-bot games per game and player count in memory, then time their audit from
    bytes (best of `repeat`)."""
    out = []
    for key, blobs in record_replays(game_ids, games, seed).items():
        out.append(min((audit_blobs(key, blobs) for _ in range(repeat)), key=lambda f: f.seconds))
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


def figures(runs: int = 5, quick: bool = False, say=print) -> list[Figure]:
    """The audit of every game (all its player counts) over `runs` runs, each against one core's raw
    verification rate measured just before it; the seek figure; bytes per frame."""
    lib = libraries()
    # one game of each game and player count (recording them costs more than auditing them: three games
    # each made a full run's audit alone take ~5 minutes); quick: Catan and C&K cut short
    replays = record_replays(games=1, options=SHORT if quick else None)
    base = f"raw Ed25519 verification, one thread, {lib['sodium']}"
    overall = Figure("audit", "audit, all games (frames/s vs one core's raw Ed25519 verify)", "frames/s",
                     baseline=base, lower=False)
    # the games without a shared deck: no shuffle proofs (64 rounds of scalar multiplications each)
    plain = Figure("audit", "audit, the games without a shared deck", "frames/s", baseline=base, aim=AIM, lower=False)
    decked = {key for key, blobs in replays.items() if any(f.kind == "shuffle" for f in parse_replay(blobs[0]).frames)}
    # a joiner's copy of the games without a shared deck: the host's certificate beside every frame
    joined = Figure("audit", "audit, joiners' copies of those (a host certificate per frame)", "frames/s",
                    baseline=base, lower=False)
    catan = Figure("audit", "audit of a whole four-seat Catan replay" + (" (cut short: --quick)" if quick else ""),
                   "s", aim=AIM_CATAN_S, lower=True)
    joiners = record_joiner_replays(sorted({game for game, _ in replays} - {game for game, _ in decked}))
    raws = []
    per_game: dict[tuple[str, int], list[AuditFigure]] = {}
    for _ in range(runs):
        raw = raw_verify_rate(0.3)
        raws.append(raw)
        done = [audit_blobs(key, blobs) for key, blobs in replays.items()]
        for f in done:
            per_game.setdefault((f.game, f.players), []).append(f)
        overall.add(sum(f.frames for f in done) / sum(f.seconds for f in done), raw)
        catan.add(sum(f.seconds for f in done if (f.game, f.players) == ("catan", 4)))
        rest = [f for f in done if (f.game, f.players) not in decked]
        plain.add(sum(f.frames for f in rest) / sum(f.seconds for f in rest), raw)
        copies = [audit_blobs(key, blobs) for key, blobs in joiners.items()]
        joined.add(sum(f.frames for f in copies) / sum(f.seconds for f in copies), raw)
    say(f"raw Ed25519 verification (one thread, {lib['sodium']}): {spread(raws)[0]:,.0f} /s; the audit runs on "
        f"{lib['cores']}")
    for (game, players), figs in per_game.items():
        rates = [f.frames / f.seconds for f in figs]
        med, lo, hi = spread(rates)
        say(f"  audit {game:16} {players}p {med:>8,.0f} frames/s [{lo:,.0f} - {hi:,.0f}]  "
            f"({figs[0].frames} frames, {figs[0].bytes / figs[0].frames:.0f} bytes/frame)")
    total_bytes = sum(figs[0].bytes for figs in per_game.values())
    total_frames = sum(figs[0].frames for figs in per_game.values())
    say(f"  {overall.line()}; {total_bytes / total_frames:.0f} bytes/frame on average")
    say(f"  {plain.line()}")
    say(f"  {joined.line()}")
    say(f"  {catan.line()} ({per_game[('catan', 4)][0].frames} frames)")
    seek = Figure("audit", "seek to a random frame of a long replay (mean)", "ms", aim=50.0, lower=True)
    blob = long_replay(2000 if quick else 10_000)
    for _ in range(runs):
        s = seek_figures(samples=50 if quick else 200, blob=blob)
        seek.add(s.mean_ms)
    say(f"  {seek.line()} ({s.frames} frames, load {s.load_seconds:.2f} s, snapshot every {s.k} engine steps)")
    return [overall, plain, joined, catan, seek]


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
