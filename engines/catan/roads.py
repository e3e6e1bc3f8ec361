"""Longest Road (docs/rules/catan.md, "Longest Road"): a player's road length and the award rule.

A *trail* is a walk over the player's own roads that uses no road twice; nodes may repeat, so a loop
counts in full. No intermediate node may hold another player's building (in Cities & Knights: or
knight); the two end nodes may. The length is a pure function of the player's road mask and of the
blocking nodes on his network, so it is memoised on exactly that pair, and the rules recompute it
only for the players whose roads or blockers changed.
"""

from __future__ import annotations

from functools import lru_cache

from engines.catan.board import EDGES, bits, road_nodes

__all__ = ["award_longest", "road_length"]


def road_length(roads: int, blockers: int) -> int:
    """The longest trail over the edge mask `roads` where the node mask `blockers` (other players'
    buildings, and in C&K their knights) may only end a trail."""
    if not roads:
        return 0
    return _trail(roads, blockers & road_nodes(roads))


@lru_cache(maxsize=131072)
def _trail(roads: int, blocked: int) -> int:
    edges = bits(roads)
    total = len(edges)
    adjacent: dict[int, list[tuple[int, int]]] = {}
    for e in edges:
        a, b = EDGES[e]
        adjacent.setdefault(a, []).append((1 << e, b))
        adjacent.setdefault(b, []).append((1 << e, a))
    best = 0

    def walk(node: int, used: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        if best == total or (length and blocked >> node & 1):
            return  # all roads used, or an opponent's building ends the trail here
        for bit, other in adjacent[node]:
            if not used & bit:
                walk(other, used | bit, length + 1)

    # A longest trail starts at a node of odd degree, at a dead end or at a blocked node, unless the
    # whole component is an Euler circuit; starting everywhere covers every case and is still cheap
    # for at most 15 roads.
    for node in sorted(adjacent):
        walk(node, 0, 0)
        if best == total:
            break
    return best


def award_longest(holder: int, lengths: tuple[int, ...], alive: tuple[int, ...]) -> int:
    """The Longest Road holder after a change (-1: set aside). The holder keeps it while tied for the
    longest (≥ 5); otherwise a unique longest (≥ 5) takes it; otherwise nobody holds it."""
    m = max((lengths[s] for s in alive), default=0)
    if m < 5:
        return -1
    if holder >= 0 and holder in alive and lengths[holder] == m:
        return holder
    leaders = [s for s in alive if lengths[s] == m]
    return leaders[0] if len(leaders) == 1 else -1
