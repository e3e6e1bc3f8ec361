"""This peer's replay file read back, to come back to a game (`netplay join --resume`, `netplay host --resume`).

The file is read without trust like any replay (replays/reader.py), with two refusals of its own: a record
in a frame's place that is no frame is never cut off (those bytes are someone's evidence), and a saved
seed that does not open the commitment its seat made in its `open` frame is refused before anything is
sent (a peer resuming with a wrong seed would only be caught later, as its own dispute). A torn last
record (a crash in the middle of a write) is cut off and overwritten when the writer continues.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from replays.frames import Frame
from replays.header import Header
from replays.ledger import SeatSecrets
from replays.randomness import seed_commitment
from replays.reader import read_replay
from replays.writer import ReplayWriter

log = logging.getLogger("netplay.session")

__all__ = ["ResumeError", "OwnReplay", "read_own_replay", "check_seeds"]


class ResumeError(Exception):
    """A saved game that cannot be continued; the message says why."""


@dataclass(slots=True)
class OwnReplay:
    path: Path
    header: Header
    frames: list[Frame]
    certs: list[bytes]      # per frame: the host's certificate written after it (b"" where none)
    end: int                # the byte after the last whole record: the writer continues there
    records: int

    def reopen(self, fsync: bool = True) -> ReplayWriter:
        return ReplayWriter.resume(self.path, self.end, self.records, fsync)


def read_own_replay(path: str | os.PathLike) -> OwnReplay:
    try:
        replay = read_replay(path)
    except (OSError, ValueError) as exc:
        raise ResumeError(f"cannot read the replay {path}: {exc}") from None
    if replay.malformed is not None:   # never cut it off: those bytes are someone's evidence
        raise ResumeError(f"the replay {path} holds a record that is no frame: {replay.notes[-1]}")
    if replay.torn:
        log.warning("resuming %s: %s", path, replay.torn)
    by_seq = {cert.seq: cert.sig for cert in replay.certs if cert.kind == "cert"}
    certs = [by_seq.get(n, b"") for n in range(len(replay.frames))]
    return OwnReplay(Path(path), replay.header, replay.frames, certs, replay.end,
                     1 + len(replay.frames) + len(replay.certs) + replay.skipped
                     + (replay.links is not None))


def check_seeds(header: Header, frames: Sequence[Frame], secrets: Sequence[SeatSecrets]) -> None:
    """Every saved seed must open the commitment its seat made in its `open` frame (when that is in the file)."""
    opened = {f.seat: f.body[2] for f in frames if f.kind == "open" and len(f.body) == 3}
    for secret in secrets:
        committed = opened.get(secret.seat)
        if committed is not None and committed != seed_commitment(header.session, secret.seat, secret.seed):
            raise ResumeError(f"the saved seed of seat {secret.seat} does not open the commitment it made in its open "
                              "frame: the saved game belongs to another run (nothing was sent)")
