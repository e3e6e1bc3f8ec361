"""The game in words, as a player reads it: one line per thing that happened, the player named once
at the front, places and cards by their names, what a roll produced, what a steal took (for the two
seats involved), a barbarian attack announced. The table (local and networked) and the replay viewer
tell the same story. No pygame here. The parts: `words.py` (an entry, the generic words),
`games.py` (which words tell which game; `catan.py` for Catan and C&K), `narrator.py` (following a
game), `record.py` (the chronicle a table or the viewer shows: story, rolls, proofs).

A `Narrator` follows one knowledge state (a seat's, the spectator's, or the revealed one): each
application (a chance value or a seat's action, HIDDEN where that knowledge does not have it) is
applied to its own copy of the state, so the words can compare before and after (production, steals,
attacks). The engine's `describe` gives the words of most moves; a game may add a `Words` of its own
(`client/story/<game>.py`) for what only presentation needs (naming a Catan corner by the hexes it
touches). Every seat number left in the words becomes the player's name.
"""
