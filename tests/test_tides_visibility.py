"""Turning Tides as the first game with hidden information: who sees what (the visibility table), the
public check on revealed cards, the audit that catches what the public check cannot, knowledge
states agreeing with the referee, and property tests over random play."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.tideskit import G, knowledge, picks, position, ship, side

from bots import make as make_bots
from bots.lib import RandomBot
from bots.selfplay import play_match
from engines.core import HIDDEN, IllegalAction, State
from engines.referee import Referee, replay_steps
from engines.tides import cards as C
from engines.tides.state import DAMAGE, PICK

PRIVATE_KEYS = {"hand", "deck", "damage"}
PUBLIC_CARD_KEYS = {"hand_count", "deck_count", "damage_count", "discard", "exchange", "reserve", "out_of_game",
                    "pool_count"}


# ----------------------------------------------------------------------------- the public check


def _round_two(seat1_damage: str = "navigate") -> tuple[State, State]:
    """Examples 2 and 3 up to round 2: seat 1 set `seat1_damage` aside in secret. Returns the referee
    state and seat 0's knowledge state."""
    ships = (ship(3, (4, 5), ("5out",)), ship(6, (4, 5), ("5out",), skulls=(3,)))
    sides = (side(("navigate", "wait"), deck=()), side(("cannon", "wait"), deck=()))
    referee = picks(position(ships, sides, o=12, turn=13), "wait", "wait")
    referee = G.play(G.play(referee, 0, "exchange none"), 1, "exchange cannon for swing")
    seat0 = knowledge(referee, 0)
    referee = G.play(referee, 1, f"damage {seat1_damage}")
    seat0 = G.play(seat0, 1, HIDDEN)
    return referee, seat0


def _both(referee: State, peer: State, peer_seat: int, kind: str, seat: int, value) -> tuple[State, State]:
    """One step on the referee and on `peer_seat`'s knowledge state (other seat's draws as HIDDEN)."""
    if kind == "chance":
        return G.chance(referee, value), G.chance(peer, value if seat == peer_seat else HIDDEN)
    return G.play(referee, seat, value), G.play(peer, seat, value)


def test_a_pick_the_seat_cannot_hold_is_caught_at_once_from_public_knowledge():
    referee, seat0 = _round_two()
    # round 2, seat 1's deck: cannon, fire, move, sailor, swing, swing; its only move is drawn and played
    for step in [("chance", 0, 0), ("chance", 1, 2), ("play", 0, "pick wait"), ("play", 1, "pick move"),
                 ("play", 1, "move captain 6 7"), ("chance", 0, 0), ("chance", 1, 0), ("play", 0, "pick wait")]:
        referee, seat0 = _both(referee, seat0, 0, *step)
        assert G.digest(referee) == G.digest(seat0)
    assert C.names(seat0.inner.piles[1].discard) == ["move"] and seat0.inner.private[1] is HIDDEN
    assert "pick move" not in G.legal(seat0, 1)
    assert "pick navigate" in G.legal(seat0, 1)  # for all seat 0 knows, navigate may be in hand
    with pytest.raises(IllegalAction, match="Public check") as info:
        G.play(seat0, 1, "pick move")
    assert "seat 1 cannot hold move" in info.value.reason
    with pytest.raises(IllegalAction, match="step 2 Pick"):
        G.play(referee, 1, "pick move")


def test_a_single_card_hand_is_always_wait():
    state = G.chance(G.chance(G.start(2), 0), 0)
    seat1 = knowledge(state, 1)
    hidden = seat1.inner.piles[0]._replace(hand_n=1)
    seat1 = State(inner=seat1.inner._replace(piles=(hidden, seat1.inner.piles[1])), players=2)
    assert [a for a in G.legal(seat1, 0) if a != "resign"] == ["pick wait"]
    with pytest.raises(IllegalAction, match="always wait"):
        G.play(seat1, 0, "pick cannon")


def test_the_other_seats_possible_picks_come_from_public_knowledge():
    state = G.chance(G.chance(G.start(2), 3), 0)  # seat 0 drew move
    seat1 = knowledge(state, 1)
    assert G.legal(state, 0) == ["pick move", "pick wait", "resign"]
    # seat 1 only knows that seat 0 holds one card besides wait, out of its 7 unplaced ones
    assert G.legal(seat1, 0) == ["pick cannon", "pick fire", "pick move", "pick navigate", "pick sailor", "pick swing",
                                 "pick wait", "resign"]
    assert G.legal(seat1, 1) == G.legal(state, 1)


def test_an_exchange_card_the_seat_cannot_hold_is_caught_at_once():
    ships = (ship(3, (4, 5)), ship(6, (4, 5)))
    sides = (side(("fire", "move", "wait"), deck=(), discard=("cannon", "cannon", "fire", "navigate", "sailor",
                                                                 "swing")), side(("cannon", "wait"), deck=()))
    state = picks(position(ships, sides, o=12, turn=13), "wait", "wait")
    seat1 = knowledge(state, 1)
    with pytest.raises(IllegalAction, match="Public check"):
        G.play(seat1, 0, "exchange cannon for sailor")  # both cannons lie face up on the discard pile
    text = "exchange move for swing"
    assert G.digest(G.play(seat1, 0, text)) == G.digest(G.play(state, 0, text))
    # a lull reached early (Navigate) with cards left in the deck: seat 0 holds 2 cards besides wait
    sides = (side(("fire", "move", "wait"), deck=("cannon", "cannon", "navigate")), side(("cannon", "wait"), deck=()))
    state = picks(position(ships, sides, o=12, turn=11), "wait", "wait")
    seat1 = knowledge(state, 1)
    with pytest.raises(IllegalAction, match="only 2 card.s. besides wait"):
        G.play(seat1, 0, "exchange cannon,move,navigate for fire,sailor,swing")
    with pytest.raises(IllegalAction, match="hand is fire, move, wait"):
        G.play(state, 0, "exchange cannon,move,navigate for fire,sailor,swing")


def test_a_claim_public_knowledge_cannot_refute_is_caught_by_the_referee_replay():
    """Seat 1 set `navigate` aside as a damage card, then claims to pick it. Seat 0's peer cannot tell
    (navigate is among seat 1's hand, deck and damage cards), but replaying the same steps on the
    full-knowledge state, as the end-of-game audit does, blames seat 1."""
    referee, seat0 = _round_two("navigate")
    steps = [("chance", 0, 0), ("chance", 1, 2), ("play", 0, "pick wait"), ("play", 1, "pick navigate")]
    for kind, seat, value in steps:
        seat0 = G.chance(seat0, value if seat == 0 else HIDDEN) if kind == "chance" else G.play(seat0, seat, value)
    assert seat0.inner.revealed == ("wait", "navigate")  # accepted by seat 0's peer
    with pytest.raises(IllegalAction, match="seat 1 has no navigate in hand") as info:
        for kind, _seat, value in steps:
            referee = G.chance(referee, value) if kind == "chance" else G.play(referee, _seat, value)
    assert "step 2 Pick" in info.value.reason


def test_a_draw_value_cannot_be_applied_to_a_hidden_deck():
    state = G.chance(knowledge(G.start(2), 1), HIDDEN)
    assert state.inner.private[0] is HIDDEN and state.inner.piles[0].deck_n == 6
    seat0 = G.chance(knowledge(G.start(2), 0), 0)
    with pytest.raises(IllegalAction, match="HIDDEN"):
        G.chance(seat0, 0)  # seat 1's draw, but this is seat 0's peer
    assert G.chance(seat0, HIDDEN).inner.private[1] is HIDDEN


def test_hidden_is_only_accepted_for_the_damage_choice():
    referee, _ = _round_two()
    with pytest.raises(IllegalAction, match="only a secret"):
        G.play(G.chance(G.chance(referee, 0), 0), 0, HIDDEN)


# ----------------------------------------------------------------------------- digest = public part


def test_the_digest_covers_the_public_part_only():
    state = G.chance(G.chance(G.start(2), 0), 5)
    hidden = knowledge(knowledge(state, 0), 1)
    assert hidden.inner.private == (HIDDEN, HIDDEN)
    assert G.digest(hidden) == G.digest(state)
    other = G.chance(G.chance(G.start(2), 3), 1)  # different cards drawn, same counts
    assert G.digest(other) == G.digest(state)
    assert G.digest(G.chance(G.start(2), 0)) != G.digest(state)  # a count differs
    assert G.digest(G.play(state, 0, "pick wait")) != G.digest(G.play(state, 0, "pick cannon"))  # revealed


# ----------------------------------------------------------------------------- the visibility table


def _check_view(view: dict, seat: int | None) -> None:
    json.dumps(view)
    for owner in (0, 1):
        cards = view["cards"][owner]
        assert set(cards) >= PUBLIC_CARD_KEYS
        if owner == seat:
            assert set(cards) >= PRIVATE_KEYS
            assert len(cards["hand"]) == cards["hand_count"] and len(cards["deck"]) == cards["deck_count"]
            assert len(cards["damage"]) == cards["damage_count"]
            assert cards["deck"] == sorted(cards["deck"])  # a composition, never an order
        else:
            assert not PRIVATE_KEYS & set(cards)
    for ship_view in view["ships"]:
        assert {"zones", "hold", "mast", "skulls", "promotion_due"} <= set(ship_view)
        assert len(ship_view["zones"]) == 7
        assert {"captain", "sailors", "cannons", "mast", "destroyed", "faces"} <= set(ship_view["zones"][0])
    for key in ("round", "turn", "o", "pawn", "phase", "picks", "revealed", "queue", "resolving", "awaiting",
                "facing", "variant", "result", "rematch"):
        assert key in view


def test_the_visibility_table_after_a_secret_damage_choice():
    referee, seat0 = _round_two("navigate")
    seat1 = knowledge(referee, 1)
    for holder, seat in ((referee, None), (referee, 0), (referee, 1), (seat0, 0), (seat1, 1), (seat0, None)):
        _check_view(G.view(holder, seat), seat)
    assert G.view(referee, 1)["cards"][1]["damage"] == ["navigate"]
    assert G.view(referee, 0)["cards"][1]["damage_count"] == 1
    assert G.view(referee, 0) == G.view(seat0, 0)
    assert G.view(referee, None) == G.view(seat0, None) == G.view(seat1, None)
    assert "navigate" not in json.dumps(G.view(referee, 0)["cards"][1]) + json.dumps(G.view(referee, None)["cards"])


def test_the_view_shows_the_table():
    state = picks(G.chance(G.chance(G.start(2), 2), 0), "fire", "cannon")  # o = 0: Fire faces nothing
    view = G.view(state, None)
    assert view["revealed"] == ["fire", "cannon"] and view["resolving"] == {"seat": 1, "card": "cannon"}
    assert view["facing"] == [[1, 1]] and view["o"] == 0 and view["pawn"] == 0
    assert view["ships"][0]["zones"][4] == {"zone": 5, "captain": False, "sailors": 1, "cannons": ["out"],
                                           "mast": False, "destroyed": False, "faces": None}
    assert view["ships"][0]["zones"][3]["mast"] and view["ships"][0]["hold"] == {"captain": 0, "sailors": 2,
                                                                                 "cannons": 3}
    assert view["cards"][0]["exchange"] == ["fire", "fire", "sailor", "swing"]
    assert view["awaiting"] == {"kind": "move", "seats": [1]}
    assert G.view(state, 0)["cards"][0]["hand"] == ["wait"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), intro=st.booleans())
def test_views_never_depend_on_what_the_viewer_may_not_know(seed, intro):
    """At every step, the view of seat s (and of a spectator) is the same whether it is drawn from the
    referee state or from seat s's knowledge state, which knows nothing private of the other seat."""
    table = Referee(G, 2, {"intro": intro}, seed)
    bots = [RandomBot(), RandomBot()]
    rng = random.Random(seed)
    for _ in range(3000):
        waiting = table.awaiting()
        if waiting.kind == "over":
            break
        for seat in (0, 1):
            mine = G.view(table.state, seat)
            assert mine == G.view(table.state_of(seat), seat)
            _check_view(mine, seat)
        assert G.view(table.state, None) == G.view(table.state_of(0), None) == G.view(table.state_of(1), None)
        if waiting.kind == "chance":
            table.feed_chance()
            continue
        for seat in table.awaited_seats():
            state = table.state_of(seat)
            table.submit(seat, bots[seat].choose(G, state, seat, G.legal(state, seat), rng))
    assert G.result(table.state) is not None


# ----------------------------------------------------------------------------- property tests


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), intro=st.booleans())
def test_random_play_terminates_deterministically_and_knowledge_states_agree(seed, intro):
    options = {"intro": intro}
    record = play_match(G, make_bots(G.id, ["random"], 2), seed, 2, options, check_views=True)
    assert record.result is not None
    assert len(record.steps) < 20 * 13 * 8  # 20 rounds, 13 turns, a handful of steps each
    assert replay_steps(G, 2, options, record.steps) == record.digests
    again = play_match(G, make_bots(G.id, ["random"], 2), seed, 2, options, check_views=False)
    assert [(s.kind, s.seat, s.value) for s in again.steps] == [(s.kind, s.seat, s.value) for s in record.steps]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_a_spectator_knowing_no_secret_follows_the_game(seed):
    """A peer that owns no secret at all (both private parts HIDDEN) reaches the same digests."""
    record = play_match(G, make_bots(G.id, ["smart", "random"], 2), seed, 2, {}, check_views=True)
    spectator = knowledge(knowledge(G.start(2), 0), 1)
    for step, digest in zip(record.steps, record.digests, strict=True):
        if step.kind == "chance":
            spectator = G.chance(spectator, HIDDEN)
        else:
            secret = G.awaiting(spectator).secret and step.value != "resign"
            spectator = G.play(spectator, step.seat, HIDDEN if secret else step.value)
        assert G.digest(spectator) == digest
    assert G.result(spectator) == record.result


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_legal_action_is_accepted_on_referee_and_knowledge_states(seed):
    table = Referee(G, 2, {}, seed)
    rng = random.Random(seed)
    for _ in range(1500):
        waiting = table.awaiting()
        if waiting.kind == "over":
            break
        if waiting.kind == "chance":
            table.feed_chance()
            continue
        for seat in table.awaited_seats():
            for holder in (table.state, table.state_of(seat), table.state_of(1 - seat)):
                legal = G.legal(holder, seat)
                assert legal == sorted(legal)
                for action in legal:
                    G.play(holder, seat, action)
            mine = G.legal(table.state_of(seat), seat)
            # what the seat may do is among what the other seat's peer thinks it may do
            assert set(mine) <= set(G.legal(table.state_of(1 - seat), seat))
            table.submit(seat, RandomBot().choose(G, table.state_of(seat), seat, mine, rng))


def test_damage_is_secret_in_self_play():
    """Find a self-played lull with a damage step and check the other seat's peer never learns it."""
    for seed in range(200):
        table = Referee(G, 2, {}, seed)
        bots = make_bots(G.id, ["smart"], 2)
        rng = random.Random(seed)
        while table.awaiting().kind != "over":
            if table.state.inner.phase == DAMAGE and table.awaiting().seats:
                seat = table.awaiting().seats[0]
                before = G.view(table.state_of(1 - seat), 1 - seat)["cards"][seat]
                table.submit(seat, bots[seat].choose(G, table.state_of(seat), seat,
                                                     G.legal(table.state_of(seat), seat), rng))
                for other in table.awaited_seats():
                    table.submit(other, bots[other].choose(G, table.state_of(other), other,
                                                           G.legal(table.state_of(other), other), rng))
                assert table.state_of(1 - seat).inner.private[seat] is HIDDEN
                assert table.state.inner.private[seat].damage != C.EMPTY
                after = G.view(table.state_of(1 - seat), 1 - seat)["cards"][seat]
                assert after["damage_count"] == table.state.inner.ships[seat].destroyed
                assert not PRIVATE_KEYS & set(after) and not PRIVATE_KEYS & set(before)
                return
            if table.awaiting().kind == "chance":
                table.feed_chance()
                continue
            for seat in table.awaited_seats():
                state = table.state_of(seat)
                table.submit(seat, bots[seat].choose(G, state, seat, G.legal(state, seat), rng))
    pytest.fail("no damage step in 200 smart games")


def test_the_smart_bot_beats_the_random_bot():
    wins = 0
    games = 12
    for i in range(games):
        names = ["smart", "random"] if i % 2 == 0 else ["random", "smart"]
        record = play_match(G, make_bots(G.id, names, 2), 500 + i, 2, {"intro": i % 4 == 3}, check_views=i < 2)
        winners = record.result.winners
        wins += bool(winners) and names[winners[0]] == "smart"
    assert wins >= games - 2


def test_the_smart_bot_picks_the_winning_fire_from_its_knowledge_state():
    ships = (ship(0, (3,), ("3in",), mast=False), ship(6, (4,), ("4in",), skulls=(1, 7)))
    hand = ("fire", "move", "wait")
    state = knowledge(position(ships, (side(hand, deck=()), side(hand, deck=())), o=4, pawn=0), 0)
    assert state.inner.private[1] is HIDDEN and state.inner.phase == PICK
    bot = make_bots(G.id, ["smart"], 2)[0]
    assert bot.choose(G, state, 0, G.legal(state, 0), random.Random(1)) == "pick fire"


def test_the_published_columns_line_up_exactly_the_facing_zones():
    """The client draws zones where `columns` says; facing zones must share a column, and no others."""
    from engines.tides.ship import columns, opposite

    for o in range(0, 16):
        gold, silver = columns(o)
        shared = sorted([i, j] for i in range(1, 8) for j in range(1, 8) if gold[i - 1] == silver[j - 1])
        facing = sorted([z, opposite(o, z)] for z in range(1, 8) if opposite(o, z))
        assert shared == facing if o < 13 else shared == sorted([i, j] for i in range(1, 8) for j in range(1, 8)
                                                                  if i + j == 14)
