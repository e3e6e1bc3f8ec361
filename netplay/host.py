"""The host's side of a session: the lobby (seats, agreement on game, rules and options, the header),
then sequencing and relaying frames, resuming joiners that come back, claiming timeouts, rematches.

    session = HostSession(identity, decider, "ploc", bind="127.0.0.1", port=0)
    session.address                      # what joiners connect to
    outcome = session.run()              # Outcome(code, message)

See netplay/session.py for what host and joiners share, docs/protocol.md "Session" for the messages.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engines
from netplay import wire
from netplay.identity import Identity, KnownPeers
from netplay.session import EXIT_DISPUTE, EXIT_FAILED, EXIT_OK, Decider, PeerState, Session, version
from netplay.transcript import Transcript
from netplay.transport import HostTransport, Incoming
from replays import codec
from replays.certs import sign_cert, verify_ack
from replays.crypto import fingerprint, public_bytes
from replays.frames import Frame, decode_frame
from replays.header import Header
from replays.ledger import Dispute, Rejected, SeatSecrets

log = logging.getLogger("netplay.session")

ACK_WAIT_S = 3.0      # at the end, how long the host waits for every joiner to confirm the last frame


@dataclass(slots=True)
class _Conn:
    key: bytes
    name: str
    connected: bool = True
    gone_at: float = 0.0
    stage: str = "new"        # new, offered, ready (lobby), declined
    seat: int | None = None
    started: bool = False
    acked: int = -1
    #: more seats this peer plays (bots or hot-seat players on its machine): (name, key) it asked for,
    #: and (seat, key, name) once given
    wants: list[tuple[str, bytes]] = field(default_factory=list)
    extra: list[tuple[int, bytes, str]] = field(default_factory=list)

    @property
    def seats(self) -> list[int]:
        return [] if self.seat is None else [self.seat, *(s for s, _, _ in self.extra)]


class HostSession(Session):
    role = "host"

    def __init__(self, identity: Identity, decider: Decider, game_id: str, *, players: int | None = None,
                 options: dict[str, Any] | None = None, seat: int = 0, bind: str = "127.0.0.1", port: int = 0,
                 known_peers: KnownPeers | None = None, also: dict[int, tuple[str, Decider]] | None = None,
                 on_free_seats: Callable[[int], None] | None = None, **kwargs: Any):
        super().__init__(identity, decider, **kwargs)
        game = engines.get(game_id)
        players = players if players is not None else game.players[0]
        self.options = game.check_options(dict(options or {}))
        game.start(players, self.options)          # a bad count or option fails here, before anyone joins
        if not 0 <= seat < players:
            raise ValueError(f"--seat must be 0..{players - 1} for {players} players")
        decider.prepare(game)
        self.game, self.players, self.host_seat = game, players, seat
        # more seats on this machine: seat -> (name, key, decider), each with a key of its own
        self.also: dict[int, tuple[str, Any, Decider]] = {}
        for extra, (name, extra_decider) in sorted((also or {}).items()):
            if extra == seat or not 0 <= extra < players:
                raise ValueError(f"--seats: seat {extra} is not another seat of this {players}-player game")
            extra_decider.prepare(game)
            self.also[extra] = (name, identity.seat_key(name), extra_decider)
        self.deciders = {seat: decider, **{s: d for s, (_, _, d) in self.also.items()}}
        self.on_free_seats = on_free_seats
        self.conns: dict[bytes, _Conn] = {}
        self.header: Header | None = None
        self.old_sessions: set[bytes] = set()
        self.votes: set[int] = set()
        self._votes_sent: tuple[int, ...] = ()
        self.transport = HostTransport(identity, bind, port, known_peers=known_peers, accept=self._admit)
        self.address = self.transport.address
        self.port = self.transport.port
        self._free_seen = -1

    # ------------------------------------------------------------------------------ the loop

    def step(self, timeout_ms: int = 100) -> None:
        with self.lock:
            self._run_posted()
            if self.phase == "lobby" and self.header is None:
                self._lobby_check()        # (a game of one seat starts at the first step)
            self._work()
            self._timers()
            self._between_games()
            urgent = self.outcome is not None or (self.phase == "play" and self._my_decision_queued())
        waker, transport = self._poll_waker(), self.transport
        if waker is None or transport is None:
            return   # closed meanwhile (from another thread): nothing to poll
        events = transport.poll(0 if urgent else self._wait_ms(timeout_ms), waker)
        waker.clear()
        with self.lock:
            self._run_posted()
            for event in events:
                self._on_event(event)
            self._work()
            self._timers()
            self._between_games()

    def _my_decision_queued(self) -> bool:
        return self.decision_queued()

    def close(self) -> None:
        with self.lock:
            if self.transport is None:
                return
            self._closing = True
            if self.outcome is None:
                reason = "the host closed the session"
            elif self.outcome.code == EXIT_OK:
                reason = "no more games"
            else:
                reason = self.outcome.message
            # the end of the transcript should reach everyone (a disputed frame is never acknowledged)
            deadline = time.monotonic() + (ACK_WAIT_S if self.outcome is None or self.outcome.code != EXIT_DISPUTE
                                           else 0)
            while self.transcript is not None and time.monotonic() < deadline and self._unacked():
                for event in self.transport.poll(50):
                    if event.kind == "message":
                        self._on_message(self.conns.get(event.peer), event)
                    elif event.kind == "left" and event.peer in self.conns:
                        self.conns[event.peer].connected = False
            self.transport.broadcast(wire.pack("bye", wire.clip(reason)))
            self.transport.close()
            self.transport = None
            self._close_waker()
            if self.transcript is not None:
                self.transcript.close()

    def _unacked(self) -> bool:
        last = self.transcript.seq
        return any(c.connected and c.seat is not None and c.acked < last for c in self.conns.values())

    @property
    def host_seats(self) -> list[int]:
        return [self.host_seat, *self.also]

    # ------------------------------------------------------------------------------ admission, lobby

    def _admit(self, key: bytes, name: str) -> str | None:
        if key == self.identity.public_key:
            return ("that is the host's own key: a second peer needs its own identity (another NETPLAY_HOME "
                    "or user account)")
        if self.phase == "lobby" and self.header is None and self.games_done == 0:
            if key in self.conns:
                return None
            if self._lobby_count() >= self.players - len(self.host_seats):
                return f"the game is full ({self.players} seats taken)"
            return None
        if self.header is not None and any(k == key for k, _ in self.header.seats):
            return None
        return "a game is in progress here and every seat is taken"

    def _lobby_count(self) -> int:
        return sum(1 for c in self.conns.values() if c.connected and c.stage in ("new", "offered", "ready"))

    def _seated(self) -> dict[int, _Conn]:
        """Every seat a joiner holds, with its connection (a joiner may hold several)."""
        return {seat: c for c in self.conns.values() for seat in c.seats}

    def _joiners(self) -> list[_Conn]:
        return [c for c in self.conns.values() if c.seat is not None]

    def free_seats(self) -> int:
        if self.phase != "lobby":
            return 0
        return self.players - len(self.host_seats) - len(self._seated())

    def _lobby_check(self) -> None:
        free = self.free_seats()
        if free != self._free_seen:
            self._free_seen = free
            if self.on_free_seats is not None:
                self.on_free_seats(free)
        if self.phase != "lobby" or self.outcome is not None:
            return
        seated = self._seated()
        if self.header is None:
            if len(seated) == self.players - len(self.host_seats):
                self._send_header(seated)
            return
        if all(c.started for c in self._joiners()):
            self._start_game()

    def _send_header(self, seated: dict[int, _Conn]) -> None:
        seats = []
        for s in range(self.players):
            if s == self.host_seat:
                seats.append((self.identity.public_key, self.identity.name))
            elif s in self.also:
                name, key, _ = self.also[s]
                seats.append((public_bytes(key), name))
            elif seated[s].seat == s:
                seats.append((seated[s].key, seated[s].name))
            else:
                _, key, name = next(e for e in seated[s].extra if e[0] == s)
                seats.append((key, name))
        self.header = Header.make(self.game.id, self.game.rules_version, self.players, self.options, seats,
                                  os.urandom(16), int(time.time()), self.terms)
        data = wire.pack("header", self.header.encode())
        for conn in self._joiners():
            conn.started = False
            self.transport.send(conn.key, data)
        if not seated:
            self._start_game()

    def _start_game(self) -> None:
        secrets = [SeatSecrets(self.host_seat, self.identity.private_key, os.urandom(32))]
        secrets += [SeatSecrets(s, key, os.urandom(32)) for s, (_, key, _) in self.also.items()]
        self.transcript = Transcript.create(self.header, secrets, self.replay_dir, self.fsync, self.game)
        for conn in self.conns.values():
            conn.acked = -1
        self.phase = "play"
        self.votes = set()
        self._start_lines()
        for conn in self._joiners():   # the game is on: joiners may send their frames now
            self.transport.send(conn.key, wire.pack("synced", -1))
        self._lobby_check()

    # ------------------------------------------------------------------------------ events

    def _on_event(self, event: Incoming) -> None:
        conn = self.conns.get(event.peer)
        if event.kind == "joined":
            if conn is None:
                conn = self.conns[event.peer] = _Conn(event.peer, event.name)
                self.say(f"{event.name} ({event.fingerprint}) connected")
            else:
                conn.connected, conn.name = True, event.name
                self.say(f"{event.name} ({event.fingerprint}) is back")
                if self.deadlines is not None:
                    for seat in conn.seats:
                        self.deadlines.back(seat)
            return
        if event.kind == "left":
            if conn is None:
                return
            conn.connected, conn.gone_at = False, time.monotonic()
            self.say(f"{conn.name} left ({event.reason})")
            if self.deadlines is not None and self.phase == "play":
                for seat in conn.seats:
                    self.deadlines.left(seat, conn.gone_at)
            if self.phase == "lobby" and self.games_done == 0:
                del self.conns[event.peer]
                if self.header is not None:
                    self.say("a seat came free before the start; waiting for players again")
                    self.header = None
                self._lobby_check()
            elif self.phase == "over" or (self.phase == "lobby" and self.games_done):
                self.finish(EXIT_OK, f"{conn.name} left: no rematch. {self.games_message()}")
            return
        self._on_message(conn, event)

    def _on_message(self, conn: _Conn | None, event: Incoming) -> None:
        if conn is None:
            log.warning("dropped a message from unknown peer %s", event.fingerprint)
            return
        try:
            tag, fields = wire.unpack(event.data)
        except wire.Malformed as exc:
            log.warning("dropped a message from %s (%s): %s", conn.name, event.fingerprint, exc.reason)
            return
        handler = getattr(self, f"_on_{tag}", None)
        if handler is None or tag in ("offer", "header", "synced", "refused"):
            log.warning("dropped a %s message from %s: hosts do not take it", tag, conn.name)
            return
        try:
            handler(conn, *fields)
        except (ValueError, TypeError, KeyError, IndexError) as exc:  # odd content in a well-formed message
            log.warning("dropped a %s message from %s: %s: %s", tag, conn.name, type(exc).__name__, exc)

    def _refuse(self, conn: _Conn, reason: str) -> None:
        log.warning("refused %s (%s): %s", conn.name, fingerprint(conn.key), reason)
        self.transport.send(conn.key, wire.pack("refused", reason))

    def _on_hello(self, conn: _Conn, proto: int, peer_version: str, resume_at: list | None) -> None:
        if proto != wire.PROTO:
            self._refuse(conn, f"session protocol {proto} is not supported: this host (netplay {version()}) speaks "
                               f"session protocol {wire.PROTO}; use the same netplay version on both sides")
            return
        if resume_at is not None:
            self._resume(conn, *resume_at)
            return
        if self.phase != "lobby" or self.games_done:
            seat = self._seat_of(conn.key)
            if seat is not None:
                self._refuse(conn, f"a game is in progress and you hold seat {seat}: come back with "
                                   "`netplay join --resume`")
            else:
                self._refuse(conn, "a game is in progress here and every seat is taken")
            return
        conn.stage = "offered"
        self.transport.send(conn.key, wire.pack("offer", wire.PROTO, self.game.id, self.game.rules_version,
                                                self.players, [[k, v] for k, v in sorted(self.options.items())],
                                                version(), wire.terms_message(self.terms)))

    def _on_ready(self, conn: _Conn, more: list) -> None:
        if self.phase != "lobby" or conn.stage != "offered" or self.header is not None:
            log.warning("dropped a ready message from %s: not expected now", conn.name)
            return
        wants = [(str(name), bytes(key)) for name, key in more]
        taken = set(self._seated()) | set(self.host_seats)
        free = [s for s in range(self.players) if s not in taken]
        keys = {conn.key, self.identity.public_key, *(k for c in self.conns.values() for _, k, _ in c.extra)}
        if len(wants) + 1 > len(free) or any(k in keys for _, k in wants) or len({k for _, k in wants}) < len(wants):
            self._refuse(conn, f"you ask for {len(wants) + 1} seats with distinct keys; {len(free)} are free")
            return
        conn.stage, conn.seat = "ready", free[0]
        conn.extra = [(s, k, n) for s, (n, k) in zip(free[1:], wants, strict=False)]
        taken_now = ", ".join(str(s) for s in conn.seats)
        self.say(f"{conn.name} ({fingerprint(conn.key)}) takes seat{'s' if conn.extra else ''} {taken_now}")
        self._lobby_check()

    def _on_decline(self, conn: _Conn, reason: str) -> None:
        self.say(f"{conn.name} declined: {wire.clip(reason)}")
        conn.stage = "declined"
        if conn.seat is not None and self.phase == "lobby" and self.games_done == 0:
            conn.seat, conn.extra = None, []
            self.header = None
            self._lobby_check()
        elif self.phase == "lobby" and self.games_done:
            self.finish(EXIT_OK, f"{conn.name} declined the rematch: {wire.clip(reason)}")

    def _on_start(self, conn: _Conn, header_hash: bytes) -> None:
        if self.header is None or conn.seat is None or self.phase != "lobby":
            return
        if header_hash != self.header.hash:
            self._refuse(conn, "your copy of the header differs from the host's")
            return
        conn.started = True
        self._lobby_check()

    def _on_bye(self, conn: _Conn, reason: str) -> None:
        self.say(f"{conn.name} says goodbye: {wire.clip(reason)}")
        if self.phase == "over" or (self.phase == "lobby" and self.games_done):
            self.finish(EXIT_OK, f"{conn.name} left: no rematch. {self.games_message()}")
        elif self.phase == "lobby":
            conn.stage, conn.seat, conn.extra = "declined", None, []
            self.header = None
            self._lobby_check()
        else:
            conn.connected, conn.gone_at = False, time.monotonic()

    def _on_chat(self, conn: _Conn, seat: int, text: str) -> None:
        if conn.seat is None:
            log.warning("dropped chat from %s: not a seated player", conn.name)
            return
        text = wire.clip(text)
        who = conn.seat
        self.chat_lines.append(f"{conn.name}: {text}")
        self.say(f"chat {conn.name}: {text}")
        for other in self.conns.values():
            if other is not conn and other.connected:
                self.transport.send(other.key, wire.pack("chat", who, text))

    def chat(self, text: str) -> None:
        text = wire.clip(text)
        self.chat_lines.append(f"you: {text}")
        self.transport.broadcast(wire.pack("chat", self.host_seat, text))

    def _on_ack(self, conn: _Conn, seq: int, frame_hash: bytes, cert: bytes, sig: bytes) -> None:
        transcript = self.transcript
        if transcript is None or conn.seat is None or self.phase not in ("play", "over"):
            return
        session = transcript.header.session
        if self.players > 2 and not verify_ack(conn.key, session, seq, frame_hash, sig):
            log.warning("%s sent an acknowledgement it did not sign: dropped", conn.name)
            return
        frames = transcript.ledger.frames
        if not 0 <= seq < len(frames) or frames[seq].hash != frame_hash:
            log.warning("%s acknowledged a frame %d the host does not have (transcripts fork?)", conn.name, seq)
            return
        conn.acked = max(conn.acked, seq)
        if self.players > 2:   # every other joiner learns what this one holds (the relay is accountable)
            message = wire.pack("acked", conn.seat, seq, frame_hash, cert, sig)
            for other in self.conns.values():
                if other is not conn and other.connected and other.seat is not None:
                    self.transport.send(other.key, message)
        if self.on_ack is not None:
            self.on_ack(conn.seat, seq)

    def _on_reject(self, conn: _Conn, seq: int, reason: str) -> None:
        log.warning("%s rejected frame %d: %s", conn.name, seq, wire.clip(reason))

    def _on_dispute(self, conn: _Conn, evidence: bytes, reason: str) -> None:
        """A joiner reports a dispute with the signed frame that proves it: the host re-checks that frame
        through its own ledger, and otherwise logs the report and plays on."""
        transcript = self.transcript
        if conn.seat is None or self.phase != "play" or transcript is None:
            log.warning("dropped a dispute report from %s: not a seated player in a game under way", conn.name)
            return
        text = f"{conn.name} (seat {conn.seat}) reports a dispute: {wire.clip(reason)}"
        try:
            frame = decode_frame(evidence)
        except codec.FormatError as exc:
            self.say(f"{text}; its evidence is no frame ({exc.reason}): playing on")
            return
        frames = transcript.ledger.frames
        if frame.seq < len(frames) and frames[frame.seq].hash == frame.hash and not transcript.ledger.closed:
            self.say(f"{text}; it concerns frame {frame.seq}, which this host checked and accepted: playing on")
            return
        if frame.seq == len(frames):
            self._on_frame(conn, evidence, b"")   # the evidence is checked like any frame
            return
        self.say(f"{text}; its evidence (frame {frame.seq}) does not fit this transcript: playing on")

    def _on_rematch(self, conn: _Conn, seats: list) -> None:
        if self.phase != "over" or conn.seat is None:
            return
        self.votes.update(conn.seats)
        self.say(f"{conn.name} (seat {conn.seat}) wants a rematch")
        self._between_games()

    # ------------------------------------------------------------------------------ frames

    def _seat_of(self, key: bytes) -> int | None:
        if self.header is None:
            return None
        for s, (k, _) in enumerate(self.header.seats):
            if k == key and s not in self.host_seats:
                return s
        return None

    def _on_frame(self, conn: _Conn, data: bytes, cert: bytes) -> None:
        transcript = self.transcript
        if transcript is None or conn.seat is None or self.phase != "play":
            log.warning("dropped a frame from %s: no game under way for it", conn.name)
            return
        try:
            received: Frame | bytes = decode_frame(data)   # decoded once, for the claim check and the ledger
        except codec.FormatError:
            received = data   # the ledger rejects it and says why
        problem = self._premature_claim(conn, received) if isinstance(received, Frame) else None
        if problem is not None:
            log.warning("refused a timeout claim from %s (seat %s): %s", conn.name, conn.seat, problem)
            self.transport.send(conn.key, wire.pack("reject", len(transcript.ledger.frames), wire.clip(problem)))
            return
        try:
            frame = transcript.accept(received)
        except Rejected as exc:
            log.warning("rejected a frame from %s (seat %s): %s", conn.name, conn.seat, exc.reason)
            self.transport.send(conn.key, wire.pack("reject", -1 if exc.frame_no is None else exc.frame_no,
                                                    wire.clip(exc.reason)))
            return
        except Dispute as exc:
            self._relay(transcript.ledger.frames[-1])   # the others record the evidence too
            self._dispute(exc, data)
            return
        self._accepted(frame, own=False)
        self._strip_first(frame)

    def _premature_claim(self, conn: _Conn, frame: Frame) -> str | None:
        """Why a joiner's timeout claim may not be sequenced now (None: it may, or it is no claim): the
        host never accepts a claim against its own seat (it is here: it answers instead), and accepts
        one against another seat only once its own deadline for that frame has passed."""
        if frame.kind != "timeout" or not frame.body or type(frame.body[0]) is not int:
            return None
        ledger = self.transcript.ledger
        awaited = ledger.claimable()
        if awaited is None or frame.seq != len(ledger.frames):
            return None   # stale, or not a fitting claim: the ledger rejects or disputes it
        kind, seat = awaited
        if seat in self.host_seats:
            if kind not in ("act", "commit"):
                return "the host is here; its frame is on its way"
            left = self.deadlines.allowance(seat, time.monotonic())
            if left is None:
                return "the host is here and deciding; thinking is untimed"
            if left > 0:
                return f"the host's move clock has {left:.1f} s left"
            return None   # our own clock has run out: the claim stands
        remaining = self.deadlines.remaining(kind, seat, time.monotonic())
        if remaining is None:
            return f"seat {seat} is connected and deciding; thinking is untimed"
        if remaining > 0:
            return f"premature: seat {seat}'s {kind} frame is due in {remaining:.1f} s by the host's clock"
        return None

    def _accepted(self, frame: Frame, own: bool) -> None:
        self._relay(frame)
        for line in self.transcript.lines():
            self.say(line)
        self._after_accept(frame)
        if self.on_frame is not None:
            self.on_frame(frame, own)

    def _relay(self, frame: Frame) -> None:
        """Send a sequenced frame to every joiner, with the host's certificate that it is frame `seq`."""
        cert = self._cert(frame)
        message = wire.pack("frame", frame.encode(), cert)
        conns = [conn for conn in self.conns.values() if conn.seat is not None and conn.connected]
        if len(conns) > 1:   # the peer whose frame comes next first: it starts checking this one soonest
            nxt = self.transcript.ledger.awaited()
            if nxt is not None:
                conns.sort(key=lambda conn: nxt[1] not in conn.seats)
        for conn in conns:
            self.transport.send(conn.key, message)

    def _cert(self, frame: Frame) -> bytes:
        """The host's certificate that `frame` is frame `seq` (only where there are other joiners to be
        told different things: with two seats there is nobody to tell, and it would cost every move a
        signature and its check)."""
        if self.players <= 2:
            return b""
        return sign_cert(self.identity.private_key, self.header.session, frame.seq, frame.hash)

    def _dispute(self, exc: Dispute, evidence: bytes) -> None:
        for conn in self.conns.values():
            if conn.seat is not None and conn.connected:
                self.transport.send(conn.key, wire.pack("dispute", evidence, wire.clip(exc.reason)))
        self._report_dispute(exc)

    def _emit(self, frame: Frame) -> None:
        try:
            self.transcript.accept(frame)
        except (Rejected, Dispute) as exc:   # our own frame: a bug here, never the peers' fault
            self.finish(EXIT_FAILED, f"this peer's own frame {frame.seq} was refused by its ledger: {exc}")
            return
        self._accepted(frame, own=True)

    def _resume(self, conn: _Conn, session: bytes, seq: int, frame_hash: bytes) -> None:
        transcript = self.transcript
        if transcript is None or session != transcript.header.session:
            if session in self.old_sessions:
                self._refuse(conn, "that game is over")
            else:
                self._refuse(conn, f"no game with session {session.hex()[:8]} here")
            return
        seat = self._seat_of(conn.key)
        if seat is None:
            self._refuse(conn, "you hold no seat in this game")
            return
        frames = transcript.ledger.frames
        if seq >= len(frames):
            self._refuse(conn, f"you claim frame {seq}, the host has only {len(frames) - 1}: the transcripts fork")
            return
        if seq >= 0 and frames[seq].hash != frame_hash:
            self._refuse(conn, f"your frame {seq} differs from the host's: the transcripts fork")
            return
        if conn.seat != seat:   # a connection the host does not remember: its other seats are in the header
            conn.seat = seat
        conn.connected, conn.stage = True, "ready"
        conn.acked = max(conn.acked, seq) if seq >= 0 else conn.acked
        if self.deadlines is not None:
            for held in conn.seats:
                self.deadlines.back(held)
        for frame in frames[seq + 1:]:
            cert = self._cert(frame)
            self.transport.send(conn.key, wire.pack("frame", frame.encode(), cert))
        self.transport.send(conn.key, wire.pack("synced", len(frames) - 1))
        self.say(f"{conn.name} (seat {seat}) resumes after frame {seq}: sent {len(frames) - 1 - seq} frame(s)")

    # ------------------------------------------------------------------------------ timeouts

    def _claim(self, kind: str, seat: int, waited: float) -> None:
        ran_out = (f" (its move clock, {self.deadlines.terms.describe_clock()}, ran out)"
                   if self._clock_ran_out(kind, seat) else "")
        self.say(f"seat {seat} has not sent its {kind} frame for {waited:.1f} s{ran_out}: claiming the timeout")
        self._emit(self.transcript.ledger.build_timeout())

    # ------------------------------------------------------------------------------ rematch

    def _between_games(self) -> None:
        if self.phase != "over" or self.outcome is not None:
            return
        if self.host_seat not in self.votes:
            vote = self.decider.rematch(self.games_done)
            if vote is False:
                self.finish(EXIT_OK, self.games_message())
                return
            if vote:
                self.votes.update(self.host_seats)
                self.rematch_asked = True
                self.say("you want a rematch")
        if self.votes and self._votes_changed():
            self.transport.broadcast(wire.pack("rematch", sorted(self.votes)))
        if len(self.votes) == self.players:
            self._rematch()
        elif time.monotonic() - self._over_since > self.reveal_timeout:
            self.finish(EXIT_OK, f"no rematch agreed within {self.reveal_timeout:g} s. {self.games_message()}")

    def _votes_changed(self) -> bool:
        now = tuple(sorted(self.votes))
        changed = now != self._votes_sent
        self._votes_sent = now
        return changed

    def _rematch(self) -> None:
        seated = self._seated()
        self.old_sessions.add(self.header.session)
        self.transcript.close()
        self.transcript = None
        self.phase = "lobby"
        self.votes = set()
        self._votes_sent = ()
        self.say("rematch: a new game with the same seats and options")
        self._send_header(seated)


    # ------------------------------------------------------------------------------ for the client
    # (added for the client's peer banner; reads the state above and changes nothing)

    def peers(self) -> list[PeerState]:
        """Every seated joiner: connected or lost since when, and what happens if it stays away."""
        now = time.monotonic()
        out = []
        for seat, conn in sorted(self._seated().items()):
            name = self._name(seat) if self.names else conn.name
            if conn.connected:
                out.append(PeerState(seat, name, True))
                continue
            gone = max(0.0, now - conn.gone_at) if conn.gone_at else 0.0
            claim = self._claim_in(seat)
            if claim is not None:
                text, deadline = f"if {name} is not back in {claim:.0f} s, you win by forfeit", claim
            elif self.phase == "play":
                text, deadline = (f"{name} has {self.reveal_timeout:g} s to come back once it is its turn; "
                                  "you may play on", None)
            else:
                text, deadline = "", None
            out.append(PeerState(seat, name, False, gone, text, deadline))
        return out
