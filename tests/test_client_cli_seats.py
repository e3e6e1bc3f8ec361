"""Several seats on one peer from the command line (issue 12), real processes over loopback: a host
and a joiner holding two bot seats each in a four-seat Catan game, two people taking turns at one
terminal with the "pass to ..." hand-over, and the one-line errors of the seat options."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support import cpuclock
from support.cpuclock import finished
from support.sessionhelpers import CLI, ROOT, Proc, cli_host, cli_join, processes, replays_of, same_result

from replays.reader import read_replay


def _run(tmp: Path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    env = {"NETPLAY_HOME": str(tmp / "home"), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    return cpuclock.run([*CLI, *args], timeout, cwd=ROOT, env=env)   # CPU seconds, not the clock


def _verify(path: Path) -> subprocess.CompletedProcess:
    return cpuclock.run([*CLI, "replay", "verify", str(path)], 120, cwd=ROOT)


@pytest.mark.slow
def test_four_seat_catan_with_two_bot_seats_on_the_host_and_two_on_a_joiner(tmp_path: Path) -> None:
    with processes() as procs:
        host = cli_host(tmp_path, "catan", "--players", "4", "--seats", "0,1", "--bot", "smart", "--bot", "1=random",
                        "--name", "hostbot", "--option", "max_rounds=12", "-q")   # seats, not the deck
        procs.append(host)
        join = cli_join(tmp_path, host.address(), "--seats", "2", "--bot", "smart", "--name", "joinbot", "-q")
        procs.append(join)
        assert finished(host.proc, 240) == 0, host.describe()
        assert finished(join.proc, 60) == 0, join.describe()
    assert "this peer holds seat 0 (hostbot): bot smart; seat 1 (hostbot-2): bot random" in host.out
    assert "taking 2 seats" in join.out
    files = replays_of(host) + replays_of(join)
    assert len(files) == 2  # one replay per peer, whatever the seats it holds
    header = read_replay(files[0]).header
    assert [name for _, name in header.seats] == ["hostbot", "hostbot-2", "joinbot", "joinbot-2"]
    assert len({key for key, _ in header.seats}) == 4  # every seat signs with a key of its own
    verdict = same_result(files)
    assert verdict.status == "valid" and verdict.result is not None, verdict.reason
    for path in files:
        run = _verify(path)
        assert run.returncode == 0 and "VALID" in run.stdout, run.stdout + run.stderr


@pytest.mark.slow
def test_two_people_at_one_terminal_hand_it_over(tmp_path: Path) -> None:
    """Bert and Bert-2 play Madagaskar at one terminal: each turn is announced with a cleared screen
    and "pass to ...", their board shows only after Enter, and the prompts name the seat."""
    replays = tmp_path / "replays"
    script = "\n".join(["", "1", "", "resign", "y", "n"]) + "\n"
    with processes() as procs:
        me = Proc([*CLI, "host", "madagaskar", "--seats", "0,1", "--name", "Bert", "--bind", "127.0.0.1",
                   "--no-advertise", "--no-fsync", "--replay-dir", str(replays)], tmp_path / "me", "me", stdin=script)
        procs.append(me)
        assert finished(me.proc, 60) == 0, me.describe()
    out = me.out
    assert "seat 0 (Bert): a person at this terminal; seat 1 (Bert-2): a person at this terminal" in out
    first, second = out.index("pass to Bert (seat 0)"), out.index("pass to Bert-2 (seat 1)")
    assert first < out.index("[Bert, seat 0: your move] choose:") < second
    assert second < out.index("[Bert-2, seat 1: your move] choose:")
    # nothing of seat 1's turn is printed between the hand-over and its Enter
    assert out[second:].index("pass to") < out[second:].index("seat 1 (Bert-2) = you")
    assert "game over: Bert won by resignation" in out
    (path,) = replays.glob("*.npr")
    run = _verify(path)
    assert run.returncode == 0 and "VALID" in run.stdout, run.stdout


def test_seat_options_are_one_line_errors(tmp_path: Path) -> None:
    base = ("--no-advertise", "--bind", "127.0.0.1")
    cases = [
        (("host", "ploc", "--seats", "0,0", *base), "name each seat once"),
        (("host", "ploc", "--seats", "0,1", "--seat", "1", *base), "not both"),
        (("host", "ploc", "--seats", "0,1", "--bot", "3=smart", *base), "seat 3 is not one this peer holds (0, 1)"),
        (("host", "ploc", "--seats", "0,2", *base), "--seats: seat 2 is not another seat of this 2-player game"),
        (("host", "ploc", "--seats", "0,x", *base), "expected seat numbers"),
        (("host", "ploc", "--seats", "0,1", "--bot", "1=nobody", *base), "no bot 'nobody'"),
        (("join", "127.0.0.1:9", "--seats", "2", "--bot", "3=smart"), "seat number K of this peer, K 3 is not one"),
    ]
    for args, words in cases:
        run = _run(tmp_path, *args)
        assert run.returncode != 0 and words in run.stderr, (args, run.stderr)
        last = run.stderr.strip().splitlines()[-1]
        assert last.startswith("Error: ") and words in last and "Traceback" not in run.stderr, run.stderr
