"""The two roles, composed from the features: `HostMachine` (lobby, sequencing, claims, resume, rematch) and
`JoinMachine` (lobby, following, claims, resume, rematch), each with its dispatch table of the messages it
takes (netplay/wire.py has their shapes). See netplay/protocol/core.py for the inputs and outputs."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import engines
from engines.core import Game
from netplay import wire
from netplay.protocol import effects as fx
from netplay.protocol.book import Book
from netplay.protocol.claims import Claims
from netplay.protocol.core import EXIT_DISPUTE, EXIT_FAILED, EXIT_OK, JOINER_GRACE, Decider, Link, Machine, link_words
from netplay.protocol.following import Follower
from netplay.protocol.lobby import HostLobby, JoinLobby, name_problem
from netplay.protocol.rematch import HostRematch, JoinRematch
from netplay.protocol.resume import HostResume, JoinResume
from netplay.protocol.saved import SavedSeat
from netplay.protocol.sequencing import Sequencer
from netplay.protocol.spectators import HostSpectators
from netplay.protocol.state import Event, LinkStage, Phase
from netplay.protocol.waits import FILL_S, JoinWaits, Wait, host_wait
from replays import codec
from replays.crypto import fingerprint, public_bytes
from replays.frames import Frame, decode_frame
from replays.header import Spectating, Terms
from replays.ledger import Dispute, Rejected, SeatSecrets

log = logging.getLogger("netplay.session")

__all__ = ["ACK_WAIT_S", "HostMachine", "JoinMachine", "Linger", "MESH_TAGS"]

#: what one joiner takes from another (directly, or relayed by the host)
MESH_TAGS = frozenset({"frame", "ack", "want", "dispute"})
ACK_WAIT_S = 3.0      # at the end, how long the host waits for every joiner to confirm the last frame
#: at the end of a game, how long the host waits for a slow spectator still owed the last frames: nobody of the
#: game waits on it any more (the players have their result), only the host's own process
SPECTATOR_WAIT_S = 10.0


@dataclass(frozen=True, slots=True)
class Linger:
    """The host's wait at the close: until when for the last acknowledgements, and (the game over) until when
    for a seat gone during the last frames that may come back for them."""

    until: float
    away_until: float
    for_returns: bool
    bye: bytes            # what the joiners are told at the end of it (why, as it stood at the close)
    watch_until: float = 0.0   # (the game over) until when for a spectator still owed the last frames


class HostMachine(Machine):
    role = "host"
    game: Game            # the host's is known from its start (a joiner's comes with the offer)
    claims: Claims
    rematch: HostRematch

    def __init__(self, identity: Any, decider: Decider, game_id: str, *, players: int | None = None,
                 options: dict[str, Any] | None = None, seat: int = 0,
                 also: dict[int, tuple[str, Decider]] | None = None,
                 terms: Terms, entropy: Callable[[int], bytes], wall_clock: Callable[[], int], version: str = "0",
                 address: str = "", spectating: Spectating | None = None):
        game = engines.get(game_id)
        players = players if players is not None else game.players[0]
        if not 0 <= seat < players:
            raise ValueError(f"--seat must be 0..{players - 1} for {players} players")
        super().__init__(identity, decider, entropy=entropy, terms=_with_host(terms, seat))
        self.options = game.check_options(dict(options or {}))
        game.start(players, self.options)          # a bad count or option fails here, before anyone joins
        decider.prepare(game)
        self.game, self.players, self.host_seat_number = game, players, seat
        self.version = version
        self.address = address
        self.wall_clock = wall_clock
        #: who may watch, and how far behind (the header's 2.2 field; None: nobody)
        self.spectating = spectating
        #: more seats on this machine: seat -> (name, key, decider), each with a key of its own
        self.also: dict[int, tuple[str, Any, Decider]] = {}
        for extra, (name, extra_decider) in sorted((also or {}).items()):
            if extra == seat or not 0 <= extra < players:
                raise ValueError(f"--seats: seat {extra} is not another seat of this {players}-player game")
            extra_decider.prepare(game)
            self.also[extra] = (name, identity.seat_key(name), extra_decider)
        self.deciders = {seat: decider, **{s: d for s, (_, _, d) in self.also.items()}}
        self.old_sessions: set[bytes] = set()
        #: the end-of-session wait, once the shell closes (`close_requested`)
        self.linger: Linger | None = None
        #: a joiner's first seat -> its other seats (kept in the host's saved game, for a resume)
        self.groups: dict[int, list[int]] = {}
        self.lobby = HostLobby(self)
        self.sequencer = Sequencer(self)
        self.claims = Claims(self)
        self.resume = HostResume(self)
        self.rematch = HostRematch(self)
        self.spectators = HostSpectators(self)
        self.handlers = {
            "hello": self.lobby.on_hello, "ready": self.lobby.on_ready, "decline": self.lobby.on_decline,
            "start": self.lobby.on_start, "frame": self.sequencer.on_frame, "ack": self.sequencer.on_ack,
            "want": self.sequencer.on_want, "relay": self.sequencer.on_relay, "reject": self._on_reject,
            "chat": self._on_chat, "dispute": self.sequencer.on_dispute, "rematch": self.rematch.on_vote,
            "bye": self._on_bye,
        }

    # ------------------------------------------------------------------------------ a host that comes back

    @classmethod
    def resumed(cls, identity: Any, decider: Decider, saved: Any, header: Any, frames: list[Frame],
                certs: list[bytes], *, also: dict[int, Decider] | None = None, entropy: Callable[[int], bytes],
                wall_clock: Callable[[], int], version: str = "0", address: str = "") -> HostMachine:
        """The host of a game under way, rebuilt from its replay (`header`, `frames`) and its saved seeds."""
        terms = header.terms
        names = {seat: name for seat, _, name in saved.extra}
        deciders = also or {}
        machine = cls(identity, decider, header.game, players=header.players, options=header.option_dict,
                      seat=saved.seat, also={s: (names[s], deciders.get(s, decider)) for s in names}, terms=terms,
                      entropy=entropy, wall_clock=wall_clock, version=version, address=address)
        secrets = [SeatSecrets(saved.seat, identity.private_key, saved.seed_bytes)]
        secrets += [SeatSecrets(s, identity.seat_key(name), bytes.fromhex(seed)) for s, seed, name in saved.extra]
        machine.book = Book.rebuild(header, frames, certs, secrets, machine.game)
        machine.header = header
        machine.spectating = header.spectating       # the terms the players agreed to still hold
        machine.move(Event.RESUME)
        machine.groups = {int(first): [int(s) for s in rest] for first, rest in saved.groups}
        for first, rest in machine.groups.items():
            key, name = header.seats[first]
            machine.links[key] = Link(key, name, up=False, stage=LinkStage.READY, seat=first,
                                      extra=[(s, header.seats[s][0], header.seats[s][1]) for s in rest])
        machine.start_lines()
        machine.say(f"resuming after frame {machine.book.seq}: waiting for the others to come back")
        return machine

    # ------------------------------------------------------------------------------ inputs

    def linked(self, now: float, key: bytes, name: str, address: str = "") -> None:
        self.now = now
        link = self.links.get(key)
        if link is None and self.spectators.linked(key, name):
            return      # a spectator: never one of the players' links
        if link is None:
            link = self.links[key] = Link(key, name, changed=now, address=address)
            self.lobby.linked(link)
            self.say(f"{wire.clip(name, 64)} ({fingerprint(key)}) connected")
        else:
            link.up, link.name, link.changed = True, name, now
            link.address = address or link.address
            self.say(f"{wire.clip(name, 64)} ({fingerprint(key)}) is back")
            if self.deadlines is not None:
                for seat in link.seats:
                    self.deadlines.back(seat)

    def unlinked(self, now: float, key: bytes, reason: str) -> None:
        self.now = now
        if self.spectators.unlinked(key):
            return
        link = self.links.get(key)
        if link is None:
            return
        link.up, link.changed = False, now
        self.say(f"{wire.clip(link.name, 64)} left ({wire.clip(reason)})")
        if self.phase is Phase.LOBBY:
            self.lobby.bye(link)
        elif self.phase is Phase.OVER:
            self.finish(EXIT_OK, f"{link_words(link)} left: no rematch. {self.games_message()}")
        elif self.deadlines is not None:
            for seat in link.seats:
                self.deadlines.left(seat, now)

    def tick(self, now: float) -> None:
        self.now = now
        if self.outcome is not None:
            self.spectators.tick()     # while the host lingers, what is left of a finished game still goes out
            return
        self.lobby.tick()
        self.work()
        self.claims.tick()
        self.sequencer.tick()
        self.spectators.tick()
        self.rematch.tick()

    def receive(self, now: float, key: bytes, data: bytes) -> None:
        """A spectator's message goes to the spectators' own small table (netplay/protocol/spectators.py), never
        to the players' handlers: whatever a spectator sends, it cannot act, claim, acknowledge or relay."""
        self.now = now
        if self.spectators.takes(key, data):
            return
        super().receive(now, key, data)

    def admit(self, key: bytes, name: str) -> str | None:
        refused = self.lobby.admit(key, name)
        if refused is None or key == self.identity.public_key or self.spectators.is_seat(key) \
                or name_problem(name) is not None:
            return refused
        return self.spectators.admit(key, refused)

    def pins(self, key: bytes, name: str) -> bool:
        """Whether the handshake of `key` checks its name against the host's pins and pins it (trust on first use):
        not when the players' lobby refuses it and only the spectators' rule lets it in. Such a key can only
        watch, and a spectator's name is a label the host shows, never an identity anything rests on: two people
        called user@host may both watch, and a spectator's name pinned to its key would turn away a player of
        that name later (docs/security.md, "Spectators")."""
        return self.lobby.admit(key, name) is None or self.spectators.is_seat(key)

    def waiting(self) -> Wait | None:
        return host_wait(self)

    # ------------------------------------------------------------------------------ the interface

    @property
    def host_seats(self) -> list[int]:
        return [self.host_seat_number, *self.also]

    def extra_keys(self) -> list[bytes]:
        return [public_bytes(key) for _, key, _ in self.also.values()]

    def seat_of_key(self, key: bytes) -> int | None:
        """The seat a joiner's key holds in the current header (its first seat)."""
        if self.header is None:
            return None
        for s, (k, _) in enumerate(self.header.seats):
            if k == key and s not in self.host_seats:
                return s
        return None

    def peer_of(self, seat: int) -> bytes | None:
        for link in self.links.values():
            if seat in link.seats:
                return link.key
        return None

    def refuse(self, link: Link, code: str, reason: str) -> None:
        log.warning("refused %s (%s): %s", link.name, fingerprint(link.key), reason)
        self.send(link.key, "refused", code, wire.clip(reason))

    def emit(self, frame: Frame) -> None:
        self.sequencer.own(frame)

    def free_seats(self) -> int:
        return self.lobby.free_seats()

    def start_game(self) -> None:
        secrets = [SeatSecrets(self.host_seat_number, self.identity.private_key, self.entropy(32))]
        secrets += [SeatSecrets(s, key, self.entropy(32)) for s, (_, key, _) in self.also.items()]
        self.book = Book(self.require_header(), secrets, self.game)
        self.groups = {link.first_seat: [s for s, _, _ in link.extra] for link in self.lobby.joiners()}
        self.outbox.append(fx.OpenReplay(self.require_header()))
        self.outbox.append(fx.SaveSeat(SavedSeat(
            self.require_header().session.hex(), self.host_seat_number, secrets[0].seed.hex(), self.address,
            self.identity.public_key.hex(), "", self.game.id, self.wall_clock(),
            [[s, sec.seed.hex(), self.also[s][0]] for s, sec in zip(self.also, secrets[1:], strict=True)],
            role="host", groups=[[first, rest] for first, rest in sorted(self.groups.items())])))
        for link in self.links.values():
            link.acked = -1
        self.move(Event.START)
        self.rematch.votes = set()
        self.start_lines()
        self.lobby.write_links()   # once per game: a resumed host does not start the game again
        for a, b in self.lobby.unreachable():
            self.say(f"seats {a} and {b} cannot reach each other directly: their messages go through this host, and "
                     "while no direct link is up neither co-signs a claim against the other")
        for link in self.lobby.joiners():   # the game is on: joiners may send their frames now
            self.send(link.key, "synced", -1)

    # ------------------------------------------------------------------------------ small messages

    def _on_reject(self, key: bytes, seq: int, code: str, reason: str) -> None:
        log.warning("%s rejected frame %d (%s): %s", key.hex()[:8], seq, code, wire.clip(reason))

    def _on_chat(self, key: bytes, seat: int, text: str) -> None:
        link = self.links.get(key)
        if link is None or link.seat is None:
            log.warning("dropped chat from %s: not a seated player", key.hex()[:8])
            return
        text = wire.clip(text)
        name = wire.clip(link.name, 64)
        speaker = seat if seat in link.seats else link.seat   # one of its own seats, else its first: the host knows
        self.chat_lines.append(f"{name}: {text}")
        self.heard(speaker, text)
        self.spectators.heard(speaker, text)
        self.say(f"chat {name}: {text}")
        for other in self.links.values():
            if other is not link and other.up and other.seat is not None:
                self.send(other.key, "chat", speaker, text)

    def chat(self, text: str, seat: int | None = None) -> None:
        text = wire.clip(text)
        speaker = seat if seat in self.deciders else self.host_seat_number   # a seat of this machine says it
        self.chat_lines.append(f"you: {text}")
        self.heard(speaker, text)
        self.spectators.heard(speaker, text)
        for link in self.lobby.joiners():
            if link.up:
                self.send(link.key, "chat", speaker, text)

    def _on_bye(self, key: bytes, reason: str) -> None:
        link = self.links.get(key)
        if link is None:
            return
        self.say(f"{wire.clip(link.name, 64)} says goodbye: {wire.clip(reason)}")
        if self.phase is Phase.OVER:
            self.finish(EXIT_OK, f"{link_words(link)} left: no rematch. {self.games_message()}")
        elif self.phase is Phase.LOBBY:
            self.lobby.bye(link)
        else:
            link.up, link.changed = False, self.now
            if self.deadlines is not None:
                for seat in link.seats:
                    self.deadlines.left(seat, self.now)

    def lingering(self) -> bool:
        return self.book is not None and self.unacked()

    # ------------------------------------------------------------------------------ the end of the session

    def close_requested(self, now: float) -> None:
        """The shell closes the session (its game ended, or a person closed it): no more own frames, and the
        wait for the last acknowledgements is planned here, so every shell (netplay/host.py, the simulator)
        runs the same one: `lingers(now)` says when it is over, `goodbye()` is then what every joiner is told."""
        self.now = now
        self.closing = True
        # the end of the transcript should reach everyone (a disputed frame is never acknowledged)
        wait = ACK_WAIT_S if self.outcome is None or self.outcome.code != EXIT_DISPUTE else 0.0
        # a seat gone during the last frames may come back for them: waited for only once the game is over (a
        # host closed mid-game, a person's Ctrl-C, does not sit out the away limit for a seat that left), and
        # at most the away limit in all, however often a seat comes and goes without confirming
        ended = self.book is not None and self.book.ledger.closed
        away = self.deadlines.timeout if self.deadlines is not None else 0.0
        self.linger = Linger(now + wait, now + away, bool(wait) and ended, self._goodbye(),
                             now + (SPECTATOR_WAIT_S if ended and wait else wait))
        if self.linger.for_returns:
            self.tick(now)
            for link in self.awaiting_return():   # killed during the last frames: it may come back
                self.say(f"waiting up to {self.require_deadlines().timeout:g} s for {wire.clip(link.name, 64)} (seat "
                         f"{link.seat}) to come back for the last frames")

    def lingers(self, now: float) -> bool:
        """After `close_requested`: whether the shell still waits (polling, feeding what comes, ticking) before
        it says goodbye: a joiner lacks the last frame, and the wait for it, or for a seat that may come back
        for it, has not run out at `now`; or a spectator is still owed frames, within the same first wait."""
        plan = self.linger
        if plan is None or self.book is None:
            return False
        if self.unacked(now) and (now < plan.until or (plan.for_returns and bool(self.awaiting_return(now))
                                                       and now < plan.away_until)):
            return True
        # a spectator still owed the game's last frames (a slow one: they go a burst a tick) is waited for, once
        # the game is over, up to SPECTATOR_WAIT_S, never longer: one that never reads costs that wait at most
        return now < max(plan.until, plan.watch_until) and self.spectators.behind(self.book)

    def goodbye(self) -> bytes:
        """The `bye` every joiner is told once the wait is over: why the host closed, as it stood at the close."""
        return self.linger.bye if self.linger is not None else self._goodbye()

    def _goodbye(self) -> bytes:
        if self.outcome is None:
            reason = "the host closed the session"
        elif self.outcome.code == EXIT_OK:
            # a rematch nobody agreed to in time is said so (rematch.py): the joiners tell their people that
            # the offer expired, not merely that the games are over
            first = self.outcome.message.split(". ", 1)[0]
            reason = first if first.startswith("no rematch agreed within") else "no more games"
        else:
            reason = self.outcome.message
        return wire.pack("bye", wire.clip(reason))

    def unacked(self, now: float | None = None) -> bool:
        """Whether a joiner has not confirmed the last frame yet (the shell waits for it at the end): one that
        is connected, or one gone for less than the away limit, which may come back to fetch it (resume)."""
        return any(link.up or self.may_return(link, now) for link in self._lacking_last())

    def may_return(self, link: Link, now: float | None = None) -> bool:
        """A seat gone (killed, cut off) for less than the away limit (at `now`, else the last input's time): it
        may still come back."""
        now = self.now if now is None else now
        return not link.up and self.deadlines is not None and now - link.changed < self.deadlines.timeout

    def awaiting_return(self, now: float | None = None) -> list[Link]:
        """The seats gone at the end that lack its last frames and may still come back for them."""
        return [link for link in self._lacking_last() if self.may_return(link, now)]

    def _lacking_last(self) -> list[Link]:
        """The joiners' links that have not confirmed the last frame."""
        last = self.book.seq if self.book is not None else -1
        return [link for link in self.links.values() if link.seat is not None and link.acked < last]


class JoinMachine(Machine):
    role = "joiner"
    claims: Claims
    rematch: JoinRematch

    def __init__(self, identity: Any, decider: Decider, *, host_key: bytes, address: str,
                 also: list[tuple[str, Decider]] | tuple = (), terms: Terms | None = None,
                 entropy: Callable[[int], bytes], wall_clock: Callable[[], int], version: str = "0",
                 mesh_port: int = 0, listen: Callable[[], int] | None = None, fill_s: float = FILL_S):
        super().__init__(identity, decider, entropy=entropy, terms=terms or Terms.agreed())
        self._listen = listen
        self.host_key = host_key
        self.address = address
        self.version = version
        self.wall_clock = wall_clock
        self.mesh_port = mesh_port
        #: more seats this peer plays, by name: each with its own derived key and decider
        self.also = [(name, identity.seat_key(name), d) for name, d in also]
        self.host_gone_at: float | None = None
        self.lobby = JoinLobby(self)
        self.following = Follower(self)
        self.claims = Claims(self)
        self.resume = JoinResume(self)
        self.rematch = JoinRematch(self)
        self.waits = JoinWaits(self, fill_s)
        self.handlers = {
            "offer": self.lobby.on_offer, "refused": self._on_refused, "header": self.lobby.on_header,
            "peers": self.lobby.on_peers, "frame": self.following.on_frame, "ack": self.following.on_ack,
            "want": self.following.on_want, "reject": self.following.on_reject, "synced": self.resume.on_synced,
            "relayed": self._on_relayed, "chat": self._on_chat, "dispute": self._on_dispute,
            "rematch": self.rematch.on_vote, "bye": self._on_bye,
        }

    # ------------------------------------------------------------------------------ a joiner that comes back

    def load(self, saved: Any, header: Any, frames: list[Frame], certs: list[bytes]) -> None:
        """Continue a saved game: the book rebuilt from our replay with our saved seeds (checked against the
        commitments our seats made in their `open` frames)."""
        secrets = [SeatSecrets(saved.seat, self.identity.private_key, saved.seed_bytes)]
        by_name = {name: d for name, _, d in self.also}
        for seat, seed, name in saved.extra:
            secrets.append(SeatSecrets(int(seat), self.identity.seat_key(name), bytes.fromhex(seed)))
            self.deciders[int(seat)] = by_name.get(name, self.decider)
        self.deciders.setdefault(saved.seat, self.decider)
        self.book = Book.rebuild(header, frames, certs, secrets)
        self.game, self.header, self.players = self.book.game, header, header.players
        self.decider.prepare(self.game)
        self.move(Event.RESUME)       # in play, our resume `hello` unanswered until the host's `synced`
        self.lobby.start_sent = True
        # the offer this game was played under, as a rematch's header is checked against it (a joiner resumed
        # without one dropped the rematch's header: simulator seed 1169 of the quick mix, with rematches)
        self.lobby.offer = (header.game, header.rules_version, header.players, header.option_dict)
        self.lobby.offered_terms = header.terms
        self.start_lines()
        self.say(f"resuming after frame {self.book.seq}")

    # ------------------------------------------------------------------------------ inputs

    def linked(self, now: float, key: bytes, name: str, address: str = "") -> None:
        self.now = now
        link = self.links.get(key)
        if link is None:
            link = self.links[key] = Link(key, name, changed=now)
        link.up, link.changed = True, now
        if key == self.host_key:
            if self.host_gone_at is not None and self.deadlines is not None:
                for seat in self.host_seats:
                    self.deadlines.back(seat)
            self.host_gone_at = None
            self.resume.hello()
        elif self.deadlines is not None and self.seat_of_peer(key) is not None:
            for seat in self.seats_of_peer(key):
                self.deadlines.back(seat)

    def unlinked(self, now: float, key: bytes, reason: str) -> None:
        self.now = now
        link = self.links.get(key)
        if link is None or not link.up:
            return
        link.up, link.changed = False, now
        if key == self.host_key:
            self.host_gone_at = now
            if self.deadlines is not None:
                for seat in self.host_seats:
                    self.deadlines.left(seat, now)
        elif self.deadlines is not None:
            for seat in self.seats_of_peer(key):
                self.deadlines.left(seat, now)

    def receive(self, now: float, key: bytes, data: bytes) -> None:
        if key != self.host_key:    # another joiner: only what joiners exchange
            try:
                tag = wire.unpack(data)[0]
            except wire.Malformed as exc:
                log.warning("dropped a message from %s: %s", key.hex()[:8], exc.reason)
                return
            if tag not in MESH_TAGS or self.seat_of_peer(key) is None:
                log.warning("dropped a %s message from %s: not one joiners exchange", tag, key.hex()[:8])
                return
        super().receive(now, key, data)

    def tick(self, now: float) -> None:
        self.now = now
        if self.outcome is not None:
            return
        self.lobby.tick()
        self.following.tick()
        self.work()
        self.claims.tick()
        self.resume.tick()
        self.rematch.tick()
        self.waits.tick()
        self._host_gone()

    def _host_gone(self) -> None:
        """A host lost for longer than the reveal timeout (plus the joiner's grace) while the game awaits
        another seat's frame: the game stops unfinished, resumable (a host awaited itself is claimed).
        A closed game is not this room's: `game_closed` reports it once a contest can no longer be on its
        way (within CONTEST_WAIT). Before, a forfeit claimed against a lost host here, and closed while
        that wait ran, was reported as unfinished when the host had been lost longer than the limit."""
        book = self.book
        if self.host_gone_at is None or book is None or self.phase is not Phase.PLAY or self.outcome is not None \
                or self.waits.unstarted() or book.ledger.closed:  # (unstarted: its start is waited for, JoinWaits)
            return
        limit = self.host_gone_limit()
        nxt = book.ledger.awaited()
        if self.now - self.host_gone_at > limit and (nxt is None or nxt[1] not in self.host_seats):
            self.stop_unfinished(f"lost the host for more than {limit:g} s")

    def host_gone_limit(self) -> float:
        """How long the host may stay lost before a game that awaits another seat stops unfinished."""
        return self.require_deadlines().timeout + JOINER_GRACE

    def host_lost_in(self, now: float, fallback: float) -> float:
        """Seconds from `now` until a lost host stops the game unfinished (the whole limit while this machine
        has not been told the link is down); `fallback` is the limit before the game's terms are known."""
        limit = self.host_gone_limit() if self.deadlines is not None else fallback
        gone = max(0.0, now - self.host_gone_at) if self.host_gone_at is not None else 0.0
        return max(0.0, limit - gone)

    # ------------------------------------------------------------------------------ the interface

    def waiting(self) -> Wait | None:
        return self.waits.current()

    @property
    def started(self) -> bool:
        """The host said the game is on (its first `synced`, or a frame it sequenced): state.py's stage."""
        return self.state.started

    @property
    def synced(self) -> bool:
        """Nothing of ours awaits the host's answer to a resume `hello`: state.py's stage."""
        return self.state.synced

    def listen(self) -> None:
        """Open our port for the other joiners' direct links (games of three seats or more), once."""
        if not self.mesh_port and self._listen is not None:
            self.mesh_port = self._listen()

    def lingering(self) -> bool:
        """Another joiner whose acknowledgements we know of lacks our last frame."""
        book = self.book
        if book is None or self.players <= 2:
            return False
        last = book.seq
        return any(self.following.holders.get(peer, -1) < last for peer in self.other_joiners())

    def host_up(self) -> bool:
        link = self.links.get(self.host_key)
        return link is not None and link.up

    @property
    def host_seats(self) -> list[int]:
        """The seats the host's peer plays: the header's host seat and every seat no joiner we know holds (a
        property, as the host's own `HostMachine.host_seats`)."""
        if self.header is None:
            return []
        joiners = set(self.lobby.peers) | set(self.book.seats if self.book is not None else ())
        return [s for s in range(self.players) if s not in joiners]

    def seat_of_peer(self, key: bytes) -> int | None:
        """The first seat of the joiner whose key is `key` (None for the host or a stranger): from the host's
        `peers`, else from the header (a host that lies about the others cannot hide them from us)."""
        for seat, (peer, _) in sorted(self.lobby.peers.items()):
            if peer == key:
                return seat
        if key == self.host_key or self.header is None or key == self.identity.public_key:
            return None
        return next((s for s, (k, _) in enumerate(self.header.seats) if k == key), None)

    def witness_key(self, seat: int) -> bytes | None:
        """The key of the link on which `seat`'s own peer talks to us, as this peer can tell without the host's
        word: the host's key for the host's own seat, a joiner's own key for its first seat (the header names
        both). None for any other seat (an extra seat: which peer plays it is only what `peers` says, and the
        host could name itself or a colluder), and no claim against it is co-signed here (claims.py)."""
        if self.header is None or not 0 <= seat < len(self.header.seats):
            return None
        key = self.header.seats[seat][0]
        if key == self.host_key or key == self.identity.public_key:
            return key if key == self.host_key else None
        if self.book is not None and any(self.header.seats[s][0] == key for s in self.book.seats):
            return None
        return key

    def seats_of_peer(self, key: bytes) -> list[int]:
        return [seat for seat, (peer, _) in sorted(self.lobby.peers.items()) if peer == key]

    def peer_of(self, seat: int) -> bytes | None:
        if seat in self.lobby.peers:
            return self.lobby.peers[seat][0]
        return self.host_key if seat in self.host_seats else None

    def other_joiners(self) -> list[bytes]:
        """The other joiners' keys: from the host's `peers`, and every seat key of the header that is neither
        ours nor the host's (a lying host cannot make us forget a joiner)."""
        keys = {peer for peer, _ in self.lobby.peers.values()}
        if self.header is not None and self.players > 2:
            mine = {self.book.header.seats[s][0] for s in self.book.seats} if self.book is not None else set()
            host = self.header.seats[self.host_seat][0] if self.host_seat is not None else self.host_key
            keys |= {k for k, _ in self.header.seats if k not in mine and k != host and k != self.host_key}
        return sorted(keys)

    def route(self, to: bytes, data: bytes) -> None:
        """To another joiner: directly if we reach it, else through the host's relay."""
        link = self.links.get(to)
        if link is not None and link.up:
            self.send_raw(to, data)
        elif self.host_up():
            self.send(self.host_key, "relay", to, data)

    def emit(self, frame: Frame) -> None:
        self.following.emit(frame)

    def blocked(self) -> bool:
        return self.following.pending is not None or self.claims.mine is not None

    def holding(self, seq: int) -> bool:
        return self.following.hold_seq == seq

    def send_frame(self, frame: Frame) -> None:
        """A frame to the host: our own, or another seat's that its author sent us (claims.forward)."""
        self.send(self.host_key, "frame", frame.encode(), b"")

    def accept_alone(self, frame: Frame) -> None:
        """Record a frame of ours that the host did not sequence, in our own replay alone."""
        accepted = self.require_book().accept(frame, local=True)
        self.write(frame)
        self.applied(accepted, own=True)

    def record_contest_alone(self) -> None:
        """The host did not pass our contest on in time: record it in our own replay (a closed session still
        takes the blamed seat's contest), and send it on, so no host can make our replay show our forfeit."""
        frame = self.claims.contest_frame()
        if frame is None:
            return
        self.following.pending = None
        try:
            self.accept_alone(frame)
        except (Rejected, Dispute) as exc:
            self.finish(EXIT_FAILED, f"our own contest was refused by our ledger: {exc}")
            return
        self.say("the host did not pass our contest on: recorded it in our own replay")
        self.send_frame(frame)
        self.game_closed()

    def saved_seat(self, seat: int, seed: bytes, extra: list) -> SavedSeat:
        return SavedSeat(self.require_header().session.hex(), seat, seed.hex(), self.address, self.host_key.hex(),
                         "", self.require_header().game, self.wall_clock(), extra, mesh_port=self.mesh_port)

    # ------------------------------------------------------------------------------ small messages

    def _on_refused(self, key: bytes, code: str, reason: str) -> None:
        if key != self.host_key:
            return
        if self.state.in_step():
            # nothing of ours awaits an answer (a resume hello leaves us unsynced until it is answered): this
            # answers a copy of a hello the host already took, delayed or doubled on the way (lossy-network
            # plan 1005564: a joiner in play quit on it and was then claimed against as gone)
            self.say(f"the host refused a message of ours it had already answered ({wire.clip(code, 16)}): ignored")
            return
        if self.phase is Phase.PLAY and self.book is not None and code == "over":
            for seat in self.book.seats:
                self.outbox.append(fx.ForgetSeat(self.book.header.session, seat))
        self.waits.abandon()     # refused before the game began: no file of it is left
        self.lobby.on_refused(key, code, reason)

    def _on_relayed(self, key: bytes, sender: bytes, payload: bytes) -> None:
        if key != self.host_key or sender == self.identity.public_key:
            return
        self.receive(self.now, sender, payload)

    def _on_chat(self, key: bytes, seat: int, text: str) -> None:
        if key != self.host_key:
            return
        known = 0 <= seat < len(self.names)
        who = wire.clip(self.names[seat], 64) if known else "someone"
        text = wire.clip(text)
        self.chat_lines.append(f"{who}: {text}")
        self.heard(seat if known else -1, text)
        self.say(f"chat {who}: {text}")

    def chat(self, text: str, seat: int | None = None) -> None:
        text = wire.clip(text)
        own = seat is not None and seat in self.deciders   # one of this peer's seats says it (else: its first)
        self.chat_lines.append(f"you: {text}")
        self.heard(seat if own and seat is not None else self.book.seat if self.book is not None else -1, text)
        self.send(self.host_key, "chat", seat if own and seat is not None else -1, text)

    def _on_dispute(self, key: bytes, evidence: bytes, reason: str) -> None:
        """A dispute report is a claim like any other: it stops this peer only through its own ledger, or when
        its evidence is a frame whose author signed another one for a slot we hold (then that author lied)."""
        who = "the host" if key == self.host_key else f"seat {self.seat_of_peer(key)}"
        where = ""
        try:
            frame = decode_frame(evidence)
            where = f" about frame {frame.seq} (seat {frame.seat})"
        except codec.FormatError:
            frame = None
        if frame is not None and self.book is not None and self.following.twin(frame):
            return
        self.say(f"{who} reports a dispute{where}: {wire.clip(reason)}; this peer's own ledger judges the frame")
        book = self.book
        if key == self.host_key and book is not None and book.ledger.status == "disputed":
            self.report_dispute(book.ledger.dispute)

    def _on_bye(self, key: bytes, reason: str) -> None:
        if key != self.host_key:
            return
        reason = wire.clip(reason)
        if self.phase is Phase.OVER and self.last_game is not None:
            # the host's reason matters to a seat that asked for the rematch, and to every seat when the host
            # says the offer expired ("no rematch agreed within 120 s": the end screen says so)
            told = self.rematch_asked or reason.startswith("no rematch agreed within")
            self.finish(EXIT_OK, f"{self.games_message()} (the host left: {reason})" if told else self.games_message())
        elif self.phase is Phase.DONE:
            return
        elif self.phase is Phase.PLAY and self.book is not None and self.book.ledger.closed:
            self.game_closed()
        elif self.phase is Phase.PLAY and self.waits.unstarted():
            self.waits.leave(f"the host left before {'the rematch' if self.games_done else 'the game'} started: "
                             f"{reason}")
        elif self.phase is Phase.PLAY and self.book is not None:
            if self.claims.owed is not None and not self.claims.contested:
                # the host leaves with our contest of its claim unsequenced: our own replay says we contested
                self.record_contest_alone()
                if self.outcome is not None or self.phase is not Phase.PLAY:
                    return
            self.host_gone_at = self.host_gone_at if self.host_gone_at is not None else self.now
            self.stop_unfinished(f"the host left (in its own words, not this peer's: {reason})")
        else:
            self.finish(EXIT_FAILED, f"the host left: {reason}")


def _with_host(terms: Terms, seat: int) -> Terms:
    return Terms(terms.protocol, terms.reveal_timeout_ms, terms.clock, terms.move_ms, terms.frame_ms,
                 terms.lateness_ms, seat, terms.extended)
