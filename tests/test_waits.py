"""No wait without a bound (issue 32, N2 N3 N4): a host that never sends the header, a host that sends it and
never starts the game, a joiner that votes for a rematch and never starts it. Each time the waiting side
leaves within a bound of the protocol (netplay/protocol/waits.py), with the reason in words, blaming nobody,
and leaves no half-written file; the games already played stay intact.

The simulator's lobby liars (simulator/adversary.py `LOBBY_STRATEGIES`) over plans of the quick mix, with
every invariant, the "bounded time" one included (it exempts only a host's own first lobby waiting for
players); then the same liars hooked into real processes against the real `netplay join` and a real
`netplay host --games 2`, with short bounds (`--wait`, `--reveal-timeout`) so that they cost a few seconds.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

import pytest
from support.sessionhelpers import cli_host, cli_join, peer, processes, replays_of, verdict

from netplay.protocol.waits import START_WAIT_S
from simulator.adversary import LOBBY_STRATEGIES
from simulator.run import Plan, command, lobby_plan, simulate
from simulator.world import Faults

LONG = os.environ.get("NETPLAY_LONG") == "1"
ARTIFACTS = Path(__file__).parent / "artifacts"
#: seeds of each lobby liar in the suite (about 2 s of CPU for the three; 1,000 each under NETPLAY_LONG=1)
SEEDS = 1_000 if LONG else 12


@pytest.fixture(autouse=True)
def quiet():
    logging.disable(logging.CRITICAL)
    yield
    logging.disable(logging.NOTSET)


@pytest.mark.parametrize("strategy", LOBBY_STRATEGIES)
def test_every_lobby_liar_keeps_every_promise_in_the_simulator(strategy: str) -> None:
    """Every invariant on every run; every honest peer ended (none is exempt: the liar holds them all), and
    none with a forfeit, a dispute or a contest (nothing was played for the liar to be blamed in)."""
    for seed in range(SEEDS):
        plan = lobby_plan(seed, strategy)
        world, report = simulate(plan)
        assert report.ok, (f"{plan.describe()}\n" + "\n".join(report.violations)
                           + f"\n(lobby_plan({seed}, {strategy!r}))")
        for p in world.peers:
            if p.adversary is None:
                assert p.outcome is not None and p.outcome.code in (0, 1), (plan.describe(), p.index, p.outcome)


def test_a_host_that_never_sends_the_header_is_left_when_the_joiners_patience_ends() -> None:
    world, report = simulate(Plan(3, "madagaskar", 3, {}, {0: "never-start"}, Faults()))
    assert report.ok, report.violations
    for joiner in world.peers[1:]:
        assert joiner.outcome.code == 1 and "the table did not fill within 600 s" in joiner.outcome.message
        assert "nobody is blamed" in joiner.outcome.message
        assert joiner.disk.header is None and joiner.disk.saved is None      # nothing was opened, nothing saved


def test_a_host_that_never_starts_after_its_header_is_left_and_no_file_remains() -> None:
    world, report = simulate(Plan(4, "madagaskar", 3, {}, {0: "hold-after-header"}, Faults()))
    assert report.ok, report.violations
    for joiner in world.peers[1:]:
        assert joiner.outcome.code == 1, joiner.outcome
        assert f"the host did not start the game within {START_WAIT_S:g} s of its header" in joiner.outcome.message
        assert report.ended_at[joiner.index] <= START_WAIT_S + 1
        assert joiner.disk.header is None and joiner.disk.saved is None      # the header-only replay discarded


def test_a_joiner_that_holds_the_rematch_ends_it_and_the_first_game_stays_intact() -> None:
    """Three seats: the liar (seat 1 or 2) votes and never starts; the host ends the rematch lobby within its
    bound (status 0, the first game's result) and says goodbye, the honest joiner leaves with status 0 too, its
    rematch file discarded and the first game's frames kept."""
    world, report = simulate(Plan(6, "madagaskar", 3, {}, {1: "rematch-hold"}, Faults(), rematches=1))
    assert report.ok, report.violations
    host, liar, honest = world.peers
    assert host.outcome.code == 0 and "did not start the rematch within 20 s" in host.outcome.message, host.outcome
    assert "game over" in host.outcome.message and host.disk.frames and host.disk.closed    # game 1, closed
    # (the host's goodbye tells it at once, as `netplay host` does at its close: it no longer sits out its own wait)
    assert honest.outcome.code == 0 and "the host left before the rematch started" in honest.outcome.message, \
        honest.outcome
    assert honest.games and honest.games[0] == len(host.disk.frames)     # it played the first game through
    assert honest.disk.header is None and honest.disk.saved is None      # the rematch's file is gone


def test_rematches_are_played_by_honest_seats() -> None:
    """The simulator plays rematches: every honest seat votes for one, the second game is played through."""
    world, report = simulate(Plan(7, "loyal-captain", 2, {}, {}, Faults(), rematches=1))
    assert report.ok, report.violations
    assert all(p.games and p.outcome.code == 0 and p.machine.games_done == 2 for p in world.peers), \
        [(p.games, p.outcome) for p in world.peers]
    assert command(7)   # (a failing run replays by its seed)


# ---------------------------------------------------------------------------------- real processes

def _no_leftovers(proc) -> None:
    assert replays_of(proc) == [], replays_of(proc)                       # no half-written replay
    assert not list((proc.home / "sessions").glob("*.json")), proc.describe()   # nothing to resume


@pytest.mark.parametrize(("cheat", "reason"), [
    ("never-start", "the table did not fill within 2 s: the host sent no header"),
    ("hold-after-header", "the host did not start the game within 2 s of its header"),
])
def test_the_real_join_leaves_a_host_that_never_starts_within_its_wait(tmp_path, cheat: str, reason: str) -> None:
    """A real lying host (tests/support/session_peer.py --cheat) against the real `netplay join --wait 2`: the
    joiner ends by itself with status 1 and the reason on stderr, blaming nobody, leaving no file (about 1.5 s
    of CPU for the two processes)."""
    with processes() as procs:
        liar = peer(tmp_path, "host", "loyal-captain", "--cheat", cheat, "--lifetime", "60", tag="liar")
        procs.append(liar)
        joiner = cli_join(tmp_path, liar.address(), "--bot", "random", "--wait", "2")
        procs.append(joiner)
        assert joiner.wait(30) == 1, joiner.describe()
        assert f"netplay: {reason}; nothing was played, nobody is blamed" in joiner.err, joiner.describe()
        assert "forfeit" not in joiner.out + joiner.err
        _no_leftovers(joiner)


def test_a_real_games_2_host_ends_a_rematch_a_joiner_holds(tmp_path) -> None:
    """The real `netplay host --games 2` against a joiner that votes for the rematch and never starts it: the
    host ends the rematch lobby within its bound (the reveal timeout of 2 s, at least 6 s for the direct links)
    with status 0 and the first game's result; its one replay is the first game, valid (about 2 s of CPU)."""
    with processes() as procs:
        host = cli_host(tmp_path, "loyal-captain", "--bot", "random", "--games", "2", "--reveal-timeout", "2")
        procs.append(host)
        liar = peer(tmp_path, "join", host.address(), "--cheat", "rematch-hold", "--games", "2", "--lifetime", "60",
                    tag="liar")
        procs.append(liar)
        assert host.wait(60) == 0, host.describe()
        assert "seat 1 did not start the rematch within 6 s: no rematch, nobody is blamed" in host.out, host.describe()
        files = replays_of(host)
        assert len(files) == 1, files
        assert verdict(files[0]).status == "valid", verdict(files[0]).reason


def test_the_table_shows_the_countdown_of_a_start_that_does_not_come_and_esc_leaves(home) -> None:
    """Headless Pygame (SDL_VIDEODRIVER=dummy): a joined table under a real host that sent its header and never
    starts shows what it waits for and the seconds left, with Esc to leave; Esc then Y leaves at once, blaming
    nobody, and the header-only replay is gone (about 2 s of CPU; the screenshot is in tests/artifacts/)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame
    from support.cpuclock import until

    from client.app import App
    from client.netcontroller import NetController
    from client.scenes.table import TableScene
    from client.ui import textfit
    from netplay.identity import Identity
    from netplay.joiner import JoinSession
    from netplay.session import QueueDecider

    def texts(app: App) -> list[str]:
        with textfit.recording(app.size) as frame:
            app.step([], 16)
        return [words for kind, _, words in frame.items if kind == "text"]

    def key(app: App, code: int) -> None:
        app.step([pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="")], 16)

    tmp_path = home
    with processes() as procs:
        liar = peer(tmp_path, "host", "loyal-captain", "--cheat", "hold-after-header", "--lifetime", "60", tag="liar")
        procs.append(liar)
        decider = QueueDecider()
        session = JoinSession(Identity.load(), decider, liar.address(), replay_dir=tmp_path / "me" / "replays",
                              fsync=False, wait_s=120)
        ctl = NetController(session, decider)
        app = App((1024, 600))
        app.push(TableScene(ctl))
        shown: list[str] = []

        def counts_down() -> bool:
            shown[:] = texts(app)
            return any("waiting for the host to start the game:" in t and "s left" in t for t in shown)
        assert until(counts_down, 20), (ctl.status(), shown)
        assert "Esc leaves now" in " ".join(shown), shown   # (the status wraps over its two lines at 12 px)
        assert "s left" in ctl.status(), ctl.status()
        assert len(list((tmp_path / "me" / "replays").glob("*.npr"))) == 1     # the header's file, for now
        ARTIFACTS.mkdir(exist_ok=True)
        app.screenshot(ARTIFACTS / "net-waiting-for-the-start.png")
        key(app, pygame.K_ESCAPE)
        assert "has not started" in " ".join(texts(app)), "the leave question says what leaving means"
        key(app, pygame.K_y)
        assert until(lambda: session.outcome is not None, 10), ctl.status()
        ctl.join(10)
        # (on a machine so busy that the 30 s bound passed before the key was read, the joiner left by itself)
        assert session.outcome.code == 1 and any(why in session.outcome.message for why in (
            "you left before the game started", "the host did not start the game within 30 s")), session.outcome
        assert "nobody is blamed" in session.outcome.message
        assert list((tmp_path / "me" / "replays").glob("*.npr")) == []          # no half-written file


def test_the_terminal_shows_the_countdown_and_how_to_leave(tmp_path) -> None:
    """`netplay join` with a person at the terminal (no --bot) under a host that never sends the header: it prints
    what it waits for with the seconds left and that Ctrl-C leaves, then leaves by itself at the bound, status 1
    (about 1.5 s of CPU)."""
    with processes() as procs:
        liar = peer(tmp_path, "host", "loyal-captain", "--cheat", "never-start", "--lifetime", "60", tag="liar")
        procs.append(liar)
        joiner = cli_join(tmp_path, liar.address(), "--wait", "3")
        procs.append(joiner)
        assert joiner.wait(30) == 1, joiner.describe()
        shown = r"\[waiting for the other players: [0-3] s left\] Ctrl-C leaves"
        assert re.search(shown, joiner.out), joiner.describe()
        assert "the table did not fill within 3 s" in joiner.err, joiner.describe()
