"""`netplay host --spectators N` and `netplay watch HOST:PORT` as a user meets them: three real processes over
loopback (a host and a joiner, bots, and a spectator), the spectator's copy the complete game; and the one-line
error of an address where nobody answers. Machine-level: tests/test_spectators.py."""

from __future__ import annotations

import re
import time
from pathlib import Path

from support import cpuclock
from support.cpuclock import Budget, finished
from support.sessionhelpers import CLI, ROOT, Proc, cli_host, cli_join, processes, replays_of, verdict

from netplay.identity import KnownPeers
from replays.reader import read_replay


def _line(proc: Proc, pattern: str, timeout: float = 20.0) -> re.Match:
    """A line the process prints, waited for in CPU seconds (tests/support/cpuclock.py), not on the clock."""
    budget = Budget(timeout, (proc.proc.pid,), wall_cap=max(120.0, 6 * timeout))
    while not budget.over():
        found = re.search(pattern, proc.out)
        if found:
            return found
        assert proc.proc.poll() is None, proc.describe()
        time.sleep(0.05)
    raise AssertionError(f"{proc.tag} never printed {pattern!r}\n{proc.describe()}")


def _lines(proc: Proc, pattern: str, count: int, timeout: float = 20.0) -> list[str]:
    """`count` lines the process prints that match, waited for as `_line` waits."""
    budget = Budget(timeout, (proc.proc.pid,), wall_cap=max(120.0, 6 * timeout))
    while not budget.over():
        found = re.findall(pattern, proc.out)
        if len(found) >= count:
            return found
        assert proc.proc.poll() is None, proc.describe()
        time.sleep(0.05)
    raise AssertionError(f"{proc.tag} printed {pattern!r} fewer than {count} times\n{proc.describe()}")


def test_a_spectator_watches_a_live_game_and_its_copy_is_the_complete_game(tmp_path: Path) -> None:
    with processes() as procs:
        host = cli_host(tmp_path, "quedah-merchant", "--bot", "random", "--spectators", "2", "--spectator-delay", "5",
                        "--spectator-chat")
        procs.append(host)
        watch = _line(host, r"watch with: netplay watch (\S+)").group(1)
        copy = tmp_path / "copy.npr"
        spectator = Proc([*CLI, "watch", watch, "--out", str(copy), "--no-fsync", "--name", "fan"],
                         tmp_path / "spectator", "spectator")
        procs.append(spectator)
        _line(host, r"spectator fan \(\S+\) watches from frame 0")       # in before the game starts
        # a second person of the same name (another key): a spectator's name is no pin, so both watch
        other = Proc([*CLI, "watch", watch, "--out", str(tmp_path / "other.npr"), "--no-fsync", "--name", "fan"],
                     tmp_path / "other", "other")
        procs.append(other)
        assert len(_lines(host, r"spectator fan \(\S+\) watches from frame 0", 2)) == 2
        joiner = cli_join(tmp_path, host.address(), "--bot", "random", "-q")
        procs.append(joiner)
        assert finished(joiner.proc, 60) == 0, joiner.describe()
        assert finished(spectator.proc, 60) == 0, spectator.describe()
        assert finished(other.proc, 60) == 0, other.describe()
        assert finished(host.proc, 60) == 0, host.describe()
    pins = KnownPeers(tmp_path / "host" / "known_peers.json")
    assert pins.names() and pins.get("fan") is None         # the host pinned its joiner, and neither spectator
    assert verdict(tmp_path / "other.npr").status == "valid"
    out = spectator.out
    assert "5 frame(s) behind the players" in out and re.search(r"frame 5: chance: die", out), out
    assert f"the copy is {copy}" in out
    seen = verdict(copy)
    assert seen.status == "valid" and "spectator's copy" in seen.reason, seen.reason
    (played,) = replays_of(host)
    (joined,) = replays_of(joiner)
    assert verdict(played).result == seen.result and verdict(joined).status == "valid"
    mine, theirs = read_replay(copy), read_replay(played)
    assert [f.hash for f in mine.frames] == [f.hash for f in theirs.frames] == [f.hash for f in
                                                                                  read_replay(joined).frames]
    assert theirs.header == mine.header and theirs.header.minor == 3 and not theirs.releases
    assert theirs.header.spectating.chat and "they hear the players' chat" in host.out
    # the clocks as the host counted them, said as the frames come (the default terms have a move clock)
    assert re.search(r"clocks at frame \d+: .*\d+:\d\d", out), out


def test_spectator_chat_without_spectators_is_a_usage_error(tmp_path: Path) -> None:
    proc = Proc([*CLI, "host", "ploc", "--spectator-chat", "--no-advertise"], tmp_path / "host", "host")
    assert finished(proc.proc, 30) == 2, proc.describe()
    assert "give --spectators N too" in proc.err


def test_watching_where_nobody_answers_is_a_one_line_error(tmp_path: Path) -> None:
    env = {"NETPLAY_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = cpuclock.run([*CLI, "watch", "127.0.0.1:9", "--connect-timeout", "1"], 30, cwd=ROOT, env=env)
    assert result.returncode == 1 and "no netplay host answered at 127.0.0.1:9" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_spectator_that_stops_reading_never_holds_up_the_game(tmp_path: Path) -> None:
    """A spectator process frozen (SIGSTOP: it neither reads nor answers, as a half-open link or a hung machine)
    once it watches: the host sends it frames without waiting, the players play on to the end, and the host's
    close waits for it a bounded time (SPECTATOR_WAIT_S)."""
    import os
    import signal

    with processes() as procs:
        host = cli_host(tmp_path, "quedah-merchant", "--bot", "random", "--spectators", "1", "--spectator-delay", "2")
        procs.append(host)
        watch = _line(host, r"watch with: netplay watch (\S+)").group(1)
        spectator = Proc([*CLI, "watch", watch, "--out", str(tmp_path / "copy.npr"), "--no-fsync"],
                         tmp_path / "spectator", "spectator")
        procs.append(spectator)
        _line(host, r"spectator \S+ \(\S+\) watches from frame 0")
        os.kill(spectator.proc.pid, signal.SIGSTOP)
        try:
            joiner = cli_join(tmp_path, host.address(), "--bot", "random", "-q")
            procs.append(joiner)
            assert finished(joiner.proc, 60) == 0, joiner.describe()
            assert finished(host.proc, 60) == 0, host.describe()
        finally:
            os.kill(spectator.proc.pid, signal.SIGCONT)
    (played,) = replays_of(host)
    assert verdict(played).status == "valid"


def test_with_the_chat_term_a_spectator_hears_what_a_player_says_with_the_frame_it_was_said_at(tmp_path: Path) -> None:
    """A person at the joiner's terminal says a line (`say ...`), then resigns; the spectator, watching with the
    game's chat term (`--spectator-chat`), prints the line, no sooner than the frame it was said at."""
    with processes() as procs:
        host = cli_host(tmp_path, "quedah-merchant", "--bot", "random", "--spectators", "1", "--spectator-delay", "2",
                        "--spectator-chat", "--reveal-timeout", "5")
        procs.append(host)
        watch = _line(host, r"watch with: netplay watch (\S+)").group(1)
        copy = tmp_path / "copy.npr"
        spectator = Proc([*CLI, "watch", watch, "--out", str(copy), "--no-fsync", "--name", "fan"],
                         tmp_path / "spectator", "spectator")
        procs.append(spectator)
        _line(host, r"spectator fan \(\S+\) watches from frame 0")
        joiner = Proc([*CLI, "join", host.address(), "--no-fsync", "--name", "ann", "--replay-dir",
                       str(tmp_path / "join" / "replays")], tmp_path / "join", "join",
                      stdin="say good luck, captain\nresign\ny\nn\n")
        procs.append(joiner)
        assert finished(joiner.proc, 60) == 0, joiner.describe()
        assert finished(spectator.proc, 60) == 0, spectator.describe() + joiner.describe()
        assert finished(host.proc, 60) == 0, host.describe()
    assert "they hear the players' chat" in joiner.out, joiner.out     # the term, as the joiner was offered it
    out = spectator.out
    assert "chat ann: good luck, captain" in out, out
    # ann spoke at her first move, after frame 2 (the host's): the line comes after that frame, never before
    assert out.index("frame 2: ") < out.index("chat ann: good luck, captain"), out
    assert "chat ann: good luck, captain" in host.out
    assert verdict(copy).status == "valid"
