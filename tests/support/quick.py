"""Options that keep the long games short in the quick run of the suite (`NETPLAY_LONG=1`: whole
games). A Catan game of random bots has about 5,000 actions; 25 rounds have about 1,600 and still
deal development cards, roll sevens and trade (Cities & Knights: progress cards, attacks)."""

from __future__ import annotations

import os

LONG = os.environ.get("NETPLAY_LONG") == "1"
QUICK_OPTIONS: dict[str, dict[str, str]] = {} if LONG else {"catan": {"max_rounds": "25"},
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
