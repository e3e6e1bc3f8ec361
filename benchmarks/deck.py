"""Costs of the shared secret deck (replays/deck.py), each against one scalar multiplication measured in
the same run, so the figures compare across machines: the ratio is what the code costs, the absolute
time what this machine makes of it.

Run: `python -m benchmarks.deck` or `python benchmarks/deck.py` (from the project's venv); `--quick`
runs fewer repetitions. Target (docs/performance.md): a 25-card shuffle with its proof under 0.5 s per seat.
"""

from __future__ import annotations

import hashlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the project importable without installing it
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nacl.bindings import crypto_scalarmult_ed25519_noclamp  # noqa: E402

from benchmarks.measure import Figure, cold, libraries  # noqa: E402
from netplay.wire import MAX_FRAME as MAX_FRAME_BYTES  # noqa: E402
from replays import deck as D  # noqa: E402
from replays.codec import encode  # noqa: E402
from replays.curve import scalar_from_wide  # noqa: E402

SESSION = bytes(range(16))
SEED = hashlib.sha256(b"bench seed").digest()
DEV_POOL = tuple(sorted([0] * 14 + [1] * 5 + [2] * 2 + [3] * 2 + [4] * 2))
PROGRESS_POOL = tuple(sorted(i % 9 for i in range(18)))


def timed(fn: Callable[[], object], runs: int, inner: int = 1) -> tuple[float, float, float]:
    """(median, min, max) seconds per call of fn, over `runs` timings of `inner` calls each."""
    times = []
    for _ in range(runs):
        total = 0.0
        for _ in range(inner):
            cold()   # every product and signature computed afresh, as by the seat that checks a shuffle once
            start = time.perf_counter()
            fn()
            total += time.perf_counter() - start
        times.append(total / inner)
    return statistics.median(times), min(times), max(times)


def fmt(seconds: float) -> str:
    if seconds >= 0.1:
        return f"{seconds * 1e3:.0f} ms"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def row(label: str, figures: tuple[float, float, float], base: float) -> None:
    med, lo, hi = figures
    spread = f"[{fmt(lo)} – {fmt(hi)}]"
    print(f"  {label:<42} {fmt(med):>10}  {spread:<24} {med / base:>8.1f} × mult")


def shuffle_figures(pool: tuple[int, ...], runs: int, base: float) -> None:
    n = len(pool)
    # a shuffle by the second seat: its input is already a shuffled deck, as in a real round
    plain = D.card_points(SESSION, "dev", 0, pool)
    first = D.shuffle(hashlib.sha256(b"seat 0").digest(), SESSION, 0, "dev", 0, plain)
    deck_in = first.cards
    frame = D.shuffle(SEED, SESSION, 1, "dev", 0, deck_in)
    wire = frame.proof.to_wire()
    assert D.check_shuffle(SESSION, 1, "dev", 0, deck_in, frame.public, list(frame.cards), wire) is None
    row(f"shuffle {n} cards + proof: build", timed(lambda: D.shuffle(SEED, SESSION, 1, "dev", 0, deck_in), runs),
        base)
    row(f"shuffle {n} cards + proof: verify",
        timed(lambda: D.check_shuffle(SESSION, 1, "dev", 0, deck_in, frame.public, list(frame.cards), wire), runs),
        base)
    body = encode(["dev", 0, frame.public, list(frame.cards), wire])
    proof_bytes = len(encode(wire))
    print(f"  {'shuffle ' + str(n) + ' cards: body / proof (msgpack)':<42} {len(body):>8} B / {proof_bytes} B")


def largest_deck_in_a_frame() -> int:
    """The largest deck whose shuffle body (plus ~300 bytes of frame fields) fits the frame cap."""
    def body_size(n: int) -> int:
        proof = [[bytes(32 * (n + 1))] * D.SHUFFLE_ROUNDS, [bytes(32 + n)] * D.SHUFFLE_ROUNDS]
        return len(encode(["development", 0, bytes(32), [bytes(32)] * n, proof])) + 300
    return max(n for n in range(1, D.MAX_CARDS + 1) if body_size(n) <= MAX_FRAME_BYTES)


def figures(runs: int = 5, quick: bool = False, say=print) -> list[Figure]:
    """Shuffles of 25 cards (Catan's development deck) and 18 (a C&K progress deck) with their proofs
    (build, check) and a strip's check, each run against one scalar multiplication timed just before
    it (single thread; the shuffle uses every usable core); then the bytes of a shuffle's body."""
    lib = libraries()
    base = f"one scalar multiplication, one thread, {lib['sodium']}"
    key = scalar_from_wide(hashlib.sha512(b"k").digest())
    point = D.card_points(SESSION, "dev", 0, DEV_POOL)[0]
    decks = []   # (pool, build figure, check figure, input deck, frame, proof on the wire)
    for pool in (DEV_POOL, PROGRESS_POOL):
        n = len(pool)
        plain = D.card_points(SESSION, "dev", 0, pool)
        deck_in = D.shuffle(hashlib.sha256(b"seat 0").digest(), SESSION, 0, "dev", 0, plain).cards
        frame = D.shuffle(SEED, SESSION, 1, "dev", 0, deck_in)
        build = Figure("deck", f"shuffle {n} cards + proof: build (per seat)", "ms", baseline=base,
                       **({"aim": 500.0, "aim_value": True} if n == 25 else {}))
        check = Figure("deck", f"shuffle {n} cards + proof: check", "ms", baseline=base)
        decks.append((pool, build, check, deck_in, frame, frame.proof.to_wire()))
    strip_check = Figure("deck", "strip: check", "us", baseline=base)
    plain = D.card_points(SESSION, "dev", 0, DEV_POOL)
    public = D.deck_public(SEED, SESSION, 0, "dev", 0)
    value = D.shuffle(SEED, SESSION, 0, "dev", 0, plain).cards[4]
    off = D.strip(SEED, SESSION, 0, "dev", 0, 4, value)
    for _ in range(runs):
        # libsodium's own call: `replays.curve.mul` would answer the same product from its memo
        mult = timed(lambda: crypto_scalarmult_ed25519_noclamp(key, point), runs=3, inner=100)[0]
        for _pool, build, check, deck_in, frame, wire in decks:
            built = timed(lambda d=deck_in: D.shuffle(SEED, SESSION, 1, "dev", 0, d), 1)[0]
            checked = timed(lambda d=deck_in, f=frame, w=wire: D.check_shuffle(SESSION, 1, "dev", 0, d, f.public,
                                                                               list(f.cards), w), 1)[0]
            build.add(built * 1e3, mult * 1e3)
            check.add(checked * 1e3, mult * 1e3)
        strip_check.add(timed(lambda: D.check_strip(SESSION, 0, "dev", 0, 4, public, value, off.value, off.proof), 1,
                              inner=20)[0] * 1e6, mult * 1e6)
    say(f"  (on {lib['cores']})")
    out = [fig for _p, build, check, *_ in decks for fig in (build, check)] + [strip_check]
    for fig in out:
        say(f"  {fig.line()}")
    for pool, _b, _c, _d, frame, wire in decks:
        body = encode(["dev", 0, frame.public, list(frame.cards), wire])
        say(f"  shuffle {len(pool)} cards: {len(body):,} B a body, of which {len(encode(wire)):,} B proof (msgpack)")
    return out


def main(argv: list[str] | None = None) -> None:
    quick = "--quick" in (sys.argv[1:] if argv is None else argv)
    runs = 3 if quick else 7
    key = scalar_from_wide(hashlib.sha512(b"k").digest())
    point = D.card_points(SESSION, "dev", 0, DEV_POOL)[0]
    base_figures = timed(lambda: crypto_scalarmult_ed25519_noclamp(key, point), runs=15, inner=200)
    base = base_figures[0]
    print(f"deck benchmarks: median [min – max] of {runs} runs (baseline: 15 × 200), ratio to one scalar "
          "multiplication")
    row("scalar multiplication (baseline)", base_figures, base)
    for pool in (DEV_POOL, PROGRESS_POOL):
        shuffle_figures(pool, runs, base)

    deck_in = D.card_points(SESSION, "dev", 0, DEV_POOL)
    shuffled = D.shuffle(SEED, SESSION, 0, "dev", 0, deck_in).cards
    public = D.deck_public(SEED, SESSION, 0, "dev", 0)
    value = shuffled[4]
    off = D.strip(SEED, SESSION, 0, "dev", 0, 4, value)
    assert D.check_strip(SESSION, 0, "dev", 0, 4, public, value, off.value, off.proof) is None
    row("strip: build", timed(lambda: D.strip(SEED, SESSION, 0, "dev", 0, 4, value), runs, inner=50), base)
    row("strip: verify",
        timed(lambda: D.check_strip(SESSION, 0, "dev", 0, 4, public, value, off.value, off.proof), runs, inner=50),
        base)
    table = D.card_table(SESSION, "dev", 0, DEV_POOL)
    assert D.draw(SEED, SESSION, 0, "dev", 0, value, table).card is not None
    row("unmask + lookup", timed(lambda: D.draw(SEED, SESSION, 0, "dev", 0, value, table), runs, inner=50), base)
    print(f"  {'strip body [deck, epoch, position, V, proof]':<42} "
          f"{len(encode(['development', 0, 4, off.value, off.proof])):>8} B")
    print(f"  largest deck whose shuffle frame fits the {MAX_FRAME_BYTES // 1024} KiB frame cap: "
          f"{largest_deck_in_a_frame()} cards")


if __name__ == "__main__":
    main()
