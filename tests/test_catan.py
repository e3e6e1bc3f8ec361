"""Catan (docs/rules/catan.md): the worked examples E1-E7, the rules around them, and illegal texts."""

from __future__ import annotations

import pytest
from support.catanhelpers import (
    G,
    R,
    cards,
    give_dev,
    hand_of,
    hands,
    illegal,
    knowledge,
    moves,
    play,
    position,
    seat_put,
    with_inner,
)

from engines.catan.state import CONFIRM, DISCARD, FINAL_REVEAL, MAIN, PRE_ROLL, RESPOND, ROBBER, STEAL, STEAL_PICK
from engines.contract import HIDDEN, Chance, IllegalAction


def e1() -> object:
    """E1: initial placement, 3 players, beginner board."""
    state = G.start(3)
    for seat, a, b in [(0, "settle 12", "road 19"), (1, "settle 14", "road 21"), (2, "settle 40", "road 57"),
                       (2, "settle 31", "road 46"), (1, "settle 28", "road 40")]:
        state = play(state, seat, a, b)
    return play(state, 0, "settle 23", "road 26")


def roll(state, dice):
    """The active seat rolls and the dice come up `dice`."""
    return G.chance(play(state, state.inner.active, "roll"), dice)


# ----------------------------------------------------------------------------- E1 initial placement


def test_e1_initial_placement():
    state = G.start(3)
    assert G.awaiting(state).seats == (0,)
    state = play(state, 0, "settle 12")
    assert moves(state, 0) == ["road 11", "road 12", "road 19"]  # the edges at node 12
    illegal(state, 0, "road 26", "settlement just placed")
    state = play(state, 0, "road 19")
    assert G.awaiting(state).seats == (1,)
    state = play(state, 1, "settle 14", "road 21")
    state = play(state, 2, "settle 40", "road 57")
    assert G.awaiting(state).seats == (2,)  # snake order: seat 2 places twice in a row
    state = play(state, 2, "settle 31")
    assert hand_of(state, 2) == cards("1lumber+1wool+1ore")
    state = play(state, 2, "road 46")
    state = play(state, 1, "settle 28")
    assert hand_of(state, 1) == cards("2lumber+1grain")
    state = play(state, 1, "road 40")
    illegal(state, 0, "settle 35", "distance rule")
    assert "settle 35" not in moves(state, 0)
    state = play(state, 0, "settle 23")
    assert hand_of(state, 0) == cards("1brick+1lumber")
    state = play(state, 0, "road 26")
    s = state.inner
    assert s.step == PRE_ROLL and s.active == 0 and s.turn == 1 and s.round == 1
    assert [hand_of(state, i) for i in range(3)] == [cards("1brick+1lumber"), cards("2lumber+1grain"),
                                                     cards("1lumber+1wool+1ore")]
    assert s.bank == (18, 15, 18, 18, 18)
    assert G.view(state, None)["vp_public"] == [2, 2, 2]
    assert moves(state, 0) == ["roll"]
    assert state == e1()


def test_setup_settlement_needs_an_empty_node_and_the_distance_rule():
    state = play(G.start(3), 0, "settle 12", "road 19")
    illegal(state, 1, "settle 12", "already holds")
    illegal(state, 1, "settle 17", "distance rule")
    illegal(state, 1, "settle 54", "no node 54")
    assert "settle 17" not in moves(state, 1) and "settle 12" not in moves(state, 1)
    assert len(moves(state, 1)) == 54 - 4


# ----------------------------------------------------------------------------- E2 production


def test_e2_production():
    state = e1()
    rolled = roll(state, (3, 3))
    assert rolled.inner.step == MAIN
    assert hand_of(rolled, 0) == cards("3brick+1lumber")  # 1brick+1lumber plus 2brick
    assert hand_of(rolled, 2) == cards("1lumber+1wool+1grain+1ore")
    assert hand_of(rolled, 1) == cards("2lumber+1grain")
    rolled = roll(state, (5, 5))
    assert hand_of(rolled, 0) == cards("1brick+1lumber+1ore")
    assert hand_of(rolled, 1) == cards("1brick+2lumber+1grain")
    rolled = roll(state, (6, 5))
    assert hand_of(rolled, 0) == cards("1brick+2lumber")
    assert hand_of(rolled, 1) == cards("3lumber+1grain")
    assert hand_of(rolled, 2) == cards("1lumber+1wool+1ore")  # h18 pays nobody


def test_e2_bank_shortage():
    state = e1()
    short = with_inner(state, bank=(18, 1, 18, 18, 18))
    rolled = roll(short, (6, 5))  # two players owed lumber, one left: nobody gets any
    assert hand_of(rolled, 0) == cards("1brick+1lumber") and hand_of(rolled, 1) == cards("2lumber+1grain")
    assert rolled.inner.bank[1] == 1
    short = with_inner(state, bank=(1, 15, 18, 18, 18))
    rolled = roll(short, (3, 3))  # seat 0 alone is owed brick (2): he takes the 1 left
    assert hand_of(rolled, 0) == cards("2brick+1lumber")
    assert rolled.inner.bank[0] == 0
    assert hand_of(rolled, 2) == cards("1lumber+1wool+1grain+1ore")


# ----------------------------------------------------------------------------- E3 a seven


def test_e3_seven_discards_robber_steal():
    state = hands(e1(), s0="3brick+2lumber+2wool+2grain", s1="2lumber+2wool+4ore", s2="1brick+2wool+4grain")
    state = roll(state, (3, 4))
    s = state.inner
    assert s.step == DISCARD and s.queue == (0, 1)  # seat 2 holds 7: not more than 7, skipped
    assert G.awaiting(state).seats == (0,)
    illegal(state, 0, "discard 1brick+1lumber+1wool", "exactly 4")
    illegal(state, 0, "discard 4brick", "does not hold")
    assert "discard 1brick+1lumber+1wool+1grain" in moves(state, 0)
    assert all(sum(cards(a.split()[1])) == 4 for a in moves(state, 0))
    state = play(state, 0, "discard 1brick+1lumber+1wool+1grain")
    assert G.awaiting(state).seats == (1,)
    state = play(state, 1, "discard 1lumber+3ore")
    assert state.inner.step == ROBBER and G.awaiting(state).seats == (0,)
    illegal(state, 0, "robber h9", "must move")
    assert "robber h9" not in moves(state, 0) and len(moves(state, 0)) == 18
    state = play(state, 0, "robber h8")
    assert state.inner.step == STEAL
    assert moves(state, 0) == ["steal 1"]  # seat 0's own settlement 23 is ignored
    illegal(state, 0, "steal 2", "not a candidate")
    state = play(state, 0, "steal 1")
    assert state.inner.step == STEAL_PICK
    assert G.awaiting(state).chance == Chance("pick", n=4, label="card stolen")
    assert hand_of(state, 1) == cards("1lumber+2wool+1ore")
    before = hand_of(state, 0)
    state = G.chance(state, 3)  # [lumber, wool, wool, ore][3] = ore
    assert hand_of(state, 1) == cards("1lumber+2wool")
    assert hand_of(state, 0) == tuple(b + (i == 4) for i, b in enumerate(before))
    assert state.inner.step == MAIN and state.inner.robber == 8
    # while the robber is on h8, a roll of 11 pays nobody from h8
    later = with_inner(state, step="roll")
    after = G.chance(later, (6, 5))
    assert [hand_of(after, i) for i in range(3)] == [hand_of(state, i) for i in range(3)]


def test_a_steal_from_a_single_card_hand_is_no_chance_point():
    state = hands(e1(), s1="1wool")
    state = with_inner(state, step=ROBBER, back=MAIN)
    state = play(state, 0, "robber h8", "steal 1")
    assert state.inner.step == MAIN
    assert hand_of(state, 1) == cards("") and hand_of(state, 0) == cards("1brick+1lumber+1wool")


def test_robber_without_candidates_goes_back_to_main():
    state = with_inner(hands(e1(), s1=""), step=ROBBER, back=MAIN)
    state = play(state, 0, "robber h8")  # seat 1 has no card: no candidate
    assert state.inner.step == MAIN


# ----------------------------------------------------------------------------- E4 longest road


def e4(seat0_roads=(6, 11, 19, 25, 34, 40, 49)):
    return position(3, active=1,
                    s0=dict(settlements=[3], roads=seat0_roads),
                    s1=dict(settlements=[5], roads=[8, 14, 20, 27, 35, 42], hand="2brick+2lumber+1wool+1grain"),
                    s2=dict(settlements=[50], roads=[65, 60, 59, 64, 69, 68], hand="1brick+1lumber"))


def test_e4_longest_road_tie_break_set_aside():
    state = e4()
    s = state.inner
    assert [x.road_len for x in s.seats] == [7, 6, 6] and s.longest == 0
    assert G.view(state, None)["vp_public"] == [3, 1, 1]
    state = play(state, 1, "road 26")
    assert state.inner.seats[1].road_len == 6  # a branch does not add
    assert "settle 17" in moves(state, 1)
    state = play(state, 1, "settle 17")
    s = state.inner
    assert [x.road_len for x in s.seats] == [4, 6, 6]
    assert s.longest == -1  # the holder is not tied for the longest and the leaders tie: set aside
    assert G.view(state, None)["vp_public"] == [1, 2, 1]
    state = with_inner(state, active=2)
    state = play(state, 2, "road 63")
    s = state.inner
    assert s.seats[2].road_len == 7 and s.longest == 2


def test_e4_variant_holder_tied_after_the_cut_keeps_the_card():
    state = e4(seat0_roads=(6, 11, 19, 25, 34, 40, 49, 54, 62))
    assert state.inner.seats[0].road_len == 9 and state.inner.longest == 0
    state = play(state, 1, "road 26", "settle 17")
    s = state.inner
    assert [x.road_len for x in s.seats] == [6, 6, 6] and s.longest == 0


# ----------------------------------------------------------------------------- E5 maritime rates


def test_e5_maritime_rates():
    state = position(3, s0=dict(settlements=[10, 3], hand="3brick+2ore"))
    assert G.view(state, 0)["rates"][0] == [3, 3, 3, 3, 2]
    legal = moves(state, 0)
    assert "trade 2ore for 1wool" in legal and "trade 3brick for 1ore" in legal
    assert not [a for a in legal if a.startswith("trade 4")]
    illegal(state, 0, "trade 4brick for 1ore", "rate for brick is 3")
    illegal(state, 0, "trade 2ore for 1ore", "two different types")
    illegal(state, 0, "trade 3brick for 2ore", "1 card")
    after = play(state, 0, "trade 2ore for 1wool")
    assert hand_of(after, 0) == cards("3brick+1wool")
    assert after.inner.bank[2] == 18 and after.inner.bank[4] == 19
    plain = position(3, s0=dict(settlements=[12], hand="4brick"))
    assert G.view(plain, 0)["rates"][0] == [4, 4, 4, 4, 4]
    assert [a for a in moves(plain, 0) if a.startswith("trade")] == [
        "trade 4brick for 1grain", "trade 4brick for 1lumber", "trade 4brick for 1ore", "trade 4brick for 1wool"]


def test_maritime_trade_needs_the_bank_to_hold_the_card():
    state = position(3, s0=dict(settlements=[12], hand="4brick"))
    state = with_inner(state, bank=(15, 0, 19, 19, 19))
    assert "trade 4brick for 1lumber" not in moves(state, 0)
    illegal(state, 0, "trade 4brick for 1lumber", "bank holds no lumber")


# ----------------------------------------------------------------------------- E6 domestic offers


def e6():
    return position(4, s0=dict(settlements=[12], hand="2brick+1wool"), s1=dict(settlements=[14], hand="1grain+1ore"),
                    s2=dict(settlements=[40], hand="2wool"), s3=dict(settlements=[31], hand="2ore"))


def test_e6_domestic_offer():
    state = e6()
    assert "offer 1brick for 1ore to all" in moves(state, 0)
    state = play(state, 0, "offer 1brick for 1ore to all")
    s = state.inner
    assert s.step == RESPOND and s.queue == (1, 3) and s.offers == 1
    assert moves(state, 1) == ["accept", "decline"] and moves(state, 0) == []
    state = play(state, 1, "accept")
    state = play(state, 3, "decline")
    assert state.inner.step == CONFIRM
    assert moves(state, 0) == ["cancel", "confirm 1"]
    illegal(state, 0, "confirm 3", "did not accept")
    state = play(state, 0, "confirm 1")
    assert hand_of(state, 0) == cards("1brick+1wool+1ore") and hand_of(state, 1) == cards("1brick+1grain")
    assert state.inner.step == MAIN and state.inner.offers == 1


def test_e6_illegal_offers():
    state = e6()
    illegal(state, 0, "offer 1brick for 1brick to all", "share no card type")
    illegal(state, 0, "offer 2brick for 3ore to 3", "at most 4 cards")
    illegal(state, 0, "offer 1brick for 1grain to 2", "seat 2 does not hold 1grain")
    illegal(state, 0, "offer 3brick for 1ore to 3", "seat 0 does not hold 3brick")
    illegal(state, 0, "offer 1brick for 1ore to 0", "not another seat")
    illegal(state, 0, "offer 1brick for 3wool to all", "no other seat holds 3wool")
    legal = moves(state, 0)
    assert "offer 1brick for 1grain to 2" not in legal and "offer 1brick for 1grain to 1" in legal
    for _ in range(5):
        state = play(state, 0, "offer 1brick for 1ore to 3")
        state = play(state, 3, "decline")
    assert state.inner.offers == 5
    illegal(state, 0, "offer 1brick for 1ore to 3", "at most 5 offers")
    assert not [a for a in moves(state, 0) if a.startswith("offer")]


def test_offer_nobody_accepts_lapses_and_cancel():
    state = play(e6(), 0, "offer 1wool for 1ore to all")
    state = play(state, 1, "decline")
    state = play(state, 3, "decline")
    assert state.inner.step == MAIN and state.inner.offer is None
    state = play(state, 0, "offer 1wool for 1ore to 1")
    state = play(state, 1, "accept")
    state = play(state, 0, "cancel")
    assert state.inner.step == MAIN and hand_of(state, 0) == cards("2brick+1wool")


def test_domestic_off_removes_offers():
    state = position(4, options={"domestic": "off"}, s0=dict(settlements=[12], hand="2brick+1wool"),
                     s1=dict(settlements=[14], hand="1ore"))
    assert not [a for a in moves(state, 0) if a.startswith("offer")]
    illegal(state, 0, "offer 1brick for 1ore to 1", "domestic trade is off")


def test_offer_count_in_a_rich_position_matches_the_decision():
    rich = "4brick+4lumber+4wool+4grain+4ore"
    state = position(4, s0=dict(settlements=[12], hand=rich), s1=dict(settlements=[14], hand=rich),
                     s2=dict(settlements=[40], hand=rich), s3=dict(settlements=[31], hand=rich))
    offers = [a for a in moves(state, 0) if a.startswith("offer")]
    assert len(offers) == 1720 == 430 * 4  # D8
    assert offers == sorted(offers)


# ----------------------------------------------------------------------------- E7 development cards


def test_e7_knight_not_on_the_turn_bought_then_largest_army():
    state = position(3, active=1, s1=dict(settlements=[14], hand="1wool+1grain+1ore"))
    state = with_inner(state, turn=5)
    state = play(state, 1, "buy")
    waiting = G.awaiting(state)
    assert waiting.kind == "chance" and waiting.chance.kind == "deal" and waiting.chance.private_to == 1
    assert waiting.chance.n == 25 and waiting.chance.deck == "development" and len(waiting.chance.pool) == 25
    state = G.chance(state, 0)  # knight
    assert "play knight" not in moves(state, 1)
    illegal(state, 1, "play knight", "bought it this turn")
    state = play(state, 1, "end")
    state = play(roll(state, (2, 2)), 2, "end")
    assert state.inner.turn == 7 and state.inner.active == 0
    state = play(roll(state, (2, 2)), 0, "end")
    assert state.inner.turn == 8 and state.inner.step == PRE_ROLL
    assert "play knight" in moves(state, 1)  # legal in pre-roll of his next turn
    state = seat_put(state, 1, knights=2)
    state = play(state, 1, "play knight")
    assert state.inner.largest == 1 and state.inner.step == ROBBER and state.inner.back == PRE_ROLL
    assert G.view(state, None)["vp_public"][1] == 3
    state = play(state, 1, "robber h0")  # nobody there: back to pre-roll
    assert state.inner.step == PRE_ROLL and moves(state, 1) == ["roll"]  # one card per turn


def test_e7_largest_army_needs_strictly_more_than_the_holder():
    state = position(3, active=0, s0=dict(settlements=[12], knights=2, dev="knight+knight"),
                     s1=dict(settlements=[14], knights=3))
    state = with_inner(state, largest=1, step=PRE_ROLL)
    state = play(state, 0, "play knight", "robber h1")
    assert state.inner.seats[0].knights == 3 and state.inner.largest == 1
    state = with_inner(state, dev_played=False)
    state = play(state, 0, "play knight")
    assert state.inner.seats[0].knights == 4 and state.inner.largest == 0


def test_largest_army_without_holder_needs_more_than_every_other_seat():
    state = position(3, s0=dict(settlements=[12], knights=2, dev="knight"), s2=dict(settlements=[40], knights=3))
    state = play(state, 0, "play knight")  # 3 knights, but seat 2 has 3 too
    assert state.inner.largest == -1


def test_e7_forced_claim_and_final_reveal():
    state = position(3, active=2,
                     s0=dict(settlements=[12], cities=[2, 26], dev="victorypoint"),
                     s1=dict(settlements=[14], cities=[28, 36]),
                     s2=dict(settlements=[40, 50], cities=[31, 10, 20], hand="1wool+1grain+1ore", dev="victorypoint"))
    state = with_inner(state, largest=1)
    assert [R.public_vp(state.inner, o) for o in range(3)] == [5, 7, 8]
    assert "claim 1" not in moves(state, 2)  # 9 VP with the hidden card: no claim
    state = play(state, 2, "buy")
    state = G.chance(state, 3)  # victorypoint: 10 VP
    assert moves(state, 2) == ["claim 2"]
    assert "resign" in G.legal(state, 2)  # the common actions stay
    illegal(state, 2, "end", "forced `claim 2`")
    illegal(state, 2, "claim 1", "holds 2 victorypoint")
    state = play(state, 2, "claim 2")
    assert state.inner.step == FINAL_REVEAL and G.awaiting(state).seats == (0,)
    assert G.legal(state, 0) == ["reveal 1"]  # no common actions in the final reveal
    illegal(state, 0, "reveal 0", "holds 1 victorypoint")
    state = play(state, 0, "reveal 1")
    assert G.legal(state, 1) == ["reveal 0"]
    state = play(state, 1, "reveal 0")
    result = G.result(state)
    assert result.winners == (2,) and result.reason == "10 victory points"
    assert result.scores == (6, 7, 10)


def test_e7_claim_at_the_start_of_the_next_turn():
    state = position(3, active=1, s0=dict(settlements=[12, 3, 40, 44 + 6], cities=[31, 10], dev="victorypoint"),
                     s1=dict(settlements=[14]))
    assert R.public_vp(state.inner, 0) == 8
    state = with_inner(state, largest=0)  # e.g. reached during seat 1's turn: nothing happens then
    assert G.result(state) is None and moves(state, 1)[-1] != "claim 1"
    state = play(state, 1, "end")
    state = play(roll(state, (2, 2)), 2, "end")
    assert state.inner.active == 0 and state.inner.step == PRE_ROLL
    assert moves(state, 0) == ["claim 1"]


# ----------------------------------------------------------------------------- development card effects


def test_road_building_places_up_to_two_free_roads():
    state = position(3, s0=dict(settlements=[12], roads=[19], dev="roadbuilding"))
    state = play(state, 0, "play roadbuilding")
    assert state.inner.step == "free-road" and state.inner.free == 2
    assert moves(state, 0) == ["road 11", "road 12", "road 25", "road 26"]
    state = play(state, 0, "road 26", "road 35")
    assert state.inner.step == MAIN and state.inner.seats[0].road_len == 3 and hand_of(state, 0) == cards("")


def test_road_building_stops_when_no_road_is_left():
    state = position(3, s0=dict(settlements=[12], roads=[19, 11, 12, 25, 26, 35, 43, 51, 57, 63, 67, 66, 62, 54],
                                dev="roadbuilding"))
    state = play(state, 0, "play roadbuilding", "road 10")  # the 15th road: none left in supply
    assert state.inner.step == MAIN and state.inner.free == 0


def test_year_of_plenty_and_monopoly():
    state = position(3, s0=dict(settlements=[12], dev="yearofplenty+monopoly"), s1=dict(hand="1wool+2ore"),
                     s2=dict(hand="3ore"))
    assert "play yearofplenty 2ore" in moves(state, 0) and "play monopoly ore" in moves(state, 0)
    illegal(state, 0, "play yearofplenty 3ore", "exactly 2")
    after = play(state, 0, "play yearofplenty 1brick+1ore")
    assert hand_of(after, 0) == cards("1brick+1ore")
    assert not [a for a in moves(after, 0) if a.startswith("play")]  # one card per turn
    after = play(state, 0, "play monopoly ore")
    assert hand_of(after, 0) == cards("5ore") and hand_of(after, 1) == cards("1wool") and hand_of(after, 2) == cards("")
    short = with_inner(state, bank=(19, 19, 19, 19, 1))
    assert "play yearofplenty 2ore" not in moves(short, 0)
    illegal(short, 0, "play yearofplenty 2ore", "bank does not hold")


def test_victorypoint_cards_are_never_played():
    state = position(3, s0=dict(settlements=[12], dev="victorypoint"))
    illegal(state, 0, "play victorypoint", "not a Catan action")


# ----------------------------------------------------------------------------- hidden cards (public checks)


def test_other_seats_check_a_hidden_hand_against_public_knowledge():
    state = position(3, active=1, s1=dict(settlements=[14], dev="knight+monopoly", new="monopoly"))
    peer = knowledge(state, 0)
    assert peer.inner.private[1] is HIDDEN
    real = [a for a in moves(state, 1) if a.startswith("play")]
    public = [a for a in moves(peer, 1) if a.startswith("play")]
    assert real == ["play knight"]
    assert "play knight" in public and "play monopoly ore" in public and "play roadbuilding" in public
    # the knight: accepted by both, and the public parts agree
    assert G.digest(play(state, 1, "play knight")) == G.digest(play(peer, 1, "play knight"))
    # a monopoly: public knowledge cannot refute it (seat 1 holds 2 cards, 1 bought this turn), the
    # full-knowledge state can
    play(peer, 1, "play monopoly ore")
    illegal(state, 1, "play monopoly ore", "bought it this turn")
    # once all 14 knights are played, nobody can play one
    done = with_inner(peer, played=(14, 0, 0, 0, 0))
    illegal(done, 1, "play knight", "all 14 knight")


def test_hidden_seat_needs_a_card_bought_before_this_turn():
    state = position(3, active=1, s1=dict(settlements=[14], dev="knight", new="knight"))
    peer = knowledge(state, 0)
    assert not [a for a in moves(peer, 1) if a.startswith("play")]
    illegal(peer, 1, "play knight", "no development card bought before this turn")


def test_claims_of_a_hidden_seat_from_public_knowledge():
    state = position(3, active=0, s0=dict(settlements=[12, 3, 40, 50], cities=[31, 10], dev="knight+knight"))
    peer = knowledge(state, 1)
    assert R.public_vp(state.inner, 0) == 8
    assert [a for a in moves(state, 0) if a.startswith("claim")] == []
    assert [a for a in moves(peer, 0) if a.startswith("claim")] == ["claim 2"]
    assert "end" in moves(peer, 0)  # nobody else knows whether the claim is forced
    illegal(peer, 0, "claim 1", "less than 10")
    illegal(peer, 0, "claim 3", "cannot hold 3")
    illegal(state, 0, "claim 2", "has 8 victory points")


def test_deal_checks():
    state = play(position(3, active=1, s1=dict(settlements=[14], hand="1wool+1grain+1ore")), 1, "buy")
    state = with_inner(state, played=(0, 2, 0, 0, 0))  # both monopolies played
    with pytest.raises(IllegalAction, match="holds no monopoly"):
        G.chance(state, 1)
    peer = knowledge(give_dev(state, 0, "knight"), 1)
    with pytest.raises(IllegalAction, match="known to be out of the deck"):
        G.chance(peer, 1)
    other = knowledge(state, 0)
    after = G.chance(other, HIDDEN)
    assert after.inner.private[1] is HIDDEN and after.inner.seats[1].dev_n == 1
    assert G.digest(after) == G.digest(G.chance(state, 0))


# ----------------------------------------------------------------------------- building


def test_main_building_rules():
    state = position(3, s0=dict(settlements=[12], roads=[19, 25], hand="4brick+4lumber+2wool+4grain+3ore"),
                     s1=dict(settlements=[23]))
    legal = moves(state, 0)
    assert "settle 22" in legal and "settle 17" not in legal  # 17 is next to 12
    assert "road 26" in legal  # 17-23 touches seat 1's settlement: a road may end there
    assert "city 12" in legal
    illegal(state, 0, "settle 28", "no road touching")
    illegal(state, 0, "city 23", "no settlement on node 23")
    state = play(state, 0, "road 26")
    illegal(state, 0, "road 35", "not connected")  # the network does not continue through 23
    state = play(state, 0, "city 12")
    assert state.inner.seats[0].cities == 1 << 12 and state.inner.seats[0].settlements == 0
    assert R.public_vp(state.inner, 0) == 2
    illegal(state, 0, "city 12", "no settlement")


def test_costs_and_supply():
    state = position(3, s0=dict(settlements=[12], roads=[19], hand="1brick"))
    illegal(state, 0, "road 25", "costs 1brick+1lumber")
    illegal(state, 0, "buy", "costs 1wool+1grain+1ore")
    full = position(3, s0=dict(settlements=[0, 2, 12, 14, 40], roads=[19, 25], hand="1brick+1lumber+1wool+1grain"))
    illegal(full, 0, "settle 22", "no settlement left")
    assert "settle 22" not in moves(full, 0)


# ----------------------------------------------------------------------------- notation


@pytest.mark.parametrize("text", ["", "xyzzy", "settle", "settle 012", "settle -1", "road 7 8", "play", "play knight 1",
                                  "discard 0brick", "discard 1lumber+1brick", "discard 1brick+1brick",
                                  "trade 4brick for", "offer 1brick for 1ore to", "Roll", " roll", "roll ",
                                  "robber 9", "claim x", "settle ١٢"])
def test_non_canonical_texts_are_refused_with_the_forms(text):
    state = e1()
    reason = illegal(state, 0, text, "not a Catan action")
    assert "settle <node>" in reason


def test_a_verb_of_another_step_names_the_step():
    state = e1()
    illegal(state, 0, "end", "pre-roll step takes")
    illegal(state, 0, "accept", "pre-roll step takes")
    illegal(state, 1, "roll", "not seat 1's turn")


def test_reveals_names_the_dealt_cards_an_action_shows():
    state = e1()
    assert G.reveals(state, 0, "play knight") == (("development", 0),)
    assert G.reveals(state, 0, "play monopoly ore") == (("development", 1),)
    assert G.reveals(state, 0, "play roadbuilding") == (("development", 2),)
    assert G.reveals(state, 0, "play yearofplenty 2ore") == (("development", 4),)
    assert G.reveals(state, 0, "claim 2") == (("development", 3),) * 2
    assert G.reveals(state, 0, "reveal 0") == ()
    for action in ("roll", "buy", "claim 99999999", "xyzzy", "resign"):
        assert G.reveals(state, 0, action) == ()


def test_the_move_log_says_cards_and_roads_in_words_not_in_action_text():
    """Issue 34, item 9: the engine's words for a move said "4grain" and "edge 56 (39-44)"; a sentence says
    "4 grain" and names the two nodes the terminal's map shows."""
    from engines.catan.board import EDGES
    from engines.catan.cards import multiset_words

    assert multiset_words((0, 0, 0, 4, 0)) == "4 grain"
    assert multiset_words((1, 0, 2, 0, 0)) == "1 brick and 2 wool"
    assert multiset_words((1, 1, 0, 0, 1)) == "1 brick, 1 lumber and 1 ore"
    state = G.start(3)
    a, b = EDGES[56]
    said = G.describe(state, 0, "road 56")
    assert said.endswith(f"builds a road between nodes {a} and {b}") and "edge" not in said, said
    said = G.describe(state, 0, "trade 4grain for 1ore")
    assert "trades 4 grain with the bank for 1 ore" in said and "4grain" not in said, said
    said = G.describe(state, 0, "offer 2brick+1wool for 1lumber to all")
    assert "offers 2 brick and 1 wool for 1 lumber to everybody" in said, said
