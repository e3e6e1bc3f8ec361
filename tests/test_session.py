"""The session in one process (host and joiners on threads, loopback): the message codec, resuming a
table from a torn replay, the NetController a UI drives, the private and simultaneous paths of a
toy game, admission, and a desync that stops both peers with a report."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import threading
import time
from pathlib import Path

import msgpack
import pytest
from support.cpuclock import Budget

from bots.lib import RandomBot

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.ledgerkit import CARDS  # noqa: E402

import engines  # noqa: E402
from bots.decider import BotDecider  # noqa: E402
from client.netcontroller import NetController  # noqa: E402
from engines.core import COMMON_ACTIONS  # noqa: E402
from netplay import resume, wire  # noqa: E402
from netplay.host import HostSession  # noqa: E402
from netplay.identity import Identity  # noqa: E402
from netplay.joiner import JoinSession  # noqa: E402
from netplay.protocol.book import Book  # noqa: E402
from netplay.session import EXIT_DISPUTE, EXIT_OK, QueueDecider  # noqa: E402
from netplay.transcript import ResumeError, check_seeds, read_own_replay  # noqa: E402
from netplay.transport import Refused  # noqa: E402
from replays.audit import audit_file  # noqa: E402
from replays.local import SignedMatch  # noqa: E402
from replays.reader import read_replay  # noqa: E402
from replays.writer import ReplayWriter  # noqa: E402

pytestmark = pytest.mark.usefixtures("home")   # every test: NETPLAY_HOME in its temporary directory (conftest.py)


class AnyBot(BotDecider):
    """The random bot for games without a bot package (the toy games of the tests)."""

    def prepare(self, game) -> None:
        self.bot = RandomBot()


def _serve(host: HostSession, stop: threading.Event) -> None:
    while not stop.is_set() and host.outcome is None:
        host.step(20)


def _thread(target) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


# ---------------------------------------------------------------------------------------------- wire

def test_messages_round_trip_and_garbage_is_malformed() -> None:
    data = wire.pack("ack", 7, bytes(32), bytes(64), bytes(64))
    assert wire.unpack(data) == ("ack", [7, bytes(32), bytes(64), bytes(64)])
    terms = [120_000, [600_000, 5_000], 600_000, 500, 60_000]
    offer = wire.pack("offer", 4, "ploc", "1", 2, [], "0.1", terms, bytes(16))
    assert wire.unpack(offer)[1][-2] == terms
    assert wire.unpack(wire.pack("hello", 1, "0.1", [bytes(16), -1, bytes(32)], 0))[1][2] == [bytes(16), -1, bytes(32)]
    bad = [b"", b"\xc1", b"\x90", msgpack.packb(["nope"]), msgpack.packb(["ack", 1]), msgpack.packb(["ack", "1", b""]),
           msgpack.packb(["ack", True, bytes(32)]), msgpack.packb({"a": 1}), msgpack.packb(["frame", bytes(300_000)]),
           msgpack.packb(["hello", 1, "v", [b"short", 0, bytes(32)]]), msgpack.packb(["rematch", ["x"]]),
           msgpack.packb(["offer", 1, "g", "1", 2, [["k"]], "v", [1000, None]]), msgpack.packb([1, 2, 3]),
           msgpack.packb(["offer", 2, "g", "1", 2, [], "v", [1000, [1, 2, 3]]]),
           msgpack.packb(["offer", 2, "g", "1", 2, [], "v", [-5, None]]),
           msgpack.packb(["ack", 1, bytes(31), bytes(64), bytes(64)]),
           msgpack.packb(["ack", -5, bytes(32), bytes(64), bytes(64)]), msgpack.packb(["want", 2**50]),
           msgpack.packb(["hello", 3, "v", None, 70_000]), msgpack.packb(["reject", 1, "nope", "x"]),
           msgpack.packb(["refused", "nope", "x"]), msgpack.packb(["ready", [["n", bytes(32)]], 0]),
           msgpack.packb(["peers", [[1, bytes(31), "a"]]]), msgpack.packb(["start", bytes(32), [-1]]),
           msgpack.packb(["chat", -1, "x" * 5000])]
    for raw in bad:
        with pytest.raises(wire.Malformed) as info:
            wire.unpack(raw)
        assert info.value.reason
    with pytest.raises(ValueError):
        wire.pack("ack", 1)


# ---------------------------------------------------------------------------------------------- table

def test_a_table_resumes_from_a_torn_replay_and_continues_the_same_file(tmp_path: Path) -> None:
    local = SignedMatch("quedah-merchant", RandomBot(), seed=5)
    path = tmp_path / "r.npr"
    with ReplayWriter(path, local.header, sync=False) as writer:
        for _ in range(25):
            writer.append(local.step())
    with open(path, "ab") as handle:          # a crash in the middle of the next record
        handle.write(local.next_frame().encode()[:17])
    own = read_own_replay(path)
    table = Book.rebuild(own.header, own.frames, own.certs, local.secrets[1])
    assert table.seq == 24 and table.last_hash == local.ledgers[1].last_hash
    frame = local.next_frame()
    local.deliver(frame)
    table.accept(frame)
    with own.reopen(fsync=False) as writer:
        writer.append(frame)
    replay = read_replay(path)
    assert replay.torn is None and len(replay.frames) == 26
    assert replay.frames[-1].hash == frame.hash


def test_a_resume_with_a_seed_that_is_not_the_seats_own_is_refused_before_anything_is_sent(tmp_path: Path) -> None:
    """(The second attack campaign: a joiner resuming with a wrong saved seed was accepted, then died with a
    Dispute traceback and forfeited.)"""
    local = SignedMatch("quedah-merchant", RandomBot(), seed=6)
    path = tmp_path / "r.npr"
    with ReplayWriter(path, local.header, sync=False) as writer:
        for _ in range(12):
            writer.append(local.step())
    own = read_own_replay(path)
    right = local.secrets[1]
    check_seeds(own.header, own.frames, [right])
    wrong = dataclasses.replace(right, seed=bytes(32))
    with pytest.raises(ResumeError, match="does not open the commitment"):
        check_seeds(own.header, own.frames, [wrong])


def test_saved_seats_are_private_and_found_by_address() -> None:
    record = resume.SavedSeat("ab" * 16, 1, "cd" * 32, "127.0.0.1:5000/aaaa-bbbb-cccc-dddd", "ee" * 32, "/x.npr",
                              "ploc", resume.now())
    path = resume.save(record)
    assert path.stat().st_mode & 0o777 == 0o600
    assert resume.saved("127.0.0.1:5000") == [record]
    assert resume.saved("127.0.0.1:5001") == []
    resume.remove(record.session_id, 1)
    assert resume.saved() == []


# ---------------------------------------------------------------------------------------------- sessions

def _host(game: str, decider, tmp: Path, **kw) -> HostSession:
    return HostSession(Identity.generate("host"), decider, game, bind="127.0.0.1", replay_dir=tmp / "h", fsync=False,
                       **kw)


def _join(address: str, decider, tmp: Path, name: str = "joiner", cls=JoinSession, **kw) -> JoinSession:
    return cls(Identity.generate(name), decider, address, replay_dir=tmp / name, fsync=False, **kw)


@pytest.mark.parametrize("threaded", [True, False], ids=["thread", "polled"])
def test_a_person_plays_through_the_net_controller(tmp_path: Path, threaded: bool) -> None:
    decider = QueueDecider()
    host = _host("madagaskar", decider, tmp_path)
    ctl = NetController(host, decider, thread=threaded)
    assert ctl.result() is None and ctl.legal() == [] and "waiting" in ctl.status()
    done: dict = {}

    def join() -> None:
        done["session"] = _join(host.address, BotDecider("random"), tmp_path)
        done["join"] = done["session"].run(300)
    thread = _thread(join)
    assert ctl.wait(lambda: ctl.started, 120)
    assert ctl.game.id == "madagaskar" and ctl.seat == 0 and ctl.players == 2
    ctl.chat("hello there")
    budget = Budget(60)   # CPU seconds (tests/support/cpuclock.py)
    moves = 0
    while ctl.result() is None and not budget.over():
        ctl.poll(int(time.monotonic() * 1000))   # a no-op with the thread; the session's step without
        legal = ctl.legal()
        if not legal:
            time.sleep(0.002)
            continue
        before = json.dumps(ctl.view())
        assert ctl.status() in ("your move", "your choice (the others choose at the same time)")
        ctl.submit(next(a for a in legal if a not in COMMON_ACTIONS))
        moves += 1
        # never the same decision twice: nothing to choose until this move is applied (the session thread,
        # woken at once, may already have applied it and the bot answered: then the position moved on)
        assert ctl.legal() == [] or json.dumps(ctl.view()) != before
    assert ctl.result() is not None and moves > 3
    assert any("chat" in line and "hello there" in line for line in done["session"].log)
    ctl.rematch(False)
    assert ctl.wait(lambda: host.outcome is not None, 120)
    ctl.join(20)
    thread.join(20)
    assert host.outcome.code == EXIT_OK and done["join"].code == EXIT_OK
    assert audit_file(ctl.replay_path).status == "valid"
    assert any("seat 1:" in line for line in ctl.log)
    with pytest.raises(RuntimeError):
        ctl.submit("anything")


@pytest.mark.parametrize("players", [2, 3])
def test_private_draws_and_simultaneous_choices_of_a_toy_game(tmp_path: Path, players: int,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(engines.GAMES, CARDS.id, CARDS)
    host = _host(CARDS.id, AnyBot("random"), tmp_path, players=players)
    joiners: list[JoinSession] = []
    outcomes: list = []

    def join(i: int) -> None:
        joiner = _join(host.address, AnyBot("random"), tmp_path, f"j{i}")
        joiners.append(joiner)
        outcomes.append(joiner.run(300))
    threads = [_thread(lambda i=i: join(i)) for i in range(players - 1)]
    assert host.run(300).code == EXIT_OK, host.outcome
    for t in threads:
        t.join(20)
    assert len(outcomes) == players - 1 and all(o.code == EXIT_OK for o in outcomes), outcomes
    games = {CARDS.id: CARDS}
    verdicts = [audit_file(p, games) for p in [*host.replays, *(p for j in joiners for p in j.replays)]]
    assert {(v.status, str(v.result)) for v in verdicts} == {("valid", str(verdicts[0].result))}
    assert any("draws" in line and "in secret" in line for line in host.log)
    assert any("you draw" in line for line in host.log)


def test_a_full_game_and_the_hosts_own_key_are_refused(tmp_path: Path) -> None:
    host = _host("madagaskar", BotDecider("random"), tmp_path)
    stop = threading.Event()
    thread = _thread(lambda: _serve(host, stop))
    try:
        first = _join(host.address, QueueDecider(), tmp_path, "first")
        with pytest.raises(Refused, match="own key"):
            JoinSession(host.identity, QueueDecider(), host.address, replay_dir=tmp_path / "x")
        budget = Budget(10)   # CPU seconds (tests/support/cpuclock.py)
        while first.phase == "lobby" and not budget.over():
            first.step(20)
        with pytest.raises(Refused, match="every seat is taken|full"):
            _join(host.address, QueueDecider(), tmp_path, "second")
        first.close()
    finally:
        stop.set()
        thread.join(10)
        host.close()


class _Skewed:
    """The real game, except that this peer's digest goes its own way after a few plies (a desync)."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def digest(self, state):
        if state.plies >= 6:
            return hashlib.sha256(b"skewed" + self._game.digest(state)).digest()
        return self._game.digest(state)


class SkewedJoin(JoinSession):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        machine = self.machine
        on_offer = machine.handlers["offer"]

        def skewed(*fields) -> None:
            on_offer(*fields)
            if machine.game is not None:
                machine.game = _Skewed(machine.game)
        machine.handlers["offer"] = skewed


class SkewedHost(HostSession):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.machine.game = _Skewed(self.machine.game)


@pytest.mark.parametrize("skewed", ["joiner", "host"])
def test_a_desync_stops_the_peer_that_sees_it_and_its_report_alone_stops_nobody(tmp_path: Path, skewed: str) -> None:
    """The peer whose ledger sees a signed digest differ from its own stops and reports the frame; the
    other re-checks that frame through its own ledger, which accepted it, so it logs the report and
    plays on (a report is no proof) until the reporter's silence runs into the agreed timeout."""
    host = (SkewedHost if skewed == "host" else HostSession)(
        Identity.generate("host"), BotDecider("random"), "madagaskar", replay_dir=tmp_path / "h", fsync=False,
        reveal_timeout=2.0, move_limit=2.0, lateness=1.0)
    outcomes: dict = {}

    def join() -> None:
        outcomes["session"] = _join(host.address, BotDecider("random"), tmp_path,
                                    cls=SkewedJoin if skewed == "joiner" else JoinSession)
        outcomes["join"] = outcomes["session"].run(150)
    thread = _thread(join)
    host_outcome = host.run(150)
    thread.join(20)
    joiner, mine = outcomes["session"], outcomes["join"]
    found = [s for s in (host, joiner) if s.outcome.code == EXIT_DISPUTE]
    assert len(found) == 1, (host_outcome, mine)   # whoever first sees the other's digest differ
    finder = found[0]
    other = joiner if finder is host else host
    frame_no = int(finder.outcome.message.split("DISPUTE at frame ")[1].split(",")[0])
    assert f"desync at frame {frame_no}:" in finder.outcome.message
    assert any(line.strip() == "rule: state digest" for line in finder.log)
    assert any(f"about frame {frame_no}" in line or f"concerns frame {frame_no}" in line
               for line in other.log), other.log
    assert other.outcome.code != EXIT_DISPUTE, other.outcome     # the report alone stopped nobody
    # the audit runs the true engine, so it sides with the peer whose engine is right
    verdict = audit_file(finder.replays[0])
    if (finder is host) == (skewed == "joiner"):
        assert verdict.status == "invalid" and verdict.dispute["frame"] == frame_no
        assert verdict.dispute["rule"] == "state digest"
    else:
        assert verdict.status == "unfinished" and verdict.dispute is None and verdict.blame is None



def test_a_bot_that_does_not_know_the_game_declines(tmp_path: Path) -> None:
    host = _host("madagaskar", BotDecider("random"), tmp_path)
    stop = threading.Event()
    thread = _thread(lambda: _serve(host, stop))
    try:
        joiner = _join(host.address, BotDecider("no-such-bot"), tmp_path)
        outcome = joiner.run(50)
        assert outcome.code == 1 and "no bot 'no-such-bot'" in outcome.message
    finally:
        stop.set()
        thread.join(10)
        host.close()
    assert resume.saved() == []               # nothing was started, so there is nothing to resume
