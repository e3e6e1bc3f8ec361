"""A joiner's side of a session: check the host's offer (game known, same rules version, options
valid), check the header it composes (our key at our seat), then play: own frames go to the host and
count once the host sends them back; everything the host sends passes this peer's own ledger.

    session = JoinSession(identity, decider, "127.0.0.1:7000")   # any Decider: a bot, a UI
    outcome = session.run()

Resume (`saved=`): the ledger is rebuilt from this peer's replay file with its saved seed, and the
host is asked for the frames after our last one (we send its number and hash; nothing secret moves).
The same exchange runs after every reconnection of the transport and whenever a gap shows up.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

import engines
from netplay import resume, wire
from netplay.identity import Identity, KeyChanged, KnownPeers
from netplay.resume import SavedSeat
from netplay.session import (
    ANSWER_WINDOW,
    EXIT_DISPUTE,
    EXIT_FAILED,
    EXIT_FORFEIT,
    EXIT_OK,
    JOINER_GRACE,
    Decider,
    PeerState,
    Session,
    version,
)
from netplay.transcript import ResumeError, Transcript
from netplay.transport import JoinTransport, Refused
from replays import codec
from replays.certs import sign_ack, verify_ack, verify_cert
from replays.crypto import public_bytes
from replays.frames import Frame, decode_frame
from replays.header import Header, Terms, header_from_value
from replays.ledger import Dispute, Rejected, SeatSecrets
from replays.reader import Cert

log = logging.getLogger("netplay.session")

RESYNC_EVERY_S = 1.0
MAX_AHEAD = 256          # acknowledgements kept for frames this peer has not received yet


class JoinSession(Session):
    role = "joiner"

    def __init__(self, identity: Identity, decider: Decider, address: str, *, saved: SavedSeat | None = None,
                 known_peers: KnownPeers | None = None, connect_timeout_s: float = 10.0,
                 also: list[tuple[str, Decider]] | tuple = (), **kwargs: Any):
        super().__init__(identity, decider, **kwargs)
        self.address = address
        #: more seats this peer plays, by name: each with its own derived key and decider
        self.also = [(name, identity.seat_key(name), d) for name, d in also]
        self.offer: tuple | None = None
        self.header: Header | None = None
        self.pending: Frame | None = None
        self.synced = True
        self._claim_frame: Frame | None = None
        self._claim_deadline = 0.0
        self._claim_refused_at = -1e9
        self._refused: tuple[Frame, float] | None = None   # our claim the host refused, and its grace
        self.offered_terms: Terms | None = None
        self._held: list[tuple[Frame, bytes, float]] = []      # frames held back behind a claim we may not
        self._acks: dict[tuple[int, int], tuple[bytes, bytes, bytes]] = {}   # yet accept; acks not yet checkable
        self._last_resync = 0.0
        self._host_gone_at: float | None = None
        self.transport: JoinTransport | None = None
        if saved is not None:
            self._load(saved)
        self.transport = JoinTransport(identity, address, known_peers, connect_timeout_s=connect_timeout_s)
        if saved is not None and self.transport.host_key.hex() != saved.host_key:
            self.transport.close()
            raise ResumeError(f"the host at {address} is not the one of the saved game (key "
                              f"{self.transport.host_fingerprint})")
        self._gen = self.transport.generation
        self._hello()

    def _load(self, saved: SavedSeat) -> None:
        secrets = [SeatSecrets(saved.seat, self.identity.private_key, saved.seed_bytes)]
        by_name = {name: d for name, _, d in self.also}
        for seat, seed, name in saved.extra:
            secrets.append(SeatSecrets(seat, self.identity.seat_key(name), bytes.fromhex(seed)))
            self.deciders[seat] = by_name.get(name, self.decider)
        try:
            transcript = Transcript.resume(saved.replay, secrets, self.fsync)
        except ValueError as exc:      # the header's seat key is not ours
            raise ResumeError(f"cannot resume {saved.replay}: {exc}") from None
        if transcript.header.session != saved.session_id:
            transcript.close()
            raise ResumeError(f"{saved.replay} holds another session than the saved one")
        if transcript.ledger.closed:
            transcript.close()
            resume.remove(saved.session_id, saved.seat)
            raise ResumeError(f"nothing to resume: that game is over ({transcript.ledger.status})")
        self.transcript, self.game, self.header = transcript, transcript.game, transcript.header
        self.decider.prepare(transcript.game)
        self.phase = "play"
        self.synced = False
        self._start_lines()
        self.say(f"resuming after frame {transcript.seq} from {saved.replay}")

    # ------------------------------------------------------------------------------ the loop

    @property
    def host_fingerprint(self) -> str | None:
        return self.transport.host_fingerprint if self.transport else None

    def step(self, timeout_ms: int = 100) -> None:
        with self.lock:
            self._run_posted()
            self._work()
            self._timers()
            self._between_games()
            urgent = self.outcome is not None or self.decision_queued()
        waker, transport = self._poll_waker(), self.transport
        if waker is None or transport is None:
            return   # closed meanwhile (from another thread): nothing to poll
        try:
            messages = transport.poll(0 if urgent else self._wait_ms(timeout_ms), waker)
            waker.clear()
        except (Refused, KeyChanged) as exc:   # on a reconnection: another host now answers there
            with self.lock:
                self.finish(EXIT_FAILED, str(exc))
            return
        with self.lock:
            self._run_posted()
            now = time.monotonic()
            if self.transport.connected:
                if self._host_gone_at is not None and self.deadlines is not None:
                    self.deadlines.back(self._host_seat())
                self._host_gone_at = None
            elif self._host_gone_at is None:
                self._host_gone_at = now
                if self.deadlines is not None and self._host_seat() is not None:
                    self.deadlines.left(self._host_seat(), now)
            if self.transport.generation != self._gen:
                self._gen = self.transport.generation
                self.say("reconnected to the host")
                self._hello()
            for data in messages:
                self._on_data(data)
                if self.outcome is not None:
                    break
            self._work()
            self._timers()
            self._between_games()

    def close(self) -> None:
        with self.lock:
            if self.transport is None:
                return
            self._closing = True
            if self.transport.connected:
                reason = self.outcome.message if self.outcome else "the joiner left"
                self.transport.send(wire.pack("bye", wire.clip(reason)))
            self.transport.close()
            self.transport = None
            self._close_waker()
            if self.transcript is not None:
                self.transcript.close()

    def _send(self, tag: str, *fields: Any) -> bool:
        return self.transport.send(wire.pack(tag, *fields))

    def _hello(self) -> None:
        at = None
        if self.transcript is not None and not self.transcript.ledger.closed:
            transcript = self.transcript
            at = [transcript.header.session, transcript.seq,
                  transcript.last_hash if transcript.seq >= 0 else bytes(32)]
            self.synced = False
        elif self.phase == "lobby" and self.offer is not None:
            self.offer = None          # the host forgot us: start the lobby over
        self._last_resync = time.monotonic()
        self._send("hello", wire.PROTO, version(), at)

    # ------------------------------------------------------------------------------ messages

    def _on_data(self, data: bytes) -> None:
        try:
            tag, fields = wire.unpack(data)
        except wire.Malformed as exc:
            log.warning("dropped a message from the host: %s", exc.reason)
            return
        handler = getattr(self, f"_on_{tag}", None)
        if handler is None or tag in ("hello", "ready", "start", "ack", "decline"):
            log.warning("dropped a %s message from the host: joiners do not take it", tag)
            return
        try:
            handler(*fields)
        except (ValueError, TypeError, KeyError, IndexError) as exc:  # odd content in a well-formed message
            log.warning("dropped a %s message from the host: %s: %s", tag, type(exc).__name__, exc)

    def _decline(self, reason: str) -> None:
        self._send("decline", reason)
        self.finish(EXIT_FAILED, reason)

    def _on_offer(self, proto: int, game_id: str, rules: str, players: int, options: list, host_version: str,
                  terms: list) -> None:
        if self.phase != "lobby" or self.games_done:
            log.warning("dropped an offer from the host: not in the lobby")
            return
        if proto != wire.PROTO:
            self._decline(f"the host speaks session protocol {proto} (netplay {wire.clip(host_version, 40)}), this "
                          f"netplay ({version()}) speaks {wire.PROTO}")
            return
        try:
            game = engines.get(game_id)
        except engines.UnknownGame:
            self._decline(f"the host offers {wire.clip(game_id, 64)!r}, a game this netplay does not know "
                          f"(known: {', '.join(engines.GAMES)})")
            return
        if game.rules_version != rules:
            self._decline(f"the host plays {game_id} by rules version {wire.clip(rules, 64)!r}, this netplay has "
                          f"{game.rules_version!r}; use the same netplay version on both sides")
            return
        try:
            resolved = game.check_options({k: v for k, v in options})
            if resolved != {k: v for k, v in options}:
                raise ValueError(f"the offered options {options} are not complete")
            game.start(players, resolved)
            self.decider.prepare(game)
        except ValueError as exc:
            self._decline(f"cannot play the offered game: {exc}")
            return
        # the very check a header's terms get (whole ms, the timeout and the clock's initial allowance
        # 1 s to 24 h, its increment 0 to 24 h): an offer the header could not carry is declined now
        clock = terms[1] if type(terms) is list and len(terms) == 2 else None
        try:
            if type(terms) is not list or len(terms) != 2 or not (clock is None or type(clock) is list):
                raise codec.FormatError("terms must be [reveal timeout ms, nil or [initial ms, increment ms]]")
            offered = Terms.from_value((2, terms[0], None if clock is None else tuple(clock)))
        except codec.FormatError as exc:
            self._decline(f"the host's terms are out of bounds ({wire.clip(str(terms), 80)}): {exc.reason}")
            return
        self.offered_terms = offered
        self.game, self.players = game, players
        self.offer = (game_id, rules, players, resolved)
        self.say(f"the host offers {game.title or game_id} for {players} players "
                 f"(netplay {wire.clip(host_version, 40)}; {offered.describe()})")
        for _, _, extra in self.also:
            extra.prepare(game)
        self._send("ready", [[name, public_bytes(key)] for name, key, _ in self.also])

    def _on_refused(self, reason: str) -> None:
        self.finish(EXIT_FAILED, f"the host refused: {wire.clip(reason)}")

    def _on_header(self, data: bytes) -> None:
        restart = (self.phase == "play" and self.transcript is not None and self.transcript.seq == -1
                   and not self.games_done)
        if (self.phase not in ("lobby", "over") and not restart) or self.offer is None:
            log.warning("dropped a header from the host: not expected now")
            return
        if self.phase == "over" and not self.rematch_asked:
            log.warning("dropped a header from the host: we did not ask for a rematch")
            return
        try:
            header = header_from_value(codec.decode(data))
        except codec.FormatError as exc:
            self._decline(f"the host's header is unreadable: {exc.reason}")
            return
        problem = self._check_header(header)
        if problem:
            self._decline(f"the host's header is not acceptable: {problem}")
            return
        seat = next(s for s, (k, _) in enumerate(header.seats) if k == self.identity.public_key)
        secrets = [SeatSecrets(seat, self.identity.private_key, os.urandom(32))]
        extra = []
        self.deciders = {seat: self.decider}
        for name, key, decider in self.also:
            held = next(s for s, (k, _) in enumerate(header.seats) if k == public_bytes(key))
            secrets.append(SeatSecrets(held, key, os.urandom(32)))
            extra.append([held, secrets[-1].seed.hex(), name])
            self.deciders[held] = decider
        if restart:    # the host composed a new header before the first frame (a seat came free meanwhile)
            self._discard_unstarted()
        elif self.transcript is not None:
            self.transcript.close()
        self.transcript = Transcript.create(header, secrets, self.replay_dir, self.fsync, self.game)
        self.header = header
        resume.save(SavedSeat(header.session.hex(), seat, secrets[0].seed.hex(), self.address,
                              self.transport.host_key.hex(), str(self.transcript.path), header.game, resume.now(),
                              extra))
        self.decider.prepare(self.game)
        self.phase = "play"
        self.synced = False            # until the host says the game is on (every seat has started)
        self.pending = None
        self._claim_frame = None
        self._start_lines()
        self._send("start", header.hash)

    def _check_header(self, header: Header) -> str | None:
        game_id, rules, players, options = self.offer
        if (header.game, header.rules_version, header.players) != (game_id, rules, players):
            return "game, rules version or player count differ from the offer"
        if header.option_dict != options:
            return "the options differ from the offer"
        if header.terms != self.offered_terms:
            return "the terms (timeouts, clock) differ from the offer"
        for key in (self.identity.public_key, *(public_bytes(k) for _, k, _ in self.also)):
            if sum(k == key for k, _ in header.seats) != 1:
                return "each of our keys is not at exactly one seat"
        if not any(k == self.transport.host_key for k, _ in header.seats):
            return "the host's own key holds no seat"
        if len({k for k, _ in header.seats}) != len(header.seats):
            return "a key holds two seats"
        old = self.transcript.header if self.transcript is not None and self.games_done else None
        if old is not None:
            if header.session == old.session:
                return "a rematch needs a new session id"
            if header.seats != old.seats:
                return "a rematch keeps the seats"
        return None

    def _discard_unstarted(self) -> None:
        transcript = self.transcript
        transcript.close()
        for seat in transcript.seats:
            resume.remove(transcript.header.session, seat)
        if transcript.path in self.replays:
            self.replays.remove(transcript.path)
        transcript.path.unlink(missing_ok=True)
        self.transcript = None

    def _on_frame(self, data: bytes, cert: bytes) -> None:
        transcript = self.transcript
        if transcript is None or self.phase != "play":
            log.warning("dropped a frame from the host: no game under way")
            return
        try:
            frame = decode_frame(data)
        except codec.FormatError as exc:
            log.warning("rejected a frame from the host: malformed frame: %s", exc.reason)
            return
        if frame.session != transcript.header.session:
            log.warning("rejected a frame from the host: frame for another session (%s)", frame.session.hex())
            return
        relayed = transcript.header.players > 2   # with two seats there is no relay to hold to account
        if relayed and not verify_cert(self.transport.host_key, transcript.header.session, frame.seq, frame.hash,
                                       cert):
            log.warning("dropped frame %d from the host: its certificate is not the host's signature", frame.seq)
            return
        now = time.monotonic()
        if self._held or self._claim_not_due(frame, now):
            self._held.append((frame, cert, now))
            if len(self._held) == 1:
                self.say(f"seat {frame.seat} claims a timeout this peer does not see yet: holding it until its own "
                         "deadline passes")
            return
        self._apply(frame, cert)

    def _claim_not_due(self, frame: Frame, now: float) -> bool:
        """A claim against another seat that this peer's own deadline does not support yet: it is held
        (with every frame after it) until the deadline passes, so a premature claim is answered in
        time rather than believed."""
        ledger = self.transcript.ledger
        if frame.kind != "timeout" or frame.seq != len(ledger.frames) or ledger.claimable() is None:
            return False
        kind, seat = ledger.claimable()
        if self.transcript.holds(seat):
            return False   # against us: accepted at once, and answered
        self.deadlines.moved(len(ledger.frames), (kind, seat), now, ledger.frames)
        remaining = self.deadlines.remaining(kind, seat, now)
        if remaining is None:   # an untimed decision: we cannot see that seat's connection; the host can
            remaining = self.deadlines.timeout - (now - self.deadlines.since)
        return remaining > 0

    def _release_held(self) -> None:
        now = time.monotonic()
        while self._held and self.outcome is None:
            frame, cert, _ = self._held[0]
            if frame.seq == len(self.transcript.ledger.frames) and self._claim_not_due(frame, now):
                return
            self._held.pop(0)
            self._apply(frame, cert)

    def _apply(self, frame: Frame, cert: bytes) -> None:
        transcript = self.transcript
        ledger = transcript.ledger
        if (frame.kind == "timeout" and self.pending is not None and frame.seq == self.pending.seq
                and frame.body and transcript.holds(frame.body[0])):
            self._evidence = self.pending   # our frame for that slot went to the host and was not passed on
        host = self._host_seat()
        record = Cert("cert", host, frame.seq, frame.hash, cert) if host is not None and cert else None
        try:
            frame = transcript.accept(frame, record)
        except Rejected as exc:
            log.warning("rejected a frame from the host: %s", exc.reason)
            if exc.frame_no is not None and exc.frame_no > len(ledger.frames):
                self._resync()
            return
        except Dispute as exc:
            self._send("dispute", frame.encode(), wire.clip(exc.reason))
            self._report_dispute(exc)
            return
        if self.pending is not None and (frame.hash == self.pending.hash or frame.seq >= self.pending.seq):
            self.pending = None
        self._strip_first(frame)   # (the frame is on disk: what we send next may rest on it)
        session = transcript.header.session
        signed = transcript.header.players > 2
        ack = sign_ack(self.identity.private_key, session, frame.seq, frame.hash) if signed else b""
        self._send("ack", frame.seq, frame.hash, cert, ack)
        for line in transcript.lines():
            self.say(line)
        self._after_accept(frame)
        self._check_acks(frame.seq)
        if self.on_frame is not None:
            self.on_frame(frame, transcript.holds(frame.seat))

    def _on_acked(self, seat: int, seq: int, frame_hash: bytes, cert: bytes, sig: bytes) -> None:
        """Another joiner's signed acknowledgement, passed on by the host: if it holds another frame for a
        frame number than we do, under the host's certificate, the host sent different frames to
        different seats, and the two certificates prove it."""
        transcript = self.transcript
        if transcript is None or self.phase not in ("play", "over") or not 0 <= seat < transcript.header.players:
            return
        frames = transcript.ledger.frames
        if 0 <= seq < len(frames) and frames[seq].hash == frame_hash:
            return   # it agrees with our own frame: it proves nothing and nothing is done with it (no signature
            #          check is spent on it; one that disagrees is checked before it counts, below)
        if not self._ack_signed(seat, seq, frame_hash, cert, sig):
            return
        if len(self._acks) < MAX_AHEAD:
            self._acks[(seat, seq)] = (frame_hash, cert, sig)
        self._check_acks(min(seq, len(frames) - 1))

    def _ack_signed(self, seat: int, seq: int, frame_hash: bytes, cert: bytes, sig: bytes) -> bool:
        """Whether an `acked` is signed by that seat and certified by the host (else dropped and logged)."""
        transcript = self.transcript
        session = transcript.header.session
        if not (verify_ack(transcript.header.seats[seat][0], session, seq, frame_hash, sig)
                and verify_cert(self.transport.host_key, session, seq, frame_hash, cert)):
            log.warning("dropped an acknowledgement of seat %d that is not signed as it should be", seat)
            return False
        return True

    def _check_acks(self, upto: int) -> None:
        frames = self.transcript.ledger.frames
        for (seat, seq), (frame_hash, cert, sig) in list(self._acks.items()):
            if seq >= len(frames) or seq > upto:
                continue
            del self._acks[(seat, seq)]
            if frames[seq].hash != frame_hash:   # (both signatures were checked when it was kept)
                self._equivocation(seat, seq, frame_hash, cert, sig)
                return

    def _equivocation(self, seat: int, seq: int, frame_hash: bytes, cert: bytes, sig: bytes) -> None:
        transcript = self.transcript
        host = self._host_seat()
        transcript.writer.append_record(Cert("ack", seat, seq, frame_hash, sig, host, cert).value())
        text = (f"DISPUTE: the host (seat {host}) sent different frames as frame {seq}: this peer holds "
                f"{transcript.ledger.frames[seq].hash.hex()[:16]}..., seat {seat} acknowledged "
                f"{frame_hash.hex()[:16]}..., each under the host's signed certificate (both are in the replay)")
        self.say(text)
        self.finish(EXIT_DISPUTE, f"{text}; replay {transcript.path}")

    def _resync(self) -> None:
        now = time.monotonic()
        if now - self._last_resync >= RESYNC_EVERY_S:
            self.say("frames are missing: asking the host to send them again")
            self._hello()

    def _on_reject(self, seq: int, reason: str) -> None:
        log.warning("the host rejected our frame %d: %s", seq, wire.clip(reason))
        claim = self._claim_frame
        if claim is not None and seq in (claim.seq, -1):
            # the host answered: our claim does not stand, and we must not record it as if unanswered
            self.say(f"the host refused our timeout claim: {wire.clip(reason)}")
            self._claim_frame = None
            self._claim_refused_at = time.monotonic()
            nxt = self.transcript.ledger.claimable()
            if nxt is not None and nxt[0] not in ("act", "commit") and nxt[1] == self._host_seat():
                # the host says its own frame is on its way: it gets one answer window, not forever
                self._refused = (claim, time.monotonic() + min(ANSWER_WINDOW, self.deadlines.timeout))
            return
        if self.pending is not None and self.pending.seq == seq:
            self._hold_seq = seq
            self.pending = None

    def _on_synced(self, last: int) -> None:
        transcript = self.transcript
        if transcript is None:
            return
        self.synced = True
        if last >= 0:
            self.say(f"in step with the host again at frame {transcript.seq}")
        pending = self.pending
        if pending is not None:
            if pending.seq == transcript.seq + 1 and pending.prev == transcript.last_hash:
                self._send("frame", pending.encode(), b"")
            else:
                self.pending = None

    def _on_chat(self, seat: int, text: str) -> None:
        who = self.names[seat] if 0 <= seat < len(self.names) else "someone"
        text = wire.clip(text)
        self.chat_lines.append(f"{who}: {text}")
        self.say(f"chat {who}: {text}")

    def chat(self, text: str) -> None:
        text = wire.clip(text)
        self.chat_lines.append(f"you: {text}")
        self._send("chat", -1, text)

    def _on_dispute(self, evidence: bytes, reason: str) -> None:
        """A dispute report is a claim like any other: it stops this peer only through its own ledger.
        The disputed frame itself reaches us as a frame (the host relays it) and our ledger judges it;
        the report alone is logged and play goes on."""
        transcript = self.transcript
        where = ""
        try:
            frame = decode_frame(evidence)
            where = f" about frame {frame.seq} (seat {frame.seat})"
        except codec.FormatError:
            pass
        self.say(f"the host reports a dispute{where}: {wire.clip(reason)}; this peer's own ledger judges the frame")
        if transcript is not None and transcript.ledger.status == "disputed":
            self._report_dispute(transcript.ledger.dispute)

    def _on_rematch(self, seats: list) -> None:
        self.say("rematch wanted by seat(s) " + ", ".join(str(s) for s in seats))

    def _on_bye(self, reason: str) -> None:
        reason = wire.clip(reason)
        if self.phase == "over" and self.last_game is not None:
            self.finish(EXIT_OK, f"{self.games_message()} (the host left: {reason})" if self.rematch_asked
                        else self.games_message())
        elif self.phase == "done":
            return
        elif self.phase == "play" and self.transcript is not None and self.transcript.ledger.closed:
            self._game_closed()
        else:
            self.finish(EXIT_FAILED, f"the host left: {reason}")

    # ------------------------------------------------------------------------------ own frames

    def _game_closed(self) -> None:
        transcript = self.transcript
        ledger = transcript.ledger
        claim = ledger.claim
        if (self.phase == "play" and ledger.status == "unfinished" and claim is not None
                and claim.blamed == transcript.seat and self._evidence is not None):
            self._contest_locally()
        super()._game_closed()

    def _contest_locally(self) -> None:
        """The claim against us closed the game although we had sent our frame, and our contest never came
        back from the host (it crossed the others' last frames, or the host dropped it): record the contest
        in our own replay (a closed session still takes the blamed seat's contest) and send it on, so that
        no host can make our own replay say that we forfeit."""
        transcript = self.transcript
        frame = transcript.ledger.build_contest("our frame for the claimed slot was sent in time and not passed on",
                                                self._evidence)
        self._contested, self.pending = True, None
        transcript.accept(frame)
        for line in transcript.lines():
            self.say(line)
        self.say("the host did not pass our contest on: recorded it in our own replay")
        self._send("frame", frame.encode(), b"")

    def blocked(self) -> bool:
        return self.pending is not None or not self.synced or self._claim_frame is not None

    def _emit(self, frame: Frame) -> None:
        ledger = self.transcript.ledger
        if ledger.claim is not None and self.transcript.holds(ledger.claim.blamed) and frame.kind != "contest":
            self._evidence = frame   # our answer to a claim: evidence, should it never reach the others
        self.pending = frame
        self._send("frame", frame.encode(), b"")

    # ------------------------------------------------------------------------------ timeouts

    def _moved(self) -> None:
        self._claim_frame = None
        if self._hold_seq is not None and self.transcript.seq >= self._hold_seq:
            self._hold_seq = None

    def _claim_grace(self, kind: str) -> float:
        return JOINER_GRACE

    def _timers(self) -> None:
        if self._held:
            self._release_held()
        super()._timers()
        transcript = self.transcript
        if self.outcome is not None or self.phase != "play" or transcript is None or transcript.ledger.closed:
            return
        now = time.monotonic()
        if self._claim_frame is not None and now > self._claim_deadline:
            self._claim_locally()
            return
        if self._refused is not None:
            claim, until = self._refused
            if claim.seq != len(transcript.ledger.frames):
                self._refused = None   # the host's frame came after all
            elif now > until:
                self.say("the host refused our claim but still withholds its frame: recording the claim ourselves")
                self._refused, self._claim_frame = None, claim
                self._claim_locally()
                return
        nxt = transcript.ledger.awaited()
        limit = self.deadlines.timeout + JOINER_GRACE
        if (self._host_gone_at is not None and now - self._host_gone_at > limit
                and (nxt is None or nxt[1] != self._host_seat())):
            self.finish(EXIT_FAILED, f"lost the host for more than {limit:g} s; the game stays unfinished (replay "
                                     f"{transcript.path}; `netplay join --resume` may continue it)")

    def _host_seat(self) -> int | None:
        for s, (k, _) in enumerate(self.header.seats if self.header else ()):
            if k == self.transport.host_key:
                return s
        return None

    def _claim(self, kind: str, seat: int, waited: float) -> None:
        now = time.monotonic()
        if self._claim_frame is not None or now - self._claim_refused_at < self.deadlines.timeout:
            return   # one claim at a time; after a refusal, wait a whole timeout before asking again
        ran_out = (f" (its move clock, {self.deadlines.terms.describe_clock()}, ran out)"
                   if self._clock_ran_out(kind, seat) else "")
        self.say(f"seat {seat} has not sent its {kind} frame for {waited:.1f} s{ran_out}: claiming the timeout")
        self._claim_frame = self.transcript.ledger.build_timeout()
        self._claim_deadline = now + JOINER_GRACE
        self._send("frame", self._claim_frame.encode(), b"")

    def _claim_locally(self) -> None:
        """The host neither passed our claim on nor refused it (it is the one withholding, or gone):
        record the claim ourselves and close it as far as it depends on us."""
        frame = self._claim_frame
        self._claim_frame = None
        transcript = self.transcript
        ledger = transcript.ledger
        if frame.seq != len(ledger.frames):
            return
        try:
            transcript.accept(frame)
            self.say("the host neither passed our claim on nor answered it: recorded it in our own replay")
            for _ in range(2 * ledger.players + 2):   # our seed and co-signature, where they are ours to give
                own = ledger.build_after_claim() if ledger.status == "claimed" else ledger.build_next()
                if own is None:
                    break
                transcript.accept(own)
        except (Rejected, Dispute) as exc:
            self.finish(EXIT_FAILED, f"our own timeout claim was refused by our ledger: {exc}")
            return
        for line in transcript.lines():
            self.say(line)
        if ledger.closed:
            self._game_closed()
            return
        claim = ledger.claim
        text = (f"seat {claim.blamed} forfeits as far as this peer can tell: it withheld its {claim.kind} frame and "
                "the host passed nothing on (claimed by you; the other seats could not co-sign)")
        self.say(text)
        self.finish(EXIT_FORFEIT, f"{text}; replay {transcript.path}")

    # ------------------------------------------------------------------------------ rematch

    def _between_games(self) -> None:
        if self.phase != "over" or self.outcome is not None or self.rematch_asked:
            return
        vote = self.decider.rematch(self.games_done)
        if vote is False:
            self.finish(EXIT_OK, self.games_message())
        elif vote:
            self.rematch_asked = True
            self.say("you want a rematch")
            self._send("rematch", [])

    # ------------------------------------------------------------------------------ for the client
    # (added for the client's peer banner; reads the state above and changes nothing)

    def peers(self) -> list[PeerState]:
        """The host, as far as this joiner can tell (other joiners are reached only through it)."""
        transport = self.transport
        seat = self._host_seat() if transport is not None else None
        name = self._name(seat) if seat is not None else (transport.host_name if transport is not None else "host")
        if transport is not None and transport.connected and self._host_gone_at is None:
            return [PeerState(seat, name, True)]
        if transport is None:
            return [PeerState(seat, name, False, 0.0, "the connection is closed")]
        gone = max(0.0, time.monotonic() - self._host_gone_at) if self._host_gone_at is not None else 0.0
        claim = self._claim_in(seat) if seat is not None else None
        if self.phase == "play" and self.transcript is not None and not self.transcript.ledger.closed:
            if claim is not None:
                return [PeerState(seat, name, False, gone, f"if {name} is not back in {claim:.0f} s, you claim the "
                                                         "win by forfeit", claim)]
            limit = self.deadlines.timeout if self.deadlines is not None else self.reveal_timeout
            left = max(0.0, limit + JOINER_GRACE - gone)
            return [PeerState(seat, name, False, gone, f"if {name} is not back in {left:.0f} s, the game stops "
                                                       "unfinished (resume it later with netplay join --resume)", left)]
        return [PeerState(seat, name, False, gone, "")]
