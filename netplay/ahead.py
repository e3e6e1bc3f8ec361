"""Building this peer's next strip while the strip before it is still being checked.

Why: a deal is a chain of strips in seat order (docs/protocol.md, "Shared secret deck"), and on the
critical path each one used to wait for the whole check of the one before (the host's certificate,
the signature, the Chaum–Pedersen proof) before its own layer removal and proof were even started.
The removal needs nothing from the check but the predecessor's value, which is in the frame, so it is
started on a worker thread as soon as the frame is decoded; libsodium releases the GIL, and on a
machine with a second core the build and the check overlap.

What it does not change: the speculative result is only an early copy of what `replays.deck.strip`
gives on the same inputs (the ledger's strip kind asks for it by its exact inputs and computes it
itself when there is none). It is used only by the ledger's own `build`, which runs only after the
predecessor was accepted; so nothing built on an unchecked frame is ever signed or sent, and a
predecessor that turns out to be false is disputed exactly as before while the work built on it is
dropped. One worker, at most one job kept, at most one started per position dealt (the frame's
signature is not checked yet, so a forged copy could otherwise buy a build each); the thread ends
with the transcript (`close`).
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor

from replays.deck import LayerOff
from replays.frames import Frame
from replays.ledger import Ledger
from replays.ledger.kinds import strip

__all__ = ["StripAhead"]


class StripAhead:
    """The strips one peer builds ahead, for the seats it holds (`ledgers`, by seat). `started`,
    `used` and `dropped` count jobs (tests and diagnostics)."""

    def __init__(self, ledgers: Mapping[int, Ledger]):
        self._ledgers = ledgers
        self._pool: ThreadPoolExecutor | None = None
        self._job: tuple[int, tuple, Future[LayerOff]] | None = None   # (seat, inputs, result)
        self._closed = False
        self.started = self.used = self.dropped = 0
        for seat, ledger in ledgers.items():
            ledger.prepared = self._taker(seat)

    def start(self, frame: Frame) -> None:
        """`frame` has just arrived and is about to be checked: if it is the strip before one of ours,
        start building ours from its value (the check decides whether that is ever used)."""
        if self._closed or frame.kind != strip.NAME:
            return
        for seat, ledger in self._ledgers.items():
            inputs = strip.ahead(ledger, frame.seat, frame.kind, frame.seq, frame.body)
            if inputs is None:
                continue
            job = self._job
            if job is not None and job[0] == seat and job[1][:3] == inputs[:3]:
                return   # one job per position: frames forged to look like the awaited strip buy no more work
            self.drop()
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="netplay-strip-ahead")
            me = ledger.need_me()
            self._job = (seat, inputs, self._pool.submit(strip.made_from, me.seed, ledger.session, seat, inputs))
            self.started += 1
            return

    def _taker(self, seat: int):
        def take(inputs: tuple) -> LayerOff | None:
            """The strip built ahead for `seat` on exactly `inputs`, if there is one (then forgotten)."""
            job = self._job
            if job is None or job[0] != seat or job[1] != inputs:
                return None
            self._job = None
            try:
                made = job[2].result()
            except Exception:   # (bad input only a false frame gives: the ledger refused it first)
                return None
            self.used += 1
            return made
        return take

    def drop(self) -> None:
        """Forget the job under way (its predecessor was refused, or another frame came instead)."""
        job, self._job = self._job, None
        if job is not None:
            job[2].cancel()
            self.dropped += 1

    def close(self) -> None:
        """Drop any job and end the worker thread (waits for a job already running: well under 1 ms)."""
        self._closed = True
        self.drop()
        for ledger in self._ledgers.values():
            ledger.prepared = None
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
