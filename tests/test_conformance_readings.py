"""The replay vectors of issue 26 separate the reading docs/ now states from the naive readings a verifier
written from the earlier docs took: each vector passes with netplay's audit and fails with the audit
changed to the naive reading (non-canonical scalars accepted, the source's seat in a look's context,
records judged in file order, cert records of the wrong shape skipped, any seat's certificate counted,
every frame record of a copy compared, a frame after the end disputed)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from conformance.check import compare_group, compare_one
from replays import audit, forks, look, reader
from replays import deck as D
from replays.audit import audit_bytes, audit_replay
from replays.reader import parse_replay

VECTORS = Path(__file__).resolve().parent.parent / "docs" / "vectors"
INDEX = {v["name"]: v for v in json.loads((VECTORS / "replays.json").read_text())["vectors"]}


def problems(name: str) -> list[str]:
    """What the kit finds wrong with this netplay's in-process audit of vector `name` ([] = it passes)."""
    vector = INDEX[name]
    if len(vector["files"]) == 1:
        path = VECTORS / vector["files"][0]
        verdict = audit_bytes(path.read_bytes(), name=str(path))
        found = compare_one(vector["expect"], verdict.as_dict())
        return found + ([] if verdict.exit_code == vector["expect"]["exit"] else ["exit"])
    replays = []
    for name_ in vector["files"]:
        replay = parse_replay((VECTORS / name_).read_bytes())
        replay.path = name_
        replays.append(replay)
    verdicts = [audit_replay(r) for r in replays]
    reported = [v.as_dict() for v in verdicts]
    reported[0]["forks"] = [f.as_dict() for f in forks.compare(replays, verdicts)]
    return compare_group(vector["expect"], reported, vector["files"])


NEW = ["strip-scalar-not-canonical", "shuffle-opening-not-canonical", "show-scalar-not-canonical",
       "peek-context-of-the-source", "certificate-forged-before-a-dispute", "certificate-malformed",
       "certificate-by-another-seat", "fork-invalid-copy", "frame-after-the-end", "timeout-open"]


@pytest.mark.parametrize("name", NEW)
def test_the_real_verifier_passes_the_vector(name):
    assert problems(name) == []


# ------------------------------------------------------------------------------ item 2: canonical scalars


def _any_scalar(s: object) -> bool:
    """What libsodium's multiplication takes: any 32 bytes below 2^255 but zero (s + ℓ included)."""
    return type(s) is bytes and len(s) == 32 and any(s) and s[31] < 0x80


@pytest.mark.parametrize("name", ["strip-scalar-not-canonical", "shuffle-opening-not-canonical",
                                  "show-scalar-not-canonical"])
def test_a_verifier_that_accepts_s_plus_the_order_calls_the_malleated_file_valid(name, monkeypatch):
    monkeypatch.setattr(D, "is_nonzero_scalar", _any_scalar)
    path = VECTORS / INDEX[name]["files"][0]
    assert audit_bytes(path.read_bytes()).status == "valid"
    assert problems(name) != []


# ------------------------------------------------------------------------------ item 3: the look's context


def test_a_verifier_that_puts_the_source_in_a_peeks_context_fails_both_look_vectors(monkeypatch):
    honest = parse_replay((VECTORS / "replays" / "valid-catan-ck-look.npr").read_bytes())
    peek = next(f for f in honest.frames if f.kind == "peek")
    show = next(f for f in honest.frames if f.kind == "show")
    looker, source = peek.seat, show.seat
    real = look.deck_context

    def naive(session, what, seat, deck, epoch, position=None):
        if what in ("peek", "seen") and seat == looker:
            seat = source
        return real(session, what, seat, deck, epoch, position)
    monkeypatch.setattr(look, "deck_context", naive)
    verdict = audit_replay(honest)
    assert verdict.status == "invalid" and verdict.dispute["rule"] == look.RULE_PEEK_PROOF  # the honest peek
    assert problems("valid-catan-ck-look") != [] and problems("peek-context-of-the-source") != []


# ------------------------------------------------------------------------------ item 4: which fault wins


def test_a_verifier_that_judges_in_file_order_names_the_forged_certificate(monkeypatch):
    real = audit._verdict

    def file_order(replay, ledger, verdict, on_frame):
        problem = audit._certificates(replay, ledger)   # the record at frame 5 comes first in the file
        if problem is not None:
            verdict.status, verdict.reason, verdict.frame = "invalid", problem[1], problem[2]
            return verdict
        return real(replay, ledger, verdict, on_frame)
    monkeypatch.setattr(audit, "_verdict", file_order)
    assert problems("certificate-forged-before-a-dispute") != []


# ------------------------------------------------------------------------------ item 6


def test_a_verifier_that_skips_a_malformed_cert_record_calls_the_file_valid(monkeypatch):
    monkeypatch.setattr(reader, "CERT_TAGS", ())
    assert problems("certificate-malformed") != []


class _Anyone:
    """A host seat every seat equals: any seat's certificate counts."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


def test_a_verifier_that_counts_any_seats_certificate_calls_the_file_valid(monkeypatch):
    monkeypatch.setattr(audit, "host_seat", lambda replay: _Anyone())
    assert problems("certificate-by-another-seat") != []


def test_a_verifier_that_compares_every_frame_record_blames_a_seat(monkeypatch):
    real = forks.compare

    def every_record(replays, verdicts):
        return real(replays, [dataclasses.replace(v, checked=len(r.frames)) for r, v in zip(replays, verdicts,
                                                                                           strict=True)])
    monkeypatch.setattr(forks, "compare", every_record)
    found = problems("fork-invalid-copy")
    assert found and "no fork expected" in found[0]


def test_a_verifier_that_disputes_a_frame_after_the_end_fails_the_kit():
    vector = INDEX["frame-after-the-end"]
    expect = vector["expect"]
    naive = {"verdict": "invalid", "frame": expect["frame"], "blame": 0,
             "dispute": {"rule": "session over", "frame": expect["frame"], "seat": 0}}
    assert expect["disputed"] is False and compare_one(expect, naive) != []
    assert compare_one(expect, {**naive, "blame": None, "dispute": None}) == []


def test_a_verifier_that_names_the_first_missing_frame_of_an_open_claim_fails_the_kit():
    expect = INDEX["timeout-open"]["expect"]
    assert compare_one(expect, {"verdict": "unfinished", "frame": expect["frame"] + 1}) != []
