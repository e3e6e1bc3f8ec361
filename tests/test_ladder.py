"""`netplay ladder` (bots/ladder/): the intervals and ratings against known values, the SPRT on synthetic
streams, seats rotated with common random numbers, counts reproducible from seeds on one process or two,
failures and Ctrl-C reported with what finished, and the command as the README writes it, tiny.

Cheap by design (the suite's budget): Loyal Captain is the quickest game (about 0.05 s a game, random vs
smart), a Catan rotation (0.3 s) is the one with dice, and no cell plays more than three rotations."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random

import pytest
from click.testing import CliRunner

import bots
from bots.ladder.cells import Cell, cells_for
from bots.ladder.play import Outcome, play_game
from bots.ladder.report import summary, text
from bots.ladder.run import run_ladder
from bots.ladder.sprt import Decision, Sprt
from bots.ladder.stats import Stage, elo_of_score, fit_ratings, mean_interval, quantile, wilson
from bots.ladder.tally import finishing_order, share, stages_of
from client.cli import main

QUICK = "loyal-captain"


def counts(run):
    """What must not depend on workers or order: per cell, the counts, scores and seeds."""
    return {key: (t.games, t.wins, t.draws, sorted(t.subject_scores), t.opponent_score_sum, sorted(t.seeds))
            for key, t in run.tallies.items()}


# ------------------------------------------------------------------------------------------- figures

def test_wilson_interval_known_values():
    # reference values: Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I
    # (81/263, 15/148, 0/20), and 5/10, 0/10, 10/10 as every statistics package gives them
    for (wins, n), (low, high) in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605), (0, 20): (0.0, 0.1611),
                                   (5, 10): (0.2366, 0.7634), (0, 10): (0.0, 0.2775),
                                   (10, 10): (0.7225, 1.0)}.items():
        got = wilson(wins, n)
        assert got == pytest.approx((low, high), abs=1e-4), (wins, n)
    assert wilson(0, 0) == (0.0, 1.0)
    mean, low, high = mean_interval([1, 2, 3, 4, 5])
    assert mean == 3 and high - mean == pytest.approx(1.959964 * math.sqrt(2.5 / 5))
    assert quantile([5, 1, 4, 2, 3], 0.5) == 3 and quantile(list(range(1, 101)), 0.95) == 95


def test_elo_fit_on_a_synthetic_tally():
    assert elo_of_score(0.75) == pytest.approx(400 * math.log10(3)) and elo_of_score(1) == math.inf
    # A beat B 75 times in 100: Bradley-Terry's strength ratio is wins to losses, with the one virtual draw
    stages = [Stage("A", ("A", "B"))] * 75 + [Stage("B", ("A", "B"))] * 25
    assert fit_ratings(stages, "B")["A"] == pytest.approx(400 * math.log10(75.5 / 25.5), abs=0.01)
    # three bots with strengths 1, 2, 4, every pair met 10,000 times with the expected counts: recovered
    strength = {"easy": 1, "medium": 2, "hard": 4}
    stages = []
    for a, b in [("easy", "medium"), ("easy", "hard"), ("medium", "hard")]:
        p = strength[a] / (strength[a] + strength[b])
        stages += [Stage(a, (a, b), 10_000 * p), Stage(b, (a, b), 10_000 * (1 - p))]
    fitted = fit_ratings(stages, "easy")
    assert fitted["medium"] == pytest.approx(400 * math.log10(2), abs=0.5)
    assert fitted["hard"] == pytest.approx(400 * math.log10(4), abs=0.5)
    # a bot that won every game stays finite (the prior), and above the other
    assert math.isfinite(fit_ratings([Stage("A", ("A", "B"))] * 20, "B")["A"]) > 0


def test_finishing_orders_and_their_stages():
    def outcome(winners, scores, seating):
        return Outcome(0, 0, 0, seating, winners, scores, "", 0)

    four = outcome((2,), (3, 7, 10, 3), ("Y", "Y", "X", "Y"))
    assert finishing_order(four) == [[2], [1], [0, 3]]
    assert stages_of(four) == [Stage("X", ("Y", "Y", "X", "Y")), Stage("Y", ("Y", "Y", "Y")),
                               Stage("Y", ("Y", "Y"), 0.5), Stage("Y", ("Y", "Y"), 0.5)]
    # a draw is a draw whatever the scores (Madagaskar's repetition): half a win each at two seats
    draw = outcome((), (4, 10), ("A", "B"))
    assert finishing_order(draw) == [[0, 1]] and stages_of(draw) == [Stage("A", ("A", "B"), 0.5),
                                                                      Stage("B", ("A", "B"), 0.5)]
    assert [share(draw, 0), share(four, 2), share(four, 0)] == [0.5, 1.0, 0.0]


def test_plackett_luce_fit_of_one_against_three():
    # X (strength 3) against three seats of Y (strength 1): the expected finishing orders, 10,000 games
    w = {"X": 3.0, "Y": 1.0}
    stages = []

    def expand(left: tuple[str, ...], p: float) -> None:
        if len(left) <= 1:
            return
        total = sum(w[n] for n in left)
        for name in sorted(set(left)):
            chance = left.count(name) * w[name] / total
            stages.append(Stage(name, left, 10_000 * p * chance))
            rest = list(left)
            rest.remove(name)
            expand(tuple(rest), p * chance)

    expand(("X", "Y", "Y", "Y"), 1.0)
    assert fit_ratings(stages, "Y")["X"] == pytest.approx(400 * math.log10(3), abs=0.5)


def test_sprt_decisions_on_synthetic_streams():
    high = math.log(19)
    wins = Sprt(0.5)
    for _ in range(200):
        wins.add(1)
    assert wins.decision is Decision.GAIN and wins.games == math.ceil(high / math.log(0.53 / 0.5))
    losses = Sprt(0.5)
    for _ in range(200):
        losses.add(0)
    assert losses.decision is Decision.NO_GAIN and losses.games == math.ceil(high / -math.log(0.47 / 0.5))
    decided = []
    for p, seed in ((0.5, 1), (0.6, 2), (1 / 3, 3), (1 / 3 + 0.1, 4)):
        rng = random.Random(seed)
        test = Sprt(1 / 3) if p < 0.5 else Sprt(0.5)
        while test.decision is Decision.UNDECIDED:
            test.add(1 if rng.random() < p else 0)
        decided.append(test.decision)
    assert decided == [Decision.NO_GAIN, Decision.GAIN, Decision.NO_GAIN, Decision.GAIN]
    draws = Sprt(0.5)
    for _ in range(10_000):
        draws.add(0.5)   # all draws at p0 = 1/2: exactly the H0 rate, so it leans to "no gain"
    assert draws.decision is Decision.NO_GAIN
    rotations = Sprt(0.5)
    while rotations.update([1, 1, 1]) is Decision.UNDECIDED:
        pass
    assert rotations.games == 3 * math.ceil(wins.games / 3)   # decided on whole rotations only
    with pytest.raises(ValueError):
        Sprt(0.99)


# ------------------------------------------------------------------------------------- cells and games

def test_cells_rotate_every_bot_through_every_seat():
    assert [c.key for c in cells_for(["easy", "medium", "hard"], 2)] == \
        ["medium vs easy", "hard vs easy", "hard vs medium"]
    four = cells_for(["easy", "medium", "hard"], 4)
    assert len(four) == 6 and four[0].key == "easy vs 3x medium"
    cell = Cell("hard", "medium", 4)
    seatings = [cell.seating(r) for r in range(cell.rotation)]
    assert all(s.count("hard") == 1 for s in seatings)
    assert [s.index("hard") for s in seatings] == [0, 1, 2, 3]
    assert cell.deals(10) == 3   # whole rotations: 12 games for 10 asked
    specs = [cell.game(7, i) for i in range(8)]
    assert [s.seed for s in specs] == [7] * 4 + [8] * 4   # one referee seed per rotation
    assert len({s.bot_seed(seat) for s in specs for seat in range(4)}) == 32   # bots' own rngs all differ
    with pytest.raises(ValueError):
        cells_for(["smart", "smart"], 2)


def test_a_rotation_sees_the_same_dice():
    """Common random numbers: the k-th roll is the same in every game of a rotation, although the games
    differ (a robber's steal comes at different moments, and picks sit between the rolls)."""
    cell = Cell("smart", "random", 3)
    games = [play_game("catan", cell.game(0, r), keep_chances=True) for r in range(3)]
    rolls = [[v for v in g.chances if isinstance(v, tuple)][:12] for g in games]
    assert len(rolls[0]) == 12 and rolls[0] == rolls[1] == rolls[2]
    assert len({tuple(g.chances) for g in games}) > 1   # the games themselves did not repeat


def test_counts_come_from_the_seeds_alone():
    cells = cells_for(["random", "smart"], 2)
    one = run_ladder(QUICK, cells, 2, base_seed=5, workers=1)
    assert counts(one) == counts(run_ladder(QUICK, cells, 2, base_seed=5, workers=2))
    # the cell again from its seed range, in two parts: the same games, whichever run they were part of
    head, tail = run_ladder(QUICK, cells, 1, base_seed=5), run_ladder(QUICK, cells, 1, base_seed=6)
    (t,), (h,), (r,) = one.tallies.values(), head.tallies.values(), tail.tallies.values()
    assert (h.wins + r.wins, h.draws + r.draws) == (t.wins, t.draws)
    assert sorted(h.subject_scores + r.subject_scores) == sorted(t.subject_scores)
    assert t.seed_range == (5, 6) and t.games == 4


def test_a_failing_game_is_named_with_its_seed(monkeypatch):
    real = bots.make

    class Broken:
        name = "broken"

        def choose(self, game, state, seat, legal, rng):
            raise RuntimeError("a bug in the bot")

    def make(game_id, names, players):
        seated = real(game_id, names, players)
        return [Broken() if b.name == "smart" else b for b in seated]

    monkeypatch.setattr(bots, "make", make)
    run = run_ladder(QUICK, cells_for(["random", "smart"], 2), 3, base_seed=11)
    assert run.failure is not None and run.played == 0
    said = run.failure.describe()
    assert "game 0 (seed 11" in said and "a bug in the bot" in said
    assert "stopped by a failure" in text(summary(run))


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="the broken bot reaches the "
                    "workers only in a forked process")
def test_a_worker_that_dies_is_reported_not_waited_for(monkeypatch):
    real = bots.make

    class Dying:
        name = "dying"

        def choose(self, game, state, seat, legal, rng):
            os._exit(3)   # the worker process ends at once, as a kill or the OOM killer would end it

    def make(game_id, names, players):
        seated = real(game_id, names, players)
        return [Dying() if b.name == "smart" else b for b in seated]

    monkeypatch.setattr(bots, "make", make)
    run = run_ladder(QUICK, cells_for(["random", "smart"], 2), 2, base_seed=20, workers=2)
    assert run.failure is not None and "a worker process died" in run.failure.describe()
    assert "deal seeds 20" in run.failure.describe()


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_rotations_finished(workers):
    stopped = []

    def progress(done, total):
        if not stopped:
            stopped.append(done)
            raise KeyboardInterrupt

    run = run_ladder(QUICK, cells_for(["random", "smart"], 2), 8, workers=workers, progress=progress)
    assert run.interrupted and 2 <= run.played < 16 and run.played % 2 == 0
    assert "(interrupted)" in text(summary(run))


# ------------------------------------------------------------------------------------------- command

def run_cli(*args):
    return CliRunner().invoke(main, ["ladder", *args])


def test_the_readme_command_tiny(tmp_path):
    result = run_cli(QUICK, "--games", "4", "--workers", "1", "--bots", "random,smart", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "smart vs random" in result.output and "95 % CI" in result.output and "seeds" in result.output
    assert "Elo (Bradley-Terry fit), random = 0" in result.output
    data = json.loads((tmp_path / f"ladder-{QUICK}.json").read_text())
    (row,) = data["cells"]
    assert row["games"] == 4 and row["seeds"] == [0, 1] and row["wins"] + row["draws"] + row["losses"] == 4
    assert set(row["decision_ms"]) == {"random", "smart"}
    page = (tmp_path / f"ladder-{QUICK}.md").read_text()
    assert "| smart vs random | 4 |" in page


def test_solo_and_sprt_from_the_command():
    solo = run_cli("ebbe-flut-solo", "--games", "3", "--workers", "1", "--bots", "random")
    assert solo.exit_code == 0, solo.output
    assert "mean score" in solo.output and "\nrandom  3 " in solo.output
    sprt = run_cli(QUICK, "--games", "4", "--workers", "1", "--sprt", "smart,random")
    assert sprt.exit_code == 0, sprt.output
    assert "SPRT (H0 p = 0.500, H1 p = 0.530" in sprt.output and "undecided after 4 games" in sprt.output


def test_an_sprt_decides_at_the_same_game_on_any_number_of_workers():
    # random loses nearly every game to smart: against a baseline of 90 %, with alpha = beta = 0.2 (a loss: LLR
    # -0.36, the bound -1.39), H0 comes within a few games, on whole rotations, and the rotations finished
    # beyond it are left out
    runs = [run_ladder(QUICK, [Cell("random", "smart", 2)], 6, sprt=Sprt(0.9, alpha=0.2, beta=0.2), workers=w)
            for w in (1, 2)]
    decided = [(r.sprt.decision, r.sprt.games, r.played, counts(r)) for r in runs]
    assert decided[0] == decided[1] and decided[0][0] is Decision.NO_GAIN
    assert decided[0][1] == decided[0][2] and decided[0][1] % 2 == 0 and decided[0][1] < 12


@pytest.mark.parametrize("args, said", [
    (["chess"], "unknown game 'chess'"),
    ([QUICK, "--bots", "random,genius"], "unknown bot 'genius'"),
    ([QUICK, "--games", "0"], "0 is not in the range"),
    ([QUICK, "--players", "9"], "not 9"),
    ([QUICK, "--bots", "smart"], "at least two bots"),
    ([QUICK, "--bots", "smart,smart"], "named twice"),
    ([QUICK, "--sprt", "smart"], "name two bots"),
    ([QUICK, "--baseline", "0.4"], "give --sprt"),
    (["ebbe-flut-solo", "--sprt", "smart,random"], "solo game has no pairing"),
])
def test_bad_input_is_a_one_line_error(args, said):
    result = run_cli(*args)
    assert result.exit_code != 0 and said in result.output, result.output
    assert "Traceback" not in result.output
