"""The session's promises, checked by the deterministic simulator (simulator/): thousands of games of
every game, each with its peers on a simulated clock and network, faults (latency, loss, duplication,
reordering, links that drop, peers killed and resumed, the host included) and lying seats (every strategy
of simulator/adversary.py, alone or two colluding seats of four), and every invariant of
simulator/invariants.py asserted on every run: no crash, no honest seat blamed, bounded time, agreement of
honest copies (or a proof naming the equivocator), bounded memory, liveness.

The quick form runs `QUICK` consecutive seeded runs (240) plus, for every liar's strategy those leave out, the
first later seed that draws it (`COVERING`: so every strategy is tried in every run of the suite, at half the
cost of the 480 consecutive runs that took to draw them all), as `CHUNKS` tests that the parallel runner spreads
over its workers; `NETPLAY_LONG=1` runs `LONG_RUNS` (100,000) consecutive seeds, each chunk on every core. A
failing run prints the one command that replays it (`python -m simulator --seed N -v`), and every seed that
found a bug stays in `REGRESSIONS`."""

from __future__ import annotations

import logging
import os
from collections import Counter

import pytest

import engines
from simulator import adversary
from simulator.run import QUICK_MIX, Plan, campaign, command, crash_plan, plan_for, simulate
from simulator.world import Faults

LONG = os.environ.get("NETPLAY_LONG") == "1"
QUICK = 240
LONG_RUNS = 100_000
#: how far past `QUICK` the quick form looks for a seed that draws a strategy the first `QUICK` seeds do not
COVER_SEARCH = 20_000
FIRST = 1_000_000 if LONG else 0

#: runs that found a bug (the bug each one found is in the git history of its fix), kept as explicit plans so
#: that they stay the same runs when the campaign's drawing of plans changes: (seed, game, players, options,
#: liars, faults)
_LOSSY = {"loss": 0.02, "duplicate": 0.02, "reorder": 0.05}
REGRESSIONS = (
    (14, "madagaskar", 3, {}, {0: "withhold-from"}, {}),          # a victim cut off from the last frames
    (19, "quedah-merchant", 2, {}, {0: "withhold-from"}, {}),     # a joiner whose frame is never sequenced
    (21, "ebbe-flut", 2, {}, {0: "close-early"}, {}),              # a contest that was never recorded
    (48, "turning-tides", 2, {}, {0: "ahead-then-claim"}, {}),     # the resume trick
    (55, "ebbe-flut", 2, {}, {0: "close-early"}, {}),
    (57, "catan", 3, {"max_rounds": "2"}, {}, _LOSSY),            # lost lobby messages; a claim loop in a forfeit
    (128, "turning-tides", 2, {}, {}, _LOSSY),                    # a contest lost after the host's forfeit
    (276, "catan-ck", 4, {"max_rounds": "2", "defense": "choose"}, {1: "mutate"}, {}),   # a negative frame number
    (1014, "turning-tides", 2, {}, {1: "replay"}, {}),           # amplification by copies of old frames
    (5117, "catan", 3, {"max_rounds": "1"}, {0: "mutate"}, {}),   # a bad frame for one joiner, then a claim
    (5165, "ploc", 2, {}, {}, {"drops": 1}),
    (7144, "catan-ck", 3, {"max_rounds": "2"}, {0: "mutate"}, {"duplicate": 0.01}),   # a report ahead of its slot
    (7318, "turning-tides", 2, {}, {1: "tamper:commit:2"}, {}),    # an own frame refused by its own ledger
    (7395, "catan-ck", 4, {"max_rounds": "1", "defense": "choose"}, {1: "wrong-seed"}, {"duplicate": 0.01}),
    # issue 32, N1: a host that keeps the joiners apart (no addresses), forks them and claims against the starved
    # one, which the fed joiner co-signed on the host's silence (with a colluder that co-signs at once, 4 seats)
    (16, "madagaskar", 3, {}, {0: "relay-equivocate:2"}, {}),
    (2, "catan-ck", 4, {"max_rounds": "1"}, {0: "relay-equivocate:3"}, {}),
    (1, "catan", 4, {"max_rounds": "1"}, {0: "relay-equivocate:2", 3: "cosign-at-once"}, {}),
    # a host that sent one joiner a second frame for a number: that joiner stopped, naming the host, and the
    # others, holding the first frame, took its silence for withholding and co-signed the host's claim against it
    # (found by the long campaign as full-mix seed 1008899); the joiner now passes the second frame on
    (1008899, "catan", 4, {"max_rounds": "2"}, {0: "mutate"}, {}),
)
#: runs of the quick mix (`plan_for(seed, quick=True, generic=False)`, `--quick --classic`: their terms, think
#: times and bots as drawn before the generic liar) that found
#: a bug: co-signing a claim that came early by the co-signer's own clock (756, 789, 1215, 1425), frames seen
#: kept for every number after a claim (789, 1425); and a checker's mistake: a joiner killed twice, away longer
#: than its lateness allowance in all, was expected to finish its game (380: the claim against it may stand);
#: a joiner killed and resumed during a game dropped the rematch's header (no offer in its lobby: 1169, 1764);
#: a joiner whose frame the host refused (it had been shown another version of the host's frame before it)
#: waited for ever for the host's frame for that number (1835, the generic liar)
QUICK_REGRESSIONS = (380, 756, 789, 1169, 1215, 1425, 1764, 1835)
#: crash plans (`python -m simulator --seed N --crashes`) that found a bug: 2000144, a joiner killed during
#: the last frames came back after the others had ended, and the host no longer took its resume
CRASH_REGRESSIONS = (2_000_144,)
#: full-mix plans (`python -m simulator --seed N --classic`): 1001288, a liar deciding just before each limit of a
#: whole Ploc game took longer than the simulation's horizon, well within the bound (the harness stopped it);
#: 1001973, a host that forked one joiner at frame 25 and the other at 27: each names it, for its own frame;
#: 1005564, a doubled `hello` whose late `refused` made a joiner in play quit (then claimed against as gone);
#: 1006288, a host killed just after its `synced`, twice: the joiner never knew the game was on and could not
#: resume after the second kill; 1007759, a joiner whose `start` the host refused held up the start, and the
#: honest joiners, timing the host's first frame from the header, blamed the host (waiting for them)
FULL_REGRESSIONS = (1_001_288, 1_001_973, 1_005_564, 1_006_288, 1_007_759)
#: full-mix plans with the generic liar (`python -m simulator --seed N`): 1023599, a host deaf to one joiner of four
#: (C&K) whose unsequenced frame that joiner gave up on after 15 s; its direct links stayed up, so an honest
#: joiner took its silence for withholding and co-signed the host's claim; now the joiner passes its frame to the
#: other joiners before it stops, and they refuse; 1061462, a host (Madagaskar, three seats) that withheld a
#: joiner's act frame, claimed against it and closed the claim at once: the other joiner co-signed before the
#: blamed seat's contest reached it on their direct link; now a joiner hears a blamed joiner out
#: (`ANSWER_WAIT`) before it closes or co-signs, and a seat whose host leaves with its contest unsequenced
#: records the contest in its own replay
GENERIC_REGRESSIONS = (1_023_599, 1_061_462)


@pytest.fixture(autouse=True)
def quiet():
    logging.disable(logging.CRITICAL)
    yield
    logging.disable(logging.NOTSET)


def _failures(results) -> str:
    return "\n".join(f"{r.plan.describe()}\n    " + "\n    ".join(v.splitlines()[0] for v in r.report.violations)
                     + f"\n    replay: {command(r.plan.seed, quick=not LONG)}" for r in results if not r.ok)


#: the campaign runs as this many tests of seeds, so that a parallel run (scripts/test) spreads it
#: over its workers beside the other tests instead of waiting at the end on one long test
CHUNKS = 4


def _strategies(plan: Plan) -> set[str]:
    return {s.split(":")[0] for s in plan.liars.values()}


def _covering() -> tuple[int, ...]:
    """The seeds after the first `QUICK` that the quick form adds: for each liar's strategy (the lobby's
    included) that none of the first `QUICK` plans draws, the first later seed that draws it (drawing a plan is
    cheap; running it is not). Fixed by the seeds alone, so a failure replays the same way."""
    missing = {s.split(":")[0] for s in adversary.STRATEGIES} | set(adversary.LOBBY_STRATEGIES)
    for seed in range(QUICK):
        missing -= _strategies(plan_for(seed, quick=True))
    extra = []
    for seed in range(QUICK, QUICK + COVER_SEARCH):
        if not missing:
            break
        found = _strategies(plan_for(seed, quick=True)) & missing
        if found:
            extra.append(seed)
            missing -= found
    assert not missing, f"no seed below {QUICK + COVER_SEARCH} draws {sorted(missing)}"
    return tuple(extra)


COVERING: tuple[int, ...] = () if LONG else _covering()


def _chunk(index: int) -> list[int]:
    seeds = list(range(FIRST, FIRST + LONG_RUNS)) if LONG else [*range(QUICK), *COVERING]
    size = -(-len(seeds) // CHUNKS)
    return seeds[index * size:(index + 1) * size]


@pytest.mark.slow
@pytest.mark.timeout(48 * 3600 if LONG else 1800)   # a hang guard: a quick chunk is ~12 s of CPU
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_a_campaign_of_every_game_and_every_liar_keeps_every_promise(chunk: int) -> None:
    seeds = _chunk(chunk)
    # in-process when quick (the test runner runs chunks side by side); a long chunk uses every core
    results = campaign(seeds, workers=(os.cpu_count() or 1) if LONG else 1, quick=not LONG)
    failed = [r for r in results if not r.ok]
    assert not failed, f"{len(failed)} of {len(results)} runs broke a promise:\n{_failures(failed)}"
    assert [r.plan.seed for r in results] == list(seeds)
    assert sum(r.report.audited for r in results) > 0                    # honest games audited valid
    games = Counter(r.plan.game for r in results)
    used = Counter(s.split(":")[0] for r in results for s in r.plan.liars.values())
    print(f"\n{len(results)} simulated runs (seeds {seeds[0]}-{seeds[-1]}); games {dict(games)}; "
          f"{sum(used.values())} liars ({len(used)} strategies, {used['liar']} generic); "
          f"{sum(1 for r in results if r.plan.faults.kills)} with crashes; "
          f"{sum(1 for r in results if r.plan.games > 1)} with rematches")


def test_the_campaign_covers_every_game_every_liar_collusion_and_host_crashes() -> None:
    """What the chunks draw together (the plans alone: drawing one is cheap)."""
    plans = [plan_for(seed, quick=not LONG) for index in range(CHUNKS) for seed in _chunk(index)]
    assert len(plans) == (LONG_RUNS if LONG else QUICK + len(COVERING))
    assert {p.game for p in plans} == set(engines.GAMES)                                   # every game
    used = {s.split(":")[0] for p in plans for s in p.liars.values()}
    every = {s.split(":")[0] for s in adversary.STRATEGIES}
    assert used >= every, every - used                                  # every liar's strategy
    assert any(len(p.liars) == 2 for p in plans)                        # two colluding seats of four
    assert any(p.faults.kills and p.faults.kill_host for p in plans)    # peers killed, the host among them
    assert used >= set(adversary.LOBBY_STRATEGIES)                      # lobbies that never start (issue 32)
    assert sum(1 for p in plans if p.rematches and not p.liars) >= len(plans) // 100   # rematches, all honest


@pytest.mark.parametrize("case", REGRESSIONS, ids=[str(c[0]) for c in REGRESSIONS])
def test_every_run_that_found_a_bug_stays_fixed(case: tuple) -> None:
    seed, game, players, options, liars, faults = case
    plan = Plan(seed, game, players, dict(options), dict(liars), Faults(**faults))
    world, report = simulate(plan)
    assert report.ok, f"{plan.describe()}\n" + "\n".join(report.violations)


@pytest.mark.parametrize("seed", FULL_REGRESSIONS)
def test_every_full_run_that_found_a_bug_stays_fixed(seed: int) -> None:
    plan = plan_for(seed, generic=False)
    world, report = simulate(plan)
    # (1007759: its lying joiner also held an honest joiner in the lobby, which the lobby's old exemption hid)
    assert report.ok, (
        f"{plan.describe()}\n" + "\n".join(report.violations) + f"\nreplay: {command(seed, classic=True)}")


@pytest.mark.parametrize("seed", GENERIC_REGRESSIONS)
def test_every_generic_run_that_found_a_bug_stays_fixed(seed: int) -> None:
    plan = plan_for(seed)
    world, report = simulate(plan)
    assert report.ok, f"{plan.describe()}\n" + "\n".join(report.violations) + f"\nreplay: {command(seed)}"


@pytest.mark.parametrize("seed", CRASH_REGRESSIONS)
def test_every_crash_run_that_found_a_bug_stays_fixed(seed: int) -> None:
    plan = crash_plan(seed)
    world, report = simulate(plan)
    assert report.ok, f"{plan.describe()}\n" + "\n".join(report.violations) + f"\nreplay: {command(seed, crashes=True)}"


@pytest.mark.parametrize("seed", QUICK_REGRESSIONS)
def test_every_quick_run_that_found_a_bug_stays_fixed(seed: int) -> None:
    plan = plan_for(seed, quick=True, generic=False)
    world, report = simulate(plan)
    assert report.ok, (f"{plan.describe()}\n" + "\n".join(report.violations)
                       + f"\nreplay: {command(seed, quick=True, classic=True)}")


def test_a_run_is_a_pure_function_of_its_seed() -> None:
    """The same seed gives the same events, frames and outcomes (so a failure replays exactly)."""
    for seed in (3, 1014, 7144):
        first, second = (simulate(plan_for(seed))[0] for _ in range(2))
        assert [p.disk.frames for p in first.peers] == [p.disk.frames for p in second.peers]
        assert [p.outcome for p in first.peers] == [p.outcome for p in second.peers]
        assert first.event_count == second.event_count and first.now == second.now


@pytest.mark.slow
@pytest.mark.timeout(3600 if LONG else 1200)   # a hang guard: the quick form is ~11 s of CPU
def test_peers_killed_at_random_moments_resume_and_every_game_completes() -> None:
    """Any peer, the host included, killed (kill -9: what it wrote survives) and resumed at random moments,
    over every game: every game completes, every copy is valid and the same, and no frame a peer
    acknowledged is lost (the invariants say so for every run)."""
    runs = 1_200 if LONG else 60
    kills = host_kills = 0
    for n in range(runs):
        plan = crash_plan(2_000_000 + n)
        if plan.players < 2:
            continue
        world, report = simulate(plan)
        assert report.ok, (f"{plan.describe()}\n" + "\n".join(report.violations)
                           + f"\nreplay: {command(plan.seed, crashes=True)}")
        kills += sum(p.kills for p in world.peers)
        host_kills += world.peers[0].kills
    assert kills > runs // 2 and host_kills > 0, (kills, host_kills)
    print(f"\n{runs} runs with crashes: {kills} peers killed and resumed, {host_kills} of them the host")


def test_the_quick_mix_plays_every_game_its_descriptor_offers() -> None:
    offered = {g: d.mix.quick for g, d in engines.DESCRIPTORS.items() if d.mix is not None and d.mix.quick > 0}
    assert offered == QUICK_MIX
    assert {plan_for(seed, quick=True).game for seed in range(400)} == set(offered)


def test_joiners_that_cannot_reach_each_other_play_through_the_relay_and_are_told_so() -> None:
    """Two joiners with no route between them (a partition of their direct link): before the game begins the
    host says which pair goes through it and each of the two says which seat it cannot reach; the game is
    played to the end through the host's relay and every promise holds."""
    plan = Plan(11, "madagaskar", 3, {}, {}, Faults(partition=(1, 2)))
    world, report = simulate(plan)
    assert report.ok, "\n".join(report.violations)
    host, *joiners = world.peers
    assert any("seats 1 and 2 cannot reach each other directly" in line for line in host.lines), host.lines[:12]
    for joiner in joiners:      # (the seats went to the joiners in the order they came)
        other = 3 - joiner.machine.book.seat
        assert any(f"seat {other} cannot be reached directly" in line for line in joiner.lines), joiner.lines[:12]
    assert all(p.disk.frames and p.outcome is not None and p.outcome.code == 0 for p in world.peers), \
        [p.outcome for p in world.peers]


def test_a_crash_on_a_liars_peer_is_a_violation_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """A liar runs an honest machine: an exception that escapes it there (here one raised the first time the
    liar's machine is in play) is reported like an honest peer's, naming the file that raised; the no-crash
    promise once exempted every liar's peer, and so hid whatever honest code its lies reached."""
    def broken(self: adversary.CloseEarly, machine: object) -> None:
        if getattr(machine, "phase", None) == "play":
            raise KeyError("reached on the liar's peer")

    monkeypatch.setattr(adversary.CloseEarly, "tick", broken)
    plan = Plan(21, "ebbe-flut", 2, {}, {0: "close-early"}, Faults())
    world, report = simulate(plan)
    assert world.peers[0].crash is not None
    crashes = [v for v in report.violations if v.startswith("peer 0 (a liar: close-early) crashed in ")]
    assert len(crashes) == 1, report.violations
    assert crashes[0].splitlines()[0].startswith("peer 0 (a liar: close-early) crashed in tests/test_simulator.py:")
