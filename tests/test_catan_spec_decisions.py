"""The Catan and Cities & Knights decisions a differential run against an independent implementation made
the spec take (issue 26), each tested from the text of docs/rules/catan.md and docs/rules/catan-ck.md:
the defense bug (with `defense=choose` and no active knight the seventh ship still brings the attack),
D37 (a card's "Also legal only if" column; `merchantfleet <type>` counted without the merchant), D38 (13
VP during the event die wins there: no production, no aqueduct, no later step), and D19, D23, D39, which
write down what the engines already did."""

from __future__ import annotations

from support import catanhelpers as base
from support.catan_ck import (
    G,
    cards,
    ck_put,
    hand_of,
    illegal,
    moves,
    play,
    position,
    texts,
    with_ext,
)

from engines.catan.board import EDGES, HARBOUR_EDGES, HEX_NODE_MASK
from engines.catan.roads import road_length
from engines.catan_ck.cards import P
from engines.contract import HIDDEN

# ------------------------------------------------------------------------------ the defense bug


def test_defense_bug_choose_without_an_active_knight_the_seventh_ship_still_attacks():
    # "With defense=choose, each seat owning at least one active knight ... chooses": here none does, so
    # nobody commits, K = 0 < B = 2 and every exposed seat (lowest S = 0) pillages, in order from the roller
    state = position(3, active=1, step="pre-roll", options={"defense": "choose"},
                     s0=dict(cities=[23], knights={29: (2, False)}), s1=dict(cities=[28]), s2=dict(settlements=[40]))
    state = with_ext(state, ship=6)
    state = G.chance(play(state, 1, "roll"), (1, 1, 2))  # event 2: a ship; red + white = 2
    x = state.inner.ext
    assert state.inner.step == "pillage" and G.awaiting(state).seats == (1,)
    assert x.ship == 0 and x.attacked  # the ship went back; the robber is no longer locked
    state = play(state, 1, "pillage 28")
    assert G.awaiting(state).seats == (0,)
    state = play(state, 0, "pillage 23")
    assert state.inner.step == "main" and state.inner.ext.ship == 0
    assert state.inner.ext.seats[0].k2  # an inactive knight takes no part and stays on the board


def test_defense_bug_choose_no_knight_no_city_the_ship_returns_and_nobody_is_rewarded():
    state = position(3, active=0, step="pre-roll", options={"defense": "choose"}, s0=dict(settlements=[12]))
    state = with_ext(state, ship=6)
    state = G.chance(play(state, 0, "roll"), (3, 4, 1))  # a ship and a 7 on the same roll
    x = state.inner.ext
    assert x.ship == 0 and x.attacked and [cs.defender for cs in x.seats] == [0, 0, 0]
    assert state.inner.step == "robber"  # the first attack is done, so the 7 brings the robber
    # the same roll with `defense=all` gives the same state: choose with nothing to choose is all
    same = position(3, active=0, step="pre-roll", s0=dict(settlements=[12]))
    same = G.chance(play(with_ext(same, ship=6), 0, "roll"), (3, 4, 1))
    assert same.inner.ext.put(defense="choose") == state.inner.ext


# ------------------------------------------------------------------------------ D37


def test_d37_merchantfleet_counts_the_rate_without_the_merchant():
    # seat 0 controls the merchant on h5 (pasture): wool is 2:1 for it now, but the merchant may still move
    # this turn, so a wool fleet is not useless
    state = position(3, s0=dict(settlements=[14], progress=["merchantfleet"]))
    state = with_ext(state, merchant=5, merchant_owner=0)
    assert G.rules.seat_rates(state.inner, 0)[2] == 2  # wool
    assert "play merchantfleet wool" in texts(state, 0, "merchantfleet")
    state = play(state, 0, "play merchantfleet wool")
    assert state.inner.ext.fleet == 1 << 2
    # a 2:1 harbour makes its type's fleet useless; so does a fleet of that type already played
    wool_harbour = EDGES[HARBOUR_EDGES[4]][0]  # P4 of the beginner board: wool 2:1
    harboured = position(3, s0=dict(settlements=[wool_harbour], progress=["merchantfleet", "merchantfleet"]))
    assert "play merchantfleet wool" not in texts(harboured, 0, "merchantfleet")
    illegal(harboured, 0, "play merchantfleet wool", "without the merchant")
    again = play(harboured, 0, "play merchantfleet brick")
    assert "play merchantfleet brick" not in texts(again, 0, "merchantfleet")
    # the Trading House (trade level 3) already trades commodities 2:1
    house = ck_put(harboured, 0, levels=(3, 0, 0))
    assert [t for t in texts(house, 0, "merchantfleet") if t.split()[-1] in ("cloth", "coin", "paper")] == []


def test_d37_irrigation_and_mining_need_a_touched_hex_not_a_bank_that_pays():
    # the card table: "the player has a settlement or city on a fields hex"; the bank pays what it has, so
    # with the bank empty the card is still legal (and yields nothing)
    for card, resource in (("irrigation", "grain"), ("mining", "ore")):
        state = position(3, s0=dict(settlements=[12], progress=[card]), s1=dict(hand=f"19{resource}"))
        assert state.inner.bank[3 if card == "irrigation" else 4] == 0
        assert texts(state, 0, card) == [f"play {card}"]
        after = play(state, 0, f"play {card}")
        assert hand_of(after, 0) == cards("") and after.inner.ext.under[P[card]] == 1
        away = position(3, s0=dict(settlements=[14], progress=[card]))  # h2 forest, h5 pasture, h6 hills
        illegal(away, 0, f"play {card}", "hex touched")


def test_d37_every_condition_of_the_card_table_on_one_position():
    # one position, every card held: each card is listed exactly when its written condition holds
    hold = ["crane", "engineer", "inventor", "irrigation", "medicine", "mining", "roadbuilding", "smith",
            "bishop", "deserter", "diplomat", "intrigue", "saboteur", "spy", "warlord", "wedding",
            "commercialharbor", "mastermerchant", "merchant", "merchantfleet", "resourcemonopoly",
            "trademonopoly"]
    state = position(3, s0=dict(settlements=[14], progress=hold), s1=dict(settlements=[40]), s2=dict())
    listed = {m.split()[1] for m in moves(state, 0) if m.startswith("play ")}
    # no city (crane, engineer, medicine: no ore), no knight (smith, warlord), no fields/mountains touched,
    # robber locked (bishop), nobody with a knight, an open road (seat 0 has none, seat 1 none), a card or
    # more points; a road may still be built next to the settlement (roadbuilding)
    assert listed == {"inventor", "roadbuilding", "merchant", "merchantfleet"}
    richer = position(3, s0=dict(settlements=[14], cities=[12], roads=[19], knights={13: (1, False)},
                                 hand="1brick+1lumber+2grain+2ore", progress=hold),
                      s1=dict(settlements=[40], cities=[31, 28], roads=[57], knights={39: (1, True)},
                              hand="2wool+1cloth", progress=["spy"]))
    richer = with_ext(richer, attacked=True)
    listed = {m.split()[1] for m in moves(richer, 0) if m.startswith("play ")}
    assert listed == {"crane", "engineer", "inventor", "irrigation", "medicine", "mining", "roadbuilding", "smith",
                      "bishop", "deserter", "diplomat", "saboteur", "spy", "warlord", "wedding", "commercialharbor",
                      "mastermerchant", "merchant", "merchantfleet", "resourcemonopoly", "trademonopoly"}


# ------------------------------------------------------------------------------ D38


def _twelve(defender: int = 3, **extra):
    """Seat 0 to roll with 12 VP (4 cities, 1 settlement, 3 Defender points) and knights of strength 4
    against B = 4 cities, the ship on 6: a ship brings the attack, and seat 0 alone defends best."""
    state = position(3, active=0, step="pre-roll",
                     s0=dict(cities=[12, 23, 31, 40], settlements=[2], knights={17: (3, True), 22: (1, True)},
                             **extra))
    state = ck_put(state, 0, defender=defender)
    return with_ext(state, ship=6)


def test_d38_a_defender_point_to_13_wins_before_the_production():
    state = _twelve()
    assert G.view(state, None)["vp_public"][0] == 12
    state = G.chance(play(state, 0, "roll"), (3, 3, 1))  # a ship (the attack), and 6: h4 hills by 12 and 23
    result = G.result(state)
    assert result is not None and result.winners == (0,) and result.reason == "13 victory points"
    assert state.inner.ext.seats[0].defender == 4
    assert hand_of(state, 0) == cards("")  # that roll's production was not paid
    assert state.inner.ext.agenda == ()


def test_d38_below_13_the_roll_goes_on_to_its_production():
    state = G.chance(play(_twelve(defender=2), 0, "roll"), (3, 3, 1))
    assert G.result(state) is None and state.inner.ext.seats[0].defender == 3
    assert hand_of(state, 0)[0] > 0  # bricks from h4


def test_d38_a_seat_off_turn_reaching_13_does_not_stop_the_roll():
    state = position(3, active=1, step="pre-roll",
                     s0=dict(cities=[12, 23, 31, 40], settlements=[2], knights={17: (3, True), 22: (1, True)}),
                     s1=dict(settlements=[14]))
    state = with_ext(ck_put(state, 0, defender=3), ship=6)
    state = G.chance(play(state, 1, "roll"), (3, 3, 1))
    assert G.result(state) is None and state.inner.ext.seats[0].defender == 4
    assert hand_of(state, 0)[0] > 0 and state.inner.step == "main"


def test_d38_a_printer_revealed_at_the_gate_wins_before_the_production():
    state = position(3, active=0, step="pre-roll", s0=dict(cities=[12, 23, 31, 40], settlements=[2],
                                                          levels=(0, 0, 1)))
    state = ck_put(state, 0, defender=3)
    state = G.chance(play(state, 0, "roll"), (1, 5, 6))  # science gate, red 1: seat 0 draws; 6 produces
    state = G.chance(state, 7)  # the printer
    assert moves(state, 0) == ["reveal printer"]
    state = play(state, 0, "reveal printer")
    assert G.result(state).winners == (0,) and hand_of(state, 0) == cards("")


# ------------------------------------------------------------------------------ D19, D23, D39


def test_d19_the_spy_option_defaults_to_a_private_look():
    state = position(3, s0=dict(settlements=[12], progress=["spy"]), s1=dict(progress=["bishop"]))
    assert state.inner.ext.spy == "private"
    looked = play(state, 0, "play spy 1")
    assert G.awaiting(looked).chance.kind == "show" and G.awaiting(looked).chance.private_to == 0
    public = position(3, options={"spy": "public"}, s0=dict(settlements=[12], progress=["spy"]),
                      s1=dict(progress=["bishop"]))
    shown = play(public, 0, "play spy 1")
    assert G.awaiting(shown).kind == "move" and G.awaiting(shown).seats == (1,)
    assert moves(shown, 1) == ["show 1bishop"]
    assert G.chance(looked, HIDDEN).inner.step == "take"


def test_d23_a_forced_claim_seen_from_outside():
    # public VP 10 on the active seat's own turn: every copy lists only the claims, in the discard step too
    state = base.position(3, active=0, s0=dict(settlements=[12, 3, 40, 50], cities=[31, 10, 20], dev="knight"))
    peer = base.knowledge(state, 1)
    assert base.R.public_vp(state.inner, 0) == 10
    assert base.moves(peer, 0) == ["claim 0", "claim 1"]
    assert base.moves(state, 0) == ["claim 0"]
    discarding = base.with_inner(base.hands(state, s0="4brick+4wool"), step="discard", queue=(0,))
    assert base.moves(base.knowledge(discarding, 1), 0) == ["claim 0", "claim 1"]
    assert base.moves(discarding, 0) == ["claim 0"]


def test_d39_a_closed_loop_through_an_opponents_settlement_counts_in_full():
    # the six sides of h4, with another player's building on one corner (node 18): 6, not 5
    loop = sum(1 << e for e in range(72) if EDGES[e][0] in _h4() and EDGES[e][1] in _h4())
    assert bin(loop).count("1") == 6
    assert road_length(loop, 1 << 18) == 6
    assert road_length(loop, 1 << 18 | 1 << 12) == 3  # buildings on opposite corners: two arcs of 3


def _h4() -> set[int]:
    return {n for n in range(54) if HEX_NODE_MASK[4] >> n & 1}
