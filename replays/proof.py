"""The proof behind a chance value, recomputed from the signed frames alone: who committed what, what
each seat revealed and when, and the value derived, each step checked again here.

The commit-reveal scheme (replays/randomness.py): every seat commits in its `open` frame to the tail of
a hash chain and reveals one chain value per chance point (`chain` frames), each hashing back onto the
previous one, so no seat could choose its value after seeing another's. A public chance point's bytes
are H(session, chance index, every contributor's value) and the engine value follows from them
(`engines.chance`). A private one also needs the owner's secret HMAC, known to all once the owner
reveals its seed at the end (`seed` frame, checked against the seed commitment of its `open` frame).

`Proofs` reads frames in order (incrementally, as a live table receives them) and answers for any
chance event of the ledger; nothing is taken from the ledger's own checks but the event's order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replays.frames import Frame
from replays.ledger import Event
from replays.randomness import (
    chain_link,
    outcome,
    private_chance_bytes,
    private_mac,
    public_chance_bytes,
    seed_commitment,
)

__all__ = ["ChanceProof", "Proofs", "Reveal"]


@dataclass(frozen=True, slots=True)
class Reveal:
    """One chain value a seat revealed: in frame `frame` (index), the `k`-th value of the chain whose
    tail it committed in frame `committed` (its open frame, or the frame that renewed its chain)."""

    seat: int
    value: bytes
    frame: int
    committed: int
    tail: bytes
    k: int
    links: bool   # it hashes onto the seat's previous value (the tail for k = 1)


@dataclass(frozen=True, slots=True)
class ChanceProof:
    index: int                  # the chance point's number in the game (from 0)
    frame: int                  # the frame (index) whose acceptance applied it
    label: str
    owner: int | None           # a private chance point's seat
    reveals: tuple[Reveal, ...]
    data: bytes | None          # the bytes the value was derived from (None: not computable yet)
    derived: Any                # the value recomputed here (None: not computable yet)
    applied: Any                # the value the game applied
    steps: tuple[tuple[str, bool], ...]   # each check in words, and whether it held
    pending: str = ""           # why the proof cannot be completed yet ("" when it is complete)

    @property
    def ok(self) -> bool:
        return all(ok for _, ok in self.steps)


class Proofs:
    """Chains and seeds read from the frames so far; `proof(event)` for a chance event."""

    def __init__(self, session: bytes, players: int):
        self.session = session
        self.players = players
        self.frames_read = 0
        self._chains: dict[int, tuple[bytes, int, int, bytes]] = {}  # seat -> (tail, committed, used, last)
        self._reveals: dict[tuple[int, bytes], Reveal] = {}
        self._seed_commits: dict[int, bytes] = {}
        self._seeds: dict[int, tuple[bytes, int]] = {}   # seat -> (seed, frame) once revealed

    def read(self, frames: list[Frame]) -> None:
        """The next frames, in order (those after the `frames_read` already read)."""
        for frame in frames:
            n = self.frames_read
            self.frames_read += 1
            body = frame.body
            if frame.kind == "open" and len(body) == 3 and isinstance(body[0], bytes):
                self._chains[frame.seat] = (body[0], n, 0, body[0])
                if isinstance(body[2], bytes):
                    self._seed_commits[frame.seat] = body[2]
            elif frame.kind == "chain" and len(body) == 2 and isinstance(body[0], bytes):
                chain = self._chains.get(frame.seat)
                if chain is None:
                    continue
                tail, committed, used, last = chain
                value = body[0]
                links = chain_link(self.session, frame.seat, value) == last
                self._reveals[(frame.seat, value)] = Reveal(frame.seat, value, n, committed, tail, used + 1, links)
                renewal = body[1]
                if isinstance(renewal, tuple) and len(renewal) == 2 and isinstance(renewal[0], bytes):
                    self._chains[frame.seat] = (renewal[0], n, 0, renewal[0])
                else:
                    self._chains[frame.seat] = (tail, committed, used + 1, value)
            elif frame.kind == "seed" and body and isinstance(body[0], bytes):
                self._seeds[frame.seat] = (body[0], n)

    def proof(self, event: Event) -> ChanceProof | None:
        """The proof of a chance event (None for a deal or a look: the deck protocol proves those)."""
        chance = event.chance
        if event.kind != "chance" or chance is None or chance.kind not in ("dice", "pick"):
            return None
        steps: list[tuple[str, bool]] = []
        reveals: list[Reveal] = []
        for seat, value in event.contributions:
            reveal = self._reveals.get((seat, value))
            if reveal is None:
                steps.append((f"seat {seat}'s value {value.hex()[:12]}... is in no chain frame", False))
                continue
            reveals.append(reveal)
            steps.append((f"seat {seat} revealed {value.hex()[:12]}... in frame {reveal.frame + 1}: value "
                          f"{reveal.k} of the chain committed in frame {reveal.committed + 1} "
                          f"(tail {reveal.tail.hex()[:12]}...)" + ("" if reveal.links else
                                                                   ": it does NOT hash onto the previous value"),
                          reveal.links))
        owner = chance.private_to
        contributions = [(r.seat, r.value) for r in reveals]
        data: bytes | None = None
        pending = ""
        if owner is None:
            data = public_chance_bytes(self.session, event.index, contributions)
            steps.append((f"H(session, chance {event.index}, the values) = {data.hex()[:16]}...", True))
        elif owner in self._seeds:
            seed, frame = self._seeds[owner]
            committed = self._seed_commits.get(owner) == seed_commitment(self.session, owner, seed)
            steps.append((f"seat {owner} revealed its seed in frame {frame + 1}"
                          + (", as committed in its open frame" if committed else ": NOT the seed it committed to"),
                          committed))
            mac = private_mac(seed, self.session, event.index)
            data = private_chance_bytes(self.session, event.index, owner, mac, contributions)
            steps.append((f"H(session, chance {event.index}, seat {owner}'s secret, the values) = {data.hex()[:16]}...",
                          True))
        else:
            pending = f"private to seat {owner}: provable once it reveals its seed at the end of the game"
        derived = None
        if data is not None:
            derived = outcome(chance, data)
            applied = event.full if event.full is not None else event.value
            steps.append((f"value derived: {_shown(derived)}; the game applied {_shown(applied)}",
                          derived == applied))
        return ChanceProof(event.index, event.at, chance.label, owner, tuple(reveals), data, derived,
                           event.full if event.full is not None else event.value, tuple(steps), pending)


def _shown(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return ", ".join(str(v) for v in value)
    return str(value)
