"""Writing a replay as the game goes: the header record, then every frame exactly as exchanged, each
record flushed and fsync'd before the caller acknowledges it, so a crash at any moment loses no
acknowledged frame and leaves a readable prefix (see docs/replay-format.md)."""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path
from typing import BinaryIO

from replays import codec
from replays.frames import Frame
from replays.header import Header

__all__ = ["ReplayWriter", "replay_filename", "SUFFIX"]

SUFFIX = ".npr"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.")[:24] or "anon"


def replay_filename(header: Header) -> str:
    """e.g. 2025-03-01_1415_ploc_alice-vs-bob_3f2a9c01.npr: date and time (UTC), game, players, session."""
    when = time.strftime("%Y-%m-%d_%H%M%S", time.gmtime(header.created))
    players = "-vs-".join(_slug(name or f"seat{i}") for i, (_, name) in enumerate(header.seats))
    return f"{when}_{_slug(header.game)}_{players}_{header.session.hex()[:8]}{SUFFIX}"


class ReplayWriter:
    """Append-only replay file. `sync=False` skips fsync (bulk tests and benchmarks only)."""

    def __init__(self, path: str | os.PathLike, header: Header, sync: bool = True):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.sync = sync
        self._file: BinaryIO | None = open(self.path, "xb")  # noqa: SIM115 - kept open for the whole game
        self.records = 0
        self._write(header.encode())

    @classmethod
    def in_dir(cls, directory: str | os.PathLike, header: Header, sync: bool = True) -> ReplayWriter:
        """A new file named by `replay_filename` in `directory` (default: the user's replays dir)."""
        folder = Path(directory)
        return cls(folder / replay_filename(header), header, sync)

    @classmethod
    def resume(cls, path: str | os.PathLike, end: int, records: int, sync: bool = True) -> ReplayWriter:
        """Continue an existing replay (a peer that resumes its game): whatever follows byte `end`
        (a torn last record) is cut off and new records are appended from there. `records` counts
        the header and the frames already in the file."""
        writer = cls.__new__(cls)
        writer.path = Path(path)
        writer.sync = sync
        handle = open(writer.path, "r+b")  # noqa: SIM115 - kept open for the whole game
        handle.truncate(end)
        handle.seek(end)
        writer._file = handle
        writer.records = records
        return writer

    def _write(self, data: bytes, records: int = 1) -> None:
        if self._file is None:
            raise ValueError(f"replay {self.path} is closed")
        self._file.write(data)
        self._file.flush()
        if self.sync:
            os.fsync(self._file.fileno())
        self.records += records

    def append(self, frame: Frame | bytes, *records: tuple) -> None:
        """Write one frame as exchanged (its wire bytes), and any signed records that go with it (the
        host's certificate), in one write; returns once they are on disk."""
        data = frame.encode() if isinstance(frame, Frame) else bytes(frame)
        self._write(data + b"".join(codec.encode(r) for r in records), 1 + len(records))

    def append_record(self, record: tuple) -> None:
        """Write one tagged record (a certificate or acknowledgement kept as evidence)."""
        self._write(codec.encode(record))

    def close(self) -> None:
        if self._file is not None:
            handle, self._file = self._file, None
            # every record is flushed when it is written: what is still buffered here is a record whose write
            # already failed and was reported then (a full disk), not one more loss
            with contextlib.suppress(OSError):
                handle.close()

    def __enter__(self) -> ReplayWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
