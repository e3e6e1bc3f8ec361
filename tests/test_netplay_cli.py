"""The `netplay host/join/play` commands as a user meets them: a person in the terminal against a bot
peer in a second process (with a rematch), and the one-line errors."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support import cpuclock
from support.cpuclock import finished
from support.sessionhelpers import CLI, ROOT, Proc, processes, verdict


def _run(tmp: Path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    env = {"NETPLAY_HOME": str(tmp / "home"), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    return cpuclock.run([*CLI, *args], timeout, cwd=ROOT, env=env)   # CPU seconds, not the clock


@pytest.mark.slow
def test_play_against_a_bot_peer_in_the_terminal_with_a_rematch(tmp_path: Path) -> None:
    replays = tmp_path / "replays"
    with processes() as procs:
        me = Proc([*CLI, "play", "madagaskar", "--vs", "random", "--no-fsync", "--replay-dir", str(replays)],
                  tmp_path / "me", "me", stdin="resign\ny\ny\nresign\nyes\nn\n")
        procs.append(me)
        assert finished(me.proc, 60) == 0, me.describe()
    out = me.out
    assert "you are seat 0" in out and "bot random plays the other seat" in out
    assert out.count("resign: you lose this game at once. Sure?") == 2
    assert out.count("game over: You lost:") == 2 and "won by resignation" in out
    assert out.count("rematch? [y/N]") == 2
    assert "2 games played" in out
    files = sorted(replays.glob("*.npr"))
    assert len(files) == 2
    for path in files:
        v = verdict(path)
        assert v.status == "valid" and v.result["winners"] == [1] and v.result["reason"] == "resign", v.reason


@pytest.mark.slow
def test_a_person_who_quits_mid_game_leaves_it_unfinished(tmp_path: Path) -> None:
    with processes() as procs:
        me = Proc([*CLI, "play", "madagaskar", "--vs", "random", "--no-fsync", "--replay-dir",
                   str(tmp_path / "replays")], tmp_path / "me", "me", stdin="quit\n")
        procs.append(me)
        assert finished(me.proc, 60) == 0, me.describe()  # leaving is the player's choice, not a failure
    assert "you left the table; the game stays unfinished" in me.out
    (path,) = (tmp_path / "replays").glob("*.npr")
    assert verdict(path).status == "unfinished"


def test_unknown_game_bad_seat_and_nothing_to_resume_are_one_line_errors(tmp_path: Path) -> None:
    run = _run(tmp_path, "host", "no-such-game", "--no-advertise", "--bind", "127.0.0.1")
    assert run.returncode != 0 and "unknown game 'no-such-game'" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    run = _run(tmp_path, "host", "ploc", "--seat", "5", "--no-advertise", "--bind", "127.0.0.1")
    assert run.returncode != 0 and "--seat must be 0..1" in run.stderr
    run = _run(tmp_path, "join", "--resume", "--bot", "random")
    assert run.returncode == 1 and "nothing to resume" in run.stderr
    run = _run(tmp_path, "host", "ploc", "--option", "nonsense=1", "--no-advertise", "--bind", "127.0.0.1")
    assert run.returncode != 0 and "has no option 'nonsense'" in run.stderr
    run = _run(tmp_path, "play", "ploc", "--vs", "no-such-bot")
    assert run.returncode != 0 and "unknown bot 'no-such-bot'" in run.stderr


def test_nobody_at_the_address_is_a_one_line_error(tmp_path: Path) -> None:
    run = _run(tmp_path, "join", "127.0.0.1:9", "--bot", "random", "--connect-timeout", "1")
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        "Error: no netplay host answered at 127.0.0.1:9 within 1 s (last problem: bootstrap timed out)"]
