"""Resign, draw offers and rematches over the network, each between two real processes."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.sessionhelpers import cli_host, cli_join, peer, processes, replays_of, same_result

import engines
from replays.stepping import Stepper

pytestmark = pytest.mark.slow


def _play(tmp: Path, game: str, host_script: str, join_script: str) -> tuple:
    with processes() as procs:
        host = peer(tmp, "host", game, "--script", host_script, tag="host")
        procs.append(host)
        joiner = peer(tmp, "join", host.address(), "--script", join_script, tag="join")
        procs.append(joiner)
        assert host.wait(60) == 0, host.describe()
        assert joiner.wait(30) == 0, joiner.describe()
        return host, joiner, same_result([*replays_of(host), *replays_of(joiner)])


def test_resign_over_the_network(tmp_path: Path) -> None:
    host, joiner, v = _play(tmp_path, "loyal-captain", "", "resign")
    assert v.status == "valid", v.reason
    assert v.result["winners"] == [0] and v.result["reason"] == "resign"
    # the scores after a resignation are the game's own count at that moment (stones in play),
    # recomputed here from the replay's last position independently of the audit
    stepper = Stepper.load(replays_of(host)[0])
    final = stepper.state_at(stepper.count - 1, "revealed")
    assert v.result["scores"] == list(engines.get("loyal-captain").rules.scores(final.inner, (1,)))
    assert "seat 1: resign" in host.out


def test_a_draw_offer_accepted_over_the_network(tmp_path: Path) -> None:
    host, joiner, v = _play(tmp_path, "madagaskar", "offer draw", "accept draw")
    assert v.status == "valid", v.reason
    assert v.result["winners"] == [] and v.result["reason"] == "agreement"  # madagaskar names it so
    assert "offer draw" in joiner.out and "accept draw" in host.out


def test_a_draw_offer_declined_and_the_game_goes_on(tmp_path: Path) -> None:
    host, joiner, v = _play(tmp_path, "madagaskar", "offer draw", "decline draw")
    assert v.status == "valid", v.reason
    assert v.result["reason"] != "agreement"
    assert "decline draw" in host.out


def test_rematch_plays_a_new_game_with_the_same_seats(tmp_path: Path) -> None:
    with processes() as procs:
        host = cli_host(tmp_path, "madagaskar", "--bot", "random", "--games", "2")
        procs.append(host)
        joiner = cli_join(tmp_path, host.address(), "--bot", "random", "--games", "3", "--quiet")
        procs.append(joiner)
        assert host.wait(60) == 0, host.describe()
        assert joiner.wait(30) == 0, joiner.describe()
        host_files, join_files = replays_of(host), replays_of(joiner)
        assert len(host_files) == len(join_files) == 2
        games = []
        for pair in zip(host_files, join_files, strict=True):
            v = same_result(list(pair))
            assert v.status == "valid", v.reason
            games.append(v)
        assert games[0].seats[0]["key"] == games[1].seats[0]["key"]
        assert games[0].seats[1]["key"] == games[1].seats[1]["key"]
        sessions = {f.name.rsplit("_", 1)[1] for f in host_files}
        assert len(sessions) == 2                      # a new session id for the rematch
        assert "wants a rematch" in host.out and "rematch: a new game with the same seats" in host.out
        assert "2 games played" in host.out and "2 games played" in joiner.out
        assert "the host left: no more games" in joiner.out
