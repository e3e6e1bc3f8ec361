"""Generate the test vectors of docs/vectors/ from this implementation.

    python -m conformance.make_vectors [--out DIR]      (default: docs/vectors)

Everything is derived from fixed seeds, so two runs write identical bytes; tests/test_vectors.py
regenerates the vectors and compares them with the published ones, so they cannot drift from the code.
A deliberate protocol change regenerates them with this command (and says so in the docs). What each
file holds is described in docs/conformance.md; the value notation in conformance/values.py.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from conformance.replay_vectors import write_replays
from conformance.values import typed, typed_state
from engines.core import HIDDEN, Chance, canonical_bytes, deal_from_bytes, outcome_from_bytes, uniform
from netplay import wire
from netplay.protocol.addresses import DOMAIN, LOBBY_ID_BYTES, sign_address, statement_bytes
from netplay.transport import (
    BOOT_CARD,
    BOOT_ERROR,
    BOOT_REQUEST,
    CHALLENGE,
    COOKIE_DOMAIN,
    HELLO,
    HOST_DOMAIN,
    JOIN_DOMAIN,
    PROTOCOL,
    WELCOME,
    _card_message,
    _transcript,
)
from replays import codec
from replays import deck as D
from replays import look as L
from replays.certs import sign_ack, sign_cert
from replays.crypto import (
    PREFIX,
    fingerprint,
    framed,
    hash64_parts,
    hash_parts,
    hmac64_parts,
    hmac_parts,
    key_from_bytes,
    public_bytes,
    sign,
)
from replays.frames import make_frame
from replays.header import Header, Terms
from replays.randomness import (
    chain_link,
    chain_secret,
    choice_commitment,
    make_chain,
    private_chance_bytes,
    private_mac,
    public_chance_bytes,
    salt_for,
    seed_commitment,
)
from replays.releases import sign_release
from replays.writer import replay_filename

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "docs" / "vectors"
SESSION = bytes.fromhex("5e55104e00112233445566778899aabb")


def _b(label: str, n: int = 32) -> bytes:
    """Fixed bytes for a vector, named by what they stand for."""
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(f"netplay vectors/{label}/{counter}".encode()).digest()
        counter += 1
    return out[:n]


def _key(label: str):
    return key_from_bytes(_b(f"key/{label}"))


def _h(data: bytes) -> str:
    return data.hex()


# ------------------------------------------------------------------------------------------ encoding


def encoding() -> dict[str, Any]:
    values: list[Any] = [
        None, False, True, 0, 1, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1,
        -1, -32, -33, -128, -129, -32768, -32769, -(2**31), -(2**31) - 1, -(2**63),
        "", "a", "é€", "x" * 31, "x" * 32, "x" * 255, "x" * 256,
        b"", b"\x00", bytes(range(32)), b"\xff" * 255, b"\xab" * 256,
        (), (1, 2, 3), tuple(range(15)), tuple(range(16)), (("nested", (b"\x01", None)), True),
    ]
    limits = codec.DEFAULT_LIMITS
    deep_ok: Any = 1
    for _ in range(limits.max_depth):
        deep_ok = (deep_ok,)
    rejected = [
        ("cc05", "not canonical: 5 written as uint8 (shortest form: the positive fixint 05)"),
        ("d90161", "not canonical: a 1-byte str written as str8 (shortest form: fixstr a161)"),
        ("dc0001c0", "not canonical: a 1-item array written as array16 (shortest form: fixarray 91c0)"),
        ("d1ff80", "not canonical: -128 written as int16 (shortest form: int8 d080)"),
        ("81a161c0", "a map (records are fixed-position arrays)"),
        ("cb3ff0000000000000", "a float"),
        ("ca3f800000", "a float"),
        ("d40100", "an extension type"),
        ("c1", "the never-used type byte 0xc1"),
        ("a2ff61", "a str that is not valid UTF-8"),
        ("9201", "cut off (an array of 2 with 1 item): a torn record at the end of a file"),
        ("0101", "trailing bytes after one record (as a single record)"),
        ("91" * (limits.max_depth + 1) + "c0", f"nested {limits.max_depth + 1} arrays deep"),
        ("dc" + (limits.max_items + 1).to_bytes(2, "big").hex(),
         f"an array declaring {limits.max_items + 1} items (refused at its header)"),
        ("c6" + (limits.max_bin + 1).to_bytes(4, "big").hex(),
         f"a bin declaring {limits.max_bin + 1} bytes (limit {limits.max_bin})"),
        ("db" + (limits.max_str + 1).to_bytes(4, "big").hex(),
         f"a str declaring {limits.max_str + 1} bytes (limit {limits.max_str})"),
    ]
    for hexed, _ in rejected:
        try:
            codec.decode(bytes.fromhex(hexed))
        except codec.FormatError:
            continue
        raise AssertionError(f"the codec accepts {hexed[:40]}")
    items_ok = (tuple([None] * 10_000), tuple([None] * (limits.max_items - 10_002)))
    assert codec.decode(codec.encode(items_ok)) == items_ok
    return {
        "about": "Canonical msgpack (docs/protocol.md \"Encoding\"): every value and its only accepted bytes; "
                 "byte strings that a decoder must refuse, with why; the limits and how they count.",
        "canonical": [{"value": typed(v), "hex": codec.encode(v).hex()} for v in values]
                     + [{"value": typed(deep_ok), "hex": codec.encode(deep_ok).hex(),
                         "note": f"{limits.max_depth} nested arrays: the deepest a record may be"}],
        "rejected": [{"hex": h, "why": why} for h, why in rejected],
        "limits": {"record_bytes": limits.max_bytes, "depth": limits.max_depth, "items": limits.max_items,
                   "str_bytes": limits.max_str, "bin_bytes": limits.max_bin, "file_bytes": 256 << 20,
                   "depth_counts": "arrays nested in one another, the record's own outermost array included "
                                   "(scalars add no level): [[1]] is 2 deep",
                   "items_count": "the sum of the lengths of every array in the record (the outermost one "
                                  "included): [[1, 2], 3] has 2 + 2 = 4 items",
                   "items_example": {"shape": "[[nil x 10000], [nil x 9998]]", "items": limits.max_items,
                                     "accepted": True}},
    }


def digest_encoding() -> dict[str, Any]:
    from engines import GAMES
    values: list[Any] = [0, 1, -1, 10**20, -(10**20), "", "grain", b"\x00\xff", None, True, False, HIDDEN, (),
                         (1, (2, 3)), [1, "1"], {"b": 1, "a": (2,)}, {2: "x", 10: "y"}]
    games = []
    for game_id, game in sorted(GAMES.items()):
        for players in game.players:
            state = game.start(players, {})
            games.append({"game": game_id, "players": players, "options": "defaults",
                          "start_digest": game.digest(state).hex()})
    ploc = GAMES["ploc"]
    state = ploc.start(2, {})
    common = (state.players, state.plies, state.out, state.offer, state.accepted, state.offered_at,
              state.mid_step, None)
    encoded = canonical_bytes((ploc.id, ploc.rules_version, common, ploc.rules.public(state.inner)))
    assert hashlib.sha256(encoded).digest() == ploc.digest(state)
    return {
        "about": "The encoding behind game.digest (docs/protocol.md \"State digest\"), and the digest of every "
                 "game's start with default options. Values: {\"map\": [[k, v], ...]} is a dict, "
                 "{\"hidden\": true} the stand-in for a secret, {\"bin\": hex} bytes.",
        "values": [{"value": typed_state(v, HIDDEN), "hex": canonical_bytes(v).hex(),
                    "sha256": hashlib.sha256(canonical_bytes(v)).hexdigest()} for v in values],
        "example": {"game": "ploc", "players": 2, "what": "the start state: canonical_bytes((game id, rules "
                    "version, (players, plies, out, offer, accepted, offered_at, mid_step, result), public part))",
                    "input": encoded.hex(), "digest": ploc.digest(state).hex()},
        "start_digests": games,
    }


# ------------------------------------------------------------------------------------------ hashing


def _parts_json(parts: tuple) -> list:
    return [typed(p) for p in parts]


def hashing() -> dict[str, Any]:
    seed = _b("seed/0")
    cases = [
        ("example", ()),
        ("example", (b"",)),
        ("example", ("", 0)),
        ("example", (SESSION, 7, "text", b"\x01\x02")),
        ("frame", (codec.encode((SESSION, 0, bytes(32), 0, "act", ("roll",), bytes(32))),)),
        ("header", (b"\x9b",)),
        ("chain", (SESSION, 1, _b("chain value"))),
        ("seed", (SESSION, 0, seed)),
        ("choice", (SESSION, 3, 1, "pick 2", _b("salt"))),
        ("public-chance", (SESSION, 4, 0, _b("v0"), 1, _b("v1"))),
        ("private-chance-value", (SESSION, 5, 1, _b("mac"), 0, _b("v0"))),
        ("card", (SESSION, "development", 0, 3, 1)),
        ("deck-ctx", (SESSION, "strip", 2, "development", 0, 5)),
        ("shuffle-input", (_b("points", 96),)),
    ]
    macs = [
        ("chain-secret", (SESSION, 0, 0)),
        ("chain-secret", (SESSION, 0, 1)),
        ("salt", (SESSION, 3)),
        ("private-chance", (SESSION, 5)),
    ]
    wide = [("dleq", (_b("ctx"), _b("g1"))), ("shuffle-challenge", (SESSION, 0, "development", 0))]
    wide_macs = [("deck-key", (SESSION, 0, "development", 0)), ("deck-perm", (SESSION, 0, "development", 0, 0))]
    keys = [public_bytes(_key(f"fp/{i}")) for i in range(3)]
    return {
        "about": "H, HMAC, H64, HMAC64 (docs/protocol.md \"Hashing and signing\"): the exact input bytes "
                 f"(L(\"{PREFIX}\" + domain) || L(part) || ...) and the outputs. Parts: str as UTF-8, int as 8 "
                 "bytes big-endian, {\"bin\": hex} as is; L(x) = 4-byte big-endian length, then x.",
        "prefix": PREFIX,
        "H": [{"domain": d, "parts": _parts_json(p), "input": framed(d, *p).hex(), "sha256": hash_parts(d, *p).hex()}
              for d, p in cases],
        "HMAC": [{"key": seed.hex(), "domain": d, "parts": _parts_json(p), "input": framed(d, *p).hex(),
                  "hmac_sha256": hmac_parts(seed, d, *p).hex()} for d, p in macs],
        "H64": [{"domain": d, "parts": _parts_json(p), "input": framed(d, *p).hex(),
                 "sha512": hash64_parts(d, *p).hex()} for d, p in wide],
        "HMAC64": [{"key": seed.hex(), "domain": d, "parts": _parts_json(p), "input": framed(d, *p).hex(),
                    "hmac_sha512": hmac64_parts(seed, d, *p).hex()} for d, p in wide_macs],
        "fingerprints": [{"key": k.hex(), "fingerprint": fingerprint(k)} for k in keys],
    }


# ------------------------------------------------------------------------------------------ signatures


def signatures() -> dict[str, Any]:
    keys = [_key(f"seat/{s}") for s in range(2)]
    from cryptography.hazmat.primitives import serialization
    raw = [k.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                           serialization.NoEncryption()) for k in keys]
    header = Header.make("ploc", "1", 2, {}, [(public_bytes(k), f"seat-{s}") for s, k in enumerate(keys)], SESSION,
                         1_700_000_000, Terms.agreed(120_000, (600_000, 5_000), 600_000, 500, 60_000, 0))
    frames = []
    prev = header.hash
    for seq, (seat, kind, body) in enumerate([(0, "open", (_b("tail0"), 128, _b("seedc0"))),
                                              (1, "act", ("roll",)),
                                              (0, "commit", (_b("commitment"), 0)),
                                              (1, "chain", (_b("x1"), (_b("tail"), 64)))]):
        frame = make_frame(keys[seat], SESSION, seq, prev, seat, kind, body, _b(f"digest/{seq}"))
        frames.append({"fields": {"session": typed(SESSION), "seq": seq, "prev": typed(prev), "seat": seat,
                                  "kind": kind, "body": typed(body), "digest": typed(frame.digest)},
                       "signed": frame.signed.hex(), "message": framed("frame").hex() + frame.signed.hex(),
                       "signature": frame.signature.hex(), "hash": frame.hash.hex(), "wire": frame.encode().hex()})
        prev = frame.hash
    seq, frame_hash = 3, bytes.fromhex(frames[-1]["hash"])
    message = SESSION + seq.to_bytes(8, "big") + frame_hash
    cert = sign_cert(keys[0], SESSION, seq, frame_hash)
    ack = sign_ack(keys[1], SESSION, seq, frame_hash)
    assert cert == sign(keys[0], "sequenced", message)
    return {
        "about": "Ed25519 (RFC 8032) keys from their 32-byte private seeds; a header and its hash; frames with "
                 "their signed bytes, the signed message L(\"netplay/1/frame\") || signed, signature, hash and "
                 "wire bytes; a host certificate and a joiner acknowledgement (docs/protocol.md).",
        "keys": [{"private": r.hex(), "public": public_bytes(k).hex(), "fingerprint": fingerprint(public_bytes(k))}
                 for r, k in zip(raw, keys, strict=True)],
        "header": {"value": typed(header.value()), "encoded": header.encode().hex(), "hash": header.hash.hex()},
        "frames": frames,
        "cert": {"signer": 0, "session": SESSION.hex(), "seq": seq, "hash": frame_hash.hex(),
                 "message": message.hex(), "signed": framed("sequenced").hex() + message.hex(),
                 "signature": cert.hex(), "record": typed(("cert", 0, seq, frame_hash, cert))},
        "ack": {"signer": 1, "session": SESSION.hex(), "seq": seq, "hash": frame_hash.hex(),
                "message": message.hex(), "signed": framed("ack").hex() + message.hex(), "signature": ack.hex(),
                "record": typed(("ack", 1, seq, frame_hash, ack, 0, cert))},
    }


# ------------------------------------------------------------------------------------------ randomness


def randomness() -> dict[str, Any]:
    seed = _b("seed/1")
    seat = 1
    secret = chain_secret(seed, SESSION, seat, 0)
    values = make_chain(SESSION, seat, secret, 4)
    assert all(chain_link(SESSION, seat, values[i]) == values[i - 1] for i in range(1, len(values)))
    renewed = make_chain(SESSION, seat, chain_secret(seed, SESSION, seat, 1), 3)
    frames = []
    for k in range(1, 5):
        renewal = None if k < 4 else [typed(renewed[0]), 3]
        frames.append({"frame_body": [typed(values[k]), renewal], "reveals": f"x{k} of generation 0"})
    frames.append({"frame_body": [typed(renewed[1]), None], "reveals": "x1 of generation 1"})
    round_no, action = 2, "play 3"
    salt = salt_for(seed, SESSION, round_no)
    private_values = [(0, _b("v0"))]
    mac = private_mac(seed, SESSION, 6)
    public_values = [(0, _b("v0")), (1, _b("v1")), (2, _b("v2"))]
    return {
        "about": "Hash chains, renewals, seeds, choice commitments and chance bytes (docs/protocol.md "
                 "\"Randomness\").",
        "chain": {"session": SESSION.hex(), "seat": seat, "seed": seed.hex(), "generation": 0, "length": 4,
                  "secret": secret.hex(), "values": [v.hex() for v in values],
                  "rule": "values[i-1] = H(\"chain\", session, seat, values[i]); values[0] is the tail committed "
                          "in open, values[length] the chain secret"},
        "renewal": {"generation_1_length": 3, "generation_1_secret": chain_secret(seed, SESSION, seat, 1).hex(),
                    "generation_1_values": [v.hex() for v in renewed], "chain_frames": frames},
        "seed_commitment": {"session": SESSION.hex(), "seat": seat, "seed": seed.hex(),
                            "commitment": seed_commitment(SESSION, seat, seed).hex()},
        "choice": {"session": SESSION.hex(), "round": round_no, "seat": seat, "action": action,
                   "salt": salt.hex(), "salt_rule": "HMAC(seed, \"salt\", session, round) (a peer may pick any "
                                                   "32 bytes; deriving it from the seed is this netplay's choice)",
                   "commitment": choice_commitment(SESSION, round_no, seat, action, salt).hex(),
                   "commit_body": typed((choice_commitment(SESSION, round_no, seat, action, salt), round_no)),
                   "reveal_body": typed((action, salt))},
        "public_chance": {"session": SESSION.hex(), "index": 4,
                          "values": [[s, v.hex()] for s, v in public_values],
                          "bytes": public_chance_bytes(SESSION, 4, public_values).hex()},
        "private_chance": {"session": SESSION.hex(), "index": 6, "seat": seat, "seed": seed.hex(), "mac": mac.hex(),
                           "values": [[s, v.hex()] for s, v in private_values],
                           "bytes": private_chance_bytes(SESSION, 6, seat, mac, private_values).hex()},
    }


# ------------------------------------------------------------------------------------------ chance values


def chance() -> dict[str, Any]:
    datas = [b"", b"\x00", b"\xff\xff", bytes(range(32)), _b("chance/a"), _b("chance/b"), b"\xff" * 32]
    ns = [1, 2, 3, 6, 7, 19, 255, 256, 257, 1000, 65536, 1_000_003]
    uniforms = [{"data": d.hex(), "n": n, "value": uniform(d, n)} for d in datas for n in ns]
    dice = []
    for label, sides in (("a", (6, 6)), ("b", (6, 6, 6)), ("c", (4, 8, 20)), ("d", (6,))):
        data = _b(f"dice/{label}")
        chance_point = Chance("dice", sides=sides)
        per_die = [hashlib.sha256(b"die" + bytes([i]) + data).digest() for i in range(len(sides))]
        dice.append({"sides": list(sides), "data": data.hex(), "die_inputs": [d.hex() for d in per_die],
                     "value": list(outcome_from_bytes(chance_point, data))})
    picks = [{"n": n, "data": _b(f"pick/{n}").hex(), "value": outcome_from_bytes(Chance("pick", n=n), _b(f"pick/{n}"))}
             for n in (2, 6, 19, 25)]
    pool = (0, 0, 0, 1, 1, 2, 3, 4)
    deals = []
    for k in range(3):
        data = _b(f"deal/{k}")
        remaining = pool[k:]
        point = Chance("deal", n=len(remaining), private_to=0, deck="cards", pool=pool)
        deals.append({"remaining": list(remaining), "data": data.hex(),
                      "value": deal_from_bytes(point, data, remaining)})
    return {
        "about": "Chance values from protocol bytes (docs/protocol.md \"Chance values\"): uniform(data, n), dice "
                 "(one uniform per die over SHA-256(\"die\" || index byte || data)), picks, and the local "
                 "driver's deal (a networked deal's value is the card the deck dealt).",
        "uniform": uniforms,
        "dice": dice,
        "pick": picks,
        "deal_local": deals,
    }


# ------------------------------------------------------------------------------------------ deck


def deck() -> dict[str, Any]:
    name, epoch, pool = "development", 0, (0, 0, 1, 2)
    seeds = [_b("deck seed/0"), _b("deck seed/1")]
    points = D.card_points(SESSION, name, epoch, pool)
    cards = [{"index": i, "type": t, "hash": hash_parts("card", SESSION, name, epoch, i, t).hex(), "point": p.hex()}
             for i, (t, p) in enumerate(zip(pool, points, strict=True))]
    seats = []
    shuffles = []
    inp = points
    for seat, seed in enumerate(seeds):
        key = D.deck_key(seed, SESSION, seat, name, epoch)
        perm = D.deck_permutation(seed, SESSION, seat, name, epoch, len(pool))
        made = D.shuffle(seed, SESSION, seat, name, epoch, inp)
        digest = hash_parts("shuffle-input", b"".join(inp))
        k0, pi0 = D._shadow(seed, SESSION, seat, name, epoch, digest, 0, len(pool))
        challenge = hash64_parts("shuffle-challenge", SESSION, seat, name, epoch, b"".join(inp),
                                 b"".join(made.cards), made.public, *made.proof.commitments)
        assert D.check_shuffle(SESSION, seat, name, epoch, inp, made.public, made.cards, made.proof) is None
        seats.append({"seat": seat, "seed": seed.hex(), "key": key.hex(), "public": made.public.hex(),
                      "permutation": list(perm)})
        shuffles.append({"seat": seat, "input": [p.hex() for p in inp], "input_digest": digest.hex(),
                         "cards": [c.hex() for c in made.cards], "public": made.public.hex(),
                         "shadow_0": {"key": k0.hex(), "permutation": list(pi0)},
                         "challenge_hash": challenge.hex(),
                         "challenge_bits": [(challenge[s // 8] >> (s % 8)) & 1 for s in range(D.SHUFFLE_ROUNDS)],
                         "proof": {"commitments": [c.hex() for c in made.proof.commitments],
                                   "openings": [o.hex() for o in made.proof.openings]},
                         "frame_body": typed((name, epoch, made.public, b"".join(made.cards),
                                              made.proof.to_wire()))})
        inp = made.cards
    deck_cards = inp
    position, drawer, stripper = 0, 1, 0
    stripped = D.strip(seeds[stripper], SESSION, stripper, name, epoch, position, deck_cards[position])
    publics = [bytes.fromhex(s["public"]) for s in seats]
    assert D.check_strip(SESSION, stripper, name, epoch, position, publics[stripper], deck_cards[position],
                         stripped.value, stripped.proof) is None
    table = D.card_table(SESSION, name, epoch, pool)
    drawn = D.draw(seeds[drawer], SESSION, drawer, name, epoch, stripped.value, table)
    shown = D.reveal(seeds[drawer], SESSION, drawer, name, epoch, position, stripped.value)
    released = D.release(seeds[stripper], SESSION, stripper, name, epoch, 1, deck_cards[1:])
    spoiled = D.spoil(seeds[drawer], SESSION, drawer, name, epoch, position, stripped.value)
    fault = D.check_spoiled(SESSION, drawer, name, epoch, position, publics[drawer], stripped.value, spoiled.value,
                            spoiled.proof, table)
    ctx = D.deck_context(SESSION, "strip", stripper, name, epoch, position)
    # a look at the drawer's hand by the other seat (chance index 5): peek, show, the looker's decryption
    looker, index = stripper, 5
    j = L.look_key(seeds[looker], SESSION, looker, index)
    peeked = L.peek(seeds[looker], SESSION, looker, index, name, epoch, position, stripped.value)
    showed = L.show(seeds[drawer], SESSION, drawer, name, epoch, position, peeked.value)
    public_j = L.look_public(seeds[looker], SESSION, looker, index)
    assert L.check_peek(SESSION, looker, name, epoch, position, public_j, stripped.value, peeked.value,
                        peeked.proof) is None
    assert L.check_show(SESSION, drawer, name, epoch, position, publics[drawer], peeked.value, showed.value,
                        showed.proof) is None
    seen = L.open_seen(seeds[looker], SESSION, looker, index, name, epoch, position, showed.value)
    assert L.check_seen(SESSION, looker, name, epoch, position, public_j, showed.value, seen.value, seen.proof,
                        table) == drawn.card[1]
    worked = _deck_worked(seeds, name, epoch, len(pool), publics[stripper], deck_cards[position], stripped)
    return {
        "about": "The shared secret deck (docs/protocol.md \"Shared secret deck\", replays/deck.py): card points, "
                 "each seat's key, permutation and shuffle with its cut-and-choose proof, a strip with its "
                 "Chaum-Pedersen proof, the drawer's unmasking, a shown card, a release, a (false) spoiled "
                 "claim, and a look at the drawer's hand by the other seat (docs/protocol.md \"A look at a "
                 "hand\", replays/look.py). Points and scalars are libsodium's 32-byte encodings.",
        "session": SESSION.hex(), "deck": name, "epoch": epoch, "pool": list(pool),
        "cards": cards,
        "seats": seats,
        "shuffles": shuffles,
        "deal": {"position": position, "drawer": drawer,
                 "strip": {"seat": stripper, "value_in": deck_cards[position].hex(), "value_out": stripped.value.hex(),
                           "context": ctx.hex(), "proof": stripped.proof.hex(),
                           "frame_body": typed((name, epoch, position, stripped.value, stripped.proof))},
                 "unmasked": drawn.point.hex(), "card": {"index": drawn.card[0], "type": drawn.card[1]}},
        "reveal": {"seat": drawer, "position": position, "point": shown.value.hex(), "proof": shown.proof.hex(),
                   "attachment": typed(("card", name, epoch, position, shown.value, shown.proof))},
        "release": {"seat": stripper, "first": 1, "undealt": [c.hex() for c in deck_cards[1:]],
                    "attachment": typed(("release", *released.to_wire()))},
        "spoiled": {"seat": drawer, "position": position, "point": spoiled.value.hex(), "proof": spoiled.proof.hex(),
                    "verdict": f"{fault.rule}: the point is a card, so this claim is false" if fault else "holds"},
        "look": {"looker": looker, "source": drawer, "chance_index": index, "look_key": j.hex(), "J": public_j.hex(),
                 "peek": {"value_in": stripped.value.hex(), "value_out": peeked.value.hex(),
                          "context": D.deck_context(SESSION, "peek", looker, name, epoch, position).hex(),
                          "proof": peeked.proof.hex(),
                          "frame_body": typed((public_j, ((name, epoch, position, peeked.value, peeked.proof),)))},
                 "show": {"value_out": showed.value.hex(),
                          "context": D.deck_context(SESSION, "show", drawer, name, epoch, position).hex(),
                          "proof": showed.proof.hex(),
                          "frame_body": typed(((name, epoch, position, showed.value, showed.proof),))},
                 "decrypted": L.unpeek(seeds[looker], SESSION, looker, index, showed.value).hex(),
                 "seen": {"point": seen.value.hex(), "proof": seen.proof.hex(),
                          "attachment": typed(("seen", name, epoch, position, seen.value, seen.proof))}},
        "worked": worked,
    }


def _deck_worked(seeds: list[bytes], name: str, epoch: int, n: int, public: bytes, value_in: bytes,
                 stripped: D.LayerOff) -> dict[str, Any]:
    """The intermediate values docs/protocol.md's worked example quotes: the bytes hashed for card 0, seat 0's
    key before its reduction, the Fisher-Yates steps of its permutation, and the strip proof's transcript."""
    from replays.curve import BASE, ORDER, mul, mul_base, scalar_from_wide
    block = hmac64_parts(seeds[0], "deck-perm", SESSION, 0, name, epoch, 0)
    words = [int.from_bytes(block[i:i + 4], "big") for i in range(0, len(block), 4)]
    perm, steps, used = list(range(n)), [], 0
    for i in range(n - 1, 0, -1):
        limit = (1 << 32) - (1 << 32) % (i + 1)
        while words[used] >= limit:   # (never in this example; the rule is in the docs)
            used += 1
        x = words[used]
        used += 1
        j = x % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
        steps.append({"i": i, "word": f"{x:08x}", "limit": limit, "j": j, "after": list(perm)})
    assert tuple(perm) == D.deck_permutation(seeds[0], SESSION, 0, name, epoch, n)
    stripper = 0
    ctx = D.deck_context(SESSION, "strip", stripper, name, epoch, 0)
    nonce = D._secret_scalar(seeds[stripper], "dleq-nonce", ctx, BASE, public, stripped.value, value_in)
    t1, t2 = mul_base(nonce), mul(nonce, stripped.value)
    c = scalar_from_wide(hash64_parts("dleq", ctx, BASE, public, stripped.value, value_in, t1, t2))
    assert stripped.proof[:32] == c
    s = stripped.proof[32:]
    return {
        "card_0_hash_input": framed("card", SESSION, name, epoch, 0, 0).hex(),
        "seat_0_key_wide": hmac64_parts(seeds[0], "deck-key", SESSION, 0, name, epoch).hex(),
        "seat_0_permutation": {"block_0": block.hex(), "steps": steps},
        "strip_proof": {"base": BASE.hex(), "nonce": nonce.hex(), "T1": t1.hex(), "T2": t2.hex(),
                        "challenge_input": framed("dleq", ctx, BASE, public, stripped.value, value_in, t1, t2).hex(),
                        "c": c.hex(), "s": s.hex(),
                        "s_plus_order": (int.from_bytes(s, "little") + ORDER).to_bytes(32, "little").hex()},
    }


# ------------------------------------------------------------------------------------------ wire


def wire_messages() -> dict[str, Any]:
    frame_bytes = bytes.fromhex(signatures()["frames"][1]["wire"])
    host, joiner = _key("transport/host"), _key("transport/joiner")
    host_pub, join_pub = public_bytes(host), public_bytes(joiner)
    cert = sign_cert(host, SESSION, 1, _b("hash"))
    seat_key = _key("seat/bot-1")
    proof = sign(seat_key, "extra-seat", host_pub + join_pub + b"bot-1")
    lobby_id = _b("lobby id")[:LOBBY_ID_BYTES]
    address_signed = statement_bytes(host_pub, lobby_id, join_pub, 7003)
    address_sig = sign_address(joiner, host_pub, lobby_id, join_pub, 7003)
    samples = {
        "hello": (wire.PROTO, "0.1.0", None, 0),
        "offer": (wire.PROTO, "catan", "1", 3, [["board", "beginner"], ["domestic", "on"], ["max_rounds", "0"]],
                  "0.1.0", [120_000, [600_000, 5_000], 600_000, 500, 60_000], lobby_id),
        "ready": ([["bot-1", public_bytes(seat_key), proof]], 7003, address_sig),
        "decline": ("the host's terms are out of bounds",),
        "refused": ("full", "the game is full (3 seats taken)"),
        "header": (bytes.fromhex(signatures()["header"]["encoded"]),),
        "peers": ([[1, join_pub, "192.0.2.8:7003/" + fingerprint(join_pub), 7003, address_sig],
                   [2, join_pub, "", 0, proof]],),   # its extra seat, with that seat key's proof (protocol 5)
        "start": (bytes.fromhex(signatures()["header"]["hash"]), [3]),
        "synced": (-1,),
        "frame": (frame_bytes, cert),
        "ack": (1, _b("hash"), cert, sign_ack(joiner, SESSION, 1, _b("hash"))),
        "want": (12,),
        "reject": (7, "frame", "stale or conflicting frame 7: it is already another one"),
        "relay": (host_pub, wire.pack("want", 12)),
        "relayed": (join_pub, wire.pack("want", 12)),
        "chat": (-1, "gg"),
        "dispute": (frame_bytes, "seat 1 played 'x', which the rules forbid"),
        "rematch": ([],),
        "bye": ("no more games",),
    }
    spectators = ("watch", "release", "table")   # (after the resume hello: the entries before stay where they were)
    released = sign_release(host, SESSION, public_bytes(_key("spectator")), 1, _b("hash"), 9, _b("tip hash"))
    later = {"watch": (wire.PROTO, "0.1.0", 0),
             "release": (frame_bytes, b"", 9, _b("tip hash"), released.sig),
             "table": (9, [598_200, None], [[8, 1, "gg"]])}
    session = []
    for tag in (t for t in wire.SHAPES if t not in spectators):
        fields = samples[tag]
        data = wire.pack(tag, *fields)
        assert wire.unpack(data)[0] == tag
        session.append({"tag": tag, "fields": typed(fields), "hex": data.hex()})
    session.append({"tag": "hello", "fields": typed((wire.PROTO, "0.1.0", [SESSION, 41, _b("hash")], 7003)),
                    "hex": wire.pack("hello", wire.PROTO, "0.1.0", [SESSION, 41, _b("hash")], 7003).hex(),
                    "note": "a resume (with the port of the joiner's direct links)"})
    notes = {"watch": "a spectator's first message (docs/protocol.md \"Spectators\"): watch from frame 0",
             "release": "a spectator's (docs/protocol.md \"Spectators\"): the release signed by the host key for "
                        "the vector key \"spectator\", frame 1 with the bytes _b(\"hash\"), at tip 9 with the bytes "
                        "_b(\"tip hash\")",
             "table": "the host's (docs/protocol.md \"Spectators\", \"The table\"): at frame 9, seat 0's clock 598.2 s "
                      "left, seat 1 without one, and seat 1's line \"gg\" said while frame 8 was the last"}
    for tag in spectators:
        data = wire.pack(tag, *later[tag])
        assert wire.unpack(data)[0] == tag
        session.append({"tag": tag, "fields": typed(later[tag]), "hex": data.hex(), "note": notes[tag]})
    curve_host, curve_join = _b("curve/host"), _b("curve/joiner")
    nonce, join_nonce, host_nonce = _b("client nonce"), _b("join nonce"), _b("host nonce")
    card_msg = _card_message("host-name", host_pub, curve_host, 7001, nonce)
    card_sig = host.sign(card_msg)
    t = _transcript(curve_host, host_pub, "host-name", join_pub, "joiner-name", join_nonce, host_nonce)
    w = codec.encode((1000, 4, 1 << 20))
    join_sig, host_sig = joiner.sign(JOIN_DOMAIN + t), host.sign(HOST_DOMAIN + t + w)
    secret, window, rid, source = _b("cookie secret"), 345_678, b"\x00\x6b\x8b\x45\x67", "192.0.2.7"
    cookie_in = COOKIE_DOMAIN + codec.encode((window, rid, source, "joiner-name", join_pub, join_nonce, host_nonce))
    import hmac
    cookie = hmac.digest(secret, cookie_in, "sha256")
    transport = {
        "protocol": PROTOCOL,
        "keys": {"host_ed25519": host_pub.hex(), "joiner_ed25519": join_pub.hex(), "host_curve": curve_host.hex(),
                 "joiner_curve": curve_join.hex(),
                 "note": "Ed25519 keys are vector keys (private seeds: SHA-256 of \"netplay vectors/key/transport/"
                         "host/0\" and \".../joiner/0\"); curve keys are arbitrary 32 bytes here"},
        "bootstrap_request": {"hex": codec.encode((BOOT_REQUEST, PROTOCOL, nonce)).hex(), "client_nonce": nonce.hex()},
        "card": {"signed": card_msg.hex(), "signature": card_sig.hex(),
                 "hex": codec.encode((BOOT_CARD, PROTOCOL, "host-name", host_pub, curve_host, 7001, card_sig)).hex()},
        "bootstrap_error": {"hex": codec.encode((BOOT_ERROR, PROTOCOL, "host speaks protocol 2, not 1")).hex()},
        "hello": {"hex": (bytes([HELLO]) + codec.encode((PROTOCOL, "joiner-name", join_pub, join_nonce))).hex()},
        "challenge": {"hex": (bytes([CHALLENGE]) + codec.encode((host_nonce, cookie))).hex()},
        "handshake": {"T": t.hex(), "W": w.hex(), "joiner_signed": (JOIN_DOMAIN + t).hex(),
                      "joiner_signature": join_sig.hex(), "host_signed": (HOST_DOMAIN + t + w).hex(),
                      "host_signature": host_sig.hex()},
        "welcome": {"hex": (bytes([WELCOME]) + codec.encode((host_nonce, 1000, 4, 1 << 20, host_sig))).hex()},
        "cookie": {"secret": secret.hex(), "window": window, "routing_id": rid.hex(), "source": source,
                   "input": cookie_in.hex(), "cookie": cookie.hex(),
                   "note": "only the host that made a cookie checks it: this shows the construction"},
    }
    address = {"domain": DOMAIN, "host_key": host_pub.hex(), "lobby_id": lobby_id.hex(), "joiner_key": join_pub.hex(),
               "port": 7003, "message": address_signed.hex(), "signed": framed(DOMAIN).hex() + address_signed.hex(),
               "signature": address_sig.hex(),
               "note": "a joiner's statement of its mesh port (in `ready`, passed on in `peers`): Ed25519 by the "
                       "joiner's key over `signed` = the domain tag, then host key || lobby id || joiner key || "
                       "port (u16 big-endian); docs/protocol.md \"Direct links between joiners\""}
    return {
        "address_statement": address,
        "about": "Session messages (docs/protocol.md \"Session\": each is one transport DATA payload) and "
                 "transport messages (\"Transport\"; an encrypted-channel message is one kind byte, then its "
                 "msgpack body).",
        "session": session,
        "transport": transport,
    }


# ------------------------------------------------------------------------------------------ files


def files() -> dict[str, Any]:
    keys = [public_bytes(_key(f"name/{i}")) for i in range(4)]
    cases = [("loyal-captain", ["alice", "bob"]), ("catan", ["Zoë Müller", "bob@host", "", "x" * 40]),
             ("ploc", [" --spaces and / slashes-- ", "...dots..."]), ("ploc", ["ann", "名前"])]
    names = []
    for game, who in cases:
        header = Header.make(game, "1", len(who), {}, [(keys[i], n) for i, n in enumerate(who)], SESSION,
                             1_700_000_123)
        names.append({"game": game, "names": who, "created": header.created, "session": SESSION.hex(),
                      "file": replay_filename(header)})
    return {
        "about": "Replay file names (docs/replay-format.md \"Names and place\") and a joiner's resume file "
                 "(docs/protocol.md \"Resume\").",
        "replay_names": names,
        "resume_file": {"name": f"sessions/{SESSION.hex()}-1.json",
                        "json": {"session": SESSION.hex(), "seat": 1, "seed": _b("resume seed").hex(),
                                 "address": "192.0.2.1:7000/3f2a-91c0-77de-0b14", "host_key": keys[0].hex(),
                                 "replay": "/home/ann/.local/share/netplay/replays/x.npr", "game": "catan",
                                 "saved": 1_700_000_200, "extra": [[2, _b("resume seed 2").hex(), "bot-2"]],
                                 "role": "joiner", "groups": [], "mesh_port": 7003}},
    }


# ------------------------------------------------------------------------------------------ verdict schema

_SEAT = {"seat": "int", "name": "str", "fingerprint": "str: xxxx-xxxx-xxxx-xxxx", "key": "str: 64 hex digits"}
_RESULT = {"winners": "[int]", "scores": "[int]", "reason": "str"}
_DISPUTE = {"frame": "int", "seat": "int (-1: no seat, e.g. a chance value refused)", "claimed": "str",
            "allowed": "str", "rule": "str", "reason": "str"}
_CONTEST = {"frame": "int", "reason": "str", "evidence": "bool"}
_CLAIM = {"frame": "int", "claimant": "int", "blamed": "int", "kind": "str", "final": "bool", "cosigned": "[int]",
          "contest": "null | contest object"}
_FORK = {"session": "str: first 8 hex digits of the session id", "frame": "int (-1: the headers differ)",
         "reason": "str", "blame": "int | null", "paths": "[str]"}
VERDICT = {
    "path": "str: the file as given",
    "verdict": "str: valid | unfinished | contested | invalid | unreadable",
    "exit": "int: 0 valid, 1 unfinished / contested / invalid, 2 unreadable",
    "reason": "str: one line in words",
    "frame": "int | null: the frame the verdict names",
    "game": "str (\"\" when the header could not be read)",
    "players": "int (0 when the header could not be read)",
    "seats": "[seat object]",
    "frames": "int: frame records read",
    "checked": "int: frames accepted before the verdict",
    "result": "null | result object",
    "dispute": "null | dispute object",
    "blame": "int | null: the seat proven at fault",
    "claim": "null | claim object",
    "forks": "[fork object]",
    "notes": "[str]",
}


def verdict_schema() -> dict[str, Any]:
    return {"about": "The JSON of `netplay replay verify --json` (docs/replay-format.md \"Verdicts\"): a list with "
                     "one verdict object per file, in the order given. Every key is always present; a later "
                     "version may add keys, never remove one or change its meaning.",
            "verdict": VERDICT, "seat": _SEAT, "result": _RESULT, "dispute": _DISPUTE, "claim": _CLAIM,
            "contest": _CONTEST, "fork": _FORK}


# ------------------------------------------------------------------------------------------ main


def _dump(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=1, ensure_ascii=False) + "\n")


def generate(out: Path, check: bool = True) -> list[Path]:
    """Write every vector file under `out` (replacing what is there); the paths written. `check` audits
    every replay vector and insists on its expected verdict (the tests leave that to the kit's run)."""
    out.mkdir(parents=True, exist_ok=True)
    replays = out / "replays"
    if replays.exists():
        shutil.rmtree(replays)
    written = []
    for name, make in (("encoding", encoding), ("digest", digest_encoding), ("hashing", hashing),
                       ("signatures", signatures), ("randomness", randomness), ("chance", chance), ("deck", deck),
                       ("wire", wire_messages), ("files", files), ("verdict-schema", verdict_schema)):
        path = out / f"{name}.json"
        _dump(path, make())
        written.append(path)
    written += write_replays(out, _dump, check)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.make_vectors", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write (default: docs/vectors)")
    parser.add_argument("--no-check", action="store_true", help="do not audit the replay vectors after writing")
    args = parser.parse_args(argv)
    written = generate(args.out, not args.no_check)
    print(f"wrote {len(written)} files under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
