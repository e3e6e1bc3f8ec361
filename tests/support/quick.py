"""Options that keep the long games short in the quick run of the suite (`NETPLAY_LONG=1`: whole
games). A Catan game of random bots has about 5,000 actions; 12 rounds have about 800 and still
deal development cards, roll sevens and trade. Cities & Knights keeps 25 rounds (about 1,600 actions): in
fewer, its random bots do not reach every kind of frame its descriptor declares (a spy's look at a hand), which
tests/test_attacks_ledger.py checks."""

from __future__ import annotations

import os

LONG = os.environ.get("NETPLAY_LONG") == "1"
QUICK_OPTIONS: dict[str, dict[str, str]] = {} if LONG else {"catan": {"max_rounds": "12"},
                                                             "catan-ck": {"max_rounds": "25"}}


def options(game_id: str) -> dict[str, str]:
    return dict(QUICK_OPTIONS.get(game_id, {}))


def option_args(game_id: str) -> list[str]:
    """The quick options as `--option K=V` arguments of `netplay host`."""
    return [arg for key, value in options(game_id).items() for arg in ("--option", f"{key}={value}")]


def long_only(value: object, why: str, **kwargs: object) -> object:
    """A parameter the quick run skips (`why`: what covers it there); `NETPLAY_LONG=1` runs it."""
    import pytest
    return pytest.param(value, marks=pytest.mark.skipif(not LONG, reason=f"NETPLAY_LONG=1 only: {why}"), **kwargs)
