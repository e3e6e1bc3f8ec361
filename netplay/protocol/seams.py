"""What one feature of a machine may call on another feature: each a small `typing.Protocol`.

Why: the feature protocols (`LobbyHost`, `ResumeJoiner`, `FollowerJoiner`, ...) say what of the machine a feature
may use; where that includes another feature (a resume tells the lobby it was answered), naming the other
feature's class would make the feature modules import each other, a circle in the import structure even when
only a type checker follows it. These seams name only the few members crossed, and import no feature module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from netplay.protocol.core import Link
    from replays.frames import Frame

__all__ = ["AnsweredLobby", "HelloLobby", "SeatingLobby", "ResumeAtHost", "ResettableFollowing",
           "PendingFollowing"]


class AnsweredLobby(Protocol):
    """A joiner's lobby: told that the host answered, so its last message is no longer sent again."""

    def answered(self) -> None: ...


class HelloLobby(AnsweredLobby, Protocol):
    """A joiner's lobby that can say `hello` again (a joiner coming back)."""

    def hello(self) -> None: ...


class SeatingLobby(Protocol):
    """The host's lobby as a resume reads it: who is seated and where they listen."""

    def seated(self) -> dict[int, Link]: ...
    def joiners(self) -> list[Link]: ...
    def peers_message(self, seated: dict[int, Link]) -> bytes: ...


class ResumeAtHost(Protocol):
    """The host's resume, handed a joiner's `hello` that names where it stopped."""

    def on_resume(self, link: Link, session: bytes, seq: int, frame_hash: bytes) -> None: ...


class ResettableFollowing(Protocol):
    """A joiner's following, emptied for a new game."""

    def reset(self) -> None: ...


class PendingFollowing(Protocol):
    """A joiner's following as a resume reads it: our own frame in flight, if any."""

    pending: Frame | None
