"""Cities & Knights properties over seeded games: every seat's knowledge state (other seats' progress
cards HIDDEN, as on a networked peer) agrees with the full-knowledge referee on the digest at every
step; every legal text is accepted by every peer with equal digests; texts outside legal() are refused
with a reason; equal seeds give equal games; the referee deals uniformly over each epoch's cards."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.catan_ck import G, drive
from support.quick import LONG

from bots import make as make_bots
from bots.selfplay import play_match
from engines.catan_ck import decks
from engines.catan_ck.cards import DECK_CARDS
from engines.contract import HIDDEN
from engines.referee import replay_steps

OPTIONS = st.fixed_dictionaries({
    "board": st.sampled_from(["beginner", "random"]),
    "defense": st.sampled_from(["all", "choose"]),
    "domestic": st.sampled_from(["on", "off"]),
    "spy": st.sampled_from(["public", "private"]),
})


def _pools_agree(referee):
    """The referee's dealt cards per epoch and the engine's derived pools tell the same story."""
    s = referee.state.inner
    left = decks.remaining_pool(s)
    assert left is not None
    x = s.ext
    for d in range(3):
        assert sum(left[g] for g in DECK_CARDS[d]) == x.pool[d]
    for o in range(s.n):
        for k in referee.knowing:
            if k.inner.private[o] is not HIDDEN and k is not referee.state:
                assert k.inner.private[o].held == s.private[o].held


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]), options=OPTIONS)
def test_views_agree_and_legal_matches_play(seed, players, options):
    referee = drive(seed, players, options, every=9, limit=600, check=_pools_agree)
    assert referee.steps


@pytest.mark.slow
@settings(max_examples=25 if LONG else 4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]), options=OPTIONS)
def test_long_games_views_agree_and_legal_matches_play(seed, players, options):
    referee = drive(seed, players, options, every=4, limit=3000, check=_pools_agree)
    assert referee.steps


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]))
def test_same_seed_same_game(seed, players):
    options = {"max_rounds": "20", "board": "random"}
    first = play_match(G, make_bots("catan-ck", ["random"], players), seed, players, options, check_views=True)
    again = play_match(G, make_bots("catan-ck", ["random"], players), seed, players, options, check_views=True)
    assert first.result is not None and first.digests == again.digests
    assert replay_steps(G, players, options, first.steps) == first.digests
