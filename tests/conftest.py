"""Test-wide settings.

The app shows a scene's exception on screen instead of closing (client/app.py, `App.failed`); in
the tests a scene's exception must fail the test that caused it, so it is raised again here unless a
test asks for the on-screen error (tests/test_client_errors.py unsets the variable).
"""

import os

os.environ.setdefault("NETPLAY_SCENE_ERRORS", "raise")

#: the longest tests (by CPU) start first, so that a parallel run (scripts/test: pytest-xdist, one test at a time) does
#: not end waiting on one of them while the other workers are idle
FIRST = ("test_simulator.py::test_a_campaign", "test_simulator.py::test_peers_killed", "test_bot_determinism.py",
         "test_session_catan.py", "test_client_renderers.py::test_full_game_by_clicks", "test_session_decks.py",
         "test_conformance.py", "test_catan_properties.py", "test_catan_ck_properties.py", "test_client_cli_seats.py",
         "test_session_games.py", "test_client_lobby.py::test_networked_game")


def pytest_collection_modifyitems(config, items):
    rank = {name: n for n, name in enumerate(FIRST)}

    def first(item) -> int:
        return min((n for name, n in rank.items() if name in item.nodeid), default=len(FIRST))
    items.sort(key=first)


# NETPLAY_TEST_CPU=FILE: each test's wall time and CPU seconds (this worker, and the child processes it
# waited on: peers) are appended to FILE as tab-separated lines, to see where the suite's CPU goes.
_CPU_LOG = os.environ.get("NETPLAY_TEST_CPU")
if _CPU_LOG:
    import resource
    import time

    import pytest

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        wall, me, kids = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF), \
            resource.getrusage(resource.RUSAGE_CHILDREN)
        yield
        me2, kids2 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        own = me2.ru_utime + me2.ru_stime - me.ru_utime - me.ru_stime
        child = kids2.ru_utime + kids2.ru_stime - kids.ru_utime - kids.ru_stime
        with open(_CPU_LOG, "a", encoding="utf-8") as out:
            out.write(f"{item.nodeid}\t{time.perf_counter() - wall:.2f}\t{own:.2f}\t{child:.2f}\n")
