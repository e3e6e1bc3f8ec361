"""Cities & Knights: the worked examples CK1-CK9 of docs/rules/catan-ck.md, barbarian outcomes (ties,
metropolis immunity, reduced cities), metropolises and the set-up."""

from __future__ import annotations

from support.catan_ck import (
    G,
    R,
    cards,
    ck_put,
    give_progress,
    hand_of,
    hands,
    held,
    illegal,
    knowledge,
    moves,
    nodes_mask,
    play,
    position,
    with_ext,
    with_inner,
)

from engines.catan_ck.cards import DECK_POOL, P
from engines.contract import HIDDEN


def ck1():
    state = G.start(3)
    state = play(state, 0, "settle 12", "road 19")
    state = play(state, 1, "settle 14", "road 21")
    state = play(state, 2, "settle 40", "road 57")
    assert moves(state, 2)[0].startswith("city ")
    state = play(state, 2, "city 31")
    assert hand_of(state, 2) == cards("1lumber+1wool+1ore")
    state = play(state, 2, "road 46", )
    state = play(state, 1, "city 28")
    assert hand_of(state, 1) == cards("2lumber+1grain")
    state = play(state, 1, "road 40")
    state = play(state, 0, "city 23")
    assert hand_of(state, 0) == cards("1brick+1lumber")
    return play(state, 0, "road 26")


def test_ck1_initial_placement():
    state = ck1()
    view = G.view(state, None)
    assert view["vp_public"] == [3, 3, 3]
    assert view["step"] == "pre-roll" and view["to_act"] == 0
    assert view["ship"] == 0 and view["robber"] == 9 and not view["first_attack_done"]
    assert view["nodes"]["23"] == [0, "city"] and view["nodes"]["12"] == [0, "settlement"]
    assert moves(state, 0) == ["roll"]  # no alchemist held: nothing else before the roll
    assert sum(view["bank"][5:]) == 36  # no commodities at the set-up


def test_setup_city_is_second_and_obeys_the_distance_rule():
    state = G.start(3)
    state = play(state, 0, "settle 12", "road 19", )
    illegal(state, 1, "city 14", "setup-settle")
    state = play(state, 1, "settle 14", "road 21")
    state = play(state, 2, "settle 40", "road 57")
    illegal(state, 2, "settle 31", "city <node>")
    illegal(state, 2, "city 35", "distance rule")


ROLLS = [
    ((3, 3), {0: "3brick", 2: "1grain"}),
    ((4, 5), {1: "1lumber+2grain"}),
    ((4, 4), {2: "1ore+1coin", 1: "1lumber+1paper"}),
    ((2, 3), {2: "1wool+1cloth"}),
    ((1, 3), {1: "1wool", 2: "1grain"}),
    ((1, 2), {2: "1lumber+1ore+1paper"}),
    ((5, 5), {0: "1ore", 1: "1brick"}),
]


def test_ck2_production_settlement_against_city():
    start = ck1()
    before = [hand_of(start, o) for o in range(3)]
    for (red, white), gains in ROLLS:
        state = G.chance(play(start, 0, "roll"), (red, white, 1))
        for o in range(3):
            got = tuple(a - b for a, b in zip(hand_of(state, o), before[o], strict=True))
            assert got == cards(gains.get(o, "")), (red + white, o)
        assert G.view(state, None)["step"] == "main" and state.inner.ext.ship == 1


def test_ck2_aqueduct_when_nothing_comes_and_not_on_a_seven():
    start = ck_put(ck1(), 1, levels=(0, 0, 3))
    state = G.chance(play(start, 0, "roll"), (2, 3, 1))  # 5: only seat 2 produces
    assert state.inner.step == "aqueduct" and G.awaiting(state).seats == (1,)
    assert "aqueduct ore" in moves(state, 1) and all(m.startswith("aqueduct ") for m in moves(state, 1))
    illegal(state, 1, "aqueduct cloth")
    state = play(state, 1, "aqueduct ore")
    assert hand_of(state, 1) == cards("2lumber+1grain+1ore") and state.inner.step == "main"
    state = G.chance(play(start, 0, "roll"), (3, 3, 1))  # 6: seat 1 gets nothing, aqueduct again
    assert state.inner.step == "aqueduct"
    state = G.chance(play(start, 0, "roll"), (4, 3, 1))  # 7: no aqueduct
    assert state.inner.step == "main"
    state = G.chance(play(start, 0, "roll"), (4, 5, 1))  # 9: seat 1 receives, no aqueduct
    assert state.inner.step == "main"


def test_ck3_a_seven_before_the_first_attack():
    state = position(3, active=1, step="pre-roll",
                     s0=dict(settlements=[12], hand="3brick+2lumber+2wool+2grain", progress=["bishop"]),
                     s1=dict(cities=[14], hand="2lumber+2wool+4ore", walls=[14],
                             knights={9: (1, True)}, roads=[15]),
                     s2=dict(cities=[40], hand="2brick+2lumber+2wool+2grain+2ore", walls=[40]))
    state = with_ext(state, ship=2)
    state = G.chance(play(state, 1, "roll"), (4, 3, 1))
    assert state.inner.ext.ship == 3
    assert state.inner.step == "discard" and state.inner.queue == (2, 0)
    assert all(len(m.split("+")) and sum(cards(m.split()[1])) == 5 for m in moves(state, 2))
    state = play(state, 2, "discard 2brick+2lumber+1wool")
    state = play(state, 0, "discard 3brick+1lumber")
    assert state.inner.step == "main" and state.inner.active == 1  # no robber, no steal
    assert not any(m.startswith("chase") for m in moves(state, 1))
    illegal(state, 1, "chase 9", "locked")


def test_ck3_the_robber_follows_once_the_first_attack_is_done():
    state = position(3, active=1, step="pre-roll", s0=dict(settlements=[12], hand="9brick"),
                     s1=dict(settlements=[14]), s2=dict(settlements=[40]))
    state = with_ext(state, ship=6)  # the attack and the 7 on the same roll
    state = G.chance(play(state, 1, "roll"), (4, 3, 2))
    assert state.inner.ext.attacked and state.inner.ext.ship == 0
    assert state.inner.step == "discard"
    state = play(state, 0, "discard 4brick")
    assert state.inner.step == "robber"
    state = play(state, 1, "robber h0")
    assert state.inner.step == "steal"
    state = play(state, 1, "steal 0")
    assert G.awaiting(state).chance.kind == "pick" and G.awaiting(state).chance.n == 5


def ck4(seat2_progress=("bishop", "bishop", "spy", "saboteur")):
    state = position(3, active=0, step="pre-roll", s0=dict(cities=[23], levels=(0, 1, 0)),
                     s1=dict(cities=[28], levels=(0, 2, 0)), s2=dict(cities=[31], levels=(0, 3, 0),
                                                                   progress=list(seat2_progress)))
    return play(state, 0, "roll")


def test_ck4_gate_draws_and_the_drawn_step():
    state = G.chance(ck4(), (3, 5, 5))
    chance = G.awaiting(state).chance
    assert chance.kind == "deal" and chance.deck == "politics" and chance.private_to == 1
    assert chance.epoch == 0 and chance.n == 14  # seat 2 holds 4 politics cards already
    assert DECK_POOL[1] == (0, 0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6, 7, 7, 8, 8)
    assert DECK_POOL[1][12] == 6  # entry 12 of the full pool is a spy
    full = G.chance(state, 6)
    assert held(full, 1) == {"spy": 1} and full.inner.step == "drawn"
    assert moves(full, 1) == ["keep"]
    # networked: seat 1's engine gets 6, the others HIDDEN; the public part agrees
    other = G.chance(knowledge(state, 0), HIDDEN)
    assert G.digest(other) == G.digest(full)
    assert moves(other, 1) == ["keep", "reveal constitution"]
    full = play(full, 1, "keep")
    chance = G.awaiting(full).chance
    assert chance.private_to == 2 and chance.n == 13
    drew = G.chance(full, 1)  # constitution
    assert moves(drew, 2) == ["reveal constitution"]
    illegal(drew, 2, "keep", "victory-point")
    vp = G.view(drew, None)["vp_public"][2]
    drew = play(drew, 2, "reveal constitution")
    assert G.view(drew, None)["vp_public"][2] == vp + 1
    assert drew.inner.ext.seats[2].cards() == 4
    assert drew.inner.step == "main" and hand_of(drew, 2) == cards("1ore+1coin")  # production of 8
    # had he drawn a wedding: 5 cards off turn, bury at once
    wed = play(G.chance(full, 8), 2, "keep")
    assert wed.inner.step == "bury" and G.awaiting(wed).seats == (2,)
    assert moves(wed, 2) == ["bury bishop", "bury saboteur", "bury spy", "bury wedding"]
    wed = play(wed, 2, "bury wedding")
    assert wed.inner.ext.under[P["wedding"]] == 1 and wed.inner.step == "main"


def test_ck4_no_draw_below_the_level():
    state = G.chance(ck4(), (5, 3, 5))  # red 5: nobody (levels 1, 2, 3 draw on 1-2, 1-3, 1-4)
    assert state.inner.step == "main"
    state = G.chance(ck4(), (4, 3, 5))  # red 4: seat 2 only... and a 7
    assert G.awaiting(state).chance.private_to == 2


def ck5(knights: dict, **kw):
    state = position(4, active=2, step="pre-roll",
                     s0=dict(cities=[23, 31], walls=[31], knights=knights.get(0, {})),
                     s1=dict(cities=[28], knights=knights.get(1, {}), **kw.get("s1", {})),
                     s2=dict(cities=[12], walls=[12], knights=knights.get(2, {})),
                     s3=dict(knights=knights.get(3, {})), options=kw.get("options"))
    state = with_ext(state, ship=6, attacked=True, metro=(0, -1, -1), metro_at=(23, -1, -1))
    return play(state, 2, "roll")


KNIGHTS_A = {0: {29: (2, True)}, 1: {34: (2, False), 17: (1, False)}, 2: {13: (1, False)}, 3: {39: (1, True)}}
KNIGHTS_B = {0: {29: (3, True)}, 1: {34: (2, True), 17: (1, True)}, 2: {13: (1, True)}, 3: {}}


def test_ck5a_barbarians_win_the_weakest_exposed_seats_lose_a_city():
    state = G.chance(ck5(KNIGHTS_A), (1, 1, 3))
    assert state.inner.step == "pillage" and G.awaiting(state).seats == (2,)
    assert moves(state, 2) == ["pillage 12"]
    state = play(state, 2, "pillage 12")
    assert state.inner.ext.seats[2].walls == 0 and state.inner.seats[2].settlements == nodes_mask([12])
    assert G.awaiting(state).seats == (1,)
    state = play(state, 1, "pillage 28")
    x = state.inner.ext
    assert state.inner.step == "main" and x.ship == 0
    assert all(cs.active == 0 for cs in x.seats)
    assert state.inner.seats[0].cities == nodes_mask([23, 31])


def test_ck5a_reduced_city_when_no_settlement_is_left():
    state = G.chance(ck5(KNIGHTS_A, s1=dict(settlements=[0, 2, 7, 10, 38])), (1, 1, 3))
    state = play(state, 2, "pillage 12", )
    state = play(state, 1, "pillage 28")
    x = state.inner.ext
    assert x.seats[1].reduced == nodes_mask([28])
    view = G.view(state, None)
    assert view["pieces"][1]["settlements"] == 0 and view["pieces"][1]["cities"] == 3
    assert view["vp_public"][1] == 6  # six settlements' worth
    # upgrading the reduced city needs no free city piece
    state = with_inner(state, step="main", active=1)
    state = ck_put(state, 1, reduced=nodes_mask([28]))
    state = hands(state, s1="2grain+3ore")
    assert "city 28" in moves(state, 1)


def test_ck5a_metropolis_immunity_even_at_strength_zero():
    knights = dict(KNIGHTS_A)
    knights[0] = {29: (2, False)}
    state = G.chance(ck5(knights), (1, 1, 3))  # K = 1 < 4; seats 0, 1, 2 all at strength 0
    assert G.awaiting(state).seats == (2,)
    state = play(state, 2, "pillage 12")
    assert G.awaiting(state).seats == (0,)  # in order from the roller: 2, 0, 1 (seat 3 has no city)
    assert moves(state, 0) == ["pillage 31"]  # 23 carries the trade metropolis
    illegal(state, 0, "pillage 23", "metropolis")
    state = play(state, 0, "pillage 31")
    state = play(state, 1, "pillage 28")
    assert state.inner.step == "main" and state.inner.seats[0].cities == nodes_mask([23])


def test_nobody_exposed_nothing_happens():
    state = position(3, active=0, step="pre-roll", s0=dict(cities=[23]), s1=dict(settlements=[28]))
    state = with_ext(state, ship=6, metro=(0, -1, -1), metro_at=(23, -1, -1))
    state = G.chance(play(state, 0, "roll"), (1, 1, 3))
    assert state.inner.step == "main" and state.inner.ext.attacked


def test_ck5b_catan_wins_tied_defenders_pick_a_deck():
    state = G.chance(ck5(KNIGHTS_B), (1, 1, 3))
    state = give_progress(state, 1, "bishop", "saboteur", "wedding", "warlord")
    assert state.inner.step == "pick" and G.awaiting(state).seats == (0,)
    assert moves(state, 0) == ["pick politics", "pick science", "pick trade"]
    state = play(state, 0, "pick science")
    assert G.awaiting(state).chance.deck == "science" and G.awaiting(state).chance.private_to == 0
    state = G.chance(state, 7)  # printer
    state = play(state, 0, "reveal printer")
    assert G.awaiting(state).seats == (1,)
    state = play(state, 1, "pick politics")
    state = play(G.chance(state, 6), 1, "keep")  # spy: 5 cards off turn
    assert state.inner.step == "bury"
    state = play(state, 1, "bury wedding")
    x = state.inner.ext
    assert state.inner.step == "main" and all(cs.active == 0 for cs in x.seats) and x.ship == 0
    assert [cs.defender for cs in x.seats] == [0, 0, 0, 0]


def test_ck5b_a_single_top_defender_gains_a_defender_point():
    knights = dict(KNIGHTS_B)
    knights[1] = {34: (2, True)}
    state = G.chance(ck5(knights), (1, 1, 3))
    assert state.inner.step == "main"
    assert [cs.defender for cs in state.inner.ext.seats] == [1, 0, 0, 0]
    assert G.view(state, None)["vp_public"][0] == 2 * 2 + 2 + 1


def test_ck5c_defense_choose_commits():
    state = G.chance(ck5(KNIGHTS_B, options={"defense": "choose"}), (1, 1, 3))
    assert state.inner.step == "commit" and state.inner.queue == (2, 0, 1)
    assert moves(state, 2) == ["commit 13", "commit none"]
    state = play(state, 2, "commit none")
    assert moves(state, 0) == ["commit 29", "commit none"]
    state = play(state, 0, "commit 29")
    assert moves(state, 1) == ["commit 17", "commit 17 34", "commit 34", "commit none"]
    state = play(state, 1, "commit none")
    assert state.inner.step == "pillage" and G.awaiting(state).seats == (2,)
    state = play(state, 2, "pillage 12")
    state = play(state, 1, "pillage 28")
    x = state.inner.ext
    assert x.seats[0].active == 0 and x.seats[1].active == nodes_mask([17, 34])
    assert x.seats[2].active == nodes_mask([13])


def test_no_reward_at_strength_zero_and_the_tie_skips_empty_decks():
    state = position(3, active=0, step="pre-roll", s0=dict(settlements=[12]))
    state = with_ext(state, ship=6)
    state = G.chance(play(state, 0, "roll"), (1, 1, 3))  # B = 0 <= K = 0, M = 0: nobody rewarded
    assert state.inner.step == "main" and [cs.defender for cs in state.inner.ext.seats] == [0, 0, 0]
    tie = position(3, active=0, step="pre-roll", s0=dict(cities=[12], knights={13: (1, True)}),
                   s1=dict(knights={28: (1, True)}))
    tie = with_ext(tie, ship=6, pool=(0, 0, 0))
    tie = G.chance(play(tie, 0, "roll"), (1, 1, 3))
    assert tie.inner.step == "main"  # every deck entirely empty: no pick step


def test_ck6_metropolis_taken_at_level_five():
    state = position(3, s0=dict(cities=[23, 31], levels=(3, 0, 0), hand="4cloth"),
                     s1=dict(cities=[28], levels=(3, 3, 0), hand="9cloth+4coin"))
    vp0 = G.view(state, None)["vp_public"][0]
    state = play(state, 0, "improve trade")
    assert state.inner.step == "metropolis" and moves(state, 0) == ["metropolis 23", "metropolis 31"]
    state = play(state, 0, "metropolis 23")
    assert G.view(state, None)["vp_public"][0] == vp0 + 2
    assert G.view(state, None)["metropolises"]["trade"] == [0, 23]
    state = with_inner(state, active=1)
    state = play(state, 1, "improve trade")
    assert state.inner.step == "main" and state.inner.ext.metro[0] == 0
    state = play(state, 1, "improve trade")
    assert state.inner.step == "metropolis" and state.inner.ext.metro[0] == -1
    assert G.view(state, None)["vp_public"][0] == vp0
    state = play(state, 1, "metropolis 28")
    assert G.view(state, None)["metropolises"]["trade"] == [1, 28]
    assert "improve politics" not in moves(state, 1)  # his only city carries a metropolis
    illegal(state, 1, "improve politics", "without a metropolis")
    illegal(state, 1, "improve trade", "level 5")
    state = hands(with_inner(state, active=0), s0="5cloth")
    state = play(state, 0, "improve trade")
    assert state.inner.step == "main" and state.inner.ext.metro[0] == 1  # the first at 5 keeps it


def test_ck7_longest_road_broken_by_a_knight_restored_by_displacement():
    state = position(3, active=1, s0=dict(settlements=[3], roads=[6, 11, 19, 25, 34], knights={22: (2, True)}),
                     s1=dict(settlements=[13], roads=[13, 12], hand="1wool+1ore"))
    assert state.inner.longest == 0 and state.inner.seats[0].road_len == 5
    vp0 = G.view(state, None)["vp_public"][0]
    state = play(state, 1, "knight 12")
    assert hand_of(state, 1) == cards("")
    assert state.inner.seats[0].road_len == 3 and state.inner.longest == -1
    assert G.view(state, None)["vp_public"][0] == vp0 - 2
    state = with_inner(state, active=0)
    assert "displace 22 12" in moves(state, 0)
    state = play(state, 0, "displace 22 12")
    assert state.inner.step == "retreat" and G.awaiting(state).seats == (1,)
    assert moves(state, 1) == ["retreat 8"]
    state = play(state, 1, "retreat 8")
    x = state.inner.ext
    assert x.seats[0].k2 == nodes_mask([12]) and not x.seats[0].active
    assert x.seats[1].k1 == nodes_mask([8])
    assert state.inner.seats[0].road_len == 5 and state.inner.longest == 0


def ck8():
    state = ck1()
    return with_ext(state, attacked=True)


def test_ck8_alchemist_before_the_roll():
    state = give_progress(ck8(), 0, "alchemist")
    state = ck_put(state, 1, levels=(0, 0, 1))
    state = ck_put(state, 2, levels=(0, 0, 2))
    assert "play alchemist 2 6" in moves(state, 0) and len(moves(state, 0)) == 37
    state = play(state, 0, "play alchemist 2 6")
    chance = G.awaiting(state).chance
    assert chance.kind == "dice" and chance.sides == (6,)
    state = G.chance(state, (6,))
    assert G.awaiting(state).chance.private_to == 1  # science gate, red 2: everybody at level >= 1
    state = play(G.chance(state, 0), 1, "keep")
    assert G.awaiting(state).chance.private_to == 2
    state = play(G.chance(state, 1), 2, "keep")
    assert state.inner.step == "main" and state.inner.dice == (2, 6, 6)
    assert state.inner.ext.under[P["alchemist"]] == 1
    illegal(give_progress(ck8(), 0, "alchemist", "crane"), 0, "play crane trade", "only in main")


def test_ck8_deserter_without_and_with_a_recruit():
    base = position(3, s0=dict(settlements=[12, 23], roads=[19, 26], knights={7: (1, False), 17: (1, False)},
                               progress=["deserter"]),
                    s1=dict(settlements=[14, 28], roads=[21, 40], knights={19: (2, True), 33: (1, False)}))
    state = play(base, 0, "play deserter 1")
    assert state.inner.step == "desert" and moves(state, 1) == ["desert 19", "desert 33"]
    state = play(state, 1, "desert 33")
    assert state.inner.step == "main" and state.inner.ext.seats[1].knights() == nodes_mask([19])
    # had seat 1 removed the strong knight, and seat 0 no strong piece left but a basic one
    other = ck_put(base, 0, k1=nodes_mask([7]), k2=nodes_mask([5, 2]))  # node 17 free again
    other = play(other, 0, "play deserter 1", )
    other = play(other, 1, "desert 19")
    assert other.inner.step == "recruit"
    assert moves(other, 0) == ["recruit 17", "skip"]
    recruited = play(other, 0, "recruit 17")
    cs = recruited.inner.ext.seats[0]
    bit = nodes_mask([17])
    assert cs.k1 & bit and cs.active & bit and cs.fresh & bit  # active like the removed one, cannot act
    assert play(other, 0, "skip").inner.step == "main"


def test_ck8_diplomat():
    state = give_progress(ck8(), 0, "diplomat", "diplomat")
    state = with_inner(state, step="main")
    assert "play diplomat 57" in moves(state, 0)
    illegal(state, 0, "play diplomat 19", "open road")
    after = play(state, 0, "play diplomat 57")
    assert not after.inner.seats[2].roads & (1 << 57) and after.inner.step == "main"
    # an own open road (17-22: nothing of seat 0 at 22): re-place it (not on the same edge) or skip
    state = with_inner(state, seats=(state.inner.seats[0].put(roads=state.inner.seats[0].roads | 1 << 25),
                                     *state.inner.seats[1:]))
    own = play(state, 0, "play diplomat 25")
    assert own.inner.step == "replace" and "skip" in moves(own, 0) and "road 25" not in moves(own, 0)
    illegal(own, 0, "road 25", "another edge")
    placed = play(own, 0, "road 11")
    assert placed.inner.seats[0].roads & (1 << 11) and placed.inner.step == "main"
    assert play(own, 0, "skip").inner.step == "main"


def test_ck8_merchant():
    state = give_progress(ck8(), 1, "merchant")
    state = with_inner(state, step="main", active=1)
    state = hands(state, s1="2wool")
    assert "trade 2wool for 1ore" not in moves(state, 1)
    vp = G.view(state, None)["vp_public"][1]
    state = play(state, 1, "play merchant h5")
    assert G.view(state, None)["merchant"] == [5, 1] and G.view(state, None)["vp_public"][1] == vp + 1
    assert "trade 2wool for 1ore" in moves(state, 1)


def test_ck9_market_for_one_cloth_and_the_gates():
    state = position(3, s0=dict(cities=[23], hand="3cloth"))
    assert moves(state, 0).count("improve trade") == 1
    state = play(state, 0, "improve trade")
    assert state.inner.ext.seats[0].levels == (1, 0, 0) and hand_of(state, 0) == cards("2cloth")
    gate = G.chance(play(with_inner(state, step="pre-roll"), 0, "roll"), (2, 1, 4))
    assert G.awaiting(gate).chance.deck == "trade"
    none = G.chance(play(with_inner(state, step="pre-roll"), 0, "roll"), (3, 1, 4))
    assert none.inner.step == "main"
    state = play(state, 0, "improve trade")
    assert state.inner.ext.seats[0].levels == (2, 0, 0) and hand_of(state, 0) == cards("")
    gate = G.chance(play(with_inner(state, step="pre-roll"), 0, "roll"), (3, 1, 4))
    assert G.awaiting(gate).chance.deck == "trade"


def test_ck9_walls_raise_the_discard_limit():
    state = position(3, active=1, step="pre-roll", s0=dict(cities=[23, 31], walls=[23, 31], hand="11brick"),
                     s1=dict(settlements=[14]))
    assert G.view(state, None)["pieces"][0]["walls"] == 1
    seven = G.chance(play(state, 1, "roll"), (4, 3, 1))
    assert seven.inner.step == "main"  # 11 <= 7 + 2 * 2
    state = hands(state, s0="12brick")
    seven = G.chance(play(state, 1, "roll"), (4, 3, 1))
    assert seven.inner.step == "discard" and all(sum(cards(m.split()[1])) == 6 for m in moves(seven, 0))
    assert R.discard_limit(state.inner, 0) == 11


def test_ck9_wall_building_rules():
    state = position(3, s0=dict(cities=[23, 31, 40], walls=[23, 31], hand="4brick"), s1=dict(cities=[14]))
    assert moves(state, 0)[-1] == "wall 40"
    state = play(state, 0, "wall 40")
    assert hand_of(state, 0) == cards("2brick") and "wall" not in " ".join(moves(state, 0))
    state = ck_put(state, 0, walls=nodes_mask([23]))
    illegal(state, 0, "wall 23", "wall already")
    illegal(state, 0, "wall 14", "no city")


def test_thirteen_points_on_your_own_turn():
    # seat 1 reaches 13 during seat 0's turn: nothing; at the start of his turn he wins
    state = position(3, active=0, s0=dict(settlements=[12], progress=["wedding"]),
                     s1=dict(cities=[14, 28, 31, 40], settlements=[2], hand="1grain"))
    state = ck_put(state, 1, defender=4)
    assert G.view(state, None)["vp_public"][1] == 13
    assert G.result(state) is None
    after = play(state, 0, "end")
    assert G.result(after).winners == (1,) and G.result(after).reason == "13 victory points"
    assert G.result(after).scores[1] == 13


def test_round_limit_ends_with_the_highest_score():
    state = position(3, active=2, s0=dict(cities=[12]), options={"max_rounds": "1"})
    result = G.result(play(state, 2, "end"))
    assert result.reason == "round limit" and result.winners == (0,)


def test_no_development_cards_and_no_claim():
    state = position(3, s0=dict(cities=[12], hand="1wool+1grain+1ore"))
    illegal(state, 0, "buy", "no development cards")
    illegal(state, 0, "claim 0", "no development cards")


def test_domestic_offers_carry_at_most_three_cards():
    state = position(4, s0=dict(cities=[12], hand="2brick+2cloth"), s1=dict(cities=[14], hand="3coin"))
    offers = [m for m in moves(state, 0) if m.startswith("offer")]
    assert "offer 1cloth for 2coin to 1" in offers and "offer 2cloth for 1coin to all" in offers
    assert all(sum(cards(m.split()[1])) + sum(cards(m.split()[3])) <= 3 for m in offers)
    illegal(state, 0, "offer 2brick for 2coin to 1", "at most 3")
    assert G.rules.offers_table.count == 504


def test_maritime_rates_trading_house_and_fleet():
    state = position(3, s0=dict(cities=[12], levels=(3, 0, 0), hand="2brick+2cloth", progress=["merchantfleet"]))
    assert "trade 2cloth for 1ore" in moves(state, 0) and "trade 4brick for 1ore" not in moves(state, 0)
    state = play(state, 0, "play merchantfleet brick")
    assert "trade 2brick for 1ore" in moves(state, 0)
    assert "play merchantfleet cloth" not in moves(give_progress(state, 0, "merchantfleet"), 0)
    after = play(state, 0, "end")
    assert after.inner.ext.fleet == 0


def test_resignation_removes_knights_walls_cards_and_passes_the_metropolis():
    state = position(4, active=1, s0=dict(cities=[12]),
                     s1=dict(cities=[14, 40], walls=[14], levels=(4, 0, 0), knights={9: (2, True)},
                             hand="2brick+3cloth", progress=["spy", "merchant"]),
                     s2=dict(cities=[23, 31], levels=(3, 0, 0)), s3=dict(cities=[28], levels=(4, 0, 0)))
    state = with_ext(state, metro=(1, -1, -1), metro_at=(14, -1, -1), merchant=2, merchant_owner=1)
    bank = state.inner.bank
    state = G.play(state, 1, "resign")
    x = state.inner.ext
    assert x.seats[1].knights() == 0 and x.seats[1].walls == 0 and x.seats[1].cards() == 0
    assert state.inner.seats[1].cities == 0
    assert state.inner.bank[0] == bank[0] + 2 and state.inner.bank[5] == bank[5] + 3
    assert x.merchant == -1 and x.merchant_owner == -1
    # seat 3 is now the only one at trade level 4 and owns a city without a metropolis
    assert state.inner.step == "metropolis" and G.awaiting(state).seats == (3,)
    state = play(state, 3, "metropolis 28")
    assert state.inner.step == "pre-roll" and state.inner.active == 2 and state.inner.ext.metro[0] == 3
    assert G.result(state) is None


def test_the_active_player_resigns_mid_turn():
    state = position(3, active=1, s0=dict(cities=[12]), s1=dict(cities=[14], progress=["bishop"]),
                     s2=dict(cities=[40]))
    state = G.play(state, 1, "resign")
    assert state.inner.step == "pre-roll" and state.inner.active == 2
    assert state.inner.gone[P["bishop"]] == 1  # full knowledge: the card left the game
    peer = G.play(knowledge(position(3, active=1, s0=dict(cities=[12]), s1=dict(cities=[14], progress=["bishop"]),
                                     s2=dict(cities=[40])), 0), 1, "resign")
    assert peer.inner.gone is HIDDEN and G.digest(peer) == G.digest(state)


# ---------------------------------------------------------------------------------------------- knight verbs
# Each test checks docs/rules/catan-ck.md, "New actions" (the table rows named), "Knight marks" and "Retreat".
# Seat 0's line of roads in these positions: 3-7-12-17-22 (edges 6 11 19 25).

LINE = [6, 11, 19, 25]


def test_activate_pays_a_grain_and_the_knight_cannot_act_the_same_turn():
    state = position(3, s0=dict(settlements=[3], roads=LINE, knights={7: (1, False)}, hand="2grain"))
    assert "activate 7" in moves(state, 0) and not any(m.startswith("knightmove") for m in moves(state, 0))
    bank = state.inner.bank
    state = play(state, 0, "activate 7")  # "activate <n>": pays 1 grain; active, marked activated this turn
    cs, bit = state.inner.ext.seats[0], nodes_mask([7])
    assert hand_of(state, 0) == cards("1grain") and state.inner.bank[3] == bank[3] + 1
    assert cs.active & bit and cs.fresh & bit and cs.k1 == bit
    assert G.view(state, None)["knights"]["7"] == [0, 1, True, True, False]
    # "Knight marks": a knight activated this turn cannot knightmove, displace or chase
    assert not any(m.startswith(("knightmove", "displace", "chase")) for m in moves(state, 0))
    illegal(state, 0, "knightmove 7 12", "activated this turn")
    illegal(state, 0, "activate 7", "active already")
    illegal(hands(ck_put(state, 0, active=0, fresh=0), s0=""), 0, "activate 7", "1grain")
    # the mark is cleared at the end of the turn; the knight stays active
    state = play(state, 0, "end")
    cs = state.inner.ext.seats[0]
    assert cs.active == bit and cs.fresh == 0
    state = with_inner(state, active=0, step="main")
    assert "knightmove 7 12" in moves(state, 0)


def test_promote_basic_to_strong_and_strong_to_mighty_only_with_the_fortress():
    state = position(3, s0=dict(settlements=[3], roads=LINE, knights={7: (1, True)}, hand="2wool+2ore"))
    state = play(state, 0, "promote 7")  # "promote <n>": pays 1 wool + 1 ore; same active state and marks
    cs, bit = state.inner.ext.seats[0], nodes_mask([7])
    assert hand_of(state, 0) == cards("1wool+1ore")
    assert cs.k1 == 0 and cs.k2 == bit and cs.active & bit and cs.promoted & bit and not cs.fresh & bit
    # one promotion per knight per turn (D14)
    assert "promote 7" not in moves(state, 0)
    illegal(state, 0, "promote 7", "promoted this turn")
    # "Promotion does not affect whether a knight may act"
    assert "knightmove 7 12" in moves(state, 0)
    # next turn: strong -> mighty needs politics level 3 (L = 2 row of the table)
    state = ck_put(state, 0, promoted=0)
    assert "promote 7" not in moves(state, 0)
    illegal(state, 0, "promote 7", "politics level 3")
    fortress = play(ck_put(state, 0, levels=(0, 3, 0)), 0, "promote 7")
    cs = fortress.inner.ext.seats[0]
    assert cs.k2 == 0 and cs.k3 == bit and cs.active & bit and hand_of(fortress, 0) == cards("")
    illegal(hands(ck_put(fortress, 0, promoted=0), s0="1wool+1ore"), 0, "promote 7", "mighty already")
    # fewer than 2 own knights of level L+1 on the board
    full = position(3, s0=dict(settlements=[3], roads=LINE, knights={7: (1, True), 33: (2, False), 40: (2, False)},
                               hand="1wool+1ore"))
    assert "promote 7" not in moves(full, 0)
    illegal(full, 0, "promote 7", "level-2 knights")


def test_knightmove_along_own_roads_and_the_knight_becomes_inactive():
    state = position(3, s0=dict(settlements=[12], roads=LINE, knights={7: (1, True)}, hand="1grain"))
    # "Own road path": through the own settlement on 12; 12 itself is not free
    assert [m for m in moves(state, 0) if m.startswith("knightmove")] == \
        ["knightmove 7 17", "knightmove 7 22", "knightmove 7 3"]
    illegal(state, 0, "knightmove 7 12", "not free")
    illegal(state, 0, "knightmove 7 8", "no road path")
    # another player's building on 17 ends the path there
    cut = position(3, s0=dict(settlements=[12], roads=LINE, knights={7: (1, True)}), s1=dict(settlements=[17]))
    assert [m for m in moves(cut, 0) if m.startswith("knightmove")] == ["knightmove 7 3"]
    illegal(cut, 0, "knightmove 7 22", "no road path")
    # "knightmove <a> <b>": the knight moves to b and becomes inactive
    moved = play(state, 0, "knightmove 7 22")
    cs = moved.inner.ext.seats[0]
    assert cs.k1 == nodes_mask([22]) and cs.active == 0 and cs.fresh == 0
    assert not any(m.startswith(("knightmove", "displace", "chase")) for m in moves(moved, 0))
    # "Knight marks": after reactivation it cannot act again that turn
    again = play(moved, 0, "activate 22")
    illegal(again, 0, "knightmove 22 17", "activated this turn")


def test_displace_a_weaker_knight_which_retreats_keeping_its_state_or_goes_to_supply():
    s1 = dict(settlements=[18], roads=[26, 27], knights={17: (1, True)})  # seat 1's roads 17-23-18
    state = position(3, s0=dict(settlements=[3], roads=LINE, knights={7: (2, True)}), s1=s1)
    state = ck_put(state, 1, fresh=nodes_mask([17]))  # a mark the retreat must keep
    assert "displace 7 17" in moves(state, 0)
    assert "knightmove 7 22" not in moves(state, 0)  # seat 1's knight on 17 ends seat 0's path
    # "displace <a> <b>": the attacker stands on b, inactive; the displaced knight retreats
    state = play(state, 0, "displace 7 17")
    x = state.inner.ext
    assert x.seats[0].k2 == nodes_mask([17]) and x.seats[0].active == 0
    assert x.seats[1].knights() == 0
    assert state.inner.step == "retreat" and G.awaiting(state).seats == (1,)
    assert moves(state, 1) == ["retreat 23"]  # "Retreat": free nodes on seat 1's roads from 17 (18: settlement)
    illegal(state, 1, "retreat 18", "not a free node")
    state = play(state, 1, "retreat 23")
    cs, bit = state.inner.ext.seats[1], nodes_mask([23])
    assert cs.k1 == bit and cs.active == bit and cs.fresh == bit  # keeps its active state and marks
    assert state.inner.step == "main" and state.inner.active == 0 and state.inner.ext.ctx == ()
    # no destination: back to the owner's supply, no retreat step
    bare = position(3, s0=dict(settlements=[3], roads=LINE, knights={7: (2, True)}), s1=dict(knights={17: (1, True)}))
    bare = play(bare, 0, "displace 7 17")
    assert bare.inner.step == "main" and bare.inner.ext.seats[1].knights() == 0
    assert G.view(bare, None)["pieces"][1]["knights"] == [2, 2, 2]
    # only a strictly weaker knight (D14)
    equal = position(3, s0=dict(settlements=[3], roads=LINE, knights={7: (1, True)}), s1=s1)
    assert not any(m.startswith("displace") for m in moves(equal, 0))
    illegal(equal, 0, "displace 7 17", "weaker")


def test_chase_the_robber_after_the_first_attack_then_robber_and_steal():
    # robber on h9 (the desert, corners 18 23 24 29 30 35); seat 1's settlement 40 touches h14
    s0 = dict(settlements=[3], roads=LINE, knights={23: (1, True), 7: (1, True)})
    state = position(3, s0=s0, s1=dict(settlements=[40], hand="1ore"))
    assert state.inner.robber == 9
    assert not any(m.startswith("chase") for m in moves(state, 0))
    illegal(state, 0, "chase 23", "locked")  # "chase <n>": first attack done (D11)
    state = with_ext(state, attacked=True)
    assert [m for m in moves(state, 0) if m.startswith("chase")] == ["chase 23"]
    illegal(state, 0, "chase 7", "corner of the robber's hex")
    illegal(ck_put(state, 0, fresh=nodes_mask([23])), 0, "chase 23", "activated this turn")
    # effect: knight inactive (it stays on its node); robber step, then steal step
    state = play(state, 0, "chase 23")
    cs = state.inner.ext.seats[0]
    assert cs.k1 == nodes_mask([7, 23]) and cs.active == nodes_mask([7])
    assert state.inner.step == "robber" and G.awaiting(state).seats == (0,)
    illegal(state, 0, "robber h9", "another hex")
    state = play(state, 0, "robber h14")
    assert state.inner.robber == 14 and state.inner.step == "steal" and moves(state, 0) == ["steal 1"]
    state = play(state, 0, "steal 1")
    assert hand_of(state, 0) == cards("1ore") and hand_of(state, 1) == cards("")
    assert state.inner.step == "main" and state.inner.active == 0


def test_a_resigned_seat_shows_no_points_in_any_view():
    """catan-ck D40: a resigned seat's Defender points and revealed VP cards left the game with it; every view
    shows its victory points as 0, as its score counts them (they used to show 3 here beside a score of 0)."""
    from client.points import shown_points

    state = position(3, active=1, s0=dict(cities=[12]), s1=dict(cities=[14]), s2=dict(cities=[40]))
    state = ck_put(state, 1, defender=2, vpcards=0b01)
    before = G.view(state, None)
    assert before["vp_public"][1] == 2 + 2 + 1 and before["defender_points"][1] == 2 and before["revealed_vp"][1]
    state = G.play(state, 1, "resign")
    for seat in (None, 0, 1, 2):
        view = G.view(state, seat)
        assert view["vp_public"][1] == 0 and shown_points(view, 1) == 0
        assert view["defender_points"][1] == 0 and view["revealed_vp"][1] == []
        assert view["vp_public"][0] == 2 and shown_points(view, 0) == 2   # the others keep theirs
    assert G.rules.scores(state.inner, (1,))[1] == 0


def test_d41_a_closed_loop_through_an_opponents_knight_counts_in_full():
    """catan-ck D41: a closed loop of six roads around h4 through another seat's knight counts 6, as through
    a settlement there (D39): the knight breaks the trail at its node, and a trail may start and end there."""
    from engines.catan.board import EDGES, HEX_NODES

    ring_nodes = set(HEX_NODES[4])
    ring = [e for e, (a, b) in enumerate(EDGES) if a in ring_nodes and b in ring_nodes]
    assert len(ring) == 6
    node = HEX_NODES[4][0]
    beside = next(n for n in range(54) if n not in ring_nodes and any({n, node} == set(ab) for ab in EDGES))
    mine = dict(roads=ring, settlements=[HEX_NODES[4][3]])
    knight = position(3, active=0, s0=mine, s1=dict(knights={node: (1, True)}, settlements=[beside]))
    settled = position(3, active=0, s0=mine, s1=dict(settlements=[node]))
    assert settled.inner.seats[0].road_len == 6
    assert knight.inner.seats[0].road_len == 6
