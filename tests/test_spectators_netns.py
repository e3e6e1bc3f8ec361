"""Issue 35's whole path on three machines of one LAN (network namespaces: a bridge in the first, a veth to each
of the others): two players' peers play Catan in the first two, as the README writes the commands (`netplay
host` advertised on the LAN, `netplay join`), and two spectators in the third find the game in their Pygame
lobby's LAN list (zeroconf, live), click "watch" and follow it to its end (tests/support/lobby_peer.py, headless);
a third watches in the terminal, `netplay watch` with no address, picking the game from the LAN's list.
Every spectator's copy verifies as a spectator's copy of the complete game, frame for frame the players' own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cpuclock import finished
from support.nethelpers import LOBBY_SCRIPT, Peer, in_netns, namespaces
from support.sessionhelpers import CLI, Proc, processes, replays_of, verdict

from replays.reader import read_replay

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
SPECTATORS = 2


@pytest.fixture
def lan(netns) -> Iterator[list[tuple[str, str]]]:
    with namespaces(3, multicast=True) as three:
        yield three


@pytest.mark.netns
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_spectators_on_a_third_machine_watch_a_catan_game_through_the_lobby(tmp_path: Path, lan) -> None:
    (ns_host, ip_host), (ns_join, _), (ns_watch, _) = lan
    shot = ARTIFACTS / "watch-netns-catan.png"
    shot.unlink(missing_ok=True)
    watchers: list[Peer] = []
    try:
        with processes() as procs:
            # the players: the host's peer holds seats 0 and 1, the joiner's 2 and 3, all bots; a bot waits
            # 0.2 s before each move, so the game lasts while the spectators find it (their lobby's list)
            host = Proc([*CLI, "host", "catan", "--players", "4", "--seats", "0,1", "--bot", "medium", "--bind",
                         "0.0.0.0", "--spectators", str(SPECTATORS + 1), "--spectator-delay", "8", "--option",
                         "max_rounds=8", "--bot-delay", "0.2", "--no-fsync", "--replay-dir",
                         str(tmp_path / "host" / "replays"), "-q"], tmp_path / "host", "host", prefix=in_netns(ns_host))
            procs.append(host)
            address = host.address()
            assert address.startswith(ip_host), address
            for n in range(SPECTATORS):
                # two people of one name (user@host) and two keys: a spectator's name is a label the host pins for
                # neither of them (HostMachine.pins)
                env = ["env", f"NETPLAY_HOME={tmp_path / f'watch{n}'}", "USER=watcher", "LOGNAME=watcher",
                       "SDL_VIDEODRIVER=dummy", "SDL_AUDIODRIVER=dummy"]
                extra = ["--screenshot", str(shot)] if n == 0 else []
                watchers.append(Peer(["watch", "catan", *extra, "--cpu", "120", "--wall", "600"],
                                     prefix=[*in_netns(ns_watch), *env], script=LOBBY_SCRIPT))
            for watcher in watchers:
                assert watcher.event("lobby", timeout=30)["discovery"], watcher.seen
            joiner = Proc([*CLI, "join", address, "--seats", "2", "--bot", "medium", "--no-fsync", "--replay-dir",
                           str(tmp_path / "join" / "replays"), "-q"], tmp_path / "join", "join",
                          prefix=in_netns(ns_join))
            procs.append(joiner)
            for watcher in watchers:
                found = watcher.event("found", timeout=60)
                assert found["hosts"][0]["address"] == address, found
                assert watcher.event("watching", timeout=60)["frames"] > 0
            # the terminal's spectator: the game is under way (the lobbies saw it so), listed, picked as 1
            terminal = Proc([*CLI, "watch", "--browse-seconds", "3", "--no-fsync", "--replay-dir",
                             str(tmp_path / "terminal" / "replays")], tmp_path / "terminal", "terminal",
                            prefix=[*in_netns(ns_watch), "env", "USER=watcher-t", "LOGNAME=watcher-t"], stdin="1\n")
            procs.append(terminal)
            watchers[0].event("screenshot", timeout=30)
            ends = [watcher.event("watched", timeout=300) for watcher in watchers]
            assert finished(joiner.proc, 120) == 0, joiner.describe()
            assert finished(host.proc, 120) == 0, host.describe()
            for watcher in watchers:
                assert finished(watcher.proc, 30) == 0, watcher.stderr[-3000:]
            assert finished(terminal.proc, 60) == 0, terminal.describe()
        assert all(end["code"] == 0 for end in ends), ends
        (played,) = replays_of(host)
        (joined,) = replays_of(joiner)
        frames = [f.hash for f in read_replay(played).frames]
        assert [f.hash for f in read_replay(joined).frames] == frames
        assert "watching catan hosted by" in terminal.out and "frame 20:" in terminal.out, terminal.out[-2000:]
        copies = [Path(end["copy"]) for end in ends] + list((tmp_path / "terminal" / "replays").glob("*.npr"))
        assert len(copies) == SPECTATORS + 1
        for copy in copies:
            seen = verdict(copy)
            assert seen.status == "valid" and "spectator's copy" in seen.reason, seen.reason
            mine = read_replay(copy)
            assert [f.hash for f in mine.frames] == frames and mine.spectator is not None
            assert len(mine.releases) == len(frames)
        assert shot.exists()
    finally:
        for watcher in watchers:
            watcher.kill()
