"""Spectators on the state machines alone (netplay/protocol/spectators.py, netplay/protocol/watching.py): a host,
a joiner and spectators wired in memory, the clock counted, no socket. What it shows: a frame reaches a
spectator only once the delay's frames after it are sequenced, and the copy's audit names the host for a
release signed too early; nothing secret reaches a spectator before the seeds (and the scan that says so finds
a seed sent early); a spectator cannot act; more spectators than the terms allow are refused. Over real
processes: tests/test_spectators_cli.py."""

from __future__ import annotations

import os
import random
from collections import deque

import msgpack

from bots.decider import BotDecider
from netplay import wire
from netplay.identity import Identity
from netplay.protocol import effects as fx
from netplay.protocol.machines import HostMachine, JoinMachine
from netplay.protocol.spectators import YIELD_S
from netplay.protocol.watching import Prefix, WatchMachine
from replays import codec
from replays.audit import audit_bytes
from replays.crypto import hash_parts
from replays.frames import decode_frame, make_frame
from replays.header import Spectating, Terms
from replays.randomness import chain_secret, private_mac
from replays.reader import parse_replay
from replays.releases import sign_release, spectator_record

TERMS = Terms.agreed(10_000, None, 60_000, 500, 5_000, 0)
GAME = "turning-tides"


class Table:
    """A host, one joiner and any spectators, passing messages in order; each peer's file kept as bytes."""

    def __init__(self, spectating: Spectating | None, seed: int = 7, game: str = GAME, options: dict | None = None,
                 players: int = 2, terms: Terms = TERMS):
        rng = random.Random(seed)
        self.entropy = lambda n: bytes(rng.getrandbits(8) for _ in range(n))
        self.host_id = Identity.generate("host")
        self.host = HostMachine(self.host_id, BotDecider("random", seed=seed), game, terms=terms, options=options,
                                players=players, entropy=self.entropy, wall_clock=lambda: 1_700_000_000,
                                spectating=spectating)
        self.joiners = {}
        for n in range(players - 1):
            ident = Identity.generate(f"joiner{n}")
            self.joiners[ident.public_key] = JoinMachine(ident, BotDecider("random", seed=seed + 1 + n),
                                                         host_key=self.host_id.public_key, address="x",
                                                         entropy=self.entropy, wall_clock=lambda: 1_700_000_000)
        self.joiner = next(iter(self.joiners.values()))
        self.join_id = self.joiner.identity
        self.now = 0.0
        self.queue: deque[tuple[bytes, bytes, bytes]] = deque()   # (to, from, data)
        self.files: dict[bytes, bytearray] = {}
        self.watchers: dict[bytes, WatchMachine] = {}
        self.received: dict[bytes, list[bytes]] = {}
        self.hungup: list[bytes] = []
        for joiner in self.joiners.values():
            self.link(joiner.identity)

    def machine(self, key: bytes):
        if key == self.host_id.public_key:
            return self.host
        return self.joiners[key] if key in self.joiners else self.watchers[key]

    def link(self, ident: Identity) -> None:
        key = ident.public_key
        if self.host.admit(key, ident.name) is not None:
            raise PermissionError(self.host.admit(key, ident.name))
        self.host.linked(self.now, key, ident.name, "127.0.0.1")
        self.carry(self.host_id.public_key)
        if key in self.watchers or key in self.joiners:    # (else: a connection and nothing more)
            self.machine(key).linked(self.now, self.host_id.public_key, "host")
            self.carry(key)

    def watch(self, ident: Identity) -> WatchMachine:
        watcher = WatchMachine(ident, self.host_id.public_key)
        self.received[ident.public_key] = []
        watcher.on_message = self.received[ident.public_key].append
        self.watchers[ident.public_key] = watcher
        self.link(ident)
        return watcher

    def carry(self, key: bytes) -> None:
        for effect in self.machine(key).drain():
            if isinstance(effect, fx.Send):
                self.queue.append((effect.to, key, effect.data))
            elif isinstance(effect, fx.OpenReplay):
                self.files[key] = bytearray(effect.header.encode())
                if key in self.watchers:
                    self.files[key] += codec.encode(spectator_record(key))
            elif isinstance(effect, fx.Write):
                self.files[key] += (effect.frame or b"") + b"".join(codec.encode(r) for r in effect.records)
            elif isinstance(effect, fx.Hangup):
                self.hungup.append(effect.to)

    def step(self) -> None:
        self.now += 0.01
        for _ in range(len(self.queue)):
            to, sender, data = self.queue.popleft()
            if to in self.watchers or to in self.joiners or to == self.host_id.public_key:
                self.machine(to).receive(self.now, sender, data)
                self.carry(to)
        for key in (self.host_id.public_key, *self.joiners, *self.watchers):
            self.machine(key).tick(self.now)
            self.carry(key)

    def run(self, until, limit: int = 20_000) -> None:
        for _ in range(limit):
            if until():
                return
            self.step()
        raise AssertionError("the table did not get there")

    def over(self) -> bool:
        book = self.host.book
        return book is not None and book.ledger.closed and all(w.outcome is not None for w in self.watchers.values())


def test_a_frame_reaches_a_spectator_only_once_the_delay_is_sequenced_and_an_early_release_names_the_host():
    delay = 6
    table = Table(Spectating(2, delay), game="quedah-merchant")
    spectator = Identity.generate("spectator")
    watcher = table.watch(spectator)
    worst = []

    def check() -> bool:
        book = table.host.book
        if book is not None and not book.ledger.closed and watcher.held:
            worst.append(book.seq - (watcher.held - 1))
            assert watcher.held - 1 <= book.seq - delay
        return table.over()
    table.run(check)
    assert worst and min(worst) == delay           # never closer than the delay while the game ran
    assert watcher.outcome.code == 0 and watcher.held == len(table.host.book.frames)   # flushed at the end
    copy = bytes(table.files[spectator.public_key])
    verdict = audit_bytes(copy, name="copy.npr")
    assert verdict.status == "valid", verdict.reason
    assert "spectator's copy" in verdict.reason and "before its delay" in verdict.reason
    # the players' files are 2.2 (the header carries the terms) and hold no release
    host_file = audit_bytes(bytes(table.files[table.host_id.public_key]), name="host.npr")
    assert host_file.status == "valid" and b"release" not in bytes(table.files[table.host_id.public_key])
    # a cut copy is a public-view copy, checked as far as it goes
    records = [raw for _, raw, _ in codec.iter_records(copy)]
    cut = audit_bytes(b"".join(records[:2 + 2 * 20]), name="cut.npr")
    assert cut.status == "unfinished" and "public-view copy" in cut.reason and "frame 20" in cut.reason
    # the host signs a release of frame 10 at tip 12 (too early for a delay of 6): the audit names it
    frames = table.host.book.frames
    early = sign_release(table.host_id.private_key, table.host.book.header.session, spectator.public_key, 10,
                         frames[10].hash, 12, frames[12].hash)
    forged = records[:2 + 2 * 10 + 1] + [codec.encode(early.value())] + records[2 + 2 * 11:]
    verdict = audit_bytes(b"".join(forged), name="early.npr")
    assert verdict.status == "invalid" and verdict.blame == table.host.host_seat_number
    assert "frame 10 reached a spectator before its delay" in verdict.reason
    # ... and a release naming a tip hash that is not that frame's, too; a release nobody signed names nobody
    wrong_tip = sign_release(table.host_id.private_key, table.host.book.header.session, spectator.public_key, 10,
                             frames[10].hash, 30, frames[29].hash)
    forged = records[:2 + 2 * 10 + 1] + [codec.encode(wrong_tip.value())] + records[2 + 2 * 11:]
    assert audit_bytes(b"".join(forged), name="tip.npr").blame == table.host.host_seat_number
    unsigned = early.value()[:5] + (bytes(64),)
    forged = records[:2 + 2 * 10 + 1] + [codec.encode(unsigned)] + records[2 + 2 * 11:]
    verdict = audit_bytes(b"".join(forged), name="unsigned.npr")
    assert verdict.status == "invalid" and verdict.blame is None and "altered" in verdict.reason


def _secrets(table: Table) -> list[bytes]:
    """Every secret of the finished game, from its seed frames: each seat's seed, the chain secrets it derives,
    its private chance contributions and the salts of its secret choices, opened only in the seed frame
    (replays/randomness.py; a salt of a round revealed during the game is public from its reveal on)."""
    book = table.host.book
    session = book.header.session
    out = []
    for frame in book.frames:
        if frame.kind == "seed":
            seed, secret, openings = frame.body
            out += [seed, secret, *(salt for _, salt in openings)]
            out += [chain_secret(seed, session, frame.seat, g) for g in range(4)]
            out += [private_mac(seed, session, i) for i in range(200)]
    return out


def _leaks(received: list[bytes], secrets: list[bytes], before_seed: bool = True) -> list[bytes]:
    seen = []
    for data in received:
        if before_seed and data.startswith(wire.pack("release", b"", b"", 0, b"", b"")[:2]):
            tag, fields = wire.unpack(data)
            if decode_frame(fields[0]).kind == "seed":
                break
        seen.append(data)
    blob = b"".join(seen)
    return [s for s in secrets if s in blob]


def test_nothing_secret_reaches_a_spectator_before_the_seeds_and_the_scan_finds_a_seed_sent_early():
    table = Table(Spectating(1, 0))      # the full game: private draws and secret steps kept to the end
    spectator = Identity.generate("spectator")
    table.watch(spectator)
    table.run(table.over)
    secrets = _secrets(table)
    assert len(secrets) > 400 and all(f.body[2] for f in table.host.book.frames if f.kind == "seed")
    received = table.received[spectator.public_key]
    assert _leaks(received, secrets) == []
    assert _leaks(received, secrets, before_seed=False) != []     # the seeds do come, at the end: the scan sees
    # a lying host: at frame 5 it signs its seed frame and releases it to the spectator (a leak in a signed
    # frame), and says its seed in an unsigned chat-like reason as well
    liar = Table(Spectating(1, 0), seed=7)
    watcher = liar.watch(spectator)
    liar.run(lambda: watcher.held >= 5)
    book, host = liar.host.book, liar.host
    seat = host.host_seat_number
    seed = book.ledger.me.seed if book.ledger.me is not None else b""
    session = book.header.session
    leak = make_frame(host.identity.private_key, session, book.seq + 1, book.last_hash, seat, "seed",
                      (seed, chain_secret(seed, session, seat, 0), ()), hash_parts("digest", b"x"))
    watcher.held_before = watcher.held
    skipped = book.frames[watcher.held:]
    for frame in skipped:     # the host shows what it holds at once, then its seed
        tip = book.frames[book.seq]
        release = sign_release(host.identity.private_key, session, spectator.public_key, frame.seq, frame.hash,
                               tip.seq, tip.hash)
        watcher.receive(liar.now, host.identity.public_key,
                        wire.pack("release", frame.encode(), b"", tip.seq, tip.hash, release.sig))
    release = sign_release(host.identity.private_key, session, spectator.public_key, leak.seq, leak.hash, leak.seq,
                           leak.hash)
    watcher.receive(liar.now, host.identity.public_key,
                    wire.pack("release", leak.encode(), b"", leak.seq, leak.hash, release.sig))
    liar.carry(spectator.public_key)
    assert seed in _leaks(liar.received[spectator.public_key][:-1] + [leak.encode()], [seed], before_seed=False)
    assert watcher.outcome is not None and watcher.outcome.code == 4
    verdict = audit_bytes(bytes(liar.files[spectator.public_key]), name="leak.npr")
    assert verdict.status == "invalid" and verdict.blame == seat, verdict.reason


def test_a_spectator_cannot_act_and_too_many_spectators_are_refused():
    table = Table(Spectating(2, 4), game="quedah-merchant")
    spectator = Identity.generate("spectator")
    watcher = table.watch(spectator)
    table.run(lambda: table.host.book is not None and table.host.book.seq >= 10 and watcher.held >= 3)
    book = table.host.book
    before = (len(book.frames), dict(table.host.links), table.host.phase)
    frame = book.frames[-1]
    lying = make_frame(spectator.private_key, book.header.session, book.seq + 1, book.last_hash, 0, "act",
                       ("anything",), frame.digest)
    for message in (wire.pack("frame", lying.encode(), b""), wire.pack("ack", book.seq, frame.hash, b"", b""),
                    wire.pack("chat", -1, "hello"), wire.pack("relay", table.join_id.public_key, b"x"),
                    wire.pack("hello", wire.PROTO, "v", None, 0), wire.pack("dispute", frame.encode(), "no"),
                    wire.pack("rematch", [])):
        table.host.receive(table.now, spectator.public_key, message)
        table.host.tick(table.now)
        sent = [wire.unpack(e.data)[0] for e in table.host.drain() if isinstance(e, fx.Send)]
        assert "chat" not in sent and "reject" not in sent and "relayed" not in sent
    assert (len(book.frames), table.host.links, table.host.phase) == before
    # a flood of `watch` and `want` from the start: one burst a second at most, never one a message
    for _ in range(50):
        for message in (wire.pack("watch", wire.PROTO, "v", 0), wire.pack("want", 0)):
            table.host.receive(table.now, spectator.public_key, message)
        table.host.tick(table.now)
    sent = [e for e in table.host.drain() if isinstance(e, fx.Send) and e.to == spectator.public_key]
    assert len(sent) <= book.seq + 1
    assert spectator.public_key not in table.host.links and table.join_id.public_key in table.host.links
    # a would-be player let in as a spectator learns that there is no seat; a third spectator is refused by
    # the transport's rule, with the reason; a seat's key is a player's
    player = Identity.generate("player")
    table.link(player)
    table.host.receive(table.now, player.public_key, wire.pack("hello", wire.PROTO, "v", None, 0))
    effects = table.host.drain()
    assert ("refused", ["in-progress", "a game is in progress here and every seat is taken"]) in [
        wire.unpack(e.data) for e in effects if isinstance(e, fx.Send) and e.to == player.public_key]
    assert fx.Hangup(player.public_key) in effects and player.public_key not in table.host.links
    table.link(Identity.generate("second"))
    third = Identity.generate("third")
    assert "2 spectator(s) already" in table.host.admit(third.public_key, third.name)
    assert table.host.admit(table.join_id.public_key, table.join_id.name) is None
    # once the game is set, a key that can only watch is not pinned under its name (a player's name included:
    # it is a label there); the seats' keys are, as in the lobby
    assert not table.host.pins(third.public_key, table.join_id.name)
    assert table.host.pins(table.join_id.public_key, table.join_id.name)
    table.run(table.over)
    assert audit_bytes(bytes(table.files[spectator.public_key]), name="c.npr").status == "valid"


def test_every_lobby_connection_is_pinned_as_a_would_be_player():
    table = Table(Spectating(2, 4), game="quedah-merchant")
    newcomer = Identity.generate("newcomer")
    assert table.host.pins(newcomer.public_key, newcomer.name)      # a seat is free: a player, maybe


def test_a_game_without_spectators_refuses_a_watcher_and_keeps_its_2_1_header():
    table = Table(None, game="quedah-merchant")
    table.run(lambda: table.host.book is not None and table.host.book.seq >= 3)
    watcher = Identity.generate("watcher")
    reason = table.host.admit(watcher.public_key, watcher.name)
    assert reason is not None and "this game allows no spectators" in reason
    assert table.host.book.header.minor == 1 and table.host.book.header.extra == ()
    # a watch in the lobby of a game that allows none is refused with the code
    lobby = Table(None, seed=3)
    ident = Identity.generate("early")
    lobby.host.linked(0.0, ident.public_key, ident.name)
    lobby.host.receive(0.0, ident.public_key, wire.pack("watch", wire.PROTO, "v", 0))
    sent = [wire.unpack(e.data) for e in lobby.host.drain() if isinstance(e, fx.Send) and e.to == ident.public_key]
    assert ("refused", ["spectators", "this game allows no spectators"]) in sent


def test_the_joiner_declines_a_header_whose_spectators_terms_differ_from_the_offer():
    table = Table(Spectating(2, 8), game="quedah-merchant")
    lobby = table.joiner.lobby
    table.run(lambda: table.joiner.header is not None)
    header = table.joiner.header
    assert header.minor == 2 and header.spectating == Spectating(2, 8)
    lobby.offered_spectating = Spectating(2, 9)
    assert "spectators' terms" in lobby.check_header(header)
    lobby.offered_spectating = None
    assert "spectators' terms" in lobby.check_header(header)
    assert os.environ is not None


def test_a_late_spectator_catches_up_at_once_and_one_that_leaves_comes_back_from_what_it_holds():
    table = Table(Spectating(1, 3), game="quedah-merchant")
    table.run(lambda: table.host.book is not None and table.host.book.seq >= 40)
    spectator = Identity.generate("late")
    due = table.host.book.seq - 3 + 1
    watcher = table.watch(spectator)
    # every due frame at once, once the players' move in flight is theirs (the releases yield to it for at most
    # YIELD_S: the table's clock runs 10 ms a step), none closer to the tip than the delay
    for _ in range(int(YIELD_S / 0.01) + 3):
        table.step()
        if watcher.held >= due:
            break
    assert due <= watcher.held <= table.host.book.seq - 3 + 1
    key = spectator.public_key
    table.host.unlinked(table.now, key, "gone")                     # it leaves ...
    table.run(lambda: table.host.book.seq >= 60)
    replay = parse_replay(bytes(table.files[key]))
    back = WatchMachine(spectator, table.host_id.public_key,
                        prefix=Prefix(replay.header, replay.frames, [r for _, r in replay.releases]))
    table.watchers[key] = back                                      # ... and comes back with what it holds
    table.link(spectator)
    asked = [wire.unpack(data) for to, sender, data in table.queue if sender == key]
    assert asked == [("watch", [wire.PROTO, "0", len(replay.frames)])] and len(replay.frames) >= 20
    table.run(table.over)
    assert back.outcome.code == 0 and back.held == len(table.host.book.frames)
    verdict = audit_bytes(bytes(table.files[key]), name="back.npr")
    assert verdict.status == "valid", verdict.reason


def test_a_spectators_releases_yield_to_the_players_move_in_flight_and_never_wait_longer_than_the_yield():
    """The host signs and sends no release while a connected seat lacks the tip (the players' move is on its way),
    but one burst each `YIELD_S` of such moves (once the game is over, at once); every frame still reaches the
    spectator soon after it became due, and the whole game does."""
    table = Table(Spectating(1, 3), game="madagaskar")
    watcher = table.watch(Identity.generate("watcher"))
    spectators = table.host.spectators
    release = spectators.release
    in_flight: list[float] = []     # when a release went out while a move was on its way

    def observed(w, book):
        m = table.host
        if not book.ledger.closed and any(link.up and link.seat is not None and link.acked < book.seq
                                          for link in m.links.values()):
            in_flight.append(m.now)
        release(w, book)

    spectators.release = observed
    due_at: dict[int, float] = {}
    arrived_at: dict[int, float] = {}
    for _ in range(20_000):
        if table.over():
            break
        table.step()
        book = table.host.book
        if book is not None and book.seq >= 0:
            for k in range(spectators.due(book) + 1):
                due_at.setdefault(k, table.now)
        for k in range(watcher.held):
            arrived_at.setdefault(k, table.now)
    assert table.over() and watcher.outcome.code == 0 and watcher.held == len(table.host.book.frames)
    assert spectators.yielded > 0, "the players' moves never held a release back"
    gaps = [b - a for a, b in zip(in_flight, in_flight[1:], strict=False)]
    assert in_flight and in_flight[0] >= YIELD_S - 1e-9, in_flight
    assert all(gap >= YIELD_S - 1e-9 for gap in gaps), "releases went out in the middle of the moves, tick by tick"
    lag = max(arrived_at[k] - due_at[k] for k in due_at)
    assert lag <= 2 * YIELD_S, lag
    print(f"{len(in_flight)} bursts in the middle of the moves over {table.now:.1f} s; the most a frame waited "
          f"after it was due: {lag:.2f} s")


def test_with_three_seats_a_spectator_gets_the_hosts_certificates_and_its_copy_holds_them():
    table = Table(Spectating(1, 2), seed=5, game="madagaskar", players=3)
    spectator = Identity.generate("spectator")
    watcher = table.watch(spectator)
    table.run(table.over)
    assert watcher.outcome.code == 0
    replay = parse_replay(bytes(table.files[spectator.public_key]))
    assert len(replay.certs) == len(replay.frames) == len(replay.releases)
    verdict = audit_bytes(bytes(table.files[spectator.public_key]), name="three.npr")
    assert verdict.status == "valid", verdict.reason


CLOCKED = Terms.agreed(10_000, (600_000, 5_000), 60_000, 500, 5_000, 0)


def _tables(received: list[bytes]) -> list[list]:
    return [fields for tag, fields in map(wire.unpack, received) if tag == "table"]


def test_spectators_hear_the_chat_no_sooner_than_the_frame_it_was_said_at_and_see_the_clocks_of_that_frame():
    """With the header's chat term (format 2.3) a line said while frame t was the last reaches a spectator only
    with or after frame t's release (t + delay sequenced): as late as the frames, so a spectator who talks to a
    player hears nothing in time. The clocks come with a burst when they changed by a second, those of its last
    frame."""
    delay = 3
    table = Table(Spectating(1, delay, chat=True), game="quedah-merchant", terms=CLOCKED)
    watcher = table.watch(Identity.generate("fan"))
    table.run(lambda: table.host.book is not None and table.host.book.seq >= 10)
    assert table.host.book.header.minor == 3 and table.host.book.header.spectating.chat
    said_at = table.host.book.seq
    table.host.chat("good luck")
    table.joiner.chat("you too")
    heard_at = {}
    for _ in range(3_000):
        if len(watcher.chat) >= 2 or table.over():
            break
        table.step()
        for line in watcher.chat:
            heard_at.setdefault(line.text, (watcher.held, table.host.book.seq))
    texts = {line.text: line for line in watcher.chat}
    assert set(texts) == {"good luck", "you too"}, watcher.chat
    assert texts["good luck"].seat == 0 and texts["you too"].seat == 1
    for text, (held, tip) in heard_at.items():
        frame = texts[text].frame
        assert frame >= said_at and held > frame and tip >= frame + delay, (text, frame, held, tip)
    table.run(table.over)
    assert watcher.outcome.code == 0
    clocks = watcher.seat_clocks(table.now)
    assert [c.seat for c in clocks] == [0, 1] and all(c.left_s is not None and c.left_s > 0 for c in clocks)
    tables = _tables(table.received[watcher.identity.public_key])
    assert tables and all(len(t[1]) == 2 for t in tables)             # a clock per seat with each
    assert [t[0] for t in tables] == sorted(t[0] for t in tables)     # of the burst's last frame, in order
    assert sum(len(t[2]) for t in tables) == 2                        # each line once
    # the copy holds the frames and releases alone: the table's words are not in it, and it audits
    verdict = audit_bytes(bytes(table.files[watcher.identity.public_key]), name="copy.npr")
    assert verdict.status == "valid", verdict.reason
    assert b"good luck" not in bytes(table.files[watcher.identity.public_key])


def test_without_the_chat_term_no_line_goes_to_a_spectator_and_one_a_host_sends_anyway_is_dropped():
    table = Table(Spectating(1, 2), game="quedah-merchant", terms=CLOCKED)
    watcher = table.watch(Identity.generate("fan"))
    table.run(lambda: table.host.book is not None and table.host.book.seq >= 6)
    assert table.host.book.header.minor == 2
    table.host.chat("the plan: the red card")
    table.joiner.chat("ok")
    table.run(table.over)
    assert watcher.outcome.code == 0 and watcher.chat == []
    assert all(t[2] == [] for t in _tables(table.received[watcher.identity.public_key]))
    # a host that sends chat this game's terms keep from spectators: its unsigned word, dropped, never shown
    lying = WatchMachine(Identity.generate("other"), table.host_id.public_key)
    lying.receive(0.0, table.host_id.public_key, wire.pack("header", table.host.book.header.encode()))
    lying.receive(0.0, table.host_id.public_key, wire.pack("table", 0, [1000, 2000], [[0, 0, "psst"]]))
    assert lying.chat == [] and not any(isinstance(e, fx.Say) and "psst" in e.line for e in lying.drain())


def test_a_spectator_shows_the_clocks_it_was_told_and_runs_only_the_seat_awaited_at_that_frame():
    table = Table(Spectating(1, 0), game="quedah-merchant", terms=CLOCKED)
    watcher = table.watch(Identity.generate("fan"))
    table.run(lambda: watcher.clocks is not None and watcher.held >= 8 and any(
        c.running for c in watcher.seat_clocks(table.now)))
    shown = watcher.clocks
    assert shown.seq <= watcher.held - 1
    since = max(shown.at, watcher.frame_at)
    now, later = watcher.seat_clocks(since), watcher.seat_clocks(since + 5.0)
    assert sum(c.running for c in later) == 1
    awaited = watcher.ledger.awaited()
    for before, after in zip(now, later, strict=True):
        assert before.left_s == shown.left_ms[before.seat] / 1000             # as the host said them
        assert after.running == (after.seat == awaited[1])                   # the seat awaited after the newest
        assert after.left_s == (max(0.0, before.left_s - 5.0) if after.running else before.left_s)
    # what the host may not make a spectator show: clocks for the wrong number of seats, or older clocks
    watcher.receive(table.now, table.host_id.public_key, wire.pack("table", shown.seq + 1, [1, 2, 3], []))
    watcher.receive(table.now, table.host_id.public_key, wire.pack("table", max(0, shown.seq - 1), [7, 7], []))
    assert watcher.clocks == shown
    # and a chat line of a frame after the one it came with is dropped (none here: the header has no chat term)
    lines = [e.line for e in watcher.drain() if isinstance(e, fx.Say)]
    assert not any("chat" in line for line in lines)


def test_the_chat_term_is_a_2_3_header_field_of_its_own_a_2_2_reading_keeps_and_the_offer_says_it():
    from replays.header import Header, header_from_value

    seats = [(b"k" * 32, "host"), (b"j" * 32, "joiner")]
    plain = Header.make("ploc", "1", 2, {}, seats, b"s" * 16, 1_700_000_000, TERMS, Spectating(2, 4))
    heard = Header.make("ploc", "1", 2, {}, seats, b"s" * 16, 1_700_000_000, TERMS, Spectating(2, 4, chat=True))
    assert (plain.minor, plain.extra) == (2, ((2, 4),)) and (heard.minor, heard.extra) == (3, ((2, 4), 1))
    assert header_from_value(codec.decode(heard.encode())).spectating == Spectating(2, 4, True)
    assert header_from_value(codec.decode(plain.encode())).spectating == Spectating(2, 4, False)
    value = list(heard.value())
    for bad in (0, 2, "1", None):
        value[-1] = bad
        try:
            header_from_value(tuple(value))
        except codec.FormatError as exc:
            assert "2.3 header" in exc.reason
        else:
            raise AssertionError(f"a 2.3 header ending with {bad!r} was read")
    # the offer's spectators' item: [most, delay] and 1 after them when they hear the chat, nothing else
    assert Spectating(2, 4, True).offered() == [2, 4, 1] and Spectating(2, 4).offered() == [2, 4]
    assert Spectating.from_offer([2, 4, 1]) == Spectating(2, 4, True)
    assert Spectating.from_offer([2, 4, 0]) is None and Spectating.from_offer([2, 4, 1, 1]) is None
    assert "hear the players' chat" in Spectating(2, 4, True).describe()
    offer = wire.pack("offer", wire.PROTO, "ploc", "1", 2, [], "v", wire.terms_message(TERMS, Spectating(2, 4, True)),
                      b"l" * 16)
    assert wire.unpack(offer)[1][6][5] == [2, 4, 1]


def test_whatever_table_message_a_host_sends_a_spectator_only_shows_and_never_raises():
    """The `table` message is the host's unsigned word: any shape wire.py lets through changes what is shown at
    most, never the copy, the ledger or the outcome."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    table = Table(Spectating(1, 0, chat=True), game="quedah-merchant", terms=CLOCKED)
    watcher = table.watch(Identity.generate("fan"))
    table.run(lambda: watcher.held >= 5)
    host = table.host_id.public_key
    ints = st.one_of(st.integers(-3, 70), st.sampled_from([wire.MAX_SEQ, 1 << 62]))
    entry = st.one_of(st.none(), ints)
    line = st.lists(st.one_of(ints, st.text(max_size=20), st.binary(max_size=4)), min_size=0, max_size=4)

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(ints, st.lists(entry, max_size=5), st.lists(st.one_of(line, ints), max_size=4))
    def run(seq, clocks, chat):
        before = (watcher.held, watcher.outcome, bytes(table.files[watcher.identity.public_key]))
        watcher.receive(table.now, host, msgpack.packb(["table", seq, clocks, chat]))
        watcher.seat_clocks(table.now + 1.0)
        table.carry(watcher.identity.public_key)
        assert (watcher.held, watcher.outcome, bytes(table.files[watcher.identity.public_key])) == before

    run()
    assert watcher.clocks is not None and len(watcher.clocks.left_ms) == 2
