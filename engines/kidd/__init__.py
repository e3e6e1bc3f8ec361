"""Capt'n W. Kidd: three pirate games on one 18-field deck (docs/rules/kidd.md).

The board is data (`board`), stones, steps and walks are shared (`walks`), and each game is one
module built on the common layer in `base`.
"""

from engines.core import Capabilities, Descriptor, Game, Mix
from engines.kidd.loyal_captain import LoyalCaptain
from engines.kidd.madagaskar import Madagaskar
from engines.kidd.quedah_merchant import QuedahMerchant

#: one rules page (docs/rules/kidd.md) for the three; only the Quedah Merchant rolls a die
DESCRIPTORS = [
    Descriptor(Game(LoyalCaptain()), page="kidd", mix=Mix(4, 6)),
    Descriptor(Game(QuedahMerchant()), Capabilities(chance=frozenset({"dice"})), page="kidd", mix=Mix(4, 6)),
    Descriptor(Game(Madagaskar()), page="kidd", mix=Mix(3, 3, frames=200)),
]

__all__ = ["DESCRIPTORS", "LoyalCaptain", "Madagaskar", "QuedahMerchant"]
