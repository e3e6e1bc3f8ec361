"""Reading a replay file without trusting it: every record is decoded under limits, a torn last
record (a crash mid-write) is reported and skipped, and a record that breaks the file's syntax (not
canonical msgpack within the limits, or a header this netplay cannot read) is a FormatError naming the
record and its offset: the file is unreadable. A well-formed record in a frame's place that is no frame
(`Replay.malformed`) is not a reading error: a live peer would reject those bytes, and so the audit
reports the file invalid at that frame. Whether the frames are genuine and legal is the audit's job."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from replays import codec
from replays.certs import Cert
from replays.frames import Frame, frame_from_value
from replays.header import FORMAT_MAJOR, FORMAT_MINOR, Header, header_from_value
from replays.links import MAX_LINK_PAIRS, links_from_value, links_record
from replays.releases import RELEASE_TAG, SPECTATOR_TAG, Release, release_from_value, spectator_from_value
from replays.safetext import shown

# Cert (replays/certs.py) and the links record (replays/links.py) live in pure modules, because the session's
# protocol builds them and must not import a file reader (tests/test_protocol_pure.py); still named from here
__all__ = ["Cert", "Replay", "read_header", "read_replay", "parse_replay", "links_from_value", "links_record",
           "MAX_FILE", "MAX_LINK_PAIRS"]

MAX_FILE = 256 << 20


#: the record types this format knows beside the frames
CERT_TAGS = ("cert", "ack")


def cert_from_value(value: tuple, minor: int = 0) -> Cert | None:
    """A certificate or acknowledgement record, or None when the tagged record is none of those. A later
    minor version may append fields to a record (read and ignored); in a 2.0 file the shape is exact."""
    def ok(seat: object, seq: object, digest: object, sig: object) -> bool:
        return (type(seat) is int and 0 <= seat < 64 and type(seq) is int and seq >= 0
                and type(digest) is bytes and len(digest) == 32 and type(sig) is bytes and len(sig) == 64)

    def fits(size: int) -> bool:
        return len(value) == size or (minor > 0 and len(value) > size)
    if value[0] == "cert" and fits(5) and ok(*value[1:5]):
        return Cert("cert", value[1], value[2], value[3], value[4])
    if value[0] == "ack" and fits(7) and ok(*value[1:5]) and ok(value[5], 0, value[3], value[6]):
        return Cert("ack", value[1], value[2], value[3], value[4], value[5], value[6])
    return None


@dataclass(slots=True)
class Replay:
    header: Header
    frames: list[Frame]
    #: why the last record was skipped (a torn write), or None
    torn: str | None = None
    notes: list[str] = field(default_factory=list)
    path: str = ""
    #: the byte just after the last whole record (where a resumed writer continues)
    end: int = 0
    #: signed records beside the frames (format 2): certificates and acknowledgements, in file order
    certs: list[Cert] = field(default_factory=list)
    #: records of a type this netplay does not know, which no signature it checks covers
    skipped: int = 0
    #: records tagged "cert" or "ack" that are not one (the frame each follows, record index, byte offset,
    #: reason): the file was altered, so the audit reports it invalid (docs/replay-format.md "Layout")
    bad_records: list[tuple[int, int, int, str]] = field(default_factory=list)
    #: `twin` records (format 2.1): another frame its author signed for the slot of frame `seq`, which a
    #: peer received from another peer and kept as proof that the author signed two frames for one slot
    twins: list[tuple[int, Frame]] = field(default_factory=list)
    #: the first frame record that is no frame (frame number, record index, byte offset, reason), or None.
    #: `frames` stops before it: a peer would have rejected those bytes, so the audit reports the file
    #: invalid at that frame (docs/replay-format.md, "Reading without trust")
    malformed: tuple[int, int, int, str] | None = None
    #: the `links` record (format 2.1): the pairs of seats that had no direct link when the game started, as
    #: the writing peer knew them (the host relayed between them); None when the file holds none. Unsigned:
    #: the writer's word (docs/replay-format.md "Layout")
    links: tuple[tuple[int, int], ...] | None = None
    #: a spectator's copy (format 2.2): the spectator's key from its `spectator` record, else None
    spectator: bytes | None = None
    #: the host's releases of the frames to that spectator, with the number of frames before each record (format
    #: 2.2; replays/releases.py): the audit checks every one against the delay of the header's spectators' terms
    releases: list[tuple[int, Release]] = field(default_factory=list)


def _twin(value: tuple, header: Header) -> tuple[int, Frame] | None:
    """A `twin` record, ["twin", seq, frame bytes] (format 2.1), or None when it is none."""
    if (header.major, header.minor) < (2, 1) or len(value) != 3 or type(value[1]) is not int or value[1] < 0 \
            or type(value[2]) is not bytes:
        return None
    try:
        frame = frame_from_value(codec.decode(value[2]), value[2])
    except codec.FormatError:
        return None
    return (value[1], frame) if frame.seq == value[1] else None


def read_replay(path: str | os.PathLike, max_file: int = MAX_FILE) -> Replay:
    """Read and parse a replay file; FormatError (or OSError) when it cannot be read at all."""
    path = Path(path)
    size = path.stat().st_size
    if size > max_file:
        raise codec.FormatError(f"file of {size} bytes is larger than the limit of {max_file} bytes")
    with open(path, "rb") as handle:
        # what the file holds (and a little more, should it grow meanwhile): a read of max_file bytes
        # reserves 256 MiB before it returns the few KiB a replay holds
        data = handle.read(min(max_file, size + (1 << 16)) + 1)
    if len(data) > max_file:
        raise codec.FormatError(f"file of more than {max_file} bytes is larger than the limit")
    replay = parse_replay(data)
    replay.path = str(path)
    return replay


def read_header(path: str | os.PathLike) -> Header:
    """Only the header of a replay file (its first record, at most 1 MiB): what a list shows before the
    audit, at a cost that does not grow with the file. FormatError (or OSError) as `read_replay`."""
    with open(path, "rb") as handle:
        data = handle.read(codec.DEFAULT_LIMITS.max_bytes + 16)
    return _header(codec.iter_records(data) if data else iter(()))[1]


def _header(records) -> tuple[int, Header]:
    """The header from the first of `records` (codec.iter_records), and the byte after it."""
    first = next(records, None)
    if first is None:
        raise codec.FormatError("empty file")
    offset, raw, value = first
    if isinstance(value, codec.FormatError):
        what = "cut off inside the header" if value.truncated else value.reason
        raise codec.FormatError(f"record 0 (the header): {what}")
    return offset + len(raw), header_from_value(value)


def parse_replay(data: bytes) -> Replay:
    records = codec.iter_records(data) if data else iter(())
    end, header = _header(records)
    replay = Replay(header, [], end=end)
    if header.major == FORMAT_MAJOR and header.minor > FORMAT_MINOR:
        replay.notes.append(f"written in format {header.major}.{header.minor}; read as {header.major}.{FORMAT_MINOR}")
    unknown = _Unknown()
    for index, (offset, raw, value) in enumerate(records, start=1):
        if isinstance(value, codec.FormatError):
            if value.truncated:
                replay.torn = f"record {index} at byte {offset} is torn ({value.reason}); skipped"
                break
            raise codec.FormatError(f"record {index} at byte {offset}: {value.reason}")
        if type(value) is tuple and value and type(value[0]) is str:
            cert = cert_from_value(value, header.minor) if header.major >= 2 else None
            twin = _twin(value, header) if value[0] == "twin" else None
            links = links_from_value(value, header) if value[0] == "links" else None
            if (header.major, header.minor) >= (2, 2) and value[0] in (RELEASE_TAG, SPECTATOR_TAG):
                _spectators(replay, value, index, offset)
                replay.end = offset + len(raw)
                continue
            if cert is not None:
                replay.certs.append(cert)
            elif twin is not None:
                replay.twins.append(twin)
            elif links is not None and replay.links is None:
                replay.links = links
            elif value[0] == "links" and (header.major, header.minor) >= (2, 1):
                why = "a second links record (a peer writes one per game)" if links is not None else \
                    "a links record of the wrong shape"
                replay.bad_records.append((max(len(replay.frames) - 1, 0), index, offset, why))
            elif value[0] == "twin" and (header.major, header.minor) >= (2, 1):
                replay.bad_records.append((max(len(replay.frames) - 1, 0), index, offset,
                                           "a twin record of the wrong shape"))
            elif header.major >= 2 and value[0] in CERT_TAGS:
                replay.bad_records.append((max(len(replay.frames) - 1, 0), index, offset,
                                           f"a {value[0]} record of the wrong shape"))
            else:  # a record type of a later minor version: not ours to judge, and covered by no signature
                unknown.add(value[0], index, offset)
            replay.end = offset + len(raw)
            continue
        if replay.malformed is None:
            try:
                replay.frames.append(frame_from_value(value, raw))
            except codec.FormatError as exc:
                # well-formed msgpack, but no frame: a live peer rejects such bytes, so the file is judged,
                # not unreadable; reading goes on to the end so that a broken record later still decides
                replay.malformed = (len(replay.frames), index, offset, exc.reason)
                replay.notes.append(f"record {index} at byte {offset} is no frame ({exc.reason}); the frames after "
                                    "it are not read")
        replay.end = offset + len(raw)
    replay.skipped = unknown.count
    if unknown.count:
        replay.notes.append(unknown.summary())
    return replay


def _spectators(replay: Replay, value: tuple, index: int, offset: int) -> None:
    """A spectator's record (format 2.2): one `spectator` record before the first frame, a `release` after each
    frame; any other shape, a second `spectator` record, or a release before it is an altered file."""
    at = max(len(replay.frames) - 1, 0)
    if value[0] == SPECTATOR_TAG:
        key = spectator_from_value(value)
        if key is None or replay.spectator is not None or replay.frames:
            why = "a spectator record of the wrong shape" if key is None else \
                "a second spectator record, or one after the first frame"
            replay.bad_records.append((at, index, offset, why))
            return
        replay.spectator = key
        return
    release = release_from_value(value)
    if release is None or replay.spectator is None:
        why = "a release record of the wrong shape" if release is None else "a release record in no spectator's copy"
        replay.bad_records.append((at, index, offset, why))
        return
    replay.releases.append((len(replay.frames), release))


class _Unknown:
    """The records of unknown types, summed up in one note however many there are: a file of a
    megabyte of 3-byte records used to cost a note (and a printed line) each, 349,530 of them."""

    SHOWN = 3     # types named in the note; the others are counted

    def __init__(self) -> None:
        self.count = 0
        self.first: tuple[int, int] = (0, 0)
        self.types: dict[str, int] = {}
        self.others = 0

    def add(self, tag: str, index: int, offset: int) -> None:
        if not self.count:
            self.first = (index, offset)
        self.count += 1
        tag = tag[:32]
        if tag in self.types or len(self.types) < self.SHOWN:
            self.types[tag] = self.types.get(tag, 0) + 1
        else:
            self.others += 1

    def summary(self) -> str:
        kinds = ", ".join(f"{shown(tag, 40)!r} x{n}" for tag, n in self.types.items())
        if self.others:
            kinds += f", {self.others} of other types"
        index, offset = self.first
        return (f"{self.count} record(s) of unknown types that no signature covers were skipped ({kinds}; the "
                f"first is record {index} at byte {offset}); a later minor version may write such records")
