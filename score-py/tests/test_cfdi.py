"""Payroll receipts (CFDI + Nómina 1.2): read_cfdi and profile_from_cfdi reproduce
fixtures/documents/ exactly (their certificates chained to the test CA of
fixtures/documents/ca-prueba/ac, as the fixtures are written), and refuse bad documents with
ScoreError codes. A valid seal by a certificate no loaded CA issued proves nothing."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

import platform_score
from platform_score import CertificadosSat, ScoreError, profile_from_cfdi, read_cfdi

DOCS = Path(__file__).resolve().parents[2] / "fixtures" / "documents"
RECEIPTS = sorted(DOCS.glob("*.xml"))
PROFILES = json.loads((DOCS / "profiles.json").read_text(encoding="utf-8"))
CA_PRUEBA = CertificadosSat.from_dir(DOCS / "ca-prueba" / "ac")


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
            read_cfdi(xml.read_bytes(), ca_sat=CA_PRUEBA)
        assert info.value.code == want["error"]["code"]
        assert info.value.code in platform_score.DOCUMENT_ERROR_CODES
        assert str(info.value).startswith(want["error"]["code"] + ": ")
    else:
        got = read_cfdi(xml.read_bytes(), ca_sat=CA_PRUEBA)
        assert got == want
        # Same digits: the JSON text of what Python got is the fixture's.
        assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


@pytest.mark.parametrize("case", PROFILES, ids=lambda c: c["name"])
def test_profile_matches_the_fixture(case: dict[str, Any]) -> None:
    receipts = [(DOCS / name).read_bytes() for name in case["receipts"]]
    if "error" in case:
        with pytest.raises(ScoreError) as info:
            profile_from_cfdi(receipts, reference_date=case["reference_date"], ca_sat=CA_PRUEBA)
        assert info.value.code == case["error"]["code"]
        assert info.value.field == case["error"]["field"]
    else:
        assert profile_from_cfdi(receipts, reference_date=case["reference_date"], ca_sat=CA_PRUEBA) == case["expected"]


def test_reference_date_may_be_a_date() -> None:
    case = PROFILES[0]
    receipts = [(DOCS / name).read_bytes() for name in case["receipts"]]
    got = profile_from_cfdi(receipts, reference_date=datetime.date.fromisoformat(case["reference_date"]), ca_sat=CA_PRUEBA)
    assert got == case["expected"]


def test_the_verified_profile_scores() -> None:
    """The verified fields are score-core profile fields: a caller merges them and scores."""
    case = PROFILES[0]
    receipts = [(DOCS / name).read_bytes() for name in case["receipts"]]
    perfil = profile_from_cfdi(receipts, reference_date=case["reference_date"], ca_sat=CA_PRUEBA)["perfil"]
    report = platform_score.score({**perfil, "ahorro": 150000, "edad": 39})
    assert 0 <= report["score"] <= 1000


def test_a_valid_seal_by_a_certificate_no_loaded_ca_issued_verifies_nothing() -> None:
    """ca-desconocida-40: sealed validly with a certificate its issuer made itself (the
    employer's RFC). Read and shown with its reason, it proves no field, whichever CAs are loaded."""
    data = (DOCS / "ca-desconocida-40.xml").read_bytes()
    for ca in (CA_PRUEBA, None, CertificadosSat.incluidos()):
        sello = read_cfdi(data, ca_sat=ca)["sello"]
        assert (sello["valido"], sello["ca_sat_verificada"], sello["ca_sat_motivo"]) == (True, False, "AC_DESCONOCIDA")
        profile = profile_from_cfdi([data], reference_date="2025-04-10", ca_sat=ca)
        assert profile["perfil"] == {} and profile["verificacion"]["campos"] == []
        uuid = read_cfdi(data)["uuid"]
        assert profile["verificacion"]["comprobaciones"]["sellos_invalidos"] == [{"recibo": uuid, "motivo": "AC_DESCONOCIDA"}]
        assert any("(AC_DESCONOCIDA)" in n for n in profile["verificacion"]["notas"])
    # The fixtures' own receipts verify only with the test CA that issued their certificates.
    infonavit = [(DOCS / f"quincenal-40-infonavit-{i}.xml").read_bytes() for i in range(1, 7)]
    assert "ingreso_mensual" in profile_from_cfdi(infonavit, reference_date="2025-04-10", ca_sat=CA_PRUEBA)["verificacion"]["campos"]
    carried = profile_from_cfdi(infonavit, reference_date="2025-04-10")
    assert carried["verificacion"]["campos"] == []
    assert {f["motivo"] for f in carried["verificacion"]["comprobaciones"]["sellos_invalidos"]} == {"AC_DESCONOCIDA"}


def test_a_ca_set_is_loaded_from_files_a_folder_or_pem() -> None:
    der = (DOCS / "ca-prueba" / "ac" / "AC_PRUEBAS.cer").read_bytes()
    assert len(CA_PRUEBA) == 1 and len(CertificadosSat([der])) == 1
    assert len(CertificadosSat.incluidos()) == 4
    import base64
    pem = b"-----BEGIN CERTIFICATE-----\n" + base64.encodebytes(der) + b"-----END CERTIFICATE-----\n"
    sello = read_cfdi((DOCS / "quincenal-40-infonavit-1.xml").read_bytes(), ca_sat=CertificadosSat([pem]))["sello"]
    assert sello["ca_sat_verificada"] is True
    with pytest.raises(ScoreError) as info:
        CertificadosSat([der, b"no es un certificado"])
    assert (info.value.code, info.value.field) == ("DOCUMENT_UNREADABLE", "certificados[1]")
    with pytest.raises(ScoreError) as info:
        CertificadosSat([])
    assert info.value.code == "DOCUMENT_UNREADABLE"
    with pytest.raises(ScoreError) as info:
        CertificadosSat.from_dir(DOCS / "no-existe")
    assert info.value.code == "DOCUMENT_UNREADABLE"


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
