"""The session header: what game, which rules, which seats with which keys, and (format 2) the terms
every seat agreed to: the protocol version and the deadlines. It is the first record of a replay
file and the root of the frame chain (frame 0 names the header's hash as its `prev`), so every seat's
first signature covers it, and every peer computes the same deadline for every frame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replays import codec
from replays.crypto import hash_parts
from replays.safetext import MAX_NAME, is_name, shown

__all__ = ["Header", "MAGIC", "FORMAT_MAJOR", "FORMAT_MINOR", "MAX_CREATED", "Spectating", "Terms", "VersionError",
           "header_from_value", "MAX_SPECTATORS", "MAX_SPECTATOR_DELAY"]

MAGIC = "netplay-replay"
FORMAT_MAJOR = 2           # the format this netplay writes (2: frame protocol 2, terms in the header)
FORMAT_MINOR = 3           # 2.1: the terms carry the move limit, the frame time, lateness and the host seat;
                           # 2.2: the spectators' terms appended after the terms (written only when spectators
                           # may watch: every other header is still written as 2.1);
                           # 2.3: then 1, the spectators hear the players' chat (written only then)
MAX_SEATS = 16
MAX_OPTIONS = 64
MAX_OPTION_TEXT = 200
#: the last second of the year 9999 (UTC): what a calendar, a file name and every front end can show
MAX_CREATED = 253_402_300_799
MIN_TIMEOUT_MS = 1_000
MAX_TIMEOUT_MS = 24 * 3600 * 1000
MIN_FRAME_MS = 100
MAX_SPECTATORS = 64
MAX_SPECTATOR_DELAY = 1 << 20


@dataclass(frozen=True, slots=True)
class Spectating:
    """Who may watch the game live, and how far behind (format 2.2, the header's field after the terms): at
    most `most` spectators at once, each frame k shown to them only once frame k + `delay` is sequenced (or the
    game is over). Part of the header so that every seat agrees to it by accepting the header, as to any term:
    a player who did not want a spectator, or wanted a longer delay, declines. `chat` (format 2.3, a field of its
    own after this one): the spectators are shown the players' chat, each line with the frame that was the last
    when it was said, so no later than that frame (the same delay); a player who wants to talk only to the
    table declines such a header."""

    most: int
    delay: int
    chat: bool = False

    def value(self) -> tuple:
        """The header's 2.2 field (the chat is a field of its own after it: `Header.make`)."""
        return (self.most, self.delay)

    def offered(self) -> list:
        """The `offer`'s sixth terms item: [most, delay], and 1 after them when the spectators hear the chat."""
        return [self.most, self.delay, 1] if self.chat else [self.most, self.delay]

    @staticmethod
    def from_offer(value: Any) -> Spectating | None:
        """The `offer`'s item ([most, delay] or [most, delay, 1]), or None when it is not one."""
        if not isinstance(value, list | tuple) or len(value) not in (2, 3):
            return None
        if len(value) == 3 and (type(value[2]) is not int or value[2] != 1):
            return None
        base = Spectating.from_value(tuple(value[:2]))
        return None if base is None else Spectating(base.most, base.delay, len(value) == 3)

    @staticmethod
    def from_value(value: Any) -> Spectating | None:
        """The field, or None when it is not [most 1..64, delay 0..2^20] (ints)."""
        if (type(value) is tuple and len(value) == 2 and all(type(v) is int for v in value)
                and 1 <= value[0] <= MAX_SPECTATORS and 0 <= value[1] <= MAX_SPECTATOR_DELAY):
            return Spectating(value[0], value[1])
        return None

    def describe(self) -> str:
        heard = "; they hear the players' chat, as delayed" if self.chat else ""
        return f"up to {self.most} spectator(s) may watch, {self.delay} frame(s) behind{heard}"


@dataclass(frozen=True, slots=True)
class Terms:
    """What every seat agrees to before the first frame (format 2), so that every peer computes the same
    deadline for every frame by its own clock (netplay/deadlines.py):

    - `reveal_timeout_ms`: how long a seat may be gone (its connection lost) before its awaited frame can
      be claimed; in a format 2.0 file also the deadline of every frame that needs no decision;
    - `clock`: an optional move clock per seat, (initial ms, increment ms per own decision);
    - `move_ms` (2.1): the limit on one decision; None only when the seats chose "untimed" by name;
    - `frame_ms` and `lateness_ms` (2.1): a frame that needs no decision is due `frame_ms` after it became
      awaited, plus what is left of its seat's lateness allowance for the whole game (`lateness_ms`), which
      every such frame later than `frame_ms` uses up: one seat cannot add more than its allowance plus
      `frame_ms` per frame to a game;
    - `host_seat` (2.1): the seat of the peer that sequences the frames (its certificates count).

    `extended` is the layout: False for the three items of format 2.0, True for the seven of 2.1."""

    protocol: int = 2
    reveal_timeout_ms: int = 120_000
    clock: tuple[int, int] | None = None
    move_ms: int | None = None
    frame_ms: int | None = None
    lateness_ms: int = 0
    host_seat: int | None = None
    extended: bool = False

    @staticmethod
    def agreed(reveal_timeout_ms: int = 120_000, clock: tuple[int, int] | None = None, move_ms: int | None = 600_000,
               frame_ms: int = 500, lateness_ms: int = 60_000, host_seat: int = 0) -> Terms:
        """Terms as this netplay proposes them (format 2.1)."""
        return Terms(2, reveal_timeout_ms, clock, move_ms, frame_ms, lateness_ms, host_seat, True)

    def value(self) -> tuple:
        clock = None if self.clock is None else tuple(self.clock)
        if not self.extended:
            return (self.protocol, self.reveal_timeout_ms, clock)
        return (self.protocol, self.reveal_timeout_ms, clock, self.move_ms, self.frame_ms, self.lateness_ms,
                self.host_seat)

    @property
    def frame_limit_ms(self) -> int:
        """The deadline of a frame that needs no decision, before its seat's lateness allowance."""
        return self.frame_ms if self.frame_ms is not None else self.reveal_timeout_ms

    @staticmethod
    def from_value(value: Any) -> Terms:
        if (type(value) is not tuple or len(value) not in (3, 7) or type(value[0]) is not int
                or type(value[1]) is not int or not MIN_TIMEOUT_MS <= value[1] <= MAX_TIMEOUT_MS):
            raise _fail(f"terms must be [protocol, reveal timeout ms {MIN_TIMEOUT_MS}..{MAX_TIMEOUT_MS}, clock] or "
                        "[protocol, reveal timeout ms, clock, move limit ms or nil, frame ms, lateness ms, host seat]")
        clock = value[2]
        if clock is not None and not (type(clock) is tuple and len(clock) == 2
                                      and all(type(c) is int for c in clock)
                                      and MIN_TIMEOUT_MS <= clock[0] <= MAX_TIMEOUT_MS
                                      and 0 <= clock[1] <= MAX_TIMEOUT_MS):
            raise _fail("the clock must be nil or [initial ms, increment ms]")
        if value[0] != 2:
            raise _fail(f"frame protocol {value[0]} is not one this netplay speaks (2)")
        clock = None if clock is None else (clock[0], clock[1])
        if len(value) == 3:
            return Terms(value[0], value[1], clock)
        move, frame, lateness, host = value[3:]
        if move is not None and not (type(move) is int and MIN_TIMEOUT_MS <= move <= MAX_TIMEOUT_MS):
            raise _fail(f"the move limit must be nil (untimed) or {MIN_TIMEOUT_MS}..{MAX_TIMEOUT_MS} ms")
        if type(frame) is not int or not MIN_FRAME_MS <= frame <= MAX_TIMEOUT_MS:
            raise _fail(f"the frame time must be {MIN_FRAME_MS}..{MAX_TIMEOUT_MS} ms")
        if type(lateness) is not int or not 0 <= lateness <= MAX_TIMEOUT_MS:
            raise _fail(f"the lateness allowance must be 0..{MAX_TIMEOUT_MS} ms")
        if type(host) is not int or not 0 <= host < MAX_SEATS:
            raise _fail("the host seat must be a seat number")
        return Terms(value[0], value[1], clock, move, frame, lateness, host, True)

    def describe_clock(self) -> str:
        """How decisions are timed, in words."""
        parts = []
        if self.clock is not None:
            parts.append(f"clock {_secs(self.clock[0])} + {_secs(self.clock[1])} per move")
        if self.move_ms is not None:
            parts.append(f"{_secs(self.move_ms)} per move at most")
        if not parts:
            return "untimed (a player who never moves holds the game)" if self.extended else "untimed"
        return ", ".join(parts)

    def describe(self) -> str:
        if not self.extended:
            return (f"protocol {self.protocol}, reveal timeout {self.reveal_timeout_ms / 1000:g} s, "
                    f"{self.describe_clock()}")
        return (f"{self.describe_clock()}; automatic frames {self.frame_limit_ms / 1000:g} s each + "
                f"{_secs(self.lateness_ms)} of lateness per seat; away at most {_secs(self.reveal_timeout_ms)}")


def _secs(ms: int) -> str:
    """A duration in words a player reads: 90 s, 10 min, 1 h 30 min."""
    seconds = ms / 1000
    if seconds < 120 or seconds % 60:
        return f"{seconds:g} s"
    minutes = int(seconds // 60)
    if minutes < 120 or minutes % 60:
        return f"{minutes} min"
    return f"{minutes // 60} h"


class VersionError(codec.FormatError):
    """A replay written in a newer major format than this netplay reads."""


@dataclass(frozen=True, slots=True)
class Header:
    game: str
    rules_version: str
    players: int
    #: (key, value) pairs sorted by key; values are ints or strs
    options: tuple[tuple[str, Any], ...]
    #: (raw Ed25519 public key, display name) per seat, in seat order
    seats: tuple[tuple[bytes, str], ...]
    session: bytes
    #: when the session started, unix seconds (given by the caller; the logic reads no clock)
    created: int
    major: int = FORMAT_MAJOR
    minor: int = 1             # what a header without spectators is written as (FORMAT_MINOR is what is read)
    #: what the seats agreed to (format 2); None for a format 1 file (frame protocol 1)
    terms: Terms | None = None
    #: fields a newer minor version appended (kept, so the header hash stays the writer's)
    extra: tuple = ()

    def value(self) -> tuple:
        if self.major < 2:
            agreed: tuple = ()
        elif self.terms is None:
            raise ValueError("a format 2 header holds the seats' terms")
        else:
            agreed = (self.terms.value(),)
        return (MAGIC, self.major, self.minor, self.game, self.rules_version, self.players, self.options,
                self.seats, self.session, self.created, *agreed, *self.extra)

    @property
    def spectating(self) -> Spectating | None:
        """The spectators' terms (format 2.2: the first field after the terms), None when nobody may watch (a
        2.1 header, or a later minor's field that is not one: only a 2.2 header is held to its shape)."""
        if self.major != 2 or self.minor < 2 or not self.extra:
            return None
        spectating = Spectating.from_value(self.extra[0])
        if spectating is not None and self.minor >= 3 and len(self.extra) >= 2 and self.extra[1] == 1 \
                and type(self.extra[1]) is int:
            return Spectating(spectating.most, spectating.delay, True)
        return spectating

    @property
    def protocol(self) -> int:
        """The frame protocol the file's frames follow: 1 for format 1, else the agreed terms'."""
        return 1 if self.terms is None else self.terms.protocol

    def encode(self) -> bytes:
        return codec.encode(self.value())

    @property
    def hash(self) -> bytes:
        return hash_parts("header", self.encode())

    @property
    def option_dict(self) -> dict[str, Any]:
        return dict(self.options)

    @staticmethod
    def make(game: str, rules_version: str, players: int, options: dict[str, Any], seats: list[tuple[bytes, str]],
             session: bytes, created: int, terms: Terms | None = None,
             spectating: Spectating | None = None) -> Header:
        """A header as this netplay writes it: format 2.1, or 2.2 with the spectators' field when spectators may
        watch (so every header of a game nobody may watch stays byte for byte what it was)."""
        opts = tuple(sorted((str(k), v) for k, v in options.items()))
        terms = terms if terms is not None else Terms()
        if spectating is not None and terms.extended:
            extra = (spectating.value(), 1) if spectating.chat else (spectating.value(),)
            return Header(game, rules_version, players, opts, tuple((bytes(k), str(n)) for k, n in seats), session,
                          int(created), minor=3 if spectating.chat else 2, terms=terms, extra=extra)
        return Header(game, rules_version, players, opts, tuple((bytes(k), str(n)) for k, n in seats), session,
                      int(created), minor=1 if terms.extended else 0, terms=terms)


def _fail(what: str) -> codec.FormatError:
    return codec.FormatError(f"header: {what}")


def _text(value: Any, low: int, high: int) -> bool:
    return type(value) is str and low <= len(value) <= high and value.isprintable()


def _show(value: Any) -> str:
    """A rejected field in an error message: safe to print, and short."""
    if type(value) is str:
        return f"'{shown(value, 80)}'"
    if type(value) is int:
        return str(value) if abs(value) < 10 ** 30 else f"an int of {len(str(abs(value)))} digits"
    return f"a {type(value).__name__}"


def header_from_value(value: Any) -> Header:
    """A Header from a decoded record; FormatError (VersionError for a newer major) says what is wrong."""
    if type(value) is not tuple or len(value) < 3 or value[0] != MAGIC:
        raise _fail("not a netplay replay (the first record must start with 'netplay-replay')")
    major, minor = value[1], value[2]
    if type(major) is not int or type(minor) is not int:
        raise _fail("format version must be two ints")
    if major > FORMAT_MAJOR:
        raise VersionError(f"this replay uses format {major}.{minor}, newer than the {FORMAT_MAJOR}.x this netplay "
                           "reads; upgrade netplay to read it")
    if major < 1:
        raise _fail(f"unknown format version {major}.{minor}")
    if len(value) < 10:
        raise _fail("too few fields")
    _, _, _, game, rules, players, options, seats, session, created = value[:10]
    if not _text(game, 1, MAX_NAME):
        raise _fail(f"the game id must be 1..{MAX_NAME} printable characters, got {_show(game)}")
    if not _text(rules, 0, MAX_NAME):
        raise _fail(f"the rules version must be at most {MAX_NAME} printable characters, got {_show(rules)}")
    if type(players) is not int or not 1 <= players <= MAX_SEATS:
        raise _fail(f"players must be an int 1..{MAX_SEATS}, got {_show(players)}")
    if type(options) is not tuple or len(options) > MAX_OPTIONS or not all(
            type(o) is tuple and len(o) == 2 and _text(o[0], 1, MAX_NAME)
            and (type(o[1]) in (int, bool) or _text(o[1], 0, MAX_OPTION_TEXT)) for o in options):
        raise _fail(f"options must be at most {MAX_OPTIONS} (key, value) pairs: a key of 1..{MAX_NAME} printable "
                    f"characters, a value an int, a bool or at most {MAX_OPTION_TEXT} printable characters")
    if [o[0] for o in options] != sorted({o[0] for o in options}):
        raise _fail("options must be sorted by key, each key once")
    if type(seats) is not tuple or len(seats) != players:
        raise _fail("there must be one seat entry per player")
    for number, seat in enumerate(seats):
        if type(seat) is not tuple or len(seat) != 2 or type(seat[0]) is not bytes or len(seat[0]) != 32:
            raise _fail(f"seat {number} must be (32-byte public key, name)")
        if not is_name(seat[1]):
            raise _fail(f"seat {number}'s name must be 1..{MAX_NAME} printable characters, got {_show(seat[1])}")
    if type(session) is not bytes or len(session) != 16:
        raise _fail("session id must be 16 bytes")
    if type(created) is not int or not 0 <= created <= MAX_CREATED:
        raise _fail(f"created must be unix seconds 0..{MAX_CREATED} (the end of the year 9999), got {_show(created)}")
    if major == 1:
        return Header(game, rules, players, options, seats, session, created, major, minor, None, tuple(value[10:]))
    if len(value) < 11:
        raise _fail("a format 2 header ends with the agreed terms")
    terms = Terms.from_value(value[10])
    if terms.host_seat is not None and terms.host_seat >= players:
        raise _fail(f"the host seat {terms.host_seat} is not a seat of this {players}-seat game")
    extra = tuple(value[11:])
    if minor == 2 and (not terms.extended or not extra or Spectating.from_value(extra[0]) is None):
        raise _fail(f"a format 2.2 header ends with the spectators' terms [most 1..{MAX_SPECTATORS}, delay "
                    f"0..{MAX_SPECTATOR_DELAY} frames] after terms of seven items")
    if minor == 3 and (not terms.extended or len(extra) < 2 or Spectating.from_value(extra[0]) is None
                       or type(extra[1]) is not int or extra[1] != 1):
        raise _fail(f"a format 2.3 header ends with the spectators' terms [most 1..{MAX_SPECTATORS}, delay "
                    f"0..{MAX_SPECTATOR_DELAY} frames] and 1 (they hear the chat) after terms of seven items")
    return Header(game, rules, players, options, seats, session, created, major, minor, terms, extra)
