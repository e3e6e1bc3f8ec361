"""Cities & Knights bots: `random` and `smart` (see SmartBot)."""

from __future__ import annotations

from bots.lib import RandomBot

__all__ = ["BOTS", "RandomBot"]

BOTS = {"random": RandomBot, "smart": RandomBot}
