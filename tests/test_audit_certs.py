"""The certificates and acknowledgements beside the frames: checked on every core, each distinct signature
once, and still judged in file order, so the verdict is the one the plain one-by-one walk gives (the
walk is kept here as the reference)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bots.lib import RandomBot
from replays import codec
from replays.audit import audit_bytes, audit_replay
from replays.certs import sign_ack, sign_cert, verify_ack, verify_cert
from replays.local import SignedMatch
from replays.parallel import cores
from replays.reader import Cert, parse_replay

HOST = 0


@pytest.fixture(scope="module")
def match() -> SignedMatch:
    """A whole ploc game of well over 64 frames (so the certificates take the parallel path)."""
    table = SignedMatch("ploc", RandomBot(), seed=11, reproducible=True)
    while table.step() is not None:
        pass
    assert len(table.ledgers[0].frames) > 200
    return table


def _certs(match: SignedMatch) -> list[Cert]:
    """The host's certificate of every frame, as a joiner writes them."""
    key, session = match.secrets[HOST].key, match.header.session
    return [Cert("cert", HOST, f.seq, f.hash, sign_cert(key, session, f.seq, f.hash)) for f in match.ledgers[0].frames]


def _blob(match: SignedMatch, certs: list[Cert]) -> bytes:
    """The replay with each record written after the frame it names (the rest at the end)."""
    frames = match.ledgers[0].frames
    after: dict[int, list[Cert]] = {}
    for cert in certs:
        after.setdefault(min(cert.seq, len(frames) - 1), []).append(cert)
    return match.header.encode() + b"".join(
        f.encode() + b"".join(codec.encode(c.value()) for c in after.get(f.seq, ())) for f in frames)


def _reference(blob: bytes) -> tuple[int | None, str, int] | None:
    """The certificate check as it was: every signature verified in file order, one at a time."""
    replay = parse_replay(blob)
    seats, session = replay.header.seats, replay.header.session
    certified: dict[tuple[int, int], set[bytes]] = {}
    first = replay.certs[0] if replay.certs else None
    certifier = None if first is None else first.seat if first.kind == "cert" else first.host_seat
    for cert in replay.certs:
        checks: list[tuple[int, bytes, Callable]] = [(cert.seat, cert.sig,
                                                      verify_cert if cert.kind == "cert" else verify_ack)]
        if cert.kind == "ack":
            checks.append((cert.host_seat, cert.host_sig, verify_cert))
        for seat, sig, check in checks:
            if not 0 <= seat < len(seats) or not check(seats[seat][0], session, cert.seq, cert.hash, sig):
                return None, (f"a {cert.kind} record for frame {cert.seq} is not signed by seat {seat}'s key (the "
                              "file was altered)"), cert.seq
        host = cert.seat if cert.kind == "cert" else cert.host_seat
        if host != certifier:
            return None, (f"a {cert.kind} record for frame {cert.seq} names seat {host} as the host, the file's "
                          f"first record seat {certifier}: only the host certifies frames (the file was "
                          "altered)"), cert.seq
        hashes = certified.setdefault((host, cert.seq), set())
        hashes.add(cert.hash)
        if len(hashes) > 1:
            return host, (f"the host (seat {host}) certified two different frames as frame {cert.seq}: it sent "
                          "different frames to different seats (both signed certificates are in this file)"), cert.seq
    return None


def _bad(cert: Cert) -> Cert:
    sig = bytearray(cert.sig)
    sig[5] ^= 0x40
    return Cert(cert.kind, cert.seat, cert.seq, cert.hash, bytes(sig), cert.host_seat, cert.host_sig)


def _agrees(blob: bytes):
    verdict = audit_bytes(blob, name="x.npr")
    expected = _reference(blob)
    if expected is None:
        assert verdict.status == "valid", verdict.reason
    else:
        assert (verdict.status, verdict.blame, verdict.reason, verdict.frame) == ("invalid", *expected)
    return verdict


def test_a_joiners_file_with_a_certificate_per_frame_is_valid(match):
    assert cores() >= 1
    verdict = _agrees(_blob(match, _certs(match)))
    assert verdict.status == "valid" and verdict.checked == len(match.ledgers[0].frames)


def test_a_bad_certificate_far_into_the_file_is_named(match):
    certs = _certs(match)
    at = len(certs) - 3
    certs[at] = _bad(certs[at])
    verdict = _agrees(_blob(match, certs))
    assert verdict.frame == at and f"cert record for frame {at} is not signed by seat 0" in verdict.reason
    assert verdict.blame is None


def test_of_several_problems_the_first_in_file_order_is_named(match):
    certs = _certs(match)
    n = len(certs)
    certs[n - 10] = _bad(certs[n - 10])
    certs[n // 2] = _bad(certs[n // 2])
    assert _agrees(_blob(match, certs)).frame == n // 2
    # two host certificates for one frame number, before a forged one: the host is blamed
    key, session = match.secrets[HOST].key, match.header.session
    other = bytes(32)
    twice = Cert("cert", HOST, 40, other, sign_cert(key, session, 40, other))
    certs = _certs(match)
    certs.insert(41, twice)
    certs[150] = _bad(certs[150])
    verdict = _agrees(_blob(match, certs))
    assert verdict.blame == HOST and verdict.frame == 40 and "certified two different frames" in verdict.reason


def test_an_acknowledgement_repeating_the_hosts_certificate(match):
    certs = _certs(match)
    session = match.header.session
    frame = match.ledgers[0].frames[70]
    ack = Cert("ack", 1, frame.seq, frame.hash, sign_ack(match.secrets[1].key, session, frame.seq, frame.hash),
               HOST, certs[70].sig)
    assert _agrees(_blob(match, [*certs, ack])).status == "valid"
    # the same acknowledgement with the host's signature altered: the ack names the host's seat
    forged = Cert("ack", 1, frame.seq, frame.hash, ack.sig, HOST, _bad(certs[70]).sig)
    verdict = _agrees(_blob(match, [*certs, forged]))
    assert verdict.frame == 70 and "ack record for frame 70 is not signed by seat 0" in verdict.reason
    # signed by the wrong seat, or naming a seat the game does not have
    wrong = Cert("ack", 1, frame.seq, frame.hash, sign_ack(match.secrets[0].key, session, frame.seq, frame.hash),
                 HOST, certs[70].sig)
    assert "not signed by seat 1" in _agrees(_blob(match, [*certs, wrong])).reason
    beyond = Cert("cert", 5, frame.seq, frame.hash, certs[70].sig)
    assert "not signed by seat 5" in _agrees(_blob(match, [*certs, beyond])).reason


def test_random_tamperings_give_the_verdict_of_the_one_by_one_walk(match):
    rng = random.Random(7)
    base = _certs(match)
    key, session = match.secrets[HOST].key, match.header.session
    for _ in range(12):
        certs = list(base)
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(certs))
            if rng.random() < 0.5:
                certs[i] = _bad(certs[i])
            else:
                seq = certs[i].seq
                digest = rng.randbytes(32)
                certs.insert(i + 1, Cert("cert", HOST, seq, digest, sign_cert(key, session, seq, digest)))
        _agrees(_blob(match, certs))


def test_the_frames_are_judged_before_the_certificates(match):
    """A file whose frames are invalid is judged by its frames, whatever the certificates say."""
    certs = [_bad(c) for c in _certs(match)]
    blob = _blob(match, certs)
    replay = parse_replay(blob)
    cut = replay.frames[:50]
    replay.frames[:] = [*cut[:30], cut[31], *cut[32:]]   # frame 30 dropped
    verdict = audit_replay(replay)
    assert verdict.status == "invalid" and verdict.frame == 30 and "cert" not in verdict.reason


def test_a_certificate_by_a_seat_other_than_the_host_does_not_count(match):
    """Only the host certifies frames; a 2.0 header does not name it, so the file's first record does,
    and a certificate signed (validly) by another seat makes the file invalid, blaming nobody: an honest
    joiner writes only its host's certificates. Two such certificates for one frame blame nobody either."""
    certs = _certs(match)
    session = match.header.session
    frame = match.ledgers[0].frames[60]
    by_one = Cert("cert", 1, frame.seq, frame.hash, sign_cert(match.secrets[1].key, session, frame.seq, frame.hash))
    verdict = _agrees(_blob(match, [*certs, by_one]))
    assert verdict.status == "invalid" and verdict.blame is None and verdict.frame == 60
    assert "names seat 1 as the host" in verdict.reason
    other = bytes(32)
    twice = Cert("cert", 1, frame.seq, other, sign_cert(match.secrets[1].key, session, frame.seq, other))
    verdict = _agrees(_blob(match, [*certs, by_one, twice]))
    assert verdict.blame is None and "names seat 1 as the host" in verdict.reason
    # a file whose every certificate is seat 1's: seat 1 is that file's host (2.0 cannot tell more)
    ones = [Cert("cert", 1, c.seq, c.hash, sign_cert(match.secrets[1].key, session, c.seq, c.hash)) for c in certs]
    assert _agrees(_blob(match, ones)).status == "valid"


def test_a_record_tagged_cert_that_is_no_certificate_makes_the_file_invalid(match):
    certs = _certs(match)
    frames = match.ledgers[0].frames
    blob = _blob(match, certs)
    records = [raw for _, raw, _ in codec.iter_records(blob)]
    short = codec.encode(("cert", HOST, 30, frames[30].hash, certs[30].sig[:63]))
    # after frame 30's own record: header, then (frame, cert) pairs
    altered = b"".join(records[:1 + 2 * 31]) + short + b"".join(records[1 + 2 * 31:])
    verdict = audit_bytes(altered, name="x.npr")
    assert verdict.status == "invalid" and verdict.frame == 30 and verdict.blame is None
    assert "cert record of the wrong shape" in verdict.reason
    # an unknown tag is skipped with a note; a record of a later minor version may carry more fields
    unknown = b"".join(records[:1 + 2 * 31]) + codec.encode(("certificate", 1)) + b"".join(records[1 + 2 * 31:])
    assert audit_bytes(unknown, name="x.npr").status == "valid"
    longer = codec.encode((*certs[30].value(), "a later field"))
    assert parse_replay(b"".join(records[:1 + 2 * 31]) + longer).bad_records != []
    header = match.header
    later = type(header)(header.game, header.rules_version, header.players, header.options, header.seats,
                         header.session, header.created, header.major, 1, header.terms)
    replay = parse_replay(later.encode() + b"".join(records[1:1 + 2 * 31]) + longer)
    assert replay.bad_records == [] and replay.certs[-1] == certs[30]
