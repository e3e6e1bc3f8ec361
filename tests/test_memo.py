"""`engines.memo.Memo`: the one bounded memo. It must stay a dict for lookups (the hot paths read it as
one), hold at most its size, start afresh when full, and remember None like any other value."""

from __future__ import annotations

import pytest

from engines.memo import Memo


def test_a_put_value_is_looked_up_as_in_a_dict_and_returned_by_put():
    memo: Memo[str, int] = Memo(4, "a word")
    assert memo.put("one", 1) == 1
    assert memo.get("one") == 1 and memo["one"] == 1 and "one" in memo
    assert memo.get("two") is None and "two" not in memo
    assert isinstance(memo, dict)


def test_it_holds_at_most_its_size_and_starts_afresh_when_full():
    memo: Memo[int, int] = Memo(3, "an int")
    for k in range(3):
        memo.put(k, k * k)
    assert len(memo) == 3 and memo.resets == 0
    memo.put(3, 9)  # the fourth entry: the memo was full, so it starts afresh with this one only
    assert dict(memo) == {3: 9} and memo.resets == 1
    for k in range(4, 100):
        memo.put(k, k)
        assert len(memo) <= 3
    assert memo.misses == 100 and memo.resets == 1 + (100 - 4) // 3


def test_none_is_remembered_like_any_value():
    memo: Memo[str, int | None] = Memo(2, "a text")
    memo.put("not a number", None)
    assert "not a number" in memo and memo["not a number"] is None


def test_putting_a_known_key_again_replaces_it_and_still_counts_a_miss():
    memo: Memo[str, int] = Memo(2, "a word")
    memo.put("a", 1)
    memo.put("a", 2)
    assert dict(memo) == {"a": 2} and memo.misses == 2


def test_a_memo_of_no_entries_is_refused():
    with pytest.raises(ValueError):
        Memo(0, "nothing")


def test_repr_states_the_key_and_the_bound():
    memo: Memo[int, int] = Memo(10, "a node mask")
    memo.put(1, 2)
    assert repr(memo) == "Memo(a node mask: 1 of 10, 1 misses, 0 resets)"


def test_the_engines_memos_are_bounded_through_memo():
    """The module-level memos that were hand-written dicts are Memos now: a replacement back to a bare
    dict (unbounded, or bounded by a copy of the old check) shows here."""
    from engines.catan import cards, game, state
    from engines.catan_ck import decks, progress
    from engines.catan_ck import state as ck_state
    from engines.tides import resolution, secrets
    from replays import crypto, curve, randomness

    memos = [cards._PARSED, game._EDGES_AT, game._NUMBERED, game._MARITIME, game._DISCARDS, state._PACKED_SEATS,
             state._PACKED_LAYOUTS, decks._DEALS, progress._PLAYABLE, progress._SMITH_TEXTS, ck_state._PACKED,
             ck_state._PACKED_NUMBERS, resolution._MOVES, secrets._EXCHANGES, crypto._SODIUM, curve._VALID,
             randomness._LINK_PREFIX]
    assert all(type(m) is Memo and m.size >= 1 and m.key for m in memos)
