"""Fuzzing with hypothesis: everything that decodes bytes from another peer or from a file.

Targets: the transport's bootstrap and handshake messages (the `parse_*` functions, the host's
message handler as a state machine, the joiner's), a live host under random garbage on both ports
while a real joiner keeps using it, the session messages (`netplay.wire.unpack`), and the replay
decoders (`replays.codec.decode`, `codec.iter_records`, `replays.frames.decode_frame`). Inputs are
random bytes, byte strings built from msgpack headers that declare huge sizes or deep nesting, valid
messages with mutations (bit flips, overwritten, inserted, deleted or duplicated bytes, truncation)
and oversized ones. What must hold: only the documented error escapes (MessageError, wire.Malformed,
codec.FormatError); every call returns within a time bound and allocates at most a bounded multiple
of its input (tracemalloc); the decoders' work is linear in their input; the host keeps serving.

Quick by default (a few seconds); `NETPLAY_LONG=1` runs ten times as many examples. The number of
inputs run per target is printed at the end of the module.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import msgpack
import pytest
import zmq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cpuclock import Budget, measure
from support.fuzzcounts import report_counts
from support.transportkit import HB, LIVE, Run, has, joiner, key_of

from netplay import transport as tr
from netplay import wire
from netplay.identity import Identity, KnownPeers
from replays import codec
from replays.crypto import generate_key
from replays.frames import Frame, decode_frame, make_frame

LONG = os.environ.get("NETPLAY_LONG") == "1"
RUNS: Counter[str] = Counter()


def examples(quick: int) -> settings:
    return settings(max_examples=quick * (10 if LONG else 1), deadline=None, derandomize=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module", autouse=True)
def report(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    report_counts(request, f"fuzz inputs run ({'NETPLAY_LONG' if LONG else 'quick'})", RUNS, "fuzz-counts.txt")


# -- inputs ---------------------------------------------------------------------------------------

#: msgpack headers that declare much (long strings, big or deep arrays, maps, ext types) and odd bytes
TOKENS = [b"\x90", b"\x91", b"\x9f", b"\xdc\xff\xff", b"\xdc\x4e\x20", b"\xdc\x27\x10", b"\xdd\xff\xff\xff\xff",
          b"\xdd\x00\x00\x4e\x21", b"\xc4\xff", b"\xc5\xff\xff", b"\xc6\xff\xff\xff\xff", b"\xc4\x20", b"\xd9\x40",
          b"\xda\xff\xff", b"\xdb\xff\xff\xff\xff", b"\xde\xff\xff", b"\xdf\xff\xff\xff\xff", b"\x80", b"\x81",
          b"\xc7\x00\x01", b"\xc8\xff\xff\x01", b"\xd4\x01\x01", b"\xd6\xff" + bytes(4), b"\xc1", b"\xc0", b"\xc2",
          b"\xc3", b"\xca" + bytes(4), b"\xcb" + bytes(8), b"\xcf" + b"\xff" * 8, b"\xd3\x80" + bytes(7),
          b"\xcd\x00\x01", b"\xa0", b"\xa3abc", b"\xa2\xff\xfe", b"\xbf", b"\xff", b"\x00", b"\x7f", bytes(32),
          bytes(64)]

garbage = st.one_of(
    st.binary(max_size=300),
    st.lists(st.sampled_from(TOKENS) | st.binary(max_size=6), max_size=60).map(b"".join),
    # one header repeated: deep nesting, many declared arrays, long runs
    st.tuples(st.sampled_from(TOKENS), st.integers(1, 3000), st.binary(max_size=8)).map(lambda t: t[0] * t[1] + t[2]),
)

MUTATIONS = st.lists(st.tuples(st.sampled_from(["flip", "set", "insert", "delete", "truncate", "dup"]),
                               st.integers(0, 1 << 16), st.binary(min_size=1, max_size=4) | st.sampled_from(TOKENS)),
                     min_size=1, max_size=4)


def mutate(data: bytes, ops: list[tuple[str, int, bytes]]) -> bytes:
    for op, where, value in ops:
        i = where % (len(data) + 1)
        if op == "flip" and data:
            i %= len(data)
            data = data[:i] + bytes([data[i] ^ (1 << (value[0] % 8))]) + data[i + 1:]
        elif op == "set":
            data = data[:i] + value + data[i + len(value):]
        elif op == "insert":
            data = data[:i] + value + data[i:]
        elif op == "delete":
            data = data[:i] + data[i + len(value):]
        elif op == "truncate":
            data = data[:i]
        elif op == "dup":
            data = data[:i] + data[i:i + 1 + value[0] % 64] * 2 + data[i + 1 + value[0] % 64:]
    return data


def mutated(valid: st.SearchStrategy[bytes]) -> st.SearchStrategy[bytes]:
    return st.tuples(valid, MUTATIONS).map(lambda t: mutate(*t))


def inputs(valid: st.SearchStrategy[bytes], big: int) -> st.SearchStrategy[bytes]:
    """Valid messages, mutated ones, garbage, and oversized ones (a valid message padded past `big`)."""
    return st.one_of(valid, mutated(valid), garbage,
                     st.tuples(valid, st.integers(big, 2 * big)).map(lambda t: t[0] + bytes(t[1])))


@contextlib.contextmanager
def never_blocks(what: str) -> Iterator[None]:
    """A handler runs on the transport's one thread, so it must neither wait nor compute long: at most
    0.1 s of its own CPU time, and at most 0.5 s asleep (on a socket, a lock, a timer). Both are this
    thread's own clocks (tests/support/cpuclock.py): waiting for a core while other processes hold the shared
    ones counts in neither, so a busy machine does not fail it; a handler that waits is still caught."""
    with measure() as spent:
        yield
    assert spent.cpu < 0.1 and spent.blocked < 0.5, f"{what}: {spent.cpu:.3f} s of CPU, {spent.blocked:.3f} s asleep"


def bounded(target: str, fn: Callable[[bytes], Any], data: bytes, allowed: tuple[type[BaseException], ...],
            seconds: float = 1.0, per_byte: float = 5e-5) -> tuple[Any, BaseException | None]:
    """Run one decoder on one input: only `allowed` may escape; it costs at most `seconds` plus
    `per_byte` for each input byte of this thread's CPU time (not the clock, which a busy machine
    stretches: a hang or a quadratic blow-up on a large input is still far over it, and
    `test_decoding_time_is_linear` measures the growth); and it allocates at most 64 bytes per input
    byte plus 2 MiB (tracemalloc's peak, in a second run: tracing slows every allocation down, which
    would blur the time)."""
    RUNS[target] += 1
    with measure() as spent:
        try:
            result, error = fn(data), None
        except allowed as exc:
            result, error = None, exc
    assert spent.cpu <= seconds + per_byte * len(data), f"{target}: {spent.cpu:.3f} s of CPU for {len(data)} bytes"
    tracemalloc.start()
    try:
        with contextlib.suppress(*allowed):
            fn(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= 64 * len(data) + (2 << 20), f"{target}: {peak} bytes allocated for {len(data)} input bytes"
    if error is not None:
        assert str(error), f"{target}: an error without a reason"
    return result, error


# -- transport messages: the parsers ---------------------------------------------------------------

key32 = st.binary(min_size=32, max_size=32)
sig64 = st.binary(min_size=64, max_size=64)
ints = st.integers(-(2**63), 2**64 - 1)
names = st.text(st.characters(codec="utf-8"), min_size=1, max_size=64)


def packed(*fields: st.SearchStrategy) -> st.SearchStrategy[bytes]:
    return st.tuples(*fields).map(lambda t: msgpack.packb(list(t), use_bin_type=True))


PARSERS: dict[str, tuple[Callable[[bytes], Any], st.SearchStrategy[bytes]]] = {
    "transport.parse_boot_request": (tr.parse_boot_request, packed(st.just(tr.BOOT_REQUEST), st.integers(0, 3), key32)),
    "transport.parse_boot_reply": (tr.parse_boot_reply, st.one_of(
        packed(st.just(tr.BOOT_CARD), st.just(tr.PROTOCOL), names, key32, key32, st.integers(1, 65535), sig64),
        packed(st.just(tr.BOOT_ERROR), st.just(tr.PROTOCOL), st.text(max_size=300)))),
    "transport.parse_hello": (tr.parse_hello, packed(st.just(tr.PROTOCOL), names, key32, key32)),
    "transport.hello_version": (tr.hello_version, packed(st.integers(-5, 5), names, key32, key32)),
    "transport.parse_challenge": (tr.parse_challenge, packed(key32, key32)),
    "transport.parse_auth": (tr.parse_auth, packed(names, key32, key32, key32, key32, sig64)),
    "transport.parse_welcome": (tr.parse_welcome, packed(key32, st.integers(-1, 1 << 40), st.integers(-1, 99),
                                                          st.integers(-1, 1 << 40), sig64)),
    "transport.parse_refused": (tr.parse_refused, packed(st.text(max_size=600))),
}


@pytest.mark.parametrize("target", sorted(PARSERS))
def test_transport_parsers_raise_only_message_error(target: str) -> None:
    parse, valid = PARSERS[target]

    @examples(300)
    @given(inputs(valid, tr.MAX_CONTROL))
    def run(data: bytes) -> None:
        result, error = bounded(target, parse, data, (tr.MessageError,), seconds=0.5)
        if error is not None or result is None or isinstance(result, int | str):
            return
        # what a parser lets through is what the protocol allows
        for field in ("key", "nonce", "host_nonce", "join_nonce", "cookie", "curve_key"):
            if hasattr(result, field):
                assert len(getattr(result, field)) == 32
        if hasattr(result, "sig"):
            assert len(result.sig) == 64
        if hasattr(result, "name"):
            assert 0 < len(result.name) <= 64 and result.name.isprintable()
        assert len(data) <= tr.MAX_CONTROL

    run()


@examples(200)
@given(st.text(max_size=2000))
def test_text_from_a_peer_is_made_printable(text: str) -> None:
    RUNS["transport.clip"] += 1
    shown = tr.clip(text)
    assert len(shown) <= 500 and shown.isprintable()


# -- the host's message handler as a state machine ---------------------------------------------------

class Seats:
    def __init__(self) -> None:
        self.playing = False
        self.seated: set[bytes] = set()

    def __call__(self, key: bytes, name: str) -> str | None:
        return None if not self.playing or key in self.seated else "every seat is taken"


@pytest.fixture(scope="module")
def lone_host() -> Iterator[tuple[tr.HostTransport, Seats]]:
    seats = Seats()
    host = tr.HostTransport(Identity.generate("fuzz-host"), heartbeat_s=HB, liveness=LIVE, accept=seats,
                            known_peers=KnownPeers())
    yield host, seats
    host.close()


LEGIT = [Identity.generate(f"legit-{i}") for i in range(3)]
kinds = st.integers(0, 255) | st.sampled_from(list(range(1, 10)))
step = st.one_of(
    st.tuples(st.just("raw"), st.integers(0, 3), kinds, garbage),
    st.tuples(st.just("hello"), st.integers(0, 3), st.integers(0, 2), MUTATIONS),
    st.tuples(st.just("auth"), st.integers(0, 3), st.integers(0, 2), MUTATIONS | st.just([])),
    st.tuples(st.just("playing"), st.integers(0, 3), st.booleans(), st.just(b"")),
)


@examples(150)
@given(st.lists(step, max_size=12))
def test_the_hosts_handshake_state_machine_raises_only_message_error(lone_host, steps) -> None:
    """Sequences of messages on four connections: garbage of every kind byte, HELLOs and AUTHs of real
    identities (proper, or mutated), and the game starting and stopping in between. Only MessageError
    may escape the handler (its caller logs and drops those), and nobody gets in without signing."""
    host, seats = lone_host
    signed: set[bytes] = set()
    for action, conn, arg, extra in steps:
        rid = b"\x00fuzz" + bytes([conn]) + os.urandom(2)
        frame = zmq.Frame(b"x")               # no metadata: the source is "?" for all of them
        RUNS["transport.host_handler"] += 1
        if action == "playing":
            seats.playing, seats.seated = arg, {LEGIT[0].public_key}
            continue
        if action == "raw":
            msg = bytes([arg]) + extra
        else:
            ident, nonce = LEGIT[arg], bytes([arg]) * 32
            if action == "hello":
                msg = bytes([tr.HELLO]) + mutate(msgpack.packb([tr.PROTOCOL, ident.name, ident.public_key, nonce]),
                                                 extra)
            else:
                host_nonce = os.urandom(32)
                window = int(time.monotonic() // tr.COOKIE_WINDOW_S)
                cookie = host._cookie(window, rid, "?", ident.name, ident.public_key, nonce, host_nonce)
                t = tr._transcript(host._curve_raw, host.identity.public_key, host.identity.name, ident.public_key,
                                   ident.name, nonce, host_nonce)
                body = msgpack.packb([ident.name, ident.public_key, nonce, host_nonce, cookie,
                                      ident.sign(tr.JOIN_DOMAIN + t)])
                if not extra:
                    signed.add(ident.public_key)
                msg = bytes([tr.AUTH]) + mutate(body, extra) if extra else bytes([tr.AUTH]) + body
        events: list[tr.Incoming] = []
        with never_blocks("the host's handshake handler"):
            try:
                host._handle(rid, frame, msg, events)
            except tr.MessageError as exc:
                assert str(exc)
        for event in events:
            assert event.kind in ("joined", "left")
    for key in host.peers:
        assert key in {i.public_key for i in LEGIT}
    assert set(host._by_key) == {p.key for p in host._by_rid.values()}
    for key in list(host._by_key):                   # start the next example from no peers
        host._remove(host._by_key[key], "reset", [])


# -- the joiner's message handler ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def joined() -> Iterator[tuple[tr.HostTransport, tr.JoinTransport]]:
    host = tr.HostTransport(Identity.generate("fuzz-host-2"), heartbeat_s=HB, liveness=LIVE)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            host.poll(10)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    join = tr.JoinTransport(Identity.generate("fuzz-joiner"), host.address, KnownPeers(), heartbeat_s=HB, liveness=LIVE)
    yield host, join
    join.close()
    stop.set()
    thread.join(5)
    host.close()


@examples(60)
@given(st.lists(st.tuples(kinds, garbage | packed(key32, key32) | packed(key32, ints, ints, ints, sig64)), max_size=6))
def test_the_joiners_message_handler_raises_only_documented_errors(joined, messages) -> None:
    """Whatever the (authenticated) host sends: MessageError (logged and dropped) or Refused (a
    REFUSED, a WELCOME out of range) and nothing else; afterwards the joiner is connected again."""
    host, join = joined
    for kind, body in messages:
        RUNS["transport.joiner_handler"] += 1
        with never_blocks("the joiner's message handler"):
            try:
                join._on_message(bytes([kind]) + body)
            except (tr.MessageError, tr.Refused) as exc:
                assert str(exc)
    budget = Budget(10)   # CPU seconds of this process (host and joiner run in it), not the clock
    while not join.connected:
        assert not budget.over(), "the joiner did not get back to its host"
        join.poll(20)
    assert join.send(b"still fine")


# -- a live host under random garbage keeps serving a real joiner ------------------------------------------

@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Run, Any, bytes, zmq.Context]]:
    home = tmp_path_factory.mktemp("live") / "jo"
    jkey = key_of(home, "jo")
    host = tr.HostTransport(Identity.generate("live-host"), heartbeat_s=HB, liveness=LIVE)
    run = Run(host)
    peer = joiner(host.address, home)
    ctx = zmq.Context()
    try:
        run.until(has("joined", jkey))
        yield run, peer, jkey, ctx
    finally:
        peer.kill()
        ctx.destroy(linger=0)
        host.close()


part = garbage | st.sampled_from([b""]) | st.tuples(kinds, garbage).map(lambda t: bytes([t[0]]) + t[1])


@examples(25)
@given(st.lists(st.tuples(st.sampled_from(["curve", "boot", "joiner"]), st.lists(part, min_size=1, max_size=3)),
                min_size=1, max_size=8),
       st.integers(0, 4 << 20))
def test_a_host_under_garbage_keeps_serving_a_real_joiner(live, batch, big) -> None:
    run, peer, jkey, ctx = live
    host = run.host
    curve = ctx.socket(zmq.DEALER)
    curve.linger = 0
    public, secret = zmq.curve_keypair()
    curve.curve_serverkey, curve.curve_publickey, curve.curve_secretkey = host.identity.curve_public, public, secret
    curve.connect(f"tcp://127.0.0.1:{host.curve_port}")
    boot = ctx.socket(zmq.DEALER)
    boot.linger = 0
    boot.connect(f"tcp://127.0.0.1:{host.port}")
    try:
        for where, parts in batch:
            RUNS["transport.live_garbage"] += 1
            if where == "curve":
                curve.send_multipart(parts)
            elif where == "boot":
                boot.send_multipart(parts)
            else:                                      # the authenticated joiner itself misbehaves
                peer.command(raw=[p.hex() for p in parts])
        if big % 4 == 0:                               # and once in a while something far too big
            curve.send(bytes([tr.HELLO]) + bytes(big))
        run.turn(20)
        # the real joiner still gets through (perhaps after reconnecting: garbage from its own
        # connection, a BYE or a new HELLO, may have ended its session)
        token = os.urandom(4).hex().encode()
        budget = Budget(10, (peer.proc.pid,))   # CPU seconds of the host and the joiner, not the clock
        while True:
            peer.command(send=(b"echo:" + token).hex())
            try:
                run.until(has("message", jkey, b"echo:" + token), timeout=1)
                break
            except AssertionError:
                assert not budget.over(), "the host stopped serving the real joiner"
    finally:
        curve.close()
        boot.close()


# -- session messages ----------------------------------------------------------------------------------

text = st.text(max_size=50)
FIELDS: dict[type, st.SearchStrategy] = {int: st.integers(-2, 1 << 40), str: text, bytes: st.binary(max_size=64),
                                         list: st.lists(st.integers(0, 8) | text, max_size=4)}


def _field(kind: Any) -> st.SearchStrategy:
    if isinstance(kind, tuple):
        return st.one_of(*[st.none() if k is type(None) else _field(k) for k in kind])
    return FIELDS[kind]


valid_wire = st.sampled_from(sorted(wire.SHAPES)).flatmap(
    lambda tag: st.tuples(*[_field(k) for k in wire.SHAPES[tag]]).map(lambda f, tag=tag: wire.pack(tag, *f)))


@examples(400)
@given(inputs(valid_wire, 1 << 16))
def test_wire_unpack_raises_only_malformed(data: bytes) -> None:
    result, error = bounded("wire.unpack", wire.unpack, data, (wire.Malformed,))
    if result is not None:
        tag, fields = result
        assert len(fields) == len(wire.SHAPES[tag])


# -- replay records and frames ------------------------------------------------------------------------------

values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=40) | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=6).map(tuple), max_leaves=30)
valid_records = values.map(codec.encode)
KEY = generate_key()
valid_frames = st.tuples(st.integers(0, 1 << 40), st.integers(0, 63), st.sampled_from(
    ["open", "act", "commit", "reveal", "chain", "seed", "final", "timeout"]), st.lists(values, max_size=4)).map(
    lambda t: make_frame(KEY, b"s" * 16, t[0], b"p" * 32, t[1], t[2], t[3], b"d" * 32).encode())


@examples(400)
@given(inputs(valid_records | valid_frames, 1 << 20))
def test_codec_decode_raises_only_format_error(data: bytes) -> None:
    value, error = bounded("codec.decode", codec.decode, data, (codec.FormatError,))
    if error is None:
        assert codec.encode(value) == data          # canonical: one encoding per value


@examples(60)
@given(st.lists(inputs(valid_records | valid_frames, 1 << 12), max_size=5).map(b"".join))
def test_codec_iter_records_raises_only_format_error_and_covers_the_input(data: bytes) -> None:
    def walk(data: bytes) -> None:
        """Consume the records as a reader does (one at a time): they tile the input from the start
        and each one's bytes are the input's; only a torn record at the very end counts as torn."""
        pos = 0
        for offset, raw, value in codec.iter_records(data):
            assert offset == pos and data[offset:offset + len(raw)] == raw
            if isinstance(value, codec.FormatError):
                assert value.reason          # a bad record that could be delimited lets the walk go on
                assert not value.truncated or offset + len(raw) == len(data)
            else:
                assert codec.encode(value) == raw
            pos += len(raw)
        assert pos == len(data)

    bounded("codec.iter_records", walk, data, ())


@examples(400)
@given(inputs(valid_frames, 1 << 20))
def test_decode_frame_raises_only_format_error(data: bytes) -> None:
    frame, error = bounded("frames.decode_frame", decode_frame, data, (codec.FormatError,))
    if error is None:
        assert isinstance(frame, Frame) and frame.encode() == data
        assert len(frame.session) == 16 and len(frame.prev) == 32 and 0 <= frame.seat < 64


# -- limits and linear time, on purpose-built worst cases ---------------------------------------------------------

@pytest.mark.parametrize("data", [
    b"\xdc\x4e\x20" * 1024,                       # arrays declaring 20,000 items, a thousand deep
    b"\xdc\x27\x10" * 1024,                       # 10,000 (the session messages' limit per array)
    b"\x91" * 1000 + b"\xdc\x4e\x20" * 8,
    b"\x9f" + b"\xdc\x4e\x20\x00" * 15,           # many arrays side by side, each declaring 20,000
    b"\xdd\x00\x00\x4e\x20" + b"\xdc\x4e\x20" * 20000,
], ids=["deep-and-wide", "deep-and-wide-10000", "deep", "side-by-side", "flat"])
def test_declared_sizes_cost_no_memory(data: bytes) -> None:
    """A few bytes of array headers must not make a decoder reserve megabytes (msgpack reserves what a
    header declares, up to the item limit, at every level of nesting)."""
    for target, fn, allowed in (("codec.decode", codec.decode, (codec.FormatError,)),
                                ("codec.iter_records", lambda d: list(codec.iter_records(d)), ()),
                                ("frames.decode_frame", decode_frame, (codec.FormatError,)),
                                ("wire.unpack", wire.unpack, (wire.Malformed,))):
        bounded(target, fn, data, allowed, seconds=0.5)


def _time(fn: Callable[[bytes], Any], data: bytes) -> float:
    """The least CPU time (this thread's) of three runs."""
    best = float("inf")
    for _ in range(3):
        start = time.thread_time()
        with contextlib.suppress(codec.FormatError, wire.Malformed):
            fn(data)
        best = min(best, time.thread_time() - start)
    return best


def _records(n: int) -> bytes:
    return codec.encode((1, "a", b"b")) * n


LINEAR = {
    "iter_records, many records": (lambda d: list(codec.iter_records(d)), _records),
    "iter_records, many records then a torn one": (lambda d: list(codec.iter_records(d)),
                                                    lambda n: _records(n) + b"\xdc\x00\x10" + b"\x01" * 5),
    "iter_records, a torn record of many items": (lambda d: list(codec.iter_records(d)),
                                                   lambda n: b"\xdc\x4e\x20" + b"\xc0" * min(n, 19_999)),
    "decode, many items": (codec.decode, lambda n: codec.encode(tuple(range(min(n, 19_000))))),
    "decode, a long text": (codec.decode, lambda n: codec.encode("x" * min(n, 65_000))),
    "wire.unpack, a long list": (wire.unpack, lambda n: wire.pack("rematch", list(range(min(n, 9_000))))),
    "wire.unpack, deep garbage": (wire.unpack, lambda n: b"\x91" * n),
}


@pytest.mark.parametrize("case", sorted(LINEAR))
def test_decoding_time_is_linear(case: str) -> None:
    fn, make = LINEAR[case]
    small, large = make(1_000), make(16_000)
    ratio = len(large) / len(small)
    t_small, t_large = _time(fn, small), _time(fn, large)
    RUNS["linear-time checks"] += 6
    # 16 times the input may cost 16 times the time (and some slack for a busy machine), not 256
    assert t_large <= 3 * ratio * t_small + 0.02, f"{case}: {t_small:.5f} s -> {t_large:.5f} s for x{ratio:.0f}"


def test_a_record_over_a_limit_is_reported_and_the_stream_goes_on() -> None:
    """`scan` decides these without decoding; iter_records still steps over a record it could delimit,
    as it always did for a record that decoded but broke a rule."""
    deep = b"\x91" * 9 + b"\x01"
    wide = b"\x92" + b"\xdc\x27\x10" + b"\x01" * 10_000 + b"\xdc\x27\x10" + b"\x01" * 10_000
    good = codec.encode((1, "a"))
    records = list(codec.iter_records(deep + good + wide + good))
    assert [(offset, len(raw)) for offset, raw, _ in records] == [
        (0, len(deep)), (len(deep), len(good)), (len(deep) + len(good), len(wide)),
        (len(deep) + len(good) + len(wide), len(good))]
    assert records[0][2].reason == "nested deeper than 8 levels" and records[1][2] == (1, "a")
    assert records[2][2].reason == "more than 20000 items in one record" and records[3][2] == (1, "a")
    assert codec.scan(deep + good) == (len(deep), "nested deeper than 8 levels")
    assert codec.scan(good + deep) == (len(good), "")
    assert codec.scan(b"\x92\x01") == (None, "")                           # torn
    assert codec.scan(b"\xdd\x00\x01\x00\x00") == (None, "an array declares 65536 items (limit 20000)")
    with pytest.raises(codec.FormatError, match="nested deeper"):
        codec.decode(deep)
    with pytest.raises(wire.Malformed, match="nested deeper than 4 levels"):
        wire.unpack(wire.pack("rematch", [[[[[1]]]]]))
