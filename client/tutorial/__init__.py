"""First-game tutorials: a real local game against slow bots with a coach that explains each step as
the game reaches it. The words live here, apart from the scene that shows them
(client/scenes/tutorial.py): `lesson.py` the values (lesson, moment, syllabus), `coach.py` the pure choice
of the lesson to show, one module per family with its syllabus (`catan.py`, `catan_ck.py`, `kidd.py`,
`ebbeflut.py`, `ploc.py`, `tides.py`), and `catalogue.py` the tutorials the lobby lists."""
