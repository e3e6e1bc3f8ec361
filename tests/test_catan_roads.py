"""Longest Road (docs/rules/catan.md): the trail definition's edge cases (fork, loop, figure eight, a cut
by another player's building) and the award rule (tie, break, set aside)."""

from __future__ import annotations

from support.catanhelpers import G, play, position

from engines.catan.board import EDGE_BIT, HEX_SIDES, NODE_BIT
from engines.catan.roads import award_longest, road_length


def roads(*edges: int) -> int:
    mask = 0
    for e in edges:
        mask |= EDGE_BIT[e]
    return mask


def nodes(*ns: int) -> int:
    mask = 0
    for n in ns:
        mask |= NODE_BIT[n]
    return mask


def test_a_path():
    assert road_length(roads(6, 11, 19, 25, 34, 40, 49), 0) == 7
    assert road_length(0, 0) == 0
    assert road_length(roads(19), 0) == 1


def test_a_fork_does_not_add():
    # three roads meeting at node 17: 12-17, 17-22, 17-23
    assert road_length(roads(19, 25, 26), 0) == 2
    # a longer fork: the trail takes the two longest arms
    assert road_length(roads(19, 11, 25, 34, 26), 0) == 4  # 7-12-17-22-28, the arm 17-23 is left out


def test_a_closed_loop_counts_in_full():
    loop = roads(*HEX_SIDES[4])
    assert road_length(loop, 0) == 6
    # another player's settlement on the loop: the trail starts and ends there
    assert road_length(loop, nodes(18)) == 6
    # a tail on the loop: 7-12, then all around h4 back to 12
    assert road_length(loop | roads(11), 0) == 7


def test_a_figure_eight_uses_every_road():
    # h0 and h4 share side 12 (8-12): nodes 8 and 12 have three roads each, an Euler trail between them
    eight = roads(*HEX_SIDES[0], *HEX_SIDES[4])
    assert road_length(eight, 0) == 11


def test_another_players_building_cuts_the_trail():
    path = roads(6, 11, 19, 25, 34, 40, 49)  # 3-7-12-17-22-28-33-38
    assert road_length(path, nodes(17)) == 4  # 17-22-28-33-38
    assert road_length(path, nodes(3)) == 7  # an end node may hold one
    assert road_length(path, nodes(38, 3)) == 7
    assert road_length(path, nodes(12, 28)) == 3  # 12-17-22-28
    # a building at the junction of a fork separates all three arms
    assert road_length(roads(19, 25, 26), nodes(17)) == 1


def test_award_rule():
    alive = (0, 1, 2)
    assert award_longest(-1, (5, 4, 4), alive) == 0
    assert award_longest(-1, (4, 4, 3), alive) == -1  # less than 5
    assert award_longest(-1, (5, 5, 3), alive) == -1  # a tie never gives the card
    assert award_longest(0, (5, 5, 3), alive) == 0  # the holder keeps it on a tie
    assert award_longest(0, (5, 6, 3), alive) == 1  # strictly more takes it
    assert award_longest(0, (4, 6, 6), alive) == -1  # broken holder, others tie: set aside
    assert award_longest(0, (4, 6, 5), alive) == 1
    assert award_longest(0, (4, 3, 3), alive) == -1  # below 5 after the cut
    assert award_longest(0, (9, 6, 5), (1, 2)) == 1  # a resigned holder is out of it


def test_a_settlement_cuts_only_the_roads_through_it_and_tie_after_break():
    # seat 0: 3-7-12-17-22-28-33-38 (7) holds it; seat 1 and seat 2 have 6 each (E4's position)
    state = position(3, active=1, s0=dict(settlements=[3], roads=[6, 11, 19, 25, 34, 40, 49]),
                     s1=dict(settlements=[5], roads=[8, 14, 20, 27, 35, 42, 26], hand="1brick+1lumber+1wool+1grain"),
                     s2=dict(settlements=[50], roads=[65, 60, 59, 64, 69, 68]))
    assert state.inner.longest == 0
    after = play(state, 1, "settle 17")
    assert [x.road_len for x in after.inner.seats] == [4, 6, 6] and after.inner.longest == -1
    view = G.view(after, None)
    assert view["longest_road"] == {"holder": None, "lengths": [4, 6, 6]}


def test_a_city_does_not_change_road_lengths():
    state = position(3, s0=dict(settlements=[12], roads=[19, 25, 34, 40, 49], hand="2grain+3ore"))
    assert state.inner.longest == 0
    after = play(state, 0, "city 12")
    assert after.inner.longest == 0 and after.inner.seats[0].road_len == 5
