"""Hashes, signatures, fingerprints and the randomness derivations of the protocol."""

from __future__ import annotations

import re

import pytest

from engines.core import Chance
from replays.crypto import (
    fingerprint,
    generate_key,
    hash_parts,
    hmac_parts,
    key_from_bytes,
    load_public,
    public_bytes,
    sign,
    verify,
)
from replays.randomness import (
    DealUnsupported,
    chain_link,
    chain_reaches,
    chain_secret,
    choice_commitment,
    make_chain,
    outcome,
    private_chance_bytes,
    private_mac,
    public_chance_bytes,
    salt_for,
    seed_commitment,
)

SESSION = bytes(range(16))


def test_hashes_are_domain_separated_and_length_prefixed():
    assert hash_parts("a", b"x") != hash_parts("b", b"x")
    assert hash_parts("d", b"ab", b"c") != hash_parts("d", b"a", b"bc")
    assert hash_parts("d", 1) != hash_parts("d", b"\x01")
    assert hash_parts("d", "x") == hash_parts("d", b"x")
    assert hmac_parts(b"k1", "d", b"x") != hmac_parts(b"k2", "d", b"x")
    with pytest.raises(TypeError):
        hash_parts("d", 1.5)  # type: ignore[arg-type]


def test_signatures_bind_key_domain_and_message():
    key = generate_key()
    public = load_public(public_bytes(key))
    sig = sign(key, "frame", b"hello")
    assert len(sig) == 64 and verify(public, "frame", b"hello", sig)
    assert not verify(public, "header", b"hello", sig)
    assert not verify(public, "frame", b"hellO", sig)
    assert not verify(load_public(public_bytes(generate_key())), "frame", b"hello", sig)
    assert not verify(public, "frame", b"hello", b"\x00" * 64)
    assert not verify(public, "frame", b"hello", b"short")
    with pytest.raises(ValueError):
        load_public(b"\x00" * 31)


def test_signatures_are_the_very_bytes_openssl_gives():
    # signing goes through libsodium (faster); Ed25519 is deterministic, so the bytes must not change
    for seed in (bytes(32), b"\x01" * 32, bytes(range(32))):
        key = key_from_bytes(seed)
        for message in (b"", b"x", bytes(range(200))):
            assert sign(key, "frame", message) == key.sign(b"\x00\x00\x00\x0fnetplay/1/frame" + message)
    keys = [key_from_bytes(bytes([i]) * 32) for i in range(100)]   # more keys than the cache keeps
    for key in keys + keys[:3]:
        assert sign(key, "ack", b"m") == key.sign(b"\x00\x00\x00\x0dnetplay/1/ack" + b"m")


def test_fingerprint_is_four_groups_of_hex():
    key = key_from_bytes(bytes(32))
    fp = fingerprint(public_bytes(key))
    assert re.fullmatch(r"[0-9a-f]{4}(-[0-9a-f]{4}){3}", fp)
    assert fp == fingerprint(key.public_key())
    assert fp != fingerprint(public_bytes(key_from_bytes(b"\x01" * 32)))


def test_hash_chain_links_back_to_its_tail():
    secret = chain_secret(b"s" * 32, SESSION, 0, 0)
    chain = make_chain(SESSION, 0, secret, 5)
    assert chain[-1] == secret and len(chain) == 6
    for before, after in zip(chain, chain[1:], strict=False):
        assert chain_link(SESSION, 0, after) == before
    assert chain_reaches(SESSION, 0, secret, chain[0], 5)
    assert chain_reaches(SESSION, 0, secret, chain[2], 3)
    assert not chain_reaches(SESSION, 0, secret, chain[2], 2)
    # bound to seat and session: a copied tail cannot be extended by another seat
    assert chain_link(SESSION, 1, chain[1]) != chain[0]
    assert chain_link(bytes(16), 0, chain[1]) != chain[0]
    with pytest.raises(ValueError):
        make_chain(SESSION, 0, secret, 0)


def test_commitments_depend_on_every_field():
    base = choice_commitment(SESSION, 3, 1, "card 2", b"\x07" * 32)
    assert base != choice_commitment(SESSION, 4, 1, "card 2", b"\x07" * 32)
    assert base != choice_commitment(SESSION, 3, 0, "card 2", b"\x07" * 32)
    assert base != choice_commitment(SESSION, 3, 1, "card 1", b"\x07" * 32)
    assert base != choice_commitment(SESSION, 3, 1, "card 2", b"\x08" * 32)
    assert seed_commitment(SESSION, 0, b"a" * 32) != seed_commitment(SESSION, 1, b"a" * 32)
    assert salt_for(b"a" * 32, SESSION, 1) != salt_for(b"a" * 32, SESSION, 2)


def test_chance_values_come_from_every_contribution():
    a, b = b"a" * 32, b"b" * 32
    one = public_chance_bytes(SESSION, 0, [(0, a), (1, b)])
    assert one != public_chance_bytes(SESSION, 1, [(0, a), (1, b)])
    assert one != public_chance_bytes(SESSION, 0, [(0, a), (1, a)])
    mac = private_mac(b"s" * 32, SESSION, 0)
    assert mac != private_mac(b"t" * 32, SESSION, 0)
    assert private_chance_bytes(SESSION, 0, 0, mac, [(1, b)]) != private_chance_bytes(SESSION, 0, 0, mac, [(1, a)])
    dice = outcome(Chance("dice", sides=(6, 6)), one)
    assert len(dice) == 2 and all(1 <= d <= 6 for d in dice)
    assert 0 <= outcome(Chance("pick", n=7), one) < 7
    counts = [0] * 6
    for i in range(3000):
        counts[outcome(Chance("dice", sides=(6,)), public_chance_bytes(SESSION, i, [(0, a)]))[0] - 1] += 1
    assert min(counts) > 400


def test_a_deal_is_no_value_of_bytes_alone():
    """A deal's value is the card the deck really dealt (the deck protocol), never bytes turned into a type."""
    with pytest.raises(DealUnsupported) as info:
        outcome(Chance("deal", n=5, private_to=0, deck="development", pool=(0, 0, 1, 1, 2)), b"x" * 32)
    assert "development" in str(info.value) and "protocol 2" in str(info.value)
