"""A peer whose strip is due right after another seat's strip sends it before anything else: before
its acknowledgement of that strip and before the messages still waiting (netplay.session
`_strip_first`), since the seats after it in the deal wait for its strip and nobody waits for the rest.
What must still hold: it sends its strip only once its own ledger has accepted (and written) the strip
before; a false strip before it is disputed exactly as before, naming the liar, and nothing is sent
after it.

Four peers on loopback, in threads, on Toy Deck with bots that draw whenever they can (both in
tests/support/deckgame.py: `DECK_GAME`, `Drawer`)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.deckgame import DECK_GAME, Drawer  # noqa: E402

import engines  # noqa: E402
from bots.decider import BotDecider  # noqa: E402
from netplay import wire  # noqa: E402
from netplay.host import HostSession  # noqa: E402
from netplay.identity import Identity  # noqa: E402
from netplay.joiner import JoinSession  # noqa: E402
from netplay.session import EXIT_DISPUTE, EXIT_OK  # noqa: E402
from replays import deck as D  # noqa: E402
from replays.audit import audit_file  # noqa: E402
from replays.curve import add  # noqa: E402
from replays.frames import Frame, decode_frame, make_frame  # noqa: E402

GAMES = {DECK_GAME.id: DECK_GAME}


class _Drawing(BotDecider):
    """Toy Deck's Drawer, seeded: draws whenever it can, so deals come at once and nobody resigns."""

    def prepare(self, game) -> None:
        self.bot = Drawer()


class _RecordingHost(HostSession):
    """Keeps every own frame it emits (accepted, then relayed)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list[Frame] = []
        emit = self.machine.emit

        def recording(frame: Frame) -> None:
            self.sent.append(frame)
            emit(frame)
        self.machine.emit = recording


class _RecordingJoiner(JoinSession):
    """Keeps what it sends to the host, in order: ("frame", frame) and ("ack", frame number); and, for
    each frame it accepted, how many frames its ledger held at the time of each of its sends."""

    def _send(self, to: bytes, data: bytes) -> None:
        tag, fields = wire.unpack(data)
        if self.transport is not None and to == self.transport.host_key:
            if tag == "frame" and not fields[1]:
                entry = ("frame", decode_frame(fields[0]), len(self.transcript.ledger.frames))
            elif tag == "ack":
                entry = ("ack", fields[0], len(self.transcript.ledger.frames))
            else:
                entry = (tag, None, None)
            self.said = [*getattr(self, "said", []), entry]
        super()._send(to, data)


class _LyingStripper(_RecordingJoiner):
    """An honest joiner, except that the first of its kind to send a strip that another seat's strip
    follows (the seats are dealt out as the joiners connect) sends another value than its layer removed
    (signed, chained, with the honest proof); the others stay honest."""

    lie: Frame | None = None
    token: list[None]       # shared: taken by the one that lies

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        machine = self.machine
        emit = machine.emit

        def lying(frame: Frame) -> None:
            ledger = machine.book.ledger
            if frame.kind == "strip" and self.token:
                chance = ledger.deal_chance()
                deal = ledger.pending_deal(ledger.decks[(chance.deck, chance.epoch)], chance)
                if len(deal.strips) + 1 < len(deal.strippers) and self._take_token():
                    body = list(frame.body)
                    body[3] = add(body[3], body[3])
                    frame = self.lie = make_frame(self.identity.private_key, frame.session, frame.seq, frame.prev,
                                                  frame.seat, frame.kind, tuple(body), frame.digest)
            emit(frame)
        machine.emit = lying

    def _take_token(self) -> bool:
        try:
            self.token.pop()    # (atomic: two joiners' threads may get here at once)
        except IndexError:
            return False
        return True


def _table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, joiner_cls: type, token: list) -> tuple:
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "home"))
    monkeypatch.setitem(engines.GAMES, DECK_GAME.id, DECK_GAME)
    host = _RecordingHost(Identity.generate("host"), _Drawing("drawer", seed=1), DECK_GAME.id, players=4,
                          replay_dir=tmp_path / "h", fsync=False)
    joiners: list[JoinSession] = []
    lock = threading.Lock()

    def join(i: int) -> None:
        joiner = joiner_cls(Identity.generate(f"j{i}"), _Drawing("drawer", seed=2 + i), host.address,
                            replay_dir=tmp_path / f"j{i}", fsync=False)
        joiner.token = token
        with lock:
            joiners.append(joiner)
        joiner.run(600)
    threads = [threading.Thread(target=join, args=(i,), daemon=True) for i in range(3)]
    for t in threads:
        t.start()
    host.run(600)
    for t in threads:
        t.join(30)
    return host, joiners


def test_a_due_strip_leaves_before_the_ack_of_the_strip_it_follows(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    host, joiners = _table(tmp_path, monkeypatch, _RecordingJoiner, [])
    assert host.outcome.code == EXIT_OK and all(j.outcome.code == EXIT_OK for j in joiners)
    frames = host.transcript.ledger.frames
    followed = 0
    for joiner in joiners:
        said = joiner.said
        for at, (tag, frame, held) in enumerate(said):
            if tag != "frame" or frame.kind != "strip":
                continue
            before = frames[frame.seq - 1]
            assert held == frame.seq               # its ledger held the strip before (accepted, on disk)
            if before.kind == "strip" and before.seat != frame.seat:
                followed += 1
                ack = said.index(("ack", before.seq, before.seq + 1))
                assert at < ack                    # its strip first, then the acknowledgement
    assert followed > 0
    verdicts = [audit_file(p, GAMES) for p in [*host.replays, *(p for j in joiners for p in j.replays)]]
    assert {v.status for v in verdicts} == {"valid"}


def test_a_lying_strip_is_named_and_the_strip_due_after_it_never_leaves(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A joiner lies in a strip that an honest seat's strip follows: every honest peer stops with the
    dispute naming the liar's seat and the rule, and none sends a frame after the lie."""
    host, joiners = _table(tmp_path, monkeypatch, _LyingStripper, [None])
    liar = next((j for j in joiners if j.lie is not None), None)
    assert liar is not None, "no joiner stripped before another seat (no deal in the game?)"
    lie = liar.lie
    for peer in [host, *(j for j in joiners if j is not liar)]:
        assert peer.outcome.code == EXIT_DISPUTE, peer.outcome
        assert f"DISPUTE at frame {lie.seq}, seat {lie.seat}:" in peer.outcome.message
        assert any(line.strip() == f"rule: {D.RULE_STRIP_PROOF}" for line in peer.log), peer.log
        sent = getattr(peer, "sent", None) or [f for tag, f, _ in getattr(peer, "said", []) if tag == "frame"]
        assert all(f.seq < lie.seq for f in sent), "a frame left after the lie"
