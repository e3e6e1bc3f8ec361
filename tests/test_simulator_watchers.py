"""Spectators in the simulator (issue 35; simulator/watchers.py): the promises a spectator is owed and those it
must not break, over runs that the campaign also draws (tests/test_simulator.py: a share of its runs has
spectators, some a flooding one, some a host that releases at once).

- an honest host's spectators hold the game whole, frame for frame the host's, never a frame before its delay
  (the simulation's own ground truth), over a network that loses, doubles and reorders messages;
- a host that releases at once is named by every spectator it showed a frame early;
- a spectator that floods the host with every message the wire knows, replays the frames it holds and dials
  every joiner changes nothing for the players: every invariant of theirs holds;
- a spectator of a host killed and resumed watches on from what it holds and gets the whole game;
- the players' chat reaches spectators only with the header's chat term, each line no sooner than the host has
  sequenced the delay's frames after the one it was said at (and a host that files lines early is caught)."""

from __future__ import annotations

import pytest

from netplay.protocol.core import EXIT_DISPUTE
from simulator.run import Plan, plan_for, simulate
from simulator.world import Faults

LOSSY = Faults(loss=0.02, duplicate=0.02, reorder=0.05)


def _run(plan: Plan):
    world, report = simulate(plan)
    assert report.ok, f"{plan.describe()}:\n" + "\n".join(report.violations)
    return world


@pytest.mark.parametrize(("game", "players", "faults"), [("madagaskar", 3, Faults()), ("turning-tides", 2, LOSSY),
                                                         ("quedah-merchant", 2, LOSSY)])
def test_an_honest_hosts_spectators_hold_the_whole_game_never_early(game: str, players: int, faults: Faults) -> None:
    world = _run(Plan(3, game, players, faults=faults, spectators=2))
    frames = world.peers[0].disk.frames
    for watcher in world.watchers:
        assert watcher.outcome is not None and watcher.outcome.code == 0, watcher.outcome
        assert watcher.disk.frames == frames
        delay = world.spectating.delay
        assert all(tip >= k + delay or k >= len(frames) - 1 - delay for k, tip in watcher.arrivals)


def test_a_host_that_releases_at_once_is_named_by_its_spectators() -> None:
    world = _run(Plan(4, "quedah-merchant", 2, spectators=2, host_leaks=True))
    for watcher in world.watchers:
        assert watcher.outcome.code == EXIT_DISPUTE and "before its delay" in watcher.outcome.message
    assert world.peers[1].outcome.code == 0          # the players' game is not theirs to lose


def test_a_flooding_spectator_changes_nothing_for_the_players_or_the_other_spectator() -> None:
    world = _run(Plan(5, "madagaskar", 3, spectators=2, spectator_liars={0: "flood"}))
    flood, honest = world.watchers
    assert honest.outcome.code == 0 and honest.disk.frames == world.peers[0].disk.frames
    refused = [args for _, kind, args in world.history if kind == "refused" and args[0] == flood.index]
    assert len(refused) == 2, refused                # both joiners' listeners refused its dials
    assert all(p.outcome.code == 0 for p in world.peers)


def test_a_spectator_of_a_host_killed_and_resumed_comes_back_and_gets_the_whole_game() -> None:
    world = _run(Plan(10, "turning-tides", 2, spectators=1, faults=Faults(kills=1, kill_host=True, kill_s=2.0)))
    (watcher,) = world.watchers
    assert world.peers[0].kills == 1
    assert watcher.outcome.code == 0 and watcher.disk.frames == world.peers[0].disk.frames


def test_the_campaign_draws_spectators_their_liars_and_leaking_hosts() -> None:
    plans = [plan_for(seed, quick=True) for seed in range(480)]
    assert sum(1 for p in plans if p.spectators) >= 10
    assert any(p.spectator_liars for p in plans) and any(p.host_leaks for p in plans)


@pytest.mark.parametrize("chat", [True, False])
def test_spectators_hear_the_players_chat_only_with_the_term_and_never_before_its_frame(chat: bool) -> None:
    plan = Plan(6, "madagaskar", 2, spectators=2, spectator_chat=chat)
    world = _run(plan)
    assert len(world.said) >= 3, world.said           # the players did talk
    for watcher in world.watchers:
        assert watcher.outcome.code == 0
        heard = {text for text, _ in watcher.heard}
        assert heard == (set(world.said) if chat else set()), (heard, world.said)


def test_the_chat_invariant_catches_a_host_that_lets_a_line_go_before_its_frame(monkeypatch) -> None:
    """The check is not vacuous: a host that files every line under frame 0 (so it goes with the next burst,
    whatever the delay; a line sent with a frame before its own the spectator drops by itself) is caught by the
    simulation's ground truth."""
    from netplay.protocol.table_notes import TableNotes

    heard = TableNotes.heard
    monkeypatch.setattr(TableNotes, "heard", lambda self, tip, seat, text: heard(self, 0, seat, text))
    world, report = simulate(Plan(6, "madagaskar", 2, spectators=2, spectator_chat=True))
    assert any("was said at frame" in v for v in report.violations), report.violations
