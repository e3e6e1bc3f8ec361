"""zeroconf discovery. The record handling is tested directly; live mDNS runs between two processes
inside a network namespace this test makes (its loopback with multicast switched on), because the
machine's own loopback does not carry multicast and no test may send anywhere else."""

from __future__ import annotations

import pytest
from support.nethelpers import DISCOVERY_SCRIPT, Peer, in_netns, namespaces, netns_unavailable
from zeroconf import ServiceInfo

from netplay.discovery import SERVICE, HostInfo, _host_info, _instance_name, _txt
from netplay.identity import Identity

FP = "3f2a-91c0-77de-0b14"


def info(props: dict, port: int = 4000, addresses: tuple[bytes, ...] = (bytes([10, 0, 0, 7]),)) -> ServiceInfo:
    return ServiceInfo(SERVICE, f"alice 3f2a-91c0.{SERVICE}", port=port, properties=props,
                       addresses=list(addresses), server="netplay-x.local.")


def test_txt_record_is_validated() -> None:
    txt = _txt("madagaskar", "0.1.0", FP, 2, "alice@box")
    assert txt == {"game": "madagaskar", "version": "0.1.0", "fingerprint": FP, "seats": "2", "host": "alice@box"}
    with pytest.raises(ValueError, match="fingerprint"):
        _txt("g", "1", "3f2a91c0", 1, "a")
    with pytest.raises(ValueError, match="negative"):
        _txt("g", "1", FP, -1, "a")
    with pytest.raises(ValueError, match="too long"):
        _txt("g", "1", FP, 1, "a" * 300)


def test_advertisement_is_read_back_and_bad_ones_ignored() -> None:
    host = _host_info(info(_txt("toy", "0.1.0", FP, 1, "alice")))
    assert host == HostInfo("alice 3f2a-91c0", "alice", ("10.0.0.7",), 4000, "toy", "0.1.0", FP, 1)
    assert host.address == f"10.0.0.7:4000/{FP}"
    good = {"game": "g", "version": "1", "fingerprint": FP, "seats": "1", "host": "h"}
    for bad in ({**good, "fingerprint": "nope"}, {**good, "seats": "many"}, {**good, "seats": "-2"},
                {k: v for k, v in good.items() if k != "game"}, {**good, "host": b"\xff\xfe"}):
        assert _host_info(info(bad)) is None
    assert _host_info(info(good, addresses=())) is None


def test_a_running_game_says_how_many_spectators_it_takes() -> None:
    """The `watch` field: absent (0) for a host that takes none, so a record reads as an older netplay's did;
    a number of at most three digits; anything else draws no entry."""
    assert "watch" not in _txt("ploc", "1", FP, 0, "alice")
    running = _txt("ploc", "1", FP, 0, "alice", watch=3)
    assert running["watch"] == "3"
    assert _host_info(info(running)).watch == 3
    assert _host_info(info(_txt("ploc", "1", FP, 1, "alice"))).watch == 0
    for bad in ("-1", "x", "1000", ""):
        assert _host_info(info({**running, "watch": bad})) is None
    with pytest.raises(ValueError, match="negative"):
        _txt("g", "1", FP, 0, "a", watch=-1)


def test_instance_name_is_a_single_label() -> None:
    name = _instance_name("alice.smith@box.local", Identity.generate().fingerprint)
    assert "." not in name and len(name.encode()) <= 63


@pytest.mark.netns
def test_advertise_and_browse_live() -> None:
    reason = netns_unavailable()
    if reason:
        pytest.skip(f"live mDNS needs a private network namespace: {reason}")
    with namespaces(1, multicast=True) as [(ns, ip)]:
        ad = Peer(["advertise", "--interface", ip, "--port", "4567", "--fingerprint", FP, "--seats", "2",
                   "--name", "alice@box"], prefix=in_netns(ns), script=DISCOVERY_SCRIPT)
        br = None
        try:
            ad.event("ready", timeout=20)
            # the one-shot browse is a window of time; on a loaded 2-core CI machine 2 s once saw nothing
            br = Peer(["browse", "--interface", ip, "--snapshot", "6"], prefix=in_netns(ns), script=DISCOVERY_SCRIPT)
            snap = br.event("snapshot", timeout=20)["hosts"]
            assert [(h["host_name"], h["port"], h["free_seats"], h["fingerprint"], h["game"]) for h in snap] == \
                [("alice@box", 4567, 2, FP, "toy")]
            assert snap[0]["address"] == f"127.0.0.1:4567/{FP}"
            br.expect(lambda e: e.get("event") == "hosts" and [h["free_seats"] for h in e["hosts"]] == [2],
                      timeout=20, what="live browser sees the host")
            ad.command(seats=1)
            br.expect(lambda e: e.get("event") == "hosts" and [h["free_seats"] for h in e["hosts"]] == [1],
                      timeout=20, what="live browser sees the seat taken")
            assert ad.stop() == 0
            br.expect(lambda e: e.get("event") == "hosts" and e["hosts"] == [], timeout=20,
                      what="live browser sees the host leave")
        finally:
            ad.kill()
            if br is not None:
                br.kill()
