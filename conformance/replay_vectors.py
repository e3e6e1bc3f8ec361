"""The replay vectors of docs/vectors/replays/: small games of the real engines (one or more per frame kind)
and tampered copies, each with the verdict, exit status, named frame (and rule) that `netplay replay
verify` gives and that any compatible verifier must give. Written by `conformance.make_vectors`; the index
is docs/vectors/replays.json.

The games are played through the ledger in one process (replays.local.SignedMatch) by the scripted
choosers below, with reproducible keys and seeds, so every run writes the same bytes. A tampered frame
is re-signed with the seat's real key where the point is what a *signed* bad frame does (a dispute), and
left with its old signature where the point is that the bytes are not genuine (a rejection).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engines
from engines.core import COMMON_ACTIONS, Game
from replays import codec
from replays import deck as D
from replays import look as L
from replays.audit import audit_bytes
from replays.certs import sign_cert
from replays.curve import BASE, ORDER, add, mul, mul_base
from replays.frames import Frame, make_frame
from replays.header import Header, Spectating, Terms
from replays.ledger import Dispute, Ledger
from replays.local import SignedMatch
from replays.reader import links_record

CREATED = 1_700_000_000

__all__ = ["write_replays", "VECTORS"]


# ------------------------------------------------------------------------------------------ choosers


class Chooser:
    """Picks uniformly among the game's own actions (never a common action unless a rule says so);
    `rule(game, state, seat, legal)` may decide first."""

    name = "vector"

    def __init__(self, rule: Callable[..., str | None] | None = None):
        self.rule = rule

    def choose(self, game: Game, state: Any, seat: int, legal: list[str], rng: Any) -> str:
        if self.rule is not None:
            action = self.rule(game, state, seat, legal)
            if action is not None:
                return action
        plain = [a for a in legal if a not in COMMON_ACTIONS]
        if plain:
            return rng.choice(plain)
        return "decline draw" if "decline draw" in legal else legal[0]


def _match(game: str, rule=None, seed: int = 0, players: int | None = None, options=None,
           chain_length: int = 128) -> SignedMatch:
    return SignedMatch(game, Chooser(rule), seed=seed, players=players, options=options, reproducible=True,
                       chain_length=chain_length, created=CREATED)


def _until(match: SignedMatch, want: Callable[[str, int], bool], limit: int = 20_000) -> None:
    for _ in range(limit):
        nxt = match.expects()
        if nxt is None:
            raise AssertionError("the game ended before the wanted point")
        if want(*nxt):
            return
        match.step()
    raise AssertionError("never reached")


def _play_out(match: SignedMatch) -> None:
    while match.step() is not None:
        pass


def _frames(match: SignedMatch) -> list[Frame]:
    return list(match.ledgers[0].frames)


def _file(header: Header, frames: list[Frame | bytes], after: dict[int, list[tuple]] | None = None) -> bytes:
    out = [header.encode()]
    for i, frame in enumerate(frames):
        out.append(frame.encode() if isinstance(frame, Frame) else frame)
        out += [codec.encode(r) for r in (after or {}).get(i, ())]
    return b"".join(out)


def _spectator(header: Header, frames: list[Frame], game: Game | None = None) -> Ledger:
    ledger = Ledger(header, None, game)
    for frame in frames:
        ledger.accept(frame)
    return ledger


def _forge(match: SignedMatch, at: int, seat: int, kind: str, body: Any, digest: bytes | None = None,
           **override: Any) -> Frame:
    """A frame signed with seat's real key that fits the chain of `match` at position `at`."""
    frames = _frames(match)
    prev = match.header.hash if at == 0 else frames[at - 1].hash
    if digest is None:
        digest = _spectator(match.header, frames[:at], match.game).digest
    fields = {"session": match.header.session, "seq": at, "prev": prev, "seat": seat}
    fields.update(override)
    return make_frame(match.secrets[seat].key, fields["session"], fields["seq"], fields["prev"], fields["seat"],
                      kind, body, digest)


def _resign(frame: Frame, key: Any, **changes: Any) -> Frame:
    """`frame` with some fields changed, signed again with `key`."""
    f = {"session": frame.session, "seq": frame.seq, "prev": frame.prev, "seat": frame.seat, "kind": frame.kind,
         "body": frame.body, "digest": frame.digest, **changes}
    return make_frame(key, f["session"], f["seq"], f["prev"], f["seat"], f["kind"], f["body"], f["digest"])


def _first(frames: list[Frame], test: Callable[[Frame], bool], start: int = 0) -> Frame:
    return next(f for f in frames[start:] if test(f))


# ------------------------------------------------------------------------------------------ the games


def _quedah() -> SignedMatch:
    """Quedah Merchant, 2 seats, chains of 4 values (so that chains are renewed): open, act, chain (with
    renewals), seed, final."""
    match = _match("quedah-merchant", seed=1, chain_length=4)
    _play_out(match)
    return match


def _ebbe_flut() -> SignedMatch:
    """Ebbe & Flut, 2 seats: at the first simultaneous step seat 0 offers a draw instead of committing (the
    round is interrupted before any commit and a new one opens), seat 1 declines; both commit and reveal;
    seat 1 resigns at its next move."""
    state = {"offered": False, "rounds": 0}

    def rule(game, st, seat, legal):
        waiting = game.awaiting(st)
        if waiting.kind == "simultaneous" and seat == 0 and not state["offered"] and "offer draw" in legal:
            state["offered"] = True
            return "offer draw"
        if waiting.kind == "simultaneous" and state["offered"]:
            state["rounds"] += 1
            return None
        if state["rounds"] >= 2 and seat == 1 and "resign" in legal:
            return "resign"
        return None
    match = _match("ebbe-flut", rule, seed=2)
    _play_out(match)
    return match


def _tides() -> SignedMatch:
    """Turning Tides, 2 seats: private draws (chain frames for another seat's private chance), open and
    secret simultaneous rounds; seat 0 resigns at its first decision after its first secret choice (an
    `act` interrupting a round), so the seed frames open the secret choices."""
    state = {"secret": False}

    def rule(game, st, seat, legal):
        waiting = game.awaiting(st)
        if seat == 0 and state["secret"] and "resign" in legal:
            return "resign"
        if waiting.kind == "simultaneous" and waiting.secret and seat == 0:
            state["secret"] = True
        return None
    match = _match("turning-tides", rule, seed=3, chain_length=8)
    _play_out(match)
    return match


def _catan_rule():
    state = {"shown": False}

    def rule(game, st, seat, legal):
        if state["shown"] and "resign" in legal:
            return "resign"
        for action in legal:
            if action.startswith("play "):
                state["shown"] = True
                return action
        if "buy" in legal:
            return "buy"
        for action in legal:
            if action.startswith(("city", "settle")):
                return action
        if "roll" in legal:
            return "roll"
        if "end" in legal:
            return "end"
        return None
    return rule


def _catan(until: Callable[[SignedMatch], bool] | None = None) -> SignedMatch:
    """Catan, 3 seats (25-round limit): a development card is bought (the deck's shuffle round and the deal's
    strips), played (an `act` showing the card), then two seats resign (each `act` releases its layer from
    the undealt cards)."""
    match = _match("catan", _catan_rule(), seed=4, players=3, options={"max_rounds": "25"})
    for _ in range(20_000):
        if until is not None and until(match):
            return match
        if match.step() is None:
            if until is not None:
                raise AssertionError("the game ended before the wanted point")
            return match
    raise AssertionError("no end")


def _ck_look_rule():
    state = {"taken": False}

    def rule(game, st, seat, legal):
        if state["taken"] and "resign" in legal:
            return "resign"
        for prefix in ("play spy", "take ", "improve politics"):
            for action in legal:
                if action.startswith(prefix):
                    state["taken"] = state["taken"] or prefix == "take "
                    return action
        return None
    return rule


def _catan_ck_look() -> SignedMatch:
    """Cities & Knights, 3 seats (spy=private, 25-round limit): a spy card is played, the spy looks at
    its target's hand in private (`peek` by the spy, `show` by the target, every value proven), takes a
    card it saw (an `act` with a `seen` attachment), then every seat resigns as soon as it may."""
    match = _match("catan-ck", _ck_look_rule(), seed=4, players=3, options={"max_rounds": "25"})
    _play_out(match)
    return match


def _madagaskar3() -> SignedMatch:
    return _match("madagaskar", seed=5, players=3)


# ------------------------------------------------------------------------------------------ vectors


@dataclass
class Vector:
    name: str
    about: str
    files: dict[str, bytes]
    expect: dict[str, Any]
    covers: list[str] = field(default_factory=list)
    group: str = "game"


def _expect(verdict: str, exit_code: int, frame: int | None, rule: str | None = None,
            blame: int | None = None, disputed: bool | None = None) -> dict[str, Any]:
    """What a verifier must say. `disputed=False`: the verdict carries no dispute and no blame (bytes
    rejected, or a record beside the frames that the file cannot hold honestly)."""
    out = {"verdict": verdict, "exit": exit_code, "frame": frame, "rule": rule, "blame": blame}
    if disputed is not None:
        out["disputed"] = disputed
    return out


def _kinds(frames: list[Frame]) -> list[str]:
    kinds = {f.kind for f in frames}
    for f in frames:
        if f.kind == "act" and len(f.body) == 2:
            kinds |= {f"act+{a[0]}" for a in f.body[1]}
    return sorted(kinds)


def _games(out: list[Vector], cache: dict[str, SignedMatch]) -> None:
    q = cache["quedah"] = _quedah()
    out.append(Vector("valid-quedah", _quedah.__doc__, {"valid-quedah.npr": _file(q.header, _frames(q))},
                      _expect("valid", 0, None), _kinds(_frames(q)) + ["renewal"]))
    e = cache["ebbe"] = _ebbe_flut()
    out.append(Vector("valid-ebbe-flut", _ebbe_flut.__doc__, {"valid-ebbe-flut.npr": _file(e.header, _frames(e))},
                      _expect("valid", 0, None), _kinds(_frames(e)) + ["interrupted round"]))
    t = cache["tides"] = _tides()
    out.append(Vector("valid-turning-tides", _tides.__doc__, {"valid-turning-tides.npr": _file(t.header, _frames(t))},
                      _expect("valid", 0, None), _kinds(_frames(t)) + ["private chance", "secret round"]))
    c = cache["catan"] = _catan()
    out.append(Vector("valid-catan-deck", _catan.__doc__, {"valid-catan-deck.npr": _file(c.header, _frames(c))},
                      _expect("valid", 0, None), _kinds(_frames(c))))
    k = cache["catan-ck"] = _catan_ck_look()
    out.append(Vector("valid-catan-ck-look", _catan_ck_look.__doc__,
                      {"valid-catan-ck-look.npr": _file(k.header, _frames(k))}, _expect("valid", 0, None),
                      _kinds(_frames(k))))
    # format 1.0 (frame protocol 1): still read and verified
    v1 = _match("quedah-merchant", seed=6, chain_length=4)
    h = v1.header
    v1.header = Header(h.game, h.rules_version, h.players, h.options, h.seats, h.session, h.created, 1, 0, None)
    v1.ledgers = [Ledger(v1.header, me, v1.game) for me in v1.secrets]
    _play_out(v1)
    out.append(Vector("valid-format-1", "A format 1.0 file (frame protocol 1: no terms in the header, commit "
                      "bodies without a round, no deck kinds) of Quedah Merchant: still read and verified.",
                      {"valid-format-1.npr": _file(v1.header, _frames(v1))}, _expect("valid", 0, None),
                      ["format 1"]))
    # formats 2.2 and 2.3: the players' copies of games spectators may watch (the header's spectators field,
    # and in 2.3 the chat term after it); a verifier reads the fields and verifies the game as any other
    for minor, chat in ((2, False), (3, True)):
        sp = _match("quedah-merchant", seed=7 + minor, chain_length=4)
        h = sp.header
        sp.header = Header.make(h.game, h.rules_version, h.players, dict(h.options), list(h.seats), h.session,
                                h.created, Terms.agreed(), Spectating(4, 2, chat))
        assert sp.header.minor == minor
        sp.ledgers = [Ledger(sp.header, me, sp.game) for me in sp.secrets]
        _play_out(sp)
        name = f"valid-format-2-{minor}-spectated"
        heard = (", and the chat term after it (the spectators hear the players' chat, as delayed)" if chat
                 else "")
        out.append(Vector(name, f"A format 2.{minor} file of Quedah Merchant (the players' copy): the terms of 2.1 "
                          f"and the spectators' field [4, 2] (up to 4 spectators, 2 frames behind){heard}. Read "
                          f"and verified as any game: a verifier must read both fields and not refuse the header.",
                          {f"{name}.npr": _file(sp.header, _frames(sp))}, _expect("valid", 0, None),
                          [f"format 2.{minor}", "spectators"]))


def _claims(out: list[Vector]) -> None:
    # a final claim: seat 0 claims seat 1's chain frame, closes the window with its seed, co-signs the forfeit
    m = _match("quedah-merchant", seed=1, chain_length=4)
    _until(m, lambda kind, seat: kind == "chain" and seat == 1 and len(m.ledgers[0].frames) > 10)
    claim = m.ledgers[0].build_timeout()
    m.deliver(claim)
    m.deliver(m.ledgers[0].build_after_claim())
    m.deliver(m.ledgers[0].build_next())
    forfeit = _frames(m)
    out.append(Vector("timeout-forfeit", "Seat 0 claims that seat 1 withheld its chain frame; seat 0's seed "
                      "closes the claim's window (the claim is final), then seat 0 co-signs the forfeit. The "
                      "verdict names the claim; nobody is blamed (a claim is about time).",
                      {"timeout-forfeit.npr": _file(m.header, forfeit)}, _expect("unfinished", 1, claim.seq),
                      ["timeout", "seed", "final"], "claim"))
    # the same claim, still open: the file ends after it
    out.append(Vector("timeout-open", "The file ends right after a timeout claim: the claim is still open.",
                      {"timeout-open.npr": _file(m.header, forfeit[:claim.seq + 1])},
                      _expect("unfinished", 1, claim.seq), ["timeout"], "claim"))
    # answered: the blamed seat sends the awaited frame, and the game goes on to its end
    m = _match("quedah-merchant", seed=1, chain_length=4)
    _until(m, lambda kind, seat: kind == "chain" and seat == 1 and len(m.ledgers[0].frames) > 10)
    m.deliver(m.ledgers[0].build_timeout())
    m.deliver(m.ledgers[1].build_next())
    _play_out(m)
    out.append(Vector("timeout-answered", "A timeout claim answered by the blamed seat's awaited frame: the "
                      "claim is void (a note) and the game goes on to a valid end.",
                      {"timeout-answered.npr": _file(m.header, _frames(m))}, _expect("valid", 0, None),
                      ["timeout"], "claim"))
    # contested: a claim against a decision, contested without evidence
    m = _match("quedah-merchant", seed=1, chain_length=4)
    _until(m, lambda kind, seat: kind == "act" and seat == 1 and len(m.ledgers[0].frames) > 10)
    m.deliver(m.ledgers[0].build_timeout())
    contest = m.ledgers[1].build_contest("claimed while deciding: thinking is untimed and this seat is connected")
    m.deliver(contest)
    out.append(Vector("contested", "Seat 0 claims that seat 1 withheld its move; seat 1 contests (thinking is "
                      "untimed): the game ends contested, nobody forfeits.",
                      {"contested.npr": _file(m.header, _frames(m))}, _expect("contested", 1, contest.seq),
                      ["timeout", "contest"], "claim"))
    # a contest after the claim became final, with the blamed seat's own frame for the slot as evidence;
    # and the two seats' copies compared: a claim against a contest is a fork nobody can be blamed for
    m = _match("quedah-merchant", seed=1, chain_length=4)
    _until(m, lambda kind, seat: kind == "chain" and seat == 1 and len(m.ledgers[0].frames) > 10)
    evidence = m.ledgers[1].build_next()
    claim = m.ledgers[0].build_timeout()
    m.deliver(claim)
    m.deliver(m.ledgers[0].build_after_claim())
    m.deliver(m.ledgers[0].build_next())
    claimant_copy = _frames(m)
    contest = m.ledgers[1].build_contest("our frame for the claimed slot was sent in time and not passed on",
                                         evidence)
    m.deliver(contest)
    blamed_copy = _frames(m)
    out.append(Vector("contest-after-forfeit", "A claim that became final, then the blamed seat's contest with "
                      "its own signed frame for the claimed slot as evidence: contested.",
                      {"contest-after-forfeit.npr": _file(m.header, blamed_copy)},
                      _expect("contested", 1, contest.seq), ["timeout", "contest"], "claim"))
    out.append(Vector("fork-claim-against-contest", "Two seats' copies of one game: the claimant's ends with the "
                      "forfeit, the blamed seat's with its contest. Compared, they are a fork (at the claim) that "
                      "nobody can be blamed for.",
                      {"fork-claimant.npr": _file(m.header, claimant_copy),
                       "fork-blamed.npr": _file(m.header, blamed_copy)},
                      {"exit": 1, "verdicts": ["unfinished", "contested"],
                       "fork": {"frame": claim.seq, "blame": None}}, ["fork"], "fork"))


def _relay(out: list[Vector], cache: dict[str, SignedMatch]) -> None:
    q = cache["quedah"]
    frames = _frames(q)
    host = q.secrets[0].key
    session = q.header.session

    def cert(frame: Frame) -> tuple:
        return ("cert", 0, frame.seq, frame.hash, sign_cert(host, session, frame.seq, frame.hash))
    after = {i: [cert(f)] for i, f in enumerate(frames)}
    out.append(Vector("valid-with-certificates", "A joiner's copy: every frame followed by the host's (seat 0) "
                      "certificate record that it sequenced the frame.",
                      {"valid-with-certificates.npr": _file(q.header, frames, after)}, _expect("valid", 0, None),
                      ["cert"], "relay"))
    bad = dict(after)
    k = 12
    seq_, hash_ = frames[k].seq, frames[k].hash
    bad[k] = [("cert", 0, seq_, hash_, bytes(64))]
    out.append(Vector("certificate-forged", "A certificate record whose signature is not the host's: the file "
                      "was altered.", {"certificate-forged.npr": _file(q.header, frames, bad)},
                      _expect("invalid", 1, seq_, disputed=False), ["cert"], "relay"))
    other = frames[k + 1].hash
    double = dict(after)
    double[k] = [cert(frames[k]), ("cert", 0, seq_, other, sign_cert(host, session, seq_, other))]
    out.append(Vector("certificate-twice", "Two host certificates for frame 12 with different frame hashes: the "
                      "host (seat 0) sent different frames to different seats.",
                      {"certificate-twice.npr": _file(q.header, frames, double)},
                      _expect("invalid", 1, seq_, "relay", 0), ["cert"], "relay"))
    unknown = {5: [("note-from-a-later-minor-version", 1, b"\x00")]}
    out.append(Vector("unknown-record-skipped", "A tagged record of a type this netplay does not know (a later "
                      "minor version's): skipped with a note.",
                      {"unknown-record-skipped.npr": _file(q.header, frames, unknown)}, _expect("valid", 0, None),
                      ["unknown record"], "relay"))
    # equivocation: seat 1 signs two different commits for one slot (copies of two seats)
    e = _match("ebbe-flut", seed=2)
    _until(e, lambda kind, seat: kind == "commit" and seat == 1)
    honest = e.step()
    twin = _resign(honest, e.secrets[1].key, body=(bytes(32), honest.body[1]))
    frames_e = _frames(e)
    out.append(Vector("fork-equivocation", "Two seats' copies of one game, cut short: seat 1 signed two different "
                      "commit frames as the same frame number. Compared, the fork names seat 1.",
                      {"fork-copy-a.npr": _file(e.header, frames_e),
                       "fork-copy-b.npr": _file(e.header, [*frames_e[:-1], twin])},
                      {"exit": 1, "verdicts": ["unfinished", "unfinished"],
                       "fork": {"frame": honest.seq, "blame": 1}}, ["fork"], "fork"))
    # a host (seat 0) that certifies two frames for one number: two claims, one to each joiner
    m = _madagaskar3()
    _until(m, lambda kind, seat: kind == "act" and seat == 0 and len(m.ledgers[0].frames) > 6)
    ledger = m.ledgers[0]
    claim1 = _forge(m, len(ledger.frames), 1, "timeout", (0, "act"))
    claim2 = _forge(m, len(ledger.frames), 2, "timeout", (0, "act"))
    host = m.secrets[0].key
    base = _frames(m)
    certs = [("cert", 0, c.seq, c.hash, sign_cert(host, m.header.session, c.seq, c.hash)) for c in (claim1, claim2)]
    out.append(Vector("fork-host-certifies-twice", "Three seats: the host (seat 0) passed seat 1's timeout claim to "
                      "one joiner and seat 2's to the other, each under its certificate. Compared, the two "
                      "certificates name the host.",
                      {"fork-seat-1.npr": _file(m.header, [*base, claim1], {len(base): [certs[0]]}),
                       "fork-seat-2.npr": _file(m.header, [*base, claim2], {len(base): [certs[1]]})},
                      {"exit": 1, "verdicts": ["unfinished", "unfinished"],
                       "fork": {"frame": claim1.seq, "blame": 0}}, ["fork", "cert"], "fork"))


def _links(out: list[Vector]) -> None:
    """The `links` record (format 2.1): the writer's unsigned word on which pairs only the host's relay joined.
    A well-formed one changes no verdict; one of the wrong shape is an altered file, like a bad `cert`."""
    m = SignedMatch("madagaskar", Chooser(None), seed=5, players=3, reproducible=True, chain_length=128,
                    created=CREATED, terms=Terms.agreed())     # a 2.1 header: the host's seat 0 named in its terms
    _play_out(m)
    frames = _frames(m)

    def first(record: tuple) -> bytes:
        """A copy as a peer writes it: the header, the record written as the game starts, the frames."""
        return _file(m.header, []) + codec.encode(record) + _file(m.header, frames)[len(m.header.encode()):]
    out.append(Vector("links-relay-only", "Three seats, a copy whose links record (written before the first "
                      "frame) says seats 1 and 2 had no direct link: signed by nothing, it changes no verdict "
                      "(netplay notes what the relay could and could not have done).",
                      {"links-relay-only.npr": first(links_record([(1, 2)]))}, _expect("valid", 0, None),
                      ["links"], "relay"))
    out.append(Vector("links-malformed", "Three seats, a links record naming the host's seat 0 in a pair: a record "
                      "of a known type that is not one, the file was altered: invalid, naming frame 0 (no frame "
                      "comes before it), nobody blamed.",
                      {"links-malformed.npr": first(("links", ((0, 1),)))}, _expect("invalid", 1, 0, disputed=False),
                      ["links"], "relay"))


def _rejected(out: list[Vector], cache: dict[str, SignedMatch]) -> None:
    q = cache["quedah"]
    frames = _frames(q)
    k = 10
    keys = [s.key for s in q.secrets]
    f = frames[k]
    sig = bytearray(f.signature)
    sig[0] ^= 1
    flipped = Frame(f.session, f.seq, f.prev, f.seat, f.kind, f.body, f.digest, bytes(sig), f.signed, f.hash)
    cases = [
        ("bad-signature", "Frame 10's signature has one bit flipped.", [*frames[:k], flipped, *frames[k + 1:]], k),
        ("frame-missing", "Frame 10 is missing (frame 11 follows frame 9).", [*frames[:k], *frames[k + 1:]], k),
        ("frame-replayed", "Frame 9 appears twice.", [*frames[:k], frames[k - 1], *frames[k:]], k),
        ("frames-swapped", "Frames 10 and 11 are swapped.", [*frames[:k], frames[k + 1], frames[k],
                                                               *frames[k + 2:]], k),
        ("wrong-session", "Frame 10 names another session (re-signed by its seat).",
         [*frames[:k], _resign(f, keys[f.seat], session=bytes(16))], k),
        ("broken-chain", "Frame 10's prev is not frame 9's hash (re-signed by its seat).",
         [*frames[:k], _resign(f, keys[f.seat], prev=bytes(32))], k),
        ("seat-out-of-range", "Frame 10 names seat 5 of a 2-seat game (signed by seat 1's key).",
         [*frames[:k], _resign(f, keys[1], seat=5)], k),
        ("signed-by-another-seat", "Frame 10 names its seat but carries the other seat's signature.",
         [*frames[:k], _resign(f, keys[1 - f.seat])], k),
        ("frame-after-the-end", "A correctly signed frame after the last co-signature: the session is closed.",
         [*frames, _forge(q, len(frames), 0, "final", frames[-1].body)], len(frames)),
    ]
    for name, about, fs, at in cases:
        out.append(Vector(name, about + " Rejected: the frame is not genuine, or does not belong there (invalid, "
                          "never a dispute).", {f"{name}.npr": _file(q.header, fs)},
                          _expect("invalid", 1, at, disputed=False), ["rejected"], "rejected"))
    # no frame: an unknown kind (correctly signed), an envelope of 7 fields, a digest of 31 bytes
    dance_raw = _raw_frame((f.session, f.seq, f.prev, f.seat, "dance", f.body, f.digest), keys[f.seat])
    seven = codec.encode((f.session, f.seq, f.prev, f.seat, f.kind, f.body, f.digest))
    short = _raw_frame((f.session, f.seq, f.prev, f.seat, f.kind, f.body, f.digest[:31]), keys[f.seat])
    for name, about, raw in (("unknown-kind", "Frame 10 is a correctly signed frame of kind \"dance\".", dance_raw),
                             ("envelope-7-fields", "Frame 10 is an array of 7 fields (no signature).", seven),
                             ("envelope-short-digest", "Frame 10's digest field is 31 bytes.", short)):
        out.append(Vector(name, about + " A record in a frame's place that is no frame: rejected as malformed "
                          "(invalid, naming the frame), never unreadable.",
                          {f"{name}.npr": _file(q.header, [*frames[:k], raw, *frames[k + 1:]])},
                          _expect("invalid", 1, k, disputed=False), ["malformed"], "rejected"))
    # the header altered: frame 0 no longer chains onto it
    h = q.header
    renamed = Header(h.game, h.rules_version, h.players, h.options, ((h.seats[0][0], "mallory"), h.seats[1]),
                     h.session, h.created, h.major, h.minor, h.terms)
    out.append(Vector("header-altered", "Seat 0's name in the header changed: frame 0's prev no longer matches "
                      "the header's hash.", {"header-altered.npr": _file(renamed, frames)},
                      _expect("invalid", 1, 0, disputed=False), ["rejected"], "rejected"))


def _raw_frame(fields: tuple, key: Any) -> bytes:
    """The wire bytes of a signed 8-field array that decode_frame would refuse (an unknown kind, a bad field)."""
    from replays.crypto import sign
    signed = codec.encode(fields)
    return codec.encode((*fields, sign(key, "frame", signed)))


def _disputes(out: list[Vector], cache: dict[str, SignedMatch]) -> None:
    q = cache["quedah"]
    frames = _frames(q)
    keys = [s.key for s in q.secrets]
    cases: list[tuple[str, str, Header, list, int, str | None, int]] = []

    def case(name: str, about: str, header: Header, fs: list, at: int, rule: str | None, blame: int) -> None:
        cases.append((name, about, header, fs, at, rule, blame))
    act = _first(frames, lambda f: f.kind == "act", 6)
    i = act.seq
    case("out-of-turn", f"Frame {i}: seat {1 - act.seat} sends an act frame when seat {act.seat}'s move is "
         "awaited.", q.header, [*frames[:i], _forge(q, i, 1 - act.seat, "act", act.body)], i, "turn order",
         1 - act.seat)
    case("illegal-action", f"Frame {i}: seat {act.seat} plays \"fly away\", which the engine refuses (the rule "
         "named is the engine's reason, which the kit does not compare).", q.header,
         [*frames[:i], _forge(q, i, act.seat, "act", ("fly away",))], i, None, act.seat)
    case("body-shape", f"Frame {i}: an act frame whose body is [123].", q.header,
         [*frames[:i], _forge(q, i, act.seat, "act", (123,))], i, "frame format", act.seat)
    case("wrong-digest", f"Frame {i}: the author's state digest after the frame differs (a desync).", q.header,
         [*frames[:i], _resign(act, keys[act.seat], digest=bytes(32))], i, "state digest", act.seat)
    chain = _first(frames, lambda f: f.kind == "chain" and f.body[1] is None, 6)
    i = chain.seq
    case("chain-value", f"Frame {i}: a chain value that does not hash onto the seat's previous one.", q.header,
         [*frames[:i], _resign(chain, keys[chain.seat], body=(bytes(32), None))], i, "hash chain", chain.seat)
    case("early-renewal", f"Frame {i}: a renewal before the chain is used up.", q.header,
         [*frames[:i], _resign(chain, keys[chain.seat], body=(chain.body[0], (bytes(32), 4)))], i, "hash chain",
         chain.seat)
    other = 1 - chain.seat
    case("claim-against-itself", f"Frame {i}: seat {chain.seat}, whose chain frame is awaited, claims that it "
         "withheld it itself (a claim's author is never the blamed seat).", q.header,
         [*frames[:i], _forge(q, i, chain.seat, "timeout", (chain.seat, "chain"))], i, "timeout claim", chain.seat)
    case("claim-wrong-seat", f"Frame {i}: seat {other} claims that seat {other} withheld a chain frame; seat "
         f"{chain.seat}'s is awaited.", q.header,
         [*frames[:i], _forge(q, i, other, "timeout", (other, "chain"))], i, "timeout claim", other)
    case("claim-wrong-kind", f"Frame {i}: a claim that seat {chain.seat} withheld an act frame when its chain frame "
         "is awaited.", q.header, [*frames[:i], _forge(q, i, other, "timeout", (chain.seat, "act"))], i,
         "timeout claim", other)
    case("contest-without-claim", f"Frame {i}: a contest when no claim blames its author.", q.header,
         [*frames[:i], _forge(q, i, other, "contest", ("no reason", None))], i, "timeout claim", other)
    renewing = _first(frames, lambda f: f.kind == "chain" and f.body[1] is not None)
    i = renewing.seq
    case("missing-renewal", f"Frame {i}: the last value of a chain revealed without a renewal.", q.header,
         [*frames[:i], _resign(renewing, keys[renewing.seat], body=(renewing.body[0], None))], i, "hash chain",
         renewing.seat)
    seed = _first(frames, lambda f: f.kind == "seed")
    i = seed.seq
    case("seed-commitment", f"Frame {i}: a seed that does not match the seat's commitment in open.", q.header,
         [*frames[:i], _resign(seed, keys[seed.seat], body=(bytes(32), *seed.body[1:]))], i, "seed commitment",
         seed.seat)
    case("chain-secret", f"Frame {i}: a chain secret that does not lead to the seat's chain values.", q.header,
         [*frames[:i], _resign(seed, keys[seed.seat], body=(seed.body[0], bytes(32), seed.body[2]))], i,
         "hash chain", seed.seat)
    final = _first(frames, lambda f: f.kind == "final")
    i = final.seq
    body = (final.body[0], tuple(s for s in range(q.players) if s not in final.body[1]), final.body[2], final.body[3])
    case("final-result", f"Frame {i}: a co-signature of another result.", q.header,
         [*frames[:i], _resign(final, keys[final.seat], body=body)], i, "final result", final.seat)
    case("final-digest", f"Frame {i}: a co-signature whose body digest is not the state's digest (the frame's own "
         "digest field is unchanged).", q.header,
         [*frames[:i], _resign(final, keys[final.seat], body=(bytes(32), *final.body[1:]))], i, "final result",
         final.seat)
    e = cache["ebbe"]
    frames_e = _frames(e)
    keys_e = [s.key for s in e.secrets]
    commit = _first(frames_e, lambda f: f.kind == "commit")
    i = commit.seq
    case("commit-round", f"Ebbe & Flut, frame {i}: a commit naming the wrong round number.", e.header,
         [*frames_e[:i], _resign(commit, keys_e[commit.seat], body=(commit.body[0], commit.body[1] + 1))], i,
         "choice commitment", commit.seat)
    case("open-in-a-round", f"Ebbe & Flut, frame {i}: a game action played openly (an act) where a commitment is "
         "awaited.", e.header, [*frames_e[:i], _forge(e, i, commit.seat, "act", ("pass",))], i,
         "simultaneous choices are committed", commit.seat)
    reveal = _first(frames_e, lambda f: f.kind == "reveal")
    i = reveal.seq
    case("reveal-mismatch", f"Ebbe & Flut, frame {i}: a reveal that does not open the seat's commitment (another "
         "salt).", e.header, [*frames_e[:i], _resign(reveal, keys_e[reveal.seat], body=(reveal.body[0], bytes(32)))],
         i, "choice commitment", reveal.seat)
    t = cache["tides"]
    frames_t = _frames(t)
    keys_t = [s.key for s in t.secrets]
    seed = _first(frames_t, lambda f: f.kind == "seed" and f.body[2])
    i = seed.seq
    case("openings-count", f"Turning Tides, frame {i}: a seed frame with one secret opening missing.", t.header,
         [*frames_t[:i], _resign(seed, keys_t[seed.seat], body=(*seed.body[:2], seed.body[2][:-1]))], i,
         "choice commitment", seed.seat)
    opened = seed.body[2]
    changed = ((opened[0][0] + " ", opened[0][1]), *opened[1:])
    case("opening-mismatch", f"Turning Tides, frame {i}: a secret opening that does not match its commitment.",
         t.header, [*frames_t[:i], _resign(seed, keys_t[seed.seat], body=(*seed.body[:2], changed))], i,
         "choice commitment", seed.seat)
    for name, about, header, fs, at, rule, blame in cases:
        out.append(Vector(name, about + " Signed by its seat: a dispute naming frame, seat and rule.",
                          {f"{name}.npr": _file(header, fs)}, _expect("invalid", 1, at, rule, blame), ["dispute"],
                          "dispute"))


def _deck_case(out: list[Vector], header: Header, covers: list[str]) -> Callable[..., None]:
    """add_case(name, about, frames, at, rule, blame): a `deck` group vector, invalid at frame `at`."""
    def add_case(name: str, about: str, fs: list, at: int, rule: str, blame: int) -> None:
        out.append(Vector(name, about, {f"{name}.npr": _file(header, fs)}, _expect("invalid", 1, at, rule, blame),
                          covers, "deck"))
    return add_case


def _deck_disputes(out: list[Vector], cache: dict[str, SignedMatch]) -> None:
    c = cache["catan"]
    frames = _frames(c)
    keys = [s.key for s in c.secrets]
    add_case = _deck_case(out, c.header, ["deck", "dispute"])
    shuffle = _first(frames, lambda f: f.kind == "shuffle" and f.seat == 1)
    i = shuffle.seq
    cards = [shuffle.body[3][32 * j:32 * j + 32] for j in range(len(shuffle.body[3]) // 32)]
    cards[3] = cards[0]
    body = (*shuffle.body[:3], b"".join(cards), shuffle.body[4])
    add_case("shuffle-equal-cards", f"Catan, frame {i}: a shuffle whose output holds one card twice (a live "
             "dispute).", [*frames[:i], _resign(shuffle, keys[1], body=body)], i, D.RULE_EQUAL_CARDS, 1)
    strip = _first(frames, lambda f: f.kind == "strip")
    i = strip.seq
    body = (*strip.body[:3], add(strip.body[3], strip.body[3]), strip.body[4])
    add_case("strip-wrong", f"Catan, frame {i}: a strip whose value is not the seat's layer removed (the proof "
             "fails).", [*frames[:i], _resign(strip, keys[strip.seat], body=body)], i, D.RULE_STRIP_PROOF, strip.seat)
    # the last strip of the first deal, then the drawer's false claim that its card is no card
    first_deal = _first(frames, lambda f: f.kind == "strip" and f.seq + 1 < len(frames)
                        and frames[f.seq + 1].kind != "strip")
    dealt = frames[:first_deal.seq + 1]
    ledger = _spectator(c.header, dealt, c.game)
    (deck_name, epoch), position = ledger.last_deal
    deal = ledger.decks[(deck_name, epoch)].deals[position]
    drawer = deal.drawer
    made = D.spoil(c.secrets[drawer].seed, c.header.session, drawer, deck_name, epoch, position, deal.last)
    at = len(dealt)
    false_claim = make_frame(keys[drawer], c.header.session, at, dealt[-1].hash, drawer, "spoiled",
                             (deck_name, epoch, position, made.value, made.proof), ledger.digest)
    add_case("spoiled-false", f"Catan, frame {at}: the drawer claims its dealt point is no card, but it is one.",
             [*dealt, false_claim], at, D.RULE_SPOILED_CARD, drawer)
    shown = _first(frames, lambda f: f.kind == "act" and len(f.body) == 2 and f.body[1][0][0] == "card")
    i = shown.seq
    add_case("card-not-shown", f"Catan, frame {i}: a development card played without showing it.",
             [*frames[:i], _resign(shown, keys[shown.seat], body=(shown.body[0],))], i, D.RULE_REVEAL_PROOF,
             shown.seat)
    resign = _first(frames, lambda f: f.kind == "act" and f.body[0] == "resign")
    i = resign.seq
    add_case("resign-without-release", f"Catan, frame {i}: a resignation that does not release the seat's layer "
             "from the undealt cards.", [*frames[:i], _resign(resign, keys[resign.seat], body=("resign",))], i,
             "resign release", resign.seat)
    # a shuffle by a permutation the seat chose (not its seed's): the proof holds, the audit names it. The
    # game goes on from the honest prefix; every seat resigns as soon as it may once the card is dealt
    before = _first(frames, lambda f: f.kind == "shuffle" and f.seat == 1).seq
    m = _match("catan", _resign_after_deal(), seed=4, players=3, options={"max_rounds": "25"})
    for frame in frames[:before]:
        m.deliver(frame)
    ledger = m.ledgers[1]
    chance = ledger.deal_chance()
    ep = ledger.decks[(chance.deck, chance.epoch)]
    inp = ep.outputs[-1]
    session, seed = m.header.session, m.secrets[1].seed
    key = D.deck_key(seed, session, 1, chance.deck, chance.epoch)
    cheat = tuple(mul(key, inp[j]) for j in range(len(inp)))     # the identity permutation: an order it knows
    proof = D._prove_shuffle(seed, session, 1, chance.deck, chance.epoch, inp, cheat, mul_base(key), key,
                             list(range(len(inp))))
    forged = _forge(m, before, 1, "shuffle", (chance.deck, chance.epoch, mul_base(key), b"".join(cheat),
                                              proof.to_wire()))
    m.deliver(forged)
    with contextlib.suppress(Dispute):   # the audit's dispute at the last seed: the frame is in the ledger
        _play_out(m)
    add_case("shuffle-marked-order", f"Catan, frame {forged.seq}: a shuffle by a permutation the seat chose "
             "instead of its seed's. Its proof holds, so play goes on (the seats resign once the card is dealt); "
             "once the seeds are revealed the audit recomputes the shuffle and names that frame.", _frames(m),
             forged.seq, D.RULE_SHUFFLE, 1)


def _look_disputes(out: list[Vector], cache: dict[str, SignedMatch]) -> None:
    k = cache["catan-ck"]
    frames = _frames(k)
    keys = [s.key for s in k.secrets]
    add_case = _deck_case(out, k.header, ["deck", "look", "dispute"])
    peek = _first(frames, lambda f: f.kind == "peek")
    i = peek.seq
    entries = [list(e) for e in peek.body[1]]
    entries[0][3] = add(entries[0][3], entries[0][3])
    body = (peek.body[0], tuple(tuple(e) for e in entries))
    add_case("peek-wrong", f"Cities & Knights, frame {i}: a spy's peek whose value is not its look key's layer on "
             "the target's card (the proof fails).", [*frames[:i], _resign(peek, keys[peek.seat], body=body)], i,
             L.RULE_PEEK_PROOF, peek.seat)
    add_case("peek-short", f"Cities & Knights, frame {i}: a spy's peek that leaves out one of the target's "
             "undisclosed cards.", [*frames[:i], _resign(peek, keys[peek.seat], body=(peek.body[0], ()))], i,
             "look order", peek.seat)
    show = frames[i + 1]
    entries = [list(e) for e in show.body]
    entries[0][3] = add(entries[0][3], entries[0][3])
    add_case("show-wrong", f"Cities & Knights, frame {show.seq}: the target's show whose value is not its layer "
             "removed from the peek (the proof fails).",
             [*frames[:show.seq], _resign(show, keys[show.seat], body=tuple(tuple(e) for e in entries))], show.seq,
             L.RULE_SHOW_PROOF, show.seat)
    take = _first(frames, lambda f: f.kind == "act" and f.body[0].startswith("take "), show.seq)
    add_case("take-not-proven", f"Cities & Knights, frame {take.seq}: the spy takes a card without proving it "
             "from the look.", [*frames[:take.seq], _resign(take, keys[take.seat], body=(take.body[0],))], take.seq,
             D.RULE_REVEAL_PROOF, take.seat)


def _resign_after_deal():
    def rule(game, st, seat, legal):
        if st.inner.deck < 25 and "resign" in legal:
            return "resign"
        return _catan_rule()(game, st, seat, legal)
    return rule


def _unreadable(out: list[Vector], cache: dict[str, SignedMatch]) -> None:
    q = cache["quedah"]
    frames = _frames(q)
    data = _file(q.header, frames)
    records = [raw for _, raw, _ in codec.iter_records(data)]
    head = records[0]
    f = frames[5]
    huge = codec.encode((f.session, len(frames), frames[-1].hash, 0, "act", ("x" * 65_535,) * 16, bytes(32),
                         bytes(64)), codec.Limits(max_bytes=1 << 30))
    raw5 = bytearray(records[6])
    assert raw5[19] == 5                        # frame 5's seq, a positive fixint
    noncanonical = bytes(raw5[:19]) + b"\xcc\x05" + bytes(raw5[20:])
    h = q.header
    newer = codec.encode((h.value()[0], 3, 0, *h.value()[3:]))
    cases = [
        ("record-over-1-mib", f"A record of {len(huge)} bytes (over the 1 MiB = 1,048,576 byte limit) after the "
         "last frame.",
         data + huge),
        ("record-not-canonical", "Frame 5's seq is written as uint8 (cc 05) instead of the fixint 05.",
         b"".join(records[:6]) + noncanonical + b"".join(records[7:])),
        ("record-garbage", "The byte c1 (never used by msgpack) between frames 9 and 10.",
         b"".join(records[:11]) + b"\xc1" + b"".join(records[11:])),
        ("record-map", "A msgpack map where frame 10 should be.", b"".join(records[:11]) + b"\x81\xa1a\x01"),
        ("header-torn", "The file ends inside the header record.", head[:len(head) // 2]),
        ("header-newer-major", "A header of format 3.0.", newer + b"".join(records[1:])),
        ("unknown-game", "A header naming a game this netplay does not have.",
         Header("chess-960", "1", 2, (), h.seats, h.session, h.created, 2, 0, h.terms).encode()
         + b"".join(records[1:])),
        ("rules-version-mismatch", "A header naming rules version \"0\" of Quedah Merchant.",
         Header(h.game, "0", 2, h.options, h.seats, h.session, h.created, 2, 0, h.terms).encode()
         + b"".join(records[1:])),
        ("empty-file", "An empty file.", b""),
    ]
    for name, about, blob in cases:
        out.append(Vector(name, about + " Unreadable (exit 2).", {f"{name}.npr": blob}, _expect("unreadable", 2, None),
                          ["unreadable"], "unreadable"))
    # torn: never fatal
    tail = records[-1]
    out.append(Vector("torn-last-record", "A complete game followed by half a record (a crash while writing): the "
                      "torn record is reported and skipped.", {"torn-last-record.npr": data + records[5][:20]},
                      _expect("valid", 0, None), ["torn"], "torn"))
    out.append(Vector("torn-final", "The last co-signature is cut off by the end of the file: skipped as torn; the "
                      "game is unfinished, awaiting that frame.", {"torn-final.npr": data[:-len(tail) // 2]},
                      _expect("unfinished", 1, len(frames) - 1), ["torn"], "torn"))
    out.append(Vector("cut-short", "The file ends after frame 29: unfinished (a cut file blames nobody).",
                      {"cut-short.npr": _file(q.header, frames[:30])}, _expect("unfinished", 1, 30), ["cut"], "torn"))


def _rechain(frames: list[Frame], at: int, new: Frame, keys: list[Any]) -> list[Frame]:
    """`frames` with frame `at` replaced by `new` and every later frame re-signed by its seat onto the new
    chain (same bodies and digests): the rest of the game stays valid, so that a verifier that accepts `new`
    calls the whole file valid."""
    out = [*frames[:at], new]
    for frame in frames[at + 1:]:
        out.append(_resign(frame, keys[frame.seat], prev=out[-1].hash))
    return out


def _plus_order(scalar: bytes) -> bytes:
    """The same scalar written as s + ℓ: below 2^256 and equal modulo ℓ, so libsodium's multiplication gives the
    same point, but not canonical (protocol.md "Canonical encodings")."""
    value = int.from_bytes(scalar, "little") + ORDER
    return value.to_bytes(32, "little")


def _scalars(out: list[Vector], cache: dict[str, SignedMatch]) -> None:
    """Item 2 of issue 26: a proof or opening scalar that is not canonical (s + ℓ). Each file is the whole game
    with one scalar malleated and the rest re-chained, so a verifier that accepts s + ℓ calls it valid."""
    c = cache["catan"]
    frames = _frames(c)
    keys = [s.key for s in c.secrets]
    strip = _first(frames, lambda f: f.kind == "strip")
    proof = strip.body[4]
    body = (*strip.body[:4], proof[:32] + _plus_order(proof[32:]))
    fs = _rechain(frames, strip.seq, _resign(strip, keys[strip.seat], body=body), keys)
    out.append(Vector("strip-scalar-not-canonical", f"Catan, frame {strip.seq}: a strip whose Chaum-Pedersen "
                      "proof carries s + ℓ instead of s (the same point for libsodium's multiplication, but not the "
                      "canonical scalar); the rest of the game follows. A proof scalar must be below ℓ: the strip's "
                      "seat is blamed.", {"strip-scalar-not-canonical.npr": _file(c.header, fs)},
                      _expect("invalid", 1, strip.seq, D.RULE_STRIP_PROOF, strip.seat),
                      ["deck", "dispute", "canonical scalar"], "deck"))
    shuffle = _first(frames, lambda f: f.kind == "shuffle" and f.seat == 1)
    commitments, openings = shuffle.body[4]
    opened = _plus_order(openings[0][:32]) + openings[0][32:]
    body = (*shuffle.body[:4], (commitments, (opened, *openings[1:])))
    fs = _rechain(frames, shuffle.seq, _resign(shuffle, keys[1], body=body), keys)
    out.append(Vector("shuffle-opening-not-canonical", f"Catan, frame {shuffle.seq}: a shuffle whose proof opens "
                      "shadow 0 with its scalar + ℓ; the rest of the game follows. An opening scalar must be "
                      "below ℓ: the shuffling seat is blamed.",
                      {"shuffle-opening-not-canonical.npr": _file(c.header, fs)},
                      _expect("invalid", 1, shuffle.seq, D.RULE_SHUFFLE_PROOF, 1),
                      ["deck", "dispute", "canonical scalar"], "deck"))
    k = cache["catan-ck"]
    frames_k = _frames(k)
    keys_k = [s.key for s in k.secrets]
    show = _first(frames_k, lambda f: f.kind == "show")
    entries = [list(e) for e in show.body]
    entries[0][4] = entries[0][4][:32] + _plus_order(entries[0][4][32:])
    fs = _rechain(frames_k, show.seq, _resign(show, keys_k[show.seat], body=tuple(tuple(e) for e in entries)),
                  keys_k)
    out.append(Vector("show-scalar-not-canonical", f"Cities & Knights, frame {show.seq}: the target's show whose "
                      "first proof carries s + ℓ; the rest of the game follows. The showing seat is blamed.",
                      {"show-scalar-not-canonical.npr": _file(k.header, fs)},
                      _expect("invalid", 1, show.seq, L.RULE_SHOW_PROOF, show.seat),
                      ["deck", "look", "dispute", "canonical scalar"], "deck"))


def _look_context(out: list[Vector], cache: dict[str, SignedMatch]) -> None:
    """Item 3 of issue 26: the seat in a peek's proof context is the looker's. A peek proven under the source's
    seat (the naive reading of "seat") is refused; the rest of the game follows it in the file."""
    from replays.ledger.decks import undisclosed
    k = cache["catan-ck"]
    frames = _frames(k)
    keys = [s.key for s in k.secrets]
    peek = _first(frames, lambda f: f.kind == "peek")
    ledger = _spectator(k.header, frames[:peek.seq], k.game)
    chance = ledger.show_chance()
    looker, source, session = peek.seat, chance.source, k.header.session
    j = L.look_key(k.secrets[looker].seed, session, looker, ledger.chance_index)
    entries = []
    for (ep, deal), entry in zip(undisclosed(ledger, source), peek.body[1], strict=True):
        ctx = D.deck_context(session, "peek", source, ep.deck, ep.epoch, deal.position)
        proof = D.dleq_prove(k.secrets[looker].seed, j, BASE, peek.body[0], deal.last, entry[3], ctx)
        entries.append((*entry[:4], proof))
    fs = _rechain(frames, peek.seq, _resign(peek, keys[looker], body=(peek.body[0], tuple(entries))), keys)
    out.append(Vector("peek-context-of-the-source", f"Cities & Knights, frame {peek.seq}: seat {looker}'s peek at "
                      f"seat {source}'s hand, every value right but each proof bound to a context that names the "
                      f"source (seat {source}) instead of the looker; the rest of the game follows. A peek's (and a "
                      "seen card's) context names the looker: the peek is refused, the looker blamed.",
                      {"peek-context-of-the-source.npr": _file(k.header, fs)},
                      _expect("invalid", 1, peek.seq, L.RULE_PEEK_PROOF, looker), ["deck", "look", "dispute"],
                      "deck"))


def _precedence(out: list[Vector], cache: dict[str, SignedMatch]) -> None:
    """Item 4 of issue 26: the frames are judged before the records beside them, so a disputed frame is named
    even when a forged certificate comes earlier in the file."""
    q = cache["quedah"]
    frames = _frames(q)
    keys = [s.key for s in q.secrets]
    host, session = q.secrets[0].key, q.header.session
    act = _first(frames, lambda f: f.kind == "act", 10)
    i = act.seq
    after = {n: [("cert", 0, f.seq, f.hash, sign_cert(host, session, f.seq, f.hash))] for n, f in enumerate(frames[:i])}
    after[5] = [("cert", 0, 5, frames[5].hash, bytes(64))]
    fs = [*frames[:i], _resign(act, keys[act.seat], digest=bytes(32))]
    out.append(Vector("certificate-forged-before-a-dispute", f"A joiner's copy whose certificate of frame 5 is "
                      f"forged, and whose frame {i} (signed by seat {act.seat}) carries a wrong state digest. The "
                      "frames are judged first: the verdict names the disputed frame and its seat, not the "
                      "certificate that comes earlier in the file.",
                      {"certificate-forged-before-a-dispute.npr": _file(q.header, fs, after)},
                      _expect("invalid", 1, i, "state digest", act.seat), ["cert", "dispute", "precedence"], "relay"))


def _records(out: list[Vector], cache: dict[str, SignedMatch]) -> None:
    """Item 6 of issue 26: records beside the frames (a cert record of the wrong shape, a certificate by a seat
    that is not the host) and a copy compared only as far as it is genuine."""
    q = cache["quedah"]
    frames = _frames(q)
    keys = [s.key for s in q.secrets]
    session = q.header.session

    def cert(frame: Frame, seat: int = 0) -> tuple:
        return ("cert", seat, frame.seq, frame.hash, sign_cert(keys[seat], session, frame.seq, frame.hash))
    after = {n: [cert(f)] for n, f in enumerate(frames)}
    k = 12
    short = dict(after)
    short[k] = [("cert", 0, k, frames[k].hash, after[k][0][4][:63])]
    out.append(Vector("certificate-malformed", f"A joiner's copy whose certificate record after frame {k} has a "
                      "63-byte signature: a record of a known type that is not one is no later version's record "
                      "(those are skipped), the file was altered: invalid, naming the frame it follows.",
                      {"certificate-malformed.npr": _file(q.header, frames, short)},
                      _expect("invalid", 1, k, disputed=False), ["cert"], "relay"))
    other = dict(after)
    other[k] = [*after[k], cert(frames[k], seat=1)]
    out.append(Vector("certificate-by-another-seat", f"A joiner's copy holding the host's (seat 0) certificate of "
                      f"every frame and one more of frame {k}, validly signed by seat 1. Only the host certifies "
                      "frames; a format 2.0 header does not name it, so it is the seat of the file's first "
                      "certificate record: the file was altered (invalid, nobody blamed).",
                      {"certificate-by-another-seat.npr": _file(q.header, frames, other)},
                      _expect("invalid", 1, k, disputed=False), ["cert"], "relay"))
    f = frames[10]
    forged = make_frame(keys[1 - f.seat], f.session, f.seq, f.prev, f.seat, f.kind, f.body, bytes(32))
    out.append(Vector("fork-invalid-copy", f"Two copies of one game: a complete one, and one whose frame 10 "
                      f"claims seat {f.seat} but is signed by the other seat's key (rejected there). The second "
                      "copy proves nothing from frame 10 on, so there is no fork and nobody is blamed (comparing "
                      f"every frame record would name seat {f.seat} as the signer of two frames).",
                      {"fork-copy-genuine.npr": _file(q.header, frames),
                       "fork-copy-rejected.npr": _file(q.header, [*frames[:10], forged, *frames[11:]])},
                      {"exit": 1, "verdicts": ["valid", "invalid"], "fork": None}, ["fork"], "fork"))


def build() -> list[Vector]:
    cache: dict[str, SignedMatch] = {}
    out: list[Vector] = []
    _games(out, cache)
    _claims(out)
    _relay(out, cache)
    _rejected(out, cache)
    _disputes(out, cache)
    _deck_disputes(out, cache)
    _look_disputes(out, cache)
    _scalars(out, cache)
    _look_context(out, cache)
    _precedence(out, cache)
    _records(out, cache)
    _unreadable(out, cache)
    _links(out)
    return out


VECTORS = build


def _check(vector: Vector) -> None:
    """The vector's expectation is what this implementation's audit says."""
    if len(vector.files) != 1:
        from replays.audit import audit_replay
        from replays.forks import compare
        from replays.reader import parse_replay
        replays = []
        for name, blob in vector.files.items():
            replay = parse_replay(blob)
            replay.path = name
            replays.append(replay)
        verdicts = [audit_replay(r) for r in replays]
        forks = compare(replays, verdicts)
        got = {"exit": max([v.exit_code for v in verdicts] + [1 if forks else 0]),
               "verdicts": [v.status for v in verdicts],
               "fork": {"frame": forks[0].frame, "blame": forks[0].blame} if forks else None}
        if got != vector.expect:
            raise AssertionError(f"vector {vector.name}: expected {vector.expect}, the audit says {got}")
        return
    (name, blob), = vector.files.items()
    verdict = audit_bytes(blob, name=name)
    expect = vector.expect
    got = {"verdict": verdict.status, "exit": verdict.exit_code, "frame": verdict.frame,
           "rule": None if expect["rule"] is None or verdict.dispute is None else verdict.dispute["rule"],
           "blame": verdict.blame if expect["blame"] is not None else None}
    if "disputed" in expect:
        got["disputed"] = verdict.dispute is not None or verdict.blame is not None
    if got != expect:
        raise AssertionError(f"vector {vector.name}: expected {expect}, the audit says {got} ({verdict.reason})")


def write_replays(out: Path, dump: Callable[[Path, Any], None], check: bool = True) -> list[Path]:
    folder = out / "replays"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    index = []
    for vector in build():
        if check:
            _check(vector)
        for name, blob in vector.files.items():
            path = folder / name
            path.write_bytes(blob)
            written.append(path)
        index.append({"name": vector.name, "group": vector.group, "files": [f"replays/{n}" for n in vector.files],
                      "covers": vector.covers, "about": " ".join((vector.about or "").split()),
                      "expect": vector.expect})
    path = out / "replays.json"
    dump(path, {"about": "Replay vectors: run a verifier on each vector's files (all of them in one invocation "
                         "when there are several) and compare its verdict, exit status and named frame with "
                         "`expect` (and the dispute's rule and the blamed seat where they are not null). "
                         "`python -m conformance.check` does it; docs/conformance.md explains.",
                "engines": {gid: g.rules_version for gid, g in sorted(engines.GAMES.items())},
                "vectors": index})
    written.append(path)
    return written
