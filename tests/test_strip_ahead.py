"""Building a strip ahead (netplay.ahead): a peer starts its own strip from the value of the strip
before it while that one is still being checked. What must hold: the frame it finally sends is byte
for byte the frame it would have built without building ahead; a false predecessor is disputed
exactly as before (the same seat, the same rule) and the work built on it is never used; forged
copies of the awaited strip buy no more work; the worker thread ends with `close`.

In one process on Toy Deck's ledgers (tests/deckgame.py); tests/test_session_decks.py has the same
over the network with a lying joiner."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from deckgame import DECK_GAME  # noqa: E402
from test_decks import Drawer, _match  # noqa: E402
from test_ledger import forge  # noqa: E402

import engines  # noqa: E402
from bots.decider import BotDecider  # noqa: E402
from netplay.ahead import StripAhead  # noqa: E402
from netplay.host import HostSession  # noqa: E402
from netplay.identity import Identity  # noqa: E402
from netplay.joiner import JoinSession  # noqa: E402
from netplay.session import EXIT_DISPUTE  # noqa: E402
from replays import deck as D  # noqa: E402
from replays.curve import add  # noqa: E402
from replays.frames import Frame, make_frame  # noqa: E402
from replays.ledger import Dispute  # noqa: E402
from replays.ledger.kinds import strip  # noqa: E402
from replays.local import SignedMatch  # noqa: E402


def _workers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("netplay-strip-ahead")]


def _before_a_followed_strip(match: SignedMatch) -> tuple[int, int]:
    """Step until a strip is awaited that another seat's strip follows; (its seat, the next seat)."""
    for _ in range(5000):
        nxt = match.expects()
        assert nxt is not None, "the game ended first"
        if nxt[0] == "strip":
            led = match.ledgers[0]
            chance = led.deal_chance()
            deal = led.pending_deal(led.decks[(chance.deck, chance.epoch)], chance)
            after = len(deal.strips) + 1
            if after < len(deal.strippers):
                return nxt[1], deal.strippers[after]
        match.step()
    raise AssertionError("never reached")


@pytest.fixture
def table():
    match = _match(3, seed=11)
    author, follower = _before_a_followed_strip(match)
    ahead = StripAhead({follower: match.ledgers[follower]})
    yield match, author, follower, ahead
    ahead.close()


def test_a_strip_built_ahead_is_the_frame_built_without(table) -> None:
    match, author, follower, ahead = table
    frame = match.next_frame()
    twin = SignedMatch(match.game, match.bots, seed=11, players=3, reproducible=True)   # the same table, no ahead
    for f in match.ledgers[0].frames:
        twin.deliver(f.encode())
    ahead.start(frame)                  # before any check, as the sessions do
    assert ahead.started == 1 and _workers()
    match.deliver(frame)
    twin.deliver(frame)
    built = match.ledgers[follower].build_next()
    assert ahead.used == 1
    assert built.encode() == twin.ledgers[follower].build_next().encode()
    match.deliver(built)                # and every seat accepts it


def test_a_false_predecessor_is_disputed_as_before_and_the_work_on_it_never_used(table) -> None:
    match, author, follower, ahead = table
    honest = match.ledgers[author].build_next()
    match.ledgers[author]._built = None
    body = list(honest.body)
    body[3] = add(body[3], body[3])        # another point, with the honest proof: a lie
    lie = forge(match.ledgers[author], match.secrets[author].key, author, "strip", tuple(body))
    ahead.start(lie)
    assert ahead.started == 1
    disputes = []
    for led in match.ledgers:
        if led.me.seat == author:
            continue
        with pytest.raises(Dispute) as info:
            led.accept(lie.encode())
        disputes.append((info.value.seat, info.value.rule, info.value.frame_no))
    assert set(disputes) == {(author, D.RULE_STRIP_PROOF, lie.seq)}
    follower_ledger = match.ledgers[follower]
    assert follower_ledger.status == "disputed" and follower_ledger.build_next() is None   # nothing to send
    ahead.drop()                           # what the transcript does on a Dispute
    assert (ahead.used, ahead.dropped) == (0, 1)


def test_a_predecessor_that_is_no_point_leaves_nothing_behind(table) -> None:
    match, author, follower, ahead = table
    honest = match.ledgers[author].build_next()
    match.ledgers[author]._built = None
    body = list(honest.body)
    body[3] = bytes(32)                    # the identity: the speculative multiplication refuses it
    lie = forge(match.ledgers[author], match.secrets[author].key, author, "strip", tuple(body))
    ahead.start(lie)
    with pytest.raises(Dispute) as info:
        match.ledgers[follower].accept(lie.encode())
    assert (info.value.seat, info.value.rule) == (author, D.RULE_STRIP_PROOF)
    assert ahead.used == 0


def test_forged_copies_of_the_awaited_strip_start_one_job_and_the_true_one_is_built_in_full(table) -> None:
    match, author, follower, ahead = table
    frame = match.next_frame()
    for n in range(5):                     # unsigned by the author (the check is still to come)
        body = list(frame.body)
        body[3] = D.card_points(match.session, "x", n, (0,))[0]
        ahead.start(forge(match.ledgers[0], match.secrets[follower].key, author, "strip", tuple(body)))
    ahead.start(frame)
    assert ahead.started == 1              # one job per position dealt
    match.deliver(frame)
    built = match.ledgers[follower].build_next()
    assert ahead.used == 0                 # its inputs were the forgery's: computed again, in full
    match.deliver(built)


def test_only_the_strip_before_ours_starts_anything(table) -> None:
    match, author, follower, ahead = table
    frame = match.next_frame()
    other = StripAhead({s: match.ledgers[s] for s in range(3) if s not in (author, follower)})
    try:
        other.start(frame)
        assert other.started == 0          # the seat after it is not theirs
        assert strip.ahead(match.ledgers[follower], author, "strip", frame.seq + 1, frame.body) is None
        assert strip.ahead(match.ledgers[follower], follower, "strip", frame.seq, frame.body) is None
    finally:
        other.close()


def test_close_ends_the_worker_and_detaches_the_ledgers(table) -> None:
    match, author, follower, ahead = table
    ahead.start(match.next_frame())
    assert _workers()
    ahead.close()
    assert not _workers()
    assert match.ledgers[follower].prepared is None
    ahead.start(match.next_frame())        # a closed one starts nothing
    assert ahead.started == 1 and not _workers()


# ---------------------------------------------------------------------------------------------- over the network


class _Drawing(BotDecider):
    """test_decks' Drawer, seeded: draws whenever it can, so deals come at once and nobody resigns."""

    def prepare(self, game) -> None:
        self.bot = Drawer()


class _Recording:
    """Keeps every own frame this peer emits (what leaves it: a joiner's go to the host, the host's
    are relayed)."""

    def _emit(self, frame: Frame) -> None:
        self.sent = [*getattr(self, "sent", []), frame]
        super()._emit(frame)


class _RecordingHost(_Recording, HostSession):
    pass


class _RecordingJoiner(_Recording, JoinSession):
    pass


class _LyingStripper(_RecordingJoiner):
    """An honest joiner, except that the first of its kind to send a strip that another seat's strip
    follows (the seats are dealt out as the joiners connect) sends another value than its layer removed
    (signed, chained, with the honest proof); the others stay honest."""

    lie: Frame | None = None
    token: list[None]       # shared: taken by the one that lies

    def _emit(self, frame: Frame) -> None:
        ledger = self.transcript.ledger
        if frame.kind == "strip" and self.token:
            chance = ledger.deal_chance()
            deal = ledger.pending_deal(ledger.decks[(chance.deck, chance.epoch)], chance)
            if len(deal.strips) + 1 < len(deal.strippers) and self._take_token():
                body = list(frame.body)
                body[3] = add(body[3], body[3])
                frame = self.lie = make_frame(self.identity.private_key, frame.session, frame.seq, frame.prev,
                                              frame.seat, frame.kind, tuple(body), frame.digest)
                ledger._built = None
        super()._emit(frame)

    def _take_token(self) -> bool:
        try:
            self.token.pop()    # (atomic: two joiners' threads may get here at once)
        except IndexError:
            return False
        return True


def test_over_the_network_a_lying_predecessor_is_named_and_the_strip_built_on_it_never_leaves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four peers on loopback (threads); a joiner lies in a strip that an honest seat's strip follows.
    The honest follower has started its own strip on the lie (and drops it); every honest peer stops
    with the dispute naming the liar's seat and the rule, and none sends a frame after the lie."""
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "home"))
    monkeypatch.setitem(engines.GAMES, DECK_GAME.id, DECK_GAME)
    host = _RecordingHost(Identity.generate("host"), _Drawing("drawer", seed=1), DECK_GAME.id, players=4,
                          replay_dir=tmp_path / "h", fsync=False)
    joiners: list[JoinSession] = []
    lock = threading.Lock()

    token = [None]

    def join(i: int) -> None:
        joiner = _LyingStripper(Identity.generate(f"j{i}"), _Drawing("drawer", seed=2 + i), host.address,
                                replay_dir=tmp_path / f"j{i}", fsync=False)
        joiner.token = token
        with lock:
            joiners.append(joiner)
        joiner.run(90)
    threads = [threading.Thread(target=join, args=(i,), daemon=True) for i in range(3)]
    for t in threads:
        t.start()
    host.run(90)
    for t in threads:
        t.join(30)
    liar = next((j for j in joiners if j.lie is not None), None)
    assert liar is not None, "no joiner stripped before another seat (no deal in the game?)"
    lie = liar.lie
    honest = [host, *(j for j in joiners if j is not liar)]
    for peer in honest:
        assert peer.outcome.code == EXIT_DISPUTE, peer.outcome
        assert f"DISPUTE at frame {lie.seq}, seat {lie.seat}:" in peer.outcome.message
        assert any(line.strip() == f"rule: {D.RULE_STRIP_PROOF}" for line in peer.log), peer.log
        assert all(f.seq < lie.seq for f in getattr(peer, "sent", [])), "a frame left after the lie"
    ledger = host.transcript.ledger
    chance = ledger.deal_chance()          # (the disputed strip changed nothing: the deal is still awaited)
    deal = ledger.pending_deal(ledger.decks[(chance.deck, chance.epoch)], chance)
    follower = deal.strippers[len(deal.strips) + 1]
    built_on_lie = next(p for p in honest if p.transcript.holds(follower))
    assert built_on_lie.transcript.ahead.dropped >= 1        # it had started on the lie, and dropped it
    assert not _workers() or all(not t.is_alive() for t in _workers())
