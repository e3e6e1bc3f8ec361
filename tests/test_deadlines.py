"""The agreed deadlines without a network: the move clock's, the move limit's and the lateness allowance's
arithmetic (netplay/deadlines.py), the `--clock` value form (client/cli_args.parse_clock), when a host admits
a claim by its own clock (netplay/protocol/claims.py), and a joiner that declines an offer or a header whose
terms are out of bounds or not the offered ones (netplay/protocol/lobby.py). The clock over real processes is
in tests/test_session_clock.py."""

from __future__ import annotations

import click
import pytest

import engines
from bots.decider import BotDecider
from client.cli_args import parse_clock
from netplay import wire
from netplay.deadlines import Deadlines
from netplay.identity import Identity
from netplay.protocol.machines import JoinMachine
from netplay.session import Session
from replays.header import Header, Terms

CLOCK = Terms(2, 3_000, (10_000, 2_000))      # reveal timeout 3 s, clock 10 s + 2 s per move


def _clocked(players: int = 2) -> Deadlines:
    return Deadlines(CLOCK, players)


# ------------------------------------------------------------------------------ Deadlines


def test_without_a_clock_decisions_are_untimed_and_automatic_frames_are_due_after_the_timeout() -> None:
    d = Deadlines(Terms(2, 3_000, None), 2)
    d.moved(0, ("open", 0), now=100.0)
    assert d.remaining("open", 0, 100.0) == pytest.approx(3.0)
    assert d.remaining("open", 0, 104.0) == pytest.approx(-1.0)
    d.moved(2, ("act", 1), now=200.0)
    assert d.allowance(1, 10_000.0) is None
    assert d.remaining("act", 1, 10_000.0) is None           # thinking is untimed, however long
    d.left(1, now=300.0)                                     # ... unless the seat is known to be gone
    assert d.remaining("act", 1, 301.0) == pytest.approx(2.0)
    assert d.remaining("act", 1, 303.5) == pytest.approx(-0.5)
    d.back(1)
    assert d.remaining("act", 1, 400.0) is None


def test_the_allowance_is_initial_plus_increment_per_decision_minus_time_spent() -> None:
    d = _clocked()
    d.moved(2, ("act", 0), now=0.0)
    assert d.allowance(0, 0.0) == pytest.approx(10.0)
    assert d.allowance(0, 4.0) == pytest.approx(6.0)          # its own decision runs down its own clock
    assert d.allowance(1, 4.0) == pytest.approx(10.0)         # ... not the other seat's
    d.moved(3, ("chain", 1), now=4.0)                          # seat 0 decided after 4 s
    assert d.decided == [1, 0] and d.used == pytest.approx([4.0, 0.0])
    assert d.allowance(0, 50.0) == pytest.approx(10.0 + 2.0 - 4.0)   # automatic frames cost nobody's clock
    d.moved(4, ("act", 1), now=50.0)
    d.moved(5, ("act", 0), now=57.0)                           # seat 1 decided after 7 s
    assert d.allowance(1, 57.0) == pytest.approx(10.0 + 2.0 - 7.0)
    d.moved(6, ("act", 1), now=60.0)                           # seat 0: 3 s more
    assert d.decided == [2, 1]
    assert d.allowance(0, 60.0) == pytest.approx(10.0 + 2 * 2.0 - 4.0 - 3.0)
    assert d.allowance(1, 61.0) == pytest.approx(10.0 + 2.0 - 7.0 - 1.0)


def test_the_same_slot_again_restarts_nothing() -> None:
    d = _clocked()
    d.moved(2, ("act", 0), now=0.0)
    d.moved(2, ("act", 0), now=5.0)                            # polled again: still the same awaited frame
    assert d.since == 0.0 and d.decided == [0, 0]
    assert d.allowance(0, 5.0) == pytest.approx(5.0)


def _frame(kind: str, seat: int):
    from types import SimpleNamespace
    return SimpleNamespace(kind=kind, seat=seat)


def test_a_claim_against_a_decision_is_no_decision_made_and_earns_no_increment() -> None:
    """(Found by this test: the claim frame counted as the seat's decision, so its clock gained an
    increment and the blamed seat contested a sound claim "with time left".)"""
    d = _clocked()
    frames = [_frame("open", 0), _frame("open", 1), _frame("act", 0)]
    d.moved(3, ("act", 1), now=0.0, frames=frames)
    frames.append(_frame("timeout", 0))                        # seat 0 claims once seat 1's clock ran out
    d.moved(4, ("act", 1), now=10.5, frames=frames)             # the claim's answer is awaited of seat 1
    assert d.decided == [0, 0] and d.since == 0.0               # ... on the same clock, still running
    assert d.allowance(1, 10.5) == pytest.approx(-0.5)          # still run out: no contest "with time left"
    assert d.allowance(1, 11.0) == pytest.approx(-1.0)
    frames.append(_frame("act", 1))                             # it answers after all: that is its decision
    d.moved(5, ("act", 0), now=11.0, frames=frames)
    assert d.decided == [0, 1] and d.allowance(1, 11.0) == pytest.approx(10.0 + 2.0 - 11.0)
    frames.append(_frame("act", 1))                             # another seat's common action (a resignation)
    d.moved(6, ("act", 0), now=12.0, frames=frames)             # ... is not seat 0's decision
    assert d.decided == [0, 1] and d.allowance(0, 12.0) == pytest.approx(10.0 - 1.0)


def test_several_decisions_applied_in_one_step_each_earn_the_increment() -> None:
    """A joiner receives a fast seat's frames in batches: three moves seen in one step are three
    decisions (one increment each), not one, or it would think that seat short of time and claim."""
    d = _clocked()
    frames = [_frame("open", 0), _frame("open", 1)]
    d.moved(2, ("act", 1), now=0.0, frames=frames)
    frames += [_frame("act", 1), _frame("act", 1), _frame("act", 1)]   # three moves of seat 1, one batch
    d.moved(5, ("act", 0), now=3.0, frames=frames)
    assert d.decided == [0, 3] and d.used[1] == pytest.approx(3.0)
    assert d.allowance(1, 3.0) == pytest.approx(10.0 + 3 * 2.0 - 3.0)

def test_a_decision_is_due_when_the_allowance_runs_out_or_the_seat_is_gone() -> None:
    d = _clocked()
    d.moved(2, ("act", 1), now=0.0)
    assert d.remaining("act", 1, 9.5) == pytest.approx(0.5)
    assert d.remaining("act", 1, 10.0) == pytest.approx(0.0)
    assert d.remaining("act", 1, 12.0) == pytest.approx(-2.0)
    d.left(1, now=1.0)                                          # gone: due T after it left, if that is sooner
    assert d.remaining("act", 1, 2.0) == pytest.approx(2.0)
    d.left(1, now=1.5)                                          # (the first departure counts)
    assert d.remaining("act", 1, 2.0) == pytest.approx(2.0)
    d.back(1)
    assert d.remaining("act", 1, 2.0) == pytest.approx(8.0)


class _Host:
    """Just what Claims.premature reads of the host's machine: the ledger's awaited slot, the seats it
    holds, its deadlines and its clock."""

    role = "host"

    def __init__(self, deadlines: Deadlines, awaited: tuple[str, int], host_seats: tuple[int, ...] = (0,)):
        from types import SimpleNamespace
        self.deadlines, self.now = deadlines, 0.0
        ledger = SimpleNamespace(frames=[None] * 4, claimable=lambda: awaited)
        self.book = SimpleNamespace(ledger=ledger, holds=lambda seat: seat in host_seats)

    def premature(self, frame) -> str | None:
        from netplay.protocol.claims import Claims
        found = Claims(self).premature(frame)
        return None if found is None else found[1]


def _claim_against(seat: int):
    from types import SimpleNamespace
    return SimpleNamespace(kind="timeout", body=(seat, "act"), seq=4)


def test_a_claim_is_refused_before_the_allowance_ran_out_on_the_admitting_clock_and_accepted_after() -> None:
    d = _clocked()
    d.moved(4, ("act", 1), now=0.0)
    host = _Host(d, ("act", 1))
    host.now = 9.0
    assert "due in 1.0 s" in host.premature(_claim_against(1))
    host.now = 10.0
    assert host.premature(_claim_against(1)) is None
    # against the host's own decision: refused while its own clock has time left, admitted after
    d = _clocked()
    d.moved(4, ("act", 0), now=0.0)
    host = _Host(d, ("act", 0))
    host.now = 3.0
    assert "decision has 7.0 s left" in host.premature(_claim_against(0))
    host.now = 10.5
    assert host.premature(_claim_against(0)) is None
    # untimed by name (a format 2.0 header has no move limit): a connected seat's decision is never claimable
    d = Deadlines(Terms(2, 3_000, None), 2)
    d.moved(4, ("act", 1), now=0.0)
    host = _Host(d, ("act", 1))
    host.now = 1e6
    assert "thinking is untimed" in host.premature(_claim_against(1))


def test_a_decision_is_due_at_the_move_limit_even_without_a_clock() -> None:
    """The default terms limit every decision (10 minutes): a connected seat that never decides is
    claimable (before, without --clock, it held the game for ever)."""
    d = Deadlines(Terms.agreed(5_000, None, 600_000, 500, 60_000), 2)
    d.moved(2, ("act", 1), now=0.0)
    assert d.remaining("act", 1, 599.0) == pytest.approx(1.0)
    assert d.remaining("act", 1, 601.0) == pytest.approx(-1.0)
    assert d.decision_left(1, 100.0) == pytest.approx(500.0) and d.decision_left(0, 100.0) is None
    clocked = Deadlines(Terms.agreed(5_000, (60_000, 0), 600_000, 500, 60_000), 2)
    clocked.moved(2, ("act", 1), now=0.0)
    assert clocked.remaining("act", 1, 59.0) == pytest.approx(1.0)       # whichever runs out first


def test_frames_that_need_no_decision_use_up_a_lateness_allowance_that_bounds_a_stall() -> None:
    """A seat that sends every automatic frame just before its deadline adds at most its allowance plus
    the frame time per frame to a game: the excess over the frame time is charged, and beyond the
    allowance it is owed: the next frame is due that much sooner."""
    d = Deadlines(Terms.agreed(5_000, None, 600_000, 500, 10_000), 2)
    frames = []
    now = 0.0
    for n in range(10):
        d.moved(n, ("chain", 1), now, frames)
        due = d.due("chain", 1)
        assert due == pytest.approx(now + 0.5 + 10.0 - 2.0 * n)
        frames.append(_frame("chain", 1))
        now += 2.5                                 # 2 s late each time
    assert d.lateness_left(1) == pytest.approx(0.0)
    d.moved(10, ("chain", 1), now, frames)
    assert d.remaining("chain", 1, now + 0.6) == pytest.approx(0.5 + 10.0 - 20.0 - 0.6)   # 10 s owed
    assert d.lateness_left(0) == pytest.approx(10.0)               # nobody else's allowance was touched


def test_lateness_beyond_the_allowance_is_owed_so_the_claims_skew_is_spent_once_not_per_frame() -> None:
    """A host claims `CLAIM_SKEW` after a frame was due (the tolerance for the other peers' clocks). A seat
    that sends every automatic frame inside that tolerance, never claimable, must not add it to every
    frame: the excess beyond its allowance is owed (the next frame is due that much sooner), so over any
    number of frames it adds at most its allowance plus the frame time per frame plus the skew once."""
    from netplay.protocol.claims import CLAIM_SKEW

    d = Deadlines(Terms.agreed(5_000, None, 600_000, 500, 2_000), 2)
    frames: list = []
    now = 0.0
    for n in range(200):
        d.moved(n, ("chain", 1), now, frames)
        remaining = d.remaining("chain", 1, now)
        assert remaining + CLAIM_SKEW > 0.0            # never claimable at the start of its frame
        frames.append(_frame("chain", 1))
        now = max(now, now + remaining + 0.9 * CLAIM_SKEW)   # inside the skew after its own due time
    assert now <= 200 * 0.5 + 2.0 + CLAIM_SKEW + 1e-6, now


def test_a_claim_in_between_does_not_restart_the_clock_of_the_frame_it_names() -> None:
    d = Deadlines(Terms.agreed(5_000, None, 600_000, 500, 0), 2)
    frames = [_frame("open", 0), _frame("open", 1)]
    d.moved(2, ("chain", 1), 10.0, frames)
    frames.append(_frame("timeout", 0))
    d.moved(3, ("chain", 1), 11.0, frames)         # the same frame, awaited as the claim's answer
    assert d.since == 10.0 and d.remaining("chain", 1, 11.0) == pytest.approx(-0.5)


# ------------------------------------------------------------------------------ --clock


@pytest.mark.parametrize(("text", "clock"), [("600+5", (600.0, 5.0)), ("1", (1.0, 0.0)), ("86400+86400",
                                             (86400.0, 86400.0)), ("2.5+0.5", (2.5, 0.5)), ("30+0", (30.0, 0.0))])
def test_parse_clock_takes_seconds_and_an_optional_increment(text: str, clock: tuple[float, float]) -> None:
    assert parse_clock(text) == clock


@pytest.mark.parametrize(("text", "words"), [
    ("0.5", "1 s to 24 h"), ("0", "1 s to 24 h"), ("86401", "1 s to 24 h"), ("60+-1", "1 s to 24 h"),
    ("60+86401", "1 s to 24 h"), ("ten", "expected SECONDS[+INCREMENT]"), ("", "expected SECONDS[+INCREMENT]"),
    ("5+x", "expected SECONDS[+INCREMENT]"), ("5+3+1", "expected SECONDS[+INCREMENT]"),
    ("nan", "1 s to 24 h"), ("inf", "1 s to 24 h"),
])
def test_parse_clock_refuses_values_out_of_bounds_or_malformed(text: str, words: str) -> None:
    with pytest.raises(click.BadParameter) as info:
        parse_clock(text)
    assert words in str(info.value) and info.value.param_hint == "--clock"


def test_a_session_refuses_a_clock_out_of_bounds() -> None:
    ident = Identity.generate("clock")
    for clock in ((0.5, 0.0), (10.0, -1.0), (90_000.0, 0.0)):
        with pytest.raises(ValueError, match="move clock"):
            Session(ident, BotDecider("random"), clock=clock)
    terms = Session(ident, BotDecider("random"), clock=(2.0, 0.5)).terms
    assert (terms.reveal_timeout_ms, terms.clock, terms.move_ms) == (120_000, (2_000, 500), 600_000)
    assert Session(ident, BotDecider("random"), move_limit=None).terms.move_ms is None    # untimed, by name


# ------------------------------------------------------------------------------ the joiner checks the terms


class _Lobby:
    """A joiner's machine in its lobby, without a network: what it sends is in its outbox."""

    def __init__(self, host: Identity):
        import os
        self.host = host
        self.machine = JoinMachine(Identity.generate("joiner"), BotDecider("random"), host_key=host.public_key,
                                   address="127.0.0.1:1", entropy=os.urandom, wall_clock=lambda: 0)

    def offered(self, terms: list) -> None:
        game = engines.get("madagaskar")
        options = [[k, v] for k, v in sorted(game.check_options({}).items())]
        self.receive(wire.pack("offer", wire.PROTO, game.id, game.rules_version, 2, options, "test", terms, bytes(16)))

    def receive(self, data: bytes) -> None:
        self.machine.receive(1.0, self.host.public_key, data)

    def header_with(self, terms: Terms) -> Header:
        game = engines.get("madagaskar")
        return Header.make(game.id, game.rules_version, 2, game.check_options({}),
                           [(self.host.public_key, "host"), (self.machine.identity.public_key, "joiner")], bytes(16),
                           0, terms)

    def sent(self) -> list[tuple[str, list]]:
        from netplay.protocol import effects as fx
        return [wire.unpack(e.data) for e in self.machine.outbox if isinstance(e, fx.Send)]


DIFFER = "the terms (timeouts, clock, limits) differ from the offer"
GOOD = [5_000, [60_000, 2_000], 600_000, 500, 60_000]


@pytest.mark.parametrize("terms", [
    [500, None, 600_000, 500, 60_000],             # reveal timeout below 1 s
    [86_400_001, None, 600_000, 500, 60_000],      # above 24 h
    [5_000, [500, 0], 600_000, 500, 60_000],       # clock below 1 s
    [5_000, [90_000_000, 0], 600_000, 500, 60_000],   # clock above 24 h
    [5_000, [60_000, 90_000_000], 600_000, 500, 60_000],   # an increment above 24 h
    [5_000, None, 500, 500, 60_000],               # a move limit below 1 s
    [5_000, None, 600_000, 50, 60_000],            # a frame time below 0.1 s
    [5_000, None, 600_000, 500, 90_000_000],       # a lateness above 24 h
    [5_000, [60_000, -5_000], 600_000, 500, 60_000],   # a negative increment
])
def test_a_joiner_declines_an_offer_whose_terms_are_out_of_bounds(terms: list) -> None:
    lobby = _Lobby(Identity.generate("host"))
    lobby.offered(terms)
    assert [tag for tag, _ in lobby.sent()] == ["decline"], lobby.sent()
    assert "terms" in lobby.sent()[-1][1][0], lobby.sent()
    assert lobby.machine.outcome is not None and lobby.machine.outcome.code != 0
    assert lobby.machine.lobby.offered_terms is None


@pytest.mark.parametrize("terms", [[5_000.5, None, 1, 1, 1], [5_000, [60_000], 1, 1, 1], [5_000, "60+0", 1, 1, 1],
                                   [5_000, None]])
def test_an_offer_whose_terms_have_the_wrong_shape_is_no_offer(terms: list) -> None:
    lobby = _Lobby(Identity.generate("host"))
    lobby.offered(terms)           # dropped as malformed before any handler: the joiner waits, as for no offer
    assert lobby.sent() == [] and lobby.machine.outcome is None


def test_a_joiner_accepts_terms_in_bounds_and_declines_a_header_whose_terms_differ_from_the_offer() -> None:
    host = Identity.generate("host")
    lobby = _Lobby(host)
    lobby.offered(GOOD)
    assert [t for t, _ in lobby.sent()] == ["ready"] and lobby.machine.outcome is None
    offered = Terms.agreed(5_000, (60_000, 2_000), 600_000, 500, 60_000, 0)
    assert lobby.machine.lobby.offered_terms == offered
    assert lobby.machine.lobby.check_header(lobby.header_with(offered)) is None
    for other in (Terms.agreed(6_000, (60_000, 2_000), 600_000, 500, 60_000, 0),
                  Terms.agreed(5_000, None, 600_000, 500, 60_000, 0),
                  Terms.agreed(5_000, (60_000, 2_000), None, 500, 60_000, 0),
                  Terms.agreed(5_000, (60_000, 2_000), 600_000, 500, 0, 0), Terms(2, 5_000, (60_000, 2_000))):
        assert lobby.machine.lobby.check_header(lobby.header_with(other)) == DIFFER
    lobby.receive(wire.pack("header", lobby.header_with(Terms.agreed(5_000, None, 600_000, 500, 60_000, 0)).encode()))
    assert [t for t, _ in lobby.sent()] == ["ready", "decline"]
    assert DIFFER in lobby.sent()[-1][1][0]
    assert lobby.machine.outcome is not None and lobby.machine.outcome.code != 0 and lobby.machine.book is None
