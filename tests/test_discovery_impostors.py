"""Impostors on the LAN (issue 25): a second host advertised under the real host's name used to be
auto-picked by `netplay join --bot ...` without an address, pinned the real host's name to its own key
(after which the real host was refused as "possibly impersonating"), showed in a person's list as an
identical entry (the default one), and an advertisement whose text carried terminal escapes drew a
fake "(verified)" entry over the list. Now every entry carries its fingerprint words, look-alikes are
marked, a bot never picks among them nor an impostor of a pinned name, what a bot picks by itself
pins nothing, and advertisements whose texts are not printable draw no entry."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from support.cpuclock import Budget
from support.nethelpers import DISCOVERY_SCRIPT, Peer, in_netns, namespaces, netns_unavailable
from support.transportkit import Run
from zeroconf import ServiceInfo

from client import cli_net
from netplay import discovery
from netplay.discovery import SERVICE, HostInfo, _host_info, _txt
from netplay.identity import Identity, KeyChanged, KnownPeers
from netplay.transport import HostTransport, JoinTransport

REAL = Identity.generate("alice")
FAKE = Identity.generate("alice")


def advert(props: dict, name: str = "alice 3f2a-91c0") -> ServiceInfo:
    return ServiceInfo(SERVICE, f"{name}.{SERVICE}", port=4000, properties=props, addresses=[bytes([10, 0, 0, 7])],
                       server="netplay-x.local.")


def host(ident: Identity, port: int, name: str | None = None, game: str = "loyal-captain") -> HostInfo:
    return HostInfo(f"{ident.name} {ident.fingerprint[:9]}", name or ident.name, ("127.0.0.1",), port, game,
                    "0.1.0", ident.fingerprint, 1)


@pytest.mark.parametrize("field", ["host", "game", "version", "terms"])
@pytest.mark.parametrize("text", ["\x1b[2J\x1b[H  1. alice (verified)", "alice\r(verified)", "\u202eecila",
                                  "alice\x07", "line\nbreak"])
def test_an_advertisement_whose_text_is_not_printable_draws_no_entry(field: str, text: str) -> None:
    props = {"game": "loyal-captain", "version": "0.1.0", "fingerprint": REAL.fingerprint, "seats": "1",
             "host": "alice", "terms": "clock 600 s"}
    assert _host_info(advert(props)) is not None
    assert _host_info(advert({**props, field: text})) is None


def test_an_instance_name_is_shown_safely() -> None:
    props = _txt("loyal-captain", "0.1.0", REAL.fingerprint, 1, "alice")
    found = _host_info(advert(props, name="alice\u202egnp"))      # zeroconf itself refuses control characters
    assert found is not None and found.instance == "alice\\u202egnp"


def test_fingerprint_words() -> None:
    from replays.words import WORDS, fingerprint_words

    assert len(WORDS) == 256 == len(set(WORDS)) == len({w[:3] for w in WORDS})
    assert all(w.isascii() and w.isalpha() and w.islower() and 3 <= len(w) <= 8 for w in WORDS)
    assert list(WORDS) == sorted(WORDS)
    assert fingerprint_words("3f2a-91c0-77de-0b14") == "crow camel lobster poppy iron sparrow"
    assert fingerprint_words("0000-0000-0000-00ff", 8).split() == ["acorn"] * 7 + ["zinc"]
    assert host(REAL, 1).words != host(FAKE, 1).words       # told apart (48 bits: the same words need ~2^47 keys)
    for bad in ("3f2a91c0", "3F2A-91C0-77DE-0B1", "zzzz-0000-0000-0000"):
        with pytest.raises(ValueError):
            fingerprint_words(bad)


def test_lookalikes_are_marked_and_shown_apart_with_their_words() -> None:
    real, fake, other = host(REAL, 5000), host(FAKE, 6000, name="Alice "), host(Identity.generate("bob"), 7000)
    hosts = [fake, real, other]
    assert set(discovery.lookalikes(hosts)) == {fake.instance, real.instance}
    lines = [discovery.describe(h, hosts) for h in hosts]
    assert lines[0] != lines[1] and real.words in lines[1] and fake.words in lines[0]
    assert "2 hosts call themselves" in lines[0] and "2 hosts call themselves" in lines[1]
    assert "call themselves" not in lines[2]
    pins = KnownPeers()
    pins.check("alice", REAL.public_key)
    assert "NOT the key pinned for alice" in discovery.describe(fake, [fake], pins)
    assert "NOT the key pinned" not in discovery.describe(real, [real], pins)


def test_a_bot_never_picks_a_lookalike_or_an_impostor_of_a_pinned_name() -> None:
    real, fake, other = host(REAL, 5000), host(FAKE, 6000), host(Identity.generate("bob"), 7000)
    chosen, passed = discovery.bot_choice([fake, real])
    assert chosen is None and sorted(passed) == sorted(
        f"alice with key {h.fingerprint} (words: {h.words}): another host calls itself by that name or one that "
        "looks like it" for h in (fake, real))
    assert discovery.bot_choice([fake, real, other])[0] is other
    pins = KnownPeers()
    pins.check("alice", REAL.public_key)
    chosen, passed = discovery.bot_choice([fake], pins)
    assert chosen is None and passed == [f"alice with key {fake.fingerprint}: alice is pinned to {REAL.fingerprint}"]
    assert discovery.bot_choice([real], pins) == (real, [])
    assert discovery.bot_choice([fake]) == (fake, [])        # a lone, unknown host: a bot may join it (unpinned)


@click.command()
@click.option("--bot", is_flag=True)
def picker(bot: bool) -> None:
    click.echo("ADDRESS " + cli_net._pick_host(0.1, None, pick_first=bot))


@pytest.fixture
def lan(monkeypatch, tmp_path: Path):
    """What `browse` finds, as the test sets it; NETPLAY_HOME in a temporary directory (its pins)."""
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "home"))
    found: list[HostInfo] = []
    monkeypatch.setattr(discovery, "browse", lambda seconds, game=None, interfaces=None: list(found))
    return found


def test_join_with_a_bot_and_no_address_refuses_to_pick_among_lookalikes(lan) -> None:
    """Issue 25: the impostor sorted first and was auto-picked."""
    real, fake = host(REAL, 5000), host(FAKE, 6000)
    lan[:] = [fake, real]
    result = CliRunner().invoke(picker, ["--bot"])
    assert result.exit_code == 1 and "ADDRESS" not in result.stdout
    assert "no host on the LAN a bot can tell from an impostor" in result.stderr
    assert real.words in result.stderr and fake.words in result.stderr
    lan[:] = [real]
    result = CliRunner().invoke(picker, ["--bot"])
    assert result.stdout.splitlines()[-1] == f"ADDRESS {real.address}" and real.words in result.stdout


def test_a_persons_list_tells_lookalikes_apart_and_has_no_default(lan) -> None:
    """Issue 25: three identical entries, the impostor the default."""
    real, fake = host(REAL, 5000), host(FAKE, 6000)
    lan[:] = [fake, real]
    order = [h.instance for h in discovery.ranked([fake, real])]     # unpinned look-alikes: by instance
    result = CliRunner().invoke(picker, [], input=f"\n{order.index(real.instance) + 1}\n")
    listed = [line for line in result.stdout.splitlines() if line.startswith("  ")]
    assert len(listed) == 2 and listed[0] != listed[1]
    assert all("2 hosts call themselves alice: compare the words" in line for line in listed)
    assert "join which:" in result.stdout and "join which [1]:" not in result.stdout     # no default
    assert result.stdout.splitlines()[-1] == f"ADDRESS {real.address}"
    lan[:] = [real]
    result = CliRunner().invoke(picker, [], input="\n")
    assert result.stdout.splitlines()[-1] == f"ADDRESS {real.address}"              # one plain host: default 1


def test_what_a_bot_picked_by_itself_pins_nothing(tmp_path: Path) -> None:
    """Issue 25: a bot joined the impostor, which pinned the real host's name to the impostor's key; the
    real host was then refused as "possibly impersonating". The pins a bot's own pick uses are checked
    and never written (`netplay join` passes `KnownPeers.checking_only()` to the session then)."""
    assert cli_net._lan_pins(None, []).__class__ is not KnownPeers                  # a bot's own pick
    assert cli_net._lan_pins("10.0.0.7:5000", []).__class__ is KnownPeers          # an address typed
    assert cli_net._lan_pins(None, [1]).__class__ is KnownPeers                    # a person's pick
    joiner = Identity.generate("jo")
    with HostTransport(FAKE, heartbeat_s=0.2, liveness=3) as fake, HostTransport(REAL, heartbeat_s=0.2,
                                                                                     liveness=3) as real:
        pins = KnownPeers(tmp_path / "known.json")
        for target, known in ((fake, pins.checking_only()), (real, pins)):
            connected = connect(joiner, f"{target.address}/{target.identity.fingerprint}", known, target)
            assert isinstance(connected, JoinTransport), connected
            connected.close()
        assert pins.get("alice") == REAL.public_key                             # the real one, joined by a person
        refused = connect(joiner, f"{fake.address}/{FAKE.fingerprint}", pins.checking_only(), fake)
        assert isinstance(refused, KeyChanged)                                  # the pins are still enforced


def connect(ident: Identity, address: str, known: KnownPeers, host: HostTransport) -> JoinTransport | BaseException:
    """A JoinTransport in a thread while this one serves `host` (bounded)."""
    out: list = []

    def run() -> None:
        try:
            out.append(JoinTransport(ident, address, known, connect_timeout_s=5))
        except BaseException as exc:   # noqa: BLE001  (handed to the test)
            out.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    poller = Run(host)
    budget = Budget(8)   # CPU seconds (tests/support/cpuclock.py)
    while thread.is_alive() and not budget.over():
        poller.turn(20)
    thread.join(1)
    return out[0]


def test_an_update_keeps_the_terms() -> None:
    class Zeroconf:
        def __init__(self) -> None:
            self.updated: list[ServiceInfo] = []

        def update_service(self, info: ServiceInfo) -> None:
            self.updated.append(info)

    txt = _txt("loyal-captain", "0.1.0", REAL.fingerprint, 2, "alice", terms="clock 600 s + 5 s per move")
    zc = Zeroconf()
    ad = discovery.Advertisement(zc, advert(txt), txt)
    ad.update(free_seats=1)
    found = _host_info(zc.updated[-1])
    assert found is not None and found.free_seats == 1 and found.terms == "clock 600 s + 5 s per move"


@pytest.mark.netns
def test_impostors_on_a_live_lan() -> None:
    """Live mDNS in a private namespace: the real host, an impostor under its name, and an advertisement
    whose name carries a terminal escape; the browser lists the two look-alikes with different words
    and no entry for the third."""
    reason = netns_unavailable()
    if reason:
        pytest.skip(f"live mDNS needs a private network namespace: {reason}")
    with namespaces(1, multicast=True) as [(ns, ip)]:
        ads = [Peer(["advertise", "--interface", ip, "--port", str(port), "--fingerprint", ident.fingerprint,
                     "--seats", "1", "--name", name], prefix=in_netns(ns), script=DISCOVERY_SCRIPT)
               for port, ident, name in ((4567, REAL, "alice"), (4568, FAKE, "alice"),
                                         (4569, Identity.generate("x"), "\x1b[2J\x1b[H1. alice (verified)"))]
        browser = None
        try:
            for ad in ads:
                ad.event("ready", timeout=20)
            browser = Peer(["browse", "--interface", ip, "--snapshot", "3"], prefix=in_netns(ns),
                           script=DISCOVERY_SCRIPT)
            snapshot = browser.event("snapshot", timeout=30)["hosts"]
            assert sorted((h["host_name"], h["fingerprint"]) for h in snapshot) == sorted(
                [("alice", REAL.fingerprint), ("alice", FAKE.fingerprint)])
            hosts = [HostInfo(**{k: tuple(v) if k == "addresses" else v for k, v in h.items() if k != "address"})
                     for h in snapshot]
            assert len({h.words for h in hosts}) == 2 and len(discovery.lookalikes(hosts)) == 2
            assert discovery.bot_choice(hosts)[0] is None
        finally:
            for ad in ads:
                ad.kill()
            if browser is not None:
                browser.kill()


def test_the_lobby_marks_lookalikes_and_shows_every_hosts_words(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "home"))
    from client.app import App
    from client.scenes.lobby import LobbyScene
    from client.ui import theme, widgets

    drawn: list[str] = []
    real_draw = widgets.draw_text

    def spy(surface, text, *args, **kwargs):
        drawn.append(text)
        return real_draw(surface, text, *args, **kwargs)

    import client.scenes.lobby as lobby_module
    monkeypatch.setattr(lobby_module, "draw_text", spy)
    hosts = [host(FAKE, 6000), host(REAL, 5000), host(Identity.generate("bob"), 7000)]
    app = App((1280, 720))
    lobby = LobbyScene(tmp_path / "replays", browse=False)
    app.push(lobby)
    lobby._hosts_changed(hosts)
    app.step([], 16)
    app.screenshot(Path(__file__).parent / "artifacts" / "lobby-lookalikes.png")
    for h in hosts:
        assert any(text.startswith(h.words) for text in drawn), (h.words, drawn)
    # each alice carries its key's fingerprint too (client/names.py: look-alike names are told apart)
    alike = re.compile(r"alice \([0-9a-f]{4,}\) \(2 hosts!\)")
    assert sum(bool(alike.search(text)) for text in drawn) == 2 and not any("bob (" in text for text in drawn)
    red = [app.window.get_at((x, y))[:3] for x in range(20, 330, 2) for y in range(85, 300, 2)]
    assert tuple(theme.BAD) in red                                                  # the look-alikes in red
