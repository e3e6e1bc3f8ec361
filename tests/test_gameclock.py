"""Terms that bound a game (issue 32, N8): each game's default clock (netplay/gameclock.py), the claims'
skew given once per seat and game for decisions too (netplay/deadlines.py), the worst case computed from
the terms alone, and stallers under the default terms in the simulator. Cost: about 1.5 s of CPU (the
three simulated games, a few hundred virtual seconds each)."""

from __future__ import annotations

import click
import pytest

import engines
from client.cli_net import _session_options
from netplay.deadlines import CREDITED_DECISIONS, Deadlines
from netplay.gameclock import DEFAULT_CLOCKS, GAME_CLOCK, UNTIMED, default_clock, seat_budget, worst_case
from netplay.protocol.claims import CLAIM_SKEW
from netplay.session import (
    DEFAULT_FRAME_TIME,
    DEFAULT_LATENESS,
    DEFAULT_MOVE_LIMIT,
    DEFAULT_REVEAL_TIMEOUT,
    terms_for,
)
from replays.header import Header, Terms, header_from_value
from simulator.adversary import Adversary, _Held
from simulator.run import Plan, simulate

LIMIT_ONLY = Terms.agreed(120_000, None, 10_000)           # 10 s a decision, no clock


def _default_terms(game: str) -> Terms:
    return terms_for(DEFAULT_REVEAL_TIMEOUT, GAME_CLOCK, DEFAULT_MOVE_LIMIT, DEFAULT_LATENESS, DEFAULT_FRAME_TIME,
                     game=game)


# ------------------------------------------------------------------------------ the tolerance, once per game


def _late_decisions(d: Deadlines, seat: int, count: int, late_by: float) -> float:
    """`count` decisions of `seat`, each `late_by` seconds after its own deadline (within the claims' skew,
    so the host sequences it before it would claim): the seconds they took together."""
    now, total = 0.0, 0.0
    for n in range(count):
        d.moved(2 * n, ("act", seat), now=now)
        took = d.remaining("act", seat, now) + late_by
        now += took
        total += took
        d.moved(2 * n + 1, ("chain", 1 - seat), now=now)
    return total


def test_a_decision_late_within_the_skew_is_owed_so_the_skew_counts_once_per_game() -> None:
    d = Deadlines(LIMIT_ONLY, 2)
    d.moved(0, ("act", 0), now=0.0)
    assert d.remaining("act", 0, 0.0) == pytest.approx(10.0)
    d.moved(1, ("chain", 1), now=10.8)                       # 0.8 s late: sequenced (no claim yet), but owed
    assert d.over == pytest.approx([0.8, 0.0])
    d.moved(2, ("act", 0), now=20.0)
    assert d.remaining("act", 0, 20.0) == pytest.approx(9.2)  # the next decision is due that much sooner
    assert d.decision_left(0, 21.0) == pytest.approx(8.2)
    d.moved(3, ("act", 1), now=25.0)                         # on time (5 s of 9.2): nothing more owed
    assert d.over == pytest.approx([0.8, 0.0])
    d.moved(4, ("act", 0), now=30.0)
    assert d.remaining("act", 0, 30.0) == pytest.approx(9.2)  # the debt stays: it is a per-game tolerance
    assert d.remaining("act", 1, 30.0) is None or d.over[1] == 0.0


@pytest.mark.parametrize("late_by", [0.3, 0.9])
def test_a_seat_late_within_the_skew_at_every_decision_gains_the_skew_once(late_by: float) -> None:
    """Before: 100 decisions 0.9 s late each added 90 s (the break N8: limit + 1 s per decision)."""
    total = _late_decisions(Deadlines(LIMIT_ONLY, 2), 0, 100, late_by)
    assert total <= 100 * 10.0 + CLAIM_SKEW
    assert total == pytest.approx(100 * 10.0 + late_by)


def test_a_clock_overdrawn_within_the_skew_stays_overdrawn() -> None:
    d = Deadlines(Terms.agreed(120_000, (10_000, 2_000), None), 2)
    total = _late_decisions(d, 0, 50, 0.9)
    # the stock, the 49 increments earned before the last decision, and the skew once
    assert total == pytest.approx(10.0 + 49 * 2.0 + 0.9)
    assert d.allowance(0, 0.0) == pytest.approx(2.0 - 0.9)   # the last overdraft stays spent


def test_increments_are_credited_for_the_first_credited_decisions_only() -> None:
    d = Deadlines(Terms.agreed(120_000, (60_000, 1_000), None), 2)
    now = 0.0
    for n in range(CREDITED_DECISIONS + 100):
        d.moved(2 * n, ("act", 0), now=now)
        now += 0.5
        d.moved(2 * n + 1, ("chain", 1), now=now)
    assert d.decided[0] == CREDITED_DECISIONS + 100
    spent = (CREDITED_DECISIONS + 100) * 0.5
    assert d.allowance(0, now) == pytest.approx(60.0 + CREDITED_DECISIONS * 1.0 - spent)


# ------------------------------------------------------------------------------ the defaults


def test_every_game_has_a_default_clock_that_its_busiest_honest_seat_never_nears() -> None:
    assert set(DEFAULT_CLOCKS) == set(engines.GAMES)
    for game, clock in DEFAULT_CLOCKS.items():
        # a person at 3 s a decision over the bots' count of decisions still has a quarter of the stock left
        needed = clock.measured * 3.0
        given = clock.stock_s + min(clock.measured, CREDITED_DECISIONS) * clock.increment_s
        assert needed <= given - clock.stock_s / 4, game


def test_a_host_proposes_the_game_clock_unless_it_chooses_untimed_or_its_own() -> None:
    terms = _default_terms("catan")
    assert terms.clock == (2_700_000, 5_000) and terms.move_ms == 600_000
    assert terms.describe_clock() == "clock 45 min + 5 s per move, 10 min per move at most"
    assert default_clock("madagaskar") == (1200.0, 10.0)
    assert _session_options(None, 120, False, True)["clock"] is GAME_CLOCK
    untimed = _session_options(None, 120, False, True, untimed=True)
    assert untimed["clock"] is UNTIMED and untimed["move_limit"] is None
    assert _session_options(None, 120, False, True, clock="none")["clock"] is None     # the limit per move only
    assert _session_options(None, 120, False, True, clock="60+2")["clock"] == (60.0, 2.0)
    with pytest.raises(click.BadParameter):
        _session_options(None, 120, False, True, clock="60+2", untimed=True)


def test_untimed_is_said_in_the_terms_line() -> None:
    from netplay.identity import Identity
    from netplay.session import QueueDecider, Session

    terms = Session(Identity.generate("u"), QueueDecider(), clock=UNTIMED).terms
    assert terms.clock is None and terms.move_ms is None
    assert terms.describe().startswith("untimed (a player who never moves holds the game)")


@pytest.mark.parametrize("terms", [Terms(2, 3_000, None), Terms.agreed(120_000, None, 600_000),
                                   Terms.agreed(120_000, None, None)])
def test_an_old_files_terms_read_as_written(terms: Terms) -> None:
    """The default lives where a host proposes terms, not in the header: a 2.0 or 2.1 file without a
    clock reads without one (and so hashes as written)."""
    header = Header.make("madagaskar", "1", 2, {}, [(bytes(32), "a"), (bytes([1]) * 32, "b")], bytes(16), 0, terms)
    again = header_from_value(header.value())
    assert again.terms == terms and again.terms.clock is None and again.hash == header.hash


# ------------------------------------------------------------------------------ the worst case, by hand


def test_the_worst_case_is_the_terms_budget_of_every_staller() -> None:
    catan = _default_terms("catan")
    # one seat: 45 min stock + 500 credited increments of 5 s + the skew once = 2700 + 2500 + 1 s
    assert seat_budget(catan) == pytest.approx(5201.0)
    # four seats, each also late by its 60 s allowance on the automatic frames (+ the skew once)
    assert worst_case(catan, 4) == pytest.approx(4 * (5201.0 + 60.0 + 1.0))
    assert worst_case(catan, 4, stallers=1) == pytest.approx(5262.0)
    # a short game: the limit per decision binds before the clock (3 decisions of at most 600 s)
    assert seat_budget(catan, decisions=3) == pytest.approx(1801.0)
    # the break N8: no clock, 10 min a decision, 867 decisions: 6 days for one seat (now: limit + skew once)
    limit_only = terms_for(120, None, 600, 60, 0.5)
    assert seat_budget(limit_only, decisions=867) == pytest.approx(867 * 600 + 1.0)
    assert seat_budget(limit_only) is None                 # no game length, no bound: said, not guessed
    assert worst_case(terms_for(120, None, None, 60, 0.5), 4) is None    # untimed bounds nothing


# ------------------------------------------------------------------------------ stallers, simulated


class _LateWithinSkew(Adversary):
    """Every decision sent half a second after its deadline by its own clock: late, but within the claims'
    skew, so the host sequences it (before: each decision gained that much; now it is owed)."""

    name = "late-within-skew"

    def attach(self, machine) -> None:
        honest = machine.decider_for

        def hold(seat: int) -> bool:
            nxt = Adversary.awaited(machine)
            remaining = machine.deadlines.remaining(nxt[0], seat, machine.now) if nxt else None
            return remaining is not None and remaining > -0.5
        machine.decider_for = lambda seat: _Held(honest(seat), hold)


def _staller(strategy: str, game: str, seed: int):
    if strategy == "late-within-skew":
        import random

        from simulator import run as run_module
        plan = Plan(seed, game, 2, {}, {1: "stall-decisions"}, terms=_default_terms(game))   # replaced below
        world, report = _simulate_with(run_module, plan, _LateWithinSkew(random.Random(seed)))
    else:
        world, report = simulate(Plan(seed, game, 2, {}, {1: strategy}, terms=_default_terms(game)), until=20_000)
    assert report.ok, report.violations
    return world, report


def _simulate_with(run_module, plan: Plan, liar: Adversary):
    """`simulate` with a liar of this file in peer 1 (the simulator names its own strategies)."""
    original = run_module.World.start

    def start(world) -> None:
        world.peers[1].adversary = liar
        original(world)
    run_module.World.start = start
    try:
        return simulate(plan, until=20_000)
    finally:
        run_module.World.start = original


def test_a_seat_over_its_time_loses_on_time_within_the_computed_bound() -> None:
    world, report = _staller("over-time", "madagaskar", 3)
    assert "forfeit" in world.peers[0].outcome.message and "seat 1" in world.peers[0].outcome.message
    terms = world.terms
    ended = max(report.ended_at.values())
    # it loses at its first decision: the limit per decision (600 s) comes before its clock (1200 s) runs out
    assert ended <= terms.move_ms / 1000 + 60
    assert ended <= report.bound


def test_a_staller_within_the_terms_spends_its_clock_and_the_game_ends_within_its_budget() -> None:
    world, report = _staller("stall-decisions", "quedah-merchant", 1)
    honest = world.peers[0]
    assert honest.outcome.code == 0, honest.outcome
    deadlines = honest.machine.deadlines
    budget = seat_budget(world.terms, deadlines.decided[1])
    assert deadlines.used[1] <= budget
    assert deadlines.used[1] > world.terms.clock[0] / 1000 * 0.9     # it did spend its stock
    assert max(report.ended_at.values()) <= report.bound


def test_a_seat_late_within_the_skew_at_every_decision_gains_it_once() -> None:
    world, report = _staller("late-within-skew", "quedah-merchant", 2)
    deadlines = world.peers[0].machine.deadlines
    assert 0 < deadlines.over[1] <= CLAIM_SKEW       # late once past the limit per decision: owed from then on
    stock, increment = (c / 1000 for c in world.terms.clock)
    # every decision late, yet all of them together took the stock, the earned increments and the skew once
    assert stock + (deadlines.decided[1] - 1) * increment < deadlines.used[1]
    assert deadlines.used[1] <= stock + (deadlines.decided[1] - 1) * increment + CLAIM_SKEW
    assert max(report.ended_at.values()) <= report.bound


def test_the_lobby_offers_the_game_clock_first_and_untimed_by_name() -> None:
    from client.scenes.lobby import CLOCKS, clock_words

    assert CLOCKS[0] == "game" and "untimed" in CLOCKS and None not in CLOCKS   # "none" no longer a default
    assert clock_words("game", "catan") == "game's (45 min + 5 s)"
    assert clock_words("untimed") == "untimed!"
    assert clock_words((60, 2)) == "1 min + 2 s"
