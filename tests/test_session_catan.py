"""Catan over the network (issue 13): four peers on loopback with bots, a hot-seat peer beside two
bot peers, and two machines (network namespaces) each with a person and a bot. Every replay verifies,
which for Catan means the audit decrypted every development card dealt and re-checked every play,
claim and reveal with full knowledge."""

from __future__ import annotations

from pathlib import Path

import pytest
from nethelpers import in_netns, namespaces, netns_unavailable
from sessionhelpers import deck_peer, processes, replays_of

from replays.audit import audit_file
from replays.reader import read_replay

pytestmark = pytest.mark.slow
SHORT = ("--game", "catan", "--option", "max_rounds=20")


def _verified(procs_: list) -> None:
    files = [replays_of(p)[0] for p in procs_]
    verdicts = [audit_file(f) for f in files]
    first = verdicts[0]
    assert first.status == "valid", first.reason
    for v in verdicts[1:]:
        assert (v.status, v.result, v.frames) == (first.status, first.result, first.frames), v.reason
    kinds = [f.kind for f in read_replay(files[0]).frames]
    return kinds


def test_four_catan_peers_with_bots(tmp_path: Path) -> None:
    with processes() as procs:
        host = deck_peer(tmp_path, "host", *SHORT, "--bot", "smart", tag="host")
        procs.append(host)
        address = host.address()
        joiners = [deck_peer(tmp_path, "join", address, "--bot", bot, tag=f"join{i}")
                   for i, bot in enumerate(("random", "smart", "random"))]
        procs.extend(joiners)
        for p in [host, *joiners]:
            assert p.wait(240) == 0, p.describe()
        kinds = _verified([host, *joiners])
        assert "shuffle" in kinds and "strip" in kinds, "no development card was bought"


def test_a_hot_seat_peer_with_two_people_beside_two_bot_peers(tmp_path: Path) -> None:
    with processes() as procs:
        host = deck_peer(tmp_path, "host", *SHORT, "--also", "1", "--humans", "2", tag="host")
        procs.append(host)
        address = host.address()
        joiners = [deck_peer(tmp_path, "join", address, "--bot", "smart", tag=f"join{i}") for i in range(2)]
        procs.extend(joiners)
        for p in [host, *joiners]:
            assert p.wait(240) == 0, p.describe()
        _verified([host, *joiners])
        assert "you are seats 0, 1" in host.out


@pytest.mark.netns
def test_two_machines_each_with_a_person_and_a_bot(tmp_path: Path) -> None:
    reason = netns_unavailable()
    if reason:
        pytest.skip(reason)
    with namespaces(2) as [(ns_a, ip_a), (ns_b, _)], processes() as procs:
        host = deck_peer(tmp_path, "host", *SHORT, "--bind", ip_a, "--also", "1", "--humans", "1", "--bot", "smart",
                         tag="host", prefix=in_netns(ns_a))
        procs.append(host)
        address = host.address()
        assert address.startswith(ip_a)
        joiner = deck_peer(tmp_path, "join", address, "--also", "1", "--humans", "1", "--bot", "smart",
                           tag="join", prefix=in_netns(ns_b))
        procs.append(joiner)
        assert host.wait(300) == 0, host.describe()
        assert joiner.wait(60) == 0, joiner.describe()
        _verified([host, joiner])
