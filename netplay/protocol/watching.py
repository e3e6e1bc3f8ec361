"""A spectator, as a state machine without I/O (the host's side is netplay/protocol/spectators.py).

It asks the host to `watch` from the frames it holds, takes the header (which must let spectators watch, with
the host's key at the host's seat), then every frame with its signed release, and runs every frame through the
audit's own observer ledger (`replays.ledger.Ledger(header, me=None)`): every signature, every chain link, every
reveal against its commitment as the game goes. Each frame is written with its release (and the host's
certificate, three seats or more) to the spectator's copy, which `netplay replay verify` audits: the releases in
it prove when each frame reached this spectator. A release whose tip is too early, or whose tip hash is not the
tip frame's once that frame comes, is the host's signed fault; the spectator says so and stops (the copy holds the
evidence). Unsigned things (a `bye`'s reason, a refusal) are only ever shown, never evidence.

Beside the frames the host sends a `table` message after a burst whose clocks changed by a second, or with a
chat line (netplay/protocol/table_notes.py): every seat's clock when the burst's last frame became the last, and,
when the header lets spectators hear it, the players' chat said up to that frame. Both are the host's unsigned
word: shown (`seat_clocks`, `chat`, a line said for each chat line and for the clocks every `CLOCK_LINE_FRAMES`
frames), never written to the copy, never evidence.

Effects: `fx.Send` (to the host), `fx.Say`, `fx.OpenReplay` (the copy's header), `fx.Write` (a frame and its
records); the shell writes the `spectator` record right after the header.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engines
from engines.core import HIDDEN, Game
from netplay import wire
from netplay.deadlines import DECISIONS
from netplay.protocol import effects as fx
from netplay.protocol.clocks import SeatClock
from netplay.protocol.core import EXIT_DISPUTE, EXIT_FAILED, EXIT_OK, Outcome, result_text
from netplay.protocol.table_notes import Said
from replays import codec
from replays.certs import verify_cert
from replays.frames import Frame, decode_frame
from replays.header import Header, header_from_value
from replays.ledger import Dispute, Ledger, Rejected
from replays.releases import Release, verify_release

log = logging.getLogger("netplay.session")

__all__ = ["WatchMachine", "Prefix", "TableClocks", "WANT_S"]

WANT_S = 1.0        # a gap is asked for again at most this often
WATCH_S = 2.0       # an unanswered `watch` is sent again after this
AHEAD = 512         # frames kept that came ahead of a missing one (bounded: a host can send any number)
BYE_S = 3.0         # after the host's `bye`, a copy that still lacks frames waits this long for them
CHAT_KEPT = 500     # chat lines kept for a table to show
CLOCK_LINE_FRAMES = 20   # the clocks are said (a line) at most once per this many frames, and at the end


@dataclass(frozen=True, slots=True)
class TableClocks:
    """The clocks the host said with frame `seq`: each seat's ms left when that frame became the last (None: no
    move clock), and when they came by this spectator's clock (the running one is counted down from then)."""

    seq: int
    left_ms: tuple[int | None, ...]
    at: float


@dataclass(slots=True)
class Prefix:
    """What a spectator already holds of the game (its copy read back): it watches on from there."""

    header: Header
    frames: list[Frame] = field(default_factory=list)
    releases: list[Release] = field(default_factory=list)


class WatchMachine:
    role = "spectator"

    def __init__(self, identity: Any, host_key: bytes, *, version: str = "0", prefix: Prefix | None = None,
                 games: dict[str, Game] | None = None):
        self.identity, self.host_key, self.version, self.games = identity, host_key, version, games
        self.outbox: list[fx.Effect] = []
        self.outcome: Outcome | None = None
        self.now = 0.0
        self.header: Header | None = None
        self.ledger: Ledger | None = None
        self.releases: list[Release] = []
        #: test hook: every message's bytes as they came from the host, before anything else looks at them
        self.on_message: Any = None
        self.watch_at = -1e9
        self.want_at = -1e9
        self.up = False
        self.gone_at: float | None = None
        #: releases whose tip frame has not come yet (checked when it does); the frame that ended the game
        self.unchecked: list[Release] = []
        self.closed_at: int | None = None
        #: a frame was missed (one numbered ahead came): while the copy stalls, `want` is asked again every
        #: `WANT_S` (the want itself, or the frames it brought, may be lost too)
        self.gap = False
        self.ahead: dict[int, tuple] = {}   # releases of frames after a missing one, by number (at most `AHEAD`)
        self.wanted_held = -1
        #: the host's `bye` while the copy was not whole: (when, its words); the spectator asks for what it lacks
        #: and ends only when the link goes, or after `BYE_S` without a frame
        self.bye: tuple[float, str] | None = None
        self.clocks: TableClocks | None = None
        self.chat: list[Said] = []          # the players' chat as the host let it go (the newest `CHAT_KEPT`)
        self.clocks_said = -CLOCK_LINE_FRAMES
        self.frame_at = 0.0                 # when the newest frame of the copy came (the running clock's start)
        if prefix is not None:
            self._take_header(prefix.header, opened=True)
            ledger = self.ledger
            assert ledger is not None
            for frame, release in zip(prefix.frames, prefix.releases, strict=False):
                ledger.accept(frame)
                self.releases.append(release)

    # ------------------------------------------------------------------------------ inputs

    @property
    def held(self) -> int:
        return len(self.ledger.frames) if self.ledger is not None else 0

    def linked(self, now: float, key: bytes, name: str = "") -> None:
        self.now = now
        if key == self.host_key:
            self.up, self.gone_at = True, None
            self._watch()

    def unlinked(self, now: float, key: bytes, reason: str = "") -> None:
        self.now = now
        if key == self.host_key and self.up:
            self.up, self.gone_at = False, now
            if self.bye is not None:
                self._left(self.bye[1])

    def tick(self, now: float) -> None:
        self.now = now
        if self.outcome is None and self.up and (self.gap or self.bye is not None) and now - self.want_at >= WANT_S:
            if self.held == self.wanted_held and self.bye is not None and now - self.bye[0] >= BYE_S:
                self._left(self.bye[1])
                return
            if self.held == self.wanted_held or self.bye is not None:
                self._want()
            self.wanted_held = self.held
        if self.outcome is None and self.up and self.header is None and now - self.watch_at >= WATCH_S:
            self._watch()

    def receive(self, now: float, key: bytes, data: bytes) -> None:
        self.now = now
        if self.on_message is not None:
            self.on_message(data)
        if key != self.host_key or self.outcome is not None:
            return
        try:
            tag, fields = wire.unpack(data)
        except wire.Malformed as exc:
            log.warning("spectator: dropped a message from the host: %s", exc.reason)
            return
        handlers: dict[str, Callable[..., None]] = {"header": self._on_header, "release": self._on_release,
                                                    "refused": self._on_refused, "bye": self._on_bye,
                                                    "table": self._on_table}
        handler = handlers.get(tag)
        if handler is None:
            log.warning("spectator: dropped a %s message: a spectator does not take it", tag)
            return
        handler(*fields)

    def drain(self) -> list[fx.Effect]:
        out, self.outbox = self.outbox, []
        return out

    # ------------------------------------------------------------------------------ messages

    def _watch(self) -> None:
        self.watch_at = self.now
        self.outbox.append(fx.Send(self.host_key, wire.pack("watch", wire.PROTO, self.version, self.held)))

    def _say(self, line: str) -> None:
        self.outbox.append(fx.Say(line))

    def _finish(self, code: int, message: str) -> None:
        if self.outcome is None:
            self.outcome = Outcome(code, message)

    def _take_header(self, header: Header, opened: bool) -> None:
        game = self.games[header.game] if self.games is not None and header.game in self.games else \
            engines.get(header.game)
        self.header, self.ledger = header, Ledger(header, None, game)
        if not opened:
            self.outbox.append(fx.OpenReplay(header))
            seats = ", ".join(f"seat {s}: {wire.clip(name, 64)}" for s, (_, name) in enumerate(header.seats))
            spectating = header.spectating
            assert spectating is not None
            self._say(f"watching {game.title or header.game} (session {header.session.hex()[:8]}; {seats}; "
                      f"{spectating.delay} frame(s) behind the players)")

    def _on_header(self, data: bytes) -> None:
        try:
            header = header_from_value(codec.decode(data))
        except codec.FormatError as exc:
            self._finish(EXIT_FAILED, f"the host sent a header this netplay cannot read: {exc.reason}")
            return
        if self.header is not None:
            if header.hash != self.header.hash:
                self._finish(EXIT_FAILED, "the host sent the header of another game than the one this copy holds")
            return
        terms = header.terms
        if header.spectating is None or terms is None or terms.host_seat is None:
            self._finish(EXIT_FAILED, "the host's header lets no spectator watch")
            return
        if header.seats[terms.host_seat][0] != self.host_key:
            self._finish(EXIT_FAILED, "the header does not name this host's key at its host seat")
            return
        try:
            self._take_header(header, opened=False)
        except (engines.UnknownGame, ValueError) as exc:
            self._finish(EXIT_FAILED, f"cannot watch this game: {exc}")

    def _on_release(self, data: bytes, cert: bytes, tip: int, tip_hash: bytes, sig: bytes) -> None:
        """A frame and its release; then those kept because they came ahead of a missing one, in order."""
        args: tuple | None = (data, cert, tip, tip_hash, sig)
        while args is not None and self.outcome is None:
            self._release(*args)
            args = self.ahead.pop(self.held, None)

    def _release(self, data: bytes, cert: bytes, tip: int, tip_hash: bytes, sig: bytes) -> None:
        header, ledger = self.header, self.ledger
        if header is None or ledger is None:
            return
        try:
            frame = decode_frame(data)
        except codec.FormatError as exc:
            log.warning("spectator: dropped a release: %s", exc.reason)
            return
        release = Release(frame.seq, frame.hash, tip, tip_hash, sig)
        terms = header.terms
        assert terms is not None and terms.host_seat is not None
        host_seat = terms.host_seat
        if not verify_release(header.seats[host_seat][0], header.session, self.identity.public_key, release):
            log.warning("spectator: dropped frame %d: its release is not the host's signature", frame.seq)
            return
        if frame.seq < self.held:
            return            # a copy of one we hold
        if frame.seq > self.held:
            self.gap = True
            if len(self.ahead) < AHEAD or frame.seq in self.ahead:    # kept (signed: checked again when applied)
                self.ahead[frame.seq] = (data, cert, tip, tip_hash, sig)
            if self.now - self.want_at >= WANT_S:
                self._want()
            return
        if header.players > 2 and not verify_cert(header.seats[host_seat][0], header.session, frame.seq, frame.hash,
                                                  cert):
            log.warning("spectator: dropped frame %d: it has no valid certificate of the host", frame.seq)
            return
        before, state = len(ledger.events), ledger.state
        records: tuple[tuple, ...] = ((("cert", host_seat, frame.seq, frame.hash, cert),) if header.players > 2
                                      else ()) + (release.value(),)
        try:
            ledger.accept(frame)
        except Rejected as exc:
            log.warning("spectator: dropped frame %d: %s", frame.seq, exc.reason)
            return
        except Dispute as exc:
            self.outbox.append(fx.Write(frame.encode(), records))
            self.releases.append(release)
            self._say(f"DISPUTE at frame {exc.frame_no}, seat {exc.seat}: {wire.clip(exc.reason)}")
            self._finish(EXIT_DISPUTE, f"DISPUTE at frame {exc.frame_no}, seat {exc.seat}: {wire.clip(exc.reason)}")
            return
        self.outbox.append(fx.Write(frame.encode(), records))
        self.releases.append(release)
        self.frame_at = self.now
        for line in describe(ledger, frame, state, ledger.events[before:]):
            self._say(f"frame {frame.seq}: {line}")
        self._check_releases()
        if self.outcome is None and ledger.closed:
            result = result_text(ledger.result, [name for _, name in header.seats]) \
                if ledger.status == "complete" else ledger.status
            self._say(f"game over: {result}")
            self._finish(EXIT_OK if ledger.status == "complete" else EXIT_FAILED, f"game over: {result}")
            # said at once, so the host waits for this spectator no longer (its shell says it again at its close)
            self.outbox.append(fx.Send(self.host_key, wire.pack("bye", "the spectator has the whole game")))

    def _check_releases(self) -> None:
        """Every release whose tip this copy now holds: on time (tip >= k + delay, or the game over at the tip)
        and naming the tip frame's hash; an early one is the host's signed fault."""
        header, ledger = self.header, self.ledger
        assert header is not None and ledger is not None and header.spectating is not None
        delay, last, frames = header.spectating.delay, self.held - 1, ledger.frames
        if ledger.closed and self.closed_at is None:
            self.closed_at = last
        waiting = []
        for release in self.unchecked + [self.releases[-1]]:
            if release.tip > last:
                waiting.append(release)
                continue
            ended = self.closed_at is not None and release.tip >= self.closed_at
            if release.tip < release.seq or (release.tip < release.seq + delay and not ended) \
                    or frames[release.tip].hash != release.tip_hash:
                text = (f"frame {release.seq} reached this spectator before its delay (the host released it at frame "
                        f"{release.tip}, under a delay of {delay}): the host's signed release is in the copy")
                self._say(text)
                self._finish(EXIT_DISPUTE, text)
                return
        self.unchecked = waiting

    def _on_table(self, seq: int, clocks: list, chat: list) -> None:
        """The clocks at frame `seq` and the chat said up to it (wire.py checked the shapes): shown, never kept in
        the copy. Chat the header keeps from spectators, or said at a frame after `seq`, is the host's error in
        its own unsigned words: dropped with a warning."""
        header = self.header
        if header is None or header.spectating is None or self.outcome is not None:
            return
        names = [wire.clip(name, 64) for _, name in header.seats]
        if chat and not header.spectating.chat:
            log.warning("spectator: dropped %d chat line(s): this game's terms keep the chat from spectators",
                        len(chat))
            chat = []
        for frame, seat, text in chat:
            if frame > seq:
                log.warning("spectator: dropped a chat line of frame %d sent with frame %d", frame, seq)
                continue
            said = Said(frame, seat, wire.clip(text))
            self.chat.append(said)
            who = names[seat] if 0 <= seat < len(names) else "someone"
            self._say(f"chat {who}: {said.text}")
        del self.chat[:-CHAT_KEPT]
        if len(clocks) != header.players or (self.clocks is not None and seq < self.clocks.seq):
            return        # no clocks yet (or not one per seat), or older than those shown
        self.clocks = TableClocks(seq, tuple(clocks), self.now)
        ledger = self.ledger
        if any(c is not None for c in clocks) and ledger is not None and (
                seq - self.clocks_said >= CLOCK_LINE_FRAMES or ledger.closed):
            self.clocks_said = seq
            shown = ", ".join(f"{names[c.seat]} {_mmss(c.left_s)}{' (to move)' if c.running else ''}"
                              for c in self.seat_clocks(self.now) if c.left_s is not None)
            self._say(f"clocks at frame {seq}: {shown}")

    def seat_clocks(self, now: float) -> list[SeatClock]:
        """Every seat's clock as the host last said it ([] before it said any); the seat whose decision is awaited
        after the newest frame of the copy runs, counted down by this spectator's clock since that frame (or the
        clocks) came. The host sends the clocks when a whole second of them changed (spectators.py `table`), so
        the figures are the host's within a second, late by the delay: a table's picture, never a deadline."""
        clocks, ledger = self.clocks, self.ledger
        if clocks is None or ledger is None:
            return []
        nxt = ledger.awaited() if not ledger.closed else None
        since = max(clocks.at, self.frame_at)
        out = []
        for seat, ms in enumerate(clocks.left_ms):
            running = nxt is not None and nxt[1] == seat and nxt[0] in DECISIONS
            left = None if ms is None else max(0.0, ms / 1000 - (max(0.0, now - since) if running else 0.0))
            out.append(SeatClock(seat, left, running))
        return out

    def _on_refused(self, code: str, reason: str) -> None:
        self._finish(EXIT_FAILED, f"the host refused: {wire.clip(reason)}")

    def _want(self) -> None:
        self.want_at, self.wanted_held = self.now, self.held
        self.outbox.append(fx.Send(self.host_key, wire.pack("want", self.held)))

    def _on_bye(self, reason: str) -> None:
        ledger = self.ledger
        if ledger is not None and ledger.closed:
            return
        if ledger is None or not self.up:
            self._left(reason)
            return
        # the host may have said it sent everything while a frame of it was lost on the way: ask for the rest
        # while the link stays up (the host lingers for a spectator it owes frames), then end
        self.bye = (self.now, reason)
        self._want()

    def _left(self, reason: str) -> None:
        self._finish(EXIT_FAILED, f"the host left (in its own words: {wire.clip(reason)}); the copy stops at frame "
                                  f"{self.held}")


def _mmss(seconds: float | None) -> str:
    whole = max(0, int(seconds or 0))
    return f"{whole // 60}:{whole % 60:02}"


def describe(ledger: Ledger, frame: Frame, state: Any, events: list) -> list[str]:
    """What a frame did, in the public words a spectator can say (no secret is known to it)."""
    lines = []
    for event in events:
        if event.kind == "chance":
            label = f"{event.chance.label} " if event.chance is not None and event.chance.label else ""
            if event.seat is None:
                value = " ".join(str(v) for v in event.value) if isinstance(event.value, tuple) else str(event.value)
                lines.append(f"chance: {label}{value}")
            else:
                lines.append(f"seat {event.seat} draws {label}in secret")
        elif event.value is HIDDEN:
            lines.append(f"seat {event.seat} has chosen in secret")
        else:
            try:
                lines.append(ledger.game.describe(state, event.seat, event.value))
            except Exception:   # a describe that trips over an unusual state must not stop the watching
                lines.append(f"seat {event.seat}: {event.value}")
    if not lines:
        lines.append(f"seat {frame.seat}: {frame.kind}")
    return lines
