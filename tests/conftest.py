"""Test-wide settings, and the fixtures the test modules share (the helpers they share are in
tests/support/; no test module imports another).

The app shows a scene's exception on screen instead of closing (client/app.py, `App.failed`); in
the tests a scene's exception must fail the test that caused it, so it is raised again here unless a
test asks for the on-screen error (tests/test_client_errors.py unsets the variable).

Fixtures: `recorded` (a bot game's signed replay, recorded once per run), `home` (NETPLAY_HOME in the
test's temporary directory), `netns` (skips, with the reason, where network namespaces cannot be made)
and `netns_pair` (two fresh namespaces joined by a veth pair).
"""

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

os.environ.setdefault("NETPLAY_SCENE_ERRORS", "raise")
# the tests are silent (client/sounds.py records the cues it would play under the dummy audio driver)
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# a test that names no home of its own (the `home` fixture) writes keys, pins and resume records into a throw-away
# one, never into the user's real config directory; set before any test module imports netplay
os.environ["NETPLAY_HOME"] = tempfile.mkdtemp(prefix="netplay-test-home-")
# (removed when this process ends: every run of the suite used to leave one behind per worker)
atexit.register(shutil.rmtree, os.environ["NETPLAY_HOME"], ignore_errors=True)
# the shared helpers (tests/support/) report a failed assert as a test module does: what each side held
pytest.register_assert_rewrite("support")

#: the longest tests (by CPU) start first, so that a parallel run (scripts/test: pytest-xdist, one test at a time) does
#: not end waiting on one of them while the other workers are idle; the longest waits (half a minute of a clock
#: each, little CPU) come early too, one between two long CPU tests, so that they fill a core's gaps instead of
#: leaving the run's last half minute idle (or, side by side, a core idle at the start)
FIRST = ("test_simulator.py::test_a_campaign", "test_readme_commands.py::test_host_and_join_by_address",
         "test_simulator.py::test_peers_killed", "test_waits.py::test_the_table_shows_the_countdown",
         "test_bot_determinism.py", "test_attacks.py::test_attack[claim-early-host-vs-joiner",
         "test_session_catan.py", "test_client_lobby.py::test_a_killed_host_shows_a_banner",
         "test_client_renderers.py::test_full_game_by_clicks", "test_attacks.py::test_attack[claim-early",
         "test_session_decks.py", "test_conformance.py", "test_catan_properties.py", "test_catan_ck_properties.py",
         "test_client_cli_seats.py", "test_session_games.py", "test_client_lobby.py::test_networked_game")


_SPEED: list[float] = []


def pytest_sessionstart(session) -> None:
    """The machine's speed, for the run's own log (printed at the end, `-q` or not): the same suite takes 8-9
    minutes where a raw loop runs at 5.5-5.7M iterations/s (docs/performance.md, 2026-11-24) and about 18 where
    it runs at 1.9M (2026-12-02), so a run's time is read against this figure. Half a second of CPU, measured
    once by the run's controller before its workers start."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        from benchmarks.engines import raw_loop_rate

        _SPEED.append(raw_loop_rate(0.5))


def pytest_terminal_summary(terminalreporter) -> None:
    if _SPEED:
        terminalreporter.write_line(f"this machine: {os.cpu_count()} cores; a raw loop ran at "
                                    f"{_SPEED[0] / 1e6:.2f}M iterations/s (benchmarks/engines.py) as the run began")


def pytest_collection_modifyitems(config, items):
    rank = {name: n for n, name in enumerate(FIRST)}

    def first(item) -> int:
        return min((n for name, n in rank.items() if name in item.nodeid), default=len(FIRST))
    items.sort(key=first)



# ---------------------------------------------------------------------------------------------- shared recordings

def _shared_root(tmp_path_factory) -> "os.PathLike":
    """A folder every worker of one run shares (pytest-xdist gives each worker a base temp under one root)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def recorded(tmp_path_factory):
    """`recorded(game_id, bots=("smart", "random"), seed=2, players=None, **options)`: the path of a signed
    replay of that bot game, recorded once per test run and shared by every worker (a file lock makes the
    first worker that asks record it; the others wait and read the same file). Recording whole bot games
    again in every worker and module cost the suite a minute of CPU; the replays are read-only to the tests
    that use them (a test that changes a file copies it first)."""
    import fcntl

    import bots as bot_registry
    import engines
    from replays.local import record_match

    root = _shared_root(tmp_path_factory) / "recorded"
    root.mkdir(exist_ok=True)

    def record(game_id: str, bots: tuple[str, ...] = ("smart", "random"), seed: int = 2, players: int | None = None,
               **options: str):
        players = players or engines.get(game_id).players[0]
        tag = "-".join([game_id, str(players), str(seed), *bots, *(f"{k}={v}" for k, v in sorted(options.items()))])
        target = root / f"{tag}.npr"
        with open(root / f"{tag}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not target.exists():
                partial = root / f"{tag}.partial"
                partial.unlink(missing_ok=True)
                record_match(game_id, bot_registry.make(game_id, list(bots), players), seed=seed, players=players,
                             options=dict(options), path=partial, sync=False, secrets_seed=tag,
                             created=1_764_547_200 + len(tag))   # the same game in every run: no test flakes
                                                                  # on a position one run happens to meet
                partial.rename(target)
        return target

    return record


# ---------------------------------------------------------------------------------------------- homes and namespaces

@pytest.fixture
def home(tmp_path, monkeypatch):
    """NETPLAY_HOME is tmp_path/home (keys, pins, lobby settings) for the test; returns tmp_path."""
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "home"))
    return tmp_path


@pytest.fixture(scope="session")
def netns() -> None:
    """Skips the test, with the reason, where network namespaces cannot be made (not Linux, not root, no
    iproute2); asked once per worker."""
    from support.nethelpers import netns_unavailable

    reason = netns_unavailable()
    if reason:
        pytest.skip(reason)


@pytest.fixture
def netns_pair(request, netns) -> Iterator[list[tuple[str, str]]]:
    """Two fresh network namespaces joined by a veth pair, [(namespace, address), (namespace, address)]
    (support.nethelpers.namespaces), deleted after the test; skips where they cannot be made. The link
    carries multicast (mDNS discovery) unless the test is marked `@pytest.mark.netns(multicast=False)`."""
    from support.nethelpers import namespaces

    marker = request.node.get_closest_marker("netns")
    multicast = marker.kwargs.get("multicast", True) if marker else True
    with namespaces(2, multicast=multicast) as pair:
        yield pair


# NETPLAY_TEST_CPU=FILE: each test's wall time and CPU seconds (this worker, and the child processes it
# waited on: peers) are appended to FILE as tab-separated lines, to see where the suite's CPU goes.
_CPU_LOG = os.environ.get("NETPLAY_TEST_CPU")
if _CPU_LOG:
    import resource
    import time

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
