"""The table of Catan bots (`bots.for_game` looks for `bots/<family>_levels.py` before `bots/<family>.py`): a
module of its own because the level modules build on the medium bot (bots/catan.py's SmartBot), so a table
beside it would import them from the module they import. "smart" is the medium bot under its old name, so that
replays and commands that name it keep working."""

from __future__ import annotations

from bots.catan import SmartBot
from bots.catan_easy import EasyBot
from bots.catan_hard import HardBot
from bots.catan_reference import ReferenceBot
from bots.lib import RandomBot

__all__ = ["BOTS"]

BOTS: dict[str, type] = {"random": RandomBot, "smart": SmartBot, "easy": EasyBot, "medium": SmartBot,
                         "hard": HardBot, "reference": ReferenceBot}
