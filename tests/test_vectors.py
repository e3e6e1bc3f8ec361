"""The published test vectors (docs/vectors/): regenerated from the code and compared byte for byte, so they
cannot drift; and checked against independent re-computations written from docs/protocol.md where that is
cheap (hashlib, hmac, a small msgpack encoder, libsodium's bindings), so that they say what the docs say."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path

import msgpack
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from nacl import bindings as nb

from conformance import make_vectors
from conformance.values import typed, untyped, untyped_state
from engines.core import HIDDEN
from replays import codec

VECTORS = Path(__file__).resolve().parent.parent / "docs" / "vectors"
PREFIX = b"netplay/1/"


def load(name: str) -> dict:
    return json.loads((VECTORS / f"{name}.json").read_text())


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("vectors")
    make_vectors.generate(out, check=False)
    return out


def test_the_published_vectors_are_what_the_code_generates(regenerated):
    published = sorted(p.relative_to(VECTORS) for p in VECTORS.rglob("*") if p.is_file())
    fresh = sorted(p.relative_to(regenerated) for p in regenerated.rglob("*") if p.is_file())
    assert published == fresh, "files differ: run `python -m conformance.make_vectors`"
    changed = [str(p) for p in fresh if (regenerated / p).read_bytes() != (VECTORS / p).read_bytes()]
    assert not changed, f"{changed} drifted from the code: run `python -m conformance.make_vectors` and say why"


# ------------------------------------------------------------------------------------------ independent checks


def mp(value) -> bytes:
    """msgpack's shortest form, written from the msgpack spec (not the library)."""
    if value is None:
        return b"\xc0"
    if value is True or value is False:
        return b"\xc3" if value else b"\xc2"
    if isinstance(value, int):
        if 0 <= value < 128:
            return bytes([value])
        if -32 <= value < 0:
            return bytes([value & 0xFF])
        if value >= 0:
            for marker, width in ((0xCC, 1), (0xCD, 2), (0xCE, 4), (0xCF, 8)):
                if value < 1 << (8 * width):
                    return bytes([marker]) + value.to_bytes(width, "big")
        for marker, width in ((0xD0, 1), (0xD1, 2), (0xD2, 4), (0xD3, 8)):
            if value >= -(1 << (8 * width - 1)):
                return bytes([marker]) + value.to_bytes(width, "big", signed=True)
    if isinstance(value, str):
        data = value.encode()
        n = len(data)
        head = bytes([0xA0 | n]) if n < 32 else (b"\xd9" + bytes([n]) if n < 256 else
                                                 b"\xda" + n.to_bytes(2, "big") if n < 65536 else
                                                 b"\xdb" + n.to_bytes(4, "big"))
        return head + data
    if isinstance(value, bytes):
        n = len(value)
        head = b"\xc4" + bytes([n]) if n < 256 else (b"\xc5" + n.to_bytes(2, "big") if n < 65536 else
                                                    b"\xc6" + n.to_bytes(4, "big"))
        return head + value
    if isinstance(value, tuple):
        n = len(value)
        head = bytes([0x90 | n]) if n < 16 else (b"\xdc" + n.to_bytes(2, "big") if n < 65536 else
                                                 b"\xdd" + n.to_bytes(4, "big"))
        return head + b"".join(mp(v) for v in value)
    raise TypeError(value)


def L(data: bytes) -> bytes:  # noqa: N802 - the docs' name
    return len(data).to_bytes(4, "big") + data


def part(value) -> bytes:
    if isinstance(value, dict):
        return L(bytes.fromhex(value["bin"]))
    if isinstance(value, str):
        return L(value.encode())
    return L(value.to_bytes(8, "big"))


def framed(domain: str, parts: list) -> bytes:
    return L(PREFIX + domain.encode()) + b"".join(part(p) for p in parts)


def test_canonical_msgpack_by_the_spec():
    data = load("encoding")
    for case in data["canonical"]:
        value = untyped(case["value"])
        assert mp(value).hex() == case["hex"], case
        assert codec.decode(bytes.fromhex(case["hex"])) == value
    for case in data["rejected"]:
        with pytest.raises(codec.FormatError):
            codec.decode(bytes.fromhex(case["hex"]))
    assert data["limits"]["record_bytes"] == 1 << 20 and data["limits"]["depth"] == 8


def canonical(value) -> bytes:
    """The digest's encoding, written from docs/protocol.md "State digest"."""
    if value is HIDDEN:
        return b"H"
    if value is None:
        return b"N"
    if value is True or value is False:
        return b"T" if value else b"F"
    if isinstance(value, int):
        text = str(value).encode()
        return b"i" + len(text).to_bytes(2, "big") + text
    if isinstance(value, str):
        return b"s" + L(value.encode())
    if isinstance(value, bytes):
        return b"b" + L(value)
    if isinstance(value, tuple):
        return b"l" + len(value).to_bytes(4, "big") + b"".join(canonical(v) for v in value)
    if isinstance(value, dict):
        items = sorted((canonical(k), canonical(v)) for k, v in value.items())
        return b"d" + len(items).to_bytes(4, "big") + b"".join(k + v for k, v in items)
    raise TypeError(value)


def test_the_digest_encoding_by_the_docs():
    data = load("digest")
    for case in data["values"]:
        encoded = canonical(untyped_state(case["value"], HIDDEN))
        assert encoded.hex() == case["hex"] and hashlib.sha256(encoded).hexdigest() == case["sha256"]
    example = data["example"]
    assert hashlib.sha256(bytes.fromhex(example["input"])).hexdigest() == example["digest"]


def test_hashes_and_macs_by_the_docs():
    data = load("hashing")
    assert data["prefix"] == PREFIX.decode()
    for case in data["H"]:
        raw = framed(case["domain"], case["parts"])
        assert raw.hex() == case["input"] and hashlib.sha256(raw).hexdigest() == case["sha256"]
    for case in data["HMAC"]:
        raw = framed(case["domain"], case["parts"])
        key = bytes.fromhex(case["key"])
        assert raw.hex() == case["input"] and hmac.new(key, raw, hashlib.sha256).hexdigest() == case["hmac_sha256"]
    for case in data["H64"]:
        assert hashlib.sha512(framed(case["domain"], case["parts"])).hexdigest() == case["sha512"]
    for case in data["HMAC64"]:
        raw = framed(case["domain"], case["parts"])
        assert hmac.new(bytes.fromhex(case["key"]), raw, hashlib.sha512).hexdigest() == case["hmac_sha512"]
    for case in data["fingerprints"]:
        digest = hashlib.sha256(bytes.fromhex(case["key"])).hexdigest()
        assert case["fingerprint"] == "-".join(digest[i:i + 4] for i in range(0, 16, 4))


def _verify(public_hex: str, message: bytes, signature_hex: str) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex)).verify(bytes.fromhex(signature_hex), message)
    except InvalidSignature:
        return False
    return True


def test_frames_headers_and_certificates_by_the_docs():
    data = load("signatures")
    keys = data["keys"]
    for key in keys:
        public = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(key["private"])).public_key()
        assert public.public_bytes(Encoding.Raw, PublicFormat.Raw).hex() == key["public"]
    header = data["header"]
    encoded = mp(untyped(header["value"]))
    assert encoded.hex() == header["encoded"]
    assert hashlib.sha256(L(PREFIX + b"header") + L(encoded)).hexdigest() == header["hash"]
    prev = header["hash"]
    for frame in data["frames"]:
        f = frame["fields"]
        assert f["prev"]["bin"] == prev
        signed = mp(tuple(untyped([f["session"], f["seq"], f["prev"], f["seat"], f["kind"], f["body"], f["digest"]])))
        assert signed.hex() == frame["signed"]
        message = L(PREFIX + b"frame") + signed        # the message itself is NOT length-prefixed
        assert message.hex() == frame["message"]
        assert _verify(keys[f["seat"]]["public"], message, frame["signature"])
        assert not _verify(keys[f["seat"]]["public"], L(PREFIX + b"frame") + L(signed), frame["signature"])
        assert hashlib.sha256(L(PREFIX + b"frame") + L(signed)).hexdigest() == frame["hash"]   # the hash IS
        assert frame["wire"] == "98" + frame["signed"][2:] + "c440" + frame["signature"]
        prev = frame["hash"]
    for name, tag in (("cert", b"sequenced"), ("ack", b"ack")):
        item = data[name]
        message = bytes.fromhex(item["session"]) + item["seq"].to_bytes(8, "big") + bytes.fromhex(item["hash"])
        assert message.hex() == item["message"]
        assert _verify(keys[item["signer"]]["public"], L(PREFIX + tag) + message, item["signature"])


def test_chains_commitments_and_chance_bytes_by_the_docs():
    data = load("randomness")
    chain = data["chain"]
    session, seat = bytes.fromhex(chain["session"]), chain["seat"]
    seed = bytes.fromhex(chain["seed"])

    def link(value: bytes) -> bytes:
        return hashlib.sha256(L(PREFIX + b"chain") + L(session) + L(seat.to_bytes(8, "big")) + L(value)).digest()

    def mac(domain: bytes, *parts: bytes) -> bytes:
        return hmac.new(seed, L(PREFIX + domain) + b"".join(L(p) for p in parts), hashlib.sha256).digest()
    values = [bytes.fromhex(v) for v in chain["values"]]
    assert values[-1] == mac(b"chain-secret", session, seat.to_bytes(8, "big"), (0).to_bytes(8, "big"))
    assert all(link(values[i]) == values[i - 1] for i in range(1, len(values)))
    renewed = [bytes.fromhex(v) for v in data["renewal"]["generation_1_values"]]
    assert renewed[-1] == mac(b"chain-secret", session, seat.to_bytes(8, "big"), (1).to_bytes(8, "big"))
    bodies = [f["frame_body"] for f in data["renewal"]["chain_frames"]]
    assert [untyped(b[0]) for b in bodies] == [*values[1:], renewed[1]]
    assert untyped(bodies[3][1]) == (renewed[0], 3) and all(b[1] is None for b in bodies[:3] + bodies[4:])
    commitment = data["seed_commitment"]
    assert hashlib.sha256(L(PREFIX + b"seed") + L(session) + L(seat.to_bytes(8, "big")) + L(seed)).hexdigest() \
        == commitment["commitment"]
    choice = data["choice"]
    salt = mac(b"salt", session, choice["round"].to_bytes(8, "big"))
    assert salt.hex() == choice["salt"]
    raw = L(PREFIX + b"choice") + L(session) + L(choice["round"].to_bytes(8, "big")) + L(seat.to_bytes(8, "big")) \
        + L(choice["action"].encode()) + L(salt)
    assert hashlib.sha256(raw).hexdigest() == choice["commitment"]
    assert untyped(choice["commit_body"]) == (bytes.fromhex(choice["commitment"]), choice["round"])
    public = data["public_chance"]
    raw = L(PREFIX + b"public-chance") + L(session) + L(public["index"].to_bytes(8, "big")) + b"".join(
        L(s.to_bytes(8, "big")) + L(bytes.fromhex(v)) for s, v in public["values"])
    assert hashlib.sha256(raw).hexdigest() == public["bytes"]
    private = data["private_chance"]
    mac_value = mac(b"private-chance", session, private["index"].to_bytes(8, "big"))
    assert mac_value.hex() == private["mac"]
    raw = L(PREFIX + b"private-chance-value") + L(session) + L(private["index"].to_bytes(8, "big")) \
        + L(private["seat"].to_bytes(8, "big")) + L(mac_value) + b"".join(
            L(s.to_bytes(8, "big")) + L(bytes.fromhex(v)) for s, v in private["values"])
    assert hashlib.sha256(raw).hexdigest() == private["bytes"]


def uniform(data: bytes, n: int) -> int:
    """docs/protocol.md "Chance values", word for word."""
    if n == 1:
        return 0
    width = ((n - 1).bit_length() + 7) // 8 + 1
    limit = 256 ** width - 256 ** width % n
    stream, counter, pos = data, 0, 0
    while True:
        while len(stream) - pos < width:
            stream += hashlib.sha256(data + counter.to_bytes(4, "big")).digest()
            counter += 1
        word = int.from_bytes(stream[pos:pos + width], "big")
        pos += width
        if word < limit:
            return word % n


def test_chance_values_by_the_docs():
    data = load("chance")
    for case in data["uniform"]:
        assert uniform(bytes.fromhex(case["data"]), case["n"]) == case["value"], case
    for case in data["dice"]:
        raw = bytes.fromhex(case["data"])
        inputs = [hashlib.sha256(b"die" + bytes([i]) + raw).digest() for i in range(len(case["sides"]))]
        assert [d.hex() for d in inputs] == case["die_inputs"]
        assert [1 + uniform(d, s) for d, s in zip(inputs, case["sides"], strict=True)] == case["value"]
    for case in data["pick"]:
        assert uniform(bytes.fromhex(case["data"]), case["n"]) == case["value"]
    for case in data["deal_local"]:
        remaining = case["remaining"]
        assert remaining[uniform(bytes.fromhex(case["data"]), len(remaining))] == case["value"]


ORDER = 2**252 + 27742317777372353535851937790883648493


def sc(wide: bytes) -> bytes:
    return (int.from_bytes(wide, "little") % ORDER).to_bytes(32, "little")


def H64(domain: bytes, *parts: bytes) -> bytes:  # noqa: N802
    return hashlib.sha512(L(PREFIX + domain) + b"".join(L(p) for p in parts)).digest()


def dleq_ok(g1, x1, g2, x2, proof: bytes, ctx: bytes) -> bool:
    c, s = proof[:32], proof[32:]
    if not all(0 < int.from_bytes(x, "little") < ORDER for x in (c, s)):   # canonical and nonzero, or refused
        return False
    base = nb.crypto_scalarmult_ed25519_base_noclamp
    mul = nb.crypto_scalarmult_ed25519_noclamp
    t1 = nb.crypto_core_ed25519_sub(base(s) if g1 == BASE else mul(s, g1), mul(c, x1))
    t2 = nb.crypto_core_ed25519_sub(mul(s, g2), mul(c, x2))
    return c == sc(H64(b"dleq", ctx, g1, x1, g2, x2, t1, t2))


BASE = nb.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))


def test_the_deck_by_the_docs():
    data = load("deck")
    session, name, epoch = bytes.fromhex(data["session"]), data["deck"], data["epoch"]
    mul = nb.crypto_scalarmult_ed25519_noclamp

    def h(domain: bytes, *parts: bytes) -> bytes:
        return hashlib.sha256(L(PREFIX + domain) + b"".join(L(p) for p in parts)).digest()

    def i8(n: int) -> bytes:
        return n.to_bytes(8, "big")
    for card in data["cards"]:
        digest = h(b"card", session, name.encode(), i8(epoch), i8(card["index"]), i8(card["type"]))
        assert digest.hex() == card["hash"]
        assert nb.crypto_core_ed25519_from_uniform(digest).hex() == card["point"]
    for seat in data["seats"]:
        seed = bytes.fromhex(seat["seed"])
        wide = hmac.new(seed, L(PREFIX + b"deck-key") + L(session) + L(i8(seat["seat"])) + L(name.encode())
                        + L(i8(epoch)), hashlib.sha512).digest()
        assert sc(wide).hex() == seat["key"]
        assert nb.crypto_scalarmult_ed25519_base_noclamp(sc(wide)).hex() == seat["public"]
    for shuffle, seat in zip(data["shuffles"], data["seats"], strict=True):
        inp = [bytes.fromhex(p) for p in shuffle["input"]]
        cards = [bytes.fromhex(c) for c in shuffle["cards"]]
        key = bytes.fromhex(seat["key"])
        assert cards == [mul(key, inp[j]) for j in seat["permutation"]]
        public = bytes.fromhex(shuffle["public"])
        commitments = [bytes.fromhex(c) for c in shuffle["proof"]["commitments"]]
        challenge = H64(b"shuffle-challenge", session, i8(seat["seat"]), name.encode(), i8(epoch), b"".join(inp),
                        b"".join(cards), public, *commitments)
        bits = [(challenge[s // 8] >> (s % 8)) & 1 for s in range(64)]
        assert bits == shuffle["challenge_bits"] and 0 < sum(bits) < 64
        n = len(inp)
        for commitment, opening, bit in zip(commitments, shuffle["proof"]["openings"], bits, strict=True):
            opening = bytes.fromhex(opening)
            scalar, perm = opening[:32], list(opening[32:])
            p_s, z = commitment[:32], [commitment[32 * (j + 1):32 * (j + 2)] for j in range(n)]
            if bit == 0:
                assert nb.crypto_scalarmult_ed25519_base_noclamp(scalar) == p_s
                assert z == [mul(scalar, inp[perm[j]]) for j in range(n)]
            else:
                assert mul(scalar, p_s) == public
                assert cards == [mul(scalar, z[perm[j]]) for j in range(n)]
    strip = data["deal"]["strip"]
    stripper = data["seats"][strip["seat"]]
    ctx = h(b"deck-ctx", session, b"strip", i8(strip["seat"]), name.encode(), i8(epoch), i8(data["deal"]["position"]))
    assert ctx.hex() == strip["context"]
    v_in, v_out = bytes.fromhex(strip["value_in"]), bytes.fromhex(strip["value_out"])
    assert mul(bytes.fromhex(stripper["key"]), v_out) == v_in
    assert dleq_ok(BASE, bytes.fromhex(stripper["public"]), v_out, v_in, bytes.fromhex(strip["proof"]), ctx)
    drawer = data["seats"][data["deal"]["drawer"]]
    unmasked = bytes.fromhex(data["deal"]["unmasked"])
    assert mul(bytes.fromhex(drawer["key"]), unmasked) == v_out
    card = data["cards"][data["deal"]["card"]["index"]]
    assert card["point"] == data["deal"]["unmasked"] and card["type"] == data["deal"]["card"]["type"]
    _the_worked_example_by_the_docs(data, session, name, epoch)


def _the_worked_example_by_the_docs(data: dict, session: bytes, name: str, epoch: int) -> None:
    """protocol.md's worked example, step by step from its text: the bytes hashed for a card, a key before its
    reduction, Fisher-Yates over 4-byte big-endian words with its rejection bound, and the strip proof's
    transcript (T1 = w·B, T2 = w·V', c over the framed statement, s = w + c·k mod ℓ, s + ℓ refused)."""
    worked = data["worked"]

    def i8(n: int) -> bytes:
        return n.to_bytes(8, "big")
    assert bytes.fromhex(worked["card_0_hash_input"]) == (L(PREFIX + b"card") + L(session) + L(name.encode())
                                                          + L(i8(epoch)) + L(i8(0)) + L(i8(0)))
    assert hashlib.sha256(bytes.fromhex(worked["card_0_hash_input"])).hexdigest() == data["cards"][0]["hash"]
    seat0 = data["seats"][0]
    assert sc(bytes.fromhex(worked["seat_0_key_wide"])).hex() == seat0["key"]
    seed0 = bytes.fromhex(seat0["seed"])
    block = hmac.new(seed0, L(PREFIX + b"deck-perm") + L(session) + L(i8(0)) + L(name.encode()) + L(i8(epoch))
                     + L(i8(0)), hashlib.sha512).digest()
    assert block.hex() == worked["seat_0_permutation"]["block_0"]
    words = iter(int.from_bytes(block[i:i + 4], "big") for i in range(0, len(block), 4))
    perm = list(range(len(seat0["permutation"])))
    for i in range(len(perm) - 1, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    assert perm == seat0["permutation"] == worked["seat_0_permutation"]["steps"][-1]["after"]
    proof = worked["strip_proof"]
    strip = data["deal"]["strip"]
    key = int.from_bytes(bytes.fromhex(data["seats"][strip["seat"]]["key"]), "little")
    w = bytes.fromhex(proof["nonce"])
    v_out, v_in = bytes.fromhex(strip["value_out"]), bytes.fromhex(strip["value_in"])
    t1 = nb.crypto_scalarmult_ed25519_base_noclamp(w)
    t2 = nb.crypto_scalarmult_ed25519_noclamp(w, v_out)
    assert (t1.hex(), t2.hex()) == (proof["T1"], proof["T2"])
    statement = (L(PREFIX + b"dleq") + L(bytes.fromhex(strip["context"])) + L(BASE)
                 + L(bytes.fromhex(data["seats"][strip["seat"]]["public"])) + L(v_out) + L(v_in) + L(t1) + L(t2))
    assert statement.hex() == proof["challenge_input"] and proof["base"] == BASE.hex()
    c = sc(hashlib.sha512(statement).digest())
    s = (int.from_bytes(w, "little") + int.from_bytes(c, "little") * key) % ORDER
    assert c.hex() + s.to_bytes(32, "little").hex() == strip["proof"] == proof["c"] + proof["s"]
    assert int.from_bytes(bytes.fromhex(proof["s_plus_order"]), "little") == s + ORDER >= ORDER


def test_wire_messages_decode_as_documented():
    data = load("wire")
    for case in data["session"]:
        value = msgpack.unpackb(bytes.fromhex(case["hex"]), raw=False, use_list=False)
        assert value == (case["tag"], *untyped(case["fields"]))
        assert mp(value).hex() == case["hex"]    # the session's messages are canonical too
    statement = data["address_statement"]        # a joiner's signed mesh port (`ready`, then `peers`)
    message = (bytes.fromhex(statement["host_key"]) + bytes.fromhex(statement["lobby_id"])
               + bytes.fromhex(statement["joiner_key"]) + statement["port"].to_bytes(2, "big"))
    signed = L(PREFIX + statement["domain"].encode()) + message
    assert message.hex() == statement["message"] and signed.hex() == statement["signed"]
    assert _verify(statement["joiner_key"], signed, statement["signature"])
    ready = next(c for c in data["session"] if c["tag"] == "ready")
    peers = next(c for c in data["session"] if c["tag"] == "peers")
    assert untyped(ready["fields"])[1:] == (statement["port"], bytes.fromhex(statement["signature"]))
    assert untyped(peers["fields"])[0][0][3:] == (statement["port"], bytes.fromhex(statement["signature"]))
    transport = data["transport"]
    hs = transport["handshake"]
    keys = transport["keys"]
    assert hs["joiner_signed"] == b"netplay/2/handshake/joiner\0".hex() + hs["T"]
    assert hs["host_signed"] == b"netplay/2/handshake/host\0".hex() + hs["T"] + hs["W"]
    assert _verify(keys["joiner_ed25519"], bytes.fromhex(hs["joiner_signed"]), hs["joiner_signature"])
    assert _verify(keys["host_ed25519"], bytes.fromhex(hs["host_signed"]), hs["host_signature"])
    card = msgpack.unpackb(bytes.fromhex(transport["card"]["hex"]), raw=False)
    assert card[0] == "netplay-host" and card[1] == 2 and len(card[4]) == 32   # the curve key: raw bytes, not Z85
    signed = b"netplay/2/host-card\0" + mp((2, card[2], card[3], card[4], card[5],
                                            bytes.fromhex(transport["bootstrap_request"]["client_nonce"])))
    assert signed.hex() == transport["card"]["signed"] and _verify(keys["host_ed25519"], signed, card[6].hex())
    assert bytes.fromhex(transport["welcome"]["hex"])[0] == 4 and bytes.fromhex(transport["hello"]["hex"])[0] == 1
    cookie = transport["cookie"]
    assert hmac.new(bytes.fromhex(cookie["secret"]), bytes.fromhex(cookie["input"]), hashlib.sha256).hexdigest() \
        == cookie["cookie"]


def test_file_names_and_the_resume_file_as_documented():
    data = load("files")
    for case in data["replay_names"]:
        import time
        when = time.strftime("%Y-%m-%d_%H%M%S", time.gmtime(case["created"]))

        def slug(text: str) -> str:
            return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.")[:24] or "anon"
        names = "-vs-".join(slug(n or f"seat{i}") for i, n in enumerate(case["names"]))
        assert case["file"] == f"{when}_{slug(case['game'])}_{names}_{case['session'][:8]}.npr"
    from dataclasses import fields

    from netplay.resume import SavedSeat
    assert sorted(data["resume_file"]["json"]) == sorted(f.name for f in fields(SavedSeat))


def test_the_replay_index_is_complete():
    index = load("replays")
    names = [v["name"] for v in index["vectors"]]
    assert len(names) == len(set(names))
    on_disk = {p.name for p in (VECTORS / "replays").iterdir()}
    listed = {Path(f).name for v in index["vectors"] for f in v["files"]}
    assert on_disk == listed
    kinds = {c for v in index["vectors"] for c in v["covers"]}
    for kind in ("open", "act", "commit", "reveal", "chain", "shuffle", "strip", "seed", "final", "timeout",
                 "contest", "act+card", "act+release", "cert", "renewal", "secret round", "private chance"):
        assert kind in kinds, f"no replay vector covers {kind}"
    spoiled = [v for v in index["vectors"] if v["name"] == "spoiled-false"]
    assert spoiled and spoiled[0]["expect"]["rule"] == "spoiled card"
    assert typed(b"\x01") == {"bin": "01"}


def test_the_unknown_record_vector_verifies_only_with_a_verdict_that_says_a_record_was_skipped():
    """A record no signature covers never gives VALID without the verdict saying so (issue 11)."""
    from replays.audit import audit_file

    (vector,) = [v for v in load("replays")["vectors"] if v["name"] == "unknown-record-skipped"]
    verdict = audit_file(VECTORS / vector["files"][0])
    assert verdict.status == vector["expect"]["verdict"] == "valid"
    assert "; 1 record(s) no signature covers were skipped" in verdict.reason, verdict.reason
    assert any("no signature covers were skipped" in note for note in verdict.notes), verdict.notes
