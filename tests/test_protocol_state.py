"""The session's joint state (netplay/protocol/state.py): the phase and a joiner's stage move only along their
tables, a move the table lacks raises, the machines go through the tables in a whole session (rematch
included), and the countdown a person sees reaches 0 at the very tick at which the machine claims (the host's
was 1 s early: the UI had no grace where the claim has `CLAIM_SKEW`). Driven on the simulator's clock: no wall
clock anywhere."""

from __future__ import annotations

from typing import Any

import pytest

from netplay import wire
from netplay.protocol import effects as fx
from netplay.protocol.state import (
    HOST_ACCEPTS,
    HOST_PHASES,
    JOIN_ACCEPTS,
    JOIN_PHASES,
    JOIN_STAGES,
    BadTransition,
    Event,
    Phase,
    SessionState,
    Stage,
    accepts,
)
from replays.header import Terms
from simulator.deciders import SimBot
from simulator.world import World


def test_the_phase_compares_equal_to_the_strings_it_replaced() -> None:
    """A caller outside netplay/ (the client) still compares the phase against the old strings."""
    assert [str(p) for p in Phase] == ["lobby", "play", "over", "done"]
    assert Phase.PLAY == "play" and Phase.OVER in ("play", "over")


def test_a_joiners_stage_is_exactly_the_two_flags_it_replaced() -> None:
    """(started, synced) as the joiner kept them: before any header (False, True), a header taken (False,
    False), the game on (True, True), a resume hello unanswered (True, False)."""
    assert {s: (s.started, s.synced) for s in Stage} == {
        Stage.NEW: (False, True), Stage.UNSTARTED: (False, False),
        Stage.SYNCED: (True, True), Stage.RESYNCING: (True, False)}


@pytest.mark.parametrize("role, event", [("host", Event.COMPLETE), ("host", Event.REMATCH), ("joiner", Event.REMATCH),
                                         ("joiner", Event.GAME_ON), ("host", Event.GAME_ON)])
def test_a_move_the_table_lacks_raises_and_moves_nothing(role: str, event: Event) -> None:
    state = SessionState(role)
    with pytest.raises(BadTransition):
        state.move(event)
    assert (state.phase, state.stage) == (Phase.LOBBY, Stage.NEW)


def test_the_host_starts_only_from_the_lobby_and_nothing_moves_after_the_end() -> None:
    state = SessionState("host")
    state.move(Event.START)
    with pytest.raises(BadTransition):
        state.move(Event.START)
    state.move(Event.FINISH)
    for event in Event:
        with pytest.raises(BadTransition):
            state.move(event)
    assert state.phase is Phase.DONE


def test_a_joiner_takes_a_header_again_before_the_first_frame_and_after_a_game() -> None:
    state = SessionState("joiner")
    state.move(Event.START)
    assert (state.phase, state.stage, state.unstarted()) == (Phase.PLAY, Stage.UNSTARTED, True)
    state.move(Event.START)                     # a new header before the first frame (a seat came free)
    state.move(Event.GAME_ON)
    assert state.in_step() and not state.unstarted()
    state.move(Event.REHELLO)                   # the link came back: our hello awaits its answer
    assert state.resyncing() and not state.in_step()
    state.move(Event.GAME_ON)
    state.move(Event.COMPLETE)
    assert not state.in_step()                  # the game is over: no `refused` is a stale one now
    state.move(Event.START)                     # the rematch's header
    assert (state.phase, state.stage) == (Phase.PLAY, Stage.UNSTARTED)


def test_every_phase_the_tables_name_is_reachable_from_the_lobby() -> None:
    for table in (HOST_PHASES, JOIN_PHASES):
        reached, frontier = {Phase.LOBBY}, [Phase.LOBBY]
        while frontier:
            at = frontier.pop()
            for (src, _), dst in table.items():
                if src is at and dst not in reached:
                    reached.add(dst)
                    frontier.append(dst)
        assert reached == set(Phase)
    assert {dst for dst in JOIN_STAGES.values()} == {Stage.UNSTARTED, Stage.SYNCED, Stage.RESYNCING}


def test_the_phase_is_moved_only_through_the_room() -> None:
    world = World(3, "ploc", 2, deciders=lambda n, w: SimBot(w, 3))
    world.start()
    with pytest.raises(AttributeError):
        world.peers[0].machine.phase = Phase.PLAY


def test_the_tables_of_messages_name_exactly_what_each_role_handles() -> None:
    world = World(3, "ploc", 2, deciders=lambda n, w: SimBot(w, 3))
    world.start()
    host, joiner = (p.machine for p in world.peers)
    assert set(host.handlers) == set().union(*HOST_ACCEPTS.values())
    assert set(joiner.handlers) == set().union(*JOIN_ACCEPTS.values())
    assert HOST_ACCEPTS[Phase.DONE] == {"want", "ack", "hello"} and JOIN_ACCEPTS[Phase.DONE] == {"want", "ack"}
    # after the end a hello is taken only as a seat's resume
    assert accepts("host", Phase.DONE, "hello", [wire.PROTO, "v", [b"s", 3, b"h"], 0])
    assert not accepts("host", Phase.DONE, "hello", [wire.PROTO, "v", None, 0])
    assert accepts("host", Phase.LOBBY, "hello", [wire.PROTO, "v", None, 0])


def test_a_rematch_vote_outside_the_vote_is_dropped_by_the_table_without_a_word() -> None:
    world = World(3, "ploc", 2, deciders=lambda n, w: SimBot(w, 3))
    world.start()
    world.run(lambda: world.peers[0].machine.phase is Phase.PLAY)
    host, joiner = world.peers[0].machine, world.peers[1]
    host.drain()
    host.receive(world.now, joiner.key, wire.pack("rematch", [1]))
    assert host.rematch.votes == set() and not [e for e in host.drain() if isinstance(e, fx.Say)]


def _recording(world: World) -> dict[int, list[tuple[Phase, Event, Phase]]]:
    """Every move of every peer's room, as (phase before, event, phase after)."""
    moves: dict[int, list[tuple[Phase, Event, Phase]]] = {p.index: [] for p in world.peers}
    for peer in world.peers:
        machine = peer.machine
        if machine is None:
            continue
        room, log = machine.state, moves[peer.index]
        machine.move = lambda event, room=room, log=log: (log.append((room.phase, event, _moved(room, event))))
    return moves


def _moved(room: SessionState, event: Event) -> Phase:
    room.move(event)
    return room.phase


def test_a_session_of_two_games_moves_through_the_tables() -> None:
    """Lobby, a game, the rematch vote, a second lobby and game, the end: every peer through its role's table."""
    world = World(5, "ploc", 2, deciders=lambda n, w: SimBot(w, 5, rematches=1), games=2)
    world.start()
    moves = _recording(world)
    world.run(lambda: all(p.outcome is not None for p in world.peers))
    assert all(p.outcome is not None and p.outcome.code == 0 for p in world.peers), [p.outcome for p in world.peers]
    L, P, O, D = Phase.LOBBY, Phase.PLAY, Phase.OVER, Phase.DONE
    assert moves[0] == [(L, Event.START, P), (P, Event.COMPLETE, O), (O, Event.REMATCH, L), (L, Event.START, P),
                        (P, Event.COMPLETE, O), (O, Event.FINISH, D)]
    joiner = [m for m in moves[1] if m[1] is not Event.GAME_ON]
    assert joiner == [(L, Event.START, P), (P, Event.COMPLETE, O), (O, Event.START, P), (P, Event.COMPLETE, O),
                      (O, Event.FINISH, D)]
    assert sum(1 for m in moves[1] if m[1] is Event.GAME_ON) >= 2   # each game is on once the host says so


class _Silent(SimBot):
    """Never decides: its seat's decision runs into its limit, and the other peer claims it."""

    def decide(self, game, state, seat, legal):
        return None


@pytest.mark.parametrize("silent", [1, 0], ids=["the host claims a joiner", "a joiner claims the host"])
def test_the_countdown_reaches_zero_at_the_tick_that_claims(silent: int) -> None:
    """Every tick of the claiming peer: the countdown it shows, asked at that tick's time before the tick, is 0
    exactly when that tick makes the claim, and above 0 at every tick before it (the host's countdown used to
    reach 0 a whole `CLAIM_SKEW` before its claim: "if X is not back in 0 s" for a second)."""
    terms = Terms.agreed(10_000, None, 4_000, 500, 5_000, 0)
    world = World(7, "ploc", 2, terms=terms,
                  deciders=lambda n, w: _Silent(w, 7) if n == silent else SimBot(w, 7))
    world.start()
    claimer = world.peers[1 - silent].machine
    seen: list[tuple[float, float | None, bool]] = []
    tick = claimer.tick

    def watched(now: float) -> None:
        countdown = claimer.claim_in(silent, now)
        before = len(claimer.log)
        tick(now)
        seen.append((now, countdown, any("claiming the timeout" in line for line in claimer.log[before:])))
    claimer.tick = watched
    world.max_time = 120.0
    world.run(lambda: any(claimed for _, _, claimed in seen))
    claims = [n for n, (_, _, claimed) in enumerate(seen) if claimed]
    assert claims, "no claim was made"
    first = claims[0]
    assert seen[first][1] == 0.0
    counted = [countdown for _, countdown, _ in seen[:first] if countdown is not None]
    assert counted and all(c > 0 for c in counted), [(round(t, 2), c) for t, c, _ in seen[first - 8:first + 1]]


# ---------------------------------------------------------------------------------- the end-of-session wait

def _finished_host(seed: int, drop_last_acks: bool = False) -> World:
    """A two-seat game played to its end (no rematch); with `drop_last_acks`, the joiner's acknowledgements
    never reach the host once the host's copy of the game is closed."""
    world = World(seed, "ploc", 2, deciders=lambda n, w: SimBot(w, seed))
    world.start()
    if drop_last_acks:
        def tap(sender, target, data):
            host = world.peers[0].machine
            closed = host is not None and host.book is not None and host.book.ledger.closed
            return None if sender.index == 1 and closed and wire.unpack(data)[0] == "ack" else data
        world.wiretaps.append(tap)
    world.run(lambda: 0 in world.closed)
    return world


def test_the_simulated_host_lingers_for_an_unconfirmed_last_frame_then_says_goodbye() -> None:
    """The wait `netplay host` sits out at the close, run by the simulator: with the last acknowledgement
    lost, the host stays ACK_WAIT_S (polled every LINGER_POLL_S) and then closes; with it, as soon as it came
    (the host's game ends with its own last frame, the joiner's acknowledgement is a network delay behind)."""
    from netplay.protocol.machines import ACK_WAIT_S
    from simulator.world import LINGER_POLL_S

    for drop, low, high in ((True, ACK_WAIT_S, ACK_WAIT_S + 2 * LINGER_POLL_S), (False, 0.0, 2 * LINGER_POLL_S)):
        world = _finished_host(11, drop_last_acks=drop)
        assert world.peers[0].outcome is not None and world.peers[0].outcome.code == 0, world.peers[0].outcome
        ended = next(t for t, kind, args in world.history if kind == "ended" and args[0] == 0)
        closed = next(t for t, kind, args in world.history if kind == "closed")
        assert low <= closed - ended < high, (drop, closed - ended)
        world.run(lambda w=world: not any(0 in pair for pair in w.links))
        assert not any(0 in pair for pair in world.links)       # its ports are closed: nobody reaches it
        assert not world.connect(1, 0)


def test_the_wait_is_the_machines_at_a_time_a_seat_gone_at_the_end_is_waited_for_up_to_the_away_limit() -> None:
    """`close_requested(t)` plans the wait and `lingers(t)` answers it without a clock: a seat gone during the
    last frames of a game that is over may come back for them for the away limit; a dispute waits for nobody."""
    from netplay.protocol.core import EXIT_DISPUTE, Outcome
    from netplay.protocol.machines import ACK_WAIT_S

    world = _finished_host(13)
    host = world.peers[0].machine
    link = next(link for link in host.links.values() if link.seat is not None)
    t = world.now + 1.0
    link.acked, link.up, link.changed = host.book.seq - 1, False, t     # lost during the last frame
    host.close_requested(t)
    away = host.deadlines.timeout
    assert any("to come back for the last frames" in line for line in host.log[-2:])
    assert host.lingers(t + ACK_WAIT_S + 1.0) and host.lingers(t + away - 0.01)
    assert not host.lingers(t + away)
    link.acked = host.book.seq                                          # it came back and confirmed
    assert not host.lingers(t + 1.0)
    link.acked = host.book.seq - 1
    host.outcome = Outcome(EXIT_DISPUTE, "a dispute")                   # a disputed frame is never acknowledged
    host.close_requested(t)
    assert not host.lingers(t)
    assert wire.unpack(host.goodbye()) == ("bye", ["a dispute"])


# ---------------------------------------------------------------------------------- what a feature may use

def _members(protocol: type) -> set[str]:
    names: set[str] = set()
    for klass in protocol.__mro__:
        if klass is object or klass.__name__ in ("Protocol", "Generic"):
            continue
        names |= set(getattr(klass, "__annotations__", {}))
        names |= {n for n in vars(klass) if not n.startswith("_")}
    return names


def _used(module: Any, cls: type) -> set[str]:
    """The names of the machine a feature class reads, writes or calls (`m.X`, `self.m.X` in its source)."""
    import ast
    import inspect
    import re

    source = inspect.getsource(module)
    node = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    return set(re.findall(r"\b(?:m|self\.m)\.([a-z_]+)", ast.get_source_segment(source, node)))


def _features() -> list[tuple[Any, type, type, str]]:
    from netplay.protocol import claims, following, lobby, rematch, resume, sequencing, spectators
    return [(claims, claims.Claims, claims.ClaimsMachine, "host"),
            (claims, claims.Claims, claims.ClaimsMachine, "joiner"),
            (lobby, lobby.HostLobby, lobby.LobbyHost, "host"), (lobby, lobby.JoinLobby, lobby.LobbyJoiner, "joiner"),
            (rematch, rematch.HostRematch, rematch.RematchHost, "host"),
            (rematch, rematch.JoinRematch, rematch.RematchJoiner, "joiner"),
            (resume, resume.HostResume, resume.ResumeHost, "host"),
            (resume, resume.JoinResume, resume.ResumeJoiner, "joiner"),
            (sequencing, sequencing.Sequencer, sequencing.SequencerHost, "host"),
            (following, following.Follower, following.FollowerJoiner, "joiner"),
            (spectators, spectators.HostSpectators, spectators.SpectatorsHost, "host")]


@pytest.mark.parametrize("module, cls, protocol, role", _features(), ids=lambda v: getattr(v, "__name__", str(v)))
def test_a_feature_uses_of_the_machine_only_what_its_protocol_names_and_the_machine_has_it(module, cls, protocol,
                                                                                        role) -> None:
    used = _used(module, cls)
    assert used, "the feature reads nothing of the machine: the source scan is broken"
    beyond = sorted(used - _members(protocol))
    assert not beyond, f"{cls.__name__} uses {beyond}, which {protocol.__name__} does not name"
    world = World(3, "ploc", 2, deciders=lambda n, w: SimBot(w, 3))
    world.start()
    machine = world.peers[0 if role == "host" else 1].machine
    missing = [name for name in _members(protocol) if not hasattr(machine, name)]
    assert not missing and isinstance(machine, protocol), missing
