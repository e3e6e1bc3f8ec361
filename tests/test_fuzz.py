"""Fuzzing (hypothesis) of what reads untrusted input above the transport: the replay reader and audit
(a replay file may come from anyone), and every engine's action parser (an action text arrives signed
by a peer that may lie). No crash but the documented errors, no hang (a deadline per input), bounded
memory. The transport, handshake, wire codec and frame decoder are fuzzed with the transport work.

Quick form: a few hundred inputs per target; NETPLAY_LONG=1: thousands. `COUNTS` keeps the number of
inputs run per target (printed at the end of the module with -s)."""

from __future__ import annotations

import os
import random
import tracemalloc
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cpuclock import measure
from support.walks import chance_value

import engines
from bots.lib import RandomBot
from engines.core import IllegalAction
from replays import codec
from replays.audit import EXIT, audit_bytes
from replays.certs import sign_cert
from replays.local import SignedMatch
from replays.reader import Cert, parse_replay

LONG = os.environ.get("NETPLAY_LONG") == "1"
EXAMPLES = 3000 if LONG else 250
COUNTS: Counter[str] = Counter()
FUZZ = settings(max_examples=EXAMPLES, deadline=3000, derandomize=not LONG,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


# ------------------------------------------------------------------------------------------ replay files

def _replay(game_id: str, players: int = 2) -> bytes:
    """A whole replay as a joiner writes it: header, frames, and the host's certificate beside each frame."""
    match = SignedMatch(game_id, RandomBot(), seed=3, players=players, reproducible=True)
    while match.step() is not None:
        pass
    host = match.secrets[0].key
    out = [match.header.encode()]
    for frame in match.ledgers[0].frames:
        cert = Cert("cert", 0, frame.seq, frame.hash, sign_cert(host, match.session, frame.seq, frame.hash))
        out += [frame.encode(), codec.encode(cert.value())]
    return b"".join(out)


SAMPLES = {g: _replay(g) for g in ("loyal-captain", "quedah-merchant", "turning-tides")}


def _check_file(data: bytes, target: str) -> None:
    COUNTS[target] += 1
    with measure() as spent:
        try:
            parse_replay(data)
        except codec.FormatError as exc:
            assert exc.reason
        verdict = audit_bytes(data)              # never raises for anything a file contains
    assert verdict.status in EXIT and verdict.reason
    assert spent.cpu < 3, f"{target}: {spent.cpu:.2f} s of CPU"   # CPU, not the clock: a busy machine


@st.composite
def mutated(draw, sample: bytes) -> bytes:
    data = bytearray(sample)
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(["flip", "set", "insert", "delete", "cut", "dup"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if op == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "set" and data:
            data[at] = draw(st.sampled_from([0x00, 0xff, 0xc0, 0xc1, 0xdc, 0xdd, 0xc4, 0xc6, 0xd9, 0xdb, 0x7f, 0x90]))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif op == "delete":
            del data[at:at + draw(st.integers(1, 64))]
        elif op == "cut":
            del data[at:]
        elif op == "dup" and data:
            end = min(len(data), at + draw(st.integers(1, 400)))
            data[at:at] = data[at:end]
    return bytes(data)


@pytest.mark.parametrize("game_id", list(SAMPLES))
@FUZZ
@given(data=st.data())
def test_a_mutated_replay_file_is_read_or_refused_never_crashes(game_id: str, data) -> None:
    _check_file(data.draw(mutated(SAMPLES[game_id])), "replay reader + audit (mutated files)")


@FUZZ
@given(data=st.binary(max_size=4096))
def test_random_bytes_are_refused_as_a_replay(data: bytes) -> None:
    _check_file(data, "replay reader + audit (random bytes)")


values = st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.text(max_size=40)
                      | st.binary(max_size=80), lambda inner: st.lists(inner, max_size=6), max_leaves=30)


@FUZZ
@given(records=st.lists(values, max_size=8), keep_header=st.booleans())
def test_well_formed_records_of_any_shape_are_judged_never_crash(records: list, keep_header: bool) -> None:
    """msgpack that decodes but has any shape: headers, frames, certificates of the wrong form."""
    import msgpack
    head = SAMPLES["loyal-captain"]
    first = next(codec.iter_records(head))
    prefix = first[1] if keep_header else b""
    _check_file(prefix + b"".join(msgpack.packb(r, use_bin_type=True) for r in records),
                "replay reader + audit (records of any shape)")


def test_huge_declared_lengths_are_refused_in_bounded_memory() -> None:
    """Records that announce gigabytes (arrays, bins, strs) are refused without allocating them."""
    header = next(codec.iter_records(SAMPLES["loyal-captain"]))[1]
    bombs = [b"\xdd\xff\xff\xff\xff", b"\xc6\xff\xff\xff\xff", b"\xdb\xff\xff\xff\xff", b"\xdf\xff\xff\xff\xff",
             b"\x91" * 100_000, b"\xdc\xff\xff" + b"\x90" * 65535]
    tracemalloc.start()
    try:
        for bomb in bombs:
            for data in (bomb, header + bomb):
                _check_file(data, "replay reader + audit (length bombs)")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20, peak


# ------------------------------------------------------------------------------------------ action parsers

def _states(game_id: str, limit: int = 60) -> list[tuple]:
    """(state, seat) decision points of a few random full-knowledge games."""
    game = engines.get(game_id)
    found = []
    rng = random.Random(game_id)
    bot = RandomBot()
    for players in game.players:
        state = game.start(players)
        dealt: dict[tuple, list[int]] = {}
        for _ in range(3000):
            waiting = game.awaiting(state)
            if waiting.kind == "over":
                break
            if waiting.kind == "chance":
                state = game.chance(state, chance_value(game, state, waiting.chance, rng, dealt))
                continue
            seat = waiting.seats[0]
            legal = game.legal(state, seat)
            if rng.random() < 0.15:
                found.append((state, seat))
            state = game.play(state, seat, bot.choose(game, state, seat, legal, rng))
    rng.shuffle(found)
    return found[:limit]


POINTS = {g: _states(g) for g in engines.GAMES}
WORDS = ["resign", "offer draw", "accept draw", "decline draw", "pass", "move", "enter", "free", "play", "take",
         "draw", "card", "step", "roll", "keep", "->", "x", "-1", "0", "99", "1e9", " ", "\t", "\x00", "ü", "𝄞"]


@st.composite
def action_text(draw, legal: list[str]) -> str:
    choice = draw(st.integers(0, 4))
    if choice == 0 or not legal:
        return draw(st.text(max_size=40))
    base = draw(st.sampled_from(legal))
    if choice == 1:
        return base
    tokens = base.split(" ")
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["replace", "insert", "delete", "case", "number", "space"]))
        at = draw(st.integers(0, max(0, len(tokens) - 1)))
        if op == "replace" and tokens:
            tokens[at] = draw(st.sampled_from(WORDS))
        elif op == "insert":
            tokens.insert(at, draw(st.sampled_from(WORDS)))
        elif op == "delete" and len(tokens) > 1:
            del tokens[at]
        elif op == "case" and tokens:
            tokens[at] = tokens[at].upper()
        elif op == "number" and tokens:
            tokens[at] = str(draw(st.integers(-5, 10**6)))
        elif op == "space":
            tokens[at:at] = [""]
    return " ".join(tokens)


@pytest.mark.parametrize("game_id", list(engines.GAMES))
@FUZZ
@given(data=st.data())
def test_every_engine_parses_any_action_text_or_refuses_it(game_id: str, data) -> None:
    game = engines.get(game_id)
    state, seat = data.draw(st.sampled_from(POINTS[game_id]))
    legal = game.legal(state, seat)
    text = data.draw(action_text(legal))
    COUNTS[f"action parser: {game_id}"] += 1
    with measure() as spent:
        try:
            game.play(state, seat, text)
        except IllegalAction as exc:
            assert exc.reason, text
            assert text not in legal, f"{game_id}: legal() lists {text!r} but play() refuses it: {exc.reason}"
        else:
            assert text in legal, f"{game_id}: play() accepts {text!r}, which legal() does not list"
    assert spent.cpu < 2, f"{game_id}: {spent.cpu:.2f} s of CPU for {text!r}"


def test_zz_report_the_inputs_run() -> None:
    """(Runs last in this module.) The inputs each target got in this run."""
    for target, count in sorted(COUNTS.items()):
        print(f"fuzz inputs: {count:6d}  {target}")
    assert sum(COUNTS.values()) > 0 or not COUNTS
