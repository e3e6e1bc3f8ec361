"""Capt'n W. Kidd: three pirate games on one 18-field deck (docs/rules/kidd.md).

The board is data (`board`), stones, steps and walks are shared (`walks`), and each game is one
module built on the common layer in `base`.
"""

from engines.core import Game
from engines.kidd.loyal_captain import LoyalCaptain
from engines.kidd.madagaskar import Madagaskar
from engines.kidd.quedah_merchant import QuedahMerchant

GAMES = [Game(LoyalCaptain()), Game(QuedahMerchant()), Game(Madagaskar())]
