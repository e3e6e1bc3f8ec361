"""Catan turn flow around the edges: options, turn and round numbers, the round limit, resignation
(common actions) in every kind of step, and agreed draws."""

from __future__ import annotations

import pytest
from support.catanhelpers import G, R, cards, give_dev, hand_of, knowledge, moves, play, position, with_inner

from engines.catan import dev
from engines.catan.state import DISCARD, FINAL_REVEAL, MAIN, OVER, PRE_ROLL, RESPOND, ROBBER, SETUP_SETTLE
from engines.contract import HIDDEN


def roll(state, dice):
    return G.chance(play(state, state.inner.active, "roll"), dice)


# ----------------------------------------------------------------------------- options


def test_options():
    assert G.check_options({}) == {"board": "beginner", "domestic": "on", "max_rounds": "0"}
    assert G.check_options({"board": "random", "domestic": "off", "max_rounds": "25"})["max_rounds"] == "25"
    assert G.start(3, {"max_rounds": "1000"}).inner.max_rounds == 1000
    for bad in ({"board": "hex"}, {"domestic": "yes"}, {"max_rounds": "07"}, {"max_rounds": "-1"},
                {"max_rounds": "2.5"}, {"max_rounds": 5}, {"board": None}, {"defense": "all"}, {"max_rounds": ""}):
        with pytest.raises(ValueError):
            G.start(3, bad)
    for players in (1, 2, 5):
        with pytest.raises(ValueError):
            G.start(players)


# ----------------------------------------------------------------------------- turns and rounds


def test_turn_and_round_numbers():
    state = position(3, step=PRE_ROLL)
    assert (state.inner.turn, state.inner.round) == (1, 1)
    for expected in [(2, 1, 1), (3, 2, 1), (4, 0, 2), (5, 1, 2)]:
        state = play(roll(state, (2, 2)), state.inner.active, "end")
        s = state.inner
        assert (s.turn, s.active, s.round) == expected
        assert s.step == PRE_ROLL and s.offers == 0 and not s.dev_played


def test_round_limit_final_reveal_in_seat_order():
    state = position(3, step=PRE_ROLL, options={"max_rounds": "1"},
                     s0=dict(settlements=[12, 3]), s1=dict(settlements=[14], cities=[28], dev="victorypoint"),
                     s2=dict(settlements=[40, 31, 50]))
    for _ in range(3):
        state = play(roll(state, (2, 2)), state.inner.active, "end")
    s = state.inner
    assert s.step == FINAL_REVEAL and s.queue == (0, 1, 2) and s.turn == 4 and s.round == 1
    assert G.legal(state, 0) == ["reveal 0"]
    state = play(state, 0, "reveal 0")
    state = play(state, 1, "reveal 1")
    state = play(state, 2, "reveal 0")
    result = G.result(state)
    assert result.reason == "round limit" and result.scores == (2, 4, 3) and result.winners == (1,)
    assert G.awaiting(state).kind == "over"


def test_round_limit_ties_share_the_win():
    state = position(3, step=PRE_ROLL, options={"max_rounds": "1"},
                     s0=dict(settlements=[12, 3]), s1=dict(settlements=[14, 28]), s2=dict(settlements=[40]))
    for _ in range(3):
        state = play(roll(state, (2, 2)), state.inner.active, "end")
    state = play(state, 0, "reveal 0")
    state = play(state, 1, "reveal 0")
    state = play(state, 2, "reveal 0")
    assert G.result(state).winners == (0, 1)


# ----------------------------------------------------------------------------- resignation


def four():
    return position(4, s0=dict(settlements=[12], roads=[19, 25, 34, 40, 49], hand="2brick+1ore"),
                    s1=dict(settlements=[14], roads=[21], hand="3wool", knights=3),
                    s2=dict(settlements=[40], roads=[57], hand="1grain"),
                    s3=dict(settlements=[31], roads=[46], hand="1ore"))


def test_the_active_player_resigns():
    state = with_inner(four(), largest=1, turn=3)
    assert state.inner.longest == 0
    state = G.play(state, 0, "resign")
    s = state.inner
    assert s.out == (0,) and state.out == (0,)
    assert s.seats[0].roads == 0 and s.seats[0].settlements == 0 and hand_of(state, 0) == cards("")
    assert s.bank[0] == 19 - 0 and s.bank[4] == 19 - 1  # seat 0's cards went back
    assert s.longest == -1  # set aside: nobody else has 5
    assert s.active == 1 and s.step == PRE_ROLL and s.turn == 4
    view = G.view(state, None)
    assert view["nodes"] == {"14": [1, "settlement"], "31": [3, "settlement"], "40": [2, "settlement"]}
    # its turns are skipped from now on
    for expected in (2, 3, 1):
        state = play(roll(state, (2, 2)), state.inner.active, "end")
        assert state.inner.active == expected
    assert state.inner.round == 2  # wrapped from 3 to 1


def test_a_removed_building_no_longer_cuts_roads():
    state = position(3, active=2, s0=dict(settlements=[3], roads=[6, 11, 19, 25, 34, 40, 49]),
                     s1=dict(settlements=[17, 5], roads=[8, 14, 20, 27, 35, 42]),
                     s2=dict(settlements=[50], roads=[65, 60, 59, 64, 69, 68, 63]))
    s = state.inner
    assert [x.road_len for x in s.seats] == [4, 6, 7] and s.longest == 2
    state = G.play(state, 2, "end")
    # seat 1 resigns while it answers seat 0's draw offer, not at a decision point of the game
    state = G.play(state, 0, "offer draw")
    assert G.awaiting(state).seats == (1,)
    state = G.play(state, 1, "resign")
    s = state.inner
    assert s.out == (1,) and state.offer is None
    assert [x.road_len for x in s.seats] == [7, 0, 7] and s.longest == 2  # the holder keeps it on the tie
    assert s.step == PRE_ROLL and s.active == 0  # seat 0's step resumes


def test_a_responder_resigns():
    state = position(4, s0=dict(settlements=[12], hand="1brick"), s1=dict(settlements=[14], hand="1ore"),
                     s3=dict(settlements=[31], hand="1ore"))
    state = play(state, 0, "offer 1brick for 1ore to all")
    assert state.inner.queue == (1, 3)
    state = G.play(state, 1, "resign")
    assert state.inner.queue == (3,) and state.inner.step == RESPOND
    state = G.play(state, 3, "resign")
    assert state.inner.step == MAIN and state.inner.offer is None
    assert G.result(state) is None  # seats 0 and 2 play on


def test_an_addressee_who_accepted_then_the_last_responder_resigns():
    state = position(4, s0=dict(settlements=[12], hand="1brick"), s1=dict(settlements=[14], hand="1ore"),
                     s3=dict(settlements=[31], hand="1ore"))
    state = play(state, 0, "offer 1brick for 1ore to all")
    state = play(state, 1, "accept")
    state = G.play(state, 3, "resign")
    assert state.inner.step == "confirm" and moves(state, 0) == ["cancel", "confirm 1"]


def test_a_discarder_resigns():
    state = position(4, step=PRE_ROLL, s0=dict(settlements=[12], hand="8brick"), s1=dict(settlements=[14]),
                     s2=dict(settlements=[40], hand="8wool"))
    state = roll(state, (3, 4))
    assert state.inner.step == DISCARD and state.inner.queue == (0, 2)
    state = play(state, 0, "discard 4brick")
    state = G.play(state, 2, "resign")
    assert state.inner.step == ROBBER and state.inner.active == 0
    assert state.inner.bank[2] == 19


def test_resigning_during_set_up():
    state = play(G.start(3), 0, "settle 12", "road 19")
    state = play(state, 1, "settle 14")
    state = G.play(state, 1, "resign")
    s = state.inner
    assert s.seats[1].settlements == 0 and s.step == SETUP_SETTLE and s.active == 2
    state = play(state, 2, "settle 40", "road 57", "settle 31", "road 46")
    assert state.inner.active == 0  # seat 1's second placement is skipped
    state = play(state, 0, "settle 23", "road 26")
    assert state.inner.step == PRE_ROLL and state.inner.active == 0 and state.inner.turn == 1


def test_resigning_first_in_set_up_lowest_remaining_seat_starts():
    state = G.start(3)
    state = G.play(state, 0, "resign")
    assert state.inner.active == 1
    state = play(state, 1, "settle 14", "road 21")
    state = play(state, 2, "settle 40", "road 57", "settle 31", "road 46")
    state = play(state, 1, "settle 28", "road 40")
    assert state.inner.step == PRE_ROLL and state.inner.active == 1


def test_largest_army_after_the_holder_resigns():
    state = position(4, s0=dict(settlements=[12], knights=4), s1=dict(settlements=[14], knights=3),
                     s2=dict(settlements=[40], knights=2), s3=dict(settlements=[31], knights=3))
    state = with_inner(state, largest=0)
    assert G.play(state, 0, "resign").inner.largest == -1  # seats 1 and 3 tie
    state = with_inner(state, seats=state.inner.seats[:3] + (state.inner.seats[3].put(knights=2),))
    assert G.play(state, 0, "resign").inner.largest == 1


def test_the_last_seat_standing_wins_and_resigned_seats_score_0():
    state = position(3, s0=dict(settlements=[12]), s1=dict(settlements=[14, 28]), s2=dict(settlements=[40]))
    state = G.play(state, 0, "resign")
    state = G.play(state, 1, "resign")
    result = G.result(state)
    assert result.winners == (2,) and result.reason == "resign" and result.scores == (0, 0, 1)


def test_development_cards_leave_with_a_resigned_seat():
    state = give_dev(position(3, s0=dict(settlements=[12]), s1=dict(settlements=[14])), 0, "knight+monopoly")
    assert dev.remaining_deck(state.inner) == (13, 1, 2, 5, 2)
    after = G.play(state, 0, "resign")
    assert dev.remaining_deck(after.inner) == (13, 1, 2, 5, 2)  # they left the game, not to the deck
    assert after.inner.seats[0].dev_n == 0 and after.inner.deck == 23
    peer = G.play(knowledge(state, 1), 0, "resign")
    assert peer.inner.gone is HIDDEN and dev.remaining_deck(peer.inner) is None
    assert G.digest(peer) == G.digest(after)


def test_agreed_draw_scores_public_points():
    state = position(3, s0=dict(settlements=[12]), s1=dict(settlements=[14], cities=[28]), s2=dict(settlements=[40]))
    state = G.play(state, 0, "offer draw")
    state = G.play(state, 1, "accept draw")
    state = G.play(state, 2, "accept draw")
    result = G.result(state)
    assert result.winners == () and result.scores == (1, 3, 1)


def test_a_claim_with_no_hidden_card():
    state = position(3, s0=dict(settlements=[12, 3, 40, 50], cities=[31, 10, 20]), s1=dict(settlements=[14]))
    assert R.public_vp(state.inner, 0) == 10
    assert moves(state, 0) == ["claim 0"]
    state = play(state, 0, "claim 0")
    assert state.inner.step == FINAL_REVEAL
    state = play(state, 1, "reveal 0")
    state = play(state, 2, "reveal 0")
    assert state.inner.step == OVER and G.result(state).winners == (0,)
