"""Payroll receipts (CFDI + Nómina 1.2): read_cfdi and profile_from_cfdi reproduce
fixtures/documents/ exactly, and refuse bad documents with ScoreError codes."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

import platform_score
from platform_score import ScoreError, profile_from_cfdi, read_cfdi

DOCS = Path(__file__).resolve().parents[2] / "fixtures" / "documents"
RECEIPTS = sorted(DOCS.glob("*.xml"))
PROFILES = json.loads((DOCS / "profiles.json").read_text(encoding="utf-8"))


def expected(xml: Path) -> Any:
    return json.loads(xml.with_suffix(".json").read_text(encoding="utf-8"))


def test_fixtures_are_there() -> None:
    assert len(RECEIPTS) >= 27
    assert len(PROFILES) >= 9


@pytest.mark.parametrize("xml", RECEIPTS, ids=lambda p: p.stem)
def test_receipt_facts_match_the_fixture(xml: Path) -> None:
    want = expected(xml)
    if "error" in want:
        with pytest.raises(ScoreError) as info:
            read_cfdi(xml.read_bytes())
        assert info.value.code == want["error"]["code"]
        assert info.value.code in platform_score.DOCUMENT_ERROR_CODES
        assert str(info.value).startswith(want["error"]["code"] + ": ")
    else:
        got = read_cfdi(xml.read_bytes())
        assert got == want
        # Same digits: the JSON text of what Python got is the fixture's.
        assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


@pytest.mark.parametrize("case", PROFILES, ids=lambda c: c["name"])
def test_profile_matches_the_fixture(case: dict[str, Any]) -> None:
    receipts = [(DOCS / name).read_bytes() for name in case["receipts"]]
    if "error" in case:
        with pytest.raises(ScoreError) as info:
            profile_from_cfdi(receipts, reference_date=case["reference_date"])
        assert info.value.code == case["error"]["code"]
        assert info.value.field == case["error"]["field"]
    else:
        assert profile_from_cfdi(receipts, reference_date=case["reference_date"]) == case["expected"]


def test_reference_date_may_be_a_date() -> None:
    case = PROFILES[0]
    receipts = [(DOCS / name).read_bytes() for name in case["receipts"]]
    got = profile_from_cfdi(receipts, reference_date=datetime.date.fromisoformat(case["reference_date"]))
    assert got == case["expected"]


def test_the_verified_profile_scores() -> None:
    """The verified fields are score-core profile fields: a caller merges them and scores."""
    case = PROFILES[0]
    receipts = [(DOCS / name).read_bytes() for name in case["receipts"]]
    perfil = profile_from_cfdi(receipts, reference_date=case["reference_date"])["perfil"]
    report = platform_score.score({**perfil, "ahorro": 150000, "edad": 39})
    assert 0 <= report["score"] <= 1000


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="reference_date"):
        profile_from_cfdi([], reference_date="10/04/2025")
    with pytest.raises(TypeError):
        read_cfdi("<xml/>")  # type: ignore[arg-type]
    with pytest.raises(ScoreError) as info:
        profile_from_cfdi([], reference_date="2025-04-10")
    assert info.value.code == "DOCUMENT_NOT_PAYROLL"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "DOCUMENT_INVALID_XML"),
        (b"\xff\xfe<a/>", "DOCUMENT_INVALID_XML"),
        (b'<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>', "DOCUMENT_UNSAFE_XML"),
        (b" " * (1024 * 1024 + 1), "DOCUMENT_TOO_LARGE"),
        (b'<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0">' + b"<a>" * 100, "DOCUMENT_TOO_LARGE"),
    ],
)
def test_refusals(data: bytes, code: str) -> None:
    with pytest.raises(ScoreError) as info:
        read_cfdi(data)
    assert info.value.code == code
