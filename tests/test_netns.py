"""Two hosts for real: two network namespaces joined by a veth pair (10.199.N.1/30 and .2, inside
the namespaces only), one process in each. The joiner finds the host by mDNS across the link and
connects with the advertised fingerprint; both exchange messages over the veth. Skips, with the
reason, where namespaces cannot be made (not root, no iproute2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.nethelpers import DISCOVERY_SCRIPT, Peer, in_netns

pytestmark = pytest.mark.netns


def test_host_and_joiner_in_two_namespaces(tmp_path: Path, netns_pair) -> None:
    [(ns_a, ip_a), (ns_b, ip_b)] = netns_pair
    peers: list[Peer] = []
    try:
        host = Peer(["host", "--home", str(tmp_path / "a"), "--name", "hostA", "--bind", ip_a,
                     "--heartbeat", "0.5", "--lifetime", "60"], prefix=in_netns(ns_a))
        peers.append(host)
        ready = host.event("ready", timeout=20)
        assert ready["address"] == f"{ip_a}:{ready['port']}"
        ad = Peer(["advertise", "--interface", ip_a, "--port", str(ready["port"]), "--fingerprint",
                   ready["fingerprint"], "--seats", "1", "--name", "hostA"], prefix=in_netns(ns_a),
                  script=DISCOVERY_SCRIPT)
        peers.append(ad)
        ad.event("ready", timeout=20)
        browser = Peer(["browse", "--interface", ip_b, "--snapshot", "6"], prefix=in_netns(ns_b),
                       script=DISCOVERY_SCRIPT)
        peers.append(browser)
        found = browser.event("snapshot", timeout=20)["hosts"]
        assert [h["address"] for h in found] == [f"{ip_a}:{ready['port']}/{ready['fingerprint']}"]
        join = Peer(["join", found[0]["address"], "--home", str(tmp_path / "b"), "--name", "joinerB",
                     "--heartbeat", "0.5", "--lifetime", "60"], prefix=in_netns(ns_b))
        peers.append(join)
        connected = join.event("connected", timeout=20)
        assert connected["host"] == ready["fingerprint"] and connected["name"] == "hostA"
        joined = host.event("joined", timeout=20)
        assert joined["name"] == "joinerB"
        join.command(send=b"echo:over the veth".hex())
        host.event("message", data=b"echo:over the veth".hex())
        join.event("message", data=b"echo:over the veth".hex())
        host.command(broadcast=b"from host A".hex())
        join.event("message", data=b"from host A".hex())
        assert join.stop() == 0
        host.event("left", name="joinerB")
        assert host.stop() == 0
    finally:
        for peer in peers:
            peer.kill()
    # the namespaces really were separate hosts: B's address is not configured in A
    assert ip_a != ip_b
