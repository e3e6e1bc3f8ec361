"""The transport between real processes over loopback: the host runs in the test process, each
joiner in a child (tests/support/transport_peer.py). Heartbeats are shortened so liveness tests are quick."""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path

import msgpack
import pytest
import zmq
from support.cpuclock import Budget, finished, measure
from support.transportkit import HB, LIVE, Run, eventually, has, joiner, key_of

from netplay import transport as tr
from netplay.identity import Identity, KnownPeers
from netplay.transport import ConnectFailed, HostTransport, Incoming, JoinTransport, host_transport, parse_address
from replays.crypto import fingerprint, verify


@pytest.fixture
def host_identity() -> Identity:
    return Identity.generate("the-host")


@pytest.fixture
def host(host_identity: Identity, tmp_path: Path):
    h = HostTransport(host_identity, heartbeat_s=HB, liveness=LIVE,
                      known_peers=KnownPeers(tmp_path / "host_known.json"))
    yield h
    h.close()


def test_parse_address() -> None:
    assert parse_address("127.0.0.1:5000") == ("127.0.0.1", 5000, None)
    assert parse_address("myhost:5000/3F2A-91c0-77de-0b14") == ("myhost", 5000, "3f2a-91c0-77de-0b14")
    assert parse_address("[::1]:7") == ("[::1]", 7, None)
    for bad in ("", "host", "host:0", "host:70000", "a:b", "h:1/zz", "h:1:2"):
        with pytest.raises(ValueError):
            parse_address(bad)


def test_binds_only_where_asked(host: HostTransport) -> None:
    assert host.address == f"127.0.0.1:{host.port}"
    assert host._boot.getsockopt_string(zmq.LAST_ENDPOINT) == f"tcp://127.0.0.1:{host.port}"
    assert host._sock.getsockopt_string(zmq.LAST_ENDPOINT) == f"tcp://127.0.0.1:{host.curve_port}"


def test_two_processes_exchange_and_pin(host: HostTransport, host_identity: Identity, tmp_path: Path) -> None:
    home = tmp_path / "jo"
    jkey = key_of(home, "jo")
    run = Run(host)
    peer = joiner(host.address, home)
    try:
        evs = run.until(has("joined", jkey))
        assert evs[-1].name == "jo" and evs[-1].fingerprint == fingerprint(jkey)
        assert host.peers == {jkey: "jo"}
        connected = peer.event("connected", during=run.turn)
        assert connected["host"] == host_identity.fingerprint and connected["name"] == "the-host"
        peer.command(send=b"echo:hello".hex())
        run.until(has("message", jkey, b"echo:hello"))
        peer.event("message", during=run.turn, data=b"echo:hello".hex())
        assert host.send(jkey, b"from host")
        peer.event("message", during=run.turn, data=b"from host".hex())
        assert host.broadcast(b"to all") == 1
        peer.event("message", during=run.turn, data=b"to all".hex())
        # both sides pinned each other under the names they gave
        assert KnownPeers(home / "known_peers.json").get("the-host") == host_identity.public_key
        assert host.known_peers.get("jo") == jkey
        peer.stop()
        evs = run.until(has("left", jkey))
        assert [e.reason for e in evs if e.kind == "left"] == ["closed the connection"]
        assert not host.send(jkey, b"gone")
    finally:
        peer.kill()


def test_oversized_messages_dropped_and_logged(tmp_path: Path, host_identity: Identity,
                                               caplog: pytest.LogCaptureFixture) -> None:
    cap = 64 * 1024
    home = tmp_path / "big"
    jkey = key_of(home, "big")
    with HostTransport(host_identity, heartbeat_s=HB, liveness=LIVE, max_bytes=cap) as host:
        run = Run(host)
        # The joiner allows itself four times the host's cap, but WELCOME told it the host's cap: it
        # refuses to send more than that, and says why.
        peer = joiner(host.address, home, "big", "--max-bytes", str(4 * cap))
        try:
            run.until(has("joined", jkey))
            assert peer.event("connected", during=run.turn)["host_max_bytes"] == cap
            peer.command(send_size=cap + 1)
            assert peer.event("sent", during=run.turn)["ok"] is False
            eventually(lambda: "not sending 65537 bytes: over the host's 65536 byte cap" in peer.stderr, run.turn)
            # a joiner that skips its own check: the host drops the message with a logged reason
            with caplog.at_level(logging.WARNING, logger="netplay.transport"):
                peer.command(raw_size=cap + 1)
                peer.command(send=b"echo:after".hex())
                evs = run.until(has("message", jkey, b"echo:after"))
            assert [len(e.data) for e in evs if e.kind == "message"] == [len(b"echo:after")]
            assert any("over the 65536 byte cap" in r.getMessage() for r in caplog.records)
            peer.command(send_size=cap)                      # exactly the cap is fine
            evs = run.until(has("message", jkey))
            assert len(evs[-1].data) == cap
            # the host refuses to send what the cap forbids instead of sending it
            assert not host.send(jkey, bytes(cap + 1))
            # far over the cap ZeroMQ cuts the connection before buffering the message; the joiner
            # notices (its heartbeat reaches a host that no longer knows the connection) and comes back
            peer.command(raw_size=4 * cap)
            evs = run.until(has("joined", jkey))
            assert [e.kind for e in evs] == ["left", "joined"] and evs[0].reason == "reconnected"
            peer.event("connected", during=run.turn, generation=2)
            peer.command(send=b"echo:recovered".hex())
            run.until(has("message", jkey, b"echo:recovered"))
        finally:
            peer.kill()
    # and the other way: a joiner with a small cap drops what a generous host sends, and says so
    home2 = tmp_path / "small"
    jkey2 = key_of(home2, "small")
    with HostTransport(host_identity, heartbeat_s=HB, liveness=LIVE, max_bytes=4 * cap) as host:
        run = Run(host)
        peer = joiner(host.address, home2, "small", "--max-bytes", str(cap))
        try:
            run.until(has("joined", jkey2))
            assert host.send(jkey2, bytes(cap + 1))
            assert host.send(jkey2, b"small one")
            peer.event("message", during=run.turn, data=b"small one".hex())
            assert not any(e.get("event") == "message" and e["data"] != b"small one".hex() for e in peer.seen)
            eventually(lambda: "over the 65536 byte cap" in peer.stderr, run.turn)
        finally:
            peer.kill()


def _curve_client(ctx: zmq.Context, host: HostTransport, host_identity: Identity) -> zmq.Socket:
    sock = ctx.socket(zmq.DEALER)
    sock.linger = 0
    public, secret = zmq.curve_keypair()
    sock.curve_serverkey, sock.curve_publickey, sock.curve_secretkey = host_identity.curve_public, public, secret
    sock.connect(f"tcp://127.0.0.1:{host.curve_port}")
    return sock


def _recv(sock: zmq.Socket, host: HostTransport, timeout: float = 3.0) -> bytes | None:
    """The next message on `sock` (the in-process host polled meanwhile), or None once `timeout` CPU
    seconds are spent (or a hang's cap on the clock)."""
    budget = Budget(timeout, wall_cap=60.0)
    while not budget.over():
        host.poll(20)
        if sock.poll(0):
            return sock.recv()
    return None


def _silent(sock: zmq.Socket, host: HostTransport, seconds: float) -> bool:
    """Nothing arrives on `sock` for `seconds` on the clock (a busy machine only makes it easier)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        host.poll(20)
        if sock.poll(0):
            return False
    return True


def test_garbage_is_dropped_and_logged(host: HostTransport, host_identity: Identity, tmp_path: Path,
                                       caplog: pytest.LogCaptureFixture) -> None:
    home = tmp_path / "jo"
    jkey = key_of(home, "jo")
    run = Run(host)
    peer = joiner(host.address, home)
    ctx = zmq.Context()
    try:
        run.until(has("joined", jkey))
        with caplog.at_level(logging.WARNING, logger="netplay.transport"):
            # 1. raw bytes on a TCP connection to both ports (not even ZMTP)
            for port in (host.port, host.curve_port):
                with socket.create_connection(("127.0.0.1", port), timeout=2) as raw:
                    raw.sendall(b"\xff" * 64 + b"GET / HTTP/1.0\r\n\r\n" + bytes(range(256)))
            # 2. nonsense to the bootstrap port: garbage, wrong tag, short nonce, multipart
            boot = ctx.socket(zmq.DEALER)
            boot.linger = 0
            boot.connect(f"tcp://127.0.0.1:{host.port}")
            for msg in (b"\x00garbage", msgpack.packb(["nope", 1, bytes(32)]),
                        msgpack.packb([tr.BOOT_REQUEST, 1, b"x"]), msgpack.packb({"a": 1}),
                        msgpack.packb([tr.BOOT_REQUEST, 1, bytes(32), 5])):
                boot.send(msg)
            boot.send_multipart([b"a", b"b"])
            # a wrong protocol version gets an explanation, not silence
            boot.send(msgpack.packb([tr.BOOT_REQUEST, 99, bytes(32)]))
            reply = _recv(boot, host)
            assert reply is not None and msgpack.unpackb(reply)[0] == tr.BOOT_ERROR
            # 3. an encrypted but unauthenticated client: data is answered with "who are you",
            #    a handshake with a bad cookie or a bad signature is dropped, nonsense is dropped
            cur = _curve_client(ctx, host, host_identity)
            cur.send(bytes([tr.DATA]) + b"sneaky")
            assert _recv(cur, host) == bytes([tr.UNKNOWN])
            for msg in (bytes([tr.AUTH]) + msgpack.packb([bytes(64)]), bytes([tr.HELLO]) + b"\xc1",
                        bytes([tr.HELLO]) + msgpack.packb([tr.PROTOCOL, "x", b"short", bytes(32)]), bytes([200]), b""):
                cur.send(msg)
            # a joiner of protocol 1 is told which versions differ
            cur.send(bytes([tr.HELLO]) + msgpack.packb([1, "old", bytes(32), bytes(32)]))
            refused = _recv(cur, host)
            assert refused is not None and refused[0] == tr.REFUSED
            assert msgpack.unpackb(refused[1:]) == [f"host speaks protocol {tr.PROTOCOL}, not 1"]
            evil = Identity.generate("evil")
            cur.send(bytes([tr.HELLO]) + msgpack.packb([tr.PROTOCOL, "evil", evil.public_key, bytes(32)]))
            challenge = _recv(cur, host)
            assert challenge is not None and challenge[0] == tr.CHALLENGE
            host_nonce, cookie = msgpack.unpackb(challenge[1:])
            for bad_cookie, sig in ((bytes(32), bytes(64)), (cookie, evil.sign(b"not the transcript"))):
                cur.send(bytes([tr.AUTH]) + msgpack.packb(["evil", evil.public_key, bytes(32), host_nonce,
                                                           bad_cookie, sig]))
            assert _silent(cur, host, 0.5)          # no WELCOME, and no signature of the host either
            # 4. a plain (unencrypted) client cannot talk to the encrypted port at all
            plain = ctx.socket(zmq.DEALER)
            plain.linger = 0
            plain.connect(f"tcp://127.0.0.1:{host.curve_port}")
            plain.send(bytes([tr.DATA]) + b"plain")
            assert _silent(plain, host, 0.5)
            # 5. the authenticated joiner misbehaves: unknown kinds, empty and multipart messages
            peer.command(raw=[bytes([77]).hex()])
            peer.command(raw=[""])
            peer.command(raw=[bytes([tr.DATA]).hex(), b"second part".hex()])
            peer.command(raw=[bytes([tr.AUTH]).hex() + "00"])
            peer.command(send=b"echo:still here".hex())
            evs = run.until(has("message", jkey, b"echo:still here"))
            peer.event("message", during=run.turn, data=b"echo:still here".hex())
        assert [e.kind for e in evs] == ["message"]     # nothing else got through, nobody left
        assert "evil" not in {name for name in host.peers.values()}
        logged = "\n".join(r.getMessage() for r in caplog.records)
        for expected in ("bootstrap request: undecodable", "unknown request 'nope'", "nonce must be 32 bytes",
                         "bootstrap request of 2 parts", "does not verify", "unexpected before the handshake",
                         "key must be 32 bytes", "unexpected after the handshake", "message of 2 parts or empty",
                         "stale or forged cookie", "expected an array of 6"):
            assert expected in logged, expected
    finally:
        peer.kill()
        ctx.destroy(linger=0)


def test_joiner_restart_with_same_key_is_the_same_peer(host: HostTransport, tmp_path: Path) -> None:
    home = tmp_path / "jo"
    jkey = key_of(home, "jo")
    run = Run(host)
    first = joiner(host.address, home)
    try:
        run.until(has("joined", jkey))
        first.kill()                     # no goodbye: the host must notice by itself or by the new handshake
        second = joiner(host.address, home)
        try:
            evs = run.until(has("joined", jkey))
            left = [e for e in evs if e.kind == "left"]
            assert len(left) == 1 and left[0].peer == jkey
            assert left[0].reason == "reconnected" or left[0].reason.startswith("silent")
            assert host.peers == {jkey: "jo"}
            second.command(send=b"echo:again".hex())
            second.event("message", during=run.turn, data=b"echo:again".hex())
            assert has("message", jkey, b"echo:again")(run.until(lambda evs: True))
        finally:
            second.kill()
    finally:
        first.kill()


def test_silent_joiner_is_reported_gone_and_rejoins(host: HostTransport, tmp_path: Path) -> None:
    import signal
    home = tmp_path / "jo"
    jkey = key_of(home, "jo")
    run = Run(host)
    peer = joiner(host.address, home)
    try:
        run.until(has("joined", jkey))
        peer.proc.send_signal(signal.SIGSTOP)
        start = time.monotonic()
        evs = run.until(has("left", jkey), timeout=HB * LIVE + 3)
        assert evs[-1].reason.startswith("silent for")
        assert time.monotonic() - start >= HB * LIVE - 0.1
        peer.proc.send_signal(signal.SIGCONT)
        # its next heartbeat reaches a host that forgot it; it is told so and handshakes again
        run.until(has("joined", jkey))
        # the host counts it joined when the handshake arrives; the joiner may send only once it has the
        # host's answer (a send before that is refused, `sent ok: false`), so wait for its new connection
        peer.expect(lambda e: e.get("event") == "connected" and e.get("generation", 0) >= 2,
                    during=run.turn, what="a second connection")
        peer.command(send=b"echo:back".hex())
        peer.event("message", during=run.turn, data=b"echo:back".hex())
    finally:
        peer.kill()


def rebind(make: Callable[[], HostTransport]) -> HostTransport:
    """Bind again to the port a closed host used. The joiner keeps dialling that port meanwhile, and a
    TCP client dialling a free local port can, rarely, connect to itself and hold it for a moment."""
    for _ in range(50):
        try:
            return make()
        except tr.ListenFailed as exc:
            if exc.errno != zmq.EADDRINUSE:
                raise
            time.sleep(0.1)
    return make()


def test_host_restart_joiner_reconnects(host_identity: Identity, tmp_path: Path) -> None:
    home = tmp_path / "jo"
    jkey = key_of(home, "jo")
    first = HostTransport(host_identity, heartbeat_s=HB, liveness=LIVE)
    run = Run(first)
    port = first.port
    peer = joiner(first.address, home)
    try:
        run.until(has("joined", jkey))
        peer.event("connected", during=run.turn, generation=1)
        # the host forgets its peers without closing any connection (a crash and restart on the same
        # sockets looks like this to the joiner): the joiner is told and handshakes again
        first._by_key.clear()
        first._by_rid.clear()
        run.until(has("joined", jkey))
        peer.event("connected", during=run.turn, generation=2)
        first.close()
        # a restarted host: same key and port, new encryption port; the joiner finds it again
        second = rebind(lambda: HostTransport(host_identity, port=port, curve_port=0, heartbeat_s=HB, liveness=LIVE))
        run2 = Run(second)
        try:
            run2.until(has("joined", jkey))
            peer.event("connected", during=run2.turn, generation=3)
            peer.command(send=b"echo:resumed".hex())
            peer.event("message", during=run2.turn, data=b"echo:resumed".hex())
        finally:
            second.close()
        # a different host on that port with the same name (a reused port, or a liar): not our host, so the
        # joiner neither pins it nor gives up, but waits on as if ours were unreachable
        impostor = rebind(lambda: HostTransport(Identity.generate("the-host"), port=port, curve_port=0,
                                                heartbeat_s=HB, liveness=LIVE))
        try:
            met = peer.event("stranger", during=lambda: impostor.poll(50))
            assert host_identity.fingerprint in met["message"]
            assert impostor.identity.fingerprint in met["message"]
            assert impostor.peers == {} and peer.proc.poll() is None
        finally:
            impostor.close()
        # and when our host is back at that address, the joiner finds it again
        third = rebind(lambda: HostTransport(host_identity, port=port, curve_port=0, heartbeat_s=HB, liveness=LIVE))
        run3 = Run(third)
        try:
            run3.until(has("joined", jkey))
            peer.event("connected", during=run3.turn, generation=4)
        finally:
            third.close()
    finally:
        peer.kill()
        first.close()


def test_changed_host_key_refused_by_joiner(host: HostTransport, tmp_path: Path) -> None:
    home = tmp_path / "jo"
    old = Identity.generate("the-host").public_key
    run = Run(host)
    KnownPeers(home / "known_peers.json").pin("the-host", old)
    peer = joiner(host.address, home)
    try:
        err = peer.event("error", during=run.turn, type="KeyChanged")
        assert fingerprint(old) in err["message"] and host.fingerprint in err["message"]
        assert "the-host" in err["message"]
        assert finished(peer.proc, 10) == 3
        assert host.peers == {}
    finally:
        peer.kill()


def test_changed_joiner_key_refused_by_host(host: HostTransport, tmp_path: Path) -> None:
    home = tmp_path / "jo"
    jkey = key_of(home, "jo")
    old = Identity.generate("jo").public_key
    host.known_peers.pin("jo", old)
    peer = joiner(host.address, home)
    try:
        budget = Budget(10)   # CPU seconds of this process and the joiner's, not the clock
        while peer.proc.poll() is None and not budget.over():
            assert host.poll(50) == []
        err = peer.event("error", type="Refused")
        assert fingerprint(old) in err["message"] and fingerprint(jkey) in err["message"]
        assert host.peers == {}
    finally:
        peer.kill()


def test_expected_fingerprint_must_match(host: HostTransport, tmp_path: Path) -> None:
    other = Identity.generate("x").fingerprint
    run = Run(host)
    peer = joiner(f"{host.address}/{other}", tmp_path / "jo")
    try:
        budget = Budget(10)   # CPU seconds of this process and the joiner's, not the clock
        while peer.proc.poll() is None and not budget.over():
            host.poll(50)
        err = peer.event("error", during=run.turn, type="Refused")
        assert other in err["message"] and host.fingerprint in err["message"]
    finally:
        peer.kill()
    right = joiner(f"{host.address}/{host.fingerprint}", tmp_path / "jo")
    try:
        run.until(has("joined"))
        right.event("connected", during=run.turn)
    finally:
        right.kill()


def test_three_peers_through_the_relay(host: HostTransport, tmp_path: Path) -> None:
    ka, kb = key_of(tmp_path / "a", "alice"), key_of(tmp_path / "b", "bob")
    run = Run(host, echo=False)
    a = joiner(host.address, tmp_path / "a", "alice")
    b = joiner(host.address, tmp_path / "b", "bob")
    try:
        run.until(lambda evs: has("joined", ka)(evs) and has("joined", kb)(evs))
        for sender, key, receiver, text in ((a, ka, b, b"a->b"), (b, kb, a, b"b->a")):
            sender.command(send=text.hex())
            evs = run.until(has("message", key, text))
            assert host.broadcast(evs[-1].data, exclude=evs[-1].peer) == 1
            receiver.event("message", during=run.turn, data=text.hex())
        assert host.broadcast(b"all") == 2
        a.event("message", during=run.turn, data=b"all".hex())
        b.event("message", during=run.turn, data=b"all".hex())
        assert host.broadcast(b"none", exclude=[ka, kb]) == 0
        # nobody got their own frame back
        assert not any(e.get("data") == b"a->b".hex() for e in a.seen)
        assert not any(e.get("data") == b"b->a".hex() for e in b.seen)
    finally:
        a.kill()
        b.kill()


def test_no_host_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with measure() as spent, pytest.raises(ConnectFailed, match=f"127.0.0.1:{port} within 0.7 s"):
        JoinTransport(Identity.generate("j"), f"127.0.0.1:{port}", KnownPeers(), connect_timeout_s=0.7)
    # it waited out its timeout and no more: this thread's time asleep and computing, which other
    # processes on a busy machine do not lengthen (tests/support/cpuclock.py)
    assert spent.blocked < 0.7 + 1.5 and spent.cpu < 1.5, spent


def test_in_process_api_details(host: HostTransport, host_identity: Identity) -> None:
    """Joiner in this process too, the host polled by a thread (its constructor waits for the host)."""
    import threading
    stop = threading.Event()
    events: list[Incoming] = []

    def run() -> None:
        while not stop.is_set():
            events.extend(host.poll(20))

    thread = threading.Thread(target=run)
    thread.start()
    try:
        j = JoinTransport(Identity.generate("j"), host.address, KnownPeers())
        assert j.connected and j.generation == 1 and j.host_key == host_identity.public_key
        assert not j.send(bytes(j.max_bytes + 1))
        assert j.send(b"x") and j.poll(0) == []
        j.close()
        with pytest.raises(tr.TransportError):
            j.send(b"y")
        j.close()                                   # closing twice is fine
    finally:
        stop.set()
        thread.join()
    assert [e.kind for e in events] == ["joined", "message", "left"]
    assert events[1].data == b"x" and events[2].reason == "closed the connection"


# -- the handshake of protocol 2: a stateless CHALLENGE, the host's signature in WELCOME -----------------

def _hello(sock: zmq.Socket, ident: Identity, nonce: bytes) -> None:
    sock.send(bytes([tr.HELLO]) + msgpack.packb([tr.PROTOCOL, ident.name, ident.public_key, nonce]))


def _transcript(host: HostTransport, ident: Identity, join_nonce: bytes, host_nonce: bytes) -> bytes:
    """T as docs/protocol.md writes it, built here independently of the transport's own code."""
    return msgpack.packb([2, host.identity.curve_public_raw, host.identity.public_key, host.identity.name,
                          ident.public_key, ident.name, join_nonce, host_nonce])


def _auth(sock: zmq.Socket, host: HostTransport, ident: Identity, join_nonce: bytes, challenge: bytes) -> bytes:
    assert challenge[0] == tr.CHALLENGE
    host_nonce, cookie = msgpack.unpackb(challenge[1:])
    assert len(host_nonce) == 32 and len(cookie) == 32
    sig = ident.sign(b"netplay/2/handshake/joiner\x00" + _transcript(host, ident, join_nonce, host_nonce))
    sock.send(bytes([tr.AUTH]) + msgpack.packb([ident.name, ident.public_key, join_nonce, host_nonce, cookie, sig]))
    return host_nonce


def test_challenge_keeps_no_state_and_is_bound_to_its_connection(host: HostTransport, host_identity: Identity,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = zmq.Context()
    try:
        alice = Identity.generate("alice")
        first = _curve_client(ctx, host, host_identity)
        nonce = bytes(range(32))
        _hello(first, alice, nonce)
        challenge = _recv(first, host)
        assert challenge is not None
        # 300 more HELLOs on 100 other connections: protocol 1 kept 64 half-done handshakes and forgot
        # the oldest, which was the flood that locked real joiners out; now nothing is kept to forget
        others = [_curve_client(ctx, host, host_identity) for _ in range(100)]
        for _ in range(3):
            for sock in others:
                _hello(sock, Identity.generate("x"), os.urandom(32))
        budget = Budget(5)   # CPU seconds, not the clock
        while sum(host.stats[k] for k in ("challenge", "hello_limited")) < 301 and not budget.over():
            host.poll(20)
        assert host.stats["challenge"] + host.stats["hello_limited"] == 301
        assert host.stats["verify"] == 0 and host.stats["card"] == 0      # no signature work for any HELLO
        host_nonce = _auth(first, host, alice, nonce, challenge)
        welcome = _recv(first, host)
        assert welcome is not None and welcome[0] == tr.WELCOME
        echoed, hb_ms, liveness, max_bytes, host_sig = msgpack.unpackb(welcome[1:])
        assert (echoed, hb_ms, liveness, max_bytes) == (host_nonce, int(HB * 1000), LIVE, host.max_bytes)
        signed = (b"netplay/2/handshake/host\x00" + _transcript(host, alice, nonce, host_nonce)
                  + msgpack.packb([hb_ms, liveness, max_bytes]))
        assert verify(host_identity.public_key, None, signed, host_sig)
        assert host.peers == {alice.public_key: "alice"}
        # a cookie works only on the connection it was given on
        bob = Identity.generate("bob")
        b1, b2 = _curve_client(ctx, host, host_identity), _curve_client(ctx, host, host_identity)
        _hello(b1, bob, nonce)
        challenge = _recv(b1, host)
        _auth(b2, host, bob, nonce, challenge)
        assert _silent(b2, host, 0.5)
        assert host.stats["bad_cookie"] == 1 and bob.public_key not in host.peers
        _auth(b1, host, bob, nonce, challenge)                      # where it belongs, it works
        welcome = _recv(b1, host)
        assert welcome is not None and welcome[0] == tr.WELCOME and bob.public_key in host.peers
        # ... and only for a while (here: windows of 0.1 s, so valid 0.1 to 0.2 s)
        monkeypatch.setattr(host_transport, "COOKIE_WINDOW_S", 0.1)     # where the host reads it
        late = _curve_client(ctx, host, host_identity)
        _hello(late, bob, nonce)
        challenge = _recv(late, host)
        time.sleep(0.25)
        verified = host.stats["verify"]
        _auth(late, host, bob, nonce, challenge)
        assert _silent(late, host, 0.5)
        assert host.stats["bad_cookie"] == 2 and host.stats["verify"] == verified   # refused before any signature
    finally:
        ctx.destroy(linger=0)


@pytest.mark.parametrize(("setting", "value", "message"), [
    ("liveness", 100, "liveness 100 heartbeats is outside 2..20 heartbeats"),
    ("heartbeat_s", 0.001, "heartbeat interval 1 ms is outside 50..10000 ms"),
    ("heartbeat_s", 3600.0, "heartbeat interval 3600000 ms is outside 50..10000 ms"),
    ("max_bytes", 100, "message size cap 100 bytes is outside 1024..67108864 bytes"),
])
def test_welcome_outside_the_ranges_is_refused(host: HostTransport, tmp_path: Path, setting: str, value: float,
                                               message: str) -> None:
    setattr(host, setting, value)      # what a hostile (or patched) host advertises
    run = Run(host)
    peer = joiner(host.address, tmp_path / "jo")
    try:
        err = peer.event("error", during=run.turn, type="Refused")
        assert message in err["message"] and "the-host" in err["message"]
        assert finished(peer.proc, 10) == 3
    finally:
        peer.kill()


def test_welcome_without_the_hosts_signature_is_not_accepted(host: HostTransport, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # the host (in this process) signs WELCOME under another tag; the joiner (a child) checks it
    monkeypatch.setattr(host_transport, "HOST_DOMAIN", b"netplay/2/something-else\x00")   # where the host reads it
    run = Run(host)
    peer = joiner(host.address, tmp_path / "jo", "jo", "--connect-timeout", "2")
    try:
        err = peer.event("error", during=run.turn, type="ConnectFailed")
        assert "the host's handshake signature does not verify" in err["message"]
    finally:
        peer.kill()


def test_settings_outside_the_ranges_are_refused_locally(host_identity: Identity) -> None:
    for kwargs, fragment in (({"heartbeat_s": 0.01}, "heartbeat interval 10 ms"), ({"liveness": 1}, "liveness 1"),
                             ({"max_bytes": 10}, "message size cap 10 bytes"),
                             ({"port": 65535}, "port 65535 leaves no room for the encrypted port")):
        with pytest.raises(ValueError, match=fragment):
            HostTransport(host_identity, **kwargs)
    with pytest.raises(ValueError, match="liveness 99"):
        JoinTransport(host_identity, "127.0.0.1:9", KnownPeers(), liveness=99)


def test_a_source_is_an_ipv4_address_or_an_ipv6_64() -> None:
    assert tr.source_key("192.168.1.20") == "192.168.1.20"
    assert tr.source_key("2001:db8:1:2:aaaa::1") == tr.source_key("[2001:db8:1:2:ffff::9]") == "2001:db8:1:2::/64"
    assert tr.source_key("2001:db8:1:3::1") != tr.source_key("2001:db8:1:2::1")
    assert tr.source_key("fe80::1%eth0") == "fe80::/64"
    assert tr.source_key("::ffff:10.0.0.7") == "10.0.0.7"
    assert tr.source_key("not an address:") == "not an address:"


def test_a_dropped_hello_is_repeated(host: HostTransport, tmp_path: Path) -> None:
    """A HELLO the host drops (over its rate) is repeated by the joiner a second later, with the same
    nonce, so the handshake still completes."""
    dropped: list[bytes] = []
    allow = host._hello_gate.allow

    def drop_first(source: str, rid: bytes, now: float) -> bool:
        if not dropped:
            dropped.append(rid)
            return False
        return allow(source, rid, now)

    host._hello_gate.allow = drop_first   # type: ignore[method-assign]
    home = tmp_path / "jo"
    jkey = key_of(home, "jo")
    run = Run(host)
    peer = joiner(host.address, home)
    try:
        start = time.monotonic()
        run.until(has("joined", jkey), timeout=5)
        assert len(dropped) == 1 and time.monotonic() - start >= tr.HELLO_RETRY_S - 0.1
        assert host.stats["challenge"] == 1
    finally:
        peer.kill()
