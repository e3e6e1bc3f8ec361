"""The session's joint state in one typed room: the phase every peer is in, a joiner's stage within a game,
which inputs move them, and which messages each state takes.

Why one room: the phase was a string written in several modules, and a joiner's two flags (`started`: the host
said the game is on; `synced`: nothing of ours awaits the host's answer to a resume `hello`) were combined with
it into conditions in several others; each protocol fix added one more such condition somewhere. Here the
phase and the stage are enums, a transition is looked up in its role's table (one the table lacks is a bug and
raises `BadTransition`), and the conditions the features ask are named queries. Only `SessionState.move`
changes the phase or the stage (h11's rule).

Nothing here goes on the wire or into a file: the phase's values are `StrEnum`s only so that a caller that
still compares against the old strings ("play", "over", ...) keeps working.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Phase", "Stage", "LinkStage", "Event", "BadTransition", "SessionState", "HOST_PHASES", "JOIN_PHASES",
           "JOIN_STAGES", "HOST_ACCEPTS", "JOIN_ACCEPTS", "accepts"]


class Phase(enum.StrEnum):
    """Where a session is: choosing seats, playing a game, between games (the rematch vote), ended."""

    LOBBY = "lobby"
    PLAY = "play"
    OVER = "over"
    DONE = "done"


class Stage(enum.Enum):
    """Where a joiner is within its game, as the host's answers left it (the host has no stage)."""

    NEW = "new"                # no header taken yet: nothing to start, nothing awaits an answer
    UNSTARTED = "unstarted"    # a header taken: the host has not said the game is on (its first `synced`)
    SYNCED = "synced"          # the game is on and nothing of ours awaits the host's answer
    RESYNCING = "resyncing"    # the game is on and our resume `hello` (the link came back) is unanswered

    @property
    def started(self) -> bool:
        return self in (Stage.SYNCED, Stage.RESYNCING)

    @property
    def synced(self) -> bool:
        return self in (Stage.NEW, Stage.SYNCED)


class LinkStage(enum.Enum):
    """Where the host's lobby has a joiner's link (`Link.stage`): connected, offered the game, seated (ready),
    or it declined. The lobby lets go of a link that stays too long in one (netplay/protocol/lobby.py)."""

    NEW = "new"
    OFFERED = "offered"
    READY = "ready"
    DECLINED = "declined"


class Event(enum.Enum):
    """What moves the phase or the stage."""

    START = "start"          # the host starts the game; a joiner takes a header (a game, a restart, a rematch)
    RESUME = "resume"        # a peer rebuilt from its replay continues its game
    GAME_ON = "game-on"      # a joiner: the host's `synced`, or a frame it sequenced (so the game is on)
    REHELLO = "rehello"      # a joiner: the link to the host came back; its resume `hello` is on its way
    COMPLETE = "complete"    # the game ended normally: the rematch vote
    REMATCH = "rematch"      # the host: every seat wants a rematch; a new lobby with the same seats
    FINISH = "finish"        # the session has its outcome


_LIVE = (Phase.LOBBY, Phase.PLAY, Phase.OVER)

#: (phase, event) -> the next phase, for the host
HOST_PHASES: dict[tuple[Phase, Event], Phase] = {
    (Phase.LOBBY, Event.START): Phase.PLAY,
    (Phase.LOBBY, Event.RESUME): Phase.PLAY,
    (Phase.PLAY, Event.COMPLETE): Phase.OVER,
    (Phase.OVER, Event.REMATCH): Phase.LOBBY,
    **{(phase, Event.FINISH): Phase.DONE for phase in _LIVE},
}

#: (phase, event) -> the next phase, for a joiner: a header is taken in the lobby, again before the first frame
#: (the host composed a new one when a seat came free) and after a game (the rematch's)
JOIN_PHASES: dict[tuple[Phase, Event], Phase] = {
    (Phase.LOBBY, Event.START): Phase.PLAY,
    (Phase.PLAY, Event.START): Phase.PLAY,
    (Phase.OVER, Event.START): Phase.PLAY,
    (Phase.LOBBY, Event.RESUME): Phase.PLAY,
    (Phase.PLAY, Event.COMPLETE): Phase.OVER,
    **{(phase, Event.FINISH): Phase.DONE for phase in _LIVE},
}

#: (stage, event) -> the next stage, for a joiner (events absent from every key leave the stage as it is)
JOIN_STAGES: dict[tuple[Stage, Event], Stage] = {
    **{(stage, Event.START): Stage.UNSTARTED for stage in Stage},
    (Stage.NEW, Event.RESUME): Stage.RESYNCING,
    **{(stage, Event.GAME_ON): Stage.SYNCED for stage in (Stage.UNSTARTED, Stage.SYNCED, Stage.RESYNCING)},
    **{(stage, Event.REHELLO): Stage.RESYNCING for stage in (Stage.SYNCED, Stage.RESYNCING)},
}

_HOST_TAGS = frozenset({"hello", "ready", "decline", "start", "frame", "ack", "want", "relay", "reject", "chat",
                        "dispute", "rematch", "bye"})
_JOIN_TAGS = frozenset({"offer", "refused", "header", "peers", "frame", "ack", "want", "reject", "synced", "relayed",
                        "chat", "dispute", "rematch", "bye"})
#: after the end: what a peer still takes for the others' sake (their `want`s and acknowledgements while it
#: lingers), and a seat's resume `hello` (a peer killed during the last frames comes back for them)
_AFTER_END = frozenset({"want", "ack", "hello"})

#: phase -> the messages the host takes in it. Refused in a phase: what its handler ignored there without a
#: word (a vote outside the rematch vote, an acknowledgement or a dispute report with no game under way)
HOST_ACCEPTS: dict[Phase, frozenset[str]] = {
    Phase.LOBBY: _HOST_TAGS - {"ack", "want", "dispute", "rematch"},
    Phase.PLAY: _HOST_TAGS - {"rematch"},
    Phase.OVER: _HOST_TAGS - {"dispute"},
    Phase.DONE: _HOST_TAGS & _AFTER_END,
}

#: phase -> the messages a joiner takes in it (the other joiners' acknowledgements and wants need a game)
JOIN_ACCEPTS: dict[Phase, frozenset[str]] = {
    Phase.LOBBY: _JOIN_TAGS - {"ack", "want"},
    Phase.PLAY: _JOIN_TAGS,
    Phase.OVER: _JOIN_TAGS,
    Phase.DONE: _JOIN_TAGS & _AFTER_END,
}


def accepts(role: str, phase: Phase, tag: str, fields: list) -> bool:
    """Whether a peer of `role` takes a message tagged `tag` (with its decoded `fields`) in `phase`: its dispatch
    asks before the handler, and drops a message refused here without a word, as the handlers did. After the
    end a `hello` is taken only as a seat's resume (its third field says where the seat resumes)."""
    if tag not in (HOST_ACCEPTS if role == "host" else JOIN_ACCEPTS)[phase]:
        return False
    return phase is not Phase.DONE or tag != "hello" or fields[2] is not None


class BadTransition(RuntimeError):
    """An input moved the session where its role's table has no way: a bug of ours, never a peer's doing."""


@dataclass(slots=True)
class SessionState:
    """The phase (both roles) and a joiner's stage, moved only by `move`."""

    role: str
    phase: Phase = Phase.LOBBY
    stage: Stage = Stage.NEW

    def move(self, event: Event) -> None:
        """Take `event`: the phase and (a joiner's) stage move as their tables say. A table that governs the
        event (names it from some state) but has no way from the current one raises, before anything moved;
        so does an event that no table of this role governs."""
        phases, stages = (HOST_PHASES, {}) if self.role == "host" else (JOIN_PHASES, JOIN_STAGES)
        phase, stage = self.phase, self.stage
        governed = False
        if event in _governed(phases):
            phase, governed = _look_up(phases, self.phase, event, self.role, "phase"), True
        if event in _governed(stages):
            stage, governed = _look_up(stages, self.stage, event, self.role, "stage"), True
        if not governed:
            raise BadTransition(f"{self.role}: {event.value} moves nothing of a {self.role}")
        self.phase, self.stage = phase, stage

    # ------------------------------------------------------------------------------ the named conditions

    @property
    def started(self) -> bool:
        """A joiner: the host said the game is on (a host: always)."""
        return self.role != "joiner" or self.stage.started

    @property
    def synced(self) -> bool:
        """A joiner: nothing of ours awaits the host's answer to a resume `hello` (a host: always)."""
        return self.role != "joiner" or self.stage.synced

    def playing(self) -> bool:
        return self.phase is Phase.PLAY

    def in_step(self) -> bool:
        """In a game that is on, with nothing of ours awaiting the host's answer: a `refused` now answers a
        copy of a message the host already took (a delayed or doubled hello), not anything we wait for."""
        return self.phase is Phase.PLAY and self.stage is Stage.SYNCED

    def resyncing(self) -> bool:
        """In a game that is on, our resume `hello` unanswered: it is sent again until the host answers."""
        return self.phase is Phase.PLAY and self.stage is Stage.RESYNCING

    def unstarted(self) -> bool:
        """A joiner whose game is not on yet (no frame is due, no claim may be made): the host's `synced` (or a
        frame it sequenced) has not come."""
        return self.role == "joiner" and not self.stage.started


def _governed(table: dict) -> frozenset[Event]:
    """The events a table names (from at least one state)."""
    return frozenset(e for _, e in table)


def _look_up(table: dict, state: enum.Enum, event: Event, role: str, what: str):
    try:
        return table[state, event]
    except KeyError:
        raise BadTransition(f"{role}: no {what} transition for {event.value} from {state.value}") from None
