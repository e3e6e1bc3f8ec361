"""Stepping through replays: the Stepper API and `netplay replay show / step / export`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.ledgerkit import GAMES  # noqa: E402

from client.cli import main  # noqa: E402
from client.textview import render_view  # noqa: E402
from engines.core import HIDDEN  # noqa: E402
from replays.reader import read_replay  # noqa: E402
from replays.stepping import Stepper  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
QUEDAH = DATA / "quedah-merchant-valid.npr"


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["replay", *args], input=stdin)


@pytest.mark.parametrize("k", [1, 3, 32])
def test_every_seek_matches_the_signed_digests_in_every_view(k):
    stepper = Stepper(read_replay(DATA / "cards-3p-valid.npr"), GAMES, k=k)
    game = stepper.game
    for mode in stepper.modes:
        for n in [*range(stepper.count - 1, -1, -3), 0]:
            assert game.digest(stepper.state_at(n, mode)) == stepper.frames[n].digest, (mode, n)


def test_views_show_what_each_seat_knew():
    stepper = Stepper(read_replay(DATA / "cards-valid.npr"), GAMES)
    first_play = next(n for n, f in enumerate(stepper.frames) if f.kind == "commit")
    seat0 = stepper.state_at(first_play, "seat 0").inner
    seat1 = stepper.state_at(first_play, "seat 1").inner
    full = stepper.state_at(first_play, "revealed").inner
    public = stepper.state_at(first_play, "spectator").inner
    assert seat0.hands[0] == full.hands[0] and seat0.hands[1] is HIDDEN
    assert seat1.hands[1] == full.hands[1] and seat1.hands[0] is HIDDEN
    assert public.hands == (HIDDEN, HIDDEN) and HIDDEN not in full.hands
    stepper.seek(first_play)
    stepper.set_mode("seat 1")
    assert stepper.view()["hand"] == list(full.hands[1])
    stepper.set_mode("revealed")
    assert [v["hand"] for v in stepper.view()["seats"]] == [list(h) for h in full.hands]


def test_navigation_by_frame_turn_round_and_marks():
    stepper = Stepper(read_replay(QUEDAH))
    assert stepper.seek(-1).frame == -1 and stepper.jump("prev") == -1
    assert stepper.jump("next") == 0
    assert stepper.jump("last") == stepper.count - 1 and stepper.jump("next") == stepper.count - 1
    stepper.jump("first")
    turns = [stepper.jump("next-turn") for _ in range(3)]
    assert turns == stepper.turns[:3] and all(stepper.frames[t].kind == "act" for t in turns)
    assert stepper.jump("prev-turn") == stepper.turns[1]
    stepper.jump("first")
    assert stepper.jump("next-round") == stepper.rounds[0]
    assert stepper.frame_of_turn(2) == stepper.turns[1] and stepper.turn_index(stepper.turns[1]) == 2
    stepper.jump("first")
    mark = stepper.jump("next-mark")
    assert mark in stepper.rolls + stepper.reveals
    assert "chance" in stepper.describe(stepper.rolls[0])
    with pytest.raises(ValueError):
        stepper.frame_of_turn(10_000)
    assert stepper.next_mode() == "spectator"


def test_unfinished_and_disputed_replays_can_be_stepped():
    torn = Stepper(read_replay(DATA / "cards-torn.npr"), GAMES)
    assert torn.verdict.status == "unfinished" and torn.seek(torn.count - 1).frame == 3
    stalled = Stepper(read_replay(DATA / "cards-timeout.npr"), GAMES)  # secrets never revealed
    assert not stalled.revealed_known and stalled.mode == "spectator"
    assert "co-signs the forfeit" in stalled.describe(stalled.count - 1)
    assert any("withheld" in stalled.describe(n) for n in range(stalled.count))
    cheat = Stepper(read_replay(DATA / "cards-cheat.npr"), GAMES)
    assert cheat.disputes and cheat.verdict.status == "invalid"
    cheat.seek(-1)
    while cheat.position != cheat.disputes[0]:
        before = cheat.position
        assert cheat.jump("next-mark") > before
    assert "DISPUTE" in cheat.describe(cheat.disputes[0])


def test_render_view_is_readable_text():
    lines = render_view({"cells": {"a": [1, 2], "b": None}, "long": list(range(60)), "x": "y"})
    assert "cells: {a: [1, 2], b: -}" in lines and lines[-1] == "x: y" and "long:" in lines
    # the static geometry is left out at any depth (a revealed view repeats it per seat)
    nested = render_view({"seats": [{"board": {"edges": [[1, 7]]}, "to_move": 0}]})
    assert not any("edges" in line or "board" in line for line in nested) and any("to_move" in x for x in nested)


def test_show_prints_position_view_and_log():
    result = run("show", str(QUEDAH), "--frame", "10", "--seat", "1", "--frames")
    assert result.exit_code == 0, result.output
    assert "frame 10 of" in result.output and "view: seat 1" in result.output and "frames:" in result.output
    assert "#10 " in result.output and "#11 " not in result.output
    # by default the moves in the game's words, the players by name, and a compact board
    moves = run("show", str(QUEDAH), "--frame", "10")
    assert "moves:" in moves.output and "random-0: move 3 -> 10" in moves.output and "#" not in moves.output
    assert "move 6 of 59" in moves.output and len(moves.output.splitlines()) < 20
    assert "board" not in moves.output and "neighbours" not in moves.output
    end = run("show", str(QUEDAH))
    assert "the end: Random-1 won (no-move)" in end.output, end.output
    by_turn = run("show", str(QUEDAH), "--turn", "2", "--json")
    data = json.loads(by_turn.output)
    assert data["turn"] == 2 and data["view"]["game"] == "quedah-merchant" and data["log"][-1].startswith("2. ")
    assert run("show", str(QUEDAH), "--frame", "9999").exit_code == 2
    assert run("show", str(QUEDAH), "--frame", "1", "--turn", "1").exit_code == 2
    assert run("show", str(QUEDAH), "--seat", "5").exit_code == 2
    assert run("show", str(QUEDAH), "--revealed").exit_code == 0
    unreadable = run("show", str(DATA / "nope.npr"))
    assert unreadable.exit_code == 2 and "cannot read" in unreadable.output


def test_step_reads_commands_from_a_pipe():
    script = "n\nn\nt\nj\ng 12\ns\np\nx\nh\nf\np\nq\n"
    result = run("step", str(QUEDAH), stdin=script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "frame 0 of" in out and "frame 1 of" in out and "frame 12 of" in out and "frame 11 of" in out
    assert "view: spectator" in out and "unknown command 'x'" in out and "(nowhere to go)" in out
    assert run("step", str(QUEDAH), stdin="").exit_code == 0


def test_export_gives_readable_json(tmp_path):
    result = run("export", str(QUEDAH), "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    replay = read_replay(QUEDAH)
    assert data["header"]["game"] == "quedah-merchant" and len(data["frames"]) == len(replay.frames)
    acts = [f for f in data["frames"] if f["kind"] == "act"]
    assert acts and all(isinstance(f["body"]["action"], str) for f in acts)
    assert data["frames"][0]["body"]["chain_length"] >= 1 and len(data["frames"][0]["signature"]) == 128
    out = tmp_path / "x.json"
    assert run("export", str(QUEDAH), "--json", "-o", str(out)).exit_code == 0
    assert json.loads(out.read_text()) == data
    assert json.loads(run("export", str(QUEDAH)).output) == data  # JSON is the default
