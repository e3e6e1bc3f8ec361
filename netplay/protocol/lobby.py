"""Admission and the lobby: who may connect, who holds which seat, and the header every seat agrees to.

The host admits any authenticated connection while seats are free (its own key excepted), but a
connection holds no seat until it has completed the lobby: `hello` within `HELLO_S`, then `ready`
within `READY_S` of the offer (a seat is given at `ready`, first come first served), then, once every
seat is held and the header sent, `start` within `START_S` (in a rematch, `rematch_start_s`: a seat that does
not start then ends the rematch). The joiner's own bounds on its waits are in netplay/protocol/waits.py.
A peer that lingers at any step is refused and let go, and its seat comes free: silent connections
cannot hold a table. At most `MAX_WAITING` connections wait without a seat; a newer one lets the oldest
waiting one go.

Extra seats (a hot-seat player, a bot on the joiner's machine) come in `ready` as [name, key, proof]:
a name of 1..64 printable characters, and a proof that the joiner holds the key (the key's signature
over the host's key, the joiner's key and the name), so nobody can take another player's public key as
its own extra seat. Every key of the table is distinct: a duplicate is refused at `ready`, and a header
that carries one is declined.

In games of three seats or more the host then tells every joiner where the others listen (`peers`): the
address it saw each joiner connect from, with the port that joiner signed in `ready` and its signed
statement passed on untouched (netplay/protocol/addresses.py), so a host that blanks or bends an address is
named by the joiners; each joiner opens a direct link to every joiner of a higher seat, and reports in
`start` the seats it reaches. The host says, before the game begins, which pairs talk only through its relay.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import engines
from netplay import wire
from netplay.protocol import effects as fx
from netplay.protocol.addresses import LOBBY_ID_BYTES, check_cover, check_entry, check_extra, sign_address, valid
from netplay.protocol.book import Book
from netplay.protocol.core import EXIT_FAILED, EXIT_OK, RESEND_S, Link, link_words
from netplay.protocol.state import Event, LinkStage, Phase
from replays import codec
from replays.crypto import fingerprint, public_bytes, sign, verify
from replays.header import Header, Spectating, Terms, header_from_value
from replays.ledger import SeatSecrets
from replays.links import links_record
from replays.safetext import check_name

if TYPE_CHECKING:   # (the machines module imports this one: the lobbies see their machine through a protocol)
    from engines.core import Game
    from netplay.protocol.core import Decider
    from netplay.protocol.seams import ResettableFollowing, ResumeAtHost
    from netplay.protocol.state import SessionState

log = logging.getLogger("netplay.session")

__all__ = ["HostLobby", "JoinLobby", "LobbyHost", "LobbyJoiner",
           "seat_proof", "name_problem", "rematch_start_s", "HELLO_S", "READY_S", "START_S",
           "MESH_S"]

HELLO_S = 5.0        # a connection that says nothing for this long is let go
READY_S = 10.0       # after the offer, `ready` within this
START_S = 20.0       # after the header, `start` within this (joiners first open their direct links)
MESH_S = 5.0         # a joiner waits this long for its direct links before it says `start`
MAX_WAITING = 32     # connections in the lobby that hold no seat


def seat_proof(key: Any, host_key: bytes, joiner_key: bytes, name: str) -> bytes:
    """The proof, in `ready`, that a joiner holds the key of an extra seat it asks for."""
    return sign(key, "extra-seat", host_key + joiner_key + name.encode())


def rematch_start_s(terms: Terms) -> float:
    """How long the host's rematch lobby gives every seat for its `start` (the seats and their direct links
    are those of the game just played): the reveal timeout of the terms, within [MESH_S + 1, START_S]; a seat
    that does not start by then ends the rematch (netplay/protocol/waits.py)."""
    return max(MESH_S + 1.0, min(START_S, terms.reveal_timeout_ms / 1000))


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name (None: it can): the one rule of replays.safetext."""
    try:
        check_name(name)
    except ValueError as exc:
        return str(exc)
    return None



@runtime_checkable
class LobbyHost(Protocol):
    """What of the host's machine its lobby reads and calls (tests/test_protocol_state.py holds the module
    to it)."""

    also: dict[int, tuple[str, Any, Decider]]
    book: Book | None
    entropy: Callable[[int], bytes]
    game: Game
    games_done: int
    header: Header | None
    host_seat_number: int
    identity: Any
    links: dict[bytes, Link]
    now: float
    options: dict[str, Any]
    outbox: list
    outcome: Any
    players: int
    @property
    def resume(self) -> ResumeAtHost: ...   # read only: a seam (seams.py) the machine's own class fits
    spectating: Spectating | None
    terms: Terms
    version: str
    wall_clock: Callable[[], int]

    @property
    def phase(self) -> Phase: ...
    @property
    def host_seats(self) -> list[int]: ...
    def extra_keys(self) -> list[bytes]: ...
    def require_header(self) -> Header: ...
    def finish(self, code: int, message: str) -> None: ...
    def games_message(self) -> str: ...
    def refuse(self, link: Link, code: str, reason: str) -> None: ...
    def say(self, line: str) -> None: ...
    def seat_of_key(self, key: bytes) -> int | None: ...
    def send(self, to: bytes, tag: str, *fields: Any) -> None: ...
    def send_raw(self, to: bytes, data: bytes) -> None: ...
    def start_game(self) -> None: ...


@runtime_checkable
class LobbyJoiner(Protocol):
    """What of a joiner's machine its lobby reads and calls: its phase and stage move only through `move`."""

    also: list[tuple[str, Any, Decider]]
    book: Book | None
    decider: Decider
    deciders: dict[int, Decider]
    entropy: Callable[[int], bytes]
    @property
    def following(self) -> ResettableFollowing: ...   # read only: a seam (seams.py) the machine's own class fits
    game: Game | None
    games_done: int
    header: Header | None
    host_key: bytes
    identity: Any
    links: dict[bytes, Link]
    mesh_port: int
    now: float
    outbox: list
    players: int
    rematch_asked: bool
    version: str

    @property
    def phase(self) -> Phase: ...
    @property
    def state(self) -> SessionState: ...
    def finish(self, code: int, message: str) -> None: ...
    def host_up(self) -> bool: ...
    def listen(self) -> None: ...
    def move(self, event: Event) -> None: ...
    def require_book(self) -> Book: ...
    def require_header(self) -> Header: ...
    def saved_seat(self, seat: int, seed: bytes, extra: list) -> Any: ...
    def say(self, line: str) -> None: ...
    def send(self, to: bytes, tag: str, *fields: Any) -> None: ...
    def start_lines(self) -> None: ...


class HostLobby:
    def __init__(self, machine: LobbyHost):
        self.m = machine
        self.header_at = 0.0
        self.lobby_id = b""                            # sent in every `offer`; joiners sign their address for it
        self.statements: dict[bytes, tuple[int, bytes]] = {}   # joiner key -> (port, its signed statement)
        self.proofs: dict[bytes, bytes] = {}   # an extra seat's key -> its proof (from `ready`), passed on in `peers`

    # ------------------------------------------------------------------------------ admission

    def admit(self, key: bytes, name: str) -> str | None:
        """The transport's admission rule (cheap, no I/O): None to let the peer in, else the reason."""
        m = self.m
        if key == m.identity.public_key:
            return ("that is the host's own key: a second peer needs its own identity (another NETPLAY_HOME "
                    "or user account)")
        if name_problem(name) is not None:
            return f"your name is refused: {name_problem(name)}"
        if m.phase is Phase.LOBBY and m.header is None and m.games_done == 0:
            if key in m.links or self.free_seats() > 0:
                return None
            return f"the game is full ({m.players} seats taken)"
        if m.header is not None and any(k == key for k, _ in m.header.seats):
            return None
        return "a game is in progress here and every seat is taken"

    def free_seats(self) -> int:
        m = self.m
        if m.phase is not Phase.LOBBY:
            return 0
        return m.players - len(m.host_seats) - len(self.seated())

    def seated(self) -> dict[int, Link]:
        """Every seat a joiner holds, with its link (a joiner may hold several)."""
        return {seat: link for link in self.m.links.values() for seat in link.seats}

    def joiners(self) -> list[Link]:
        return [link for link in self.m.links.values() if link.seat is not None]

    def linked(self, link: Link) -> None:
        m = self.m
        link.stage, link.stage_at = LinkStage.NEW, m.now
        waiting = sorted((x for x in m.links.values() if x.seat is None and x.key != link.key and x.up),
                         key=lambda x: x.stage_at)
        while len(waiting) >= MAX_WAITING:
            self.let_go(waiting.pop(0), "the lobby is busy: try again")

    def let_go(self, link: Link, reason: str) -> None:
        m = self.m
        log.warning("letting %s (%s) go: %s", link.name, fingerprint(link.key), reason)
        m.send(link.key, "refused", "lobby", wire.clip(reason))
        m.outbox.append(fx.Hangup(link.key))
        m.links.pop(link.key, None)
        if link.seat is not None:
            self.seat_freed()

    def seat_freed(self) -> None:
        m = self.m
        if m.header is not None and m.phase is Phase.LOBBY and m.games_done == 0:
            m.say("a seat came free before the start; waiting for players again")
            m.header = None

    # ------------------------------------------------------------------------------ messages

    def on_hello(self, key: bytes, proto: int, peer_version: str, resume_at: list | None, mesh_port: int) -> None:
        m = self.m
        link = m.links.get(key)
        if link is None:
            return
        if mesh_port:
            link.mesh_port = mesh_port
        if proto != wire.PROTO:
            m.refuse(link, "version", f"session protocol {proto} is not supported: this host (netplay {m.version}) "
                                      f"speaks session protocol {wire.PROTO}; use the same netplay version on both "
                                      "sides")
            return
        if resume_at is not None:
            m.resume.on_resume(link, *resume_at)
            return
        if m.phase is not Phase.LOBBY or m.games_done or m.header is not None:
            seat = m.seat_of_key(key)
            if seat is not None and m.phase is Phase.PLAY:
                m.refuse(link, "seat", f"a game is in progress and you hold seat {seat}: come back with "
                                       "`netplay join --resume`")
            elif m.phase is Phase.LOBBY and m.header is not None and link.seat is None:
                m.refuse(link, "full", "every seat is taken and the game is about to start")
            else:
                m.refuse(link, "in-progress", "a game is in progress here and every seat is taken")
            return
        link.stage, link.stage_at = LinkStage.OFFERED, m.now
        game = m.game
        if not self.lobby_id:
            self.lobby_id = m.entropy(LOBBY_ID_BYTES)
        m.send(key, "offer", wire.PROTO, game.id, game.rules_version, m.players,
               [[k, v] for k, v in sorted(m.options.items())], m.version, wire.terms_message(m.terms, m.spectating),
               self.lobby_id)

    def on_ready(self, key: bytes, more: list, mesh_port: int, statement: bytes) -> None:
        m = self.m
        link = m.links.get(key)
        if link is not None and link.stage is LinkStage.READY and m.header is not None and m.phase is Phase.LOBBY:
            self.resend_header(link)     # our header (or the peers) did not reach it: again
            return
        if link is None or m.phase is not Phase.LOBBY or link.stage is not LinkStage.OFFERED or m.header is not None:
            log.warning("dropped a ready message from %s: not expected now", key.hex()[:8])
            return
        if not valid(key, m.identity.public_key, self.lobby_id, mesh_port, statement):
            m.refuse(link, "key", "your statement of the port you listen on is not your signature for this lobby")
            return
        wants: list[tuple[str, bytes, bytes]] = []
        for name, extra_key, proof in more:
            problem = name_problem(name)
            if problem is not None:
                m.refuse(link, "name", f"the extra seat name {wire.clip(name, 64)!r} is refused: {problem}")
                return
            if not verify(extra_key, "extra-seat", m.identity.public_key + key + name.encode(), proof):
                m.refuse(link, "key", f"no proof that you hold the key of the extra seat {wire.clip(name, 64)!r}")
                return
            wants.append((name, bytes(extra_key), bytes(proof)))
        taken = set(self.seated()) | set(m.host_seats)
        free = [s for s in range(m.players) if s not in taken]
        keys = {m.identity.public_key, *m.extra_keys(), *(lk for lk in m.links if lk != key),
                *(k for x in m.links.values() for _, k, _ in x.extra)}
        if len(wants) + 1 > len(free):
            m.refuse(link, "full", f"you ask for {len(wants) + 1} seats; {len(free)} are free")
            return
        if key in keys or any(k in keys or k == key for _, k, _ in wants) or len({k for _, k, _ in wants}) < len(wants):
            m.refuse(link, "key", "every seat needs a key of its own: one of yours is already at this table")
            return
        link.stage, link.stage_at, link.seat, link.mesh_port = LinkStage.READY, m.now, free[0], mesh_port
        link.extra = [(s, k, n) for s, (n, k, _) in zip(free[1:], wants, strict=False)]
        self.statements[key] = (mesh_port, bytes(statement))
        self.proofs.update((k, proof) for _, k, proof in wants)
        taken_now = ", ".join(str(s) for s in link.seats)
        m.say(f"{wire.clip(link.name, 64)} ({fingerprint(key)}) takes seat{'s' if link.extra else ''} {taken_now}")

    def on_decline(self, key: bytes, reason: str) -> None:
        m = self.m
        link = m.links.get(key)
        if link is None:
            return
        m.say(f"{wire.clip(link.name, 64)} declined: {wire.clip(reason)}")
        link.stage = LinkStage.DECLINED
        if link.seat is not None and m.phase is Phase.LOBBY and m.games_done == 0:
            link.seat, link.extra = None, []
            self.seat_freed()
        elif m.phase is Phase.LOBBY and m.games_done:
            m.finish(EXIT_OK, f"{wire.clip(link.name, 64)} declined the rematch: {wire.clip(reason)}")

    def on_start(self, key: bytes, header_hash: bytes, reached: list) -> None:
        m = self.m
        link = m.links.get(key)
        if m.phase is Phase.PLAY and link is not None and link.seat is not None and m.header is not None \
                and header_hash == m.header.hash and m.book is not None and m.book.seq == -1:
            m.send(key, "synced", -1)   # our `synced` did not reach it: again
            return
        if m.header is None or link is None or link.seat is None or m.phase is not Phase.LOBBY:
            return
        if header_hash != m.header.hash:
            m.refuse(link, "header", "your copy of the header differs from the host's")
            return
        link.started = True
        link.reached = tuple(s for s in reached if 0 <= s < m.players)

    def bye(self, link: Link) -> None:
        """A peer left the lobby (it said bye, or its connection dropped)."""
        m = self.m
        if m.games_done:
            m.finish(EXIT_OK, f"{link_words(link)} left: no rematch. {m.games_message()}")
            return
        m.links.pop(link.key, None)
        if link.seat is not None:
            self.seat_freed()

    # ------------------------------------------------------------------------------ timers

    def tick(self) -> None:
        m = self.m
        if m.phase is not Phase.LOBBY or m.outcome is not None:
            return
        for link in list(m.links.values()):
            if not link.up:
                continue
            if m.games_done:     # the rematch lobby: its seats are fixed, a seat that does not start ends it
                limit = rematch_start_s(m.terms)
                if link.seat is not None and m.header is not None and not link.started \
                        and m.now - self.header_at > limit:
                    m.say(f"{wire.clip(link.name, 64)} (seat {link.seat}) did not start the rematch within "
                          f"{limit:g} s")
                    m.finish(EXIT_OK, f"seat {link.seat} did not start the rematch within {limit:g} s: no rematch, "
                                      f"nobody is blamed. {m.games_message()}")
                    return
                continue
            if link.stage is LinkStage.NEW and m.now - link.stage_at > HELLO_S:
                self.let_go(link, f"no hello within {HELLO_S:g} s")
            elif link.stage is LinkStage.OFFERED and m.header is None and m.now - link.stage_at > READY_S:
                self.let_go(link, f"no answer to the offer within {READY_S:g} s")
            elif link.stage is LinkStage.READY and m.header is not None and not link.started \
                    and m.now - self.header_at > START_S:
                self.let_go(link, f"the header was not accepted within {START_S:g} s")
        seated = self.seated()
        if m.header is None:
            if len(seated) == m.players - len(m.host_seats):
                self.send_header(seated)
            return
        if all(link.started for link in self.joiners()):
            m.start_game()

    def send_header(self, seated: dict[int, Link]) -> None:
        m = self.m
        seats = []
        for s in range(m.players):
            if s == m.host_seat_number:
                seats.append((m.identity.public_key, m.identity.name))
            elif s in m.also:
                name, key, _ = m.also[s]
                seats.append((public_bytes(key), name))
            elif seated[s].seat == s:
                seats.append((seated[s].key, seated[s].name))
            else:
                _, key, name = next(e for e in seated[s].extra if e[0] == s)
                seats.append((key, name))
        m.header = Header.make(m.game.id, m.game.rules_version, m.players, m.options, seats, m.entropy(16),
                               m.wall_clock(), m.terms, m.spectating)
        self.header_at = m.now
        data = wire.pack("header", m.header.encode())
        peers = self.peers_message(seated) if m.players > 2 else None
        for link in self.joiners():
            link.started = False
            m.send_raw(link.key, data)
            if peers is not None:
                m.send_raw(link.key, peers)
        if not seated:
            m.start_game()

    def resend_header(self, link: Link) -> None:
        m = self.m
        m.send(link.key, "header", m.require_header().encode())
        if m.players > 2:
            m.send_raw(link.key, self.peers_message(self.seated()))

    def peers_message(self, seated: dict[int, Link]) -> bytes:
        """Every seat but the host's own: the key of the peer that plays it and, for a joiner's first seat, where
        it listens (the address it connected from, the port it signed in `ready`, its key's fingerprint) with its
        signed statement of that port; for an extra seat (a joiner's or the host's), "", 0 and the seat key's
        proof that this peer plays it. Why every seat: a joiner can then tell a joiner's seat left out from
        another peer's extra seat, since only the seat's own key can sign that another peer plays it."""
        m = self.m
        entries: list[list[Any]] = []
        for seat, link in sorted(seated.items()):
            address, (port, statement) = "", self.statements.get(link.key, (0, b""))
            if seat != link.seat:
                key = next(k for s, k, _ in link.extra if s == seat)
                port, statement = 0, self.proofs.get(key, b"")
            elif link.mesh_port and link.address:
                host = f"[{link.address}]" if ":" in link.address else link.address
                address = f"{host}:{link.mesh_port}/{fingerprint(link.key)}"
            entries.append([seat, link.key, address, port, statement])
        for seat, (name, key, _) in sorted(m.also.items()):
            proof = seat_proof(key, m.identity.public_key, m.identity.public_key, name)
            entries.append([seat, m.identity.public_key, "", 0, proof])
        entries.sort(key=lambda entry: entry[0])
        return wire.pack("peers", entries)

    def unreachable(self) -> list[tuple[int, int]]:
        """Pairs of joiners (first seats) that reported no direct link between them."""
        firsts = sorted((link.first_seat, link) for link in self.joiners())
        pairs = []
        for i, (a, la) in enumerate(firsts):
            for b, lb in firsts[i + 1:]:
                if b not in la.reached and a not in lb.reached:
                    pairs.append((a, b))
        return pairs

    def relay_pairs(self) -> list[tuple[int, int]]:
        """Every pair of seats of two joiners that reported no direct link (`unreachable` names their first
        seats; their extra seats share their peers' links): what the host's `links` record names."""
        seats = {link.seat: link.seats for link in self.joiners()}
        return sorted({(min(x, y), max(x, y)) for a, b in self.unreachable() for x in seats[a] for y in seats[b]})

    def write_links(self) -> None:
        """The host's `links` record, written once as the game starts (docs/replay-format.md "Layout"): its copy
        must say which pairs only its relay joined, since it could withhold what one sent the other."""
        m = self.m
        if m.players > 2:
            m.outbox.append(fx.Write(None, (links_record(self.relay_pairs()),)))


class JoinLobby:
    def __init__(self, machine: LobbyJoiner):
        self.m = machine
        self.offer: tuple | None = None
        self.offered_terms: Terms | None = None
        self.offered_spectating: Spectating | None = None
        self.lobby_id = b""                           # the host's, from its offer (our address statement names it)
        self.faults: dict[int, str] = {}              # seat -> how the host bent that seat's own address
        self.peers: dict[int, tuple[bytes, str]] = {}   # seat -> (peer key, address) of the other joiners
        self.peers_heard = False                      # the host's `peers` for this header came (an empty one too)
        self.hello_at: float | None = None            # when we last said hello (the offer is due)
        self.ready_at = 0.0                           # when we took the offer (the header is due)
        self.started_at: float | None = None          # when the header was accepted (start is due)
        self.start_sent = False
        self.last: tuple[str, tuple] | None = None    # our last lobby message, sent again until it is answered
        self.last_at = 0.0
        self.resend_s = RESEND_S

    def hello(self) -> None:
        m = self.m
        if m.phase is Phase.LOBBY and self.offer is not None:
            self.offer = None          # the host forgot us: start the lobby over
        self.hello_at = m.now
        self.say("hello", wire.PROTO, m.version, None, 0)

    def say(self, tag: str, *fields: Any) -> None:
        """Send a lobby message, and again (1 s, 2 s, 4 s...) until the host's answer comes."""
        m = self.m
        self.last, self.last_at, self.resend_s = (tag, fields), m.now, RESEND_S
        m.send(m.host_key, tag, *fields)

    def answered(self) -> None:
        self.last = None

    def decline(self, reason: str) -> None:
        m = self.m
        m.send(m.host_key, "decline", wire.clip(reason))
        m.finish(EXIT_FAILED, reason)

    def on_offer(self, key: bytes, proto: int, game_id: str, rules: str, players: int, options: list, host_version: str,
                 terms: list, lobby_id: bytes) -> None:
        m = self.m
        if key != m.host_key:
            return
        if m.phase is not Phase.LOBBY or m.games_done or self.offer is not None:
            log.warning("dropped an offer from the host: not in the lobby, or offered already")
            return
        if proto != wire.PROTO:
            self.decline(f"the host speaks session protocol {proto} (netplay {wire.clip(host_version, 40)}), this "
                         f"netplay ({m.version}) speaks {wire.PROTO}")
            return
        try:
            game = engines.get(game_id)
        except engines.UnknownGame:
            self.decline(f"the host offers {wire.clip(game_id, 64)!r}, a game this netplay does not know "
                         f"(known: {', '.join(engines.GAMES)})")
            return
        if game.rules_version != rules:
            self.decline(f"the host plays {game_id} by rules version {wire.clip(rules, 64)!r}, this netplay has "
                         f"{game.rules_version!r}; use the same netplay version on both sides")
            return
        try:
            offered = dict(options)
            resolved = game.check_options(offered)
            if resolved != offered:
                raise ValueError(f"the offered options {wire.clip(str(options), 200)} are not complete")
            game.start(players, resolved)
            m.decider.prepare(game)
        except ValueError as exc:
            self.decline(f"cannot play the offered game: {wire.clip(str(exc))}")
            return
        try:
            clock = terms[1]
            value = (2, terms[0], None if clock is None else tuple(clock), terms[2], terms[3], terms[4], 0)
            offered_terms = Terms.from_value(value)
        except codec.FormatError as exc:
            self.decline(f"the host's terms are out of bounds ({wire.clip(str(terms), 80)}): {exc.reason}")
            return
        spectating = None
        if len(terms) == 6:
            spectating = Spectating.from_offer(terms[5])
            if spectating is None:
                self.decline(f"the host's spectators' terms are out of bounds ({wire.clip(str(terms[5]), 80)})")
                return
        self.offered_terms = offered_terms
        self.offered_spectating = spectating
        self.lobby_id = bytes(lobby_id)
        self.answered()
        self.ready_at = m.now
        m.game, m.players = game, players
        self.offer = (game_id, rules, players, resolved)
        m.say(f"the host offers {game.title or game_id} for {players} players "
              f"(netplay {wire.clip(host_version, 40)}; {offered_terms.describe()}"
              f"{'; ' + spectating.describe() if spectating is not None else ''})")
        for _, _, extra in m.also:
            extra.prepare(game)
        if players > 2:
            m.listen()      # the other joiners' direct links come to us here (the shell opens the port)
        self.say("ready", [[name, public_bytes(k), seat_proof(k, m.host_key, m.identity.public_key, name)]
                           for name, k, _ in m.also], m.mesh_port,
                 sign_address(m.identity.private_key, m.host_key, self.lobby_id, m.identity.public_key, m.mesh_port))

    def on_refused(self, key: bytes, code: str, reason: str) -> None:
        m = self.m
        if key != m.host_key:
            return
        self.answered()
        m.finish(EXIT_FAILED, f"the host refused: {wire.clip(reason)}")

    def on_header(self, key: bytes, data: bytes) -> None:
        m = self.m
        if key != m.host_key:
            return
        restart = m.phase is Phase.PLAY and m.book is not None and m.book.seq == -1 and not m.games_done
        if m.header is not None and data == m.header.encode():
            return    # a copy of the header we accepted: our `start` is on its way (or is sent again)
        if (m.phase not in (Phase.LOBBY, Phase.OVER) and not restart) or self.offer is None:
            log.warning("dropped a header from the host: not expected now")
            return
        if m.phase is Phase.OVER and not m.rematch_asked:
            log.warning("dropped a header from the host: we did not ask for a rematch")
            return
        try:
            header = header_from_value(codec.decode(data))
        except codec.FormatError as exc:
            self.decline(f"the host's header is unreadable: {exc.reason}")
            return
        problem = self.check_header(header)
        if problem:
            self.decline(f"the host's header is not acceptable: {problem}")
            return
        seat = next(s for s, (k, _) in enumerate(header.seats) if k == m.identity.public_key)
        secrets = [SeatSecrets(seat, m.identity.private_key, m.entropy(32))]
        extra = []
        m.deciders = {seat: m.decider}
        for name, k, decider in m.also:
            held = next(s for s, (pk, _) in enumerate(header.seats) if pk == public_bytes(k))
            secrets.append(SeatSecrets(held, k, m.entropy(32)))
            extra.append([held, secrets[-1].seed.hex(), name])
            m.deciders[held] = decider
        if restart:    # the host composed a new header before the first frame (a seat came free meanwhile)
            m.outbox.append(fx.DiscardReplay())
            for s in m.require_book().seats:
                m.outbox.append(fx.ForgetSeat(m.require_book().header.session, s))
        elif m.book is not None:
            m.outbox.append(fx.CloseReplay())
        self.answered()
        m.book = Book(header, secrets, m.game)
        m.header = header
        m.outbox.append(fx.OpenReplay(header))
        m.outbox.append(fx.SaveSeat(m.saved_seat(seat, secrets[0].seed, extra)))
        game = m.game
        assert game is not None, "the offer named the game, and a header is taken only after an offer"
        m.decider.prepare(game)
        m.move(Event.START)         # in play, unstarted until the host says the game is on (every seat started)
        m.following.reset()
        m.start_lines()
        self.started_at, self.start_sent, self.peers_heard = m.now, False, False
        if m.players <= 2:
            self.send_start()

    def check_header(self, header: Header) -> str | None:
        m = self.m
        offer, offered = self.offer, self.offered_terms
        assert offer is not None and offered is not None, "a header is checked against the offer it answers"
        game_id, rules, players, options = offer
        if (header.game, header.rules_version, header.players) != (game_id, rules, players):
            return "game, rules version or player count differ from the offer"
        if header.option_dict != options:
            return "the options differ from the offer"
        terms = header.terms
        if terms is None or not terms.extended or (terms.reveal_timeout_ms, terms.clock, terms.move_ms,
                                                   terms.frame_ms, terms.lateness_ms) != (
                offered.reveal_timeout_ms, offered.clock, offered.move_ms, offered.frame_ms, offered.lateness_ms):
            return "the terms (timeouts, clock, limits) differ from the offer"
        if header.spectating != self.offered_spectating or (header.minor >= 2 and header.spectating is None):
            return "the spectators' terms (how many may watch, how far behind) differ from the offer"
        for key in (m.identity.public_key, *(public_bytes(k) for _, k, _ in m.also)):
            if sum(k == key for k, _ in header.seats) != 1:
                return "each of our keys is not at exactly one seat"
        if len({k for k, _ in header.seats}) != len(header.seats):
            return "a key holds two seats"
        assert terms.host_seat is not None, "terms of the 2.1 layout name the host seat (Terms.from_value)"
        if header.seats[terms.host_seat][0] != m.host_key:
            return "the host's own key is not at the host's seat"
        for _, name in header.seats:
            problem = name_problem(name)
            if problem is not None:
                return f"a seat's name is refused: {problem}"
        old = m.book.header if m.book is not None and m.games_done else None
        if old is not None:
            if header.session == old.session:
                return "a rematch needs a new session id"
            if header.seats != old.seats:
                return "a rematch keeps the seats"
        return None

    def on_peers(self, key: bytes, entries: list) -> None:
        """Where the other joiners listen: dial every one whose first seat is higher than ours. In the first
        game's lobby every entry is judged too (addresses.py): a seat left out, an extra seat without its key's
        proof, an address bent or blanked."""
        m = self.m
        if key != m.host_key or m.header is None:
            return
        seats = m.header.seats
        judging = self.started_at is not None and not m.games_done and m.state.unstarted()
        header_keys = {k for k, _ in seats}
        host_seat = m.header.terms.host_seat if m.header.terms is not None else None
        peers: dict[int, tuple[bytes, str]] = {}
        listed: set[int] = set()
        for seat, peer_key, address, port, statement in entries:
            if seat >= len(seats) or seat == host_seat or m.require_book().holds(seat) or seat in listed:
                continue
            listed.add(seat)
            peer_key = bytes(peer_key)
            first = seats[seat][0] == peer_key
            if judging:
                self.judge(check_entry(seat, peer_key, m.host_key, self.lobby_id, address, port, statement).fault
                           if first else check_extra(seat, seats[seat][0], seats[seat][1], m.host_key, peer_key,
                                                     bytes(statement), header_keys).fault, seat)
            if peer_key == m.host_key or peer_key == m.identity.public_key:
                continue
            peers[seat] = (peer_key, address)
        if judging and host_seat is not None:
            held = {s for s in range(len(seats)) if m.require_book().holds(s)}
            for check in check_cover(len(seats), host_seat, held, listed):
                self.judge(check.fault, check.seat)
        self.peers, self.peers_heard = peers, True
        mine = m.require_book().seat
        for seat, (peer_key, address) in sorted(peers.items()):
            if address and seat > mine and seats[seat][0] == peer_key:
                m.outbox.append(fx.Dial(peer_key, address))

    def judge(self, fault: str | None, seat: int) -> None:
        """Say, once per seat, that the host bent a seat's own signed address (the checks are in addresses.py;
        the first game's lobby only: a resumed or rematch `peers` may carry a port changed since)."""
        if fault is None or seat in self.faults:
            return
        self.faults[seat] = fault
        log.warning("%s", fault)
        self.m.say(f"{fault}: the host's fault (while no direct link is up, no claim against seat {seat} is "
                   "co-signed here)")

    def tick(self) -> None:
        m = self.m
        if self.last is not None and m.now - self.last_at >= self.resend_s and m.host_up():
            tag, fields = self.last
            m.send(m.host_key, tag, *fields)
            self.last_at, self.resend_s = m.now, min(4.0, self.resend_s * 2)
        if self.started_at is None or self.start_sent or m.phase is not Phase.PLAY or m.book is None:
            return
        others = {key for key, _ in self.peers.values()}
        linked = {key for key in others if key in m.links and m.links[key].up}
        # every other joiner linked; or none to link to, as the host's `peers` says with no seat judged bent
        # (the host plays every other seat). Else wait for links up to MESH_S: a host that withholds or bends
        # `peers` gains nothing by it, as the wait and the relay are what the joiner would have without it.
        alone = self.peers_heard and not self.peers and not self.faults
        if (linked == others and (self.peers or alone)) or m.now - self.started_at >= MESH_S:
            self.send_start()

    def send_start(self) -> None:
        m = self.m
        self.start_sent = True
        reached = sorted(seat for seat, (key, _) in self.peers.items() if key in m.links and m.links[key].up)
        apart: dict[bytes, list[int]] = {}
        for seat, (key, _) in sorted(self.peers.items()):
            if seat not in reached:
                apart.setdefault(key, []).append(seat)
        for seats in apart.values():      # one line per peer out of reach (with every seat it plays)
            which = f"seat {seats[0]}" if len(seats) == 1 else "seats " + ", ".join(map(str, seats))
            m.say(f"{which} cannot be reached directly: messages go through the host, which can withhold them or "
                  "show each of you another game unseen (never forge a frame); while no direct link is up, no claim "
                  f"against {'it' if len(seats) == 1 else 'them'} is co-signed here")
        if m.players > 2:   # once per game: a resumed joiner sends no `start` again, and keeps its file's record
            pairs = [(mine, seat) for mine in m.require_book().seats for seat in self.peers if seat not in reached]
            m.outbox.append(fx.Write(None, (links_record(pairs),)))
        self.say("start", m.require_header().hash, reached)
