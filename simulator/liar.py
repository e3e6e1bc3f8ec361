"""The generic liar: an adversary seat that may do anything the wire allows, on any of its links.

The strategies of simulator/adversary.py each tell one story. This one is a *setting* (`Setting`) drawn from
the run's seed (`draw_setting`): a classic strategy it plays besides (or none), and a few `Rule`s, each of
which says what to do (`Act`), to which messages (tags, and frame kinds as `frame:KIND`), on which links (the
peers it sends to: the host, a joiner over the direct link, a joiner through the host's relay), when (a
window of frame numbers, the game of the session, the phase: lobby, play, rematch) and how often (a rate and
a limit). Because every message a peer sends passes its `outgoing` hook, and every message it gets its
`incoming` hook, a rule reaches every link: host to joiner, joiner to joiner, joiner to host, and the
messages one joiner sends another through the host (`relay`, `relayed`: a rule on the inner message's tag
acts on the inner message, the outer envelope kept).

What a rule may do (`Act`):

- `withhold`: drop the message; `deaf`: drop a message received (what the liar pretends it never got);
- `delay`: send it up to a few seconds later; `duplicate`: send it twice; `reorder`: send it after the next
  message to the same peer;
- `equivocate`: a frame it authors, signed in a second version (another legal action for a move, a changed
  body otherwise) and sent to the rule's peers, the first version to the others (the host certifies both);
- `blank` / `rewrite`: one field of a message it authors set to an empty value or to another of its type
  (every entry's field, for the lists in `peers`, `ready`, `start`); inside a frame it authors, the body's
  field, re-signed with its own key: a lie, not a forgery;
- `forge`: a frame it cannot sign (another seat's, or its own re-signed with a key that is not the seat's):
  a signature that must be refused;
- `cut`: hang up the direct link to a joiner (the pair then talks through the host's relay).

Two liars of one run may collude (`draw_coalition`): the host and a joiner of four seats, against one victim
seat they share. Everything is a pure function of the rng the setting was drawn from and of what the peer's
machine does, so a run replays exactly from its seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import msgpack
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from netplay.deadlines import DECISIONS
from netplay.protocol import effects as fx
from netplay.protocol.state import Phase as SessionPhase
from replays.frames import Frame, make_frame
from simulator import adversary as adv

__all__ = ["Act", "Rule", "Setting", "Liar", "draw_setting", "draw_coalition", "BASES"]


class Act(Enum):
    WITHHOLD = "withhold"
    DEAF = "deaf"
    DELAY = "delay"
    DUPLICATE = "duplicate"
    REORDER = "reorder"
    EQUIVOCATE = "equivocate"
    BLANK = "blank"
    REWRITE = "rewrite"
    FORGE = "forge"
    CUT = "cut"


class Phase(Enum):
    LOBBY = "lobby"          # before the first frame of a game (the lobby of a rematch too)
    PLAY = "play"
    OVER = "over"            # after a game, voting for a rematch
    ANY = "any"


#: what each role sends (the tags a rule may name); frames by kind
HOST_TAGS = ("offer", "header", "peers", "synced", "frame", "reject", "relayed", "rematch", "refused", "chat", "bye")
JOINER_TAGS = ("hello", "ready", "start", "frame", "ack", "want", "relay", "dispute", "rematch", "chat", "decline",
               "bye")
#: the tags a joiner sends another joiner (directly, or inside `relay`)
MESH_TAGS = ("frame", "ack", "want", "dispute")
FRAME_KINDS = ("act", "chain", "commit", "reveal", "seed", "final", "shuffle", "strip", "open", "timeout", "contest")
#: the classic strategies a setting may play besides its rules (those that fit any seat of any game)
BASES = ("cosign-at-once", "claim-early", "stall-decisions", "stall-automatic", "silent", "mutate", "replay",
         "garbage", "inject", "bare-dispute", "withhold:chain", "withhold:act", "vanish:act", "double")
#: classic strategies only a host may play besides (three seats or more for `equivocate`)
HOST_BASES = ("close-early", "withhold-from", "ahead-then-claim", "veto-roll", "equivocate")


@dataclass(frozen=True, slots=True)
class Rule:
    """One lie: `act` on the messages named by `tags` (empty: any) sent to (or, for `deaf`, received from) the
    peers `to` (peer indexes; empty: any), in a window of the liar's frames [`start`, `stop`), in `phase` of
    game `game` (0: any), at `rate`, at most `limit` times (0: no limit). `field` picks the message field of
    `blank` / `rewrite` (-1: drawn each time), `delay` is in seconds."""

    act: Act
    tags: tuple[str, ...] = ()
    to: tuple[int, ...] = ()
    start: int = 0
    stop: int = 1 << 30
    phase: Phase = Phase.ANY
    game: int = 0
    rate: float = 1.0
    limit: int = 0
    field: int = -1
    delay: float = 0.5

    def describe(self) -> str:
        what = "|".join(self.tags) or "*"
        to = ",".join(map(str, self.to)) or "*"
        window = "" if (self.start, self.stop) == (0, 1 << 30) else f" frames {self.start}..{self.stop}"
        extra = [f"rate {self.rate:g}" if self.rate < 1 else "", f"x{self.limit}" if self.limit else "",
                 f"field {self.field}" if self.field >= 0 and self.act in (Act.BLANK, Act.REWRITE) else "",
                 f"{self.delay:g} s" if self.act is Act.DELAY else "",
                 f"game {self.game}" if self.game else "", self.phase.value if self.phase is not Phase.ANY else ""]
        return f"{self.act.value} {what} to {to}{window}" + "".join(f" {e}" for e in extra if e)


@dataclass(frozen=True, slots=True)
class Setting:
    """What one liar does: a classic strategy besides (`base`, a simulator/adversary.py spec, or "") and its rules."""

    base: str = ""
    rules: tuple[Rule, ...] = ()

    def describe(self) -> str:
        parts = ([f"base {self.base}"] if self.base else []) + [r.describe() for r in self.rules]
        return "liar(" + "; ".join(parts or ["honest"]) + ")"


@dataclass(slots=True)
class _Held:
    """A message held back: sent at `until` (a delay) or after the next message to the same peer (a reorder)."""

    send: fx.Send
    until: float
    after_next: bool = False


@dataclass(slots=True)
class _View:
    """What a message is, as a rule sees it: its tag (the inner one of a relay), its frame, the peer it is for."""

    tag: str
    fields: list
    frame: Frame | None
    to: int
    inner: bool = False          # the message travels inside `relay` / `relayed`
    outer: list = field(default_factory=list)


class Liar(adv.Adversary):
    """See the module docstring. `keys` are the world's peers' keys (index -> key), so that rules name peers."""

    name = "liar"

    def __init__(self, rng: random.Random, setting: Setting, keys: list[bytes], index: int):
        super().__init__(rng)
        self.setting, self.keys, self.index = setting, keys, index
        self.base = adv.parse(setting.base, random.Random(rng.random())) if setting.base else None
        self.name = setting.describe()
        self.used: dict[int, int] = {}            # rule number -> times applied
        self.held: list[_Held] = []
        self.passing: set[int] = set()            # ids of held messages let go (not ruled on again)
        self.variants: dict[bytes, Frame] = {}    # our frame's hash -> its second version (equivocation)
        self.cut: set[int] = set()
        self.forger = Ed25519PrivateKey.from_private_bytes(bytes(rng.getrandbits(8) for _ in range(32)))
        self.lines: list[str] = []

    # ------------------------------------------------------------------------------ the hooks

    def attach(self, machine: Any) -> None:
        if self.base is not None:
            self.base.attach(machine)
        if not any(r.act is Act.EQUIVOCATE for r in self.setting.rules):
            return
        emit = machine.emit

        def equivocate(frame: Frame) -> None:
            if frame.hash not in self.variants and self._wants_variant(machine, frame):
                other = self._variant(machine, frame)
                if other is not None:
                    self.variants[frame.hash] = other
            emit(frame)
        machine.emit = equivocate

    def tick(self, machine: Any) -> None:
        if self.base is not None:
            self.base.tick(machine)
        due = [h for h in self.held if h.until <= machine.now]
        for held in due:
            self.held.remove(held)
            self.passing.add(id(held.send))
            machine.outbox.append(held.send)

    def incoming(self, machine: Any, sender: bytes, data: bytes) -> bytes | None:
        source = self._index(sender)
        msg = adv._unpack(data)
        if msg is not None:
            tag, fields = msg
            frame = adv._frame_of(data) if tag == "frame" else None
            for n, rule in enumerate(self.setting.rules):
                if rule.act is Act.DEAF and self._matches(machine, n, rule, tag, frame, source):
                    self._use(n, f"pretends it never got {tag} from peer {source}")
                    return None
        return self.base.incoming(machine, sender, data) if self.base is not None else data

    def outgoing(self, machine: Any, effects: list) -> list:
        if self.base is not None:
            effects = self.base.outgoing(machine, effects)
        out: list = []
        for effect in effects:
            if not isinstance(effect, fx.Send):
                out.append(effect)
                continue
            if id(effect) in self.passing:
                self.passing.discard(id(effect))
                out.append(effect)
                continue
            sent = self._rule_on(machine, effect, out)
            out.extend(sent)
            if sent:
                out.extend(self._after(effect.to))
        return out

    # ------------------------------------------------------------------------------ the rules

    def _index(self, key: bytes) -> int:
        return self.keys.index(key) if key in self.keys else -1

    def _phase(self, machine: Any) -> Phase:
        if machine.phase is SessionPhase.OVER:
            return Phase.OVER
        if machine.phase is SessionPhase.PLAY and machine.book is not None and machine.book.frames:
            return Phase.PLAY
        return Phase.LOBBY

    def _matches(self, machine: Any, n: int, rule: Rule, tag: str, frame: Frame | None, peer: int) -> bool:
        if rule.tags and tag not in rule.tags and not (frame is not None and f"frame:{frame.kind}" in rule.tags):
            return False
        if rule.to and peer not in rule.to:
            return False
        if rule.limit and self.used.get(n, 0) >= rule.limit:
            return False
        if rule.phase is not Phase.ANY and self._phase(machine) is not rule.phase:
            return False
        if rule.game and machine.games_done + 1 != rule.game:
            return False
        frames = len(machine.book.frames) if machine.book is not None else 0
        if not rule.start <= frames < rule.stop:
            return False
        return rule.rate >= 1 or self.rng.random() < rule.rate

    def _use(self, n: int, line: str) -> None:
        self.used[n] = self.used.get(n, 0) + 1
        self._note(line)

    def _note(self, line: str) -> None:
        if len(self.lines) < 200:
            self.say(line)

    def _view(self, effect: fx.Send) -> _View | None:
        msg = adv._unpack(effect.data)
        if msg is None:
            return None
        tag, fields = msg
        to = self._index(effect.to)
        if tag in ("relay", "relayed"):
            inner = adv._unpack(fields[1])
            if inner is not None:
                # a relay's inner message is for the joiner it names (relay) or for the link's peer (relayed)
                dest = self._index(fields[0]) if tag == "relay" else to
                return _View(inner[0], inner[1], adv._frame_of(fields[1]), dest, True, [tag, *fields])
        return _View(tag, fields, adv._frame_of(effect.data) if tag == "frame" else None, to)

    def _rule_on(self, machine: Any, effect: fx.Send, out: list) -> list[fx.Send]:
        view = self._view(effect)
        if view is None:
            return [effect]
        for n, rule in enumerate(self.setting.rules):
            if rule.act is Act.DEAF:
                continue
            if not self._matches(machine, n, rule, view.tag, view.frame, view.to):
                continue
            sent = self._apply(machine, n, rule, effect, view, out)
            if sent is not None:
                return sent
        return [effect]

    def _apply(self, machine: Any, n: int, rule: Rule, effect: fx.Send, view: _View, out: list) -> list | None:
        """What `rule` makes of `effect` (None: the rule does not apply to this message after all)."""
        act = rule.act
        if act is Act.WITHHOLD:
            self._use(n, f"withholds {view.tag} to peer {view.to}")
            return []
        if act is Act.DUPLICATE:
            self._use(n, f"sends {view.tag} to peer {view.to} twice")
            return [effect, fx.Send(effect.to, effect.data)]
        if act in (Act.DELAY, Act.REORDER):
            self._use(n, f"{act.value}s {view.tag} to peer {view.to}")
            held = fx.Send(effect.to, effect.data)
            self.held.append(_Held(held, machine.now + (rule.delay if act is Act.DELAY else 2.0), act is Act.REORDER))
            return []
        if act is Act.CUT:
            if view.to <= 0 or view.to in self.cut or machine.role != "joiner":
                return None
            self.cut.add(view.to)
            self._use(n, f"hangs up its direct link to peer {view.to}")
            out.append(fx.Hangup(self.keys[view.to]))
            return None if view.inner else [effect]
        if act is Act.EQUIVOCATE:
            other = self.variants.get(view.frame.hash) if view.frame is not None else None
            if other is None:
                return None
            self._use(n, f"sends peer {view.to} the second version of frame {other.seq}")
            return [self._wrap(machine, effect, view, self._frame_message(machine, view, other))]
        if act is Act.FORGE:
            if view.frame is None:
                return None
            forged = self._forged(machine, view.frame)
            self._use(n, f"forges seat {forged.seat}'s frame {forged.seq} to peer {view.to}")
            data = msgpack.packb(["frame", forged.encode(), view.fields[1]], use_bin_type=True)
            return [effect, self._wrap(machine, effect, view, data)]
        if act in (Act.BLANK, Act.REWRITE):
            data = self._bent_message(machine, rule, view)
            if data is None:
                return None
            self._use(n, f"{act.value}s a field of {view.tag} to peer {view.to}")
            return [self._wrap(machine, effect, view, data)]
        return None

    def _after(self, to: bytes) -> list:
        """Messages held for a reorder, sent now that a later one to the same peer went first."""
        out = []
        for held in [h for h in self.held if h.after_next and h.send.to == to]:
            self.held.remove(held)
            self.passing.add(id(held.send))
            out.append(held.send)
        return out

    # ------------------------------------------------------------------------------ what the lies are made of

    def _wrap(self, machine: Any, effect: fx.Send, view: _View, data: bytes) -> fx.Send:
        """`data` in place of the message `effect` carried (inside its relay envelope, if it had one)."""
        if view.inner:
            outer = list(view.outer)
            outer[2] = data
            return fx.Send(effect.to, msgpack.packb(outer, use_bin_type=True))
        return fx.Send(effect.to, data)

    def _frame_message(self, machine: Any, view: _View, frame: Frame) -> bytes:
        if machine.role == "host" and view.fields[1]:
            return adv._certified(machine, frame)
        return msgpack.packb(["frame", frame.encode(), view.fields[1]], use_bin_type=True)

    def _own(self, machine: Any, frame: Frame) -> bool:
        return machine.book is not None and machine.book.holds(frame.seat)

    def _wants_variant(self, machine: Any, frame: Frame) -> bool:
        return any(r.act is Act.EQUIVOCATE and (not r.tags or "frame" in r.tags or f"frame:{frame.kind}" in r.tags)
                   and (not r.limit or self.used.get(n, 0) < r.limit)
                   for n, r in enumerate(self.setting.rules))

    def _variant(self, machine: Any, frame: Frame) -> Frame | None:
        """A second version of our frame, signed with our key: another legal action for a decision (built
        before the first version is applied), a changed body otherwise."""
        ledger = machine.book.ledger_for(frame.seat)
        if frame.kind in DECISIONS and frame.kind == "act":
            legal = [a for a in ledger.game.legal(ledger.state, frame.seat)
                     if a != frame.body[0] and a not in ("resign", "offer draw")]
            if legal:
                return ledger.build_action(self.rng.choice(legal)).bare()
            return None
        try:
            return adv._resign(machine, frame, body=adv._bent(machine, frame))
        except Exception:   # noqa: BLE001 - a body this liar cannot bend: no second version
            return None

    def _forged(self, machine: Any, frame: Frame) -> Frame:
        """`frame` with a changed body, signed with a key that is not its seat's (the seat's signature fails)."""
        body = list(frame.body)
        body = adv._garbage_like(body, self.rng) if body else [b"forged"]
        return make_frame(self.forger, frame.session, frame.seq, frame.prev, frame.seat, frame.kind,
                          tuple(body) if isinstance(body, list) else (body,), frame.digest)

    def _bent_message(self, machine: Any, rule: Rule, view: _View) -> bytes | None:
        fields = list(view.fields)
        if not fields:
            return None
        if view.frame is not None and (rule.field in (-1, 0)) and self._own(machine, view.frame) and view.frame.body:
            body = list(view.frame.body)
            i = self.rng.randrange(len(body))
            body[i] = _blank(body[i]) if rule.act is Act.BLANK else adv._garbage_like(body[i], self.rng)
            bent = adv._resign(machine, view.frame, body=tuple(body))
            return self._frame_message(machine, view, bent)
        i = rule.field if 0 <= rule.field < len(fields) else self.rng.randrange(len(fields))
        value = fields[i]
        if isinstance(value, list) and value and all(isinstance(v, list) and v for v in value):
            value = list(value)
            shape = self.rng.randrange(4) if view.tag == "peers" and rule.act is Act.REWRITE else 0
            if shape == 2:      # `peers` with one seat's entry left out
                entry = value.pop(self.rng.randrange(len(value)))
                self._note(f"leaves seat {entry[0]} out of peers to peer {view.to}")
            elif shape == 3:    # one seat passed off as the liar's own extra seat, with no proof or a garbled one
                j = self.rng.randrange(len(value))
                entry = value[j]
                proof = b"" if self.rng.random() < 0.5 else self.rng.randbytes(64)
                value[j] = [entry[0], machine.identity.public_key, "", 0, proof, *entry[5:]]
                self._note(f"passes seat {entry[0]} off as its own in peers to peer {view.to}")
            else:
                # a list of entries (`peers`, `ready`): the same field of every entry (`peers`: the address,
                # beside the joiner's signed statement passed on; `ready`: the extra seat's proof, its last)
                value = [self._bent_entry(rule, v, 2 if view.tag == "peers" and len(v) > 2 else len(v) - 1)
                         for v in value]
            fields[i] = value
        else:
            fields[i] = _blank(value) if rule.act is Act.BLANK else adv._garbage_like(value, self.rng)
        return msgpack.packb([view.tag, *fields], use_bin_type=True)

    def _bent_entry(self, rule: Rule, entry: list, j: int) -> list:
        bent = _blank(entry[j]) if rule.act is Act.BLANK else adv._garbage_like(entry[j], self.rng)
        return [*entry[:j], bent, *entry[j + 1:]]


def _blank(value: Any) -> Any:
    """The empty value of `value`'s type."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0
    if isinstance(value, bytes):
        return b""
    if isinstance(value, str):
        return ""
    if isinstance(value, list | tuple):
        return []
    return None


# ------------------------------------------------------------------------------ settings drawn from a seed

_ACTS = {Act.WITHHOLD: 4, Act.DELAY: 3, Act.DUPLICATE: 2, Act.REORDER: 2, Act.EQUIVOCATE: 3, Act.BLANK: 2,
         Act.REWRITE: 2, Act.FORGE: 2, Act.CUT: 1, Act.DEAF: 2}
_RATES = (1.0, 1.0, 0.5, 0.2, 0.05)
_LIMITS = (0, 0, 1, 1, 3)


def _tags(rng: random.Random, act: Act, host: bool) -> tuple[str, ...]:
    if act in (Act.EQUIVOCATE, Act.FORGE):
        return rng.choice([("frame",), (f"frame:{rng.choice(FRAME_KINDS)}",)])
    if act is Act.DEAF:
        incoming = JOINER_TAGS if host else HOST_TAGS + MESH_TAGS
        return (rng.choice(incoming),) if rng.random() < 0.8 else ()
    pool = HOST_TAGS if host else JOINER_TAGS + MESH_TAGS
    if rng.random() < 0.35:
        return (f"frame:{rng.choice(FRAME_KINDS)}",)
    return tuple(sorted(set(rng.choices(pool, k=rng.choice((1, 1, 2)))))) if rng.random() < 0.9 else ()


def draw_rule(rng: random.Random, index: int, players: int, victims: tuple[int, ...] = (), games: int = 1) -> Rule:
    """One rule for the liar at peer `index` (0: the host) of a `players` game of a session of `games` games;
    `victims`: peers to aim at."""
    host = index == 0
    acts = [a for a in _ACTS if not (a is Act.CUT and (host or players < 3))]
    act = rng.choices(acts, weights=[_ACTS[a] for a in acts])[0]
    others = [i for i in range(players) if i != index and (act is not Act.CUT or i != 0)]
    to: tuple[int, ...] = ()
    if victims and rng.random() < 0.7:
        to = tuple(v for v in victims if v in others) or to
    elif others and (act in (Act.EQUIVOCATE, Act.CUT) or rng.random() < 0.5):
        to = (rng.choice(others),)
    start = rng.choice((0, 0, rng.randint(0, 40)))
    stop = 1 << 30 if rng.random() < 0.7 else start + rng.randint(1, 30)
    tags = _tags(rng, act, host)
    lobby = tags and all(t in LOBBY_TAGS for t in tags)
    phase = Phase.ANY if lobby else rng.choices(list(Phase), weights=[1, 3, 1 if games > 1 else 0, 5])[0]
    if lobby:
        start, stop = 0, 1 << 30
    game = rng.randint(1, games) if games > 1 and rng.random() < 0.5 else 0
    return Rule(act, tags, to, start, stop, phase, game, rng.choice(_RATES),
                rng.choice(_LIMITS), rng.choice((-1, -1, 0, 1, 2)), rng.choice((0.05, 0.3, 1.0, 3.0)))


def draw_setting(rng: random.Random, index: int, players: int, victims: tuple[int, ...] = (),
                 base: str | None = None, games: int = 1) -> Setting:
    """A liar's setting for peer `index`: a classic strategy besides (drawn, or `base`) and 1..3 rules, drawn
    at random, or (one time in three) a recipe: a known attack's shape with its details drawn."""
    if base is None and rng.random() < 0.35:
        return recipe(rng, index, players, victims, games)
    if base is None:
        bases = list(BASES) + (list(HOST_BASES) if index == 0 and players >= 2 else [])
        bases = [b for b in bases if _fits(b, index, players)]
        base = rng.choice(bases) if bases and rng.random() < 0.35 else ""
    rules = tuple(draw_rule(rng, index, players, victims, games) for _ in range(rng.choice((1, 1, 2, 3))))
    return Setting(base, rules)


def draw_coalition(rng: random.Random, players: int, games: int = 1) -> dict[int, Setting]:
    """Two colluding seats of four: the host and a joiner, against one victim joiner both aim at. The joiner
    co-signs the host's claims at once (or plays a classic strategy), and lies on its own links to the victim
    (its direct link cut, frames withheld or bent); the host lies on its links to the victim (equivocation,
    the relay withheld, addresses blanked)."""
    colluder = rng.randrange(1, players)
    victim = rng.choice([i for i in range(1, players) if i != colluder])
    if rng.random() < 0.5:
        host = recipe(rng, 0, players, (victim,), games)
    else:
        host = draw_setting(rng, 0, players, (victim,), rng.choice(("", "", "close-early", "withhold-from",
                                                                    "equivocate")), games)
    if rng.random() < 0.5:
        cut = Rule(Act.CUT, ("frame", "ack", "want"), (victim,))
        lies = (cut, draw_rule(rng, colluder, players, (victim,), games))
        joiner = Setting(rng.choice(("cosign-at-once", "cosign-at-once", "")), lies[:rng.choice((1, 2))])
    else:
        joiner = draw_setting(rng, colluder, players, (victim,), rng.choice(("cosign-at-once", "cosign-at-once", "")),
                              games)
    return {0: host, colluder: joiner}


#: the lobby's messages (a rule on these alone acts whenever they are sent)
LOBBY_TAGS = ("offer", "header", "peers", "synced", "refused", "hello", "ready", "start", "decline", "rematch")


def recipe(rng: random.Random, index: int, players: int, victims: tuple[int, ...] = (), games: int = 1) -> Setting:
    """A known attack's shape, its details drawn: the relay-only host that equivocates and drops the relayed
    acknowledgements (issue 32, N1); a host that never starts, before or after the header (N2, N3); a joiner
    that holds a rematch (N4); a joiner that lies to one other joiner on their direct link; a host that
    bends the addresses it passes on."""
    others = [i for i in range(1, players) if i != index]
    victim = victims[0] if victims else (rng.choice(others) if others else 0)
    rate = rng.choice((1.0, 1.0, 0.5))
    if index == 0:
        shapes = ["never-header", "never-synced", "rematch-hold-host", "bend-addresses"]
        if players > 2:
            shapes += ["relay-equivocate", "relay-equivocate", "relay-withhold"]
        shape = rng.choice(shapes)
        if shape == "relay-equivocate":
            rules = [Rule(Act.BLANK, ("peers",), field=0),
                     Rule(Act.EQUIVOCATE, (rng.choice(("frame", "frame:act")),), (victim,), limit=rng.choice((1, 3))),
                     Rule(Act.WITHHOLD, ("ack",) if rng.random() < 0.7 else ("ack", "frame"),
                          tuple(i for i in others if i != victim) if rng.random() < 0.5 else (victim,), rate=rate)]
            return Setting(rng.choice(("", "", "close-early")), tuple(rules))
        if shape == "relay-withhold":
            rules = [Rule(Act.BLANK, ("peers",), field=0),
                     Rule(Act.WITHHOLD, ("relayed",) if rng.random() < 0.5 else (rng.choice(MESH_TAGS),),
                          (victim,), start=rng.randint(0, 20), rate=rate)]
            return Setting(rng.choice(("", "close-early")), tuple(rules))
        if shape == "never-header":
            return Setting("", (Rule(Act.WITHHOLD, ("header",), (victim,) if rng.random() < 0.5 else ()),))
        if shape == "never-synced":
            return Setting("", (Rule(Act.WITHHOLD, ("synced",), (victim,) if rng.random() < 0.5 else ()),))
        if shape == "rematch-hold-host":
            return Setting("", (Rule(Act.WITHHOLD, ("header", "synced"), game=2),))
        return Setting("", (Rule(rng.choice((Act.BLANK, Act.REWRITE)), ("peers",), (victim,), field=0),))
    shapes = ["rematch-hold", "mesh-lie", "never-start", "mesh-lie"]
    shape = rng.choice(shapes if players > 2 else ["rematch-hold", "never-start"])
    if shape == "rematch-hold":
        return Setting("", (Rule(Act.WITHHOLD, ("start",), (0,), game=2 if games > 1 else 0),))
    if shape == "never-start":
        return Setting("", (Rule(Act.WITHHOLD, ("start",) if rng.random() < 0.5 else ("ready",), (0,)),))
    act = rng.choice((Act.WITHHOLD, Act.EQUIVOCATE, Act.DELAY, Act.REWRITE, Act.FORGE, Act.CUT))
    rule = Rule(act, (rng.choice(MESH_TAGS),) if act is not Act.EQUIVOCATE else ("frame",), (victim,),
                rate=rate, delay=rng.choice((0.3, 2.0)))
    return Setting(rng.choice(("", "cosign-at-once", "claim-early")), (rule,))


def _fits(base: str, index: int, players: int) -> bool:
    cls = adv.kind_of(base)
    return (players >= max(cls.min_players, 2 if cls.hosts_only else 1)
            and not (cls.hosts_only and index != 0) and not (cls.joiners_only and index == 0))


#: classic strategies of simulator/adversary.py that are plain settings of the generic liar (the classic
#: classes stay: the regressions name them): peer index -> the same lie told by rules
AS_SETTINGS: dict[str, tuple[int, Setting]] = {
    "silent": (1, Setting("", (Rule(Act.WITHHOLD, start=7),))),                      # nothing after 6 frames
    "withhold-from:act": (0, Setting("", (Rule(Act.WITHHOLD, ("frame:act",), (2,), start=5),))),
    "equivocate": (0, Setting("", (Rule(Act.EQUIVOCATE, ("frame:act",), (1,), limit=1),))),
    "mutate": (1, Setting("", (Rule(Act.REWRITE, rate=0.05),))),
}
