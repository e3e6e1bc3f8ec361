"""The promises of a whole session, lobbies and rematches included (simulator/invariants.py checks one game).

- **Bounded time over a session.** A session of several games (rematches) may take the bound of each game it
  played, and the rematch lobby between them: `session_bound` sums `bounds.bound` over the games, so the
  last game's bound is not asked to cover the games before it.
- **No wait for ever in a lobby.** An honest joiner that came to a lobby ends (it plays, or it is told why
  not) within the bound, whether the lobby ever starts or not; so does every honest peer held in the lobby
  of a rematch (a game of this session was played). A host waiting for players that never come is exempt:
  that wait is its person's choice, the `netplay host` command's own, and no promise to anyone else.
"""

from __future__ import annotations

from typing import Any

from simulator.bounds import bound

__all__ = ["session_bound", "games_played", "check_waits"]


def games_played(world: Any) -> list[int]:
    """The frames of every game of the session that some peer opened (in the order the host opened them; a
    rematch's header not yet played: 0), as the peer that wrote most of each holds them."""
    games: dict[bytes, int] = {}
    for peer in world.peers:
        for session, frames in peer.sessions.items():
            games[session] = max(games.get(session, 0), frames)
    return list(games.values())


def session_bound(world: Any, frames: int) -> float:
    """The bound of the session: each game's bound (`bounds.bound`), the last one for at least `frames`
    (the game under way), and a lobby's (a game of no frames) for each game the seats want that has no header
    yet: a rematch lobby is given its own time, not the time of the game before it."""
    played = games_played(world) or [0]
    played[-1] = max(played[-1], frames)
    to_come = max(0, getattr(world, "games", 1) - len(played))
    return sum(bound(world, n) for n in played) + to_come * bound(world, 0)


def check_waits(world: Any, honest: list, report: Any) -> None:
    """Every honest peer still waiting in a lobby, at the end of the run, is a wait without a bound."""
    started = any(p.disk.frames for p in world.peers)
    if started:
        return        # a game under way: invariants.check judges its peers' time
    played = any(games_played(world))
    for p in honest:
        if p.outcome is not None or p.crash is not None or p.machine is None:
            continue
        if played:
            report.violations.append(f"honest peer {p.index} held in the rematch lobby for {world.now:.0f} s "
                                     f"(bound {report.bound:.0f} s): last lines {p.lines[-3:]}")
        elif p.index != 0:
            report.violations.append(f"honest joiner {p.index} held in a lobby that never started for "
                                     f"{world.now:.0f} s (bound {report.bound:.0f} s): last lines {p.lines[-3:]}")
