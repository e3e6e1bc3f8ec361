"""Catan bots (placeholder while the smart bot is written)."""
from bots.lib import RandomBot

BOTS = {"random": RandomBot, "smart": RandomBot}
