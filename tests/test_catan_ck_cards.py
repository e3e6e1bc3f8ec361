"""Cities & Knights progress cards: every one of the 25 card types in at least one test (effects, timing,
D32 "no effect, not legal"), the hand limit, hidden hands on other peers, the spy's private look, and
the decks' refill epochs."""

from __future__ import annotations

import pytest
from support.catan_ck import (
    G,
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
    texts,
    with_ext,
    with_inner,
)

from engines.catan_ck.cards import CARD_TOTALS, DECK_CARDS, DECK_INDEX, PROGRESS, P
from engines.contract import HIDDEN, IllegalAction
from engines.referee import Referee


def digests_agree(state, seat, *actions):
    """Play `actions` by `seat` on the full state and on every other seat's knowledge state."""
    full = play(state, seat, *actions)
    for other in range(state.inner.n):
        peer = play(knowledge(state, other), seat, *actions)
        assert G.digest(peer) == G.digest(full), other
    return full


# ------------------------------------------------------------------------------ science


def test_crane_builds_one_level_one_commodity_cheaper():
    state = position(3, s0=dict(cities=[23], progress=["crane", "crane"], hand="2paper"))
    assert texts(state, 0, "crane") == ["play crane politics", "play crane science", "play crane trade"]
    state = play(state, 0, "play crane politics")  # level 1 is free
    assert state.inner.ext.seats[0].levels == (0, 1, 0) and hand_of(state, 0) == cards("2paper")
    state = play(state, 0, "improve science")
    state = play(state, 0, "play crane science")  # level 2 for 1 paper
    assert state.inner.ext.seats[0].levels == (0, 1, 2) and hand_of(state, 0) == cards("")
    assert state.inner.ext.under[P["crane"]] == 2
    to_four = position(3, s0=dict(cities=[23], levels=(0, 0, 3), progress=["crane"], hand="3paper"))
    to_four = play(to_four, 0, "play crane science")
    assert to_four.inner.step == "metropolis"
    assert texts(position(3, s0=dict(progress=["crane"], hand="5paper")), 0, "crane") == []  # no city


def test_engineer_builds_a_free_wall():
    state = position(3, s0=dict(cities=[23, 31], walls=[23], progress=["engineer"]))
    assert texts(state, 0, "engineer") == ["play engineer 31"]
    state = play(state, 0, "play engineer 31")
    assert state.inner.ext.seats[0].walls == nodes_mask([23, 31]) and hand_of(state, 0) == cards("")


def test_inventor_swaps_two_tokens():
    state = position(3, s0=dict(settlements=[12], progress=["inventor"]))
    found = texts(state, 0, "inventor")
    assert "play inventor h0 h2" in found  # 10 and 9
    assert not any(" h4" in t or " h11" in t or " h1 " in t or t.endswith(" h1") for t in found)  # 6, 8, 2
    assert "play inventor h0 h6" not in found  # both 10: no effect
    state = play(state, 0, "play inventor h0 h2")
    assert state.inner.layout[1][0] == 9 and state.inner.layout[1][2] == 10
    illegal(position(3, s0=dict(settlements=[12], progress=["inventor"])), 0, "play inventor h4 h2", "2, 6, 8")


@pytest.mark.parametrize(("card", "resource"), [("irrigation", "grain"), ("mining", "ore")])
def test_irrigation_and_mining_pay_two_per_touched_hex(card, resource):
    # seat 0: settlements 12 (h0 mountains, h3 fields, h4) and 40 (h13 mountains, h14 fields, h17 fields)
    state = position(3, s0=dict(settlements=[12, 40], cities=[7], progress=[card]))
    state = play(state, 0, f"play {card}")
    got = 6 if card == "irrigation" else 4  # h3, h14, h17 / h0, h13 (each hex once)
    assert hand_of(state, 0) == cards(f"{got}{resource}")
    short = position(3, s0=dict(settlements=[12, 40], progress=[card]), s1=dict(hand=f"16{resource}"))
    short = play(short, 0, f"play {card}")
    assert hand_of(short, 0) == cards(f"3{resource}")  # the bank pays what it has
    nothing = position(3, s0=dict(settlements=[14], progress=[card]))  # h2 forest, h5 pasture, h6 hills
    assert texts(nothing, 0, card) == []
    illegal(nothing, 0, f"play {card}", "needs")


def test_medicine_upgrades_for_two_ore_and_one_grain():
    state = position(3, s0=dict(settlements=[12, 23], progress=["medicine"], hand="1grain+2ore"))
    assert texts(state, 0, "medicine") == ["play medicine 12", "play medicine 23"]
    state = play(state, 0, "play medicine 23")
    assert state.inner.seats[0].cities == nodes_mask([23]) and hand_of(state, 0) == cards("")
    poor = position(3, s0=dict(settlements=[12], progress=["medicine"], hand="1grain+1ore"))
    assert texts(poor, 0, "medicine") == []


def test_printer_and_constitution_are_revealed_never_played():
    state = position(3, s0=dict(cities=[23]))
    for card in ("printer", "constitution"):
        with pytest.raises(IllegalAction) as info:
            G.play(state, 0, f"play {card}")
        assert "never played" in info.value.reason


def test_roadbuilding_gives_two_free_roads():
    state = position(3, s0=dict(settlements=[12], roads=[19], progress=["roadbuilding"]))
    state = play(state, 0, "play roadbuilding")
    assert state.inner.step == "free-road"
    state = play(state, 0, "road 25")
    assert state.inner.step == "free-road"
    state = play(state, 0, "road 34")
    assert state.inner.step == "main" and state.inner.seats[0].roads.bit_count() == 3
    assert hand_of(state, 0) == cards("")


def test_smith_promotes_up_to_two_knights_higher_level_first():
    state = position(3, s0=dict(settlements=[12], roads=[19, 26], levels=(0, 3, 0), progress=["smith"],
                                knights={17: (2, True), 23: (1, False), 7: (2, False)}))
    # both strong pieces are on the board: the basic one can be promoted only after a strong one is
    found = texts(state, 0, "smith")
    assert "play smith 7 23" in found and "play smith 17 23" in found and "play smith 23" not in found
    state = play(state, 0, "play smith 17 23")
    cs = state.inner.ext.seats[0]
    assert cs.k3 == nodes_mask([17]) and cs.k2 == nodes_mask([7, 23]) and cs.active == nodes_mask([17])
    assert "promote 17" not in moves(hands(state, s0="2wool+2ore"), 0)
    no_fortress = ck_put(state, 0, levels=(0, 2, 0))
    assert texts(give_progress(no_fortress, 0, "smith"), 0, "smith") == []


# ------------------------------------------------------------------------------ politics


def test_bishop_moves_the_robber_and_robs_every_opponent_there():
    state = position(4, s0=dict(settlements=[7], progress=["bishop"]), s1=dict(settlements=[12], hand="2brick"),
                     s2=dict(cities=[4], hand="1ore"), s3=dict(settlements=[8]))
    assert texts(state, 0, "bishop") == []  # locked before the first attack
    state = with_ext(state, attacked=True)
    state = play(state, 0, "play bishop")
    assert state.inner.step == "robber"
    state = play(state, 0, "robber h0")  # corners 0 4 8 12 7 3: seats 1, 2 (cards), 3 (none), 0 (own)
    assert G.awaiting(state).chance.kind == "pick" and state.inner.victim == 1
    state = G.chance(state, 1)
    # seat 2 holds one card: taken without a chance point; seat 3 has none
    assert hand_of(state, 0) == cards("1brick+1ore") and state.inner.step == "main"


def test_intrigue_displaces_a_knight_on_your_roads():
    state = position(3, s0=dict(settlements=[12], roads=[19], progress=["intrigue"]),
                     s1=dict(settlements=[23], roads=[26, 25], knights={17: (3, True)}))
    assert texts(state, 0, "intrigue") == ["play intrigue 17"]
    state = play(state, 0, "play intrigue 17")
    assert state.inner.step == "retreat" and moves(state, 1) == ["retreat 22"]
    state = play(state, 1, "retreat 22")
    cs = state.inner.ext.seats[1]
    assert cs.k3 == nodes_mask([22]) and cs.active == nodes_mask([22]) and state.inner.step == "main"


def test_intrigue_without_a_retreat_sends_the_knight_home():
    state = position(3, s0=dict(settlements=[12], roads=[19], progress=["intrigue"]),
                     s1=dict(knights={17: (1, True)}))
    state = play(state, 0, "play intrigue 17")
    assert state.inner.step == "main" and state.inner.ext.seats[1].knights() == 0


def test_saboteur_hits_seats_with_as_many_or_more_points():
    state = position(4, s0=dict(settlements=[12], progress=["saboteur"]), s1=dict(settlements=[14], hand="5brick"),
                     s2=dict(cities=[40], hand="3ore"), s3=dict(hand="9wool"))
    state = play(state, 0, "play saboteur")
    assert state.inner.step == "discard" and state.inner.queue == (1, 2)  # seat 3 has 0 VP < 1
    state = play(state, 1, "discard 2brick")
    state = play(state, 2, "discard 1ore")
    assert state.inner.step == "main" and hand_of(state, 3) == cards("9wool")
    alone = position(3, s0=dict(cities=[12], progress=["saboteur"]), s1=dict(settlements=[14], hand="5brick"))
    assert texts(alone, 0, "saboteur") == []


def test_warlord_activates_every_knight():
    state = position(3, s0=dict(knights={12: (1, False), 17: (2, True)}, progress=["warlord"]))
    state = play(state, 0, "play warlord")
    cs = state.inner.ext.seats[0]
    assert cs.active == nodes_mask([12, 17]) and cs.fresh == nodes_mask([12])
    assert texts(give_progress(state, 0, "warlord"), 0, "warlord") == []


def test_wedding_richer_opponents_give_two_cards():
    state = position(4, s0=dict(settlements=[12], progress=["wedding"]), s1=dict(cities=[14], hand="1brick+2ore"),
                     s2=dict(cities=[40], hand="1wool"), s3=dict(settlements=[31], hand="4grain"))
    state = play(state, 0, "play wedding")
    assert state.inner.step == "give" and G.awaiting(state).seats == (1,)
    assert "give 2ore" in moves(state, 1) and "give 1ore" not in moves(state, 1)
    state = play(state, 1, "give 2ore")
    assert moves(state, 2) == ["give 1wool"]
    state = play(state, 2, "give 1wool")
    assert state.inner.step == "main" and hand_of(state, 0) == cards("1wool+2ore")  # seat 3: same VP


def test_spy_public_the_target_shows_its_hand_to_everybody():
    state = position(3, s0=dict(settlements=[12], progress=["spy"]),
                     s1=dict(settlements=[14], progress=["bishop", "merchant"]), s2=dict(progress=["spy"]),
                     options={"spy": "public"})
    full = digests_agree(state, 0, "play spy 1")
    assert full.inner.step == "show" and G.awaiting(full).seats == (1,)
    assert moves(full, 1) == ["show 1bishop+1merchant"]
    peer = play(knowledge(state, 2), 0, "play spy 1")
    shown = moves(peer, 1)  # from public knowledge: one politics and one trade card
    assert "show 1bishop+1merchant" in shown and "show 1merchant+1spy" in shown and len(shown) == 8 * 6
    assert all("constitution" not in m and "printer" not in m for m in shown)
    assert G.reveals(full, 1, "show 1bishop+1merchant") == (("politics", DECK_INDEX[P["bishop"]]),
                                                            ("trade", DECK_INDEX[P["merchant"]]))
    illegal(full, 1, "show 1bishop+1spy", "holds")
    full = digests_agree(full, 1, "show 1bishop+1merchant")
    assert G.view(full, None)["progress"][1]["known"] == ["bishop", "merchant"]
    assert moves(full, 0) == ["take bishop", "take merchant"]
    full = digests_agree(full, 0, "take bishop")
    assert held(full, 0) == {"bishop": 1} and G.view(full, None)["progress"][1]["known"] == ["merchant"]


def test_spy_is_a_private_look_and_the_taken_card_is_named():
    state = position(3, s0=dict(settlements=[12], progress=["spy"]), s1=dict(settlements=[14],
                                                                             progress=["bishop", "merchant"]),
                     options={"spy": "private"})
    peers = [knowledge(state, o) for o in range(3)]
    assert texts(state, 0, "spy") == ["play spy 1"]
    full = play(state, 0, "play spy 1")
    peers = [play(k, 0, "play spy 1") for k in peers]
    chance = G.awaiting(full).chance
    assert chance.kind == "show" and chance.private_to == 0 and chance.source == 1 and chance.n == 25
    value = G.disclose(full)
    assert value[P["bishop"]] == 1 and value[P["merchant"]] == 1 and sum(value) == 2
    assert sorted(G.shows(full, value)) == [("politics", DECK_INDEX[P["bishop"]]), ("trade", DECK_INDEX[P["merchant"]])]
    # the protocol decrypts the undisclosed cards for the spy; the rules make the value of them
    assert G.show_value(peers[0], G.shows(full, value)) == value
    full = G.chance(full, value)
    peers = [G.chance(k, value if o == 0 else HIDDEN) for o, k in enumerate(peers)]
    assert all(G.digest(k) == G.digest(full) for k in peers)
    assert G.view(peers[0], 0)["seen"] == {"seat": 1, "cards": ["bishop", "merchant"]}
    assert "seen" not in G.view(peers[2], 2) and "seen" not in G.view(peers[1], 1)
    assert moves(peers[0], 0) == ["take bishop", "take merchant"]
    assert "take spy" in moves(peers[2], 0)  # from public knowledge a politics card may be a spy
    with pytest.raises(IllegalAction):
        G.chance(play(state, 0, "play spy 1"), tuple(1 if g == P["wedding"] else 0 for g in range(25)))
    illegal(peers[0], 0, "take spy", "not shown")
    # the take shows a card of the target's hand (proven from the look): the same on every peer
    assert {G.reveals(k, 0, "take merchant") for k in peers} == {(("trade", DECK_INDEX[P["merchant"]]),)}
    full = play(full, 0, "take merchant")
    peers = [play(k, 0, "take merchant") for k in peers]
    assert all(G.digest(k) == G.digest(full) for k in peers)
    assert held(full, 0) == {"merchant": 1} and held(full, 1) == {"bishop": 1}
    assert full.inner.ext.seats[0].known[P["merchant"]] == 1  # publicly known now
    assert G.view(peers[2], 2)["progress"][0]["known"] == ["merchant"]
    # a publicly known card is played without a new proof
    assert G.reveals(full, 0, "play merchant h0") == ()
    assert G.reveals(state, 0, "play spy 1") == (("politics", DECK_INDEX[P["spy"]]),)


def test_spy_through_the_referee_shows_only_to_the_spy():
    state = position(3, s0=dict(settlements=[12], progress=["spy"]), s1=dict(settlements=[14],
                                                                             progress=["bishop"]),
                     options={"spy": "private"})
    referee = Referee.from_state(G, state, 3, 0)
    referee.knowing = [knowledge(state, o) for o in range(3)]
    referee.diverged = True
    referee.submit(0, "play spy 1")
    step = referee.feed_chance()
    assert step.value[P["bishop"]] == 1
    assert referee.state_of(0).inner.ext.seen[0] == (1, step.value)
    assert referee.state_of(2).inner.ext.seen[0] is None and referee.state_of(1).inner.ext.seen[0] is None
    referee.submit(0, "take bishop")
    assert referee.state.inner.ext.seats[0].known[P["bishop"]] == 1


# ------------------------------------------------------------------------------ trade


def test_commercial_harbor_swaps_a_resource_for_a_commodity_opponent_by_opponent():
    state = position(4, s0=dict(settlements=[12], progress=["commercialharbor"], hand="2brick"),
                     s1=dict(hand="1coin"), s2=dict(hand="1wool"), s3=dict(hand="1cloth+1paper"))
    state = play(state, 0, "play commercialharbor")
    assert state.inner.step == "harbor" and moves(state, 0) == ["harbor brick", "skip"]
    state = play(state, 0, "harbor brick")
    assert state.inner.step == "give" and moves(state, 1) == ["give 1coin"]
    state = play(state, 1, "give 1coin")
    assert state.inner.step == "harbor" and state.inner.ext.ctx == (3,)  # seat 2 has no commodity
    state = play(state, 0, "skip")
    assert state.inner.step == "main" and hand_of(state, 0) == cards("1brick+1coin")
    assert hand_of(state, 1) == cards("1brick")
    again = give_progress(state, 0, "commercialharbor")
    assert texts(again, 0, "commercialharbor") == []  # both opponents used up this turn


def test_master_merchant_takes_two_cards_from_a_richer_opponent():
    state = position(3, s0=dict(settlements=[12], progress=["mastermerchant"]),
                     s1=dict(cities=[14], hand="1brick+3ore+1cloth"), s2=dict(settlements=[40], hand="2wool"))
    found = texts(state, 0, "mastermerchant")
    assert "play mastermerchant 1 1brick+1cloth" in found and not any(" 2 " in t for t in found)
    state = play(state, 0, "play mastermerchant 1 2ore")
    assert hand_of(state, 0) == cards("2ore") and hand_of(state, 1) == cards("1brick+1ore+1cloth")
    illegal(give_progress(state, 0, "mastermerchant"), 0, "play mastermerchant 1 1brick", "min(2")


def test_monopolies():
    state = position(4, s0=dict(settlements=[12], progress=["resourcemonopoly", "trademonopoly"]),
                     s1=dict(hand="3wool+2coin"), s2=dict(hand="1wool"), s3=dict(hand="1coin"))
    assert texts(state, 0, "trademonopoly") == ["play trademonopoly coin"]
    state = play(state, 0, "play resourcemonopoly wool")
    assert hand_of(state, 0) == cards("3wool") and hand_of(state, 1) == cards("1wool+2coin")
    state = play(state, 0, "play trademonopoly coin")
    assert hand_of(state, 0) == cards("3wool+2coin") and hand_of(state, 1) == cards("1wool+1coin")
    illegal(give_progress(state, 0, "trademonopoly"), 0, "play trademonopoly wool")


def test_merchant_moves_and_control_passes():
    state = position(3, s0=dict(settlements=[12], progress=["merchant"]), s1=dict(settlements=[14],
                                                                                  progress=["merchant"]))
    assert "play merchant h9" not in texts(state, 0, "merchant")
    state = play(state, 0, "play merchant h0")
    assert G.view(state, None)["vp_public"][0] == 2
    assert texts(give_progress(state, 0, "merchant"), 0, "merchant") == ["play merchant h3", "play merchant h4"]
    state = play(with_inner(state, active=1), 1, "play merchant h2")
    assert G.view(state, None)["vp_public"] == [1, 2, 0]


# ------------------------------------------------------------------------------ holding cards


def test_the_active_player_holds_five_until_end_six_forces_a_bury():
    state = position(3, s0=dict(cities=[23], progress=["bishop", "spy", "wedding", "warlord", "saboteur"]))
    assert "end" not in moves(state, 0) and "bury spy" in moves(state, 0)
    illegal(state, 0, "end", "5 progress cards")
    buried = play(state, 0, "bury spy")
    assert "end" in moves(buried, 0) and buried.inner.ext.under[P["spy"]] == 1
    state = ck_put(with_inner(state, step="pre-roll"), 0, levels=(0, 5, 0))
    state = G.chance(play(state, 0, "roll"), (1, 1, 5))
    state = play(G.chance(state, 0), 0, "keep")  # a sixth card
    assert state.inner.step == "bury" and G.awaiting(state).seats == (0,)
    state = play(state, 0, "bury bishop")
    assert state.inner.step == "main" and state.inner.ext.seats[0].cards() == 5


def test_hidden_hands_public_checks():
    state = position(3, s0=dict(cities=[23], progress=["bishop", "spy"]), s1=dict(settlements=[14],
                                                                                 progress=["crane"]))
    peer = knowledge(state, 1)
    assert peer.inner.private[0] is HIDDEN
    # another peer lists every politics card seat 0 could hold (not the constitution), no trade card
    assert "play spy 1" in moves(peer, 0) and "play wedding" not in moves(peer, 0)  # wedding: nobody richer
    assert not any(m.startswith(("play merchant", "play crane")) for m in moves(peer, 0))
    assert "play deserter 1" not in moves(peer, 0)  # seat 1 has no knight
    # all 3 spies are in the under pile: seat 0 cannot hold one
    full_under = with_ext(state, under=tuple(3 if g == P["spy"] else 0 for g in range(25)))
    assert "play spy 1" not in moves(knowledge(full_under, 1), 0)
    digests_agree(state, 0, "play spy 1")


def test_a_deal_is_checked_against_the_derived_pool():
    state = ck4_like()
    with pytest.raises(IllegalAction) as info:
        G.chance(state, DECK_INDEX[P["spy"]])  # all 3 spies are out of the pool
    assert "pool" in info.value.reason
    # the drawer's own engine (other hands hidden) refuses a type whose copies it knows are all out
    drawer = knowledge(state, 1)
    G.chance(drawer, DECK_INDEX[P["spy"]])  # possible from what seat 1 knows
    gone = with_ext(drawer, under=tuple(2 if g == P["wedding"] else 0 for g in range(25)))
    with pytest.raises(IllegalAction) as info:
        G.chance(gone, DECK_INDEX[P["wedding"]])
    assert "known to be out" in info.value.reason


def ck4_like():
    state = position(3, active=0, step="pre-roll", s0=dict(cities=[23], progress=["spy", "spy"]),
                     s1=dict(cities=[28], levels=(0, 2, 0)), s2=dict(cities=[31], progress=["spy"]))
    return G.chance(play(state, 0, "roll"), (1, 5, 5))


# ------------------------------------------------------------------------------ refill epochs


def test_a_refill_starts_a_new_epoch_from_the_under_pile():
    state = position(3, active=0, step="pre-roll", s0=dict(cities=[23], levels=(0, 0, 1)))
    under = tuple(1 if g in (P["crane"], P["smith"]) else 0 for g in range(25))
    under = tuple(k + (2 if g == P["mining"] else 0) for g, k in enumerate(under))
    state = with_ext(state, pool=(18, 18, 0), under=under)
    state = G.chance(play(state, 0, "roll"), (1, 2, 6))
    chance = G.awaiting(state).chance
    assert chance.deck == "science" and chance.epoch == 1 and chance.n == 4
    assert chance.pool == tuple(sorted(DECK_INDEX[g] for g in (P["crane"], P["mining"], P["mining"], P["smith"])))
    x = state.inner.ext
    assert x.epoch == (0, 0, 1) and x.pool == (18, 18, 4) and not any(x.under)
    assert G.view(state, None)["pools"]["science"] == {"size": 4, "epoch": 1}
    with pytest.raises(IllegalAction):
        G.chance(state, DECK_INDEX[P["alchemist"]])  # not in this epoch's pool
    state = G.chance(state, DECK_INDEX[P["mining"]])
    assert held(state, 0) == {"mining": 1} and state.inner.ext.pool == (18, 18, 3)


def test_a_draw_from_an_entirely_empty_deck_draws_nothing():
    state = position(3, active=0, step="pre-roll", s0=dict(cities=[23], levels=(0, 0, 1)))
    state = with_ext(state, pool=(18, 18, 0))
    state = G.chance(play(state, 0, "roll"), (1, 2, 6))
    assert state.inner.step == "main"


def test_refill_through_the_referee_every_seat_agrees():
    """The referee deals a refill epoch from the under pile's cards; every knowledge state agrees."""
    state = position(3, active=0, step="pre-roll", s0=dict(cities=[23], levels=(0, 0, 2)),
                     s1=dict(cities=[28], levels=(0, 0, 2)))
    under = tuple(CARD_TOTALS[g] if g in DECK_CARDS[2] and g not in (P["printer"],) else 0 for g in range(25))
    state = with_ext(state, pool=(18, 18, 0), under=under)
    referee = Referee.from_state(G, state, 3, 7)
    referee.submit(0, "roll")
    referee.feed_chance((1, 1, 6))
    for seat in (0, 1):
        chance = referee.awaiting().chance
        assert chance.epoch == 1 and chance.n == 17 - (seat == 1)
        step = referee.feed_chance()
        referee.submit(seat, "keep")
        assert step.value in chance.pool
    assert referee.dealt[("science", 1)] and referee.state.inner.ext.pool[2] == 15
    for seat in range(3):
        assert G.digest(referee.state_of(seat)) == G.digest(referee.state)


def test_every_card_id_has_a_test_here_or_in_the_examples():
    with open(__file__) as here_file, open(__file__.replace("_cards", "")) as examples_file:
        here, examples = here_file.read(), examples_file.read()
    for card in PROGRESS:
        assert f'"{card}"' in here + examples or f"play {card}" in here + examples, card
