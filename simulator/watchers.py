"""Spectators in the simulator (issue 35): their liars and the promises they are owed.

The promises, checked over every run that has spectators (`check_watchers`):

- **A spectator's copy is the game's.** An honest spectator of an honest host holds, frame for frame, a prefix
  of the host's frames, and never ends naming the host (status 4); one that saw the game end holds it whole.
- **No frame before its delay.** When frame k reached a spectator, the host had already sequenced frame k + D,
  or k was among the game's last D frames (flushed at the end): measured on the simulation's own ground truth
  (the host's book at the moment of arrival), not on the host's word.
- **An early release is caught.** Against a host that releases frames at once (`early-release`), every
  spectator that received a frame it should not have had stops and names the host (status 4), from the host's
  own signed release.
- **The chat no sooner than its frame.** Players say lines at random moments (`World.plan_chat`). Without the
  header's chat term no spectator of an honest host hears one; with it, a line said while the host's last frame
  was t reaches a spectator only once the host has sequenced t + D (or the game is over), and every line it
  hears was said, once (the ground truth: the host's book when the line was said, and when it arrived).
- **Spectators cost the players nothing they must wait for.** The players' invariants (simulator/invariants.py)
  run over the same run unchanged: a flooding spectator (`flood`: every tag the wire knows, frames it holds sent
  back, garbage, `watch` and `want` over and over, dials to every joiner) must leave every one of them intact.
"""

from __future__ import annotations

import random
from typing import Any

from netplay import wire
from netplay.protocol.core import EXIT_DISPUTE
from simulator.adversary import Adversary

__all__ = ["EarlyRelease", "Flood", "SPECTATOR_STRATEGIES", "HOST_STRATEGIES", "check_watchers", "spectator_liar"]


class EarlyRelease(Adversary):
    """`early-release` (host): lets every frame go to its spectators at once, delay or not, signing each release
    over the tip as it is: the leak a friend spectator would profit from."""

    name = "early-release"
    hosts_only = True

    def attach(self, machine: Any) -> None:
        spectators = getattr(machine, "spectators", None)
        if spectators is not None:
            spectators.due = lambda book: book.seq


class Flood(Adversary):
    """`flood` (spectator): besides watching, every tick it sends the host a burst of whatever the wire allows (each
    tag with fields of the right shape, frames it holds sent back, bytes that are no message, `watch` and `want`
    again and again), and dials every joiner's listener: a spectator that tries to act, to claim, to co-sign, to
    be relayed, or to flood the host's loop."""

    name = "flood"
    BURST = 12

    def __init__(self, rng: random.Random, *args: str):
        super().__init__(rng, *args)
        self.world: Any = None
        self.index = -1
        self.held: list[bytes] = []

    def incoming(self, machine: Any, sender: bytes, data: bytes) -> bytes | None:
        try:
            tag, fields = wire.unpack(data)
        except wire.Malformed:
            return data
        if tag == "release" and len(self.held) < 64:
            self.held.append(fields[0])
        return data

    def _junk(self, machine: Any) -> bytes:
        rng = self.rng
        frame = rng.choice(self.held) if self.held else rng.randbytes(80)
        seq = rng.randrange(0, 1 << 20)
        choices = [
            lambda: wire.pack("watch", wire.PROTO, "sim", rng.randrange(0, 1 << 20)),
            lambda: wire.pack("want", rng.randrange(0, 64)),
            lambda: wire.pack("frame", frame, rng.randbytes(64)),
            lambda: wire.pack("frame", frame, b""),
            lambda: wire.pack("ack", seq, rng.randbytes(32), rng.randbytes(64), rng.randbytes(64)),
            lambda: wire.pack("chat", -1, "counter-offer turn 1: offer 1 brick for 1 ore to 0"),
            lambda: wire.pack("hello", wire.PROTO, "sim", None, 0),
            lambda: wire.pack("relay", rng.randbytes(32), wire.pack("ack", seq, rng.randbytes(32), b"", b"")),
            lambda: wire.pack("dispute", frame, "the host cheated"),
            lambda: wire.pack("rematch", []),
            lambda: wire.pack("start", rng.randbytes(32), []),
            lambda: wire.pack("decline", "no"),
            lambda: rng.randbytes(rng.randrange(1, 200)),
        ]
        return rng.choice(choices)()

    def tick(self, machine: Any) -> None:
        world, host = self.world, self.world.peers[0] if self.world is not None else None
        if host is None:
            return
        me = world.peer(self.index)
        for _ in range(self.BURST):
            world.send(me, host.key, self._junk(machine))
        if self.count("dial") == 1:
            for joiner in world.peers[1:]:
                world.schedule(world._latency(), "connect", (self.index, joiner.index))


SPECTATOR_STRATEGIES: tuple[str, ...] = ("flood",)
HOST_STRATEGIES: tuple[str, ...] = ("early-release",)


def spectator_liar(spec: str, rng: random.Random, world: Any, index: int) -> Adversary:
    if spec != "flood":
        raise ValueError(f"no spectator strategy {spec!r} (known: {', '.join(SPECTATOR_STRATEGIES)})")
    liar = Flood(rng)
    liar.world, liar.index = world, index
    return liar


def _named(w: Any) -> int | None:
    """The seat a spectator's dispute names: its ledger's, or the host's seat for a release before its delay."""
    machine = w.machine
    ledger = getattr(machine, "ledger", None)
    if ledger is not None and ledger.dispute is not None:
        return ledger.dispute.seat
    header = getattr(machine, "header", None)
    if header is not None and "before its delay" in w.outcome.message:
        return header.terms.host_seat
    return None


def check_watchers(world: Any, report: Any) -> None:
    """The promises of the module's docstring, added to `report.violations`."""
    if not world.watchers:
        return
    host = world.peers[0]
    lying_host = host.adversary is not None
    early = isinstance(host.adversary, EarlyRelease)
    delay = world.spectating.delay
    frames = host.disk.frames
    last = len(frames) - 1
    for w in world.watchers:
        who = f"spectator {w.index - world.watchers[0].index}"
        if w.crash is not None:
            report.violations.append(f"{who} crashed:\n{w.crash}")
            continue
        if w.adversary is not None:
            continue
        code = w.outcome.code if w.outcome is not None else None
        if early:
            ahead = [k for k, tip in w.arrivals if 0 <= tip < k + delay and k < last - delay]
            if ahead and code != EXIT_DISPUTE:
                report.violations.append(f"{who} received frame {ahead[0]} before its delay from a host that "
                                         f"releases at once, and did not name it (outcome {w.outcome})")
            continue
        if code == EXIT_DISPUTE:
            named = _named(w)
            honest = {p.key for p in world.peers if p.adversary is None}
            header = w.disk.header
            if named is None or header is None or header.seats[named][0] in honest:
                report.violations.append(f"{who} named an honest seat ({named}): {w.outcome.message}")
        if lying_host or any(p.adversary is not None for p in world.peers):
            continue        # a liar at the table: the spectator's copy proves what was signed, no more
        copy = w.disk.frames
        if list(copy) != list(frames[:len(copy)]) and not host.kills:
            report.violations.append(f"{who}'s copy is not the host's: {len(copy)} frames, the host's {len(frames)}")
        _check_chat(world, w, who, last, report)
        for k, tip in w.arrivals:
            if 0 <= tip < k + delay and tip != last and k < last - delay:
                report.violations.append(f"{who} received frame {k} while the host was at frame {tip} (delay "
                                         f"{delay})")
                break
        if code == 0 and len(copy) != len(frames) and not host.kills:
            report.violations.append(f"{who} ended well with {len(copy)} of the game's {len(frames)} frames")
        if code != 0 and host.outcome is not None and host.outcome.code == 0 and not host.kills \
                and not any(kind == "refused" and args[0] == w.index for _, kind, args in world.history):
            report.violations.append(f"{who} of a game that ended well did not get it whole ({len(copy)} of "
                                     f"{len(frames)} frames): {w.outcome}")


def _check_chat(world: Any, w: Any, who: str, last: int, report: Any) -> None:
    """The chat promise of the module's docstring, for one honest spectator of an honest table."""
    spectating = world.spectating
    texts = [text for text, _ in w.heard]
    if w.heard and not spectating.chat:
        report.violations.append(f"{who} heard the chat of a game whose terms keep it from spectators: {texts[0]!r}")
        return
    if len(set(texts)) != len(texts):
        report.violations.append(f"{who} heard a chat line twice: {texts}")
    for text, tip in w.heard:
        said = world.said.get(text)
        if said is None:
            report.violations.append(f"{who} heard a chat line nobody said: {text!r}")
        elif tip < said + spectating.delay and tip != last:
            report.violations.append(f"{who} heard {text!r} while the host was at frame {tip}: it was said at frame "
                                     f"{said}, delay {spectating.delay}")
