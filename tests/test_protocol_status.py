"""The status line as a pure query on a machine at a time (netplay/protocol/status.py; issue 33): the same
machine asked at two times gives the countdown the wait will keep, a lobby with nothing to wait for says so,
and a finished session says its outcome. Driven on a fake clock, no process and no socket (milliseconds)."""

from __future__ import annotations

import os

from bots.decider import BotDecider
from netplay.identity import Identity
from netplay.protocol.machines import HostMachine, JoinMachine
from netplay.protocol.status import countdown, status_line
from netplay.protocol.waits import OFFER_S
from replays.header import Terms

TERMS = Terms.agreed(10_000, None, 60_000, 500, 5_000, 0)


def _joiner() -> JoinMachine:
    host = Identity.generate("host")
    return JoinMachine(Identity.generate("joiner"), BotDecider("random"), host_key=host.public_key,
                       address="10.0.0.1:1", entropy=os.urandom, wall_clock=lambda: 1_700_000_000)


def test_a_joiner_waiting_for_the_offer_counts_down_on_the_clock_it_is_asked_at() -> None:
    joiner = _joiner()
    joiner.linked(100.0, joiner.host_key, "host")      # its hello goes out: the offer is awaited from now
    joiner.tick(100.0)
    wait = countdown(joiner, 100.0)
    assert wait is not None and wait[0] == "the host's offer" and wait[1] == OFFER_S
    assert status_line(joiner, 100.0) == f"waiting for the host's offer: {OFFER_S:.0f} s left"
    assert status_line(joiner, 100.0 + OFFER_S - 4) == "waiting for the host's offer: 4 s left"
    assert countdown(joiner, 100.0 + OFFER_S + 30)[1] == 0.0       # never below 0


def test_a_host_with_nobody_yet_says_so_and_a_finished_session_says_its_outcome() -> None:
    host = HostMachine(Identity.generate("host"), BotDecider("random"), "madagaskar", players=3, terms=TERMS,
                       entropy=os.urandom, wall_clock=lambda: 1_700_000_000)
    assert status_line(host, 0.0) == "waiting for the other players"
    host.finish(0, "no more games")
    assert status_line(host, 1.0) == "no more games"


def test_a_part_a_program_sends_by_itself_is_named_in_a_players_words() -> None:
    """Issue 34, item 9: the status said "waiting for Anna's chain". Every automatic frame kind has its words."""
    from netplay.deadlines import AUTOMATIC
    from netplay.protocol.status import part_words

    for kind in AUTOMATIC:
        words = part_words(kind, "Anna")
        assert "Anna" in words and words != f"waiting for Anna's {kind}", (kind, words)   # not the frame's name
    assert part_words("chain", "Anna") == "waiting for Anna's share of the dice"
