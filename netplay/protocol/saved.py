"""What a seat keeps to come back to its game after a crash, as a value: the protocol's machines build it
(the effect SaveSeat carries it) and the shell writes it to disk (netplay/resume.py, which re-exports it).
It lives here, apart from the files it is written to, so that the sans-I/O machines need not import the
module that does the disk (tests/test_protocol_pure.py). Its fields are the resume file's JSON keys
(docs/protocol.md, tests/test_vectors.py), so they and their order are a file format."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class SavedSeat:
    session: str      # hex
    seat: int
    seed: str         # hex, secret
    address: str      # the host as the joiner reached it
    host_key: str     # hex
    replay: str       # path of this peer's replay file
    game: str
    saved: int        # unix seconds
    extra: list = field(default_factory=list)   # more seats this peer plays: [[seat, seed hex, name], ...]
    role: str = "joiner"    # "joiner", or "host" (then `address` is where it listened, `host_key` its own key)
    groups: list = field(default_factory=list)  # host: [[a joiner's first seat, [its other seats]], ...]
    mesh_port: int = 0      # joiner: the port it listened on for the other joiners' direct links

    @property
    def session_id(self) -> bytes:
        return bytes.fromhex(self.session)

    @property
    def seed_bytes(self) -> bytes:
        return bytes.fromhex(self.seed)
