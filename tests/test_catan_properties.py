"""Catan properties over many seeded games: every seat's knowledge state agrees with the referee
(digest) at every step, legal() and play() agree on every text (legal ones are accepted, by the
full-knowledge state and by every other seat's public checks alike; anything else is refused with a
reason), equal seeds give equal games, and the referee deals uniformly over the remaining cards."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.catanhelpers import G

from bots import make as make_bots
from bots.selfplay import play_match
from engines.catan import dev
from engines.catan.cards import DEV_POOL, DEV_TOTALS, RESOURCES, multiset_text
from engines.contract import COMMON_ACTIONS, HIDDEN, IllegalAction
from engines.referee import Referee, replay_steps, seeded_bytes

OPTIONS = st.fixed_dictionaries({
    "board": st.sampled_from(["beginner", "random"]),
    "domestic": st.sampled_from(["on", "off"]),
    "max_rounds": st.sampled_from(["0", "12", "40"]),
})


def candidates(rng: random.Random, n: int) -> list[str]:
    """Texts from every verb with arguments in and out of range: most are illegal at any moment."""
    def ms(most: int = 4) -> str:
        counts = [0] * 5
        for _ in range(rng.randint(1, most)):
            counts[rng.randrange(5)] += 1
        return multiset_text(tuple(counts))
    out = [f"settle {rng.randrange(56)}", f"road {rng.randrange(74)}", f"city {rng.randrange(56)}", "buy", "roll",
           "end", "accept", "decline", "cancel", "play knight", "play roadbuilding",
           f"play monopoly {rng.choice(RESOURCES)}", f"play yearofplenty {ms(3)}", f"discard {ms(8)}",
           f"robber h{rng.randrange(20)}", f"steal {rng.randrange(n + 1)}", f"confirm {rng.randrange(n + 1)}",
           f"claim {rng.randrange(4)}", f"reveal {rng.randrange(4)}",
           f"trade {rng.randint(1, 5)}{rng.choice(RESOURCES)} for 1{rng.choice(RESOURCES)}",
           f"offer {ms()} for {ms()} to {rng.choice(['all', *map(str, range(n + 1))])}"]
    return out


def drive(seed: int, players: int, options: dict, every: int = 7, limit: int = 4000) -> Referee:
    """A random-bot game on a referee with view checks; every `every` steps, every text the acting seat
    may play is played on the referee and on every knowledge state (honest actions pass the public
    checks, with equal digests), and random texts outside legal() are refused with a reason."""
    referee = Referee(G, players, options, seed, check_views=True)
    bots = make_bots("catan", ["random"], players)
    rngs = [random.Random(f"{seed}/{s}") for s in range(players)]
    check = random.Random(seed)
    while len(referee.steps) < limit:
        waiting = referee.awaiting()
        if waiting.kind == "over":
            break
        if waiting.kind == "chance":
            chance = waiting.chance
            if chance.kind == "deal":
                left = dev.remaining_deck(referee.state.inner)
                assert left is not None
                assert referee.remaining(chance) == tuple(t for t, k in enumerate(left) for _ in range(k))
                assert chance.n == sum(left) and chance.pool == DEV_POOL
            referee.feed_chance()
            continue
        (seat,) = referee.awaited_seats()
        own = referee.state_of(seat)
        legal = G.legal(own, seat)
        assert legal == sorted(legal) and legal == G.legal(referee.state, seat)
        if len(referee.steps) % every == 0:
            actions = [a for a in legal if a not in COMMON_ACTIONS]
            if len(actions) > 40:
                actions = check.sample(actions, 40)
            for action in actions:
                digest = G.digest(G.play(referee.state, seat, action))
                for other in range(players):
                    peer = G.legal(referee.state_of(other), seat)
                    assert action in peer, (action, other)
                    assert G.digest(G.play(referee.state_of(other), seat, action)) == digest
            allowed = set(legal)
            for text in candidates(check, players):
                if text in allowed:
                    G.play(own, seat, text)
                else:
                    try:
                        G.play(referee.state, seat, text)
                    except IllegalAction as error:
                        assert error.reason
                    else:
                        raise AssertionError(f"{text!r} is not in legal() but was accepted")
        referee.submit(seat, bots[seat].choose(G, own, seat, legal, rngs[seat]))
    return referee


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]), options=OPTIONS)
def test_views_agree_and_legal_matches_play(seed, players, options):
    referee = drive(seed, players, options)
    assert referee.steps


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]), options=OPTIONS)
def test_same_seed_same_game(seed, players, options):
    options = {**options, "max_rounds": "30"}
    first = play_match(G, make_bots("catan", ["random"], players), seed, players, options, check_views=True)
    again = play_match(G, make_bots("catan", ["random"], players), seed, players, options, check_views=True)
    assert first.result is not None and first.digests == again.digests
    assert replay_steps(G, players, options, first.steps) == first.digests


def test_knowledge_states_hide_other_hands():
    referee = Referee(G, 4, {"max_rounds": "40"}, 5, check_views=True)
    bots = make_bots("catan", ["random"], 4)
    rngs = [random.Random(s) for s in range(4)]
    saw_hidden = False
    while referee.awaiting().kind != "over":
        if referee.awaiting().kind == "chance":
            referee.feed_chance()
            continue
        (seat,) = referee.awaited_seats()
        for other in range(4):
            k = referee.state_of(other).inner
            for o in range(4):
                if o != other and referee.state.inner.seats[o].dev_n:
                    assert k.private[o] is HIDDEN
                    view = G.view(referee.state_of(other), other)
                    assert "cards" not in view["dev"][o] and "cards" in view["dev"][other]
                    saw_hidden = True
            assert "cards" not in G.view(referee.state_of(other), None)["dev"][other]
        own = referee.state_of(seat)
        referee.submit(seat, bots[seat].choose(G, own, seat, G.legal(own, seat), rngs[seat]))
    assert saw_hidden


# ----------------------------------------------------------------------------- the deal


def test_the_referee_deals_uniformly_over_the_remaining_cards():
    """Chi-square over 5,000 deals from the full deck and from a deck with 11 cards gone (both
    monopolies, both road buildings, all 5 victory points, 2 knights): loose bounds, fixed seeds."""
    state = G.start(4)
    referee = Referee(G, 4, {}, 0, check_views=False)
    chance = G.rules.awaiting(state.inner.put(step="deal", active=0)).chance
    assert chance.kind == "deal" and chance.n == 25 and chance.private_to == 0
    for dealt, expected in [((), DEV_TOTALS), ((1, 1, 2, 2, 3, 3, 3, 3, 3, 0, 0), (12, 0, 0, 0, 2))]:
        referee.dealt = {("development", 0): list(dealt)}
        left = sum(expected)
        deal = replace(chance, n=left)
        counts = [0] * 5
        draws = 5000
        for i in range(draws):
            counts[referee.outcome(deal, seeded_bytes(i, "deal"))] += 1
        chi2 = sum((counts[t] - draws * expected[t] / left) ** 2 / (draws * expected[t] / left)
                   for t in range(5) if expected[t])
        for t in range(5):
            if not expected[t]:
                assert counts[t] == 0
        assert chi2 < 25, (counts, chi2)  # 4 degrees of freedom: p < 1e-4 to fail by chance


def test_deal_type_lists_the_remaining_deck_in_canonical_order():
    state = G.start(3).inner
    assert [dev.deal_type(state, i) for i in (0, 13, 14, 15, 16, 17, 18, 22, 23, 24)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    held = state.put(private=(state.private[0]._replace(held=(14, 0, 0, 0, 0)),) + state.private[1:])
    assert dev.deal_type(held, 0) == 1
    try:
        dev.deal_type(state.put(private=(HIDDEN,) + state.private[1:]), 0)
    except ValueError as error:
        assert "full knowledge" in str(error)
    else:
        raise AssertionError("deal_type must refuse a state with a hidden hand")


@pytest.mark.timeout(3600)   # the long run's 1,000 games take minutes
def test_seeded_bot_games_end_and_every_seat_agrees_at_every_step():
    """Many whole games of smart and random bots (1,000 with NETPLAY_LONG=1), each seat's knowledge state
    checked against the full-knowledge one at every step: every game ends, with a winner or by the round
    limit, and no seat's view ever disagrees."""
    from support.quick import LONG

    from bots.selfplay import run_many

    n = 1000 if LONG else 6
    for players, names in ((4, ["smart", "random"]), (3, ["random"])):
        tally = run_many(G, names, n // 2, seed=9000 + players, players=players, check_views=True)
        assert tally.games == n // 2 and tally.actions > 0
        assert sum(tally.wins) + tally.draws == tally.games


@pytest.mark.parametrize("game_id", ["catan", "catan-ck"])
def test_a_remembered_chance_outcome_is_never_taken_for_a_seats_play(game_id):
    """The rules remember their last public play and chance outcome (engines/catan/echo.py), a chance
    under seat -1, and `Game` its last checked play or outcome: `play` with seat -1 and that value must
    still refuse it, as before the memo, through the rules and through `Game` (whose memo fails this
    if it keeps a chance outcome under seat -1)."""
    import engines
    from bots.lib import RandomBot, sample_outcome
    from engines.core import IllegalAction

    game = engines.get(game_id)
    state, rng, bot = game.start(4), random.Random(1), RandomBot()
    for _ in range(3000):
        waiting = game.awaiting(state)
        if waiting.kind == "chance" and waiting.chance.kind == "dice":
            break
        if waiting.kind == "chance":
            state = game.chance(state, sample_outcome(game, state, rng))
            continue
        seat = waiting.seats[0]
        state = game.play(state, seat, bot.choose(game, state, seat, game.legal(state, seat), rng))
    else:
        pytest.fail("no roll within 3000 steps")
    value = sample_outcome(game, state, rng)
    game.rules.chance(state.inner, value)       # now remembered
    with pytest.raises(IllegalAction):
        game.rules.play(state.inner, -1, value)
    game.chance(state, value)                   # remembered by Game too
    with pytest.raises(IllegalAction):
        game.play(state, -1, value)


@pytest.mark.parametrize("game_id", ["catan", "catan-ck"])
def test_game_gives_a_remembered_play_only_where_its_checks_read_the_same(game_id):
    """`Game` gives the rules' remembered result (`Rules.echo`) for a twin of its last checked play's
    state: along a refereed game every knowledge state's play equals a fresh engine's (no memo), and a
    twin whose common layer differs where Game's checks read it (a draw offer pending, the seat
    resigned, the game ended) is refused as without the memo (each fails without `Game._echoed`'s
    comparison of that field). In C&K this covers `keep`, remembered though it writes the keeper's own
    hand: the keeper's copy must get the new hand, the others' copies keep it unknown."""
    import engines
    from bots.lib import RandomBot
    from engines.contract import Result
    from engines.game import Game

    game = engines.get(game_id)
    referee, bot, rng = Referee(game, 4, {}, seed=5), RandomBot(), random.Random(5)
    stale = (lambda k, seat: replace(k, offer=(seat + 1) % 4), lambda k, seat: replace(k, out=(seat,)),
             lambda k, seat: replace(k, ended=Result((0,), (0, 0, 0, 0), "test")))
    checked = kept = 0
    for _ in range(600):
        waiting = referee.awaiting()
        if waiting.kind == "over":
            break
        full, knowing = referee.state, list(referee.knowing)
        if waiting.kind == "chance":
            step = referee.feed_chance()
            seat, action = -1, step.value
        else:
            seat = waiting.seats[0]
            action = bot.choose(game, referee.state_of(seat), seat, referee.legal(seat), rng)
            referee.submit(seat, action, waiting)
        if seat < 0 and game.awaiting(knowing[0]).chance.private_to is not None:
            continue  # a private outcome: the knowledge states are fed HIDDEN, never remembered
        for k, after in zip(knowing, referee.knowing, strict=True):
            fresh = Game(type(game.rules)())
            expected = fresh.chance(k, action) if seat < 0 else fresh.play(k, seat, action)
            assert after == expected
            checked += k is not full
            kept += action == "keep" and k is not full
            for make in stale[::2] if seat < 0 else stale:  # a chance outcome does not ask who resigned
                twin = make(k, max(seat, 0))
                with pytest.raises(IllegalAction):
                    fresh.chance(twin, action) if seat < 0 else fresh.play(twin, seat, action)
                with pytest.raises(IllegalAction):
                    game.chance(twin, action) if seat < 0 else game.play(twin, seat, action)
    assert checked > 500 and (kept > 0 or game_id == "catan")


@pytest.mark.parametrize("game_id", ["catan", "catan-ck"])
def test_the_offer_tables_byte_masks_list_what_a_plain_filter_lists(game_id):
    """`OfferTable.texts` cuts the list out of byte masks (one byte per pair, a table per byte value);
    it must list exactly what a plain loop over every pair lists, for 2 to 7 seats, with seats out of
    the game and hands above the cap, in the table's sorted order."""
    import engines

    table = engines.get(game_id).rules.offers_table
    rng = random.Random(7)

    def fits(side: tuple[int, ...], hand: tuple[int, ...]) -> bool:
        return all(a <= b for a, b in zip(side, hand, strict=True))

    def plain(me: int, hands: tuple) -> list[str]:
        out: list[str] = []
        for prefix, gi, gj in table._pairs:
            if not fits(table.sets[gi], hands[me]):
                continue
            holders = [t for t, h in enumerate(hands) if t != me and h is not None and fits(table.sets[gj], h)]
            out += [prefix + str(t) for t in holders] + ([prefix + "all"] if holders else [])
        return out

    for _ in range(150):
        n = rng.randint(2, 7)
        hands = tuple(None if rng.random() < 0.15 else
                      tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 5)) for _ in table.names) for _ in range(n))
        me = rng.choice([t for t in range(n) if hands[t] is not None] or [0])
        if hands[me] is None:
            continue
        assert table.texts(me, hands) == plain(me, hands)
