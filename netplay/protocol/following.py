"""Following the sequencer: a joiner applies frames only as the host sequenced them, and makes sure the
host cannot decide alone what it sees.

- A frame counts when the host sequenced it: in a two-seat game, one that came from the host; with three
  seats or more, one that carries the host's valid certificate, from whichever peer it came.
- Every applied frame is written first, then acknowledged (`ack`, signed with three seats or more) to the
  host and to every other joiner: so every joiner learns directly what every other one holds. One that
  holds another frame for a number than we do, under the host's certificate, proves that the host
  equivocated; we record both certificates, name the host and stop (status 4), live.
- A frame we miss (the host withheld it from us, or it was lost) shows as a gap: a frame numbered ahead,
  or another joiner's acknowledgement of a frame we do not have. We ask (`want`) the host and the joiner
  that holds it; any of them can send it, under the host's certificate.
- Our own frame goes to the host and stays in flight until a sequenced frame takes its number; it is sent
  again (after `RESEND_S`, then twice as long up to 4 s) until then. An answer to a claim against us also
  goes to every other joiner, so none of them co-signs our forfeit.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from netplay import wire
from netplay.protocol.core import BURST, EXIT_DISPUTE, JOINER_GRACE, RESEND_S
from netplay.protocol.state import Event, Phase
from replays import codec
from replays.certs import Cert, sign_ack, verify_ack, verify_cert
from replays.frames import Frame, decode_frame
from replays.ledger import Dispute, Rejected

if TYPE_CHECKING:   # (machines imports this module)
    from netplay.deadlines import Deadlines
    from netplay.protocol.book import Accepted, Book
    from netplay.protocol.claims import Claims
    from netplay.protocol.seams import AnsweredLobby
    from netplay.protocol.state import SessionState

log = logging.getLogger("netplay.session")

__all__ = ["Follower", "FollowerJoiner"]

MAX_AHEAD = 256      # sequenced frames (and other joiners' acknowledgements) kept beyond the next one
PULL_S = 0.5         # a gap is asked for after this long (a frame may just be on its way)


@runtime_checkable
class FollowerJoiner(Protocol):
    """What of a joiner's machine its following of the host's sequence reads and calls (tests/
    test_protocol_state.py holds the module to it)."""

    book: Book | None
    claims: Claims
    deadlines: Deadlines | None
    host_key: bytes
    identity: Any
    @property
    def lobby(self) -> AnsweredLobby: ...   # read only: a seam (seams.py) the machine's own class fits
    now: float
    outcome: Any
    players: int

    @property
    def phase(self) -> Phase: ...
    @property
    def state(self) -> SessionState: ...
    @property
    def host_seat(self) -> int | None: ...
    def require_book(self) -> Book: ...
    def require_deadlines(self) -> Deadlines: ...
    def applied(self, accepted: Accepted, own: bool) -> None: ...
    def finish(self, code: int, message: str) -> None: ...
    def host_up(self) -> bool: ...
    def move(self, event: Event) -> None: ...
    def other_joiners(self) -> list[bytes]: ...
    def report_dispute(self, dispute: Dispute | None) -> None: ...
    def route(self, to: bytes, data: bytes) -> None: ...
    def say(self, line: str) -> None: ...
    def seat_of_peer(self, key: bytes) -> int | None: ...
    def send(self, to: bytes, tag: str, *fields: Any) -> None: ...
    def send_raw(self, to: bytes, data: bytes) -> None: ...
    def stop_unfinished(self, why: str) -> None: ...
    def strip_first(self, frame: Frame) -> None: ...
    def write(self, frame: Frame | bytes | None, *records: tuple) -> None: ...


class Follower:
    def __init__(self, machine: FollowerJoiner):
        self.m = machine
        self.reset()

    def reset(self) -> None:
        self.pending: Frame | None = None     # our own frame in flight
        self.pending_at = 0.0                 # when it was last sent
        self.pending_since = 0.0              # when it was first sent
        self.resend_s = RESEND_S
        self.hold_seq: int | None = None      # the host refused our frame for this number: not again
        self.hold_since = 0.0                 # ... since when (a refusal the host never follows up has a bound)
        self.ahead: dict[int, tuple[Frame, bytes]] = {}
        self.acks: dict[tuple[bytes, int], tuple[bytes, bytes, bytes]] = {}
        self.holders: dict[bytes, int] = {}   # peer key -> the highest frame it acknowledged
        self.gap_since: float | None = None
        self.wanted_at = -1e9
        self.served: dict[bytes, float] = {}   # peer key -> when we last answered its `want`
        self.reported: list[Frame] = []        # frames another peer disputed, for slots we have not reached

    # ------------------------------------------------------------------------------ frames

    def sequenced(self, key: bytes, frame: Frame, cert: bytes) -> bool:
        m = self.m
        if m.players <= 2:
            return key == m.host_key
        return len(cert) == 64 and verify_cert(m.host_key, m.require_book().header.session, frame.seq, frame.hash, cert)

    def on_frame(self, key: bytes, data: bytes, cert: bytes) -> None:
        m = self.m
        book = m.book
        if book is None or m.phase is not Phase.PLAY:
            log.warning("dropped a frame: no game under way")
            return
        try:
            frame = decode_frame(data)
        except codec.FormatError as exc:
            log.warning("dropped a frame from %s: malformed frame: %s", key.hex()[:8], exc.reason)
            return
        if frame.session != book.header.session:
            log.warning("dropped a frame of another session (%s) from %s", frame.session.hex()[:8], key.hex()[:8])
            return
        if not self.sequenced(key, frame, cert):
            m.claims.signed_by(frame)       # its author was playing there, on whatever branch (claims.py)
            m.claims.seen_frame(frame)      # its author sent it; the host has not sequenced it (yet)
            return
        nxt = len(book.frames)
        if frame.seq != nxt:
            m.claims.signed_by(frame)       # (the one applied now is recorded once the ledger checked it)
        if frame.seq < nxt:
            mine = book.frames[frame.seq]
            if mine.hash != frame.hash and m.players > 2 and book.sequenced(frame.seq) and book.certs[frame.seq]:
                self.equivocation(frame.seq, frame.hash, cert, None, None, data)
            elif mine.hash == frame.hash:
                log.warning("replayed frame %d (already applied): dropped", frame.seq)
            else:
                log.warning("dropped a stale or conflicting frame %d from %s", frame.seq, key.hex()[:8])
            return
        if frame.seq > nxt:
            log.warning("frame %d arrived ahead of frame %d: kept, and the frames between are asked for",
                        frame.seq, nxt)
            if len(self.ahead) < MAX_AHEAD or frame.seq in self.ahead:
                self.ahead[frame.seq] = (frame, cert)
            self._gap()
            return
        self.apply(frame, cert)
        self.drain()

    def drain(self) -> None:
        """Apply what waited behind a gap, as far as it goes now."""
        m = self.m
        for _ in range(MAX_AHEAD):
            if m.outcome is not None or m.book is None:
                return
            nxt = len(m.book.frames)
            found = self.ahead.pop(nxt, None)
            if found is None:
                for seq in [s for s in self.ahead if s < nxt]:
                    del self.ahead[seq]
                return
            self.apply(*found)

    def apply(self, frame: Frame, cert: bytes) -> None:
        m = self.m
        book = m.require_book()
        own = self.pending
        if own is not None and frame.hash == own.hash and frame.signature == own.signature:
            # our own frame come back sequenced, byte for byte the one our ledger built, signed and checked on
            # this very state: accepted as built (`Frame.checked`), not checked again (the ledger still checks
            # it in full if its state moved on meanwhile; every other peer and the audit check it in full)
            frame = own
        try:
            accepted = book.accept(frame, cert)
            frame = accepted.frame
        except Rejected as exc:
            log.warning("rejected a sequenced frame: %s", exc.reason)
            m.claims.signed_by(frame)       # (another branch's frame still shows that its author played)
            return
        except Dispute as exc:
            evidence = book.evidence()
            if evidence is not None:
                m.write(evidence, *self._cert_records(evidence.seq, evidence.hash, cert))
            report = wire.pack("dispute", frame.encode(), wire.clip(exc.reason))
            m.send_raw(m.host_key, report)
            for peer in m.other_joiners():      # the others learn it too: no host can then claim that we
                m.route(peer, report)           # withheld the frames that would have followed
            m.report_dispute(exc)
            return
        m.write(frame, *self._cert_records(frame.seq, frame.hash, cert))
        m.claims.signed_by(frame, checked=True)
        if m.state.unstarted():
            # the host sequences frames only once every seat started: the game is on, though its `synced`
            # never came (lost with a host killed right after it: full-mix plan 1006288); our `start` goes
            # unanswered no more, and a later reconnection resumes from our last frame
            m.move(Event.GAME_ON)
            m.lobby.answered()
        if self.pending is not None and (frame.hash == self.pending.hash or frame.seq >= self.pending.seq):
            self.pending = None
            self.resend_s = RESEND_S
        if self.hold_seq is not None and book.seq >= self.hold_seq:
            self.hold_seq = None
        self.gap_since = None
        m.strip_first(frame)   # (the frame is on disk: what we send next may rest on it)
        self.acknowledge(frame, cert)
        m.applied(accepted, book.holds(frame.seat))
        self._check_acks(frame.seq)
        for reported in [r for r in self.reported if r.seq <= frame.seq]:
            self.reported.remove(reported)
            if m.outcome is None and self.twin(reported):
                return

    def _cert_records(self, seq: int, frame_hash: bytes, cert: bytes) -> tuple[tuple, ...]:
        host = self.m.host_seat
        return (Cert("cert", host, seq, frame_hash, cert).value(),) if cert and host is not None else ()

    def acknowledge(self, frame: Frame, cert: bytes) -> None:
        m = self.m
        signed = m.players > 2
        session = m.require_book().header.session
        sig = sign_ack(m.identity.private_key, session, frame.seq, frame.hash) if signed else b""
        message = wire.pack("ack", frame.seq, frame.hash, cert, sig)
        m.send_raw(m.host_key, message)
        if signed:
            for peer in m.other_joiners():
                m.route(peer, message)

    # ------------------------------------------------------------------------------ other joiners' acknowledgements

    def on_ack(self, key: bytes, seq: int, frame_hash: bytes, cert: bytes, sig: bytes) -> None:
        """Another joiner's signed acknowledgement: it holds frame `seq` under the host's certificate."""
        m = self.m
        book = m.book
        if book is None or m.players <= 2 or key == m.host_key:   # (a game's, never the lobby's: state.py)
            return
        if m.seat_of_peer(key) is None:
            return
        # checked first: an unsigned acknowledgement (or one relayed and altered by the host) must not make us
        # believe that a peer holds frames, nor ask it for them, nor linger for it (issue 32)
        if not self._signed(key, seq, frame_hash, cert, sig):
            return
        if seq > self.holders.get(key, -1):
            self.holders[key] = seq
        frames = book.frames
        if seq < len(frames):
            if frames[seq].hash != frame_hash and book.sequenced(seq) and book.certs[seq]:
                self.equivocation(seq, frame_hash, cert, key, sig)
            return
        if len(self.acks) < MAX_AHEAD:
            self.acks[(key, seq)] = (frame_hash, cert, sig)
        self._gap()

    def _signed(self, key: bytes, seq: int, frame_hash: bytes, cert: bytes, sig: bytes) -> bool:
        m = self.m
        session = m.require_book().header.session
        if not (verify_ack(key, session, seq, frame_hash, sig) and verify_cert(m.host_key, session, seq, frame_hash,
                                                                                cert)):
            log.warning("dropped an acknowledgement that is not signed as it should be")
            return False
        return True

    def _check_acks(self, upto: int) -> None:
        book = self.m.require_book()
        frames = book.frames
        for (key, seq), (frame_hash, cert, sig) in list(self.acks.items()):
            if seq >= len(frames) or seq > upto:
                continue
            del self.acks[(key, seq)]
            if frames[seq].hash != frame_hash and book.sequenced(seq):     # (its signatures checked on arrival)
                self.equivocation(seq, frame_hash, cert, key, sig)
                return

    def equivocation(self, seq: int, frame_hash: bytes, cert: bytes, key: bytes | None, sig: bytes | None,
                     other: bytes | None = None) -> None:
        """Two frames for one number, each under the host's certificate: the host sent different frames to
        different seats (or two to us: `other`, the second one's bytes). Both certificates go into our replay;
        the host is named."""
        m = self.m
        book = m.book
        host = m.host_seat
        # a 2.0 header names no host seat, and a key the header lacks has no seat: the record then holds nil
        # there, as it always has (Cert's fields say what a record read back holds, checked by the reader)
        if key is None:
            record = Cert("cert", host, seq, frame_hash, cert)  # type: ignore[arg-type]
        else:
            record = Cert("ack", m.seat_of_peer(key), seq, frame_hash, sig, host, cert)  # type: ignore[arg-type]
        m.write(None, record.value())
        if other is not None and m.players > 2:
            # the host sent us a second frame for a number: the other joiners hold the first one, as we do, and
            # would take our silence from here on for a seat that withholds its frames and co-sign the host's
            # claim against it (full-mix seed 1008899). The second frame, under its certificate, is the proof
            # for them too: each then stops naming the host. (Where another joiner's acknowledgement showed the
            # fork, that joiner holds the other frame and our own acknowledgements show it the fork as well.)
            message = wire.pack("frame", other, cert)
            for peer in m.other_joiners():
                m.route(peer, message)
        assert book is not None, "an equivocation is found in the frames of a game under way"
        text = (f"DISPUTE: the host (seat {host}) sent different frames as frame {seq}: this peer holds "
                f"{book.frames[seq].hash.hex()[:16]}..., another seat holds {frame_hash.hex()[:16]}..., each under "
                "the host's signed certificate (both are in the replay)")
        m.say(text)
        m.finish(EXIT_DISPUTE, f"{text}; replay {book.path}")

    def twin(self, frame: Frame) -> bool:
        """A frame that its author signed for a slot where we hold another frame of that author (the same
        number and predecessor): the author signed two frames for one slot, which proves it lied. Kept in our
        replay as a `twin` record; we stop, naming that seat. False if `frame` proves nothing."""
        m = self.m
        book = m.require_book()
        if frame.session != book.header.session or frame.seq < 0:
            return False
        if frame.seq >= len(book.frames):
            if len(self.reported) < 16 and frame.seq < len(book.frames) + MAX_AHEAD:
                self.reported.append(frame)     # judged when we reach that slot
            return False
        mine = book.frames[frame.seq]
        if (mine.hash == frame.hash or mine.seat != frame.seat or mine.prev != frame.prev
                or not frame.verify(book.ledger.publics[frame.seat])):
            return False
        m.write(None, ("twin", frame.seq, frame.encode()))
        text = (f"DISPUTE: seat {frame.seat} signed two different frames as frame {frame.seq}: this peer holds "
                f"{mine.hash.hex()[:16]}..., another peer was sent {frame.hash.hex()[:16]}... (both are in the replay)")
        m.say(text)
        m.finish(EXIT_DISPUTE, f"{text}; replay {book.path}")
        return True

    # ------------------------------------------------------------------------------ gaps

    def _gap(self) -> None:
        if self.gap_since is None:
            self.gap_since = self.m.now

    def on_want(self, key: bytes, seq: int) -> None:
        """Another joiner misses frames we hold: the sequenced ones from `seq` on (at most BURST)."""
        m = self.m
        book = m.book
        if book is None or key == m.host_key or m.seat_of_peer(key) is None:
            return
        if m.now - self.served.get(key, -1e9) < PULL_S:
            return    # one burst per interval: nobody makes us send more than it is sent
        self.served[key] = m.now
        for n in range(max(0, seq), min(len(book.frames), max(0, seq) + BURST)):
            if not book.sequenced(n):
                break
            m.route(key, wire.pack("frame", book.frames[n].encode(), book.certs[n]))

    def tick(self) -> None:
        m = self.m
        book = m.book
        if book is None or m.phase is not Phase.PLAY or m.outcome is not None:
            return
        pending = self.pending
        if pending is not None and m.host_up() \
                and m.now - self.pending_since > m.require_deadlines().timeout + JOINER_GRACE:
            if m.players > 2:
                # before we stop, our frame goes to every other joiner: signed by us for this slot, it shows that
                # we played it, so none of them co-signs the claim the host may make against our silence
                # (the long campaign's seed 1023599: the host deaf to one joiner, whose direct links stayed up)
                data = wire.pack("frame", pending.encode(), b"")
                for peer in m.other_joiners():
                    m.route(peer, data)
            m.stop_unfinished(f"the host has not sequenced our frame {pending.seq} for "
                              f"{m.now - self.pending_since:.0f} s")
            return
        # the host refused our frame and sequences nothing for its number (it may hold another branch: a frame
        # of its own that it showed us in another version): as long a wait as for a frame never sequenced
        if (self.hold_seq is not None and m.host_up()
                and m.now - self.hold_since > m.require_deadlines().timeout + JOINER_GRACE):
            m.stop_unfinished(f"the host refused our frame {self.hold_seq} and sequenced no frame for it in "
                              f"{m.now - self.hold_since:.0f} s")
            return
        if pending is not None and m.now - self.pending_at >= self.resend_s:
            m.send(m.host_key, "frame", pending.encode(), b"")
            self.pending_at = m.now
            self.resend_s = min(4.0, self.resend_s * 2)
        nxt = len(book.frames)
        behind = [k for k, seq in self.holders.items() if seq >= nxt]
        if self.ahead or behind:
            self._gap()
        else:
            self.gap_since = None
        if self.gap_since is not None and m.now - self.gap_since >= PULL_S and m.now - self.wanted_at >= PULL_S:
            self.wanted_at = m.now
            m.send(m.host_key, "want", nxt)
            if behind:
                best = max(behind, key=lambda k: self.holders[k])
                m.route(best, wire.pack("want", nxt))

    # ------------------------------------------------------------------------------ our own frames

    def emit(self, frame: Frame) -> None:
        m = self.m
        ledger = m.require_book().ledger
        claim = ledger.claim
        self.pending, self.pending_at, self.pending_since, self.resend_s = frame, m.now, m.now, RESEND_S
        m.claims.sent(frame)
        data = wire.pack("frame", frame.encode(), b"")
        m.send_raw(m.host_key, data)
        if claim is not None and m.require_book().holds(claim.blamed) and m.players > 2:
            for peer in m.other_joiners():    # our answer (or contest): no other joiner co-signs our forfeit
                m.route(peer, data)

    def on_reject(self, key: bytes, seq: int, code: str, reason: str) -> None:
        m = self.m
        if key != m.host_key:
            return
        log.warning("the host rejected our frame %d (%s): %s", seq, code, wire.clip(reason))
        if m.claims.rejected(seq, code, wire.clip(reason)):
            return
        if self.pending is not None and self.pending.seq == seq:
            self.hold_seq, self.hold_since = seq, m.now
            self.pending = None
