"""A simulated clock and network under the real session state machines (netplay/protocol).

`World` runs 2 to 4 peers of one game in one process: peer 0 is the host, the others joiners. Time is
simulated: an event heap of message deliveries, link changes, crashes, resumes and ticks; nothing
sleeps. The network between every pair of peers has its own latency, and faults (`Faults`): messages
lost, duplicated or reordered, links that drop (every message in flight on them is lost, as with a
broken TCP connection) and come back, peers killed and resumed from what they wrote. Every run is a pure
function of its seed: the same seed gives the same events, frames and outcomes.

A peer's effects are carried out as a real shell would: `Write` goes to its simulated disk (kept across
a crash), `Send` onto the network, `Dial` opens a direct link to the address it carries (if that address
is where the peer it names listens, with that peer's fingerprint, and the network lets the pair talk: a
blank or wrong address fails, as the real transport's dial would, so a host that blanks or bends the
addresses in `peers` really leaves that pair to its relay), and the host's admission rule is asked when a
joiner connects. A joiner listens at 10.0.0.(n+1):(8000+n) and connects to the host from 10.0.0.(n+1).
Some joiners may never come (`absent`: a lobby that never fills), and a session may play several games
(`games`: every honest decider votes for a rematch until that many were played). A run may have spectators
(`spectators`: the host's terms then allow that many, `spectator_delay` frames behind): each is a
`WatchMachine` peer of its own (index `WATCHER` + n, in `watchers`, never among `peers`: no invariant of the
players counts it) that connects to the host at a random moment of the first seconds, from the lobby on. What
each peer did and saw is kept for the invariants (simulator/invariants.py).
"""

from __future__ import annotations

import hashlib
import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from netplay.identity import Identity
from netplay.protocol import effects as fx
from netplay.protocol.core import Machine, Outcome
from netplay.protocol.machines import HostMachine, JoinMachine
from netplay.protocol.state import Phase
from netplay.protocol.watching import WatchMachine
from netplay.transcript import ResumeError, check_seeds
from netplay.transport import parse_address
from replays.codec import decode
from replays.crypto import fingerprint
from replays.frames import Frame, frame_from_value
from replays.header import Spectating, Terms
from replays.ledger import SeatSecrets

__all__ = ["World", "Faults", "SimPeer", "identity_for"]

LINGER_POLL_S = 0.05    # the host's shell polls this often while it lingers at the close (netplay/host.py)
WATCHER = 100           # the index of the first spectator (players are 0..3)


@dataclass(slots=True)
class Faults:
    """What the network and the machines may do to a run (rates are per message or per second)."""

    latency: tuple[float, float] = (0.001, 0.020)   # seconds, uniform per message
    loss: float = 0.0            # a message lost
    duplicate: float = 0.0       # a message delivered twice
    reorder: float = 0.0         # a message delayed past later ones
    drops: int = 0               # link drops over the run (each: down for 0.1..`drop_s` s)
    drop_s: float = 3.0
    kills: int = 0               # peers killed and resumed (each: down for 0.2..`kill_s` s)
    kill_s: float = 5.0
    kill_host: bool = True       # whether the host may be the one killed
    partition: tuple[int, int] | None = None   # two joiners that never reach each other directly


@dataclass(slots=True)
class Disk:
    """What a peer wrote, kept across its crashes: its replay records and its saved seat."""

    header: Any = None
    frames: list[bytes] = field(default_factory=list)
    certs: list[bytes] = field(default_factory=list)
    records: list[tuple] = field(default_factory=list)   # every non-frame record, in order
    saved: Any = None
    closed: bool = False


def identity_for(seed: str, n: int) -> Identity:
    raw = hashlib.sha256(f"{seed}/key/{n}".encode()).digest()
    private = Ed25519PrivateKey.from_private_bytes(raw)
    return Identity._make(f"peer{n}", private, b"0" * 40, b"1" * 40)


class SimPeer:
    """One peer: its machine (None while dead), its disk, and what it did (for the invariants)."""

    def __init__(self, world: World, index: int, identity: Identity):
        self.world, self.index, self.identity = world, index, identity
        self.machine: Machine | None = None
        self.disk = Disk()
        self.acked: dict[int, bytes] = {}        # frame number -> hash this peer acknowledged (ever)
        self.dead_since: float | None = None
        self.down: list[tuple[float, float]] = []   # (from, to) intervals this peer was dead
        self.outcome: Any = None
        self.lines: list[str] = []
        self.entropy_count = 0
        self.kills = 0
        self.adversary: Any = None           # simulator/adversary.py: a lying peer (None: honest)
        self.crash: str | None = None        # an exception that escaped the machine (an invariant's failure)
        self.games: list[int] = []           # the frames of each game it played before the current one
        self.sessions: dict[bytes, int] = {}  # every game (session id) this peer opened -> the frames it wrote
        #: a spectator's: (frame number, the host's last sequenced frame when that frame arrived), per frame
        self.arrivals: list[tuple[int, int]] = []
        #: a spectator's: (chat line's text, the host's last sequenced frame when the line reached it)
        self.heard: list[tuple[str, int]] = []

    @property
    def key(self) -> bytes:
        return self.identity.public_key

    def entropy(self, n: int) -> bytes:
        self.entropy_count += 1
        return hashlib.sha256(f"{self.world.seed}/entropy/{self.index}/{self.entropy_count}".encode()).digest()[:n]

    def give(self, call: Callable[[Machine], None]) -> None:
        """An input from the network (a message, a link that came up or went down): carry out what it asked,
        then tick the machine at the same moment and carry out what the tick asked, as every shell does
        (netplay/protocol/core.py): an ack or a relay leaves before this peer builds its own next frame."""
        self.run(call)
        now = self.world.now
        self.run(lambda m: m.tick(now))

    def run(self, call: Callable[[Machine], None]) -> None:
        """Give the machine one input, then carry out its effects."""
        machine = self.machine
        if machine is None:
            return
        chat = getattr(machine, "chat", None) if isinstance(machine, WatchMachine) else None
        before = len(chat) if chat is not None else 0
        try:
            call(machine)
        except Exception:   # noqa: BLE001 - no exception may escape a session: the invariant records it
            import traceback
            self.crash = traceback.format_exc()
            self.world.history.append((self.world.now, "crash", (self.index,)))
            self.machine = None
            return
        if chat is not None and len(chat) > before:
            host = self.world.peers[0].machine
            tip = host.book.seq if host is not None and host.book is not None else -1
            self.heard += [(line.text, tip) for line in chat[before:]]
        effects = machine.drain()
        if self.adversary is not None:
            effects = self.adversary.outgoing(machine, effects)
        self.carry_out(effects)
        if machine.outcome is not None and self.outcome is None:
            self.outcome = machine.outcome
            self.world.ended(self)

    def carry_out(self, effects: list[fx.Effect]) -> None:
        world = self.world
        for effect in effects:
            if isinstance(effect, fx.Send):
                world.send(self, effect.to, effect.data)
            elif isinstance(effect, fx.Write):
                if effect.frame is not None:
                    self.disk.frames.append(effect.frame)
                    if self.disk.header is not None:
                        session = self.disk.header.session
                        self.sessions[session] = max(self.sessions.get(session, 0), len(self.disk.frames))
                    cert = next((r[4] for r in effect.records if r and r[0] == "cert"), b"")
                    self.disk.certs.append(cert)
                self.disk.records.extend(effect.records)
                if effect.frame is not None and isinstance(self.machine, WatchMachine):
                    host = world.peers[0].machine
                    tip = host.book.seq if host is not None and host.book is not None else -1
                    self.arrivals.append((len(self.disk.frames) - 1, tip))
                elif effect.frame is not None and self.machine is not None:
                    self._note_ack()
            elif isinstance(effect, fx.OpenReplay):
                old = self.disk.header
                if not hasattr(self.machine, "book"):           # a spectator: its copy's header
                    self.disk = Disk(effect.header)
                    continue
                if old is None or old.session != effect.header.session:
                    self.acked = {}           # a new game (a rematch): its frame numbers start again
                    if old is not None:       # the game before it is kept by its own file
                        self.games.append(len(self.disk.frames))
                self.sessions.setdefault(effect.header.session, 0)
                self.disk = Disk(effect.header, saved=self.disk.saved)
                if self.machine is not None and self.machine.book is not None:
                    self.machine.book.path = None
            elif isinstance(effect, fx.CloseReplay):
                self.disk.closed = True
            elif isinstance(effect, fx.DiscardReplay):
                self.disk = Disk(saved=self.disk.saved)
            elif isinstance(effect, fx.SaveSeat):
                self.disk.saved = effect.record
            elif isinstance(effect, fx.ForgetSeat):
                self.disk.saved = None
            elif isinstance(effect, fx.Say):
                self.lines.append(effect.line)
            elif isinstance(effect, fx.Dial):
                world.dial(self, effect.to, effect.address)
            elif isinstance(effect, fx.Hangup):
                world.hangup(self, effect.to)

    def _note_ack(self) -> None:
        """A joiner acknowledges what it wrote (the machine sends `ack` right after `Write`)."""
        book = self.machine.book
        if book is not None and book.frames:
            frame = book.frames[-1]
            if book.sequenced(frame.seq):
                self.acked[frame.seq] = frame.hash

    def stored_frames(self) -> list[Frame]:
        return [frame_from_value(decode(data), data) for data in self.disk.frames]


class World:
    """See the module docstring."""

    def __init__(self, seed: int, game_id: str, players: int, *, options: dict | None = None,
                 terms: Terms | None = None, faults: Faults | None = None,
                 deciders: Callable[[int, World], Any] | None = None, tick_s: float = 0.25,
                 max_time: float = 7200.0, max_events: int = 2_000_000, absent: frozenset[int] = frozenset(),
                 games: int = 1, spectators: int = 0, spectator_delay: int = 4, spectator_chat: bool = False):
        self.seed = seed
        self.rng = random.Random(f"netplay-sim/{seed}")
        self.game_id, self.players = game_id, players
        self.options = options or {}
        self.terms = terms or Terms.agreed()
        self.faults = faults or Faults()
        self.tick_s, self.max_time, self.max_events = tick_s, max_time, max_events
        self.now = 0.0
        self.events: list[tuple[float, int, str, tuple]] = []
        self._order = 0
        self.peers = [SimPeer(self, n, identity_for(str(seed), n)) for n in range(players)]
        self.spectating = Spectating(spectators, spectator_delay, spectator_chat) if spectators else None
        #: chat lines the players said (`plan_chat`): text -> the host's last sequenced frame when it was said
        self.said: dict[str, int] = {}
        self.watchers = [SimPeer(self, WATCHER + n, identity_for(f"{seed}/spectator", n)) for n in range(spectators)]
        self.by_key = {p.key: p for p in (*self.peers, *self.watchers)}
        self.links: set[frozenset[int]] = set()       # pairs with an open connection
        self.mesh_wanted: set[frozenset[int]] = set()  # joiner pairs that dialled each other
        self.history: list[tuple[float, str, tuple]] = []
        self.make_decider = deciders
        self.think_max = 0.0         # the longest an honest decider thinks (a decision past its limit is late)
        self.event_count = 0
        self.wiretaps: list[Callable[[SimPeer, SimPeer, bytes], bytes | list[bytes] | None]] = []
        self.port = 7000
        #: a hook that changes a peer's saved game before it resumes (the wrong-seed attack)
        self.tamper_saved: Callable[[SimPeer, Any], Any] | None = None
        self._generation: dict[frozenset[int], int] = {}
        self.kills_due: list[tuple[int, int, float]] = []   # (peer, after how many of its frames, down for)
        self.lost: dict[int, int] = {}      # messages of each peer the network lost
        self._last_delivery: dict[tuple[int, int], float] = {}
        self.absent = absent          # joiners that never come (a lobby that never fills)
        self.games = games            # how many games the honest deciders want to play (rematches)
        self.dials_failed: list[tuple[int, str]] = []   # (dialler, address) of every dial that reached nobody
        self.closed: set[int] = set()       # peers whose shell closed: their ports are gone, nobody reaches them

    # ------------------------------------------------------------------------------ setup

    def start(self) -> None:
        host = self.peers[0]
        host.machine = HostMachine(host.identity, self.make_decider(0, self), self.game_id, players=self.players,
                                   options=self.options, seat=0, terms=self.terms, entropy=host.entropy,
                                   wall_clock=lambda: 1_700_000_000, address=f"10.0.0.1:{self.port}",
                                   spectating=self.spectating)
        self._attach(host)
        for peer in self.peers[1:]:
            if peer.index not in self.absent:
                self.boot_joiner(peer)
        for peer in self.peers:
            self.schedule(self.tick_s, "tick", (peer.index,))
        for watcher in self.watchers:
            watcher.machine = WatchMachine(watcher.identity, host.key, version="sim")
            self._attach(watcher)
            self.schedule(self.rng.uniform(0.0, 0.5), "connect", (watcher.index, 0))
            self.schedule(self.tick_s, "tick", (watcher.index,))

    def peer(self, index: int) -> SimPeer:
        """A player by its index, or a spectator (index `WATCHER` + n)."""
        return self.watchers[index - WATCHER] if index >= WATCHER else self.peers[index]

    def others(self, index: int) -> list[int]:
        """Every other peer's index, the spectators' included (what a peer killed or closed disconnects from)."""
        return [i for i in (*range(self.players), *(w.index for w in self.watchers)) if i != index]

    def _attach(self, peer: SimPeer) -> None:
        if peer.adversary is not None and peer.machine is not None:
            peer.adversary.attach(peer.machine)

    def boot_joiner(self, peer: SimPeer, saved: Any = None) -> bool:
        """A joiner's machine, new or (with `saved`) resumed from its disk as `netplay join --resume` does;
        False when the saved game cannot be resumed (the peer stays out, as the real command would)."""
        machine = JoinMachine(peer.identity, self.make_decider(peer.index, self), host_key=self.peers[0].key,
                              address=f"10.0.0.1:{self.port}", entropy=peer.entropy, wall_clock=lambda: 1_700_000_000,
                              listen=lambda: 8000 + peer.index)
        if saved is not None:
            frames = peer.stored_frames()
            secrets = [SeatSecrets(saved.seat, peer.identity.private_key, saved.seed_bytes)]
            try:
                check_seeds(peer.disk.header, frames, secrets)
                machine.load(saved, peer.disk.header, frames, list(peer.disk.certs))
            except (ResumeError, ValueError) as exc:
                peer.outcome = Outcome(1, f"cannot resume: {exc}")
                self.ended(peer)
                return False
            machine.drain()
        peer.machine = machine
        self._attach(peer)
        self.schedule(self._latency(), "connect", (peer.index, 0))
        return True

    # ------------------------------------------------------------------------------ the event loop

    def schedule(self, delay: float, kind: str, args: tuple) -> None:
        self._order += 1
        heapq.heappush(self.events, (self.now + delay, self._order, kind, args))

    def run(self, until: Callable[[], bool]) -> None:
        while self.events and not until():
            event = heapq.heappop(self.events)
            when, _, kind, args = event
            if when > self.max_time:
                heapq.heappush(self.events, event)   # kept: the run may be carried on to a later horizon
                break
            self.event_count += 1
            if self.event_count > self.max_events:
                break
            self.now = max(self.now, when)
            getattr(self, f"_do_{kind}")(*args)

    def plan_chat(self, horizon: float, lines: int = 6) -> None:
        """`lines` chat lines said by players at random moments of the game (each peer's machine, as a person at
        its table types one): what spectators may hear only as late as the frames (simulator/watchers.py)."""
        rng = random.Random(f"chat/{self.seed}")     # (a stream of its own: the world's draws stay as they were)
        for n in range(lines):
            self.schedule(rng.uniform(1.0, horizon), "chat", (n % self.players, n))

    def _do_chat(self, index: int, n: int) -> None:
        peer = self.peers[index]
        host = self.peers[0].machine
        if peer.machine is None or peer.outcome is not None or host is None or host.book is None:
            return
        text = f"line {n} from seat {index}"
        self.said.setdefault(text, host.book.seq)
        peer.run(lambda m: m.chat(text))

    def _do_tick(self, index: int) -> None:
        peer = self.peer(index)
        if peer.machine is not None and peer.outcome is None:
            adversary = peer.adversary
            peer.run(lambda m: (m.tick(self.now), adversary is not None and adversary.tick(m)))
        if peer.outcome is None:
            self.schedule(self.tick_s, "tick", (index,))

    def _do_deliver(self, src: int, dst: int, data: bytes, generation: int) -> None:
        pair = frozenset((src, dst))
        if pair not in self.links or self._generation.get(pair, 0) != generation:
            return   # the link dropped meanwhile: what was in flight is lost
        peer, sender = self.peer(dst), self.peer(src)
        if peer.machine is None:
            return
        if peer.adversary is not None:
            data = peer.adversary.incoming(peer.machine, sender.key, data)
            if data is None:
                return
        peer.give(lambda m: m.receive(self.now, sender.key, data))
        self._kill_if_due(peer)

    # ------------------------------------------------------------------------------ the network

    def _latency(self) -> float:
        low, high = self.faults.latency
        return self.rng.uniform(low, high)

    def may_talk(self, a: int, b: int) -> bool:
        part = self.faults.partition
        return part is None or frozenset((a, b)) != frozenset(part)

    def connect(self, a: int, b: int) -> bool:
        """Open the connection a -> b (b listens): both are told; the host asks its admission rule."""
        pair = frozenset((a, b))
        pa, pb = self.peer(a), self.peer(b)
        if pa.machine is None or pb.machine is None or pair in self.links or not self.may_talk(a, b) \
                or a in self.closed or b in self.closed:
            return False
        if a >= WATCHER and isinstance(pb.machine, JoinMachine):
            # a joiner's listener admits only keys that hold a seat of the game (netplay/links.py): a spectator's
            # holds none
            self.history.append((self.now, "refused", (a, "you hold no seat here")))
            return False
        if isinstance(pb.machine, HostMachine):
            reason = pb.machine.admit(pa.key, pa.identity.name)
            if reason is not None:
                self.history.append((self.now, "refused", (a, reason)))
                pa.run(lambda m: m.finish(1, f"the host refused: {reason}"))
                return False
        self.links.add(pair)
        self._generation[pair] = self._generation.get(pair, 0) + 1
        self.history.append((self.now, "up", (a, b)))
        pb.give(lambda m: m.linked(self.now, pa.key, pa.identity.name, f"10.0.0.{a + 1}"))
        pa.give(lambda m: m.linked(self.now, pb.key, pb.identity.name))
        return True

    def _do_connect(self, a: int, b: int) -> None:
        if not self.connect(a, b) and self.peer(a).machine is not None and self.peer(a).outcome is None \
                and frozenset((a, b)) not in self.links and (b == 0 or frozenset((a, b)) in self.mesh_wanted):
            self.schedule(0.5, "connect", (a, b))     # the transport keeps trying

    def disconnect(self, a: int, b: int, reason: str) -> None:
        pair = frozenset((a, b))
        if pair not in self.links:
            return
        self.links.discard(pair)
        self.history.append((self.now, "down", (a, b)))
        for x, y in ((a, b), (b, a)):
            peer, other = self.peer(x), self.peer(y)
            if peer.machine is not None:
                peer.give(lambda m, k=other.key: m.unlinked(self.now, k, reason))

    def send(self, sender: SimPeer, to: bytes, data: bytes) -> None:
        target = self.by_key.get(to)
        if target is None:
            return
        a, b = sender.index, target.index
        pair = frozenset((a, b))
        if pair not in self.links:
            return
        messages: list[bytes] = [data]
        for tap in self.wiretaps:
            out = tap(sender, target, data)
            if out is None:
                messages = []
                break
            messages = out if isinstance(out, list) else [out]
        faults = self.faults
        for message in messages:
            if faults.loss and self.rng.random() < faults.loss:
                self.lost[a] = self.lost.get(a, 0) + 1
                continue
            copies = 2 if faults.duplicate and self.rng.random() < faults.duplicate else 1
            for _ in range(copies):
                delay = self._latency()
                if faults.reorder and self.rng.random() < faults.reorder:
                    delay += self.rng.uniform(0.01, 0.2)
                self._fifo_schedule(a, b, delay, message)

    def _fifo_schedule(self, a: int, b: int, delay: float, data: bytes) -> None:
        when = self.now + delay
        key = (a, b)
        last = self._last_delivery.get(key, 0.0)
        if not self.faults.reorder:
            when = max(when, last)          # a connection delivers in order
        self._last_delivery[key] = max(last, when)
        self._order += 1
        heapq.heappush(self.events, (when, self._order, "deliver", (a, b, data, self._generation[frozenset((a, b))])))

    def listener(self, address: str) -> SimPeer | None:
        """The peer listening at `address` (host:port/fingerprint, as in `peers`), or None: a blank, unparsable
        or wrong address, a port nobody opened, or a fingerprint of another key reach nobody."""
        try:
            host, port, print_ = parse_address(address)
        except ValueError:
            return None
        for peer in self.peers[1:]:
            machine = peer.machine
            if (host == f"10.0.0.{peer.index + 1}" and machine is not None and getattr(machine, "mesh_port", 0) == port
                    and (print_ is None or print_ == fingerprint(peer.key))):
                return peer
        return None

    def dial(self, peer: SimPeer, to: bytes, address: str) -> None:
        target = self.by_key.get(to)
        if target is None or target is peer:
            return
        if self.listener(address) is not target:
            self.dials_failed.append((peer.index, address))
            self.history.append((self.now, "dial-failed", (peer.index, target.index)))
            return
        self.mesh_wanted.add(frozenset((peer.index, target.index)))
        self.schedule(self._latency(), "connect", (peer.index, target.index))

    def hangup(self, peer: SimPeer, to: bytes) -> None:
        target = self.by_key.get(to)
        if target is not None:
            self.mesh_wanted.discard(frozenset((peer.index, target.index)))
            self.disconnect(peer.index, target.index, "closed the connection")

    # ------------------------------------------------------------------------------ faults

    def plan_faults(self, horizon: float, only: list[int] | None = None) -> None:
        """Schedule the run's link drops and kills at random moments within `horizon` (kills: of a peer of
        `only`, if given)."""
        faults = self.faults
        if self.players < 2:
            return
        for _ in range(faults.drops):
            a, b = self.rng.sample(range(self.players), 2)
            self.schedule(self.rng.uniform(0.5, horizon), "drop", (a, b, self.rng.uniform(0.1, faults.drop_s)))
        for _ in range(faults.kills):
            first = 0 if faults.kill_host else 1
            victim = self.rng.choice(only) if only else self.rng.randrange(first, self.players)
            # a kill at a random point of the game: once the victim holds that many frames (a moment in
            # time would mostly fall after a short game's end)
            self.kills_due.append((victim, self.rng.randint(1, max(2, int(horizon * 8))),
                                   self.rng.uniform(0.2, faults.kill_s)))

    def _kill_if_due(self, peer: SimPeer) -> None:
        machine = peer.machine
        if not self.kills_due or machine is None or getattr(machine, "book", None) is None:
            return
        frames = len(machine.book.frames)
        for due in [k for k in self.kills_due if k[0] == peer.index and k[1] <= frames]:
            self.kills_due.remove(due)
            self.schedule(0.0, "kill", (peer.index, due[2]))

    def _do_drop(self, a: int, b: int, down_s: float) -> None:
        if frozenset((a, b)) not in self.links:
            return
        self.disconnect(a, b, "silent")
        dialler, listener = (max(a, b), 0) if min(a, b) == 0 else (min(a, b), max(a, b))   # who reconnects
        self.schedule(down_s, "connect", (dialler, listener))

    def _do_kill(self, index: int, down_s: float) -> None:
        peer = self.peers[index]
        if peer.machine is None or peer.outcome is not None or peer.disk.saved is None:
            return
        if peer.machine.phase is not Phase.PLAY or peer.machine.book is None or not peer.machine.book.frames:
            return
        for other in self.others(index):
            self.disconnect(index, other, "silent")
        peer.machine = None
        peer.kills += 1
        peer.dead_since = self.now
        self.history.append((self.now, "kill", (index,)))
        self.schedule(down_s, "revive", (index,))

    def _do_revive(self, index: int) -> None:
        peer = self.peers[index]
        saved = peer.disk.saved
        peer.down.append((peer.dead_since, self.now))
        peer.dead_since = None
        self.history.append((self.now, "revive", (index,)))
        if saved is None:
            return
        if self.tamper_saved is not None:
            saved = self.tamper_saved(peer, saved)
        if index == 0:
            frames = peer.stored_frames()
            peer.machine = HostMachine.resumed(peer.identity, self.make_decider(0, self), saved, peer.disk.header,
                                               frames, list(peer.disk.certs), entropy=peer.entropy,
                                               wall_clock=lambda: 1_700_000_000, address=f"10.0.0.1:{self.port}")
            self._attach(peer)
            peer.carry_out(peer.machine.drain())
            for other in (*self.peers[1:], *self.watchers):
                if other.machine is not None:
                    self.schedule(self._latency() + 0.1, "connect", (other.index, 0))
        else:
            if not self.boot_joiner(peer, saved):
                return
            for a, b in [tuple(sorted(p)) for p in self.mesh_wanted if index in p]:
                self.schedule(self._latency() + 0.1, "connect", (a, b))
        self.schedule(self.tick_s, "tick", (index,))

    # ------------------------------------------------------------------------------ ends

    def ended(self, peer: SimPeer) -> None:
        self.history.append((self.now, "ended", (peer.index, peer.outcome.code)))
        if isinstance(peer.machine, HostMachine):
            # the host's shell closes as `netplay host` does once the session has its outcome: the machine plans
            # its wait for the last acknowledgements (HostMachine.close_requested), the shell feeds it until it
            # no longer lingers, then tells every joiner goodbye and closes its ports
            now = self.now
            peer.run(lambda m: m.close_requested(now))
            self.schedule(0.0, "linger", (peer.index,))

    def _do_linger(self, index: int) -> None:
        peer = self.peers[index]
        machine = peer.machine
        if machine is None or index in self.closed:
            return    # killed meanwhile: a dead host says nothing
        if machine.lingers(self.now):
            now = self.now
            peer.run(lambda m: m.tick(now))
            self.schedule(LINGER_POLL_S, "linger", (index,))
            return
        self.closed.add(index)
        self.history.append((self.now, "closed", (index,)))
        bye = machine.goodbye()
        for other in (*self.peers, *self.watchers):
            if frozenset((index, other.index)) in self.links:
                self.send(peer, other.key, bye)
        # the ports close once the goodbye has had the time to leave (the real transport's linger)
        self.schedule(self.faults.latency[1] + 0.2, "close_links", (index,))

    def _do_close_links(self, index: int) -> None:
        for other in self.others(index):
            self.disconnect(index, other, "closed the connection")
