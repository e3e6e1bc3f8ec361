"""A whole game between two hosts for real: two network namespaces joined by a veth pair, `netplay host`
in one (bound to and advertising on its veth address only), `netplay join --bot` with no address in
the other, which finds the host by zeroconf across the link and plays. Skips, with the reason, where
namespaces cannot be made (not root, no iproute2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from nethelpers import in_netns, namespaces, netns_unavailable
from sessionhelpers import CLI, Proc, cli_join, processes, replays_of, same_result

pytestmark = [pytest.mark.netns, pytest.mark.slow]


@pytest.fixture(scope="module", autouse=True)
def need_netns() -> None:
    reason = netns_unavailable()
    if reason:
        pytest.skip(reason)


def test_two_peers_in_two_namespaces_find_each_other_and_play(tmp_path: Path) -> None:
    with namespaces(2, multicast=True) as [(ns_a, ip_a), (ns_b, ip_b)], processes() as procs:
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
