"""Issue 34, item 8: identical names told apart, and a rematch offer that never expires silently.

Two machines set up alike both call themselves "root@vm", and every bot of a sandbox is "smart bot": the
table's seat panels and log, its end screen, the terminal and the lobby's list of hosts mark each copy
("root@vm (a52e)", "smart bot 1"), one rule for all (client.names). After a game the end screen counts the
rematch offer down ("rematch offer open: 1:45 left") and says when it expired. Driven headless, on the app's
own simulated clock where a time matters; screenshots in tests/artifacts/ at 1024x600 and 1280x720."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import contextlib
from pathlib import Path

import pygame
from support.clickplay import drawn_texts, fits
from support.sessionhelpers import cli_join, processes

import engines
from client.app import App
from client.controller import LocalController
from client.ending import RematchState, expired_words, rematch_words
from client.names import distinct, seat_names
from client.netcontroller import NetController, _no_rematch_words
from client.scenes.lobby import LobbyScene
from client.scenes.table import TableScene
from client.textview import board
from netplay import wire
from netplay.discovery import HostInfo
from netplay.session import Outcome, QueueDecider
from replays.crypto import fingerprint

STEP_MS = 50   # one loop iteration of simulated time (as tests/test_client_idle.py drives the app)


def _screens(app: App, name: str) -> None:
    """Screenshots at 1024x600 and 1280x720 (tests/artifacts/NAME-WIDTH.png), every text in its box."""
    for size in ((1024, 600), (1280, 720)):
        app.window = pygame.display.set_mode(size, pygame.RESIZABLE)
        fits(app, name)


# ---------------------------------------------------------------------------------------------- the rule

def test_names_alike_get_a_suffix_and_distinct_names_stay_as_they_are():
    a, b = b"\x01" * 32, b"\x02" * 32
    assert distinct(["anna", "bert", "you"]) == ["anna", "bert", "you"]
    assert distinct(["anna", "bert"], [a, b]) == ["anna", "bert"]          # keys change nothing then
    assert distinct(["you", "smart bot", "smart bot"]) == ["you", "smart bot 1", "smart bot 2"]
    same = distinct(["root@vm", "root@vm", "anna"], [a, b, None])
    assert same == [f"root@vm ({fingerprint(a)[:4]})", f"root@vm ({fingerprint(b)[:4]})", "anna"]
    # look-alikes count as the same name (netplay.names: case, width, a Cyrillic letter)
    assert distinct(["Anna", "anna "], [a, b])[0].endswith(f"({fingerprint(a)[:4]})")
    assert distinct(["alice", "\u0430lice"]) == ["alice 1", "\u0430lice 2"]
    # 4 hex digits that do not tell two keys apart: as many as do
    assert distinct(["x", "x"], ["abcd-0000-1111-2222", "abcd-1234-1111-2222"]) == ["x (abcd0000)", "x (abcd1234)"]
    # one key at two seats, or no keys: numbers, never one that another name already has
    assert distinct(["x", "x"], [a, a]) == ["x 1", "x 2"]
    assert distinct(["x", "x", "x 1"]) == ["x 2", "x 3", "x 1"]
    assert seat_names([(a, "root@vm"), (b, "root@vm")]) == same[:2]
    assert len(set(distinct(["root@vm", "root@vm", same[0]], [a, b, None]))) == 3   # a name typed like a suffix


# ---------------------------------------------------------------------------------------------- local bots

def test_a_sandboxs_bots_of_one_kind_are_numbered_on_the_table_and_in_the_terminal():
    ctl = LocalController(engines.get("madagaskar"), 0, ["random"], players=3, seed=1, bot_delay_ms=10**9)
    ctl.poll(0)
    assert ctl.names == ["you", "random bot 1", "random bot 2"]
    app = App((1280, 720))
    table = TableScene(ctl)
    app.push(table)
    app.step([], 16)
    texts = drawn_texts(app)
    bots = [t for t in texts if "random" in t]
    # the seat panels are narrow: a name cut to fit keeps its number ("Red: random… 1")
    assert [t[-2:] for t in bots] == [" 1", " 2"], f"the bots are not told apart: {texts}"
    assert "random bot 1" in board(ctl.view(), ctl.names) and "random bot 2" in board(ctl.view(), ctl.names)
    _screens(app, "names-sandbox-bots")


# ---------------------------------------------------------------------------------------------- the lobby

def test_two_hosts_of_the_same_name_are_told_apart_in_the_lobbys_list(home):
    app = App((1280, 720))
    lobby = LobbyScene(home / "replays", browse=False)
    app.push(lobby)
    lobby.hosts = [
        HostInfo("a", "root@vm", ("192.0.2.20",), 47000, "catan", "1.0", "a52e-ef01-2345-6789", 2, ""),
        HostInfo("b", "root@vm", ("192.0.2.21",), 47001, "catan", "1.0", "07c1-ef01-2345-6780", 2, ""),
        HostInfo("c", "anna", ("192.0.2.22",), 47002, "ploc", "1.0", "abcd-ef01-2345-6781", 1, ""),
    ]
    texts = drawn_texts(app)
    heads = [t for t in texts if t.startswith(("Catan - ", "Ploc - "))]
    assert any(t.startswith("Catan - root@vm (a52e)") for t in heads), heads
    assert any(t.startswith("Catan - root@vm (07c1)") for t in heads), heads
    assert "Ploc - anna" in heads, "a name nobody else has is shown as it is"
    _screens(app, "names-lobby-hosts")


# ---------------------------------------------------------------------------------------------- a networked table

@contextlib.contextmanager
def _hosted(home: Path, name: str):
    """A host session here (seat 0, a person) and a bot peer process at seat 1 under the same name, as two
    machines set up alike announce themselves ("root@vm")."""
    from netplay.host import HostSession
    from netplay.identity import Identity

    decider = QueueDecider()
    session = HostSession(Identity.load(name=name), decider, "madagaskar", players=2, seat=0, bind="127.0.0.1",
                          port=0, replay_dir=home / "replays", fsync=False)
    ctl = NetController(session, decider)
    address = f"127.0.0.1:{session.port}/{session.identity.fingerprint}"
    try:
        with processes() as procs:
            procs.append(cli_join(home, address, "--bot", "random", "--name", name, "--bot-delay", "60", "--quiet"))
            assert ctl.wait(lambda: ctl.started and session.phase == "play" and bool(ctl.legal()), 180), ctl.status()
            yield session, ctl
    finally:
        ctl.leave()
        ctl.join(10)


def test_two_peers_of_the_same_name_are_told_apart_at_the_table_and_at_the_end(home):
    name = "root@vm"
    with _hosted(home, name) as (session, ctl):
        assert session.names == [name, name]
        keys = [fingerprint(session.transcript.header.seats[s][0])[:4] for s in (0, 1)]
        shown = [f"{name} ({keys[0]})", f"{name} ({keys[1]})"]
        assert ctl.names == shown
        app = App((1280, 720))
        table = TableScene(ctl)
        app.push(table)
        app.step([], 16)
        texts = drawn_texts(app)
        assert any(f"you: seat 0, {shown[0]}" in t for t in texts), texts
        assert any(shown[1] in t for t in texts), f"the other seat is not told apart: {texts}"
        _screens(app, "names-net-table")
        ctl.submit("resign")
        assert ctl.wait(lambda: ctl.ending() is not None, 60), ctl.status()
        ending = ctl.ending()
        assert ending is not None and shown[1] in ending.detail, ending
        app.window = pygame.display.set_mode((1280, 720), pygame.RESIZABLE)
        assert any(shown[1] in t for t in drawn_texts(app))
        _screens(app, "names-net-end")


# ---------------------------------------------------------------------------------------------- the rematch offer

class _BoundedRematch(LocalController):
    """A table's controller whose rematch offer is bounded the way a session's is: open for `OFFER_S` from
    the game's end by the controller's own clock (`poll(now_ms)`, the app's simulated time), then closed
    with the session's words for it (the host's "no rematch agreed within 120 s")."""

    OFFER_S = 120
    now_ms = 0
    over_ms: int | None = None

    def poll(self, now_ms: int) -> None:
        super().poll(now_ms)
        self.now_ms = now_ms
        if self.result() is not None and self.over_ms is None:
            self.over_ms = now_ms

    def _left(self) -> float:
        return self.OFFER_S - (self.now_ms - (self.over_ms or 0)) / 1000

    def rematch(self, yes: bool = True) -> None:
        if self._left() > 0:
            super().rematch(yes)

    def ending(self):
        ending = super().ending()
        return None if ending is None else type(ending)(ending.headline, ending.detail, ending.mood, self._left() > 0)

    def rematch_state(self) -> RematchState:
        if self._left() > 0:
            return RematchState(True, left_s=self._left())
        message = f"no rematch agreed within {self.OFFER_S} s. game over"     # the host's words (rematch.py)
        return RematchState(False, closed=expired_words(message) or "")


def test_the_rematch_offer_counts_down_and_its_expiry_is_said(home):
    ctl = _BoundedRematch(engines.get("madagaskar"), 0, ["random"], players=2, seed=1, bot_delay_ms=10**9)
    ctl.poll(0)
    app = App((1280, 720))
    table = TableScene(ctl)
    app.push(table)
    app.step([], 16)
    ctl.submit("resign")
    app.step([], STEP_MS)
    texts = drawn_texts(app)
    assert any(t.startswith("rematch offer open: 1:59 left") or t.startswith("rematch offer open: 2:00 left")
               for t in texts), texts
    drawn = sum(app.step([], STEP_MS, lazy=True) for _ in range(15_000 // STEP_MS))    # 15 s of simulated time
    assert 10 <= drawn <= 40, f"{drawn} pictures: the countdown is to be drawn about once a second"
    texts = drawn_texts(app)
    assert any(t.startswith("rematch offer open: 1:4") for t in texts), texts
    _screens(app, "names-rematch-open")
    app.window = pygame.display.set_mode((1280, 720), pygame.RESIZABLE)
    for _ in range(106_000 // STEP_MS):
        app.step([], STEP_MS, lazy=True)
    texts = drawn_texts(app)
    said = "the rematch offer expired after 120 s"
    assert said in texts, texts
    assert any(t.endswith("the rematch offer expired") for t in texts), f"the status does not say it: {texts}"
    rematch = next(b for b in table.buttons if b.key == "rematch")
    assert not rematch.enabled and rematch.label == "no rematch"
    _screens(app, "names-rematch-expired")


def test_every_way_a_rematch_offer_times_out_is_said_as_an_expiry():
    """The host's own bound, the host's `bye` to a joiner, and a joiner's own bound on its wait."""
    from engines.core import Result
    from netplay.session import GameEnd

    end = GameEnd("result", (0,), "resign", Result((0,), (1, 0), "resign"))
    games = "game over: seat 0 won"
    for message in (f"no rematch agreed within 120 s. {games}", f"{games} (the host left: no rematch agreed within "
                    "120 s)", f"{games} (no rematch within 120 s)"):
        assert _no_rematch_words(end, Outcome(0, message)) == \
            "the rematch offer expired after 120 s", message
    assert _no_rematch_words(end, Outcome(0, f"{games} (the host left: no more games)")) == "the host left"
    closed = expired_words("no rematch within 9 s") or ""
    line, caption = rematch_words(RematchState(False, wanted_by=("Anna",), closed=closed))
    assert line == "the rematch offer expired after 9 s (Anna wanted one)"
    assert caption == "no rematch"
    assert rematch_words(RematchState(True, wanted_by=("Anna",), left_s=105.5))[0] == \
        "rematch offer open: 1:45 left; Anna wants a rematch"


def test_a_host_whose_rematch_offer_expired_tells_the_joiners_so():
    """The host's `bye` says the offer expired (it said "no more games"), so a joiner can say it too."""
    import os as _os

    from bots.decider import BotDecider
    from netplay.identity import Identity
    from netplay.protocol.machines import HostMachine
    from replays.header import Terms

    host = HostMachine(Identity.generate("host"), BotDecider("random"), "madagaskar", players=2,
                       terms=Terms.agreed(120_000, None, 60_000, 500, 5_000, 0), entropy=_os.urandom,
                       wall_clock=lambda: 1_700_000_000)
    host.finish(0, "no rematch agreed within 120 s. game over: seat 0 won")
    assert wire.unpack(host.goodbye()) == ("bye", ["no rematch agreed within 120 s"])
    other = HostMachine(Identity.generate("host"), BotDecider("random"), "madagaskar", players=2,
                        terms=Terms.agreed(120_000, None, 60_000, 500, 5_000, 0), entropy=_os.urandom,
                        wall_clock=lambda: 1_700_000_000)
    other.finish(0, "game over: seat 0 won")
    assert wire.unpack(other.goodbye()) == ("bye", ["no more games"])
