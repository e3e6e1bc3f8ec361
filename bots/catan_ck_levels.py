"""The table of Cities & Knights bots (`bots.for_game` looks for `bots/<family>_levels.py` before
`bots/<family>.py`): a module of its own because the level modules build on the medium bot (bots/catan_ck.py's
SmartBot). "smart" is the medium bot under its old name, so that replays and commands that name it keep
working."""

from __future__ import annotations

from bots.catan_ck import SmartBot
from bots.catan_ck_easy import EasyBot
from bots.catan_ck_hard import HardBot
from bots.lib import RandomBot

__all__ = ["BOTS"]

BOTS: dict[str, type] = {"random": RandomBot, "smart": SmartBot, "easy": EasyBot, "medium": SmartBot,
                         "hard": HardBot}
