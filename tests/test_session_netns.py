"""A whole game between two hosts for real: two network namespaces joined by a veth pair, `netplay host`
in one (bound to and advertising on its veth address only), `netplay join --bot` with no address in
the other, which finds the host by zeroconf across the link and plays; a host killed mid-game and
resumed across the link. Skips, with the reason, where
namespaces cannot be made (not root, no iproute2)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.cpuclock import Budget
from support.nethelpers import in_netns
from support.sessionhelpers import CLI, Proc, cli_join, processes, replays_of, same_result

from replays.codec import FormatError
from replays.reader import read_replay

pytestmark = [pytest.mark.netns, pytest.mark.slow]


def test_two_peers_in_two_namespaces_find_each_other_and_play(tmp_path: Path, netns_pair) -> None:
    [(ns_a, ip_a), (ns_b, ip_b)] = netns_pair
    with processes() as procs:
        home = tmp_path / "host"
        host = Proc([*CLI, "host", "loyal-captain", "--bind", ip_a, "--port", "0", "--bot", "random", "--quiet",
                     "--no-fsync", "--replay-dir", str(home / "replays")], home, "host", prefix=in_netns(ns_a))
        procs.append(host)
        address = host.address()
        assert address.startswith(f"{ip_a}:")
        joiner = cli_join(tmp_path, None, "--bot", "random", "--quiet", "--browse-seconds", "3",
                          "--game", "loyal-captain", prefix=in_netns(ns_b))
        procs.append(joiner)
        assert joiner.wait(90) == 0, joiner.describe()
        assert host.wait(30) == 0, host.describe()
        assert "joining loyal-captain hosted by" in joiner.out
        assert f"connected to random-bot-{address.split('/')[1][:9]} at {address}" in joiner.out
        v = same_result([*replays_of(host), *replays_of(joiner)])
        assert v.status == "valid", v.reason
        assert ip_a != ip_b


def _frames_in(proc: Proc) -> int:
    files = replays_of(proc)
    try:
        return len(read_replay(files[0]).frames) if files else 0
    except (FormatError, OSError):
        return 0


@pytest.mark.netns(multicast=False)
def test_a_host_killed_mid_game_across_two_namespaces_resumes(tmp_path: Path, netns_pair) -> None:
    """Catan, three seats: the host's machine (two bot seats) in one namespace, a joiner in the other.
    The host's process is killed with SIGKILL mid-game; `netplay host --resume` brings it back on the
    same address and port, the joiner reconnects by itself, and both copies end valid and alike."""
    [(ns_a, ip_a), (ns_b, _)] = netns_pair
    with processes() as procs:
        home = tmp_path / "host"
        common = ["--bot", "smart", "--quiet", "--no-fsync", "--replay-dir", str(home / "replays")]
        host = Proc([*CLI, "host", "catan", "--players", "3", "--seats", "0,1", "--bind", ip_a, "--port", "0",
                     "--no-advertise", *common], home, "host", prefix=in_netns(ns_a))
        procs.append(host)
        address = host.address()
        joiner = cli_join(tmp_path, address, "--bot", "smart", "--quiet", prefix=in_netns(ns_b))
        procs.append(joiner)
        budget = Budget(120)   # CPU seconds (tests/support/cpuclock.py)
        while not budget.over() and _frames_in(host) < 60 and host.proc.poll() is None:
            time.sleep(0.05)
        assert host.proc.poll() is None, f"the game ended before the kill\n{host.describe()}"
        host.kill()
        killed_at = _frames_in(host)
        time.sleep(1.0)                                      # the joiner hears nothing for a while
        again = Proc([*CLI, "host", "--resume", *common], home, "again", prefix=in_netns(ns_a))
        procs.append(again)
        assert again.wait(300) == 0, again.describe() + joiner.describe()
        assert joiner.wait(60) == 0, joiner.describe()
        assert "resum" in again.out, again.out
        files = [*replays_of(host), *replays_of(joiner)]
        assert len(files) == 2
        v = same_result(files)
        assert v.status == "valid" and v.frames > killed_at, (v.reason, killed_at)
