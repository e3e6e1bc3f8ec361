"""The engine contract itself: common actions, chance checking, digests, uniform sampling."""

from __future__ import annotations

import collections
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.toygames import DuelGame, NimGame

import engines
from engines.core import (
    HIDDEN,
    Chance,
    Game,
    IllegalAction,
    canonical_bytes,
    check_outcome,
    outcome_from_bytes,
    uniform,
)

nim = Game(NimGame())
duel = Game(DuelGame())


def test_start_validates_players_and_options():
    with pytest.raises(ValueError, match="2, 3 players, not 4"):
        nim.start(4)
    with pytest.raises(ValueError, match="no option 'size'"):
        nim.start(2, {"size": 3})
    with pytest.raises(ValueError, match="heap=7 is not allowed"):
        nim.start(2, {"heap": "7"})
    assert nim.start(2, {"heap": "5"}).inner.heap == 5


def test_unknown_game_names_known_ids():
    with pytest.raises(engines.UnknownGame, match="unknown game 'chess'"):
        engines.get("chess")


def test_common_actions_are_listed_for_the_seat_to_move_only():
    state = nim.start(2)
    assert nim.legal(state, 0) == ["offer draw", "resign", "take 1", "take 2", "take 3"]
    assert nim.legal(state, 1) == []


def test_resign_ends_a_two_seat_game():
    state = nim.play(nim.start(2), 0, "resign")
    result = nim.result(state)
    assert result.winners == (1,) and result.reason == "resign"
    assert nim.awaiting(state).kind == "over"
    with pytest.raises(IllegalAction, match="game is over"):
        nim.play(state, 1, "take 1")


def test_resign_in_three_seats_removes_the_seat_and_the_last_one_wins():
    state = nim.start(3)
    state = nim.play(state, 0, "resign")
    assert nim.result(state) is None
    assert nim.awaiting(state).seats == (1,)
    state = nim.play(state, 1, "take 1")
    assert nim.awaiting(state).seats == (2,)  # seat 0 is skipped
    state = nim.play(state, 2, "resign")
    assert nim.result(state).winners == (1,)


def test_resign_out_of_turn_is_illegal_with_reason():
    with pytest.raises(IllegalAction, match="own decision points"):
        nim.play(nim.start(2), 1, "resign")


def test_draw_offer_accept_and_decline():
    state = nim.play(nim.start(2), 0, "offer draw")
    assert nim.awaiting(state).seats == (1,)
    assert nim.legal(state, 1) == ["accept draw", "decline draw", "resign"]
    assert nim.legal(state, 0) == []
    with pytest.raises(IllegalAction, match="must be answered first"):
        nim.play(state, 0, "take 1")
    declined = nim.play(state, 1, "decline draw")
    assert nim.awaiting(declined).seats == (0,)
    assert "offer draw" not in nim.legal(declined, 0)  # one offer per seat per turn
    with pytest.raises(IllegalAction, match="one draw offer per seat per turn"):
        nim.play(declined, 0, "offer draw")
    accepted = nim.play(state, 1, "accept draw")
    assert nim.result(accepted).winners == () and nim.result(accepted).reason == "draw-agreed"


def test_draw_needs_every_other_seat_in_three():
    state = nim.play(nim.start(3), 0, "offer draw")
    state = nim.play(state, 1, "accept draw")
    assert nim.result(state) is None and nim.awaiting(state).seats == (2,)
    state = nim.play(state, 2, "accept draw")
    assert nim.result(state).reason == "draw-agreed"


def test_common_actions_change_the_digest():
    state = nim.start(2)
    assert nim.digest(state) != nim.digest(nim.play(state, 0, "offer draw"))


def test_wrong_seat_and_garbage():
    state = nim.start(2)
    with pytest.raises(IllegalAction, match="not seat 1's turn"):
        nim.play(state, 1, "take 1")
    with pytest.raises(IllegalAction, match="no seat 5"):
        nim.play(state, 5, "take 1")
    with pytest.raises(IllegalAction, match="expected 'take N'"):
        nim.play(state, 0, "jump")
    with pytest.raises(IllegalAction, match="is a text"):
        nim.play(state, 0, 3)


def test_chance_domain_is_checked():
    state = duel.start(2)
    with pytest.raises(IllegalAction, match="0..2"):
        duel.chance(state, 3)
    with pytest.raises(IllegalAction, match="0..2"):
        duel.chance(state, True)
    with pytest.raises(IllegalAction, match="waits for a chance"):
        duel.play(state, 0, "card 1")
    with pytest.raises(IllegalAction, match="does not wait for a chance"):
        nim.chance(nim.start(2), 1)


def test_hidden_knowledge_states_share_the_digest():
    referee = duel.chance(duel.chance(duel.start(2), 2), 0)
    seat1 = duel.chance(duel.chance(duel.start(2), HIDDEN), 0)
    assert duel.digest(referee) == duel.digest(seat1)
    assert duel.legal(seat1, 0)[:3] == ["card 0", "card 1", "card 2"]  # public knowledge only
    assert duel.legal(referee, 0)[0] == "card 2"
    referee = duel.play(duel.play(referee, 0, "card 2"), 1, "card 0")
    seat1 = duel.play(duel.play(seat1, 0, "card 2"), 1, "card 0")
    # the secret step: seat 1 applies seat 0's choice as HIDDEN
    referee = duel.play(duel.play(referee, 0, "number 2"), 1, "number 1")
    seat1 = duel.play(duel.play(seat1, 0, HIDDEN), 1, "number 1")
    assert duel.digest(referee) == duel.digest(seat1)
    assert duel.result(referee) == duel.result(seat1)


def test_hidden_is_refused_where_no_secret_is_allowed():
    state = duel.chance(duel.chance(duel.start(2), 2), 0)
    with pytest.raises(IllegalAction, match="only a secret"):
        duel.play(state, 0, HIDDEN)
    with pytest.raises(IllegalAction, match="public chance"):
        check_outcome(Chance("dice", sides=(6,)), HIDDEN)


def test_no_common_action_between_the_plays_of_a_revealed_simultaneous_step():
    state = duel.chance(duel.chance(duel.start(2), 2), 0)
    assert "resign" in duel.legal(state, 1)
    state = duel.play(state, 0, "card 2")
    assert duel.legal(state, 1) == ["card 0"]
    with pytest.raises(IllegalAction, match="between the plays"):
        duel.play(state, 1, "resign")


def test_play_does_not_mutate_its_input():
    state = nim.start(2)
    before = nim.digest(state)
    nim.play(state, 0, "take 2")
    assert nim.digest(state) == before


def test_canonical_bytes_distinguishes_types_and_orders_dicts():
    assert canonical_bytes({"b": 1, "a": 2}) == canonical_bytes({"a": 2, "b": 1})
    assert canonical_bytes((1,)) != canonical_bytes(("1",))
    assert canonical_bytes([1, 2]) != canonical_bytes([[1], 2])
    with pytest.raises(TypeError):
        canonical_bytes(1.5)


def _reference_canonical(value) -> bytes:
    """The byte format of docs/protocol.md, written plainly: what the fast encoder must give."""
    if value is None:
        return b"N"
    if value is True:
        return b"T"
    if value is False:
        return b"F"
    if value is HIDDEN:
        return b"H"
    if isinstance(value, int):
        text = str(int(value)).encode()
        return b"i" + len(text).to_bytes(2, "big") + text
    if isinstance(value, str):
        data = str(value).encode()
        return b"s" + len(data).to_bytes(4, "big") + data
    if isinstance(value, bytes):
        return b"b" + len(value).to_bytes(4, "big") + bytes(value)
    if isinstance(value, (tuple, list)):
        return b"l" + len(value).to_bytes(4, "big") + b"".join(_reference_canonical(v) for v in value)
    if isinstance(value, dict):
        items = sorted((_reference_canonical(k), _reference_canonical(v)) for k, v in value.items())
        return b"d" + len(items).to_bytes(4, "big") + b"".join(k + v for k, v in items)
    raise TypeError(type(value).__name__)


class _Pair(collections.namedtuple("_Pair", "a b")):
    pass


class _Level(int):
    pass


_SCALARS = (st.none() | st.booleans() | st.integers(-2000, 5000) | st.integers() | st.text(max_size=80)
            | st.binary(max_size=8) | st.just(HIDDEN) | st.integers(0, 9).map(_Level))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=6) | st.lists(inner, max_size=6).map(tuple)
                       | st.tuples(inner, inner).map(lambda t: _Pair(*t))
                       | st.dictionaries(st.integers(-3, 3) | st.text(max_size=3), inner, max_size=3),
                       max_leaves=40)


@given(_VALUES)
@settings(max_examples=400)
def test_canonical_bytes_is_the_reference_encoding(value):
    assert canonical_bytes(value) == _reference_canonical(value)


def test_canonical_bytes_never_confuses_a_bool_with_an_int():
    assert canonical_bytes((True, 1, False, 0)) == b"l\x00\x00\x00\x04Ti\x00\x011Fi\x00\x010"
    assert canonical_bytes([(1,), (True,)]) != canonical_bytes([(1,), (1,)])
    assert canonical_bytes(1 << 70) == _reference_canonical(1 << 70)
    assert canonical_bytes(tuple(range(1500))) == _reference_canonical(tuple(range(1500)))


@given(st.binary(min_size=0, max_size=40), st.integers(1, 10**6))
def test_uniform_is_in_range_and_deterministic(data, n):
    assert 0 <= uniform(data, n) < n
    assert uniform(data, n) == uniform(data, n)


def test_uniform_is_unbiased_where_modulo_would_not_be():
    # 1 byte words would bias n=100 by modulo; the rejection sampler must stay flat
    counts = collections.Counter(uniform(hashlib.sha256(i.to_bytes(4, "big")).digest(), 100) for i in range(60_000))
    assert len(counts) == 100
    assert max(counts.values()) < 1.25 * 600 and min(counts.values()) > 0.75 * 600


def test_uniform_rejects_and_extends():
    # 0xffff.. words are above the acceptance limit for n=3 with 2-byte words, so it must read on
    assert uniform(b"\xff" * 2, 3) == uniform(b"\xff" * 2, 3)
    with pytest.raises(ValueError):
        uniform(b"x", 0)


@settings(max_examples=50)
@given(st.binary(min_size=32, max_size=32))
def test_dice_outcomes_are_in_range(data):
    value = outcome_from_bytes(Chance("dice", sides=(6, 6, 3)), data)
    assert len(value) == 3 and all(1 <= v <= s for v, s in zip(value, (6, 6, 3), strict=True))


def test_local_driver_keeps_hidden_knowledge_states_in_step():
    from bots.lib import RandomBot
    from bots.selfplay import play_match

    results = set()
    for seed in range(40):
        record = play_match(duel, [RandomBot(), RandomBot()], seed, check_views=True)
        results.add(record.result.reason)
        assert [s.kind for s in record.steps[:2]] == ["chance", "chance"]
    assert results == {"tie", "duel"}


def test_draw_offer_is_answered_in_seat_order_after_the_offerer():
    state = nim.play(nim.start(3), 0, "take 1")
    state = nim.play(state, 1, "offer draw")
    assert nim.awaiting(state).seats == (2,)
    assert nim.legal(state, 0) == []  # not yet asked
    state = nim.play(state, 2, "accept draw")
    assert nim.awaiting(state).seats == (0,)
    with pytest.raises(IllegalAction, match="does not answer"):
        nim.play(state, 2, "accept draw")
    assert nim.result(nim.play(state, 0, "accept draw")).reason == "draw-agreed"


def test_the_game_author_example_runs():
    """The minimal game in engines/rules.py's docstring is the documentation of the game-author API:
    it must run as written."""
    import doctest

    import engines.rules

    outcome = doctest.testmod(engines.rules, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted >= 8 and outcome.failed == 0


def test_options_given_as_texts_take_their_type():
    assert nim.check_options({"heap": "21"}) == {"heap": 21}
    with pytest.raises(ValueError, match="heap=7 is not allowed"):
        nim.check_options({"heap": "7"})
    with pytest.raises(ValueError, match="no option 'size'"):
        nim.check_options({"size": "1"})
    tides = engines.get("turning-tides")
    assert tides.check_options({"intro": "true"}) == tides.check_options({"intro": "intro"}) == {"intro": True}
    with pytest.raises(ValueError, match="intro"):
        tides.check_options({"intro": "maybe"})
