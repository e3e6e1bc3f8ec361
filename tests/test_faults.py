"""Faults, not lies: a peer killed with SIGKILL at a random moment, a lossy network, a disk that fills
up or a replay directory that cannot be written.

kill -9: seeded games whose every input is fixed (tests/support/session_peer.py --inputs: session id, seeds
and every bot decision derive from the seed), so an interrupted game can be compared with an
uninterrupted one. The survivor's replay is a valid prefix; every frame a joiner acknowledged is in its
file; a killed peer, joiner or host (`host --resume`, on the port its joiner knows), resumes and the
game ends with the same frames and the same result as the uninterrupted run.
Quick form: a few seeds; NETPLAY_LONG=1: a hundred."""

from __future__ import annotations

import os
import random
import re
import resource
import signal
import subprocess
import time
from pathlib import Path

import pytest
from support.cpuclock import Budget
from support.nethelpers import in_netns, namespaces, netns_unavailable
from support.sessionhelpers import CLI, Proc, cli_host, cli_join, peer, processes, replays_of, same_result

import engines
from replays.audit import audit_file
from replays.codec import FormatError
from replays.reader import read_replay

pytestmark = pytest.mark.slow

LONG = os.environ.get("NETPLAY_LONG") == "1"
GAMES = sorted(g for g, game in engines.GAMES.items() if 2 in game.players)
KILL_SEEDS = range(100) if LONG else range(3)


def _frames(path: Path) -> list:
    try:
        return read_replay(path).frames
    except (FormatError, OSError):
        return []


def _content(frames: list) -> list[tuple]:
    """What a game is, whoever's keys signed it: every frame's seat, kind, body and state digest."""
    return [(f.seq, f.seat, f.kind, f.body, f.digest) for f in frames]


def _play(tmp: Path, game: str, inputs: str, tag: str, kill: tuple[str, int] | None = None) -> dict:
    """One game between two session peers with fixed inputs; `kill` = (victim, after N frames)."""
    common = ("--inputs", inputs, "--reveal-timeout", "10", "--lifetime", "90")
    report: dict = {"killed": None}
    with processes() as procs:
        host = peer(tmp, "host", game, *common, "--print-acks", tag=f"{tag}-host")
        procs.append(host)
        address = host.address()
        join = peer(tmp, "join", address, *common, tag=f"{tag}-join")
        procs.append(join)
        if kill is not None:
            victim, after = (host if kill[0] == "host" else join), kill[1]
            budget = Budget(60)   # CPU seconds (tests/support/cpuclock.py)
            while not budget.over() and victim.proc.poll() is None:
                files = replays_of(victim)
                if files and len(_frames(files[0])) >= after:
                    break
                time.sleep(0.005)
            if victim.proc.poll() is None:
                victim.kill()
                report["killed"] = kill[0]
                report["at"] = len(_frames(replays_of(victim)[0])) if replays_of(victim) else 0
        if report["killed"] == "join":
            acked = [int(m) for m in re.findall(r"^acked 1 (\d+)$", host.out, re.M)]
            (mine,) = replays_of(join)
            report["acked"], report["kept"] = max(acked, default=-1), len(_frames(mine))
            v = audit_file(mine)
            assert v.status in ("unfinished", "valid") and v.blame is None, v.reason      # a valid prefix
            if v.status == "unfinished":       # (killed after its last frame, it has nothing to resume)
                again = peer(tmp, "join", address, *common, "--resume", tag=f"{tag}-join")
                procs.append(again)
                assert again.wait(90) == 0, again.describe() + host.describe()
                assert "resuming session" in again.out
            assert host.wait(30) == 0, host.describe()
        elif report["killed"] == "host":
            time.sleep(0.5)                          # the joiner hears nothing more while the host is down
            (theirs,) = replays_of(join)
            (mine,) = replays_of(host)
            # everything the joiner holds, the host wrote before it relayed: a prefix of the host's file
            report["prefix"], report["host_frames"] = _frames(theirs), _frames(mine)
            v = audit_file(mine)
            assert v.status in ("unfinished", "valid") and v.blame is None, v.reason
            if v.status == "unfinished":
                again = peer(tmp, "host", game, *common, "--resume", tag=f"{tag}-host")
                procs.append(again)
                assert again.wait(90) == 0, again.describe() + join.describe()
                assert "resuming session" in again.out
            assert join.wait(90) == 0, join.describe()
        else:
            assert join.wait(90) == 0, join.describe()
            assert host.wait(30) == 0, host.describe()
        files = [*replays_of(host), *replays_of(join)]
        verdict = same_result(files)
        assert verdict.status == "valid", verdict.reason
        report["verdict"] = verdict
        report["frames"] = _content(_frames(files[0]))
    return report


@pytest.mark.parametrize("seed", KILL_SEEDS)
def test_kill_9_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    rng = random.Random(f"kill-{seed}")
    game = GAMES[seed % len(GAMES)]
    victim = "host" if seed % 3 == 0 else "join"      # a third of the games lose their host
    after = rng.randrange(1, 80)
    inputs = f"kill-{seed}"
    reference = _play(tmp_path, game, inputs, "ref")
    hurt = _play(tmp_path, game, inputs, "hurt", kill=(victim, after))
    print(f"kill seed {seed}: {game}, {victim} after {after} frames: killed {hurt['killed']} at frame "
          f"{hurt.get('at')}, {len(reference['frames'])} frames in all")
    if hurt["killed"] == "host":
        prefix, host_frames = hurt["prefix"], hurt["host_frames"]
        assert [f.hash for f in prefix] == [f.hash for f in host_frames[:len(prefix)]]
        assert _content(host_frames) == reference["frames"][:len(host_frames)]
    if hurt["killed"] == "join":
        assert hurt["kept"] >= hurt["acked"] + 1, hurt            # zero acknowledged frames lost
    assert hurt["frames"] == reference["frames"]                   # the same game, frame for frame
    assert hurt["verdict"].result == reference["verdict"].result


# ---------------------------------------------------------------------------------------------- netem

def _netem_unavailable() -> str | None:
    reason = netns_unavailable()
    if reason:
        return reason
    if subprocess.run(["which", "tc"], capture_output=True).returncode != 0:
        return "tc (iproute2) is not installed"
    with namespaces(1) as [(ns, _)]:
        made = subprocess.run([*in_netns(ns), "tc", "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms"],
                              capture_output=True, text=True, timeout=10)
    if made.returncode != 0:
        return f"the netem qdisc is not available here: {made.stderr.strip() or made.stdout.strip()}"
    return None


@pytest.mark.netns(multicast=False)
@pytest.mark.parametrize("game", ["quedah-merchant", "turning-tides"] if LONG else ["quedah-merchant"])
def test_two_hosts_over_a_lossy_reordering_link(tmp_path: Path, game: str, netns_pair) -> None:
    reason = _netem_unavailable()
    if reason:
        pytest.skip(reason)
    [(ns_a, ip_a), (ns_b, _)] = netns_pair
    with processes() as procs:
        for ns in (ns_a, ns_b):
            dev = subprocess.run([*in_netns(ns), "ip", "-o", "link"], capture_output=True, text=True).stdout
            veth = re.search(r"\d+: (npv\w+)@", dev).group(1)
            subprocess.run([*in_netns(ns), "tc", "qdisc", "add", "dev", veth, "root", "netem", "delay", "50ms",
                            "20ms", "loss", "2%", "reorder", "10%"], check=True, capture_output=True, timeout=10)
        home = tmp_path / "host"
        host = Proc([*CLI, "host", game, "--bind", ip_a, "--port", "0", "--bot", "random", "--quiet", "--no-advertise",
                     "--no-fsync", "--replay-dir", str(home / "replays")], home, "host", prefix=in_netns(ns_a))
        procs.append(host)
        joiner = cli_join(tmp_path, host.address(), "--bot", "random", "--quiet", prefix=in_netns(ns_b))
        procs.append(joiner)
        assert joiner.wait(300) == 0, joiner.describe()
        assert host.wait(60) == 0, host.describe()
        v = same_result([*replays_of(host), *replays_of(joiner)])
        assert v.status == "valid", v.reason


# ---------------------------------------------------------------------------------------------- the disk

def test_an_unwritable_replay_directory_is_a_clear_error_before_the_game_starts(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the replay directory should be")
    with processes() as procs:
        host = cli_host(tmp_path, "madagaskar", "--bot", "random", "--replay-dir", str(blocker / "replays"))
        procs.append(host)
        address = host.address()
        joiner = cli_join(tmp_path, address, "--bot", "random", "--connect-timeout", "2")
        procs.append(joiner)
        assert host.wait(30) == 1, host.describe()
        err = host.err.strip().splitlines()
        assert err == [f"netplay: cannot write replays to {blocker / 'replays'}: Not a directory"], host.describe()
        assert joiner.wait(30) == 1, joiner.describe()
        assert "Traceback" not in joiner.err
        assert not replays_of(joiner) or not _frames(replays_of(joiner)[0])


def _limit_file_size(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)         # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


@pytest.mark.parametrize("who", ["host", "join"])
def test_a_disk_that_fills_up_mid_game_is_a_clear_error_and_loses_nothing_acknowledged(tmp_path: Path,
                                                                                        who: str) -> None:
    """The peer's files cannot grow past 6 KiB (RLIMIT_FSIZE, as on a full disk): it stops with a clear error
    and exit 1; the other side never holds a frame from it that is not in its file (the host relays, and a
    joiner acknowledges, only what it wrote)."""
    limit = _limit_file_size(6 * 1024)
    with processes() as procs:
        host = peer(tmp_path, "host", "madagaskar", "--quiet", "--reveal-timeout", "2", "--lifetime", "60",
                    *(() if who == "host" else ("--print-acks",)), tag="host", preexec=limit if who == "host" else None)
        procs.append(host)
        join = peer(tmp_path, "join", host.address(), "--quiet", "--lifetime", "60", tag="join",
                    preexec=limit if who == "join" else None)
        procs.append(join)
        full, other = (host, join) if who == "host" else (join, host)
        assert full.wait(60) == 1, full.describe()
        assert re.search(r"^outcome 1 cannot go on: .*File too large", full.out, re.M), full.describe()
        other.wait(60)
        (mine,) = replays_of(full)
        assert 0 < mine.stat().st_size <= 6 * 1024
        kept = _frames(mine)
        theirs = _frames(replays_of(other)[0])
        assert kept, "the game stopped before its first frame"
        if who == "host":   # every frame the joiner holds, the host has written
            assert len(theirs) <= len(kept), (len(theirs), len(kept))
            assert [f.hash for f in theirs] == [f.hash for f in kept[:len(theirs)]]
        else:               # every frame the joiner acknowledged is in its file
            acked = [int(m) for m in re.findall(r"^acked 1 (\d+)$", host.out, re.M)]
            assert acked and max(acked) < len(kept), (acked[-3:], len(kept))
            assert [f.hash for f in kept] == [f.hash for f in theirs[:len(kept)]]
