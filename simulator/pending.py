"""Breaks the generic liar finds that wait for a fix on another branch (issue 32): known, named, not hidden.

A run that breaks a promise fails the campaign, unless every one of its violations is one of these known
breaks, recognised from the run's ground truth (what the honest peer was doing when the run ended, which
pairs had no direct link), never from the liar's setting alone. Such a run is reported as pending, with its
replay command, and does not fail the suite. When the fix lands, its entry here is deleted and every run it
covered is judged again like any other (tests/test_simulator.py prints how many each entry covers).

- `lobby-wait` (branch `waits`, issue 32 N2, N3, N4): an honest peer still in a lobby when the run ends: a
  host that never sends the header (or the `synced` after it), a joiner that never says `start` (the host lets
  it go, the seat comes free and the honest joiners wait for a header that never comes), a joiner that never
  comes, a rematch lobby held by a joiner that voted and never starts. No wait of the lobby has a bound yet.
- `refused-wait` (no branch yet; nearest `waits`): a joiner of two seats whose own frame the host refused,
  because the host sent it a second version of the host's frame before it: it holds that frame number
  (`Following.hold_seq`) and waits for the host's frame for it, which never comes in a form that follows
  its copy, without a deadline of its own.
- `relay-blame` (branch `relay`, issue 32 N1): an honest seat blamed, or a fork not named, in a game where a
  pair of joiners had no direct link (the host blanked or bent the addresses, or a colluder hung up): the
  relay's silence taken as evidence; or, in such a game, an honest peer that met the fork and never ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["Pending", "PENDING", "classify"]


@dataclass(frozen=True, slots=True)
class Pending:
    name: str
    branch: str
    violation: re.Pattern[str]


PENDING = (
    Pending("lobby-wait", "waits", re.compile(r"held in (a lobby that never started|the rematch lobby)|did not end")),
    Pending("refused-wait", "(none yet: waits)", re.compile(r"did not end")),
    Pending("relay-blame", "relay", re.compile(r"co-signs or shows the forfeit|own copy shows its own forfeit|"
                                               r"met the host's fork|hold different sequenced frames|did not end")),
)


def _peer_of(violation: str) -> int | None:
    found = re.match(r"honest (?:peer|joiner) (\d+)", violation)
    return int(found.group(1)) if found else None


def _in_lobby(world: Any, index: int | None) -> bool:
    """Whether honest peer `index` was, at the end, still in a lobby (or a rematch lobby): no game under way."""
    if index is None:
        return False
    machine = world.peers[index].machine
    if machine is None:
        return False
    book = machine.book
    return machine.phase in ("lobby", "over") or (machine.phase == "play" and (book is None or book.seq < 0))


def _refused_wait(world: Any, index: int | None) -> bool:
    if index is None or world.players != 2 or world.peers[0].adversary is None:
        return False
    machine = world.peers[index].machine
    following = getattr(machine, "following", None)
    return following is not None and following.hold_seq is not None and machine.phase == "play"


def _relay_only(world: Any) -> bool:
    """Whether, with a liar for a host, some pair of joiners had no direct link for part of the run: one that
    never came up (an address blanked, bent, or a dial that reached nobody), or one a liar hung up."""
    if world.peers[0].adversary is None:
        return False
    ups = {frozenset(args) for _, kind, args in world.history if kind == "up"}
    joiners = [p.index for p in world.peers[1:] if p.index not in world.absent]
    if any(frozenset((a, b)) not in ups for a in joiners for b in joiners if a < b):
        return True
    return any(getattr(p.adversary, "cut", None) for p in world.peers)


def classify(world: Any, violations: list[str]) -> list[str] | None:
    """The pending break each violation is (names of `PENDING`), or None if any one of them is not pending."""
    names = []
    for violation in violations:
        index = _peer_of(violation)
        for pending in PENDING:
            if not pending.violation.search(violation):
                continue
            if pending.name == "lobby-wait" and _in_lobby(world, index):
                break
            if pending.name == "refused-wait" and _refused_wait(world, index):
                break
            if pending.name == "relay-blame" and _relay_only(world):
                break
        else:
            return None
        names.append(pending.name)
    return names
