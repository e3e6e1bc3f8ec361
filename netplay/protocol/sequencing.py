"""Sequencing and relay: the host's order is the game's order.

The host accepts every frame, its own and its joiners', through its ledger (signature, chain, turn,
legality, digest), writes it, and only then sends it to every joiner, the author included, with its
signed certificate `(session, seq, hash)` in games of three seats or more. A frame that reaches it from
any peer counts (a joiner may pass on another seat's answer to a claim). A joiner that has not
acknowledged the last frame gets what it misses again (Lazy Pirate: after `RESEND_S`, then twice as
long up to 4 s), and a joiner that asks (`want`) or sends a copy of a frame already sequenced gets the
frames from there on. With no direct link between two joiners, the host relays their messages
(`relay` -> `relayed`): it can drop them, never forge what matters (frames and acknowledgements are
signed by their authors).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from netplay import wire
from netplay.protocol.core import BURST, RESEND_S
from netplay.protocol.state import Phase
from replays import codec
from replays.certs import sign_cert
from replays.frames import Frame, decode_frame
from replays.ledger import Dispute, Rejected

if TYPE_CHECKING:   # (machines imports this module)
    from netplay.protocol.book import Accepted, Book
    from netplay.protocol.claims import Claims
    from netplay.protocol.core import Link

log = logging.getLogger("netplay.session")

__all__ = ["Sequencer", "SequencerHost"]


@runtime_checkable
class SequencerHost(Protocol):
    """What of the host's machine its sequencing reads and calls (tests/test_protocol_state.py holds the
    module to it)."""

    book: Book | None
    claims: Claims
    identity: Any
    links: dict[bytes, Link]
    now: float
    on_ack: Callable[[int, int], None] | None
    players: int

    @property
    def phase(self) -> Phase: ...
    def require_book(self) -> Book: ...
    def applied(self, accepted: Accepted, own: bool) -> None: ...
    def finish(self, code: int, message: str) -> None: ...
    def report_dispute(self, dispute: Dispute | None) -> None: ...
    def say(self, line: str) -> None: ...
    def send(self, to: bytes, tag: str, *fields: Any) -> None: ...
    def send_raw(self, to: bytes, data: bytes) -> None: ...
    def strip_first(self, frame: Frame) -> None: ...
    def write(self, frame: Frame | bytes | None, *records: tuple) -> None: ...


class Sequencer:
    def __init__(self, machine: SequencerHost):
        self.m = machine

    # ------------------------------------------------------------------------------ frames

    def own(self, frame: Frame) -> None:
        """Our own frame: accepted, written and relayed at once."""
        m = self.m
        try:
            accepted = m.require_book().accept(frame)
        except (Rejected, Dispute) as exc:   # our own frame: a bug here, never the peers' fault
            m.finish(1, f"this peer's own frame {frame.seq} was refused by its ledger: {exc}")
            return
        m.write(frame)
        self.relay(frame)
        m.applied(accepted, own=True)

    def on_frame(self, key: bytes, data: bytes, cert: bytes) -> None:
        m = self.m
        link = m.links.get(key)
        book = m.book
        if link is None or link.seat is None or m.phase is not Phase.PLAY or book is None:
            log.warning("dropped a frame from %s: no game under way for it", key.hex()[:8])
            return
        try:
            frame = decode_frame(data)
        except codec.FormatError as exc:
            self.reject(link, -1, "frame", f"malformed frame: {exc.reason}")
            return
        nxt = len(book.frames)
        if frame.session != book.header.session:
            self.reject(link, -1, "frame", "a frame of another session")
            return
        if frame.seq < nxt:
            if book.frames[frame.seq].hash == frame.hash:
                log.warning("a copy of frame %d from %s: replayed frame (already sequenced)", frame.seq,
                            wire.clip(link.name, 64))
                if link.acked < frame.seq:          # it may have missed our copy: the frames from there on
                    self.serve(link, link.acked + 1)
            else:
                self.reject(link, frame.seq, "frame", f"stale or conflicting frame {frame.seq}: it is already "
                                                      "another one")
            return
        if frame.seq > nxt:
            self.reject(link, frame.seq, "frame", f"frame {frame.seq} ahead of frame {nxt}, which is next")
            return
        problem = m.claims.premature(frame)
        late = m.claims.late_answer(frame)
        if late is not None:
            problem = ("late", late)
        if problem is not None:
            log.warning("refused a timeout claim from %s (seat %s): %s", link.name, link.seat, problem[1])
            m.send(key, "reject", frame.seq, problem[0], wire.clip(problem[1]))
            return
        if book.ledger.closed and not (frame.kind == "contest" and book.ledger.status == "unfinished"):
            m.send(key, "reject", frame.seq, "closed", "the game is over")
            return
        try:
            accepted = book.accept(frame)
            frame = accepted.frame
        except Rejected as exc:
            self.reject(link, -1 if exc.frame_no is None else exc.frame_no, "frame", exc.reason)
            return
        except Dispute as exc:
            evidence = book.evidence()
            if evidence is not None:
                m.write(evidence)
                self.relay(evidence)          # the others record the evidence too
            for other in self.joiners():
                m.send(other.key, "dispute", data, wire.clip(exc.reason))
            m.report_dispute(exc)
            return
        m.write(frame)
        self.relay(frame)
        m.applied(accepted, own=False)
        m.strip_first(frame)

    def reject(self, link: Link, seq: int, code: str, reason: str) -> None:
        log.warning("rejected a frame from %s (seat %s): %s", wire.clip(link.name, 64), link.seat, reason)
        self.m.send(link.key, "reject", seq if 0 <= seq <= wire.MAX_SEQ else -1, code, wire.clip(reason))

    def joiners(self) -> list[Link]:
        return [link for link in self.m.links.values() if link.seat is not None and link.up]

    def cert(self, frame: Frame) -> bytes:
        """The host's certificate that `frame` is frame `seq` (only where there are other joiners to be told
        different things: with two seats there is nobody to tell)."""
        m = self.m
        if m.players <= 2:
            return b""
        certs = m.require_book().certs
        if frame.seq < len(certs) and certs[frame.seq]:
            return certs[frame.seq]
        cert = sign_cert(m.identity.private_key, m.require_book().header.session, frame.seq, frame.hash)
        if frame.seq < len(certs):
            certs[frame.seq] = cert
        return cert

    def relay(self, frame: Frame) -> None:
        """Send a sequenced frame to every joiner, the one whose frame comes next first."""
        m = self.m
        message = wire.pack("frame", frame.encode(), self.cert(frame))
        links = self.joiners()
        nxt = m.require_book().ledger.awaited()
        if nxt is not None and len(links) > 1:
            links.sort(key=lambda link: nxt[1] not in link.seats)
        for link in links:
            m.send_raw(link.key, message)
            link.sent_at = m.now

    def serve(self, link: Link, seq: int) -> None:
        """Frames from `seq` on for a joiner that asks (or shows it misses them): at most one burst per
        `RESEND_S`, so that nobody can make the host send more than it is sent."""
        if self.m.now - link.served_at >= RESEND_S:
            link.served_at = self.m.now
            self.send_from(link, seq)

    def send_from(self, link: Link, seq: int) -> None:
        """The sequenced frames from `seq` on (at most BURST) to one joiner."""
        m = self.m
        frames = m.require_book().frames
        for frame in frames[max(0, seq):max(0, seq) + BURST]:
            m.send(link.key, "frame", frame.encode(), self.cert(frame))
        link.sent_at = m.now

    # ------------------------------------------------------------------------------ acknowledgements

    def on_ack(self, key: bytes, seq: int, frame_hash: bytes, cert: bytes, sig: bytes) -> None:
        m = self.m
        link = m.links.get(key)
        book = m.book
        if link is None or link.seat is None or book is None:    # (no game, no ack: state.HOST_ACCEPTS)
            return
        frames = book.frames
        if not 0 <= seq < len(frames) or frames[seq].hash != frame_hash:
            log.warning("%s acknowledged a frame %d the host does not have (transcripts fork?)", link.name, seq)
            return
        if seq > link.acked:
            link.acked = seq
            link.resend_s = RESEND_S
        if m.on_ack is not None:
            m.on_ack(link.seat, seq)

    def on_want(self, key: bytes, seq: int) -> None:
        m = self.m
        link = m.links.get(key)
        if link is None or link.seat is None or m.book is None:
            return
        self.serve(link, seq)

    def tick(self) -> None:
        """A joiner that has not acknowledged the last frame gets the frames after its last ack again."""
        m = self.m
        book = m.book
        if book is None or m.phase is Phase.LOBBY:
            return
        last = book.seq
        for link in self.joiners():
            if link.acked < last and m.now - link.sent_at >= link.resend_s:
                self.send_from(link, link.acked + 1)
                link.resend_s = min(4.0, link.resend_s * 2)

    # ------------------------------------------------------------------------------ relay for joiners

    def on_relay(self, key: bytes, to: bytes, payload: bytes) -> None:
        """A joiner's message for another joiner it cannot reach directly."""
        m = self.m
        sender, target = m.links.get(key), m.links.get(to)
        if sender is None or sender.seat is None or target is None or target.seat is None or not target.up \
                or to == key:
            return
        m.send(to, "relayed", key, payload)

    def on_dispute(self, key: bytes, evidence: bytes, reason: str) -> None:
        """A joiner reports a dispute with the signed frame that proves it: the host re-checks that frame
        through its own ledger, and otherwise logs the report and plays on."""
        m = self.m
        link = m.links.get(key)
        book = m.book
        if link is None or link.seat is None or book is None:    # (in play only: state.HOST_ACCEPTS)
            return
        text = f"{link.name} (seat {link.seat}) reports a dispute: {wire.clip(reason)}"
        try:
            frame = decode_frame(evidence)
        except codec.FormatError as exc:
            m.say(f"{text}; its evidence is no frame ({exc.reason}): playing on")
            return
        frames = book.frames
        if frame.seq < len(frames) and frames[frame.seq].hash == frame.hash:
            m.say(f"{text}; it concerns frame {frame.seq}, which this host checked and accepted: playing on")
            return
        if frame.seq == len(frames):
            self.on_frame(key, evidence, b"")   # the evidence is checked like any frame
            return
        m.say(f"{text}; its evidence (frame {frame.seq}) does not fit this transcript: playing on")
