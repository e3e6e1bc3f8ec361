"""One source of truth for the points shown (issue 27, item 7): "won (10 victory points)" stood beside
"score 11", and `replay show` left the victory point cards revealed at the end out of each seat's
points. Now the table, the terminal board, `replay show` and the end of the game all say the same."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import bots
import engines
from bots.selfplay import play_match
from client.cli import main
from client.ending import from_result, line
from client.points import own_points, shown_points
from client.textview import board
from engines.core import Result
from engines.referee import Referee
from replays.local import record_match
from replays.stepping import Stepper


def _won_with_cards(gid: str, players: int = 3):
    """A seeded smart-bot game whose winner showed victory point cards (the points beyond the public)."""
    game = engines.get(gid)
    for seed in range(40):
        referee = Referee(game, players, {}, seed, check_views=False)
        record = play_match(game, bots.make(gid, ["smart"], players), seed, players, table=referee,
                            check_views=False)
        view = game.view(referee.state, None)
        if record.result and record.result.scores != tuple(view["vp_public"]):
            return game, referee.state, record.result
    pytest.skip(f"no {gid} game in 40 seeds where victory point cards were shown")


@pytest.mark.parametrize("gid", ["catan", "catan-ck"])
def test_the_points_shown_are_the_scores(gid):
    if gid == "catan":
        game, state, result = _won_with_cards(gid)
    else:
        game = engines.get(gid)
        referee = Referee(game, 3, {}, 1, check_views=False)
        result = play_match(game, bots.make(gid, ["smart"], 3), 1, 3, table=referee, check_views=False).result
        state = referee.state
    names = ["ann", "bob", "cy"]
    for seat in (None, 0, 1, 2):
        view = game.view(state, seat)
        assert [shown_points(view, s) for s in range(3)] == list(result.scores), seat
        text = board(view, names, 1)
        for s, score in enumerate(result.scores):
            assert re.search(rf"seat {s} \({names[s]}\)[^:]*: {score} points", text), text
    ending = line(from_result(result, None, names))
    winner = result.winners[0]
    assert f"with {result.scores[winner]} victory points" in ending, ending
    assert f"score ann {result.scores[0]}, bob {result.scores[1]}, cy {result.scores[2]}" in ending


def test_a_seats_own_view_shows_its_hidden_points_beside():
    view = {"vp_public": [3, 5], "revealed": [None, None], "vp": 5, "seat": 0}
    assert shown_points(view, 0) == 3 and own_points(view, 0) == 5 and own_points(view, 1) is None
    assert shown_points({"revealed": [1, 2]}, 0) is None  # Turning Tides' "revealed" is not points


def test_replay_show_counts_the_revealed_cards(tmp_path):
    for seed in range(12):
        record = record_match("catan", bots.make("catan", ["smart"], 3), seed=seed, players=3, directory=tmp_path)
        st = Stepper.load(record.path)
        view = st.view(st.count - 1, "revealed")
        if record.result is not None and record.result.scores != tuple(view["vp_public"]):
            break
    else:
        pytest.skip("no recorded game where victory point cards were shown")
    out = CliRunner().invoke(main, ["replay", "show", str(record.path)])
    assert out.exit_code == 0, out.output
    for s, score in enumerate(record.result.scores):
        assert re.search(rf"seat {s} [^:]*: {score} points", out.output), out.output
    assert f"with {record.result.scores[record.result.winners[0]]} victory points" in out.output


def test_replay_verify_says_the_points_the_winner_reached_and_the_points_to_win(tmp_path):
    """`replay verify` said "seat 0 won (13 victory points), scores [14, ...]": the engine's reason names the points
    needed. It now says the points reached beside the target, as the end of the game does (issue 34, item 3)."""
    record = record_match("catan-ck", bots.make("catan-ck", ["smart"], 3), seed=1, players=3, directory=tmp_path)
    assert record.result is not None
    winner = record.result.winners[0]
    out = CliRunner().invoke(main, ["replay", "verify", str(record.path)])
    assert out.exit_code == 0, out.output
    assert (f"seat {winner} won with {record.result.scores[winner]} victory points "
            f"({engines.get('catan-ck').rules.win_vp} to win)") in out.output, out.output
    assert "won (13 victory points)" not in out.output


def test_a_result_on_points_names_the_points_reached_and_any_other_its_reason():
    assert Result((0,), (14, 9, 5), "13 victory points").describe() == \
        "seat 0 won with 14 victory points (13 to win), scores [14, 9, 5]"
    assert Result((1,), (0, 1), "resign").describe(["ann", "bob"]) == "seat 1 (bob) won (resign), scores [0, 1]"
    assert Result((), (5, 5), "repetition").describe() == "a draw (repetition), scores [5, 5]"
    # two winners, or a score missing: the reason as it stands
    assert Result((0, 1), (10, 10), "10 victory points").points_won() is None
    assert Result((2,), (10, 9), "10 victory points").points_won() is None


def test_the_board_counts_in_the_number_each_count_needs():
    """Issue 34, item 9: the board said "1 points" and "1 settlements". A seat with one of a thing says it in the
    singular, and none or several in the plural, on the terminal board of both Catan games."""
    from client.textview import counted

    assert [counted(n, "point") for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert [counted(n, "city", "cities") for n in (0, 1, 3)] == ["0 cities", "1 city", "3 cities"]
    game = engines.get("catan")
    referee = Referee(game, 3, {}, 3, check_views=False)
    play_match(game, bots.make("catan", ["smart"], 3), 3, 3, table=referee, check_views=False)
    text = board(game.view(referee.state, None), ["ann", "bob", "cy"], 1)
    counts = re.findall(r"\b(\d+) (points?|settlements?|city|cities|roads?|cards?|knights?) ?(played)?", text)
    assert len(counts) >= 15, text   # points, settlements, cities, roads and development cards of each seat
    for n, noun, _ in counts:
        assert (n == "1") == (noun in ("point", "settlement", "city", "road", "card", "knight")), (n, noun, text)
    assert ("1", "city", "") in counts, text   # this game has one
