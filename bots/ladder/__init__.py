"""The ladder: how strong a game's bots are, measured by playing them against each other.

`cells` says which games a ladder plays (pairings, seat rotations, seeds); `play` plays one of them
with common random numbers; `run` plays them all, here or on every core; `tally` adds them up;
`stats` holds the intervals and the rating fit; `sprt` the sequential test for a bot change; `report`
the tables and files. `netplay ladder` (client/cli_ladder.py) is the command; docs/bots.md says how to
read its table.
"""
